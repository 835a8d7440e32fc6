"""Who laid the card on top of a spit pile, from what the place saw of each hand."""

from dataclasses import replace

import numpy as np
import pytest

from referee.piles.owners import (FOUND_AGAIN_SECONDS, JOINT_HOLDER_SURE, JOINT_SECONDS, REACHING_ON_SECONDS, SAME_HAND_SECONDS,
                                   joint_owners, one_per_hand, reaching_on, stock_holders, unseen_joint_owner,
                                   went_on, who_laid_top)
from referee.piles.places import APPROACH_MARGIN_MM, PlaceChange, PlaceTracker, Visit
from referee.piles.touch import TouchEstimate
from referee.piles.zones import Place, all_places
from referee.rules.cards import Card
from referee.table.layout import TableLayout

FPS = 30
PX_PER_MM = 0.5


def _visit(player: str, t: float, contact: int = 2, fronts: list | None = None) -> Visit:
    return Visit(player, int(t * FPS), touch=TouchEstimate(t, int(t * FPS) + 1, 0.005), frames_in_contact=contact,
                 fronts=fronts or [])


def test_one_hand_touching_a_pile_twice_in_a_blink_laid_one_card():
    visits = one_per_hand([_visit("A", 2.158), _visit("A", 2.19), _visit("B", 2.2), _visit("A", 2.9)])
    assert [(visit.player, visit.touch.t) for visit in visits] == [("A", 2.158), ("B", 2.2), ("A", 2.9)]
    assert visits[0].frames_in_contact == 4


def test_one_hand_touching_a_pile_twice_keeps_its_last_snapshot_with_its_outline_and_naming():
    first, second = _visit("A", 2.158), _visit("A", 2.19)
    first.snapshot, first.snapshot_outline, first.snapshot_named = "cut 1", "outline 1", "naming 1"
    second.snapshot, second.snapshot_outline, second.snapshot_named = "cut 2", "outline 2", "naming 2"
    (visit,) = one_per_hand([first, second])
    assert (visit.snapshot, visit.snapshot_outline, visit.snapshot_named) == ("cut 2", "outline 2", "naming 2")
    (visit,) = one_per_hand([second, _visit("A", 2.22)])  # the later touch took no snapshot: the first's stands
    assert (visit.snapshot, visit.snapshot_outline, visit.snapshot_named) == ("cut 2", "outline 2", "naming 2")


@pytest.mark.parametrize("gap, visits_left", [(SAME_HAND_SECONDS - 0.01, 1), (SAME_HAND_SECONDS + 0.01, 2)])
def test_two_touches_of_one_hand_further_apart_are_two_cards(gap, visits_left):
    assert len(one_per_hand([_visit("B", 1.0), _visit("B", 1.0 + gap)])) == visits_left


@pytest.mark.parametrize("first_seen_mm, lost_for, visits_left", [
    (-30.0, 0.1, 1),                        # held still on the pile, lost a few frames, found again there
    (-30.0, FOUND_AGAIN_SECONDS + 0.05, 2),  # gone longer: it may have fetched another card
    (25.0, 0.1, 2),                         # first seen coming in from off the pile: a new card
])
def test_a_hand_lost_on_the_pile_and_found_again_there_laid_one_card(first_seen_mm, lost_for, visits_left):
    laid = _visit("A", 1.35, contact=6)
    laid.samples = [(40, 1.333, 10.0), (41, 1.35, -14.0), (48, 1.6, -32.0)]  # held there a quarter of a second
    found = 1.6 + lost_for
    again = _visit("A", found if first_seen_mm <= 0 else found + 0.05)
    again.samples = [(int(found * FPS), found, first_seen_mm), (int(found * FPS) + 1, found + 1 / FPS, -40.0)]
    assert again.touch.t - laid.touch.t > SAME_HAND_SECONDS
    assert len(one_per_hand([laid, again])) == visits_left


