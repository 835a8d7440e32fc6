"""One place watched frame by frame: what it reports when it settles after a hand has been over it."""

import cv2
import numpy as np
import pytest

from referee.piles.places import GONE_OFF_MM, SETTLE_FRAMES, PlaceTracker
from referee.piles.table_view import RectMM
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM

PX_PER_MM = 1.0
VIEW = (300, 300)
TABLE_GREY = 70


def card_outline(centre, angle) -> np.ndarray:
    return cv2.boxPoints((centre, (CARD_WIDTH_MM * PX_PER_MM, CARD_HEIGHT_MM * PX_PER_MM), angle))


def draw_card(view: np.ndarray, centre, angle, ink) -> None:
    """A white six with its corner indices (6 mm in from two opposite corners) and its pips, in its own ink."""
    corners = card_outline(centre, angle)
    cv2.fillConvexPoly(view, np.round(corners).astype(np.int32), (235, 235, 235))
    turn = np.radians(angle)
    along = np.array([np.cos(turn), np.sin(turn)])  # the card's width direction
    down = np.array([-np.sin(turn), np.cos(turn)])  # its height direction
    marks = [(-25.5, -38.0), (25.5, 38.0)] + [(x, y) for x in (-14.0, 14.0) for y in (-26.0, 0.0, 26.0)]
    for x, y in marks:
        point = (np.asarray(centre) + x * along + y * down) * PX_PER_MM
        cv2.circle(view, tuple(int(v) for v in np.round(point)), 4, ink, -1)


def card_paper(view: np.ndarray) -> np.ndarray:
    return (view.min(axis=2) > 200).astype(np.uint8)


