"""One place on the table (a spit pile, a stock slot) watched frame by frame.

A place is *busy* while a hand is over it, and *settles* when the hands have left and its picture
has stayed still for a few frames. On settling, if its picture changed since it last settled, the
tracker re-reads it (top card) and reports a `PlaceChange` carrying every hand visit since then,
each with its sub-frame touch time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.piles.table_view import RectMM
from referee.piles.touch import TouchEstimate, estimate_touch

#: Frames a place must stay still, hands away, before it is re-read. Raise it on noisy cameras;
#: lower it to rule faster (the ruling waits this long after the hand leaves).
SETTLE_FRAMES = 3
#: Mean change (0-255) of a place's picture between two frames under which it counts as still.
STILL_LEVEL = 4.0
#: Fraction of a place's pixels that must differ from its last settled picture for it to have changed.
CHANGED_FRACTION = 0.04
#: How far (mm) around the place a hand is followed to time its approach.
APPROACH_MARGIN_MM = 60.0


@dataclass
class Visit:
    """One player's hand near a place, from when it came near until it left."""

    player: str
    first_frame: int
    samples: list[tuple[int, float, float]] = field(default_factory=list)  # (frame, t, signed distance mm)
    touch: TouchEstimate | None = None
    last_frame: int = 0
    frames_in_contact: int = 0
    #: a sharp cut of the place taken as this hand left it (what it had just put down)
    snapshot: object = None


@dataclass(frozen=True)
class PlaceChange:
    """A place settled after something happened to it."""

    place: tuple
    frame: int               # the frame in which it settled
    t: float
    changed: bool            # its picture differs from the last settled one
    visits: tuple[Visit, ...]
    footprint: np.ndarray    # bool mask (padded-region coordinates) of what now lies there
    crop_rect: RectMM


class PlaceTracker:
    def __init__(self, place: tuple, rect: RectMM, px_per_mm: float, view_shape: tuple[int, int],
                 *, nominal_card: RectMM | None = None) -> None:
        self.place = place
        self.rect = rect
        self.px_per_mm = px_per_mm
        margin = APPROACH_MARGIN_MM
        self.padded = RectMM(rect.x0 - margin, rect.y0 - margin, rect.x1 + margin, rect.y1 + margin)
        self.rows, self.cols = self.padded.to_pixels(px_per_mm, view_shape)
        inner_rows, inner_cols = rect.to_pixels(px_per_mm, view_shape)
        self.inner = (slice(inner_rows.start - self.rows.start, inner_rows.stop - self.rows.start),
                      slice(inner_cols.start - self.cols.start, inner_cols.stop - self.cols.start))
        shape = (self.rows.stop - self.rows.start, self.cols.stop - self.cols.start)
        self.nominal = np.zeros(shape, bool)
        card = nominal_card or rect
        card_rows, card_cols = card.to_pixels(px_per_mm, view_shape)
        self.nominal[card_rows.start - self.rows.start:card_rows.stop - self.rows.start,
                     card_cols.start - self.cols.start:card_cols.stop - self.cols.start] = True
        self.footprint = self.nominal.copy()
        self._distances()
        self.settled_crop: np.ndarray | None = None
        self.visits: dict[str, Visit] = {}
        self.finished: list[Visit] = []
        self._previous_crop: np.ndarray | None = None
        self._still_frames = 0
        self._dirty = True  # read it as soon as it first settles

    # geometry -------------------------------------------------------------------------------------
    def _distances(self) -> None:
        outside = (~self.footprint).astype(np.uint8)
        self._distance_outside = cv2.distanceTransform(outside, cv2.DIST_L2, 3) / self.px_per_mm
        self._distance_inside = cv2.distanceTransform(self.footprint.astype(np.uint8), cv2.DIST_L2, 3) / self.px_per_mm

    def set_footprint(self, footprint: np.ndarray) -> None:
        self.footprint = footprint if footprint.any() else self.nominal.copy()
        self._distances()

    def signed_distance(self, hand: np.ndarray) -> float | None:
        """mm from the hand's leading edge to the outline (negative when overlapping); None if no hand near."""
        local = hand[self.rows, self.cols]
        if not local.any():
            return None
        overlap = local & self.footprint
        if overlap.any():
            return -float(self._distance_inside[overlap].max())
        return float(self._distance_outside[local].min())

    def crop(self, view: np.ndarray) -> np.ndarray:
        return view[self.rows, self.cols]

    # per frame ------------------------------------------------------------------------------------
    def step(self, view: np.ndarray, owned: dict[str, np.ndarray], frame: int, t: float,
             period: float) -> PlaceChange | None:
        busy = False
        for player, hand in owned.items():
            distance = self.signed_distance(hand)
            visit = self.visits.get(player)
            if distance is None:
                if visit is not None:
                    self.finished.append(self.visits.pop(player))
                continue
            busy = True
            if visit is None:
                visit = self.visits[player] = Visit(player, frame)
            visit.last_frame = frame
            visit.samples.append((frame, t, distance))
            if distance <= 0:
                visit.frames_in_contact += 1
                if visit.touch is None:
                    visit.touch = estimate_touch(visit.samples[-6:], period)
            elif visit.touch is None and len(visit.samples) > 8:
                del visit.samples[:-8]
        crop = self.crop(view)
        if busy:
            self._dirty = True
            self._still_frames = 0
            self._previous_crop = crop.copy()
            return None
        if self._previous_crop is not None:
            motion = float(cv2.absdiff(crop, self._previous_crop).mean())
            self._still_frames = self._still_frames + 1 if motion < STILL_LEVEL else 0
        self._previous_crop = crop.copy()
        if not self._dirty or self._still_frames < SETTLE_FRAMES:
            return None
        return self._settle(crop, frame, t)

    def _settle(self, crop: np.ndarray, frame: int, t: float) -> PlaceChange:
        changed = True
        footprint = self.footprint
        if self.settled_crop is not None:
            difference = cv2.absdiff(crop, self.settled_crop).max(axis=2) > 30
            difference = cv2.morphologyEx(difference.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)).astype(bool)
            changed = difference[self.inner].mean() > CHANGED_FRACTION
            if changed:
                footprint = _hull(difference)
        visits = tuple(visit for visit in self.finished if visit.touch is not None or visit.frames_in_contact)
        self.finished = []
        self.settled_crop = crop.copy()
        self._dirty = False
        return PlaceChange(self.place, frame, t, changed, visits, footprint, self.padded)

    @property
    def dirty(self) -> bool:
        return self._dirty

    def pending_touch(self) -> float | None:
        """Earliest touch time of visits not yet reported (the pipeline holds later rulings back for it)."""
        times = [visit.touch.t for visit in list(self.visits.values()) + self.finished if visit.touch is not None]
        return min(times) if times else None


def _hull(mask: np.ndarray) -> np.ndarray:
    points = cv2.findNonZero(mask.astype(np.uint8))
    out = np.zeros(mask.shape, np.uint8)
    if points is None:
        return out.astype(bool)
    cv2.fillConvexPoly(out, cv2.convexHull(points), 1)
    return out.astype(bool)
