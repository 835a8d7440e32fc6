"""Hands and arms: foreground blobs that reach into the play area from a player's edge.

An arm crosses A's edge (the view's top rows, y = 0) or B's edge (the bottom rows, y = H), so a blob
touching that edge is that player's hand. A player reaching for an outer stock may bring the arm in over
the table's left or right end instead: a blob touching a side edge is the hand of the player on whose
half of the table it crosses that edge. When both players' arms touch and merge into one blob (two
cards arriving at one pile), the blob is split pixel by pixel by who owned the nearer part of it in the
previous frame, each pixel taken where the motion between the frames says it was then. Foreground
touching neither edge is a loose object: a card just let go, or a card that has not yet been taken into
the background model; or a hand whose arm the camera cannot tell from the table (dark skin on dark
wood): a moving hand-sized blob, not card, that what moved joins to one player's edge two frames
running is that player's hand; and a moving card floating near an arm is the card that arm's hand
carries where what differs faintly from the table (the dark hand itself) joins the two, within a hand's
length. What lay loose and still, and has not moved since, stays loose: a card just laid on a pile is
no part of the next hand that reaches it (the other player's, racing for the pile a few frames later),
though the two touch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

PLAYERS = ("A", "B")

#: How many rows at each edge count as "the player's edge". Arms are wide; a few rows are plenty.
EDGE_ROWS = 2
#: Blobs smaller than this (view pixels) are noise, not hands.
MIN_HAND_PIXELS = 30
#: A moving blob touching no edge stays a player's hand when this share of it was theirs a frame before
#: (and is both players' when half this share of it was each one's).
FOLLOWED_SHARE = 0.3
#: ... and when at least this share of it moved in a 30th of a second (the table a hand uncovers does
#: not); between frames closer together, proportionately less (a hand moves half as far a frame at 60 fps).
MOVING_SHARE = 0.25
MOVING_SHARE_PERIOD = 1 / 30
#: A blob at least this much card is a card (one just let go), not a hand, whoever held it.
CARD_BLOB_SHARE = 0.6
#: A moving blob touching no edge that was nobody's a frame ago, not mostly card and at least this big
#: (view pixels: a third of a palm at 0.5 px/mm), is a hand when what moved joins it to one player's
#: edge (`_arms_in_motion`): an arm the camera cannot tell from the table (dark skin on dark wood)
#: leaves the hand floating.
MIN_LOST_HAND_PIXELS = 300
#: Margin (view pixels) around two merged hands over which the motion between frames is measured
#: (`HandTracker._as_they_were`): how far a hand moves in a frame, and then some (16 px: 32 mm).
FLOW_PAD = 16
#: How far (view pixels) from a player's arm what differs only faintly from the table may join a card to it
#: (`_faintly_joined`): 50 px, 100 mm at the view's 0.5 px/mm, a hand's length from the wrist.
FAINT_REACH_PX = 50
#: What `_followed` calls a floating blob both players' hands were in a frame ago.
MERGED = -1


@dataclass(frozen=True)
class HandMasks:
    """Who owns which foreground pixels in one view."""

    owned: dict[str, np.ndarray]  # player -> uint8 0/1 mask of their hand/arm (and the card it carries)
    loose: np.ndarray             # uint8 0/1 mask of foreground no player owns (cards lying still, noise)
    edge_pixels: dict[str, int]   # player -> how many edge pixels their arm covers (0: hand off the table)
    #: player -> (x, y, width, height) in view pixels around all they own (width 0: nothing)
    boxes: dict[str, tuple[int, int, int, int]] | None = None


class HandTracker:
    def __init__(self, shape: tuple[int, int], *, frame_period: float = MOVING_SHARE_PERIOD) -> None:
        self.shape = shape
        self.moving_share = MOVING_SHARE * min(1.0, frame_period / MOVING_SHARE_PERIOD)
        self._previous: dict[str, np.ndarray] = {player: np.zeros(shape, np.uint8) for player in PLAYERS}
        #: the floating moving blobs nobody owned in the last frame (bool mask), or None
        self._lost: np.ndarray | None = None
        #: what lay loose and still in the last frame (uint8 0/1), or None
        self._lying: np.ndarray | None = None
        #: what moved is joined across gaps this wide (an arm seen only by its edges): 5 view px, 10 mm
        self._bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._previous_view: np.ndarray | None = None  # the last view, where the hands moved from
        self._flow = None  # OpenCV's DIS optical flow, made when two hands first merge

    def split(self, foreground: np.ndarray, cardlike: np.ndarray | None = None, moving: np.ndarray | None = None,
              view: np.ndarray | None = None, faint: Callable[[], np.ndarray] | None = None) -> HandMasks:
        """Who owns which foreground. With `cardlike` (card-coloured pixels) and `moving` (pixels changed
        since the last frame): a moving blob touching no edge stays its owner's if it lay in their hand's
        place a frame ago and is not mostly card (a hand whose arm the camera does not see against the
        table, or a hand drawn without one); not a card just let go, nor the still table a hand uncovered.
        What lay loose and still a frame ago and has not moved since stays loose, whatever hand touches it.
        `view`: the view itself, where two hands merged are split by how they moved (`_as_they_were`);
        `faint()`: what differs faintly from the table (`BackgroundModel.faint`), where a moving floating
        blob is joined to the arm whose hand carries it (`_faintly_joined`): asked only when there is one."""
        lying = None
        still = None if moving is None else np.bitwise_xor(moving, 1)
        if still is not None and self._lying is not None:
            lying = cv2.bitwise_and(cv2.bitwise_and(self._lying, foreground), still)
            foreground = cv2.subtract(foreground, lying)
        count, labels = cv2.connectedComponents(foreground, connectivity=8)
        # blob sizes counted over the foreground alone (a third of the time over the whole view, and of
        # what the stats would take); the background's count made up from the rest
        areas = np.bincount(labels[foreground > 0], minlength=count)
        areas[0] = labels.size - int(areas.sum())
        top = _blobs_among(labels[:EDGE_ROWS], count)
        bottom = _blobs_among(labels[-EDGE_ROWS:], count)
        for label, side in self._side_arms(labels).items():
            if label not in top and label not in bottom:
                (top if side == "A" else bottom).add(label)
        # what each blob is, by label: 1 A's hand, 2 B's, 3 loose; 0 background, noise, or both hands merged
        kinds = np.zeros(count, np.uint8)
        merged = []
        floating = [label for label in range(1, count) if label not in top and label not in bottom and areas[label] >= MIN_HAND_PIXELS]
        # what moved of each blob (by label), where some may be a hand that lost its arm
        moved = np.bincount(labels[moving > 0], minlength=count) if floating and moving is not None else None
        if moved is not None and cardlike is not None:
            followed = self._followed(labels, count, areas, cardlike, moving, moved, floating)
        else:
            followed, self._lost = {}, None
        if moved is not None and faint is not None:
            carried = [label for label in floating if label not in followed and moved[label] >= self.moving_share * areas[label]]
            if carried:
                followed.update(self._faintly_joined(labels, count, carried, faint(), top, bottom))
        for label in range(1, count):
            if areas[label] < MIN_HAND_PIXELS:
                continue
            in_a, in_b = label in top, label in bottom
            if (in_a and in_b) or (not in_a and not in_b and followed.get(label) == MERGED):
                merged.append(label)
            else:
                kinds[label] = 1 if in_a else 2 if in_b else followed.get(label, 3)
        # each pixel's kind by its label: a table look-up where labels fit a byte, three times faster
        if count <= 256:
            table = np.zeros(256, np.uint8)
            table[:count] = kinds
            blobs = cv2.LUT(labels.astype(np.uint8), table)
        else:
            blobs = kinds[labels]
        owned = {"A": (blobs == 1).view(np.uint8), "B": (blobs == 2).view(np.uint8)}
        loose = (blobs == 3).view(np.uint8)
        if lying is not None:
            loose = cv2.bitwise_or(loose, lying)
        self._lying = None if still is None else cv2.bitwise_and(loose, still)
        for label in merged:
            self._split_merged(labels == label, owned, view)
        self._previous = owned
        self._previous_view = view
        edges = {"A": int(np.count_nonzero(owned["A"][:EDGE_ROWS])), "B": int(np.count_nonzero(owned["B"][-EDGE_ROWS:]))}
        boxes = {player: cv2.boundingRect(mask) for player, mask in owned.items()}  # (0, 0, 0, 0) when empty
        return HandMasks(owned=owned, loose=loose, edge_pixels=edges, boxes=boxes)

    def _followed(self, labels: np.ndarray, count: int, areas: np.ndarray, cardlike: np.ndarray, moving: np.ndarray,
                  moved: np.ndarray, floating: list[int]) -> dict[int, int]:
        """Of the `floating` blobs (by label; touching no edge), those that keep last frame's owner (kind
        1 or 2), or MERGED where both players' hands were in them (split then like two arms that touch).
        `moved`: how many of each blob's pixels are `moving`."""
        before = {kind: np.bincount(labels[self._previous[player] > 0], minlength=count) for kind, player in ((1, "A"), (2, "B"))}
        card = np.bincount(labels[cardlike > 0], minlength=count)
        followed = {}
        unowned = []
        for label in floating:
            if card[label] >= CARD_BLOB_SHARE * areas[label] or moved[label] < self.moving_share * areas[label]:
                continue
            owners = [kind for kind in before if before[kind][label] >= FOLLOWED_SHARE * areas[label] / 2]
            if len(owners) == 2:
                followed[label] = MERGED
            elif owners and before[owners[0]][label] >= FOLLOWED_SHARE * areas[label]:
                followed[label] = owners[0]
            elif areas[label] >= MIN_LOST_HAND_PIXELS:
                unowned.append(label)
        lost_before, self._lost = self._lost, None
        if unowned:
            # a hand whose arm was never seen (a dark arm on a dark table), moving for a second frame where
            # it moved the frame before (the table uncovered by cards gone in a cut moves for one frame
            # only), and joined to one player's edge by what moved
            self._lost = np.isin(labels, unowned)
            if lost_before is not None:
                was_lost = np.bincount(labels[lost_before], minlength=count)
                again = [label for label in unowned if was_lost[label] >= FOLLOWED_SHARE * areas[label]]
                if again:
                    followed.update(self._arms_in_motion(labels, again, moving))
        return followed

    def _arms_in_motion(self, labels: np.ndarray, lost: list[int], moving: np.ndarray) -> dict[int, int]:
        """Of floating hands nobody owns (`lost`, by label), those joined to exactly one player's edge by
        what moved this frame: an arm the camera cannot tell from the table in colour (dark skin on dark
        wood) still moves over its grain. Kind 1 (A) or 2 (B) by label."""
        joined = cv2.dilate(((labels > 0) | (moving > 0)).astype(np.uint8), self._bridge)
        count, regions = cv2.connectedComponents(joined, connectivity=8)
        top, bottom = set(np.unique(regions[:EDGE_ROWS])) - {0}, set(np.unique(regions[-EDGE_ROWS:])) - {0}
        out = {}
        for label in lost:
            region = int(np.bincount(regions[labels == label], minlength=count).argmax())
            if region in top and region not in bottom:
                out[label] = 1
            elif region in bottom and region not in top:
                out[label] = 2
        return out

    def _faintly_joined(self, labels: np.ndarray, count: int, carried: list[int], faint: np.ndarray,
                        top: set[int], bottom: set[int]) -> dict[int, int]:
        """Of the moving floating blobs `carried` (by label), those that what differs faintly from the table
        (`faint`), within FAINT_REACH_PX of one player's arm, joins to that arm and not the other's: kind 1
        (A) or 2 (B) by label. Looked at within twice that reach of them."""
        wanted = np.zeros(count, bool)
        wanted[carried] = True
        rows, cols = np.nonzero(wanted[labels])
        reach = 2 * FAINT_REACH_PX
        window = (slice(max(0, int(rows.min()) - reach), int(rows.max()) + reach + 1),
                  slice(max(0, int(cols.min()) - reach), int(cols.max()) + reach + 1))
        labels, faint = labels[window], faint[window] > 0
        carried_here = wanted[labels]
        joined: dict[int, set[int]] = {}
        for kind, arms in ((1, top - bottom), (2, bottom - top)):
            table = np.zeros(count, bool)
            table[list(arms)] = True
            arm = table[labels]
            if not arm.any():
                continue
            near = cv2.distanceTransform(np.logical_not(arm).view(np.uint8), cv2.DIST_L2, 3) <= FAINT_REACH_PX
            _, regions = cv2.connectedComponents((faint & near | arm | carried_here).view(np.uint8), connectivity=8)
            reached = set(np.unique(regions[arm]).tolist())
            for label in carried:
                if int(np.bincount(regions[labels == label]).argmax()) in reached:
                    joined.setdefault(label, set()).add(kind)
        return {label: kinds.pop() for label, kinds in joined.items() if len(kinds) == 1}

    def _side_arms(self, labels: np.ndarray) -> dict[int, str]:
        """Blobs crossing the left or right edge of the view, with the player on whose half they cross it."""
        height = labels.shape[0]
        sides = np.concatenate([labels[:, :EDGE_ROWS], labels[:, -EDGE_ROWS:]], axis=1)
        out: dict[int, str] = {}
        for label in _blobs_among(sides, int(sides.max()) + 1):
            rows = np.nonzero((sides == label).any(axis=1))[0]
            out[int(label)] = "A" if float(rows.mean()) < height / 2 else "B"
        return out

    def _split_merged(self, component: np.ndarray, owned: dict[str, np.ndarray], view: np.ndarray | None = None) -> None:
        previous_a, previous_b = self._previous["A"], self._previous["B"]
        if not previous_a.any() or not previous_b.any():
            # no history: split by the side of the table each pixel is on
            middle = self.shape[0] // 2
            rows = np.arange(self.shape[0])[:, None]
            owned["A"][component & (rows < middle)] = 1
            owned["B"][component & (rows >= middle)] = 1
            return
        distance_a = cv2.distanceTransform((previous_a == 0).astype(np.uint8), cv2.DIST_L2, 3)
        distance_b = cv2.distanceTransform((previous_b == 0).astype(np.uint8), cv2.DIST_L2, 3)
        if view is not None and self._previous_view is not None:
            self._as_they_were(component, view, distance_a, distance_b)
        nearer_a = distance_a <= distance_b
        owned["A"][component & nearer_a] = 1
        owned["B"][component & ~nearer_a] = 1

    def _as_they_were(self, component: np.ndarray, view: np.ndarray, *distances: np.ndarray) -> None:
        """`distances` (to each hand as it was a frame ago), each pixel near `component` given, in place, the
        value where it lay a frame ago: the dense optical flow from this view back to the last (OpenCV's DIS). Two
        hands that cross move fast, each its own way; the card one carries, ahead of its fingers, moves into
        where the other's hand was a frame before, and was given to the wrong player by where it is now (a
        spit card laid 1.25 frames late at 60 fps as the players' arms crossed to the far piles)."""
        rows, cols = np.nonzero(component)
        y0, y1 = max(0, int(rows.min()) - FLOW_PAD), min(component.shape[0], int(rows.max()) + FLOW_PAD + 1)
        x0, x1 = max(0, int(cols.min()) - FLOW_PAD), min(component.shape[1], int(cols.max()) + FLOW_PAD + 1)
        if self._flow is None:  # the quickest preset: FAST, tried on ten racing games, timed no better
            self._flow = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_ULTRAFAST)
        now, before = (cv2.cvtColor(picture[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY) for picture in (view, self._previous_view))
        flow = self._flow.calc(now, before, None)
        columns, lines = np.meshgrid(np.arange(x0, x1, dtype=np.float32), np.arange(y0, y1, dtype=np.float32))
        from_x, from_y = columns + flow[..., 0], lines + flow[..., 1]
        for distance in distances:  # remap reads the whole map before the window is written
            distance[y0:y1, x0:x1] = cv2.remap(distance, from_x, from_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _blobs_among(labels: np.ndarray, count: int) -> set[int]:
    """The blobs (labels other than 0, all below `count`) found in `labels`, a few rows or columns of the
    label image: counted rather than sorted out, five times quicker than np.unique on them."""
    return set((np.flatnonzero(np.bincount(labels.ravel(), minlength=count)[1:]) + 1).tolist())
