"""The bare table: strips no card is ever laid on, and its colour following the light.

Telling a face-down card from an empty spot compares the spot with the bare table's colour
(`TableColour`). That colour is learned from strips of table that cards and hands leave alone, and
learned again a little each second so that a cloud or a lamp switched on does not make every empty
spot look covered.
"""

from __future__ import annotations

import numpy as np

from referee.piles.reading import TableColour
from referee.piles.table_view import RectMM
from referee.table.layout import TableLayout

#: the bare-table colour follows the light: each second, this share of it is learned afresh from the
#: never-covered strips, when less than TABLE_LIGHT_COVERED of them shows something moving
TABLE_LIGHT_BLEND = 0.1
TABLE_LIGHT_COVERED = 0.02


class BareStrips:
    """Strips between the stock rows and the spit piles, and at the far left/right: never covered."""

    def __init__(self, layout: TableLayout, px_per_mm: float, shape: tuple[int, int]) -> None:
        low, high = layout.centre_band()
        strips = [RectMM(100, low + 3, layout.width - 100, low + 40),
                  RectMM(100, high - 40, layout.width - 100, high - 3),
                  RectMM(70, low, 160, high), RectMM(layout.width - 160, low, layout.width - 70, high)]
        self.slices = [strip.to_pixels(px_per_mm, shape) for strip in strips]

    def cut(self, image: np.ndarray) -> list[np.ndarray]:
        """The strips of a top-down view (or of a mask of it)."""
        return [image[rows, cols] for rows, cols in self.slices]

    def follow_the_light(self, colour: TableColour, view: np.ndarray, foreground: np.ndarray) -> None:
        """The bare-table colour drifts a little towards the strips as they look now, unless something
        lies or moves over them (called once a second)."""
        moving = self.cut(foreground)
        covered = sum(int(np.count_nonzero(mask)) for mask in moving) / max(1, sum(mask.size for mask in moving))
        if covered < TABLE_LIGHT_COVERED:
            colour.learn(self.cut(view), blend=TABLE_LIGHT_BLEND)
