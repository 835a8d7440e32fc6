"""Every rule of RULES.md, as rows of observations and the rulings they must give.

Test names quote the rule. Tables are built with tests/rules/tables.py: a mid-round layout taken up
by the engine, then observations fed in order of t.
"""

import pytest

from referee.errors import ObservationError
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import (
    CardLanded, CardTakenBack, RoundLaidOut, SixthStock, Slap, SpitTurned, StockMoved, StockTurnedUp,
    TwoCardsMoved, TwoHandsUsed,
)
from referee.rules.state import GamePhase

from tests.rules.tables import kinds, of_type, table


def play(engine, t, player, pile, card, stock=None):
    return engine.observe(CardLanded(t, player, pile, card, stock=stock))


# ---- Play ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card, top, legal",
    [
        ("5S", "4C", True), ("3S", "4C", True),     # one higher or one lower
        ("AS", "KC", True), ("KS", "AC", True),     # A is next to K ...
        ("2S", "AC", True), ("AS", "2C", True),     # ... and to 2
        ("KS", "2C", False), ("2S", "KC", False),   # K and 2 are not adjacent
        ("6S", "4C", False), ("4S", "4C", False),   # two apart, same rank
        ("10S", "JC", True), ("JS", "QC", True), ("10S", "9C", True),
    ],
)
def test_a_card_may_be_played_onto_a_spit_pile_if_its_rank_is_adjacent_with_the_ace_wrap(card, top, legal):
    engine = table(a=f"{card} # - - -", b="# - - - -", piles=top)
    [event] = of_type(play(engine, 1.0, "A", 0, card), "play")
    assert event["legal"] is legal and str(event["on"]) == top and str(event["card"]) == card


@pytest.mark.parametrize(
    "player, pile, card",
    [("A", 0, "5S"), ("A", 1, "8D"), ("B", 0, "3C"), ("B", 1, "6D")],
)
def test_either_player_may_play_on_either_pile(player, pile, card):
    engine = table(a="2H 5S 8D JC KH", b="3C 6D 10S QS AH", piles="4C 7H")
    [event] = play(engine, 1.0, player, pile, card)
    assert event["legal"] is True and event["player"] == player and event["pile"] == pile


def test_a_play_with_no_hand_seen_is_given_to_the_player_whose_stock_top_it_was():
    engine = table(a="2H 5S 8D JC KH", b="3C 6D 10S QS AH", piles="4C 7H")
    [event] = play(engine, 1.0, None, 1, "6D")
    assert event["player"] == "B" and engine.state.players["B"].stocks[1].count == 0


def test_after_playing_the_top_card_of_a_stock_pile_the_player_may_turn_the_next_card_face_up():
    engine = table(a="2H 5S 8D JC KH", piles="4C 7H", a_counts=(1, 3, 1, 1, 1))
    play(engine, 1.0, "A", 0, "5S")
    assert engine.state.players["A"].stocks[1].count == 2 and engine.state.players["A"].stocks[1].top is None
    assert engine.observe(StockTurnedUp(1.5, "A", 1, "7D")) == []
    assert engine.state.players["A"].stocks[1].top.rank == "7"
    with pytest.raises(ObservationError, match="already shows 7D face up"):
        engine.observe(StockTurnedUp(2.0, "A", 1, "9D"))


def test_a_player_with_an_empty_slot_may_move_a_face_up_stock_card_into_it_and_turn_up_the_card_under_it():
    engine = table(a="- 5S 8D JC KH", piles="4C 7H", a_counts=(0, 3, 1, 1, 1))
    assert engine.observe(StockMoved(1.0, "A", 1, 0, "5S")) == []
    stocks = engine.state.players["A"].stocks
    assert (stocks[0].count, str(stocks[0].top), stocks[1].count, stocks[1].top) == (1, "5S", 2, None)
    engine.observe(StockTurnedUp(1.4, "A", 1, "QD"))
    assert str(engine.state.players["A"].stocks[1].top) == "QD"
    with pytest.raises(ObservationError, match="not empty"):
        engine.observe(StockMoved(2.0, "A", 1, 2, "QD"))


@pytest.mark.parametrize(
    "observation",
    [StockMoved(1.0, "A", 1, 5, "5S"), SixthStock(1.0, "A")],
    ids=["move-into-a-sixth-slot", "sixth-pile-seen"],
)
def test_a_player_may_never_have_more_than_five_stock_piles(observation):
    engine = table(a="2H 5S 8D JC KH", piles="4C 7H", a_counts=(1, 3, 1, 1, 1))
    events = engine.observe(observation)
    assert [(e["player"], e["kind"]) for e in of_type(events, "violation")] == [("A", "sixth_stock")]


