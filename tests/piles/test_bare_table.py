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


def test_a_lamp_that_lights_every_strip_alike_is_measured_and_card_paper_told_in_the_first_light():
    layout = TableLayout()
    shape = (300, 400)
    strips, colour = BareStrips(layout, PX_PER_MM, shape), TableColour()
    first = _table((60, 110, 160), shape, seed=1)
    card = RectMM(300, 240, 363, 328).to_pixels(PX_PER_MM, shape)
    first[card] = (190, 205, 235)  # cream paper, card-coloured as the game begins
    strips.see(colour, first)
    assert strips.in_first_light(first) is None
    warm = _lit(first, WARM)
    assert not card_coloured(warm)[card].any()  # the same paper under the warm lamp is orange
    strips.follow_the_light(colour, warm, np.zeros(shape, np.uint8))
    np.testing.assert_allclose(strips.light, WARM, atol=0.01)
    assert card_coloured(strips.in_first_light(warm))[card].all()


def test_a_light_within_a_few_percent_of_the_first_changes_nothing():
    layout = TableLayout()
    shape = (300, 400)
    strips, colour = BareStrips(layout, PX_PER_MM, shape), TableColour()
    first = _table((60, 110, 160), shape, seed=1)
    strips.see(colour, first)
    strips.follow_the_light(colour, _lit(first, np.array([0.97, 1.0, 1.03])), np.zeros(shape, np.uint8))
    assert strips.in_first_light(first) is None


def test_a_shadow_over_some_strips_is_no_change_of_the_light():
    layout = TableLayout()
    shape = (300, 400)
    strips, colour = BareStrips(layout, PX_PER_MM, shape), TableColour()
    first = _table((60, 110, 160), shape, seed=1)
    strips.see(colour, first)
    shaded = first.copy()
    shaded[:, :100] = _lit(first[:, :100], np.array([0.7, 0.7, 0.7]))  # a lamp leaning over the left of the table
    strips.follow_the_light(colour, shaded, np.zeros(shape, np.uint8))
    np.testing.assert_array_equal(strips.light, np.ones(3))


def test_strips_laid_out_again_keep_the_light_measured_so_far():
    shape = (300, 400)
    strips, colour = BareStrips(TableLayout(), PX_PER_MM, shape), TableColour()
    first = _table((60, 110, 160), shape, seed=1)
    strips.see(colour, first)
    warm = _lit(first, WARM)
    strips.follow_the_light(colour, warm, np.zeros(shape, np.uint8))
    moved = BareStrips(TableLayout(width=900.0, height=640.0), PX_PER_MM, shape, strips.light)
    moved.see(colour, warm)
    moved.follow_the_light(colour, warm, np.zeros(shape, np.uint8))
    np.testing.assert_allclose(moved.light, WARM, atol=0.01)


def test_under_a_dimmed_lamp_a_face_down_card_like_the_table_in_full_light_is_still_told_from_the_table():
    # seed 203: a red back under a lamp dimmed by a third looked like the dark red felt, and a stock was read bare
    layout = TableLayout()
    shape = (300, 400)
    strips, colour = BareStrips(layout, PX_PER_MM, shape), TableColour()
    first = _table((40, 40, 120), shape, seed=1)   # dark red felt
    strips.see(colour, first)
    back = RectMM(300, 240, 363, 328).to_pixels(PX_PER_MM, shape)
    dimmed = _lit(first, np.array([0.65, 0.65, 0.65]))
    dimmed[back] = _lit(_table((62, 62, 185), shape, seed=3), np.array([0.65, 0.65, 0.65]))[back]   # a red back, dimmed
    for _ in range(3):  # three seconds of the dimmed light
        strips.follow_the_light(colour, dimmed, np.zeros(shape, np.uint8))
    assert not colour.something_there(dimmed[back])         # as the view shows it, the back is the felt's colour
    assert colour.something_there(strips.as_first(dimmed[back]))
    assert not colour.something_there(strips.as_first(dimmed[RectMM(200, 240, 263, 328).to_pixels(PX_PER_MM, shape)]))
