"""The never-covered strips of table, and the bare-table colour following the light through them."""

import numpy as np
import pytest

from referee.piles.bare_table import BareStrips
from referee.piles.reading import TableColour, card_coloured
from referee.piles.table_view import RectMM
from referee.piles.zones import all_places
from referee.table.layout import TableLayout

PX_PER_MM = 0.5


def _overlaps(one: tuple[slice, slice], other: tuple[slice, slice]) -> bool:
    return all(a.start < b.stop and b.start < a.stop for a, b in zip(one, other))


@pytest.mark.parametrize("layout", [TableLayout(), TableLayout(width=900.0, height=640.0)])
def test_no_card_is_ever_laid_on_the_bare_strips(layout):
    shape = (int(layout.height * PX_PER_MM), int(layout.width * PX_PER_MM))
    strips = BareStrips(layout, PX_PER_MM, shape)
    cards = [card.to_pixels(PX_PER_MM, shape) for _, card in all_places(layout).values()]
    assert len(strips.slices) == 4 and all(rows.stop > rows.start and cols.stop > cols.start for rows, cols in strips.slices)
    assert not any(_overlaps(strip, card) for strip in strips.slices for card in cards)


def _table(bgr: tuple[int, int, int], shape: tuple[int, int], seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, 0.6, (*shape, 3))
    return np.clip(np.array(bgr, np.float32) + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("moving, follows", [
    (None, True),
    (RectMM(300, 240, 360, 360), True),    # a hand over a spit pile, between the strips
    (RectMM(280, 150, 380, 300), False),   # an arm across a strip: its shadow is no change of light
])
def test_the_table_colour_follows_the_light_unless_something_moves_over_the_strips(moving, follows):
    layout = TableLayout()
    shape = (300, 400)
    strips = BareStrips(layout, PX_PER_MM, shape)
    colour = TableColour()
    colour.learn(strips.cut(_table((40, 90, 140), shape, seed=1)))   # warm wood under a lamp
    daylight = _table((90, 100, 120), shape, seed=2)
    foreground = np.zeros(shape, np.uint8)
    if moving is not None:
        foreground[moving.to_pixels(PX_PER_MM, shape)] = 1
    for second in range(30):
        strips.follow_the_light(colour, _table((90, 100, 120), shape, seed=10 + second), foreground)
    spot = RectMM(380, 280, 420, 320).to_pixels(PX_PER_MM, shape)
    assert colour.something_there(daylight[spot]) != follows


WARM = np.array([0.85, 1.0, 1.12])  # a warm lamp: less blue, more red (BGR)


def _lit(image: np.ndarray, light: np.ndarray) -> np.ndarray:
    return np.clip(image.astype(np.float32) * light, 0, 255).astype(np.uint8)


def _first_view(table_bgr: tuple[int, int, int] = (60, 110, 160), card: tuple | None = None):
    """Strips that have seen a first view of a plain table (with a card of `card`'s colour on it): the
    strips, the table's colour learned, the view, and the card's pixels."""
    shape = (300, 400)
    strips, colour = BareStrips(TableLayout(), PX_PER_MM, shape), TableColour()
    first = _table(table_bgr, shape, seed=1)
    spot = RectMM(300, 240, 363, 328).to_pixels(PX_PER_MM, shape)
    if card is not None:
        first[spot] = card
    strips.see(colour, first)
    return strips, colour, first, spot


def _still(view: np.ndarray) -> np.ndarray:
    return np.zeros(view.shape[:2], np.uint8)


def test_a_lamp_that_lights_every_strip_alike_is_measured_and_card_paper_told_in_the_first_light():
    strips, colour, first, card = _first_view(card=(190, 205, 235))  # cream paper, card-coloured as the game begins
    assert strips.in_first_light(first) is None
    warm = _lit(first, WARM)
    assert not card_coloured(warm)[card].any()  # the same paper under the warm lamp is orange
    strips.follow_the_light(colour, warm, _still(warm))
    np.testing.assert_allclose(strips.light, WARM, atol=0.01)
    assert card_coloured(strips.in_first_light(warm))[card].all()


def test_a_light_within_a_few_percent_of_the_first_changes_nothing():
    strips, colour, first, _ = _first_view()
    strips.follow_the_light(colour, _lit(first, np.array([0.97, 1.0, 1.03])), _still(first))
    assert strips.in_first_light(first) is None


def test_a_shadow_over_some_strips_is_no_change_of_the_light():
    strips, colour, first, _ = _first_view()
    shaded = first.copy()
    shaded[:, :100] = _lit(first[:, :100], np.array([0.7, 0.7, 0.7]))  # a lamp leaning over the left of the table
    strips.follow_the_light(colour, shaded, _still(shaded))
    np.testing.assert_array_equal(strips.light, np.ones(3))


def test_strips_laid_out_again_keep_the_light_measured_so_far():
    strips, colour, first, _ = _first_view()
    warm = _lit(first, WARM)
    strips.follow_the_light(colour, warm, _still(warm))
    moved = BareStrips(TableLayout(width=900.0, height=640.0), PX_PER_MM, warm.shape[:2], strips.light)
    moved.see(colour, warm)
    moved.follow_the_light(colour, warm, _still(warm))
    np.testing.assert_allclose(moved.light, WARM, atol=0.01)


def test_under_a_dimmed_lamp_a_face_down_card_like_the_table_in_full_light_is_still_told_from_the_table():
    # seed 203: a red back under a lamp dimmed by a third looked like the dark red felt, and a stock was read bare
    strips, colour, first, back = _first_view((40, 40, 120))   # dark red felt
    dimmed = _lit(first, np.array([0.65, 0.65, 0.65]))
    dimmed[back] = _lit(_table((62, 62, 185), first.shape[:2], seed=3), np.array([0.65, 0.65, 0.65]))[back]   # a red back, dimmed
    for _ in range(3):  # three seconds of the dimmed light
        strips.follow_the_light(colour, dimmed, _still(dimmed))
    assert not colour.something_there(dimmed[back])         # as the view shows it, the back is the felt's colour
    assert colour.something_there(strips.as_first(dimmed[back]))
    assert not colour.something_there(strips.as_first(dimmed[RectMM(200, 240, 263, 328).to_pixels(PX_PER_MM, first.shape[:2])]))
