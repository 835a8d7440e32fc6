"""The simulator plays whole games: timed, human-paced, deterministic per seed."""

import statistics
from collections import Counter

import pytest

from referee.errors import ConfigError
from referee.rules.cards import can_play_on
from referee.sim.config import SimConfig
from referee.sim.game import simulate_game
from referee.sim.script import ActionKind, GameScript, PlaceKind

SEEDS = range(12)


@pytest.fixture(scope="module")
def games() -> list[GameScript]:
    return [simulate_game(seed) for seed in SEEDS]


def test_the_same_seed_gives_the_same_game():
    first, second = simulate_game(5), simulate_game(5)
    assert [e.to_dict() for e in first.truth] == [e.to_dict() for e in second.truth]
    assert first.actions() == second.actions()
    assert [e.to_dict() for e in simulate_game(6).truth] != [e.to_dict() for e in first.truth]


@pytest.mark.parametrize("win_rule", ["standard", "scoring"])
def test_a_game_is_played_to_its_end_under_either_win_rule(win_rule):
    for seed in range(6):
        script = simulate_game(seed, config=SimConfig(win_rule=win_rule))
        ends = [e for e in script.truth if e.type.value == "game_end"]
        assert len(ends) == 1 and script.truth[-1] is ends[0] or script.stopped_at is not None
        assert script.win_rule == win_rule
        if win_rule == "scoring" and script.stopped_at is None:
            last = [e for e in script.truth if e.type.value == "round_end"][-1]
            assert max(last["scores"].values()) >= 100 or 0 in last["cards"].values()


def test_a_hand_never_does_two_things_at_once(games):
    for script in games:
        for player in "AB":
            for hand in ("main", "other"):
                moves = sorted((a.t_start, a.t_end) for a in script.actions() if a.player == player and a.hand == hand)
                assert all(end <= next_start + 1e-9 for (_, end), (next_start, _) in zip(moves, moves[1:]))


def test_plays_take_human_times_and_rounds_last_tens_of_seconds(games):
    plays = [a for s in games for a in s.actions() if a.kind is ActionKind.PLAY]
    cycle = statistics.median(a.t_end - a.t_start for a in plays)
    travel = [a.t_touch - a.t_grab for a in plays]
    assert 0.35 <= cycle <= 0.9, cycle
    assert 0.12 <= min(travel) and max(travel) <= 0.5
    lengths = [r.t_end - r.t_start for s in games for r in s.rounds]
    assert 20 <= statistics.median(lengths) <= 120, statistics.median(lengths)


def test_rounds_are_separated_by_a_few_seconds_for_collecting_and_dealing(games):
    for script in games:
        for before, after in zip(script.rounds, script.rounds[1:]):
            assert 2.5 <= after.t_start - before.t_end <= 7.0
            assert all(before.t_start <= a.t_start and a.t_end <= before.t_end for a in before.actions)


def test_the_truth_is_in_order_of_t_has_no_frames_and_uses_t_touch(games):
    for script in games:
        times = [e.t for e in script.truth]
        assert times == sorted(times) and all(e.frame is None for e in script.truth)
        touches = {(round(a.t_touch, 9), str(a.card)) for a in script.actions() if a.kind is ActionKind.PLAY}
        for event in script.truth:
            if event.type.value == "play":
                assert (round(event.t, 9), str(event["card"])) in touches
                assert event["legal"] is (event["on"] is not None and can_play_on(event["card"], event["on"]))


def test_the_simulated_players_make_the_errors_the_referee_must_catch():
    config = SimConfig(illegal_play_rate=0.05, two_hands_rate=0.02, near_simultaneous_rate=0.2, sixth_stock_rate=0.05)
    counts = Counter()
    for seed in range(6):
        script = simulate_game(seed, config=config)
        for event in script.truth:
            counts[event.type.value] += 1
            if event.type.value == "violation":
                counts[event["kind"]] += 1
            if event.type.value == "touch_order" and event["too_close"]:
                counts["too_close"] += 1
            if event.type.value == "play" and not event["legal"]:
                counts["illegal"] += 1
    for name in ("illegal", "take_back", "two_hands", "sixth_stock", "touch_order", "too_close", "stall", "slap"):
        assert counts[name] > 0, name


