"""Fitting the layout to where the players laid their cards, on drawn tables."""

import numpy as np
import pytest

from referee.piles.layout_fit import fit_layout
from referee.piles.table_view import TableView
from referee.rules.cards import Card
from referee.table.layout import StockRow, TableLayout
from tests.piles.drawn_table import IMAGE_SIZE, DrawnTable, PlainCalibration

NOMINAL = TableLayout()
CARDS = ("6S", "KD", "2C", "JH", "8D", "4S", "QD", "3C", "10H", "7C", "5H", "9C")


def view_of(table: DrawnTable) -> np.ndarray:
    return TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE).rectify(table.frame(0.0))


def laid(layout: TableLayout, *, stocks=range(5), piles=True, back=None) -> DrawnTable:
    table = DrawnTable()
    names = iter(CARDS)
    for player in ("A", "B"):
        for slot in stocks:
            table.lay(None if (player, slot) == back else Card.parse(next(names)), layout.stock_centre(player, slot))
    if piles:
        table.lay(Card.parse("5H"), layout.spit_pile_centre(0))
        table.lay(Card.parse("9C"), layout.spit_pile_centre(1))
    return table


def fitted_to(layout: TableLayout, **kwargs) -> TableLayout:
    view = view_of(laid(layout, **kwargs))
    return fit_layout(view, 0.5, NOMINAL)


def test_cards_laid_where_the_layout_expects_them_leave_it_as_it_is():
    assert fitted_to(NOMINAL) == NOMINAL


@pytest.mark.parametrize("a_row, b_row", [
    (StockRow(112, 175, 0), StockRow(112, 175, 0)),    # wide rows, deep into the table
    (StockRow(70, 95, 0), StockRow(82, 150, 0)),       # tight and near A; B's deeper
    (StockRow(95, 130, 40), StockRow(82, 118, -30)),   # rows off to one side
])
def test_stock_rows_are_found_where_the_players_laid_them(a_row, b_row):
    truth = TableLayout(rows=(a_row, b_row))
    fitted = fitted_to(truth, back=("B", 4))  # a face-down stock top counts as much as a face-up one
    for player in ("A", "B"):
        for slot in range(6):
            assert np.allclose(fitted.stock_centre(player, slot) if slot < 5 else fitted.spare_slot_centre(player),
                               truth.stock_centre(player, slot) if slot < 5 else truth.spare_slot_centre(player), atol=6)


def test_a_row_of_too_few_cards_keeps_its_place():
    truth = TableLayout(stock_row_inset=170, spit_offset=120)
    fitted = fitted_to(truth, stocks=(1, 3), piles=False)
    assert fitted == NOMINAL


def test_a_row_seen_at_its_depth_but_not_its_pitch_moves_only_in_depth():
    truth = TableLayout(stock_row_inset=160)
    fitted = fitted_to(truth, stocks=(0, 2, 4))  # three piles: 164 apart, or 82 apart with gaps
    assert fitted.row("A") == StockRow(NOMINAL.stock_pitch, pytest.approx(160, abs=3), 0.0)


def test_a_checked_tablecloth_is_no_row_of_cards():
    """Its squares stand out from the table around them as much as cards do, and lie in rows; the cards
    laid on it are found by their paper."""
    from referee.piles.reading import card_coloured

    truth = TableLayout(rows=(StockRow(82, 150, 0), StockRow(82, 118, 0)))
    view = view_of(laid(truth))
    rows, cols = np.indices(view.shape[:2])
    square = 30  # px: 60 mm at 0.5 px per mm
    dark = ((rows // square + cols // square) % 2 == 0) & (card_coloured(view) == 0)
    view[dark] = (90, 30, 70)  # a purple check, darker than the cloth's other squares
    fitted = fit_layout(view, 0.5, NOMINAL)
    for player in ("A", "B"):
        for slot in range(5):
            assert np.allclose(fitted.stock_centre(player, slot), truth.stock_centre(player, slot), atol=6)
