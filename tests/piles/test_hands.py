"""Whose hand is which blob: arms from a player's edge, from the table's ends, merged arms, loose cards."""

import cv2
import numpy as np
import pytest

from referee.piles.hands import EDGE_ROWS, HandTracker

SHAPE = (300, 400)  # the tracking view: A's edge is row 0, B's the last row


def blank() -> np.ndarray:
    return np.zeros(SHAPE, np.uint8)


def test_an_arm_from_a_players_edge_is_that_players_hand():
    foreground = blank()
    foreground[0:120, 100:130] = 1    # A's arm reaching down from the top edge
    foreground[200:300, 250:280] = 1  # B's arm reaching up from the bottom edge
    masks = HandTracker(SHAPE).split(foreground)
    assert masks.owned["A"][60, 110] == 1 and masks.owned["B"][60, 110] == 0
    assert masks.owned["B"][250, 260] == 1 and masks.owned["A"][250, 260] == 0
    assert not masks.loose.any()
    assert masks.edge_pixels["A"] == EDGE_ROWS * 30 and masks.edge_pixels["B"] == EDGE_ROWS * 30


def test_a_blob_touching_no_edge_is_loose():
    foreground = blank()
    foreground[130:170, 180:210] = 1  # a card just let go in the middle of the table
    masks = HandTracker(SHAPE).split(foreground)
    assert masks.loose[150, 190] == 1
    assert not masks.owned["A"].any() and not masks.owned["B"].any()


def test_an_arm_over_the_tables_end_belongs_to_the_player_on_whose_half_it_crosses():
    # reaching for an outer stock, the arm comes in over the right-hand end of the table
    foreground = blank()
    foreground[60:80, 300:400] = 1    # crosses the right edge in A's half (top)
    foreground[220:240, 0:90] = 1     # crosses the left edge in B's half (bottom)
    masks = HandTracker(SHAPE).split(foreground)
    assert masks.owned["A"][70, 320] == 1 and masks.owned["B"][70, 320] == 0
    assert masks.owned["B"][230, 50] == 1 and masks.owned["A"][230, 50] == 0
    assert not masks.loose.any()


def test_an_arm_touching_its_edge_and_the_tables_end_stays_with_its_edge():
    foreground = blank()
    foreground[0:200, 370:400] = 1    # from A's edge down the right end, into B's half
    masks = HandTracker(SHAPE).split(foreground)
    assert masks.owned["A"][190, 380] == 1 and not masks.owned["B"].any()


def test_tiny_blobs_are_noise():
    foreground = blank()
    foreground[0:3, 10:13] = 1
    masks = HandTracker(SHAPE).split(foreground)
    assert not masks.owned["A"].any() and not masks.loose.any()


def test_two_arms_merged_over_one_pile_are_split_by_who_owned_each_part_before():
    hands = HandTracker(SHAPE)
    before = blank()
    before[0:140, 190:210] = 1        # A's arm, down to row 140
    before[170:300, 190:210] = 1      # B's arm, up to row 170
    hands.split(before)
    merged = blank()
    merged[0:300, 190:210] = 1        # the two hands now touch over the pile: one blob edge to edge
    masks = hands.split(merged)
    assert masks.owned["A"][100, 200] == 1 and masks.owned["B"][100, 200] == 0
    assert masks.owned["B"][200, 200] == 1 and masks.owned["A"][200, 200] == 0
    assert (masks.owned["A"] | masks.owned["B"])[0:300, 190:210].all()


def moving_over(hands: HandTracker, *regions: tuple[slice, slice]):
    """One frame of hands moving over `regions` (row and column slices of the view), no card in them."""
    foreground = blank()
    for rows, cols in regions:
        foreground[rows, cols] = 1
    return hands.split(foreground, blank(), foreground)


def test_a_hand_that_leaves_its_arm_behind_stays_its_players_while_it_moves():
    # a hand drawn without an arm, or whose sleeve matches the table: it came in over A's edge, then
    # floats over the middle touching no edge
    hands = HandTracker(SHAPE)
    moving_over(hands, (slice(0, 60), slice(150, 190)))
    masks = moving_over(hands, (slice(40, 100), slice(150, 190)))
    assert masks.owned["A"][70, 170] == 1 and not masks.loose.any()
    masks = moving_over(hands, (slice(65, 125), slice(155, 195)))  # 25 px on: 50 mm in a frame, 1.5 m/s at 30 fps
    assert masks.owned["A"][110, 180] == 1


