"""Bad input: a clear message naming the observation, the engine keeps its state, the caller decides."""

import pytest

from referee.errors import ObservationError, RefereeError
from referee.rules.cards import Card
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import (
    CardLanded, CardTakenBack, LayoutSeen, RoundLaidOut, Slap, SpitTurned, StockMoved, StockTurnedUp,
)

from tests.rules.tables import kinds, of_type, table


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: CardLanded(1.0, "A", 0, "ZZ"), r"CardLanded at t=1.0: card: bad card 'ZZ'"),
        (lambda: CardLanded(1.0, "A", 0, "11H"), r"CardLanded .*rank '11'"),
        (lambda: SpitTurned(1.0, "A", 0, "7X"), r"SpitTurned .*suit 'X'"),
        (lambda: StockTurnedUp(1.0, "B", 2, ""), r"StockTurnedUp .*bad card ''"),
        (lambda: StockMoved(1.0, "B", 2, 0, 7), r"StockMoved .*a card must be a string"),
        (lambda: CardTakenBack(1.0, "A", 0, "Q"), r"CardTakenBack .*bad card 'Q'"),
        (lambda: RoundLaidOut(0.0, {"A": ["2H"] * 5, "B": ["KK"] * 5}), r"RoundLaidOut .*stock_tops\['B'\]"),
        (lambda: CardLanded(1.0, "C", 0, "7H"), r"player must be 'A' or 'B'"),
        (lambda: CardLanded(1.0, "A", 2, "7H"), r"pile must be an integer 0-1, got 2"),
        (lambda: Slap(float("nan"), "A", 0), r"t must be a finite number"),
        (lambda: StockMoved(1.0, "A", 6, 0, "7H"), r"from_stock must be an integer 0-5"),
        (lambda: RoundLaidOut(0.0, {"A": ["2H"] * 4, "B": ["3H"] * 5}), r"must list 5 stock tops"),
    ],
)
def test_unknown_card_strings_and_bad_values_are_refused_naming_the_observation(make, message):
    with pytest.raises(ObservationError, match=message):
        make()


def _impossible_cases():
    return [
        ("out of time order", CardLanded(0.5, "A", 0, "5S"), r"out of time order: the previous observation was at t=1.0"),
        ("a card that is not a stock top", CardLanded(2.0, "A", 0, "QS"), r"QS is not a face-up stock top of A"),
        ("a card already on the table", StockTurnedUp(2.0, "A", 1, "8H"), r"8H is already on the table"),
        ("a card on the wrong player's stock", CardLanded(2.0, "B", 0, "2H"), r"2H is not a face-up stock top of B"),
        ("a move from a stock that does not show it", StockMoved(2.0, "A", 2, 0, "5S"), r"does not show 5S"),
        ("a take-back of a card not on top", CardTakenBack(2.0, "A", 1, "5S"), r"not the top of spit pile 1"),
        ("a layout in the middle of a round", RoundLaidOut(2.0, {"A": ["2C"] * 5, "B": ["3C"] * 5}), r"still being played"),
        ("a turn-up of a face-up card", StockTurnedUp(2.0, "A", 0, "7C"), r"already shows 2H face up"),
    ]


@pytest.mark.parametrize("name, observation, message", _impossible_cases(), ids=[c[0] for c in _impossible_cases()])
def test_an_impossible_observation_raises_a_clear_error_and_the_engine_keeps_its_state(name, observation, message):
    engine = table(a="2H 5S 9D JC KH", piles="4C 8H", a_counts=(1, 2, 1, 1, 1))
    engine.observe(CardLanded(1.0, "A", 0, "5S"))   # A1 now face down
    before_state, before_events = engine.state, engine.events
    with pytest.raises(ObservationError, match=message) as error:
        engine.observe(observation)
    assert type(observation).__name__ in str(error.value) and isinstance(error.value, RefereeError)
    assert engine.state == before_state and engine.events == before_events
    # ... and it goes on refereeing afterwards
    assert kinds(engine.observe(CardLanded(3.0, "A", 1, "9C", stock=1))) == ["notice", "play"]


def test_with_on_impossible_notice_a_bad_observation_becomes_a_notice_event_and_is_ignored():
    engine = table(config=RulesConfig(on_impossible="notice"))
    before = engine.state
    [event] = engine.observe(CardLanded(1.0, "A", 0, "QD"))
    assert event.type.value == "notice" and "QD is not a face-up stock top" in event["message"]
    assert engine.state.players == before.players and engine.state.pile_tops == before.pile_tops