@pytest.mark.parametrize(
    "second, gap_s, first_reported, too_close, second_legal, reading",
    [
        ("6S", 0.020, True, True, False, "new_top"),    # 6 is judged against the new top 8: illegal
        ("9S", 0.100, True, False, True, "new_top"),    # 9 on the new top 8: legal
        ("6S", 0.400, False, None, False, "new_top"),   # beyond the touch window: no touch_order, still on 8
        ("6S", 0.020, True, True, True, "old_top"),     # [reading] old top: 6 on the 7 both aimed at
        ("9S", 0.020, True, True, False, "old_top"),
    ],
)
def test_when_two_cards_reach_one_pile_the_first_touch_keeps_the_play_and_the_later_card_is_judged_against_the_new_top(
    second, gap_s, first_reported, too_close, second_legal, reading
):
    config = RulesConfig(later_card_judged_against=reading)
    engine = table(a="8H - - - -", b="6S 9S - - -", piles="7C 2D", a_counts=(3, 0, 0, 0, 0), b_counts=(2, 2, 0, 0, 0), config=config)
    first = play(engine, 1.0, "A", 0, "8H")
    assert of_type(first, "play")[0]["legal"] is True
    events = play(engine, 1.0 + gap_s, "B", 0, second)
    orders = of_type(events, "touch_order")
    if first_reported:
        assert [(o["pile"], o["first"], o["too_close"]) for o in orders] == [(0, "A", too_close)]
        assert orders[0]["gap_ms"] == pytest.approx(gap_s * 1000, abs=0.01)
        assert kinds(events) == ["touch_order", "play"]
    else:
        assert orders == []
    [later] = of_type(events, "play")
    assert later["legal"] is second_legal and str(later["on"]) == "8H"


def test_a_card_that_has_been_played_can_never_be_taken_back():
    engine = table(a="2H 5S 8D JC KH", piles="4C 7H", a_counts=(1, 3, 1, 1, 1))
    play(engine, 1.0, "A", 0, "5S")
    events = engine.observe(CardTakenBack(1.6, "A", 0, "5S"))
    assert [(e["player"], e["kind"]) for e in events] == [("A", "take_back")]
    state = engine.state
    assert str(state.pile_tops[0]) == "4C" and str(state.players["A"].stocks[1].top) == "5S"
    assert state.players["A"].stocks[1].count == 3
    with pytest.raises(ObservationError, match="not the top of spit pile 0"):
        engine.observe(CardTakenBack(2.0, "A", 0, "5S"))


@pytest.mark.parametrize(
    "reading, pile_top, a_count",
    [("stays", "JC", 3), ("returned", "4C", 4)],
)
def test_an_illegal_card_is_called_and_by_default_stays_on_the_pile(reading, pile_top, a_count):
    engine = table(a="2H 5S 8D JC KH", piles="4C 7H", a_counts=(1, 1, 1, 4, 1), config=RulesConfig(illegal_card=reading))
    [event] = play(engine, 1.0, "A", 0, "JC")
    assert event["legal"] is False and str(event["on"]) == "4C"
    assert str(engine.state.pile_tops[0]) == pile_top
    assert engine.state.players["A"].stocks[3].count == a_count


# ---- The re-spit -----------------------------------------------------------------------------------

STALLED = dict(a="2H 5S 9D JC KH", b="3C 4D 10S QS AH", piles="7C 7D")


def test_when_neither_player_can_play_a_stall_is_called_once_and_both_spit_again():
    engine = table(**STALLED)
    assert kinds(engine.events) == ["round_start", "stall"] and engine.state.phase is GamePhase.STALLED
    engine.observe(TwoHandsUsed(0.5, "A"))
    assert kinds(engine.events).count("stall") == 1
    first = engine.observe(SpitTurned(1.0, "A", 0, "8S"))
    assert kinds(first) == ["spit"] and engine.state.phase is GamePhase.STALLED
    second = engine.observe(SpitTurned(1.05, "B", 1, "5H"))
    assert kinds(second) == ["spit"] and engine.state.phase is GamePhase.PLAYING  # 9D fits 8S
    assert engine.state.players["A"].spit_count == 9 and engine.state.players["B"].spit_count == 9


