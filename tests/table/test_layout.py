"""The table layout: nominal places, and places where the players laid their rows and piles."""

import pytest

from referee.piles.zones import all_places
from referee.table.layout import StockRow, TableLayout


def test_stocks_are_numbered_from_each_owners_own_left():
    layout = TableLayout()
    a = [layout.stock_centre("A", slot)[0] for slot in range(5)]
    b = [layout.stock_centre("B", slot)[0] for slot in range(5)]
    assert a == sorted(a) and b == sorted(b, reverse=True)
    assert layout.stock_centre("A", 2) == (400.0, 118.0) and layout.stock_centre("B", 2) == (400.0, 482.0)
    assert layout.spare_slot_centre("A")[0] > a[-1] and layout.spare_slot_centre("B")[0] < b[-1]


def test_a_measured_row_moves_that_players_places_only():
    layout = TableLayout(rows=(StockRow(100, 150, 30), None))
    assert layout.stock_centre("A", 0) == (230.0, 150.0)
    assert layout.stock_centre("A", 4) == (630.0, 150.0)
    assert layout.spit_stack_centre("A") == (400 + 30 - 330.0, 140.0)
    assert layout.stock_centre("B", 0) == TableLayout().stock_centre("B", 0)


def test_measured_spit_piles_split_the_middle_between_them():
    layout = TableLayout(spit_centres=((250.0, 320.0), (500.0, 290.0)))
    assert layout.spit_pile_centre(0) == (250.0, 320.0)
    assert layout.spit_split_x() == 375.0
    zones = all_places(layout)
    left, right = zones[next(p for p in zones if p.kind == "spit_pile" and p.index == 0)][0], \
        zones[next(p for p in zones if p.kind == "spit_pile" and p.index == 1)][0]
    assert left.x1 < 375 < right.x0


@pytest.mark.parametrize("inset", [118.0, 175.0, 230.0])
def test_spit_zones_keep_off_the_stock_zones_however_deep_the_rows(inset):
    layout = TableLayout(stock_row_inset=inset)
    zones = {place: zone for place, (zone, _) in all_places(layout).items()}
    piles = [zone for place, zone in zones.items() if place.kind == "spit_pile"]
    stocks = [zone for place, zone in zones.items() if place.kind == "stock"]
    low, high = layout.centre_band()
    assert low < high
    for pile in piles:
        assert pile.y1 - pile.y0 >= 88
        if inset < 200:  # rows that leave a card's height free between them
            assert all(pile.y0 > stock.y1 or pile.y1 < stock.y0 for stock in stocks)
