"""A model of the empty-of-movement table, so that hands, arms and cards in motion stand out.

The model is the table as it last stood still (cards lying on it included). It follows slow lighting
changes everywhere it sees no foreground, follows a sudden global change (a lamp switched on, a cloud)
through a per-channel gain, and takes in a region at once when the tracker says it has settled
(a card that has landed becomes part of the table).
"""

from __future__ import annotations

import cv2
import numpy as np

#: How different (0-255, largest channel) a pixel must be from the model to count as foreground.
#: Lower: shadows and compression noise become "hands"; higher: a pale hand on a pale table is missed.
FOREGROUND_THRESHOLD = 16
#: A foreground pixel that changes less than this (0-255) from one frame to the next is still; one still
#: for `absorb_frames` frames (about half a second) is taken into the model: a layout just dealt, a card
#: put down where no place is watched.
STILL_PIXEL = 10
#: The still parts of a player's hand and arm of which some other part moves are taken in only after this
#: many times as long: an arm resting on the table's edge while its hand turns a card over must stay part
#: of that hand, or the hand, cut off from the edge, is taken for a loose object and the place under it
#: for settled. Still a limit, so that something lying against the edge (a sleeve, a shadow) cannot keep
#: the places under it busy forever.
HAND_ABSORB_FACTOR = 6
#: Fraction of each new frame blended into the model where nothing moves. Higher follows lighting
#: faster but also swallows a hand that stays still for a few seconds.
ADAPT_RATE = 0.03


class BackgroundModel:
    def __init__(self, first_view: np.ndarray, *, threshold: int = FOREGROUND_THRESHOLD,
                 adapt_rate: float = ADAPT_RATE, absorb_frames: int = 15) -> None:
        self.model = first_view.astype(np.float32)
        self.threshold = threshold
        self.adapt_rate = adapt_rate
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        # closes the gaps a motion-blurred hand leaves between itself and its arm
        self._bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._last_background = np.ones(first_view.shape[:2], np.uint8)
        self.absorb_frames = absorb_frames
        self._previous: np.ndarray | None = None
        self._still_count = np.zeros(first_view.shape[:2], np.int16)

    def _gain(self, view: np.ndarray) -> np.ndarray:
        """Per-channel brightness ratio frame/model over what was background last time."""
        where = self._last_background
        if cv2.countNonZero(where) < 0.2 * where.size:
            return np.ones(3, np.float32)
        seen = np.array(cv2.mean(view, mask=where)[:3], np.float32)
        model = np.array(cv2.mean(self.model, mask=where)[:3], np.float32)
        return np.clip((seen + 1.0) / (model + 1.0), 0.5, 2.0).astype(np.float32)

    def foreground(self, view: np.ndarray) -> np.ndarray:
        """Mask (uint8 0/1) of what differs from the still table in this view."""
        gain = self._gain(view)
        if np.any(np.abs(gain - 1.0) > 0.02):
            self.model *= gain  # the light changed everywhere at once: follow it now
        difference = cv2.absdiff(view, cv2.convertScaleAbs(self.model))
        blue, green, red = cv2.split(difference)
        largest = cv2.max(cv2.max(blue, green), red)
        _, mask = cv2.threshold(largest, self.threshold, 1, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self._bridge)

    def moving(self, view: np.ndarray) -> np.ndarray | None:
        """Mask (uint8 0/1) of what changed since the last view given to `update`; None before it."""
        if self._previous is None:
            return None
        blue, green, red = cv2.split(cv2.absdiff(view, self._previous))
        return (cv2.max(cv2.max(blue, green), red) > STILL_PIXEL).view(np.uint8)

    def update(self, view: np.ndarray, foreground: np.ndarray, hands: np.ndarray | None = None,
               moving: np.ndarray | None = None) -> None:
        """Blend still parts of the view into the model; take in foreground that has stopped moving.
        `hands`: a mask of the players' hands and arms; the still parts of one whose hand still moves are
        taken in only after HAND_ABSORB_FACTOR times as long. (A blob wholly still goes in as usual: an
        arm laid to rest, or the ghost of a hand that was in the very first view, now gone.) `moving`:
        `self.moving(view)` when the caller has it already."""
        self._last_background = (foreground == 0).astype(np.uint8)
        if self.adapt_rate > 0:
            cv2.accumulateWeighted(view, self.model, self.adapt_rate, mask=self._last_background)
        if self._previous is not None:
            moving = (self.moving(view) if moving is None else moving).view(bool)
            still_foreground = (foreground > 0) & ~moving
            self._still_count = np.where(still_foreground, self._still_count + 1, 0).astype(np.int16)
            settled = self._still_count >= self.absorb_frames
            if hands is not None and settled.any():
                settled &= ~_moving_blobs(hands, moving) | (self._still_count >= HAND_ABSORB_FACTOR * self.absorb_frames)
            if settled.any():
                self.model[settled] = view[settled]
                self._still_count[settled] = 0
        self._previous = view

    def absorb(self, view: np.ndarray, rows: slice, cols: slice) -> None:
        """Take a settled region into the model at once."""
        self.model[rows, cols] = view[rows, cols]


def _moving_blobs(hands: np.ndarray, moving: np.ndarray) -> np.ndarray:
    """Bool mask of the blobs of `hands` of which some pixel moves."""
    count, labels = cv2.connectedComponents(hands.astype(np.uint8), connectivity=8)
    live = np.zeros(count, bool)
    live[np.unique(labels[moving & (hands > 0)])] = True
    live[0] = False
    return live[labels]