def test_players_racing_for_piles_land_more_cards_close_together_on_one_pile():
    def pairs(config: SimConfig) -> int:
        return sum(1 for seed in range(6) for event in simulate_game(seed, config=config).truth
                   if event.type.value == "touch_order" and event.t < 60)

    apart = SimConfig(near_simultaneous_rate=1.0)
    racing = SimConfig(near_simultaneous_rate=1.0, race_rate=1.0)
    assert pairs(racing) > pairs(apart) > 0


def test_cards_timed_to_land_close_together_land_within_the_close_gap():
    config = SimConfig(near_simultaneous_rate=1.0, race_rate=1.0, within_frame_share=1.0, close_gap_s=(0.011, 0.033))
    gaps = [event["gap_ms"] for seed in range(6) for event in simulate_game(seed, config=config).truth
            if event.type.value == "touch_order" and event.t < 60]
    close = [gap for gap in gaps if 11.0 <= gap <= 33.01]
    assert len(close) >= len(gaps) / 2  # the rest: a hand that could not get there in time, or a third card
    with pytest.raises(ConfigError, match="close_gap_s"):
        SimConfig(close_gap_s=(0.02, 0.01))


def test_racing_for_piles_is_off_by_default_and_a_probability():
    assert SimConfig().race_rate == 0.0
    with pytest.raises(ConfigError, match="race_rate"):
        SimConfig(race_rate=1.5)


def test_with_no_errors_every_play_is_legal():
    config = SimConfig(illegal_play_rate=0.0, near_simultaneous_rate=0.0, two_hands_rate=0.0, sixth_stock_rate=0.0)
    for seed in range(4):
        script = simulate_game(seed, config=config)
        assert all(e["legal"] for e in script.truth if e.type.value == "play")
        assert not [e for e in script.truth if e.type.value == "violation"]


def test_a_game_is_capped_in_length_and_then_decided_on_the_cards_held():
    script = simulate_game(3, config=SimConfig(max_seconds=60))
    assert script.stopped_at is not None and script.stopped_at >= 60 - 10
    last = script.truth[-1]
    assert last.type.value in ("game_end", "notice") and last.t == script.stopped_at
    assert script.duration >= script.rounds[-1].t_end


def test_the_layout_is_dealt_from_the_cards_each_player_holds(games):
    for script in games:
        for round_ in script.rounds:
            for player in "AB":
                sizes = [len(slot) for slot in round_.layout.stocks[player]]
                cards = sum(sizes) + len(round_.layout.spit_stacks[player])
                expected = [min(i + 1, max(0, cards - sum(range(1, i + 1)))) for i in range(5)]
                assert sizes == expected
            piles = 2 if all(round_.layout.spit_stacks[p] for p in "AB") else 1
            assert round_.layout.spit_piles_in_use == piles
            sixths = {e.t for e in script.truth if e.type.value == "violation" and e["kind"] == "sixth_stock"}
            for action in round_.actions:
                for place in (action.source, action.target):
                    if place is not None and place.kind is PlaceKind.STOCK and place.index == 5 and place is action.target:
                        assert action.kind is ActionKind.FILL_SLOT and action.t_touch in sixths
                    else:
                        assert place is None or place.kind is not PlaceKind.STOCK or 0 <= place.index <= 5


@pytest.mark.parametrize("settings", [{"illegal_play_rate": 1.5}, {"travel_s": (0.5, 0.1)}, {"win_rule": "bridge"}, {"max_seconds": 0}])
def test_bad_simulator_settings_are_refused(settings):
    with pytest.raises(ConfigError):
        SimConfig(**settings)