def settle(tracker: PlaceTracker, view: np.ndarray, first_frame: int, hand: np.ndarray | None = None, frames: int = SETTLE_FRAMES + 2):
    """Steps `frames` frames of `view` (a hand over the place in each, if given); the changes reported."""
    owned = {"A": hand if hand is not None else np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    changes = []
    for frame in range(first_frame, first_frame + frames):
        change = tracker.step(view, owned, frame, frame / 30, 1 / 30, None, card_paper(view))
        if change is not None:
            changes.append(change)
    return changes


def iou(first: np.ndarray, second: np.ndarray) -> float:
    return float((first & second).sum() / max((first | second).sum(), 1))


def lay_on_pile(laid, peeking=None):
    """A pile (its top at the place's centre, turned -3 degrees; a lower card peeking out by `peeking` mm)
    settled, then a hand over it, then the card `laid` ((centre, angle)) settled on it: (tracker, changes)."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    before = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    if peeking is not None:
        draw_card(before, (150 + peeking[0], 150 + peeking[1]), 8.0, (30, 30, 160))
    draw_card(before, (150, 150), -3.0, (20, 20, 20))
    assert len(settle(tracker, before, 0)) == 1
    after = before.copy()
    draw_card(after, *laid, (160, 40, 40))
    hand = np.zeros(VIEW, np.uint8)
    hand[0:80, 130:170] = 1
    settle(tracker, before, 10, hand, frames=3)
    return tracker, settle(tracker, after, 13)


@pytest.mark.parametrize("peeking", [(24.0, 0.0), (-18.0, 10.0), (0.0, 22.0)])
def test_the_outline_of_a_new_top_card_is_the_card_laid_not_the_pile_that_peeks_out_beneath(peeking):
    """The touch of the next card is timed against this outline: a pile's lower cards peeking out from
    under the top must not stretch it towards them."""
    laid = ((147.0, 153.0), 4.0)
    tracker, changes = lay_on_pile(laid, peeking)
    assert len(changes) == 1 and changes[0].changed
    truth = np.zeros(VIEW, np.uint8)
    cv2.fillConvexPoly(truth, np.round(card_outline(*laid)).astype(np.int32), 1)
    truth = truth[tracker.rows, tracker.cols].astype(bool)
    footprint = changes[0].footprint
    assert iou(footprint, truth) > 0.88
    shift = np.argwhere(footprint).mean(axis=0) - np.argwhere(truth).mean(axis=0)
    assert np.hypot(*shift) < 2.0 / PX_PER_MM


@pytest.mark.parametrize("turned", [25.0, -35.0, 50.0])
def test_a_card_laid_turned_on_the_pile_is_its_own_outline_seen_through_a_soft_camera(turned):
    """A card laid well turned on the pile, the picture a little soft as a camera's is: the change is a
    little wider than the card all round, and is still the card's outline, not one turned between the
    two cards (which the card could not be read at)."""
    soft = lambda view: cv2.GaussianBlur(view, (0, 0), 1.6)
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    pile = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(pile, (150, 150), -3.0, (20, 20, 20))
    laid = ((152.0, 148.0), -3.0 + turned)
    after = pile.copy()
    draw_card(after, *laid, (160, 40, 40))
    before, after = soft(pile), soft(after)
    assert len(settle(tracker, before, 0)) == 1
    hand = np.zeros(VIEW, np.uint8)
    hand[0:80, 130:170] = 1
    settle(tracker, before, 10, hand, frames=3)
    (change,) = settle(tracker, after, 13)
    truth = np.zeros(VIEW, np.uint8)
    cv2.fillConvexPoly(truth, np.round(card_outline(*laid)).astype(np.int32), 1)
    assert iou(change.footprint, truth[tracker.rows, tracker.cols].astype(bool)) > 0.85


@pytest.mark.parametrize("table_is_paper", [False, True])
def test_an_outline_drawn_from_card_paper_that_spans_the_table_is_a_guess(table_is_paper):
    """Where the table passes for card paper (a cream cloth under a warm lamp), the card-coloured patch
    around a change is the table: the outline drawn from it is said to be a guess, not a card seen."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    pile = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(pile, (150, 150), -3.0, (20, 20, 20))
    after = pile.copy()
    cv2.rectangle(after, (135, 130), (165, 170), (160, 40, 40), -1)  # a card laid square on it: only its picture differs
    paper = (lambda view: np.ones(VIEW, np.uint8)) if table_is_paper else card_paper
    owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    hand = np.zeros(VIEW, np.uint8)
    hand[0:80, 130:170] = 1
    changes = []
    for frame, view, over in [(f, pile, None) for f in range(10)] + [(f, pile, hand) for f in range(10, 13)] + [(f, after, None) for f in range(13, 25)]:
        change = tracker.step(view, dict(owned, A=hand) if over is not None else owned, frame, frame / 30, 1 / 30, None, paper(view))
        if change is not None:
            changes.append(change)
    assert len(changes) == 2 and changes[1].changed
    assert changes[1].outlined is not table_is_paper
    tracker.set_footprint(changes[1].footprint, changes[1].outlined)
    assert tracker.outlined is not table_is_paper
    _, foreseen = tracker.foresee(after, paper(after))  # a guess is not where the namer is told the card lies
    assert (foreseen is None) is table_is_paper


REST_FRAME, SPEED, PERIOD = 10.4, 15.0, 1 / 30


def _lay_on_bare_place(carry):
    """A spit card slid onto an empty place, SPEED mm a frame straight in, at rest REST_FRAME frames in and
    held there until frame 15; then the hand is gone and the card lies there. `carry(view, centre_y)` draws
    the card and its hand while held and gives (A's hand mask, the card seen in it). Returns (the tracker,
    A's visit, the footprint the place settled on)."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    table = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    assert len(settle(tracker, table, 0)) == 1
    changes = []
    for frame in range(5, 24):
        view = table.copy()
        owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        carried = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        if frame < 16:
            owned["A"], carried["A"] = carry(view, 150 - SPEED * max(0.0, REST_FRAME - frame))
        else:
            draw_card(view, (150, 150), 0.0, (20, 20, 20))
        change = tracker.step(view, owned, frame, frame * PERIOD, PERIOD, carried, card_paper(view))
        if change is not None:
            changes.append(change)
    assert len(changes) == 1 and changes[0].changed
    (visit,) = changes[0].visits
    return tracker, visit, changes[0].footprint


@pytest.mark.parametrize("seen_short", [0.0, 6.0])
def test_a_card_laid_on_a_bare_place_is_timed_where_it_came_to_rest_not_where_it_crossed_the_outline(seen_short):
    """A spit card slid onto an empty place touches nothing until it lies there. Its edge crosses the
    place's outline frames before that. `seen_short`: the card in the hand is seen that many mm short of
    its leading edge (fingers over it, a pale hand's outline), so that the edge seen never reaches the far
    side of where the card settles."""
    def face_up(view, centre_y):
        draw_card(view, (150, centre_y), 0.0, (20, 20, 20))
        hand = np.zeros(VIEW, np.uint8)
        hand[: int(centre_y - CARD_HEIGHT_MM / 2) + 1, 140:160] = 1  # the arm, from A's edge
        hand |= card_paper(view)
        seen = hand & card_paper(view)
        seen[int(round(centre_y + CARD_HEIGHT_MM / 2 - seen_short)):] = 0
        return hand, seen

    tracker, visit, footprint = _lay_on_bare_place(face_up)
    rest = tracker.arrival_at_rest(visit, footprint, PERIOD)
    assert abs(rest.t - REST_FRAME * PERIOD) < 0.2 * PERIOD
    assert visit.touch.t < (REST_FRAME - 1) * PERIOD  # the outline crossing: more than a frame early
    assert tracker.laid_on_bare(visit, footprint, PERIOD) == rest


def test_a_card_laid_face_down_on_a_bare_place_is_timed_where_the_hand_came_to_rest():
    """A card carried face down (its back no card paper) or under the hand is not seen arriving: it lies
    there once the hand that laid it has come to rest on the place, not where the hand crossed the
    place's outline frames before."""
    def face_down(view, centre_y):
        cv2.rectangle(view, (118, int(centre_y - 44)), (182, int(centre_y + 44)), (150, 120, 40), -1)  # the back
        hand = np.zeros(VIEW, np.uint8)
        hand[: int(centre_y + CARD_HEIGHT_MM / 2) + 1, 118:183] = 1
        return hand, hand & card_paper(view)

    tracker, visit, footprint = _lay_on_bare_place(face_down)
    assert tracker.arrival_at_rest(visit, footprint, PERIOD) is None  # no card seen arriving
    laid = tracker.laid_on_bare(visit, footprint, PERIOD)
    assert visit.touch.t < (REST_FRAME - 1) * PERIOD  # the outline crossing
    assert abs(laid.t - REST_FRAME * PERIOD) < 1.2 * PERIOD


def test_a_card_first_seen_lying_where_it_came_to_rest_landed_since_the_frame_before_though_the_hand_slid_on():
    """A dark hand over dark wood: the card under its fingers is seen only once it lies where it comes to
    rest, and the hand slides on over it for two more frames before it stops."""
    frames = iter(range(5, 16))

    def under_a_sliding_hand(view, centre_y):
        frame = next(frames)
        hand = np.zeros(VIEW, np.uint8)
        front = int(centre_y + CARD_HEIGHT_MM / 2 + SPEED * min(2.0, max(0.0, frame - REST_FRAME)))
        hand[:front, 140:160] = 1
        if frame < REST_FRAME:
            return hand, np.zeros(VIEW, np.uint8)  # the card under the fingers, not seen
        draw_card(view, (150, centre_y), 0.0, (20, 20, 20))
        seen = card_paper(view)
        seen[:, 140:160] = 0  # the fingers over its middle
        return hand | seen, seen

    tracker, visit, footprint = _lay_on_bare_place(under_a_sliding_hand)
    assert tracker.arrival_at_rest(visit, footprint, PERIOD) is None  # not seen arriving
    assert tracker.resting_touch(visit, PERIOD).t > 12 * PERIOD       # the hand came to rest late
    laid = tracker.laid_on_bare(visit, footprint, PERIOD)
    assert laid.frame == 11 and abs(laid.t - REST_FRAME * PERIOD) < 0.2 * PERIOD


def test_a_new_top_card_s_corners_are_given_in_table_millimetres_for_the_namer():
    laid = ((144.0, 157.0), 12.0)
    tracker, (change,) = lay_on_pile(laid)
    corners = tracker.card_corners_mm(change.footprint)
    # the view's pixel (0, 0) covers table (0..1, 0..1) mm: a pixel's centre is +0.5 mm
    truth = card_outline(*laid) / PX_PER_MM + 0.5
    nearest = [min(np.hypot(*(corner - other)) for other in truth) for corner in corners]
    assert max(nearest) < 2.0
    assert tracker.card_corners_mm(np.ones_like(change.footprint)) is None  # not one card: no outline
    assert tracker.card_corners_mm(np.zeros_like(change.footprint)) is None


def test_a_card_s_corners_in_table_millimetres_give_its_footprint_back_at_a_card_s_size():
    laid = ((144.0, 157.0), 12.0)
    tracker, (change,) = lay_on_pile(laid)
    corners = tracker.card_corners_mm(change.footprint)
    assert iou(tracker.card_at(corners), change.footprint) > 0.9
    # a loose outline (a tenth too big all round) gives the card's size back, placed and turned as it lies
    loose = corners.mean(axis=0) + 1.1 * (corners - corners.mean(axis=0))
    assert iou(tracker.card_at(loose), change.footprint) > 0.9
    assert tracker.card_at(loose + [200.0, 0.0]) is None  # off the place


def place_with_card():
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("stock", "A", 4), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    return tracker, view


def test_a_place_under_a_flickering_lamp_still_settles():
    # what is left of a lamp's flicker and the camera's noise under it: every frame a few grey levels off
    tracker, view = place_with_card()
    rng = np.random.default_rng(3)
    nobody = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    settled_at = None
    for frame in range(90):
        seen = np.clip(view.astype(np.int16) * (1.0 + 0.05 * ((frame % 3) - 1)) + rng.integers(-3, 4, view.shape), 0, 255).astype(np.uint8)
        if tracker.step(seen, nobody, frame, frame / 60, 1 / 60, None, card_paper(seen)) is not None:
            settled_at = frame
            break
    assert settled_at is not None and settled_at < 60


def test_on_a_steady_camera_a_card_still_sliding_is_not_still():
    tracker, view = place_with_card()
    nobody = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    for frame in range(40):  # a steady camera: the place settles, and its noise level stays low
        tracker.step(view, nobody, frame, frame / 30, 1 / 30, None, card_paper(view))
    for frame in range(40, 70):  # a card creeping 1 mm a frame across the place: never still
        moved = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
        draw_card(moved, (120 + (frame - 40), 150), 0.0, (20, 20, 20))
        tracker.read_again()
        assert tracker.step(moved, nobody, frame, frame / 30, 1 / 30, None, card_paper(moved)) is None


@pytest.mark.parametrize("patch_mm, is_card", [((20, 8), False), ((63, 88), True)])
def test_a_pale_spot_of_table_on_a_bare_place_is_no_card(patch_mm, is_card):
    # a lamp's bright spot on the table within the place's zone, when the place is first seen
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    (w, h) = patch_mm
    cv2.rectangle(view, (int(150 - w / 2), int(110 - h / 2)), (int(150 + w / 2), int(110 + h / 2)), (235, 235, 235), -1)
    changes = settle(tracker, view, 0)
    assert len(changes) == 1
    area = np.count_nonzero(changes[0].footprint)
    card = CARD_WIDTH_MM * CARD_HEIGHT_MM * PX_PER_MM ** 2
    if is_card:
        assert abs(area / card - 1) < 0.15
    else:
        assert area >= 110 * 130 * PX_PER_MM ** 2 * 0.9  # the whole zone is watched, not the sliver


def test_a_pale_speck_ahead_of_the_carried_card_is_not_where_its_edge_is_measured():
    """A fingernail's highlight over the pile is card-coloured and in the hand: one such speck over the
    outline would time the touch before the card got there."""
    tracker, _ = place_with_card()  # the pile's outline: the nominal card at (150, 150)
    hand = np.zeros(VIEW, np.uint8)
    hand[0:95, 120:180] = 1                      # the hand and arm, reaching down from A's edge
    card = np.zeros(VIEW, np.uint8)
    card[40:90, 125:175] = 1                     # the card it carries, its edge 16 mm short of the pile
    near_edge = tracker.signed_distance(hand, card)
    speck = card.copy()
    speck[108:110, 150:152] = 1                  # 4 mm^2 of pale fingernail, already over the pile
    assert tracker.signed_distance(hand, speck) == pytest.approx(near_edge)
    assert 12.0 <= near_edge <= 18.0


def test_the_pile_s_white_top_in_the_shadow_of_the_hand_is_no_part_of_the_card_it_carries():
    tracker, _ = place_with_card()
    hand = np.zeros(VIEW, np.uint8)
    hand[0:95, 120:180] = 1
    card = np.zeros(VIEW, np.uint8)
    card[40:90, 125:175] = 1                     # the card, 16 mm short of the pile
    shadow = np.zeros(VIEW, np.uint8)
    shadow[106:130, 130:170] = 1                 # the pile's top, shaded: still pale, and in the hand's mask
    hand |= shadow
    card |= shadow
    clear = tracker.signed_distance(hand, card, shaded=lambda rows, cols: shadow[rows, cols])
    assert 12.0 <= clear <= 18.0
    assert tracker.signed_distance(hand, card) < 0  # taken for the card, it would already overlap the pile


def test_a_card_laid_while_the_other_hand_races_for_the_pile_is_the_outline_the_next_card_touches():
    """Two players racing for one pile: A lays a card askew on it while B's hand is already coming, so
    the pile never lies still to settle. The next card must be timed touching A's card, not the top
    card that lay there before (which sticks out towards B: B's touch would come early)."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    before = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(before, (150, 150), -3.0, (20, 20, 20))
    assert len(settle(tracker, before, 0)) == 1
    laid = ((158.0, 138.0), 7.0)  # towards A, away from B
    after = before.copy()
    draw_card(after, *laid, (160, 40, 40))
    a_hand, b_hand = np.zeros(VIEW, np.uint8), np.zeros(VIEW, np.uint8)
    a_hand[0:120, 140:170] = 1  # A's hand on the card, from A's edge
    b_hand[262:300, 140:160] = 1  # B's hand on its way, inside the place's approach margin
    changes = []
    for frame in range(10, 20):
        owned = {"A": a_hand if frame < 13 else np.zeros(VIEW, np.uint8), "B": b_hand}
        change = tracker.step(after, owned, frame, frame / 30, 1 / 30, None, card_paper(after))
        changes += [change] if change is not None else []
    assert not changes  # never still: B's hand is there throughout
    truth = np.zeros(VIEW, np.uint8)
    cv2.fillConvexPoly(truth, np.round(card_outline(*laid)).astype(np.int32), 1)
    assert iou(tracker.footprint, truth[tracker.rows, tracker.cols].astype(bool)) > 0.85
    # the old top's outline reached 12 mm nearer B than the laid card's does
    assert tracker.signed_distance(b_hand) > 32.0


def test_a_hand_that_brought_a_card_is_told_from_one_that_came_empty_and_took_the_top_card_away():
    """A hand seen with a card as it touched the pile brought it; one that came empty and left with the
    pile's top card (a take-back) brought none, though a card is seen in it on the way back."""
    tracker, visit, _ = _lay_on_bare_place(lambda view, centre_y: _card_in_hand(view, centre_y))
    assert visit.brought_card

    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    table = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    with_card = table.copy()
    draw_card(with_card, (150, 150), 0.0, (20, 20, 20))
    assert len(settle(tracker, with_card, 0)) == 1
    reaches = [40, 70, 100, 120, 120]  # the empty hand's fingertips (row), from A's edge, onto the card
    away = [150, 120, 90, 60]          # then the card, held, carried back towards A
    changes = []
    for number, row in enumerate(reaches + away + [None] * (SETTLE_FRAMES + 3)):
        frame = 10 + number
        view = with_card.copy() if number < len(reaches) else table.copy()
        owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        carried = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        if number < len(reaches):
            owned["A"][0:row, 135:165] = 1
        elif row is not None:
            owned["A"], carried["A"] = _card_in_hand(view, row)
        change = tracker.step(view, owned, frame, frame * PERIOD, PERIOD, carried, card_paper(view))
        if change is not None:
            changes.append(change)
    (change,) = changes
    (visit,) = change.visits
    assert visit.touch is not None and not visit.brought_card


@pytest.mark.parametrize("edge_lost", [False, True])
def test_a_card_whose_edge_is_lost_on_the_pile_s_white_top_touches_when_the_hand_lies_over_the_pile_s_middle(edge_lost):
    """A white card carried onto a white top: on H.264 video its part over the pile may not stand out at all,
    and its edge is seen stopping at the pile's outline while the hand holding it covers the pile (the
    racing games' seed 125: the card went unruled). The hand's reach is then what touched."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    assert len(settle(tracker, view, 0)) == 1
    top = 106  # the pile's outline nearest A, row (1 px a mm)
    # (the hand's reach, the rows of the card seen in it) from A's edge, frame by frame
    steps = [(40, (8, 38)), (80, (48, 78)), (170 if edge_lost else 130, (60, 104) if edge_lost else (98, 128))]
    for number, (reach, (card_from, card_to)) in enumerate(steps):
        owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        carried = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        owned["A"][0:reach, 115:185] = 1
        carried["A"][card_from:card_to, 118:181] = 1
        tracker.step(view, owned, 10 + number, (10 + number) / 30, 1 / 30, carried, card_paper(view))
    visit = tracker.visits["A"]
    assert visit.touch is not None and 11 / 30 < visit.touch.t < 12 / 30
    assert card_to <= top or not edge_lost


def _card_in_hand(view, centre_y):
    """A face-up card at (150, centre_y) held by A's hand, its arm from A's edge: (the hand's mask, the card seen in it)."""
    draw_card(view, (150, centre_y), 0.0, (20, 20, 20))
    hand = np.zeros(VIEW, np.uint8)
    hand[: max(1, int(centre_y - CARD_HEIGHT_MM / 2) + 1), 140:160] = 1
    hand |= card_paper(view)
    return hand, hand & card_paper(view)


def _slaps_on_one_pile(first_on_pile: bool, stop: int = 90):
    """B's hand slapped flat on the pile; A's hand comes down on it a moment later and stops there, just
    off the pile's outline (what lies over the pile is B's hand): its fingertips at row `stop`, the pile's
    outline at row 106. `first_on_pile`: whether B's hand is on the pile at all (else it stops short of it
    too)."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    assert len(settle(tracker, view, 0)) == 1
    b_hand = np.zeros(VIEW, np.uint8)
    b_hand[140 if first_on_pile else 210:300, 120:180] = 1  # from B's edge, over the pile's lower half
    a_stops = [stop - 50, stop - 20] + [stop] * 5           # A's fingertips (row), from A's edge
    for number, reach in enumerate(a_stops):
        a_hand = np.zeros(VIEW, np.uint8)
        a_hand[0:reach, 125:175] = 1
        owned = {"A": a_hand, "B": b_hand}
        tracker.step(view, owned, 10 + number, (10 + number) / 30, 1 / 30, None, card_paper(view))
    return tracker.visits["A"]


@pytest.mark.parametrize("stop", [90, 70])
def test_a_hand_come_down_on_the_other_players_hand_on_the_pile_touched_it_through_that_hand(stop):
    # 70: 36 mm off, the upper hand seen in parallax (a camera sees a hand lying on another, 4-5 cm up,
    # shifted away from the point beneath the lens: seed 129's racing game, A's hand 34.5 mm off)
    visit = _slaps_on_one_pile(first_on_pile=True, stop=stop)
    assert visit.touch is None and visit.through_hand is not None
    assert 11 / 30 <= visit.through_hand.t <= 13 / 30  # where it came to rest


def test_a_hand_stopping_short_of_a_pile_no_hand_is_on_touched_nothing():
    visit = _slaps_on_one_pile(first_on_pile=False)
    assert visit.touch is None and visit.through_hand is None


def test_hands_let_go_as_the_video_ends_finish_their_visits_but_an_arm_passing_on_its_way_laid_nothing():
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), -3.0, (20, 20, 20))
    settle(tracker, view, 0)
    hands = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    for frame in range(20, 26):  # both hands come down over the pile from their edges
        reach = (frame - 19) * 12
        hands["A"][: 90 + reach, 110:150] = 1
        hands["B"][210 - reach:, 150:190] = 1
        tracker.step(view, hands, frame, frame / 30, 1 / 30, None, card_paper(view))
    assert set(tracker.visits) == {"A", "B"} and all(visit.frames_in_contact for visit in tracker.visits.values())
    tracker.let_go(1 / 30, passing=frozenset({"B"}))
    assert not tracker.visits and [visit.player for visit in tracker.finished] == ["A"]
    change = tracker.settle_now(view, 26, 26 / 30, card_paper(view))
    assert [visit.player for visit in change.visits] == ["A"]


def _cut_away(table, place):
    """A `place` settled on its card on a `table`-coloured table, then the card gone in a cut (no hand
    seen): the changes the place reports over the next frames."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(place, zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    bare = np.full(VIEW + (3,), table, np.uint8)
    laid = bare.copy()
    draw_card(laid, (150, 150), 0.0, (20, 20, 20))
    cv2.rectangle(laid, tuple(int(v) for v in card_outline((150, 150), 0.0)[1]),
                  tuple(int(v) for v in card_outline((150, 150), 0.0)[3]), (90, 90, 90), 1)  # its printed border
    nobody = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    changes = []
    for frame in range(60):
        view = laid if frame < 20 else bare
        pale = (view.min(axis=2) > 150).astype(np.uint8)  # cream wood is as pale and grey as card paper
        change = tracker.step(view, nobody, frame, frame / 30, 1 / 30, None, pale)
        if change is not None:
            changes.append(change)
    return changes


@pytest.mark.parametrize("place", [("stock", "B", 0), ("spit_pile", None, 1)])
@pytest.mark.parametrize("table", [(70, 70, 70), (200, 222, 232)])
def test_a_card_cut_away_with_no_hand_seen_is_noticed_on_a_dark_or_a_pale_table(table, place):
    changes = _cut_away(table, place)
    assert len(changes) == 2 and changes[1].changed and changes[1].frame > 20


def test_a_stock_under_a_flickering_lamp_is_not_read_again():
    rng = np.random.default_rng(5)
    # what is left of a lamp's flicker once the view is steadied, and the camera's noise, on a pale table
    flicker = lambda frame, view: np.clip(view.astype(np.int16) * (1.0 + 0.015 * ((frame % 3) - 1))
                                          + rng.integers(-3, 4, view.shape), 0, 255).astype(np.uint8)
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("stock", "B", 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    laid = np.full(VIEW + (3,), (200, 222, 232), np.uint8)
    draw_card(laid, (150, 150), 0.0, (20, 20, 20))
    nobody = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
    settled = [frame for frame in range(120) if tracker.step(
        flicker(frame, laid), nobody, frame, frame / 60, 1 / 60, None, (laid.min(axis=2) > 150).astype(np.uint8)) is not None]
    assert len(settled) == 1


def test_a_card_brought_to_the_edge_of_a_white_top_for_one_frame_touched_it():
    # racing: a card laid and let go within a frame; over the pile's white top it is seen only up to the
    # top's edge, so its nearest measure is 2 mm off, never overlapping
    tracker, view = place_with_card()  # the top's edge nearest A lies at y = 106 mm
    assert len(settle(tracker, view, 0)) == 1
    nobody = np.zeros(VIEW, np.uint8)
    for frame, gap in zip(range(10, 14), (58, 30, 2, 36)):
        card, hand = np.zeros(VIEW, np.uint8), np.zeros(VIEW, np.uint8)
        card[106 - gap - 50:106 - gap, 125:175] = 1
        hand[0:106 - gap - 30, 132:168] = 1
        hand |= card
        tracker.step(view, {"A": hand, "B": nobody}, frame, frame / 30, 1 / 30, {"A": card, "B": nobody}, card_paper(view))
    changes = settle(tracker, view, 14)
    assert len(changes) == 1 and [visit.player for visit in changes[0].visits] == ["A"]
    assert 11 / 30 < changes[0].visits[0].touch.t <= 12 / 30


def test_a_place_says_as_it_begins_to_settle_what_it_will_settle_on():
    """Hands gone, its first still frame: it is `settling`, and `foresee` gives the outline it settles on
    SETTLE_FRAMES - 1 still frames later (the referee reads the card then, while those frames are tracked)."""
    laid = ((147.0, 153.0), 4.0)
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    before = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(before, (150, 150), -3.0, (20, 20, 20))
    settle(tracker, before, 0)
    after = before.copy()
    draw_card(after, *laid, (160, 40, 40))
    hand = np.zeros(VIEW, np.uint8)
    hand[0:80, 130:170] = 1
    settle(tracker, before, 10, hand, frames=3)
    foreseen, changes = [], []
    for frame in range(13, 13 + SETTLE_FRAMES + 2):
        change = tracker.step(after, {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}, frame, frame / 30, 1 / 30,
                              None, card_paper(after))
        if change is not None:
            changes.append(change)
        elif tracker.settling:
            foreseen.append((frame, tracker.foresee(after, card_paper(after))))
    assert len(foreseen) == 1 and len(changes) == 1
    (frame, (changed, footprint)), change = foreseen[0], changes[0]
    assert change.frame == frame + SETTLE_FRAMES - 1
    assert changed and np.array_equal(footprint, change.footprint)


@pytest.mark.parametrize("there_at_the_start", [True, False])
def test_a_hand_at_the_pile_as_the_video_began_touches_it_when_it_comes_back(there_at_the_start):
    """A clip opening with A's hand on the pile (its contact not seen coming), drawn back 40 mm for a
    second with its card and brought back: the touch is the return. A hand seen coming to the pile keeps
    its first touch (a card laid, the hand hovering near, then back to lift it: a take-back)."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    first = 0
    if not there_at_the_start:
        settle(tracker, view, 0)
        first = 20
        reaches = [30, 60, 90]        # A's fingertips (row) coming to the pile's outline (row 106)
    else:
        reaches = []
    reaches += [125] * 3 + [66] * 30 + [90, 110, 125]  # on the pile, 40 mm off for a second, back on it
    for number, reach in enumerate(reaches):
        owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        owned["A"][0:reach, 130:170] = 1
        frame = first + number
        tracker.step(view, owned, frame, frame * PERIOD, PERIOD, None, card_paper(view))
    visit = tracker.visits["A"]
    back = first + len(reaches) - 3
    assert (visit.touch.frame >= back - 1) is there_at_the_start


@pytest.mark.parametrize("frames_off, visits", [(15, 2), (6, 1)], ids=["gone_off_half_a_second", "drawn_back_a_moment"])
def test_a_hand_that_laid_a_card_and_went_off_within_reach_then_came_back_touches_the_pile_again(frames_off, visits):
    """`all_at_once` seed 176's clip: A laid a card, stayed at its stock 95 mm off, still within the pile's
    reach, and came back with another; one visit, the second card never a touch. A hand at least GONE_OFF_MM
    off for GONE_OFF_SECONDS left; one drawn back a moment is still laying its card."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    settle(tracker, view, 0)
    reaches = [30, 60, 90] + [125] * 3 + [106 - int(GONE_OFF_MM) - 10] * frames_off + [60, 90, 125]  # the outline: row 106
    for number, reach in enumerate(reaches):
        owned = {"A": np.zeros(VIEW, np.uint8), "B": np.zeros(VIEW, np.uint8)}
        owned["A"][0:reach, 130:170] = 1
        frame = 20 + number
        tracker.step(view, owned, frame, frame * PERIOD, PERIOD, None, card_paper(view))
    touches = [visit.touch.frame for visit in tracker.finished + [tracker.visits["A"]] if visit.touch is not None]
    assert len(touches) == visits
    assert touches[0] <= 20 + 4 and (visits == 1 or touches[1] >= 20 + len(reaches) - 2)


def _race_to_one_pile(b_tops, a_bottoms):
    """A's and B's hands racing for one pile (its outline rows 106-194): each frame A's fingertips reach row
    `a_bottoms[n]` from A's edge and B's reach up to row `b_tops[n]` from B's edge (None: B's mask gone from
    the place, merged into A's). Returns B's visit, ended or not."""
    zone = RectMM.around((150, 150), 110, 130)
    tracker = PlaceTracker(("spit_pile", None, 0), zone, PX_PER_MM, VIEW, nominal_card=RectMM.around((150, 150), 63, 88))
    view = np.full(VIEW + (3,), TABLE_GREY, np.uint8)
    draw_card(view, (150, 150), 0.0, (20, 20, 20))
    assert len(settle(tracker, view, 0)) == 1
    for number, (b_top, a_bottom) in enumerate(zip(b_tops, a_bottoms)):
        a_hand, b_hand = np.zeros(VIEW, np.uint8), np.zeros(VIEW, np.uint8)
        a_hand[0:a_bottom, 125:175] = 1
        if b_top is not None:
            b_hand[b_top:300, 125:175] = 1
        tracker.step(view, {"A": a_hand, "B": b_hand}, 10 + number, (10 + number) / 30, 1 / 30, None, card_paper(view))
    return tracker.visits.get("B") or next(visit for visit in tracker.finished if visit.player == "B")


@pytest.mark.parametrize("b_tops, touched", [
    ([230, 216, 202, None, None], True),     # 8 mm short, closing 14 mm a frame, gone into A's hand as A touched
    ([230, 216, 202, 226, 240], True),       # ... or its front thrown back 24 mm as its card went into A's
    ([260, 246, 232, None, None], False),    # 38 mm short when it went: it left
    ([204, 203, 202, None, None], False),    # hovering 8 mm short, not closing in: it left
    ([220, 212, 204, None, None], False),    # 10 mm short, closing 8 mm a frame: it would not have got there yet
], ids=["gone", "thrown_back", "far", "hovering", "not_there_yet"])
def test_a_hand_closing_in_as_the_other_players_hand_touches_and_then_merges_with_it_touched_too(b_tops, touched):
    # `other_decks` seed 401: B's 7S laid 12 ms before A's 7H; B's hand last seen 8 mm short, then gone into A's
    visit = _race_to_one_pile(b_tops, a_bottoms=[60, 80, 96, 125, 125])
    assert (visit.touch is not None) is touched
    if touched:
        assert 12 / 30 < visit.touch.t < 13 / 30 and visit.touch.error >= 0.5 / 30


def test_a_hand_whose_mask_goes_while_no_other_hand_touches_the_pile_touched_nothing():
    visit = _race_to_one_pile([230, 216, 202, None, None], a_bottoms=[20, 20, 20, 20, 20])
    assert visit.touch is None