def test_two_floating_hands_that_meet_are_split_between_their_players():
    hands = HandTracker(SHAPE)
    moving_over(hands, (slice(0, 60), slice(100, 140)), (slice(240, 300), slice(160, 200)))  # A's at the top, B's at the bottom
    moving_over(hands, (slice(40, 100), slice(100, 140)), (slice(200, 260), slice(160, 200)))
    moving_over(hands, (slice(70, 130), slice(110, 150)), (slice(170, 230), slice(150, 190)))
    # the two hands touch over the middle, one blob touching no edge
    masks = moving_over(hands, (slice(95, 155), slice(115, 155)), (slice(150, 210), slice(145, 185)))
    assert masks.owned["A"][110, 130] == 1 and masks.owned["B"][110, 130] == 0
    assert masks.owned["B"][200, 170] == 1 and masks.owned["A"][200, 170] == 0


def test_what_a_hand_leaves_behind_is_not_its_hand():
    hands, nothing = HandTracker(SHAPE), blank()
    arm = blank()
    arm[0:120, 150:190] = 1
    hands.split(arm, nothing, arm)
    left = blank()
    left[90:120, 150:190] = 1  # where the hand was: still (the table it uncovered, not yet in the model)
    assert hands.split(left, nothing, blank()).loose[100, 170] == 1
    hands.split(arm, nothing, arm)
    card = left.copy()         # or a card just let go, moving as it settles: mostly card
    assert hands.split(left, card, left).loose[100, 170] == 1


@pytest.mark.parametrize("frame_period, followed", [(1 / 60, True), (1 / 30, False)])
def test_how_much_of_a_floating_hand_must_move_follows_the_frame_rate(frame_period, followed):
    # between frames 1/60 s apart a hand moves half as far as between frames 1/30 s apart
    hands = HandTracker(SHAPE, frame_period=frame_period)
    moving_over(hands, (slice(0, 60), slice(150, 190)))  # in over A's edge
    foreground, moving = blank(), blank()
    foreground[40:100, 150:190] = 1
    moving[88:100, 150:190] = 1  # only its front changed since the last frame: a fifth of it
    masks = hands.split(foreground, blank(), moving)
    assert (masks.owned["A"][70, 170] == 1) == followed
    assert (masks.loose[70, 170] == 1) != followed


def lost_hand_frames(arm_moves_from: str | None):
    """A hand over the cards (foreground, floating) whose arm the camera cannot tell from the table: the
    arm shows only in what moved, from `arm_moves_from`'s edge ("A", "B", "both") or nowhere (None)."""
    foreground, cardlike, moving = blank(), blank(), blank()
    foreground[130:160, 180:210] = 1  # the hand, 900 view px, over a pile
    moving[130:160, 180:210] = 1
    if arm_moves_from in ("A", "both"):
        moving[0:130, 190:196] = 1    # the arm's edge moving over the table's grain, from the top
    if arm_moves_from in ("B", "both"):
        moving[160:300, 200:204] = 1
    return foreground, cardlike, moving


@pytest.mark.parametrize("arm_moves_from, owner", [("A", "A"), ("B", "B"), ("both", None), (None, None)])
def test_a_hand_whose_arm_only_shows_in_what_moved_is_the_hand_of_the_edge_it_moved_from(arm_moves_from, owner):
    tracker = HandTracker(SHAPE)
    first = tracker.split(*lost_hand_frames(arm_moves_from))
    assert first.loose[145, 195] == 1  # a frame's motion alone could be cards gone in a cut: not yet a hand
    second = tracker.split(*lost_hand_frames(arm_moves_from))
    if owner is None:
        assert second.loose[145, 195] == 1 and not second.owned["A"].any() and not second.owned["B"].any()
    else:
        assert second.owned[owner][145, 195] == 1 and not second.loose.any()


def _card_then_hand(card_moves: bool):
    """A card lying loose and still in the middle of the table for two frames; then B's hand reaches it
    from B's edge and touches it. `card_moves`: whether the card moves in that frame too."""
    hands = HandTracker(SHAPE)
    card = blank()
    card[110:154, 180:212] = 1
    for _ in range(2):
        masks = hands.split(card.copy(), card.copy(), blank())
        assert masks.loose[130, 190] == 1
    arm = blank()
    arm[154:300, 190:205] = 1  # up from B's edge to the card's edge
    moving = arm | card if card_moves else arm.copy()
    return hands.split(arm | card, card.copy(), moving), card


def test_a_card_lying_still_is_no_part_of_the_hand_that_reaches_it():
    # the card the other player laid on the pile a moment ago, touched by the hand racing for the pile
    masks, card = _card_then_hand(card_moves=False)
    assert masks.owned["B"][200, 195] == 1
    assert not (masks.owned["B"] & card).any()
    assert masks.loose[130, 190] == 1


def test_a_card_moving_with_the_hand_that_touches_it_is_that_hands():
    masks, card = _card_then_hand(card_moves=True)
    assert (masks.owned["B"] & card).sum() == card.sum()
    assert not masks.loose.any()