def test_a_stall_that_survives_the_re_spit_is_called_again():
    engine = table(**STALLED)
    engine.observe(SpitTurned(1.0, "A", 0, "7S"))
    events = engine.observe(SpitTurned(1.05, "B", 1, "7H"))
    assert kinds(events) == ["spit", "stall"]


def test_a_stall_is_called_the_moment_the_last_playable_card_is_gone():
    engine = table(a="2H 5S 9D JC KH", b="3C 10D 10S QS AH", piles="4C 7D")
    assert kinds(play(engine, 1.0, "A", 0, "5S")) == ["play", "stall"]


@pytest.mark.parametrize("waits, after_play, after_turn_up", [(True, ["play"], ["stall"]), (False, ["play", "stall"], [])])
def test_the_stall_waits_for_face_down_stock_tops_to_be_turned_up(waits, after_play, after_turn_up):
    config = RulesConfig(stall_waits_for_stock_moves=waits)
    engine = table(a="2H 5S 9D JC KH", b="3C 10D 10S QS AH", piles="4C 7D", a_counts=(1, 2, 1, 1, 1), config=config)
    assert kinds(play(engine, 1.0, "A", 0, "5S")) == after_play
    assert kinds(engine.observe(StockTurnedUp(1.5, "A", 1, "KD"))) == after_turn_up


def test_a_player_with_no_spit_cards_left_does_not_spit_and_the_other_spits_alone():
    engine = table(**STALLED, spit=(0, 3))
    assert engine.state.phase is GamePhase.STALLED
    events = engine.observe(SpitTurned(1.0, "B", 1, "8S"))
    assert kinds(events) == ["spit"] and engine.state.phase is GamePhase.PLAYING
    with pytest.raises(ObservationError, match="A has no spit cards left"):
        engine.observe(SpitTurned(1.2, "A", 0, "8C"))


def test_reading_off_a_stall_with_one_player_out_of_spit_cards_ends_the_round():
    engine = table(**STALLED, spit=(0, 3), config=RulesConfig(lone_respit=False))
    assert kinds(engine.events) == ["round_start", "round_over"]
    assert engine.events[-1]["reason"] == "no_play"


def test_a_spit_while_play_is_possible_is_a_violation():
    engine = table()
    events = engine.observe(SpitTurned(1.0, "A", 0, "8S"))
    assert kinds(events) == ["violation", "spit"] and events[0]["kind"] == "spit_without_stall"


# ---- End of a round --------------------------------------------------------------------------------


def test_a_round_ends_when_a_player_has_played_all_of_their_stock_cards():
    engine = table(a="- 5S - - -", piles="4C 8H")
    events = play(engine, 1.0, "A", 0, "5S")
    assert kinds(events) == ["play", "round_over"]
    assert (events[1]["reason"], events[1]["player"]) == ("stock_out", "A")
    assert engine.state.phase is GamePhase.ROUND_OVER


def test_a_round_ends_when_neither_can_play_and_neither_has_spit_cards_left():
    engine = table(**STALLED, spit=(0, 0))
    assert kinds(engine.events) == ["round_start", "round_over"] and engine.events[-1]["reason"] == "no_play"


@pytest.mark.parametrize(
    "slap_a, slap_b, takes, touch",
    [
        ((1.5, 1), (1.6, 0), {"A": 1, "B": 0}, None),             # different piles: each takes theirs
        ((1.5, 1), (1.6, 1), {"A": 1, "B": 0}, ("A", False)),     # same pile: the first hand takes it ...
        ((1.7, 1), (1.6, 1), {"A": 0, "B": 1}, ("B", False)),     # ... the other takes the other pile
        ((1.5, 0), (1.5005, 0), {"A": 0, "B": 1}, ("A", True)),   # under a frame apart: too close to see
    ],
)
def test_slaps_on_different_piles_each_take_theirs_and_on_one_pile_the_first_hand_takes_it(slap_a, slap_b, takes, touch):
    engine = table(a="- 5S - - -", piles="4C 8H")
    play(engine, 1.0, "A", 0, "5S")
    slaps = sorted([Slap(slap_a[0], "A", slap_a[1]), Slap(slap_b[0], "B", slap_b[1])], key=lambda s: s.t)
    events = engine.observe(slaps[0]) + engine.observe(slaps[1])
    [end] = of_type(events, "round_end")
    assert end["takes"] == takes and end["reason"] == "stock_out"
    orders = of_type(events, "touch_order")
    assert [(o["first"], o["too_close"]) for o in orders] == ([touch] if touch else [])
    # collecting: each player holds their stock and spit cards plus the pile they took (pile 0: 4C 5S)
    pile_counts = {0: 2, 1: 1}
    assert end["cards"] == {"A": 10 + pile_counts[takes["A"]], "B": 15 + pile_counts[takes["B"]]}
    assert engine.state.phase is GamePhase.WAITING_FOR_LAYOUT


