"""The engine's main test: 1,000 simulated games replayed through it, every ruling compared with the truth.

Each game is simulated (with the simulator's default error rates: illegal plays, take-backs,
near-simultaneous touches, two hands, slow stalls), turned into what a perfect camera would report,
fed to a fresh RulesEngine, and its event log must equal the simulator's true log exactly.
Games are capped at 150 s (two to six rounds) to keep this under a minute.
"""

import time

import pytest

from referee.rules.engine import RulesEngine
from referee.sim.config import SimConfig
from referee.sim.game import simulate_game
from referee.sim.observe import observations_from_script

GAMES = 1000


def _replay(seed: int, config: SimConfig) -> tuple[list[dict], list[dict]]:
    script = simulate_game(seed, config=config)
    engine = RulesEngine(config.rules_config())
    engine.observe_all(observations_from_script(script))
    return [e.to_dict() for e in engine.events], [e.to_dict() for e in script.truth]


def _first_difference(ruled: list[dict], truth: list[dict]) -> str:
    for index, (mine, true) in enumerate(zip(ruled, truth)):
        if mine != true:
            return f"event {index}: engine {mine} / truth {true}"
    return f"lengths {len(ruled)} / {len(truth)}"


@pytest.mark.slow
def test_1000_simulated_games_replayed_through_the_engine_give_the_true_event_log():
    started = time.perf_counter()
    standard, scoring = SimConfig(max_seconds=150), SimConfig(max_seconds=150, win_rule="scoring")
    mismatches, events = [], 0
    for seed in range(GAMES):
        ruled, truth = _replay(seed, scoring if seed % 4 == 3 else standard)
        events += len(truth)
        if ruled != truth:
            mismatches.append(f"seed {seed}: {_first_difference(ruled, truth)}")
    elapsed = time.perf_counter() - started
    print(f"{GAMES} games, {events} events, {elapsed:.1f} s")
    assert not mismatches, "\n".join(mismatches[:5])


@pytest.mark.parametrize("seed", range(8))
def test_whole_games_replayed_through_the_engine_give_the_true_event_log(seed):
    ruled, truth = _replay(seed, SimConfig(win_rule="scoring" if seed % 2 else "standard"))
    assert ruled == truth, _first_difference(ruled, truth)