# visits in touch order: A at 1.0, B at 1.1, A again at 1.5
@pytest.mark.parametrize("holding, contact, holders, joint_owner, laid_by", [
    ([9, 0, 0], [2, 2, 2], set(), None, 2),            # A's first card lies under A's later one, however held
    ([0, 9, 0], [2, 2, 2], set(), None, 1),            # B's hand held the new card there longest
    ([0, 9, 0], [2, 2, 2], {"A"}, None, 2),            # the card was on top of A's stock only
    ([0, 9, 0], [2, 2, 2], {"A", "B"}, None, 1),       # on both stocks: the stocks cannot tell
    ([0, 0, 0], [2, 2, 2], {"B"}, "A", 1),             # the stock before the joint judgement
    ([9, 0, 0], [2, 2, 2], set(), "B", 1),             # the joint owner before the frames held
    ([0, 3, 3], [2, 5, 1], set(), None, 1),            # equal holding: the longer contact
    ([0, 3, 3], [2, 5, 5], set(), None, 2),            # all equal: the later touch
])
def test_the_card_on_top_was_laid_by(holding, contact, holders, joint_owner, laid_by):
    visits = [_visit("A", 1.0, contact[0]), _visit("B", 1.1, contact[1]), _visit("A", 1.5, contact[2])]
    assert who_laid_top(visits, holding, holders=holders, joint_owner=joint_owner) == laid_by


@pytest.mark.parametrize("reached_on, holders, laid_by", [
    ([True, False], set(), 1),     # A's arm crossed this pile to the other: B laid the card, though A held it longer
    ([False, False], set(), 0),    # as before: the hand that held the card there
    ([True, False], {"A"}, 0),     # the card was on top of A's stock: the stock still says first
])
def test_a_hand_reaching_on_to_the_other_pile_did_not_lay_this_one_s_card(reached_on, holders, laid_by):
    visits = [_visit("A", 0.10, 3), _visit("B", 0.20, 2)]
    assert who_laid_top(visits, [3, 1], holders=holders, joint_owner=None, reached_on=reached_on) == laid_by


@pytest.mark.parametrize("brought, laid_by", [
    ([False, True], 1),   # B came to take its card back and lingered; A's hand brought the card on top
    ([True, True], 1),    # both brought cards: the later one lies on the other, however long B held its own
    ([False, False], 0),  # neither seen with a card (one hidden under a palm): as before
])
def test_a_hand_that_brought_a_card_laid_it_over_one_that_came_empty(brought, laid_by):
    # seed 127 of the racing games: B's hand on the pile 10 frames lifting its card back, A's 2 laying a 5D
    visits = [replace(_visit("B", 6.75, 10), brought_card=brought[0]), replace(_visit("A", 7.03, 2), brought_card=brought[1])]
    assert who_laid_top(visits, [10, 2], holders=set(), joint_owner=None) == laid_by


def test_a_hand_passing_with_its_card_that_never_lay_over_the_new_one_did_not_lay_it():
    # a pile's hershey game: B lifted its card back (4 frames over what now shows), A's arm passed over the
    # pile with the card it laid on the other pile a moment later
    visits = [_visit("B", 9.36, 5), replace(_visit("A", 9.81, 3), brought_card=True)]
    assert who_laid_top(visits, [4, 0], holders=set(), joint_owner=None, reached_on=[True, True]) == 0


def test_one_hand_touching_a_pile_twice_brought_a_card_if_either_touch_did():
    first, second = _visit("A", 2.158), replace(_visit("A", 2.19), brought_card=True)
    assert one_per_hand([first, second])[0].brought_card


