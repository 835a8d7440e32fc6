"""Invariants of the rules engine, checked on streams of observations Hypothesis makes up (most of them
nonsense a shaky camera could produce): it never crashes, a refused observation leaves the state
exactly as it was, the same observations always give the same events, and a legal play is never
called illegal."""

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.errors import ObservationError
from referee.rules.cards import RANKS, Card, can_play_on, full_deck
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import (
    CardLanded, CardTakenBack, GameStopped, LayoutSeen, RoundLaidOut, Slap, SpitTurned, StockMoved, StockTurnedUp,
    TwoHandsUsed,
)

from tests.rules.tables import of_type, table

PLAYERS = ("A", "B")
KINDS = ("landed", "landed", "landed", "turned", "moved", "spit", "slap", "taken_back", "two_hands", "laid_out", "stopped")


def _layout(data, deck):
    counts = {p: data.draw(st.lists(st.integers(0, 5), min_size=5, max_size=5)) for p in PLAYERS}
    tops = {"A": [deck[i] if counts["A"][i] else None for i in range(5)],
            "B": [deck[5 + i] if counts["B"][i] else None for i in range(5)]}
    spit = {p: data.draw(st.integers(0, 6)) for p in PLAYERS}
    piles = [deck[10], data.draw(st.sampled_from([deck[11], None]))]
    return LayoutSeen(0.0, tops, counts, spit, piles)


def _observation(data, engine, deck, t):
    kind = data.draw(st.sampled_from(KINDS))
    player = data.draw(st.sampled_from(PLAYERS))
    stocks = engine.state.players[player].stocks
    shown = [stock.top for stock in stocks if stock.top is not None]
    card = data.draw(st.sampled_from(shown + deck[12:20] if shown else deck[12:20]))
    pile = data.draw(st.integers(0, 1))
    slot = data.draw(st.integers(0, 5))
    if kind == "landed":
        return CardLanded(t, data.draw(st.sampled_from([player, None])), pile, card, stock=data.draw(st.sampled_from([None, slot])))
    if kind == "turned":
        return StockTurnedUp(t, player, slot, card)
    if kind == "moved":
        return StockMoved(t, player, slot, (slot + data.draw(st.integers(1, 5))) % 6, card)
    if kind == "spit":
        return SpitTurned(t, player, pile, card)
    if kind == "slap":
        return Slap(t, player, pile)
    if kind == "taken_back":
        top = engine.state.pile_tops[pile]
        return CardTakenBack(t, player, pile, top or card)
    if kind == "two_hands":
        return TwoHandsUsed(t, player)
    if kind == "laid_out":
        return RoundLaidOut(t, {"A": deck[20:25], "B": deck[25:30]})
    return GameStopped(t)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_refused_observation_leaves_the_state_unchanged_and_the_same_observations_give_the_same_events(data):
    deck = data.draw(st.permutations(full_deck()))
    layout = _layout(data, deck)
    config = data.draw(st.sampled_from([
        RulesConfig(), RulesConfig(resync_misread_cards=True, illegal_card="returned"), RulesConfig(camera_tolerant=True),
    ]))
    engine = RulesEngine(config)
    try:
        engine.observe(layout)
    except ObservationError:
        return
    accepted = [layout]
    t = 0.0
    for _ in range(data.draw(st.integers(1, 30))):
        t += data.draw(st.sampled_from([0.0, 0.004, 0.05, 0.4, 2.0, -0.5]))
        observation = _observation(data, engine, deck, max(t, 0.0))
        before_state, before_events = engine.state, engine.events
        try:
            engine.observe(observation)
            accepted.append(observation)
        except ObservationError as error:
            assert type(observation).__name__ in str(error)
            assert engine.state == before_state and engine.events == before_events
        for view in engine.state.players.values():
            assert view.spit_count >= 0 and all(stock.count >= 0 for stock in view.stocks)
        if engine.state.phase.value in ("laid_out", "playing", "stalled") and not config.camera_tolerant:
            # a deck holds each card once: every card face up on the table has been seen this round
            showing = [stock.top for view in engine.state.players.values() for stock in view.stocks if stock.top is not None]
            showing += [top for top in engine.state.pile_tops if top is not None]
            assert {card for card in showing if card.suit} <= engine.state.seen
    again = RulesEngine(config)
    again.observe_all(accepted)
    assert [event.to_dict() for event in again.events] == [event.to_dict() for event in engine.events]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_with_notices_the_engine_never_raises_on_a_stream_of_nonsense(data):
    deck = data.draw(st.permutations(full_deck()))
    engine = RulesEngine(RulesConfig(on_impossible="notice"))
    engine.observe(RoundLaidOut(0.0, {"A": deck[:5], "B": deck[5:10]}))
    t = 0.0
    for _ in range(data.draw(st.integers(1, 30))):
        t += data.draw(st.sampled_from([0.0, 0.3, 1.0, -0.2]))
        engine.observe(_observation(data, engine, deck, max(t, 0.0)))
        if engine.state.winner:
            break
    times = [event.t for event in engine.events]
    assert times == sorted(times)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_a_camera_tolerant_engine_rules_every_card_seen_landing_as_a_play(data):
    deck = data.draw(st.permutations(full_deck()))
    engine = RulesEngine(RulesConfig().for_camera())
    start = data.draw(st.sampled_from(["blind", "layout", "unknown_top"]))
    if start != "blind":
        layout = _layout(data, deck)
        if start == "unknown_top":
            layout = LayoutSeen(0.0, layout.stock_tops, layout.stock_counts, layout.spit_counts,
                                [None, layout.pile_tops[1]], unknown_piles=[0])
        engine.observe(layout)
    t = 0.0
    for _ in range(data.draw(st.integers(1, 30))):
        t += data.draw(st.sampled_from([0.0, 0.004, 0.3, 1.0]))
        observation = _observation(data, engine, deck, t)
        over = engine.state.winner is not None or engine.state.phase.value == "game_over"
        events = engine.observe(observation)
        if isinstance(observation, CardLanded) and not over:
            assert len(of_type(events, "play")) == 1, events
    times = [event.t for event in engine.events]
    assert times == sorted(times)


@given(st.sampled_from(RANKS), st.sampled_from(["S", "H"]), st.booleans(), st.sampled_from(["new_top", "old_top"]))
def test_a_legal_play_is_never_called_illegal(top_rank, suit, upwards, reading):
    index = RANKS.index(top_rank)
    rank = RANKS[(index + (1 if upwards else -1)) % len(RANKS)]
    card, top = Card(rank, suit), Card(top_rank, "D")
    assert can_play_on(card, top)
    engine = table(a=f"{card} # - - -", b="# - - - -", piles=str(top), config=RulesConfig(later_card_judged_against=reading))
    [event] = of_type(engine.observe(CardLanded(1.0, "A", 0, card)), "play")
    assert event["legal"] is True
