"""A settled spit pile waits for the other one while a hand is still over it."""

import numpy as np

from referee.piles.both_piles import HOLD_FRAMES, HeldPiles
from referee.piles.places import PlaceChange, Visit
from referee.piles.table_view import RectMM
from referee.piles.touch import TouchEstimate
from referee.piles.zones import Place

LEFT, RIGHT, STOCK = Place("spit_pile", 0), Place("spit_pile", 1), Place("stock", 2, "A")


def _change(place: Place, *touches: float) -> PlaceChange:
    visits = tuple(Visit("A", int(t * 30), touch=TouchEstimate(t, int(t * 30) + 1, 0.005)) for t in touches)
    return PlaceChange(place.key, 30, 1.0, True, visits, np.zeros((4, 4), bool), RectMM(0, 0, 10, 10))


def test_a_pile_settling_while_a_hand_is_over_the_other_waits_and_goes_with_it():
    held = HeldPiles()
    left = _change(LEFT, 0.9)
    assert held.judge_together([(LEFT, left)], busy={RIGHT}) == []
    assert LEFT in held and held and [t for _, t in held.touches()] == [0.9]
    assert held.judge_together([], busy={RIGHT}) == []
    right = _change(RIGHT, 0.95)
    # the other pile settling is what it waited for, even with a hand back over it already
    assert held.judge_together([(RIGHT, right)], busy={RIGHT}) == [(LEFT, left), (RIGHT, right)]
    assert not held and LEFT not in held


def test_a_held_pile_goes_alone_once_the_other_is_left_alone_unsettled():
    held = HeldPiles()
    left = _change(LEFT, 0.9)
    held.judge_together([(LEFT, left)], busy={RIGHT})
    assert held.judge_together([], busy=set()) == [(LEFT, left)]


def test_a_held_pile_goes_at_once_when_a_hand_comes_back_to_it():
    # the same player lays a second card on it: judged later, the first would be read under the second
    held = HeldPiles()
    left = _change(LEFT, 0.9)
    held.judge_together([(LEFT, left)], busy={RIGHT})
    assert held.judge_together([], busy={RIGHT, LEFT}) == [(LEFT, left)] and not held


def test_a_held_pile_waits_a_few_frames_at_most():
    held = HeldPiles()
    left = _change(LEFT, 0.9)
    held.judge_together([(LEFT, left)], busy={RIGHT})
    released = [bool(held.judge_together([], busy={RIGHT})) for _ in range(HOLD_FRAMES + 2)]
    assert released == [False] * HOLD_FRAMES + [True, False] and not held


def test_stocks_piles_touched_by_no_hand_and_piles_with_the_other_left_alone_do_not_wait():
    held = HeldPiles()
    stock, untouched, left = _change(STOCK, 0.9), _change(LEFT), _change(LEFT, 0.9)
    assert held.judge_together([(STOCK, stock), (LEFT, untouched)], busy={RIGHT, LEFT}) == [(STOCK, stock), (LEFT, untouched)]
    assert held.judge_together([(LEFT, left)], busy={LEFT}) == [(LEFT, left)]
    assert not held