@pytest.mark.parametrize("other_pile, gone_on", [
    ([("B", 1.05)], True),                              # B's hand touched the other pile just after
    ([("B", 1.0 + REACHING_ON_SECONDS + 0.01)], False),  # too late: a card of its own laid there later
    ([("B", 0.95)], False),                             # before: it came from there
    ([("A", 1.05)], False),                             # the other player's hand
])
def test_a_hand_went_on_to_the_other_pile_when_it_touched_it_just_after(other_pile, gone_on):
    assert went_on(_visit("B", 1.0), other_pile) is gone_on


@pytest.mark.parametrize("other_pile, passing", [
    ([("A", 0.10 + REACHING_ON_SECONDS - 0.01)], [True, False]),  # A touched the other pile just after
    ([("A", 0.10 + REACHING_ON_SECONDS + 0.01)], [False, False]),  # too late: a card of its own laid there later
    ([("A", 0.05)], [False, False]),                               # before: it came from there
    ([("B", 0.30)], [False, True]),                                # B went on to the other pile
])
def test_a_hand_reaching_on_is_one_that_touched_the_other_pile_just_after(other_pile, passing):
    visits = [_visit("A", 0.10), _visit("B", 0.20)]
    assert reaching_on(visits, other_pile) == passing


def test_a_hand_alone_at_a_pile_is_never_reaching_on():
    assert reaching_on([_visit("A", 0.10)], [("A", 0.2)]) == [False]


@pytest.mark.parametrize("other_pile, passing", [
    ([("A", 0.60 + REACHING_ON_SECONDS - 0.01)], [False, True]),  # A's other hand passed over it to the other pile
    ([("A", 0.20)], [True, False]),                                # A's first hand went on; the second laid here
    ([("A", 0.60 + REACHING_ON_SECONDS + 0.01)], [False, False]),  # too late: a card of its own laid there later
])
def test_of_two_visits_of_one_player_s_hands_the_one_that_went_on_to_the_other_pile_is_reaching_on(other_pile, passing):
    # `other_decks` seed 405's clip from 2.91 s: A laid its `JC` on pile 0 and A's other hand passed over it before
    # the pile settled, on its way to lay the `AC` on pile 1; the `JC` was taken for the later hand's, and ruled
    # half a second late
    visits = [_visit("A", 0.10), _visit("A", 0.60)]
    assert reaching_on(visits, other_pile) == passing
    assert who_laid_top(visits, [3, 3], holders={"A"}, joint_owner=None, reached_on=passing) == (0 if passing == [False, True] else 1)


LAYOUT = TableLayout()
SHAPE = (int(LAYOUT.height * PX_PER_MM), int(LAYOUT.width * PX_PER_MM))
PILES = (Place("spit_pile", 0), Place("spit_pile", 1))


def _piles() -> dict[Place, PlaceTracker]:
    places = all_places(LAYOUT)
    return {pile: PlaceTracker(pile.key, places[pile][0], PX_PER_MM, SHAPE, nominal_card=places[pile][1],
                               margin=APPROACH_MARGIN_MM) for pile in PILES}


def _change(tracker: PlaceTracker, *visits: Visit) -> PlaceChange:
    return PlaceChange(tracker.place, 40, 1.4, True, visits, tracker.nominal.copy(), tracker.rect)


def _centre(tracker: PlaceTracker) -> tuple[float, float]:
    """The middle of the pile's nominal card, in mm of its padded crop (where hand fronts are kept)."""
    rows, cols = np.nonzero(tracker.nominal)
    return float(cols.mean() / PX_PER_MM), float(rows.mean() / PX_PER_MM)


def _spits(touches: dict, near: dict | None = None) -> list[tuple[Place, PlaceChange]]:
    """`touches`: pile -> {player: touch t}; `near`: pile -> the player whose fingers lay on its card
    (the other's stayed 50 mm off)."""
    trackers = _piles()
    changes = []
    for pile in PILES:
        x, y = _centre(trackers[pile])
        visits = [_visit(player, t, fronts=[(x, y) if (near or {}).get(pile) == player else (x + 50, y)])
                  for player, t in touches[pile].items()]
        changes.append((pile, _change(trackers[pile], *visits)))
    return changes


