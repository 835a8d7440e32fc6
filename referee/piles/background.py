"""A model of the empty-of-movement table, so that hands, arms and cards in motion stand out.

The model is the table as it last stood still (cards lying on it included). It follows slow lighting
changes everywhere it sees no foreground, and takes in a region at once when the tracker says it has
settled (a card that has landed becomes part of the table).

The light of a whole frame changes in two ways: for good (a lamp switched on, a cloud) and back and
forth from frame to frame (lamps on the mains flicker at 100 or 120 Hz, which a 30 or 60 fps camera
sees as a beat of a few hertz). `steady` measures each frame's per-channel gain against the model over
what was table last time; the model follows that gain within LIGHT_FOLLOW_SECONDS, and the frame is
scaled by what is left of it, so that what compares frames (what moves, whether a place is still)
sees steady light.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from referee.piles.pixels import differs, scaled
from referee.piles.shadows import in_its_light, shade_of, shadow_gone

#: How different (0-255, largest channel) a pixel must be from the model to count as foreground.
#: Lower: shadows and compression noise become "hands"; higher: a pale hand on a pale table is missed.
FOREGROUND_THRESHOLD = 16
#: ... and what differs by this much is a faint part of it where it joins pieces that differ by that much
#: (`faint`): dark skin over dark wood differs by 8-25 (seed 122's player A).
FAINT_THRESHOLD = 8
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
#: Time constant (s) in which the model follows a change of the whole frame's light; faster changes
#: (flicker) are taken out of the frames instead.
LIGHT_FOLLOW_SECONDS = 0.3
#: A frame whose gain is within this of 1 in every channel is left as it is (2 %: 5 grey levels on white
#: card paper, half what counts as moving; rendered and real frames of a steady table wander about 1 %).
LIGHT_STEADY = 0.02
#: A pixel is in a shadow when every channel is darker than the still table by about the same share:
#: at most SHADE_MOST of the model's in each, the three within SHADE_SPREAD of each other. A card held
#: a few centimetres over a pile, and the hand holding it, shade the pile's white top ahead of them;
#: shaded white is still pale and unsaturated, and differs from the model: it would pass for the
#: carried card. The card itself is not shaded paper: over the table it is lighter than the table,
#: over a white pile top it does not differ at all, over the pile's printing it is lighter in some
#: channels than others.
SHADE_MOST = 0.95
SHADE_SPREAD = 0.1
#: ... on what the model holds as white paper (its darkest channel at least this): over the table a
#: card can be darker than a pale table and in the shadow of the hand that holds it.
SHADED_PAPER = 170.0
#: For this long (s) from the first view, the ghost of what the first view caught in passing (an arm
#: laying a card as a clip opens) goes into the model whatever now shows where it was (a stock's back as
#: well as bare table); later, only where bare table shows (see `BackgroundModel._ghosts`).
GHOST_OPENING_SECONDS = 3.0
#: ... and in that time, where the view has shown bare table for this long (s), still, it goes in at once,
#: without waiting the half second anything else still waits: the arm that laid a card as the clip opened
#: leaves its ghost at the pile, and a ghost that touches the pile's zone keeps that player's visit there
#: open, so that their next card, laid within the second, was taken for part of the first.
GHOST_BARE_SECONDS = 0.1
#: Bare table the view shows lighter than the model holds it, by the same share in every channel (within
#: RELIT_SPREAD of their mean), is the light come back where the model still holds a shadow: a broad one
#: that left around a hand lying in it (seed 305's clips: A's dark hand at a stock as a leaning player's
#: shadow left; the table where it lay stood out as its ghost for half a second, and a card turned and
#: played there went unseen). Still for GHOST_BARE_SECONDS, it goes in at once, for RELIT_SECONDS after a
#: broad shadow was last seen leaving (`shadows.shadow_gone`). Nothing else is bare table lit alike: a card
#: or a hand differs from the table in colour, not only light. (At any time, it also took in the table a
#: resting hand's own shadow had darkened: 36 of 90 kept replays changed, as many plays lost as found.)
RELIT_SPREAD = 0.06
RELIT_SECONDS = 2.0
#: Broad shadows (`shadows`) are looked for once at least this share of the last view stood out from the
#: model (a shadow coming in stands out first), and while one lies on the table.
SHADOW_WATCH = 0.08


class BackgroundModel:
    def __init__(self, first_view: np.ndarray, *, threshold: int = FOREGROUND_THRESHOLD,
                 adapt_rate: float = ADAPT_RATE, absorb_frames: int = 15, period: float = 1 / 30) -> None:
        self.model = first_view.astype(np.float32)
        # share of the light's change the model follows each frame
        self._follow = 1.0 - float(np.exp(-period / LIGHT_FOLLOW_SECONDS))
        self.threshold = threshold
        self.adapt_rate = adapt_rate
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        # closes the gaps a motion-blurred hand leaves between itself and its arm
        self._bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._last_background = np.ones(first_view.shape[:2], np.uint8)
        #: `_last_background` at every eighth pixel each way (bool), where `_gain` measures the light: taken
        #: when the mask is made, while it is in the cache, not strided through it a frame later
        self._background_grid = self._last_background[::8, ::8] > 0
        self.absorb_frames = absorb_frames
        self._previous: np.ndarray | None = None
        self._still_count = np.zeros(first_view.shape[:2], np.int16)
        #: the first view, against which a ghost is told: the model still holds an arm the first view
        #: showed, where the table now shows (see `update`)
        self._first = first_view.copy()
        self._opening_frames = int(round(GHOST_OPENING_SECONDS / period))
        self._ghost_frames = max(2, int(round(GHOST_BARE_SECONDS / period)))
        self._frames = 0
        self._relit_frames = int(round(RELIT_SECONDS / period))
        self._relit_until = -1  # the last frame `update` looks for the light come back (see RELIT_SPREAD)
        #: where the last view given to `steady` lay in a broad shadow (bool mask), or None
        self.in_shadow: np.ndarray | None = None
        self._still: np.ndarray | None = None  # `still_table()`, until the model changes

    def _gain(self, view: np.ndarray, grid: np.ndarray | None = None) -> np.ndarray:
        """Per-channel brightness ratio frame/model over what was background last time, taken at every
        eighth pixel each way (`grid`: `view[::8, ::8]`, when taken already): the mean of the ratios within
        10 % of their median, so that cards vanishing at once (a cut in the video, a table cleared unseen)
        are not taken for the light going down."""
        where = self._background_grid
        if np.count_nonzero(where) < 0.2 * where.size:
            return np.ones(3, np.float32)
        seen = (view[::8, ::8] if grid is None else grid)[where].astype(np.float32)
        model = self.model[::8, ::8][where]
        ratios = np.ascontiguousarray(((seen + 1.0) / (model + 1.0)).T)
        middle = ratios.shape[1] // 2
        median = np.partition(ratios, middle, axis=1)[:, middle:middle + 1]
        # the mean of the ratios near the median: a median alone moves in steps of a grey level
        near = np.abs(ratios - median) <= 0.1 * median
        gain = (ratios * near).sum(axis=1) / np.maximum(near.sum(axis=1), 1)
        return np.clip(gain, 0.5, 2.0).astype(np.float32)

    def steady(self, view: np.ndarray, grid: np.ndarray | None = None) -> np.ndarray:
        """The view in the model's light: the model takes the slow part of the frame's change of light,
        the view is scaled by the rest (see the module's docstring); and where a broad soft shadow lies
        (`shadows`), the view as it would look without it. `grid`: `grid_of(view)`, when taken already
        (where the view was made: its every eighth pixel is picked out of memory still in the cache)."""
        gain = self._gain(view, grid)
        if not np.all(np.abs(gain - 1.0) <= LIGHT_STEADY):
            followed = gain ** self._follow
            cv2.multiply(self.model, (float(followed[0]), float(followed[1]), float(followed[2]), 0.0), dst=self.model)
            self._still = None
            rest = followed / gain
            view = scaled(view, rest)
        if self.in_shadow is None and np.count_nonzero(self._last_background) >= (1.0 - SHADOW_WATCH) * self._last_background.size:
            return view  # too little stood out last time for a shadow to lie here
        gone = shadow_gone(view, self.still_table())
        if gone is not None:  # the table lit again where the model holds a shadow: taken in at once
            self.model[gone] = view[gone]
            self._still = None
            self._relit_until = self._frames + self._relit_frames
        shade = shade_of(view, self.still_table())
        self.in_shadow = None if shade is None else shade != 1.0
        return view if shade is None else in_its_light(view, shade)

    def still_table(self) -> np.ndarray:
        """The model as an image (uint8 BGR), made once for each state of the model."""
        if self._still is None:
            self._still = cv2.convertScaleAbs(self.model)
        return self._still

    def foreground(self, view: np.ndarray) -> np.ndarray:
        """Mask (uint8 0/1) of what differs from the still table in this view (a `steady` one)."""
        mask = cv2.morphologyEx(differs(view, self.still_table(), self.threshold), cv2.MORPH_OPEN, self._kernel)
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self._bridge)

    def faint(self, view: np.ndarray) -> np.ndarray:
        """Mask (uint8 0/1) of what differs from the still table by FAINT_THRESHOLD or more: a dark hand
        over dark wood, which `foreground` sees only in pieces (`hands.HandTracker.split` joins them)."""
        return cv2.morphologyEx(differs(view, self.still_table(), FAINT_THRESHOLD), cv2.MORPH_OPEN, self._kernel)

    def moving(self, view: np.ndarray) -> np.ndarray | None:
        """Mask (uint8 0/1) of what changed since the last view given to `update`; None before it."""
        if self._previous is None:
            return None
        return differs(view, self._previous, STILL_PIXEL)

    def shaded(self, view: np.ndarray, rows: slice = slice(None), cols: slice = slice(None)) -> np.ndarray:
        """Mask (uint8 0/1) of the white paper in `view[rows, cols]` that lies in a shadow cast since the
        table was last still (see SHADE_MOST)."""
        model = self.model[rows, cols]
        ratios = cv2.divide(view[rows, cols].astype(np.float32) + 1.0, model + 1.0)
        blue, green, red = ratios[..., 0], ratios[..., 1], ratios[..., 2]
        most = np.maximum(np.maximum(blue, green), red)
        least = np.minimum(np.minimum(blue, green), red)
        paper = np.minimum(np.minimum(model[..., 0], model[..., 1]), model[..., 2]) >= SHADED_PAPER
        return (paper & (most <= SHADE_MOST) & (most - least <= SHADE_SPREAD)).view(np.uint8)

    def update(self, view: np.ndarray, foreground: np.ndarray, hands: np.ndarray | None = None,
               moving: np.ndarray | None = None, looks_bare: Callable[[np.ndarray], np.ndarray] | None = None,
               likeness: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        """Blend still parts of the view into the model; take in foreground that has stopped moving.
        `hands`: a mask of the players' hands and arms; the still parts of one whose hand still moves are
        taken in only after HAND_ABSORB_FACTOR times as long. (A blob wholly still goes in as usual: an
        arm laid to rest, or the ghost of a hand that was in the very first view, now gone.) `moving`:
        `self.moving(view)` when the caller has it already. `looks_bare`: per pixel of a view, whether it
        shows the bare table's colour; with it, the ghost of an arm the first view showed (the model
        still holds the arm there, the view shows bare table) goes in as any still foreground does, though
        it touches the same arm, moving on: a clip that opens as a card is laid would otherwise keep that
        player's hand at the pile for seconds. `likeness`: per pixel of a view, how typical of the bare table its
        colour is (see `_ghosts`)."""
        self._still = None
        self._last_background = np.equal(foreground, 0).view(np.uint8)
        if self.in_shadow is not None:  # the frame's light is measured on the table in the lamp's light
            self._last_background[self.in_shadow] = 0
        self._background_grid = self._last_background[::8, ::8] > 0
        self._frames += 1
        if self.adapt_rate > 0:
            cv2.accumulateWeighted(view, self.model, self.adapt_rate, mask=self._last_background)
        if self._previous is not None:
            moving = (self.moving(view) if moving is None else moving).view(bool)
            still_foreground = (foreground > 0) > moving  # foreground and not moving
            # counted on where still, back to 0 elsewhere, in place
            np.add(self._still_count, 1, out=self._still_count)
            np.multiply(self._still_count, still_foreground, out=self._still_count)
            settled = self._still_count >= self.absorb_frames
            if looks_bare is not None and self._frames <= self._opening_frames:
                early = (self._still_count >= self._ghost_frames) & ~settled
                if early.any():
                    settled[self._ghosts(view, early, looks_bare, likeness, bare_now=True)] = True
            if hands is not None and settled.any():
                held = settled & _moving_blobs(hands, moving) & (self._still_count < HAND_ABSORB_FACTOR * self.absorb_frames)
                if looks_bare is not None and held.any():
                    held[self._ghosts(view, held, looks_bare, likeness)] = False
                settled &= ~held
            if looks_bare is not None and self._frames <= self._relit_until:
                now_still = self._still_count == self._ghost_frames  # each pixel judged once, as it comes to rest
                if now_still.any():
                    settled[self._relit(view, now_still, looks_bare)] = True
            if settled.any():
                self.model[settled] = view[settled]
                self._still_count[settled] = 0
        self._previous = view

    def absorb(self, view: np.ndarray, rows: slice, cols: slice) -> None:
        """Take a settled region into the model at once."""
        self.model[rows, cols] = view[rows, cols]
        self._still = None

    def _relit(self, view: np.ndarray, still: np.ndarray, looks_bare: Callable[[np.ndarray], np.ndarray]) -> tuple:
        """Of the `still` pixels (row and column indices), those where bare table shows lighter than the
        model holds it, alike in every channel, and the model holds bare table too (see RELIT_SPREAD)."""
        rows, cols = np.nonzero(still)
        seen = view[rows, cols].astype(np.float32) + 1.0
        held = self.model[rows, cols] + 1.0
        ratios = seen / held
        mean = ratios.mean(axis=1)
        kept = (mean > 1.0) & (np.abs(ratios - mean[:, None]).max(axis=1) <= RELIT_SPREAD * mean)
        rows, cols = rows[kept], cols[kept]
        if len(rows):
            bare = looks_bare(view[rows, cols][:, None, :])[:, 0] & looks_bare(cv2.convertScaleAbs(self.model[rows, cols])[:, None, :])[:, 0]
            rows, cols = rows[bare], cols[bare]
        return rows, cols

    def _ghosts(self, view: np.ndarray, held: np.ndarray, looks_bare: Callable[[np.ndarray], np.ndarray],
                likeness: Callable[[np.ndarray], np.ndarray] | None = None, *, bare_now: bool = False) -> tuple:
        """Of the `held` pixels (row and column indices), those where the model still holds what the first
        view showed (within the foreground threshold), which was not bare table: the ghost of an arm the
        first view caught in passing, where the table or a stock's back now shows. After the opening
        (GHOST_OPENING_SECONDS), only where the view shows bare table: by then an arm come to rest over a
        card the first view showed is likelier than a ghost. `bare_now`: only where the view shows bare
        table, at any time. In the opening, with `likeness` (per pixel, how typical of the bare table its
        colour is), what the first view showed was no bare table either where bare table shows now, more
        typical of the table than it: an arm the table's colour, as skin over brown wood looks to `looks_bare`,
        whether it differs from the wood in colour or only in shade (seed 304's clip from 6.14 s: skin a darker
        orange than the wood in warm light, every channel's ratio within 0.1 of their mean, kept B's hand at a
        spit pile for 0.9 s), or a shadow gone since. An arm come to rest where the first view showed the table,
        or a shadow cast there since, is the less typical of the two, and stays."""
        rows, cols = np.nonzero(held)
        first = self._first[rows, cols]
        kept = np.abs(self.model[rows, cols] - first).max(axis=1) < self.threshold
        if kept.any():
            first = first[kept]
            ghost = ~looks_bare(first[:, None, :])[:, 0]
            now = view[rows[kept], cols[kept]]
            bare = looks_bare(now[:, None, :])[:, 0]
            if likeness is not None and self._frames <= self._opening_frames:
                ghost |= bare & (likeness(now[:, None, :])[:, 0] > likeness(first[:, None, :])[:, 0])
            if bare_now or self._frames > self._opening_frames:
                ghost &= bare
            kept[kept] = ghost
        return rows[kept], cols[kept]


def grid_of(view: np.ndarray) -> np.ndarray:
    """The view's every eighth pixel each way, where `BackgroundModel.steady` measures the light."""
    return np.ascontiguousarray(view[::8, ::8])



def _moving_blobs(hands: np.ndarray, moving: np.ndarray) -> np.ndarray:
    """Bool mask of the blobs of `hands` of which some pixel moves."""
    count, labels = cv2.connectedComponents(hands.astype(np.uint8), connectivity=8)
    live = np.zeros(count, bool)
    live[np.unique(labels[moving & (hands > 0)])] = True
    live[0] = False
    return live[labels]
