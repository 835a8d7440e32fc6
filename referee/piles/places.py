"""One place on the table (a spit pile, a stock slot) watched frame by frame.

A place is *busy* while a hand is over it, and *settles* when the hands have left and its picture
has stayed still for a few frames. On settling, if its picture changed since it last settled, the
tracker re-reads it (top card) and reports a `PlaceChange` carrying every hand visit since then,
each with its sub-frame touch time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from referee.piles.opening import hand_there_frames
from referee.piles.pixels import differs
from referee.piles.table_view import RectMM
from referee.piles.touch import MASK_LEAD_PX, TouchEstimate, estimate_stop, estimate_touch, find_stop
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM

#: Frames a place must stay still, hands away, before it is re-read. Raise it on noisy cameras;
#: lower it to rule faster (the ruling waits this long after the hand leaves).
SETTLE_FRAMES = 3
#: Mean change (0-255) of a place's picture between two frames under which it counts as still.
STILL_LEVEL = 4.0
#: A place whose picture keeps changing with no hand near (lamps flickering on the mains, the camera's
#: compression noise under them) counts as still under CALM_FACTOR times its running mean change there
#: (CALM_MEMORY of each frame's, each capped at CALM_CAP), when that is above STILL_LEVEL: on a steady
#: camera the mean is a tenth of a grey level and nothing changes.
CALM_FACTOR = 2.0
CALM_MEMORY = 0.05
CALM_CAP = 8.0
#: Fraction of a place's pixels that must differ from its last settled picture for it to have changed.
CHANGED_FRACTION = 0.04
#: Change in card paper over a place's zone (as a share of one card's area), with no hand seen, for it
#: to be read again (cards gone or laid while the camera saw no hand: a cut, a hand out of frame).
VANISHED_PAPER = 0.4
#: Share of a place's zone whose picture differs from the one it settled on, with no hand seen, for it to
#: be read again where card paper tells nothing: on a pale table (cream wood is as pale and grey as a
#: card) cards cleared away by a cut left their places read as still lying there, and the next round's
#: layout was never read (a card coming or going changed 29-60 % of the zone on such a table; nothing
#: else that was still, 0 %).
REPICTURED_SHARE = 0.2
#: Share of a place's zone that is card paper, with its card or without, from which card paper tells
#: nothing (the table itself reads as paper). Elsewhere the picture is not used: a dark hand on dark wood,
#: not seen as a hand, changes it, and the stock was read again under the hand (seen empty, then not).
BLIND_PAPER = 0.8
#: A still place is looked at again for cards gone or come with no hand seen every this many frames: a
#: pale card gone from a pale table changes a place's picture by less than STILL_LEVEL, so the place
#: never stops being still.
RECHECK_FRAMES = 15
#: The band (mm) outside a place's outline where a card carried onto its white top cannot be told from it.
HIDDEN_EDGE_MM = 4.0
#: A hand lying this deep over a pile (a share of the pile's own depth, its half width) holds its card over
#: the pile, however short of it the card's edge is seen (`PlaceTracker._measure`).
OVER_THE_MIDDLE = 0.8
#: How far (mm) around the place a hand is followed to time its approach.
APPROACH_MARGIN_MM = 60.0
#: A hand that touched a place and then stayed at least this far off it (mm), for this long (s), left it,
#: though still within its reach (at its stocks beside a spit pile): its visit ends there.
GONE_OFF_MM = 60.0
GONE_OFF_SECONDS = 0.4
#: A hidden card's approach counts as ending on the pile only if the hand is then within this many mm
#: of the pile's outline (its fingers reach past the card, so usually overlapping it).
NEAR_MM = 10.0
#: A hand last seen closing in on a pile within this many mm of it, a frame before another player's hand
#: touched it, whose mask is then gone from the pile or thrown back (JUMPED_BACK_MM), touched it too: the
#: two merged there (`PlaceTracker._merged_into_another`).
MERGED_REACH_MM = 12.0
#: ... by at least this much (mm) in one frame: the card it carried taken into the other hand's mask.
JUMPED_BACK_MM = 10.0
#: ... closing in at least this fast (mm a frame): a hand on its way, not one hovering.
CLOSING_MM = 4.0
#: A hand over a pile moving faster than this (mm/s) is passing over it, not putting a card down.
HOLDING_MAX_SPEED = 900.0
#: Depth (mm) of the front part of a hand whose centroid is followed (fingers and palm, not the arm).
FRONT_MM = 60.0
#: A change whose outline fills at least this share of a card, and is no bigger than a card, is taken
#: as the new top card itself (not the card-coloured patch around it, which takes in the pile beneath).
WHOLE_CARD_SHARE = 0.85
#: "No bigger than a card": at most this share of its area, its sides at most this share of a card's. A
#: change seen through a soft camera, with the card's shadow, in the view's 2 mm pixels, is a pixel or two
#: wider than the card all round: a card laid turned 25-35 degrees on the pile changed 34.5 x 46.8 px where
#: the card is 31.5 x 44, which 1.15 and 1.1 refused, and the card-coloured patch of both cards, taken
#: instead, gave an outline turned between the two that the card could not be read at.
WHOLE_CARD_MAX_SHARE = 1.3
WHOLE_CARD_MAX_SIDE = 1.2
#: What a place shows when first seen is a card only if its card-coloured patch is at least this share
#: of a card (a pale spot of table, under a lamp, had made a bare spit pile's outline a 20 mm sliver, and
#: the card laid beside it touched nothing).
FIRST_CARD_SHARE = 0.5
#: A card-coloured patch whose turned box is more than this many cards' area is no card: the table itself
#: passes for card paper (a cream cloth under a warm lamp, its paper as pale as the cards'), and the outline
#: drawn from it is a card's size in the patch's middle, a guess (`PlaceChange.outlined` False). `all_at_once`
#: seed 231's warm-lit clip: a pile's outline stood upright for two seconds where its card lay turned, and
#: the next card was timed three frames early against it.
PAPER_PATCH_CARDS = 2.0
#: A footprint within this share of a card's width and length is one card's outline (`card_corners_mm`).
CARD_SIZE_SLACK = 0.15
#: A card laid on a bare place (`arrival_at_rest`) has arrived once its leading edge is within this of
#: where it came to rest (about a view pixel); one that moved less than REST_FROM_MM is not timed so.
#: Its times lean early (median -0.1 frame over 136 such cards), but less tolerance times them worse: over
#: 198 cards laid on bare places in the kept games, 1.0 mm timed 17 cards worse and 8 better, 0.0 mm 49
#: worse and 28 better (session 50).
REST_TOLERANCE_MM = 2.0
REST_FROM_MM = 10.0
#: ... or, where its leading edge as seen never came that close, once within REST_TOLERANCE_MM of where that
#: edge itself came to rest: at most REST_SHORT_MM short of the far side, and seen there at least twice
#: within REST_STILL_MM (a view pixel and a half). The card seen in the hand holds the pale hand too, and
#: the settled outline is a little wider than the card: a card laid on seed 122's bare pile stopped 5.5 mm
#: short, and was timed where its edge crossed the outline, 5 frames early.
REST_SHORT_MM = 10.0
REST_STILL_MM = 3.0
#: How long (s) the card seen in a hand is kept per visit, for `arrival_at_rest`: its arrival and the
#: hand holding it there a moment.
CARD_SECONDS_KEPT = 0.6
#: A card seen in the hand that laid it lies where it came to rest once this share of what shows of it lies
#: inside the outline it settled in (`_first_seen_lying`).
LYING_SHARE = 0.9
#: Card-coloured area (mm^2) a hand must carry near a place for the card's edge, not the hand's, to be
#: timed. Lower: a few pale knuckles count as a card; higher: a card mostly under the fingers is missed.
MIN_CARD_PIXELS = 250.0
#: Smallest piece (mm^2) of card paper in a hand that counts where its leading edge is measured: a
#: fingernail's or a knuckle's pale highlight ahead of the card is no card, and one such pixel over the
#: pile's outline would time the touch before the card got there.
CARD_PIECE_MM2 = 40.0
#: Both players slapping one pile: the second hand comes down on the first, so what lies over the pile
#: is the first's. A hand that stops within ON_HAND_MM of the pile's outline (a hand's thickness and the
#: split between the two, and the shift of a hand 4-5 cm up as a camera sees it, away from the point
#: beneath the lens: 34.5 mm in seed 129's racing game drawn in parallax, where 30 mm missed it) for
#: ON_HAND_FRAMES frames, moving under STILL_HAND_MM a frame, while the other player's hand lies on the
#: pile, came down on it (`PlaceTracker._on_the_other_hand`).
ON_HAND_MM = 40.0
ON_HAND_FRAMES = 2
STILL_HAND_MM = 3.0
#: A card laid on a pile while another hand is already on its way there (two players racing for the
#: pile) leaves the pile no still moment to settle in; this many frames after the hand that laid it left,
#: the pile's outline is taken from what changed there outside the hands (`_outline_while_busy`), so
#: that the next card is timed touching the card it lands on, not the one that lay there before.
LAID_OUTLINE_FRAMES = 2


#: `shaded(rows, cols)`: uint8 mask of the white paper in a shadow in that part of the view
Shade = Callable[[slice, slice], np.ndarray]


@dataclass
class Visit:
    """One player's hand near a place, from when it came near until it left."""

    player: str
    first_frame: int
    samples: list[tuple[int, float, float]] = field(default_factory=list)  # (frame, t, signed distance mm)
    touch: TouchEstimate | None = None
    last_frame: int = 0
    frames_in_contact: int = 0
    #: a sharp cut of the place taken as this hand left it (what it had just put down), where the card on
    #: top lay in it as the tracker saw it then (4 corners, the cut's pixels; None: not card-shaped), and
    #: its naming when started ahead on another thread (a Future of the namer's (card, confidence))
    snapshot: object = None
    snapshot_outline: object = None
    snapshot_named: object = None
    #: (frame, t, path length mm) of the front of the hand, and its signed distance, for the stop fit
    track: list[tuple[int, float, float]] = field(default_factory=list)
    track_distance: list[float] = field(default_factory=list)
    last_front: tuple[float, float] | None = None
    fronts: list[tuple[float, float]] = field(default_factory=list)  # mm, in the place's padded crop
    card_seen: bool = False
    #: whether a card was seen in the hand in the frame before it touched the pile (`card_seen` then): a hand
    #: come to lay one, not to slap, take one back or square the pile (after the touch, `card_seen` may be
    #: the card a hand takes away)
    brought_card: bool = False
    #: whether a card was seen in the hand before the hand lay over the middle of the place (OVER_THE_MIDDLE)
    card_on_its_way: bool = False
    #: frames running it has lain still on the other player's hand over the place (`_on_the_other_hand`),
    #: and when it came down there
    on_hand: int = 0
    through_hand: TouchEstimate | None = None
    #: (frame, t, bool mask in the place's padded crop) of the card seen in the hand, the last few frames
    cards: list[tuple[int, float, np.ndarray]] = field(default_factory=list)
    #: where the arm came from in the first frames of contact (`arms.arm_offset`, mm from the seat)
    arms: list[float] = field(default_factory=list)
    #: since when the hand has been GONE_OFF_MM or more from the place after touching it (`_gone_off`)
    off_since: float | None = None


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
    outlined: bool = True    # the footprint is the card's outline as seen, not a guess (PAPER_PATCH_CARDS)


