"""The bare table: strips no card is ever laid on, its colour, and the light on it.

Telling a face-down card from an empty spot compares the spot with the bare table's colour
(`TableColour`). That colour is learned from strips of table that cards and hands leave alone, and
learned again a little each second. The light is measured on the same strips against the first view's
(`BareStrips.light`): a lamp dimmed or turning warm lights every strip alike. What is told by its colour
(the table, card paper) is told in the first view's light (`BareStrips.as_first`), so that a cloud or a
lamp switched on neither makes every empty spot look covered nor a face-down card look like the table.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.piles.pixels import scaled
from referee.piles.reading import TableColour
from referee.piles.table_view import RectMM
from referee.table.layout import TableLayout

#: the bare-table colour follows the light: each second, this share of it is learned afresh from the
#: never-covered strips, when less than TABLE_LIGHT_COVERED of them shows something moving
TABLE_LIGHT_BLEND = 0.1
TABLE_LIGHT_COVERED = 0.02
#: The light is measured on the strips (`BareStrips.light`) when each strip's colour has changed by the
#: same share as the others', within this in every channel: a lamp or a cloud lights them all alike, a
#: shadow or a leaning lamp only some.
LIGHT_EVEN = 0.06
#: Card paper is told in the first view's light (`BareStrips.in_first_light`) once the light has changed
#: from it by more than this share in some channel.
LIGHT_CHANGED = 0.08


class BareStrips:
    """Strips between the stock rows and the spit piles, and at the far left/right: never covered."""

    def __init__(self, layout: TableLayout, px_per_mm: float, shape: tuple[int, int], light: np.ndarray | None = None) -> None:
        """`light`: as measured so far on other strips (`light`), where the layout was fitted again."""
        low, high = layout.centre_band()
        strips = [RectMM(100, low + 3, layout.width - 100, low + 40),
                  RectMM(100, high - 40, layout.width - 100, high - 3),
                  RectMM(70, low, 160, high), RectMM(layout.width - 160, low, layout.width - 70, high)]
        self.slices = [strip.to_pixels(px_per_mm, shape) for strip in strips]
        self._first: np.ndarray | None = None  # each strip's mean colour (BGR) in the first view
        #: the light on the table against the first view's, per channel (BGR), as last measured
        self.light = np.ones(3) if light is None else light

    def cut(self, image: np.ndarray) -> list[np.ndarray]:
        """The strips of a top-down view (or of a mask of it)."""
        return [image[rows, cols] for rows, cols in self.slices]

    def see(self, colour: TableColour, view: np.ndarray) -> None:
        """The bare table as the first view, or the first since these strips were laid out, shows it: its
        colour learned afresh, and each strip's colour, both in the first view's light (the light is
        measured by the strips' colours)."""
        colour.learn(self.cut(self.as_first(view)))
        self._first = self._colours(view) / self.light

    def follow_the_light(self, colour: TableColour, view: np.ndarray, foreground: np.ndarray) -> None:
        """The bare-table colour drifts a little towards the strips as they look now, and the light is
        measured on them, unless something lies or moves over them (called once a second)."""
        moving = self.cut(foreground)
        covered = sum(int(np.count_nonzero(mask)) for mask in moving) / max(1, sum(mask.size for mask in moving))
        if covered < TABLE_LIGHT_COVERED:
            if self._first is not None:
                ratios = (self._colours(view) + 1.0) / (self._first + 1.0)
                if float(np.ptp(ratios, axis=0).max()) <= LIGHT_EVEN:
                    self.light = ratios.mean(axis=0)
            colour.learn(self.cut(self.as_first(view)), blend=TABLE_LIGHT_BLEND)

    def in_first_light(self, view: np.ndarray) -> np.ndarray | None:
        """`view` as the first view's light would show it, or None while the light is within LIGHT_CHANGED
        of that in every channel. Card paper is told by its colour (`reading.card_coloured`), which a lamp
        changes: under a warm one cream paper turns orange, dimmed it turns grey, and a card carried to a
        pile would no longer be told from the hand holding it."""
        if np.all(np.abs(self.light - 1.0) <= LIGHT_CHANGED):
            return None
        return scaled(view, 1.0 / self.light)

    def as_first(self, image: np.ndarray) -> np.ndarray:
        """`image` (any part of a view, or pixels N x 1 x 3) in the first view's light where the light has
        changed (`in_first_light`), else as it is: the table's colour (`TableColour`) is known in that light,
        and a red back under a lamp dimmed by a third looks like red felt in full light."""
        first = self.in_first_light(image)
        return image if first is None else first

    def _colours(self, view: np.ndarray) -> np.ndarray:
        """Each strip's mean colour (rows: strips; columns: B, G, R)."""
        return np.array([cv2.mean(strip)[:3] for strip in self.cut(view)])
