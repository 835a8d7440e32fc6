"""The never-covered strips of table, and the bare-table colour following the light through them."""

import numpy as np
import pytest

from referee.piles.bare_table import BareStrips
from referee.piles.reading import TableColour
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