def blotches(seed: int, shape: tuple[int, int], low: int, high: int) -> np.ndarray:
    """Grey blotches a few pixels across between `low` and `high` (wood grain, skin, a sleeve's weave)."""
    noise = cv2.GaussianBlur(np.random.default_rng(seed).random(shape).astype(np.float32), (0, 0), 2.5)
    return (low + (high - low) * cv2.normalize(noise, None, 0, 1, cv2.NORM_MINMAX)).astype(np.uint8)


TABLE = blotches(1, SHAPE, 60, 100)             # dark wood
ARM_A = blotches(2, (140, 30), 170, 200)        # pale skin, reaching down from A's edge
ARM_B = blotches(3, (160, 30), 120, 150)        # darker skin, up from B's edge ...
ARM_B[0:20] = 235                               # ... with the card it carries at its fingertips


def arms_at(a_col: int, b_col: int) -> tuple[np.ndarray, np.ndarray]:
    """(view, foreground): A's arm over rows 0-140 and B's over rows 140-300, their left sides at columns
    `a_col` and `b_col`, each arm's own blotches moving with it (what optical flow follows)."""
    view, foreground = TABLE.copy(), blank()
    view[0:140, a_col:a_col + 30], view[140:300, b_col:b_col + 30] = ARM_A, ARM_B
    foreground[0:140, a_col:a_col + 30] = foreground[140:300, b_col:b_col + 30] = 1
    return cv2.cvtColor(view, cv2.COLOR_GRAY2BGR), foreground


@pytest.mark.parametrize("with_view", [True, False])
def test_a_card_brought_fast_against_the_other_hand_is_split_off_by_where_it_was_a_frame_ago(with_view):
    # racing for a pile: A's hand lies still by it while B's card comes in from the side, 25 px (50 mm) a
    # frame, until it touches A's hand: by where it is now, the near part of B's card is nearer A's hand
    # as it was a frame ago than B's
    hands = HandTracker(SHAPE)
    for b_col in (250, 225, 200):  # the last: one blob, edge to edge
        view, foreground = arms_at(170, b_col)
        masks = hands.split(foreground, view=view if with_view else None)
    card = (slice(140, 160), slice(200, 230))
    if with_view:
        assert masks.owned["B"][card].mean() > 0.95
        assert masks.owned["B"][140:300, 200:230].mean() > 0.95 and masks.owned["A"][0:140, 170:200].mean() > 0.95
    else:  # where it is now alone gives the card's near part to A
        assert masks.owned["A"][card].mean() > 0.2


def test_a_card_carried_in_a_hand_the_table_hides_is_the_hand_its_arm_joins_faintly():
    # dark skin over dark wood: the sleeve stands out (rows 0-80) and so does the card at the fingertips
    # (rows 130-175), the hand between them only faintly
    foreground, cardlike, faint = blank(), blank(), blank()
    foreground[0:80, 180:220] = 1
    foreground[130:175, 185:215] = cardlike[130:175, 185:215] = 1
    faint[0:175, 180:220] = 1
    hands = HandTracker(SHAPE)
    masks = hands.split(foreground, cardlike, foreground.copy(), faint=lambda: faint)
    assert masks.owned["A"][150, 200] == 1 and not masks.loose[130:175, 185:215].any()
    # without the faint hand the card floats, as a card just let go does
    masks = HandTracker(SHAPE).split(foreground, cardlike, foreground.copy())
    assert masks.loose[150, 200] == 1 and masks.owned["A"][150, 200] == 0
    # and a card lying still is a card let go, faintly joined or not (the hand's shadow is still on it)
    masks = HandTracker(SHAPE).split(foreground, cardlike, blank(), faint=lambda: faint)
    assert masks.loose[150, 200] == 1 and masks.owned["A"][150, 200] == 0


def test_a_card_that_faint_shading_joins_to_both_players_edges_stays_loose():
    foreground, cardlike, faint = blank(), blank(), blank()
    foreground[0:80, 180:220] = foreground[220:300, 180:220] = 1   # both players' arms
    foreground[130:175, 185:215] = cardlike[130:175, 185:215] = 1  # a card between them
    faint[0:300, 180:220] = 1
    masks = HandTracker(SHAPE).split(foreground, cardlike, foreground.copy(), faint=lambda: faint)
    assert masks.loose[150, 200] == 1


def test_a_moving_card_joined_faintly_to_an_arm_from_farther_than_a_hand_reaches_stays_loose():
    # a person's broad shadow leaving the table differs faintly everywhere under it: it joins anything
    foreground, cardlike, faint = blank(), blank(), blank()
    foreground[0:40, 180:220] = 1                                  # A's arm, reaching no further than row 40
    foreground[130:175, 185:215] = cardlike[130:175, 185:215] = 1  # a card 90 px (180 mm) from it
    faint[0:200, 100:300] = 1
    masks = HandTracker(SHAPE).split(foreground, cardlike, foreground.copy(), faint=lambda: faint)
    assert masks.loose[150, 200] == 1 and masks.owned["A"][150, 200] == 0