class PlaceTracker:
    def __init__(self, place: tuple, rect: RectMM, px_per_mm: float, view_shape: tuple[int, int],
                 *, nominal_card: RectMM | None = None, margin: float = APPROACH_MARGIN_MM) -> None:
        self.place = place
        self.rect = rect
        self.px_per_mm = px_per_mm
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
        self.outlined = False  # the footprint is a card's outline seen, not its nominal place or a guess
        self._card_share = float(self.nominal[self.inner].mean()) if self.nominal[self.inner].size else 1.0
        self._distances()
        self.settled_crop: np.ndarray | None = None
        self.visits: dict[str, Visit] = {}
        self.finished: list[Visit] = []
        self._previous_crop: np.ndarray | None = None
        self._settled_paper: float | None = None
        self._still_frames = 0
        self._first_frame: int | None = None  # the video's first frame, as this place first saw it
        self._there_frames = 0  # how many first frames a hand there may touch in (`opening.hand_there_frames`)
        self._calm = 0.0  # running mean change of its picture from frame to frame, no hand near
        self._dirty = True  # read it as soon as it first settles
        self._outline_due: int | None = None  # the frame at which to outline a card laid while busy

    # geometry -------------------------------------------------------------------------------------
    def _distances(self) -> None:
        outside = (~self.footprint).astype(np.uint8)
        self._distance_outside = cv2.distanceTransform(outside, cv2.DIST_L2, cv2.DIST_MASK_PRECISE) / self.px_per_mm
        self._distance_inside = cv2.distanceTransform(self.footprint.astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE) / self.px_per_mm
        self._near_footprint = self._distance_outside < HIDDEN_EDGE_MM
        self._depth = float(self._distance_inside.max()) if self.footprint.any() else 0.0

    def set_footprint(self, footprint: np.ndarray, outlined: bool = True) -> None:
        """`outlined`: False where the footprint is a guess (see PAPER_PATCH_CARDS)."""
        self.footprint = footprint if footprint.any() else self.nominal.copy()
        self.outlined = outlined
        self._distances()

    def signed_distance(self, hand: np.ndarray, card: np.ndarray | None = None, shaded: Shade | None = None) -> float | None:
        """mm from the leading edge of what the hand carries (the card where one is seen, else the hand)
        to the outline (negative when overlapping); None if no hand near. `shaded(rows, cols)`: the white
        paper in a shadow in that part of the view (`BackgroundModel.shaded`), no part of the card carried."""
        measured = self._measure(hand, card, shaded=shaded)
        return None if measured is None else measured[0]

    def _measure(self, hand: np.ndarray, card: np.ndarray | None, player: str | None = None,
                 shaded: Shade | None = None):
        """(signed distance mm, card seen, front of the hand in mm or None, the card-coloured part of
        the hand here or None), or None if no hand near. The card's edge is measured on its pieces of
        some size (CARD_PIECE_MM2) and without the paper in its shadow: the pile's white top shaded by
        the card or the hand held over it."""
        held = local = hand[self.rows, self.cols] > 0
        if not local.any():
            return None
        front = self._front(local, player) if player else None
        card_seen = False
        carried = None
        if card is not None:
            # card colour inside the pile's outline may be the pile itself under the hand's shadow
            carried = card[self.rows, self.cols] > 0
            if np.count_nonzero(carried & ~self._near_footprint) >= MIN_CARD_PIXELS * self.px_per_mm ** 2:
                edge = carried if shaded is None else carried & (shaded(self.rows, self.cols) == 0)
                pieces = _pieces(edge, CARD_PIECE_MM2 * self.px_per_mm ** 2)
                if pieces.any():
                    local, card_seen = pieces, True
        distance = self._distance(local)
        reach = None
        if card_seen and distance > 0:
            # the card's edge seen short of the pile while the hand holding it lies over the pile's middle
            # (OVER_THE_MIDDLE of its depth inside the outline): the card ahead of the fingers is over the pile,
            # its edge lost on the pile's white top (a video codec smears a white card into a white top); the
            # hand's reach is the measure of an approach
            held_reach = self._distance(held)
            if held_reach <= -OVER_THE_MIDDLE * self._depth:
                reach = held_reach
        return distance, card_seen, front, carried, reach

    def _within_reach(self, box: tuple[int, int, int, int] | None) -> bool:
        if box is None or box[2] == 0:
            return False
        x, y, width, height = box
        return x < self.cols.stop and x + width > self.cols.start and y < self.rows.stop and y + height > self.rows.start

    def _front(self, local: np.ndarray, player: str) -> tuple[float, float]:
        """Centroid (mm) of the part of the hand within FRONT_MM of its leading point (the fingers and
        palm, not the arm): it moves with the hand and is measured below a pixel."""
        rows, cols = np.nonzero(local)
        progress = rows if player == "A" else -rows
        keep = progress >= progress.max() - FRONT_MM * self.px_per_mm
        return (float(cols[keep].mean()) / self.px_per_mm, float(rows[keep].mean()) / self.px_per_mm)

    def _distance(self, local: np.ndarray) -> float:
        overlap = local & self.footprint
        if overlap.any():
            return -float(self._distance_inside[overlap].max())
        return float(self._distance_outside[local].min())

    def crop(self, view: np.ndarray) -> np.ndarray:
        return view[self.rows, self.cols]

    # per frame ------------------------------------------------------------------------------------
    def step(self, view: np.ndarray, owned: dict[str, np.ndarray], frame: int, t: float,
             period: float, carried: dict[str, np.ndarray] | None = None,
             cardlike: np.ndarray | None = None, hand_boxes: dict | None = None,
             shaded: Shade | None = None) -> PlaceChange | None:
        """`hand_boxes`: each player's (x, y, width, height) around their mask, when known: a hand whose
        box misses this place's region is not near it, without looking at its pixels."""
        busy = False
        if self._first_frame is None:
            self._first_frame, self._there_frames = frame, hand_there_frames(period)
        vanished: list[Visit] = []
        for player, hand in owned.items():
            if hand_boxes is not None and not self._within_reach(hand_boxes.get(player)):
                measured = None
            else:
                measured = self._measure(hand, carried.get(player) if carried else None, player, shaded)
            visit = self.visits.get(player)
            if measured is None:
                if visit is not None:
                    if _closing_in(visit, frame):
                        vanished.append(self.visits.pop(player))  # ended once the other hands are seen (below)
                        continue
                    self._end_visit(visit, period)
                    self.finished.append(self.visits.pop(player))
                    if visit.touch is not None or visit.frames_in_contact:
                        self._outline_due = frame + LAID_OUTLINE_FRAMES
                continue
            distance, card_seen, front, carried_here, reach = measured
            busy = True
            if visit is not None and self._gone_off(visit, t, distance):
                # the hand laid its card and went off to its stocks, still near: that visit is over, and what
                # it does next is another (a second card laid here is a second touch)
                self._end_visit(visit, period)
                self.finished.append(self.visits.pop(player))
                self._outline_due = frame + LAID_OUTLINE_FRAMES
                visit = None
            if visit is None:
                visit = self.visits[player] = Visit(player, frame)
            if reach is not None and visit.card_on_its_way and visit.touch is None and not visit.frames_in_contact:
                # a card seen in the hand on its way, brought over the pile, its edge lost on the pile's white top
                # (not a hand hovering over the pile to slap it, the card just laid there taken for one it holds)
                distance = reach
            if card_seen and reach is None:
                visit.card_on_its_way = True
            if carried_here is not None:
                visit.cards.append((frame, t, carried_here))
                while visit.cards[0][1] < t - CARD_SECONDS_KEPT:
                    del visit.cards[0]
            visit.last_frame = frame
            visit.samples.append((frame, t, distance))
            self._follow(visit, frame, t, distance, front)
            if distance > 0:
                visit.card_seen = card_seen  # what the hand carried up to the moment it reached the pile
                visit.on_hand = visit.on_hand + 1 if self._on_the_other_hand(visit, distance) else 0
                if visit.on_hand >= ON_HAND_FRAMES and visit.through_hand is None:
                    # come down on the other player's hand, which lies on the pile (a slap on the same pile):
                    # it touched the pile through that hand, where it came to rest
                    visit.through_hand = self._stop_touch(visit, period, near=ON_HAND_MM) or TouchEstimate(t, frame, period)
            else:
                visit.frames_in_contact += 1
                if visit.touch is None or self._back_from_the_start(visit):
                    # the leading edge (of the card where it is seen, else of the hand holding it) crossing
                    # the outline; measured on rendered games this beats timing the hand's stop
                    visit.touch = self._touch_in(visit.samples[-6:], period)
                    visit.brought_card = visit.card_seen or card_seen
            if visit.touch is None and len(visit.samples) > 8:
                del visit.samples[:-8]
        self._merged_into_another(vanished, frame, t, period)
        for visit in vanished:
            self._end_visit(visit, period)
            self.finished.append(visit)
            if visit.touch is not None or visit.frames_in_contact:
                self._outline_due = frame + LAID_OUTLINE_FRAMES
        crop = self.crop(view)
        if busy and self._outline_due is not None and frame >= self._outline_due and self.place[0] == "spit_pile":
            self._outline_due = None
            self._outline_while_busy(crop, owned, cardlike)
        if busy:
            self._dirty = True
            self._still_frames = 0
            self._previous_crop = crop.copy()
            return None
        if self._previous_crop is not None:
            motion = cv2.norm(crop, self._previous_crop, cv2.NORM_L1) / crop.size  # the mean change, without numpy's overhead
            self._calm += CALM_MEMORY * (min(motion, CALM_CAP) - self._calm)
            still = max(STILL_LEVEL, CALM_FACTOR * self._calm)
            self._still_frames = self._still_frames + 1 if motion < still else 0
        self._previous_crop = crop.copy()
        if (not self._dirty and self._settled_paper is not None and cardlike is not None and self._still_frames >= SETTLE_FRAMES
                and (self._still_frames - SETTLE_FRAMES) % RECHECK_FRAMES == 0):
            # cards gone or come with no hand seen (a cut in the video, hands hidden by the camera's edge);
            # measured on card paper, which a change of light leaves card paper
            paper = self._paper(cardlike[self.rows, self.cols])
            self._dirty = abs(paper - self._settled_paper) > VANISHED_PAPER * self._card_share
            if not self._dirty and max(paper, self._settled_paper) >= BLIND_PAPER:
                # a pale table, as pale and grey as card paper: the picture tells what the paper cannot
                self._dirty = float(self._changed_since_settled(crop)[self.inner].mean()) > REPICTURED_SHARE
        if not self._dirty or self._still_frames < SETTLE_FRAMES:
            return None
        return self._settle(crop, frame, t, None if cardlike is None else cardlike[self.rows, self.cols])

    def _settle(self, crop: np.ndarray, frame: int, t: float, cardlike: np.ndarray | None = None) -> PlaceChange:
        changed, footprint, outlined = self._what_settles(crop, cardlike)
        visits = tuple(visit for visit in self.finished if visit.touch is not None or visit.frames_in_contact or visit.through_hand)
        self.finished = []
        self.settled_crop = crop.copy()
        self._settled_paper = None if cardlike is None else self._paper(cardlike)
        self._dirty = False
        return PlaceChange(self.place, frame, t, changed, visits, footprint, self.padded, outlined)

    @property
    def settling(self) -> bool:
        """Hands gone from a place that changed, and its first still frame: it settles SETTLE_FRAMES - 1
        frames on, on what it shows now, if it stays still (`foresee` says what it will show)."""
        return self._dirty and not self.visits and self._still_frames == 1 and SETTLE_FRAMES > 1

    def foresee(self, view: np.ndarray, cardlike: np.ndarray | None) -> tuple[bool, np.ndarray | None]:
        """(changed, footprint) as the place would settle on `view` now, without settling; no footprint
        where it would be a guess (PAPER_PATCH_CARDS): the card is searched for rather than read there."""
        changed, footprint, outlined = self._what_settles(self.crop(view), None if cardlike is None else cardlike[self.rows, self.cols])
        return changed, footprint if outlined else None

    def _what_settles(self, crop: np.ndarray, cardlike: np.ndarray | None) -> tuple[bool, np.ndarray, bool]:
        """Whether `crop` differs from the picture last settled on, the outline of what lies there, and
        whether that outline was seen rather than guessed (PAPER_PATCH_CARDS)."""
        changed = True
        footprint, outlined = self.footprint, self.outlined
        if self.settled_crop is None and cardlike is not None:
            zone = _inside(self.inner, crop.shape[:2])
            footprint, outlined = self._top_card_outline(zone, cardlike)
            if not footprint[self.inner].any() or footprint.all() or (self.outlined and not outlined):
                footprint, outlined = self.footprint, self.outlined  # (an outline seen, `set_footprint`, beats a guess)
            elif np.count_nonzero(footprint) < FIRST_CARD_SHARE * np.count_nonzero(self.nominal):
                # pale table (a lamp's bright spot) is no card: a bare place is watched whole, as on a
                # table with no pale patch there
                footprint = zone
        if self.settled_crop is not None:
            difference = self._changed_since_settled(crop)
            changed = difference[self.inner].mean() > CHANGED_FRACTION
            if changed:
                footprint, outlined = self._top_card_outline(difference, cardlike)
        return changed, footprint, outlined

    def _outline_while_busy(self, crop: np.ndarray, owned: dict[str, np.ndarray], cardlike: np.ndarray | None) -> None:
        """The outline of a card laid while another hand is near (LAID_OUTLINE_FRAMES): what changed since
        the place last settled, hands left out, when it is a card's worth."""
        if self.settled_crop is None or cardlike is None:
            return
        hands = np.zeros(crop.shape[:2], bool)
        for hand in owned.values():
            hands |= hand[self.rows, self.cols] > 0
        difference = self._changed_since_settled(crop) & ~hands
        if difference[self.inner].mean() <= CHANGED_FRACTION:
            return
        outline, outlined = self._top_card_outline(difference, (cardlike[self.rows, self.cols] > 0) & ~hands)
        if outlined and np.count_nonzero(outline) >= WHOLE_CARD_SHARE * np.count_nonzero(self.nominal) and self.card_corners_mm(outline) is not None:
            self.set_footprint(outline)

    def _changed_since_settled(self, crop: np.ndarray) -> np.ndarray:
        """Bool mask (padded-region coordinates) of the place's own zone where `crop` differs from the
        picture it last settled on (specks opened away)."""
        changed = differs(crop[self.inner], self.settled_crop[self.inner], 30)
        difference = np.zeros(crop.shape[:2], bool)
        difference[self.inner] = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)).astype(bool)
        return difference

    def settle_now(self, view: np.ndarray, frame: int, t: float, cardlike: np.ndarray | None) -> PlaceChange:
        """Settle on `view` without waiting for still frames (the video has ended)."""
        return self._settle(self.crop(view), frame, t, None if cardlike is None else cardlike[self.rows, self.cols])

    def start_settled(self, view: np.ndarray, frame: int, t: float, cardlike: np.ndarray) -> None:
        """Take what lies on the place now as its settled picture (a place just moved onto cards already
        lying there: nothing happened on it that was not seen)."""
        change = self._settle(self.crop(view), frame, t, cardlike[self.rows, self.cols])
        self.set_footprint(change.footprint, change.outlined)

    def _paper(self, cardlike_crop: np.ndarray) -> float:
        """Share of the place's own zone that is card paper (pale, unsaturated)."""
        return float(np.count_nonzero(cardlike_crop[self.inner])) / max(cardlike_crop[self.inner].size, 1)

    def _follow(self, visit: Visit, frame: int, t: float, distance: float, front) -> None:
        if front is None:
            return
        visit.fronts.append(front)
        step = 0.0 if visit.last_front is None else float(np.hypot(front[0] - visit.last_front[0], front[1] - visit.last_front[1]))
        path = (visit.track[-1][2] if visit.track else 0.0) + step
        visit.last_front = front
        visit.track.append((frame, t, path))
        visit.track_distance.append(distance)

    def resting_touch(self, visit: Visit, period: float) -> TouchEstimate | None:
        """Where a hand came to rest on the place (a slap lands flat: its outline crosses the pile's well
        before the palm lands); None if it never did."""
        return self._stop_touch(visit, period) if visit.frames_in_contact else None

    def laid_on_bare(self, visit: Visit, footprint: np.ndarray, period: float) -> TouchEstimate:
        """When the card `visit`'s hand laid on this place, bare until then, arrived: where it came to rest
        (`arrival_at_rest`); where the card was not seen arriving (carried face down, or under the hand),
        where the hand came to rest on the place (`resting_touch`), when that is after the hand first crossed
        its outline; else that crossing. Measured on 75 cards laid on bare places in rendered games (session
        28): the crossing is 2.1 frames early (median), the hand's rest 0.9 frames late; the seven cards not
        seen arriving were timed 1.7 frames off (mean) by the crossing, 0.8 by the hand's rest. But not after
        the first frame that showed the card lying there (`_first_seen_lying`): a dark hand over dark wood,
        the card under its fingers until it lay there and the hand sliding on over it, came to rest 3.6 frames
        after the card landed (seed 122's opening spit at 60 fps); the card landed since the frame before."""
        arrived = self.arrival_at_rest(visit, footprint, period)
        if arrived is not None:
            return arrived
        rest = self.resting_touch(visit, period)
        touch = rest if rest is not None and rest.t > visit.touch.t else visit.touch
        lying = self._first_seen_lying(visit, footprint)
        if lying is not None and touch.t > lying[1]:
            # the card was seen lying where it came to rest before then: it landed since the frame before
            frame, t = lying
            before = max((sample[1] for sample in visit.samples if sample[0] < frame), default=t - period)
            return TouchEstimate(t=(before + t) / 2, frame=frame, error=(t - before) / 2)
        return touch

    def _first_seen_lying(self, visit: Visit, footprint: np.ndarray) -> tuple[int, float] | None:
        """(frame, t) of the first frame that showed the card `visit`'s hand laid lying where it came to rest
        (`footprint`): at least LYING_SHARE of what was seen of it inside that outline; None if none did."""
        inside = cv2.dilate(footprint.view(np.uint8), np.ones((3, 3), np.uint8)) > 0
        for frame, t, card in visit.cards:
            seen = np.count_nonzero(card)
            if seen >= MIN_CARD_PIXELS * self.px_per_mm ** 2 and np.count_nonzero(card & inside) >= LYING_SHARE * seen:
                return frame, t
        return None

    def arrival_at_rest(self, visit: Visit, footprint: np.ndarray, period: float) -> TouchEstimate | None:
        """When a card laid on a bare place arrived: it touches nothing until it lies there, so not where
        its edge first crossed the place's outline (two to five frames early, at the speed cards are
        laid) but where its leading edge, seen in the hand that laid it, reached the far side of where
        it came to rest (`footprint`, the settled change). That distance still to go, frame by frame, is
        timed as a touch is (`estimate_touch`: its zero crossing, extrapolated at the speed the card
        came in with). None when the card was not seen arriving."""
        seen = [(frame, t, np.argwhere(card)) for frame, t, card in visit.cards if card.any()]
        target = np.argwhere(footprint)
        if len(seen) < 2 or not len(target):
            return None
        direction = target.mean(axis=0) - seen[0][2].mean(axis=0)
        length = float(np.hypot(*direction))
        if length < REST_FROM_MM * self.px_per_mm:
            return None
        direction /= length
        far = float(np.percentile(target @ direction, 99))
        to_go = [(frame, t, (far - float(np.percentile(pixels @ direction, 99))) / self.px_per_mm) for frame, t, pixels in seen]
        nearest = min(distance for _, _, distance in to_go)
        short = 0.0
        if REST_TOLERANCE_MM < nearest <= REST_SHORT_MM and sum(distance <= nearest + REST_STILL_MM for _, _, distance in to_go) >= 2:
            short = nearest  # the edge seen came to rest short of the far side: timed to where it rested
        samples = [(frame, t, distance - short - REST_TOLERANCE_MM) for frame, t, distance in to_go]
        arrived = next((number for number, (_, _, distance) in enumerate(samples) if distance <= 0), None)
        if arrived is None or arrived == 0:
            return None  # never seen there, or there already in the first frame kept: its arrival was not seen
        # the distance still to go comes down to the card at rest, not to an outline its edge is seen over early
        return self._touch_in(samples[:arrived + 1][-6:], period, outline=False)

    def _touch_in(self, samples: list[tuple[int, float, float]], period: float, *, outline: bool = True) -> TouchEstimate | None:
        """`touch.estimate_touch` of distances measured on this place's pixels, less their mask's lead
        (`touch.MASK_LEAD_PX`)."""
        return estimate_touch(samples, period, 1.0 / self.px_per_mm, outline=outline, lead_mm=MASK_LEAD_PX / self.px_per_mm)

    def _stop_touch(self, visit: Visit, period: float, near: float = NEAR_MM) -> TouchEstimate | None:
        """A hand whose card is hidden under it: the touch is where its approach comes to rest on the pile
        (within `near` mm of its outline)."""
        close = [index for index, distance in enumerate(visit.track_distance) if distance <= near]
        if not close:
            return None
        start = max(0, close[0] - 2)
        track = visit.track[start:]
        stop = find_stop(track)
        if stop is None or visit.track_distance[start + stop] > near:
            return None
        return estimate_stop(track, stop, period)

    def _on_the_other_hand(self, visit: Visit, distance: float) -> bool:
        """A hand still just off the pile (ON_HAND_MM) that never touched it, while the other player's hand
        lies on it: come down on that hand. Only the rulings know whether that is a slap (the round is
        over) or a hand waiting its turn (`PileTouched.through_hand`)."""
        other = next((seen for player, seen in self.visits.items() if player != visit.player), None)
        if other is None or not other.frames_in_contact or visit.touch is not None or distance > ON_HAND_MM:
            return False
        return len(visit.track) >= 2 and visit.track[-1][2] - visit.track[-2][2] <= STILL_HAND_MM

    def _back_from_the_start(self, visit: Visit) -> bool:
        """A hand at a spit pile as the video began (its contact then was not seen coming: `hand_there_frames`)
        that drew off it and is back on it now: this is its touch. (A clip's hand hovered near the pile
        for a second with its card, then laid it: the play was timed at the clip's first frames, before the
        layout was read, and ruled as if no layout had been seen.)"""
        return (self.place[0] == "spit_pile" and self._touched_as_it_began(visit) and len(visit.samples) >= 2
                and visit.samples[-2][2] > 0)

    def _touched_as_it_began(self, visit: Visit) -> bool:
        """The visit's touch came in the video's first frames (`opening.hand_there_frames`): a hand already
        there, its contact not seen coming."""
        return visit.touch is not None and self._first_frame is not None and (
            visit.touch.frame - self._first_frame < self._there_frames)

    def _gone_off(self, visit: Visit, t: float, distance: float) -> bool:
        """Whether a hand that touched the place has been at least GONE_OFF_MM from it for GONE_OFF_SECONDS
        (at its stocks beside the pile, within the place's reach): it left (`all_at_once` seed 176's clip
        from 15.12 s: A laid a `JD`, stayed 1.2 s at its stock 95 mm off, and came back with a `10H`, all one
        visit, the `10H` never a touch). Not a hand there as the video began: its touch was not seen, and
        its return is its touch (`_back_from_the_start`)."""
        if not visit.frames_in_contact or distance < GONE_OFF_MM or self._touched_as_it_began(visit):
            visit.off_since = None
            return False
        visit.off_since = t if visit.off_since is None else visit.off_since
        return t - visit.off_since >= GONE_OFF_SECONDS

    def _merged_into_another(self, vanished: list[Visit], frame: int, t: float, period: float) -> None:
        """Each hand that was closing in on the place a frame ago, within MERGED_REACH_MM, and now is seen no
        nearer (its mask gone from the place, or its front thrown back by JUMPED_BACK_MM), as another player's
        hand came into contact with the place in this frame or the one before, touched it, if at its speed it
        would have reached the place by now: two hands reaching a pile within a
        frame or so merge there, and the card that lands first takes the second one in (the racing games of
        `other_decks` seed 401: B's `7S` 12 ms before A's `7H`, B's hand last seen 8 mm short, then gone into
        A's; fresh seed 514, A's `6C` and B's `8S` 23 ms apart, B's front 6 mm short, then 26 mm). Timed where
        its approach crosses the outline (`estimate_touch`), to be ruled as a card covered at once by the other."""
        touching = [visit for visit in self.visits.values() if visit.touch is not None and visit.touch.frame >= frame - 1]
        if not touching:
            return
        thrown_back = [visit for visit in self.visits.values() if visit.samples[-1][0] == frame
                       and _closing_in(visit, frame, back=1) and visit.samples[-1][2] >= visit.samples[-2][2] + JUMPED_BACK_MM]
        # each was closing in and touched nothing yet (`_closing_in`), so every hand touching here is another player's
        for visit in vanished + thrown_back:
            approach = [sample for sample in visit.samples if sample[0] < frame][-6:]
            (_, t_older, d_older), (_, t_last, d_last) = approach[-2:]
            speed = (d_older - d_last) / max(t_last - t_older, 1e-9)
            reached = d_last - speed * (t - t_last)
            if reached > 0:
                continue  # at its speed it would not have reached the pile yet: it stopped short, or turned back
            timed = self._touch_in(approach + [(frame, t, reached)], period, outline=False)
            if timed is None:
                continue
            # its contact was never seen, only where its approach led: as far off as half a frame
            visit.touch = TouchEstimate(timed.t, timed.frame, max(timed.error, period / 2))
            visit.frames_in_contact = 1

    def _end_visit(self, visit: Visit, period: float) -> None:
        # a hand seen carrying a card that overlapped the outline touched it; a hand hiding its card that
        # never came to rest on the pile only passed over it
        if visit.touch is None and visit.frames_in_contact and visit.card_seen:
            contact = [index for index, sample in enumerate(visit.samples) if sample[2] <= 0]
            visit.touch = self._touch_in(visit.samples[:contact[0] + 1][-6:], period) if contact else None
        if visit.touch is None and not visit.frames_in_contact and visit.card_seen and visit.samples:
            # a card carried onto a white top is seen only up to the top's edge (white on white, and its
            # pixels next to the edge not counted as the card, see `_measure`): brought that close, it
            # touched, however briefly (a racing hand laid a card in one frame, measured 2 mm off)
            nearest = min(range(len(visit.samples)), key=lambda index: visit.samples[index][2])
            if visit.samples[nearest][2] <= HIDDEN_EDGE_MM:
                frame, t, _ = visit.samples[nearest]
                samples = visit.samples[:nearest] + [(frame, t, 0.0)]
                visit.touch = self._touch_in(samples[-6:], period)
                visit.frames_in_contact = 1

    def let_go(self, period: float, passing: frozenset[str] = frozenset()) -> None:
        """The hands near the place are taken to leave now, their visits ending as when a hand leaves (the
        video has ended as they drew back); the visits of the `passing` players' hands are forgotten (an
        arm that lay near on its way to another place laid nothing here)."""
        for player, visit in self.visits.items():
            if player not in passing:
                self._end_visit(visit, period)
                self.finished.append(visit)
        self.visits = {}

    def covered_by(self, hands: np.ndarray) -> float:
        """Share of the top card's footprint under `hands` (a view-sized mask)."""
        return float(np.count_nonzero(hands[self.rows, self.cols][self.footprint])) / max(int(np.count_nonzero(self.footprint)), 1)

    def read_again(self) -> None:
        """Settle again (and so be read again) after SETTLE_FRAMES more still frames."""
        self._dirty = True
        self._still_frames = 0

    @property
    def dirty(self) -> bool:
        return self._dirty

    def _top_card_outline(self, difference: np.ndarray, cardlike: np.ndarray | None) -> tuple[np.ndarray, bool]:
        """The new top card: a card-sized rectangle turned and placed like the card-coloured patch the
        change lies in (the change alone misses where white card covers white card); and whether it was
        seen (False: the patch is the table itself, PAPER_PATCH_CARDS)."""
        hull = _hull(difference)
        if cardlike is None:
            return hull, True
        whole = _card_sized(hull, self.px_per_mm)
        if whole is not None:  # the change is a whole card: it is the new top, whatever peeks out beneath
            return whole, True
        patch = (cardlike > 0) & (hull | _inside(self.inner, hull.shape))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(patch.astype(np.uint8), connectivity=8)
        if count <= 1:
            return hull, True
        overlaps = [np.count_nonzero((labels == label) & hull) for label in range(1, count)]
        best = 1 + int(np.argmax(overlaps))
        points = cv2.findNonZero((labels == best).astype(np.uint8))
        (cx, cy), (w, h), angle = cv2.minAreaRect(points)
        card_w, card_h = CARD_WIDTH_MM * self.px_per_mm, CARD_HEIGHT_MM * self.px_per_mm
        if w > h:
            card_w, card_h = card_h, card_w
        box = cv2.boxPoints(((cx, cy), (min(w, card_w) if w < 0.6 * card_w else card_w,
                                        min(h, card_h) if h < 0.6 * card_h else card_h), angle))
        out = np.zeros(hull.shape, np.uint8)
        cv2.fillConvexPoly(out, np.round(box).astype(np.int32), 1)
        return out.astype(bool), w * h <= PAPER_PATCH_CARDS * card_w * card_h

    def card_corners_mm(self, footprint: np.ndarray) -> np.ndarray | None:
        """The four corners (table mm) of a footprint that is one card's outline (a card-sized
        rectangle, as `_top_card_outline` makes of a whole card laid), else None."""
        box = _pixel_box(footprint)
        if box is None:
            return None
        short, long = sorted(box[1])
        card_w, card_h = CARD_WIDTH_MM * self.px_per_mm, CARD_HEIGHT_MM * self.px_per_mm
        if not (abs(short / card_w - 1) <= CARD_SIZE_SLACK and abs(long / card_h - 1) <= CARD_SIZE_SLACK):
            return None
        corners = cv2.boxPoints(box).astype(np.float64)
        return (corners + [self.cols.start + 0.5, self.rows.start + 0.5]) / self.px_per_mm  # pixel centres at +0.5

    def card_at(self, corners_mm: np.ndarray) -> np.ndarray | None:
        """A footprint (the inverse of `card_corners_mm`): a card-sized rectangle placed and turned like the
        four corners (table mm) of an outline that may be loose around the card; None where it does not lie
        wholly in the place's padded region."""
        pixels = np.asarray(corners_mm, np.float64).reshape(4, 2) * self.px_per_mm - [self.cols.start + 0.5, self.rows.start + 0.5]
        footprint = _card_at(cv2.minAreaRect(pixels.astype(np.float32)), self.px_per_mm, self.footprint.shape)
        return footprint if self.card_corners_mm(footprint) is not None else None

    def frames_holding(self, visit: Visit, outline: np.ndarray, *, slow_only: bool = False) -> int:
        """Frames in which the front of this visit's hand (fingers and palm) lay over `outline`: a hand
        putting a card down holds it there; an arm passing over the pile does not."""
        near = cv2.dilate(outline.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
        count = 0
        for number, (x, y) in enumerate(visit.fronts):
            row, col = int(y * self.px_per_mm), int(x * self.px_per_mm)
            if not (0 <= row < near.shape[0] and 0 <= col < near.shape[1] and near[row, col]):
                continue
            if slow_only and number and number < len(visit.track):
                (_, t0, path0), (_, t1, path1) = visit.track[number - 1], visit.track[number]
                if (path1 - path0) / max(t1 - t0, 1e-6) > HOLDING_MAX_SPEED:
                    continue  # sweeping past, not putting down
            count += 1
        return count

    def nearest_front(self, visit: Visit, outline: np.ndarray) -> float:
        """Closest (mm) the front of this visit's hand came to the middle of `outline`: the hand that laid
        a card there had its fingers on it; one reaching past had them elsewhere."""
        points = np.argwhere(outline)
        if not len(points) or not visit.fronts:
            return float("inf")
        centre_row, centre_col = points.mean(axis=0) / self.px_per_mm
        return float(min(np.hypot(x - centre_col, y - centre_row) for x, y in visit.fronts))

    def pending_touch(self) -> float | None:
        """Earliest touch time of visits not yet reported (the pipeline holds later rulings back for it)."""
        times = [visit.touch.t for visit in list(self.visits.values()) + self.finished if visit.touch is not None]
        return min(times) if times else None


def _card_sized(hull: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """`hull` as a card-sized rectangle when it is one whole card's outline (a card laid where the
    old top showed), else None."""
    box = _pixel_box(hull)
    if box is None:
        return None
    centre, (w, h), angle = box
    short, long = sorted((w, h))
    card_w, card_h = CARD_WIDTH_MM * px_per_mm, CARD_HEIGHT_MM * px_per_mm
    if not (WHOLE_CARD_SHARE <= short * long / (card_w * card_h) <= WHOLE_CARD_MAX_SHARE
            and short <= card_w * WHOLE_CARD_MAX_SIDE and long <= card_h * WHOLE_CARD_MAX_SIDE):
        return None
    return _card_at((centre, (w, h), angle), px_per_mm, hull.shape)


def _card_at(box, px_per_mm: float, shape: tuple[int, int]) -> np.ndarray:
    """Bool mask of a card-sized rectangle placed and turned as `box` ((centre, (w, h), angle), pixels),
    its long side along the box's."""
    centre, (w, h), angle = box
    card_w, card_h = CARD_WIDTH_MM * px_per_mm, CARD_HEIGHT_MM * px_per_mm
    size = (card_w, card_h) if w <= h else (card_h, card_w)
    out = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(out, np.round(cv2.boxPoints((centre, size, angle))).astype(np.int32), 1)
    return out.astype(bool)


def _pixel_box(mask: np.ndarray):
    """The smallest turned rectangle around a mask's pixels, counting each pixel whole (OpenCV's
    ((cx, cy), (w, h), angle) in pixel indices), or None for an empty mask."""
    points = cv2.findNonZero(mask.astype(np.uint8))
    if points is None:
        return None
    centre, (w, h), angle = cv2.minAreaRect(points)
    return centre, (w + 1, h + 1), angle


def _hull(mask: np.ndarray) -> np.ndarray:
    points = cv2.findNonZero(mask.astype(np.uint8))
    out = np.zeros(mask.shape, np.uint8)
    if points is None:
        return out.astype(bool)
    cv2.fillConvexPoly(out, cv2.convexHull(points), 1)
    return out.astype(bool)


def _inside(inner: tuple[slice, slice], shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, bool)
    mask[inner] = True
    return mask


def _pieces(mask: np.ndarray, smallest: float) -> np.ndarray:
    """`mask` (bool) without its connected pieces smaller than `smallest` pixels. (Which piece gets which
    label does not matter here: Grana's algorithm, a third of the time of OpenCV's default on a place.)"""
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask.view(np.uint8), 8, cv2.CV_32S, cv2.CCL_GRANA)
    if count <= 2:
        return mask if count < 2 or stats[1, cv2.CC_STAT_AREA] >= smallest else np.zeros_like(mask)
    keep = stats[:, cv2.CC_STAT_AREA] >= smallest
    keep[0] = False
    return keep[labels]


def _closing_in(visit: Visit, frame: int, back: int = 0) -> bool:
    """The visit's hand, in the frame before `frame` (its last two samples before the last `back` of them, a
    frame apart), was closing in on the place by CLOSING_MM or more, within MERGED_REACH_MM of it and not
    touching it yet."""
    samples = visit.samples[:len(visit.samples) - back] if back else visit.samples
    if visit.touch is not None or visit.frames_in_contact or len(samples) < 2:
        return False
    (older_frame, _, older), (last_frame, _, last) = samples[-2:]
    return (last_frame == frame - 1 and older_frame == frame - 2 and 0 < last <= MERGED_REACH_MM
            and older - last >= CLOSING_MM)