def test_a_card_from_a_stock_whose_turn_up_was_missed_is_accepted_with_a_notice():
    engine = table(a="2H # 9D JC KH", piles="4C 8H")
    events = engine.observe(CardLanded(1.0, "A", 0, "5S", stock=1))
    assert kinds(events) == ["notice", "play"] and events[1]["legal"] is True
    assert engine.state.players["A"].stocks[1].count == 1


def test_observations_before_any_layout_are_refused():
    engine = RulesEngine()
    with pytest.raises(ObservationError, match="no layout has been seen"):
        engine.observe(CardLanded(1.0, "A", 0, "5S"))
    with pytest.raises(ObservationError, match="expected an observation"):
        engine.observe("CardLanded(1.0)")


def test_a_layout_that_cannot_match_the_cards_held_is_refused():
    engine = RulesEngine()
    with pytest.raises(ObservationError, match="shows 2C but A's 26 cards leave it empty|shown in two places"):
        engine.observe(RoundLaidOut(0.0, {"A": ["2C", "3C", "4C", "5C", "6C"], "B": ["2C", "3D", "4D", "5D", "6D"]}))
    assert engine.state.round_number == 0


def test_a_mid_round_layout_with_a_card_on_an_empty_stock_is_refused():
    with pytest.raises(ObservationError, match=r"stock A0 shows 2H but its count is 0"):
        LayoutSeen(0.0, {"A": ["2H"] + [None] * 4, "B": [None] * 5}, {"A": [0] * 5, "B": [0] * 5}, {"A": 0, "B": 0}, ["4C", None])


def test_after_the_game_ends_further_observations_are_refused():
    engine = table(a="- 5S - - -", b="3H 10D - - -", piles="4C", spit=(0, 5))
    engine.observe(CardLanded(1.0, "A", 0, "5S"))
    assert engine.state.winner == "A"
    with pytest.raises(ObservationError, match="came after the game ended"):
        engine.observe(Slap(2.0, "A", 0))


def test_a_new_layout_with_counts_in_the_middle_of_a_round_starts_the_next_round_with_a_notice():
    engine = table()
    tops = {"A": ["2C", "3C", "4C", "5C", None], "B": ["2D", "3D", "4D", "5D", "6D"]}
    counts = {"A": [1, 2, 3, 1, 0], "B": [1, 2, 3, 4, 5]}
    events = engine.observe(RoundLaidOut(5.0, tops, stock_counts=counts, spit_counts={"A": 0, "B": 30}))
    assert kinds(events) == ["notice", "round_start"] and "not seen" in events[0]["message"]
    assert engine.state.spit_piles_in_use == 1 and engine.state.players["B"].spit_count == 30


def test_with_resync_a_card_landing_from_a_misread_stock_is_taken_as_the_better_reading():
    engine = table(a="2H 5S 9D JC KH", piles="4C 8H", a_counts=(1, 2, 1, 1, 1), config=RulesConfig(resync_misread_cards=True))
    events = engine.observe(CardLanded(1.0, "A", 0, "3S", stock=1))  # the camera had read 3S as 5S
    assert kinds(events) == ["notice", "play"] and "read as 5S" in events[0]["message"] and events[1]["legal"]
    assert engine.state.players["A"].stocks[1].count == 1 and engine.state.players["A"].stocks[1].top is None
    events = engine.observe(StockTurnedUp(1.5, "A", 1, "7D"))
    assert kinds(events) == []
    events = engine.observe(StockTurnedUp(1.6, "A", 1, "7C"))  # a re-read of the same top
    assert kinds(events) == ["notice"] and str(engine.state.players["A"].stocks[1].top) == "7C"
    with pytest.raises(ObservationError, match="already on the table"):
        engine.observe(CardLanded(2.0, "A", 0, "4C", stock=2))  # 4C is on pile 0: still refused



@pytest.mark.parametrize("config, piles, spit, pile, card", [
    (RulesConfig(resync_misread_cards=True, illegal_card="returned"), "4C 8H", (10, 10), 0, "7S"),  # illegal on 4C
    (RulesConfig(resync_misread_cards=True), "4C", (10, 0), 1, "3S"),  # one spit pile: pile 1 not in use
], ids=["illegal_returned", "pile_not_in_use"])
def test_a_card_sent_back_to_a_misread_stock_shows_there_and_counts_as_seen(config, piles, spit, pile, card):
    # the camera had read A1's top as 5S; A plays another card from it, which goes back: A1 shows that card
    engine = table(a="2H 5S 9D JC KH", piles=piles, spit=spit, config=config)
    events = engine.observe(CardLanded(1.0, "A", pile, card, stock=1))
    assert "read as 5S" in events[0]["message"] and of_type(events, "play")[0]["legal"] is False
    assert str(engine.state.players["A"].stocks[1].top) == card
    assert Card.parse(card) in engine.state.seen and Card.parse("5S") not in engine.state.seen
