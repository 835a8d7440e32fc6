"""One hand per player: the side a player plays from is learned, and a play clearly from the other
side is a breach."""

import pytest
from hypothesis import given, strategies as st

from referee.pipeline.one_hand import MIN_PLAYS, OTHER_HAND_MM, SIDE_MM, OneHand
from referee.rules.observations import TwoHandsUsed


def test_a_play_with_the_other_hand_is_called_once_the_players_hand_is_known():
    judge = OneHand()
    assert judge.judge(0.0, "A", 150.0) is None  # A's right hand (the table's +x)
    assert judge.hand_of("A") == 1
    breach = judge.judge(5.0, "A", -150.0, frame=150)
    assert breach == TwoHandsUsed(5.0, "A", frame=150)
    assert judge.judge(6.0, "A", 120.0) is None


def test_the_very_first_play_is_never_called():
    assert OneHand().judge(0.0, "A", -150.0) is None
    assert OneHand().judge(0.0, "B", 150.0) is None


@pytest.mark.parametrize("player, left", [("A", -130.0), ("B", 130.0)])
def test_a_left_handed_player_is_welcome(player, left):
    judge = OneHand()
    for t in range(6):
        assert judge.judge(float(t), player, left) is None
    assert judge.hand_of(player) == (1 if left > 0 else -1)
    assert judge.judge(9.0, player, -left) is not None  # and their right hand is now the other one


def test_an_arm_near_the_seat_or_unseen_says_nothing():
    judge = OneHand()
    for t in range(MIN_PLAYS):
        judge.judge(float(t), "A", 150.0)
    assert judge.judge(5.0, "A", None) is None
    assert judge.judge(6.0, "A", -(SIDE_MM - 1)) is None
    # on the other side but not far enough to be sure it is the other hand
    assert judge.judge(7.0, "A", -(OTHER_HAND_MM - 1)) is None


def test_the_players_are_judged_apart():
    judge = OneHand()
    for t in range(MIN_PLAYS):
        judge.judge(float(t), "A", 150.0)
        judge.judge(float(t), "B", 150.0)  # B, facing A, plays with the left hand
    assert judge.judge(5.0, "B", 150.0) is None
    assert judge.judge(6.0, "A", 150.0) is None
    assert judge.judge(7.0, "A", -150.0) is not None


def test_a_player_who_plays_with_both_hands_evenly_has_no_hand_to_break():
    judge = OneHand()
    for t in range(7):
        judge.judge(float(t), "A", -150.0 if t % 2 else 150.0)
    assert judge.hand_of("A") is None
    assert judge.judge(8.0, "A", -150.0) is None


@given(st.lists(st.floats(-400, 400), max_size=30))
def test_only_plays_far_on_the_other_side_of_the_players_hand_are_called(arms):
    judge = OneHand()
    for t, arm in enumerate(arms):
        hand = judge.hand_of("A")
        breach = judge.judge(float(t), "A", arm)
        if breach is not None:
            assert hand is not None and arm * hand <= -OTHER_HAND_MM