def test_two_slaps_timed_alike_go_to_the_hand_ruled_first_as_its_touch_order_says():
    # a camera times the hand that came down on the other's no earlier than it, and it is ruled second
    engine = table(a="- 5S - - -", piles="4C 8H")
    play(engine, 1.0, "A", 0, "5S")
    events = engine.observe(Slap(1.6, "B", 1)) + engine.observe(Slap(1.6, "A", 1))
    [order] = of_type(events, "touch_order")
    [end] = of_type(events, "round_end")
    assert order["first"] == "B" and end["takes"] == {"A": 0, "B": 1}


def test_a_slap_before_the_round_ends_is_a_violation_and_a_second_slap_counts_for_nothing():
    engine = table(a="- 5S - - -", piles="4C 8H")
    assert [e["kind"] for e in engine.observe(Slap(0.5, "B", 0))] == ["early_slap"]
    play(engine, 1.0, "A", 0, "5S")
    assert kinds(engine.observe(Slap(1.5, "A", 1))) == ["slap"]
    assert engine.observe(Slap(1.55, "A", 0)) == []


# ---- Fewer than 15 cards, one spit pile, winning ----------------------------------------------------


def test_a_player_with_fewer_than_15_cards_deals_the_stocks_as_far_as_they_go_and_one_spit_pile_is_used():
    engine = RulesEngine.starting_from(_layout_with_pile_counts(), RulesConfig())
    play(engine, 1.0, "A", 0, "5S")
    engine.observe(Slap(1.5, "A", 0))
    [end] = of_type(engine.observe(Slap(1.6, "B", 1)), "round_end")
    assert end["cards"] == {"A": 7, "B": 45}
    tops = {"A": ["2C", "3C", "4C", "5C", None], "B": ["2D", "3D", "4D", "5D", "6D"]}
    [start] = engine.observe(RoundLaidOut(5.0, tops))
    assert (start["round"], start["spit_piles"]) == (4, 1)
    players = engine.state.players
    assert [s.count for s in players["A"].stocks] == [1, 2, 3, 1, 0] and players["A"].spit_count == 0
    assert [s.count for s in players["B"].stocks] == [1, 2, 3, 4, 5] and players["B"].spit_count == 30
    assert engine.state.spit_piles_in_use == 1
    # only B spits, onto pile 0; pile 1 is not in use
    engine.observe(SpitTurned(6.0, "B", 0, "9H"))
    assert engine.state.phase in (GamePhase.PLAYING, GamePhase.STALLED)
    events = play(engine, 7.0, "A", 1, "5C")
    assert [e.get("kind") for e in of_type(events, "violation")] == ["pile_not_in_use"]
    assert of_type(events, "play")[0]["legal"] is False


def _layout_with_pile_counts():
    from referee.rules.observations import LayoutSeen

    return LayoutSeen(
        0.0,
        stock_tops={"A": [None, "5S", None, None, None], "B": ["3H", "6H", "10S", "QS", "AH"]},
        stock_counts={"A": [0, 1, 0, 0, 0], "B": [1, 1, 1, 1, 1]},
        spit_counts={"A": 1, "B": 10},
        pile_tops=["4C", "8H"],
        pile_counts=[5, 30],
        round_number=3,
    )


@pytest.mark.parametrize(
    "ender, win_rule, takes, winner",
    [
        ("A", "standard", {"A": None, "B": 0}, "A"),    # the player with no spit cards empties first: wins
        ("B", "standard", {"A": 0, "B": None}, None),   # the opponent empties first: the game goes on
        ("B", "scoring", {"A": 0, "B": None}, None),
    ],
)
def test_with_one_spit_pile_the_first_to_empty_their_stocks_takes_nothing_and_the_opponent_takes_the_pile(
    ender, win_rule, takes, winner
):
    a, b = ("- 5S - - -", "3H 10D - - -") if ender == "A" else ("5S 10D - - -", "- 3H - - -")
    engine = table(a=a, b=b, piles="4C", spit=(0, 5), config=RulesConfig(win_rule=win_rule))
    events = play(engine, 1.0, ender, 0, "5S" if ender == "A" else "3H")
    assert kinds(events)[:3] == ["play", "round_over", "round_end"]
    assert of_type(events, "round_end")[0]["takes"] == takes
    assert [e["winner"] for e in of_type(events, "game_end")] == ([winner] if winner else [])