@pytest.mark.parametrize("touches, near, owners", [
    # each hand laid its card on the pile it reached last
    ({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"A": 1.05, "B": 1.02}}, None, {PILES[0]: "B", PILES[1]: "A"}),
    ({PILES[0]: {"A": 1.1, "B": 1.0}, PILES[1]: {"A": 1.02, "B": 1.05}}, None, {PILES[0]: "A", PILES[1]: "B"}),
    # both reached both at once: the fingers on the cards tell
    ({PILES[0]: {"A": 1.0, "B": 1.0}, PILES[1]: {"A": 1.0, "B": 1.0}}, {PILES[0]: "B", PILES[1]: "A"},
     {PILES[0]: "B", PILES[1]: "A"}),
    # nothing tells them apart
    ({PILES[0]: {"A": 1.0, "B": 1.0}, PILES[1]: {"A": 1.0, "B": 1.0}}, None, {}),
    # too far apart in time to be two cards laid at once
    ({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"A": 1.0 + JOINT_SECONDS + 0.05, "B": 1.02}}, None, {}),
    # one hand seen at both piles, the other at one only (arms crossing): the hand seen at both laid its
    # card on the pile it reached last, the other hand the other pile's
    ({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"B": 1.02}}, None, {PILES[0]: "B", PILES[1]: "A"}),
    ({PILES[0]: {"A": 1.2}, PILES[1]: {"B": 1.05, "A": 1.1}}, None, {PILES[0]: "A", PILES[1]: "B"}),
    ({PILES[0]: {"B": 1.0}, PILES[1]: {"B": 1.04, "A": 1.1}}, None, {PILES[0]: "A", PILES[1]: "B"}),
    # each pile touched by one hand: nothing to share out
    ({PILES[0]: {"A": 1.0}, PILES[1]: {"B": 1.02}}, None, {}),
    # one hand alone, but too long before the other pile's touches to be laid at once
    ({PILES[0]: {"A": 1.0}, PILES[1]: {"B": 1.1, "A": 1.0 + JOINT_SECONDS + 0.05}}, None, {}),
])
def test_two_cards_laid_at_once_are_given_one_to_each_player(touches, near, owners):
    assert joint_owners(_spits(touches, near), _piles()) == owners


def test_one_pile_settling_alone_is_no_joint_play():
    changes = _spits({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"A": 1.05, "B": 1.02}})
    assert joint_owners(changes[:1], _piles()) == {}


def test_a_pile_one_hand_only_passed_over_says_nothing_of_who_laid_the_other_pile_s_card():
    # A's arm passed over pile 0 and left it as it was, while both hands were at pile 1
    changes = _spits({PILES[0]: {"A": 1.0}, PILES[1]: {"B": 1.05, "A": 1.1}})
    unchanged = [(place, replace(change, changed=place != PILES[0])) for place, change in changes]
    assert joint_owners(changes, _piles()) == {PILES[0]: "B", PILES[1]: "A"}
    assert joint_owners(unchanged, _piles()) == {}


@pytest.mark.parametrize("sure, laid_by", [(JOINT_HOLDER_SURE, 0), (JOINT_HOLDER_SURE - 0.2, 1)])
def test_when_both_piles_were_laid_at_once_an_unsure_reading_on_a_stock_does_not_outweigh_where_the_hands_reached(sure, laid_by):
    # spit cards come from the hand: a card read unsurely may match a stock top of the wrong player
    visits = [_visit("A", 1.0), _visit("B", 1.1)]
    assert who_laid_top(visits, [0, 0], holders={"A"}, joint_owner="B", sure=sure) == laid_by