def test_a_one_pile_round_ending_with_no_play_gives_the_pile_to_the_player_with_more_stock_cards():
    engine = table(a="2H 9D - - -", b="3C 4D 10S QS AH", piles="7C", spit=(0, 0))
    [end] = of_type(engine.events, "round_end")
    assert end["reason"] == "no_play" and end["takes"] == {"A": None, "B": 0}


@pytest.mark.parametrize(
    "scores_before, winner",
    [({"A": 10, "B": 20}, None), ({"A": 95, "B": 60}, "B"), ({"A": 60, "B": 95}, "A"), ({"A": 95, "B": 90}, None)],
)
def test_scoring_each_round_scores_a_point_per_card_still_held_and_at_100_the_lowest_total_wins(scores_before, winner):
    # A keeps 10 spit cards; B keeps 5 stock + 10 spit = 15 points
    engine = table(a="- 5S - - -", piles="4C 8H", scores=scores_before, config=RulesConfig(win_rule="scoring"))
    play(engine, 1.0, "A", 0, "5S")
    engine.observe(Slap(1.5, "A", 1))
    events = engine.observe(Slap(1.6, "B", 0))
    [end] = of_type(events, "round_end")
    assert end["points"] == {"A": 10, "B": 15}
    assert end["scores"] == {"A": scores_before["A"] + 10, "B": scores_before["B"] + 15}
    assert [e["winner"] for e in of_type(events, "game_end")] == ([winner] if winner else [])


# ---- Breaches the referee can see ------------------------------------------------------------------


@pytest.mark.parametrize(
    "observation, kind",
    [(TwoCardsMoved(1.0, "B"), "two_cards"), (TwoHandsUsed(1.0, "A"), "two_hands"), (SixthStock(1.0, "B"), "sixth_stock")],
)
def test_breaches_the_referee_can_see_are_violation_events(observation, kind):
    engine = table()
    [event] = engine.observe(observation)
    assert (event.type.value, event["player"], event["kind"]) == ("violation", observation.player, kind)


def test_events_carry_the_frame_of_the_observation_they_were_ruled_from():
    engine = table(a="2H 5S 8D JC KH", b="3C 6D 10S QS AH", piles="4C 7H")
    first = engine.observe(CardLanded(1.0, "A", 1, "8D", frame=30))
    second = engine.observe(CardLanded(1.1, "B", 1, "QS", frame=33))
    assert [e.frame for e in first] == [30] and [e.frame for e in second] == [33, 33]
    assert kinds(second) == ["touch_order", "play"]


@pytest.mark.parametrize("errors_s, too_close, error_ms", [
    ((0.0, 0.0), False, None),        # exact times (the simulator's): only the camera's half frame counts
    ((0.005, 0.005), False, 7.1),     # each touch timed to 5 ms: 25 ms apart is told apart
    ((0.02, 0.02), True, 28.3),       # each to 20 ms: the gap is within what the two times may be off by
])
def test_two_touches_closer_than_their_timing_error_are_too_close_to_call(errors_s, too_close, error_ms):
    engine = table(a="8H - - - -", b="9S - - - -", piles="7C 2D", a_counts=(3, 0, 0, 0, 0), b_counts=(2, 0, 0, 0, 0),
                   config=RulesConfig(touch_too_close_ms=17.0))
    engine.observe(CardLanded(1.0, "A", 0, "8H", stock=0, error=errors_s[0]))
    events = engine.observe(CardLanded(1.025, "B", 0, "9S", stock=0, error=errors_s[1]))
    [order] = of_type(events, "touch_order")
    assert order["first"] == "A" and order["gap_ms"] == pytest.approx(25.0)
    assert order["too_close"] is too_close
    assert order.get("error_ms") == error_ms


def test_a_negative_timing_error_is_refused():
    with pytest.raises(ObservationError, match="error"):
        CardLanded(1.0, "A", 0, "8H", error=-0.01)