@pytest.mark.parametrize("touches, unseen", [
    # arms crossing: B seen at both piles, reaching pile 0 last; A seen at pile 0 only. Pile 1's card is
    # A's, though only B's arm passing over it was seen there (seed 201's opening spits, session 21)
    ({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"B": 1.02}}, {PILES[0]: None, PILES[1]: "A"}),
    # each hand seen where it laid: nobody unseen
    ({PILES[0]: {"A": 1.0, "B": 1.1}, PILES[1]: {"A": 1.05, "B": 1.02}}, {PILES[0]: None, PILES[1]: None}),
    ({PILES[0]: {"B": 1.0}, PILES[1]: {"B": 1.04, "A": 1.1}}, {PILES[0]: "A", PILES[1]: None}),
])
def test_a_card_laid_at_once_with_the_other_is_its_unseen_hand_s(touches, unseen):
    changes = _spits(touches)
    owners = joint_owners(changes, _piles())
    for place, change in changes:
        laid_by = who_laid_top(change.visits, [0] * len(change.visits), holders=set(), joint_owner=owners.get(place))
        assert unseen_joint_owner(change.visits, owners.get(place)) == unseen[place]
        # who_laid_top can only choose among the hands seen there: the unseen one is named apart
        assert (unseen[place] or change.visits[laid_by].player) == owners[place]


def test_without_a_joint_owner_nobody_is_unseen():
    assert unseen_joint_owner([_visit("A", 1.0)], None) is None


@pytest.mark.parametrize("holders, sure, unseen", [
    ({"A"}, 0.97, None),       # the card came from the stock of the hand seen here: that hand laid it
    ({"B"}, 0.97, "B"),        # ... from the unseen hand's: it is that hand's, as the touches said
    ({"A", "B"}, 0.97, "B"),   # ... either's: the touches decide
    ({"A"}, 0.4, "B"),         # ... read too unsurely to overrule them
])
def test_a_card_from_the_stock_of_the_one_hand_seen_at_its_pile_is_not_the_unseen_hand_s(holders, sure, unseen):
    # `other_decks` seed 403's clip from 10.83 s: A laid its `4S` on pile 1 and drew its arm back over pile 0 as B
    # laid its `AS` there; seen at both piles and reaching pile 0 last, A was given pile 0 and B, unseen at pile 1,
    # the `4S`, though only A's stock had held it
    changes = _spits({PILES[0]: {"A": 1.034, "B": 1.082}, PILES[1]: {"A": 1.0}})
    owners = joint_owners(changes, _piles())
    assert owners[PILES[1]] == "B"
    visits = dict(changes)[PILES[1]].visits
    assert unseen_joint_owner(visits, owners[PILES[1]], holders=holders, sure=sure) == unseen


def _left_stock(departures: list[tuple[str, str]]):
    def left_stock_by(card, alike):
        return {player for player, gone in departures if alike(Card.parse(gone), card)}
    return left_stock_by


@pytest.mark.parametrize("tops, departures, landed, holders", [
    ([("A", "KC")], [], "KC", {"A"}),                    # read alike on the stock and landing
    ([("A", "K?")], [], "KC", {"A"}),                    # a king read by its rank on the stock, with its suit landing
    ([("A", "KC")], [], "K?", {"A"}),                    # ... or the other way round
    ([("A", "K?"), ("B", "KC")], [], "KC", {"B"}),       # a card read alike is surer than one read by its rank
    ([("A", "KS")], [], "KC", set()),                    # another king
    ([("A", "Q?")], [], "KC", set()),                    # another rank
    ([], [("A", "K?")], "KC", {"A"}),                    # seen leaving A's stock as a king
    ([("B", "K?")], [("A", "KC")], "KC", {"A"}),         # seen leaving A's stock as that very card
])
def test_the_stock_a_card_came_from_is_the_one_that_showed_it_with_its_suit_where_one_did(tops, departures, landed, holders):
    stock_tops = [(player, Card.parse(card)) for player, card in tops]
    assert stock_holders(Card.parse(landed), stock_tops, _left_stock(departures)) == holders
