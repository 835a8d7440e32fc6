"""A player's second hand: `python -m benchmarks.one_hand [--keep DIR] [--models DIR]`.

The rules allow one hand per player. The simulator makes a play with the other hand at `two_hands_rate`
(0.4 % of plays by default: one in the whole 8-game suite of `referee_accuracy`), so these games are
simulated with TWO_HANDS_RATE instead, rendered (their own seeds, decks, cameras and frame rates) and
refereed, and the `two_hands` breaches the referee calls are compared with the true ones (same player,
within 0.5 s). Calls where there was none are counted here and, on ordinary games, by
`referee_accuracy` (`false_violations`). The card rulings are scored as in `referee_accuracy`.
Results go to stdout and to benchmarks/results/one_hand.json.
"""

from __future__ import annotations

import json
import pathlib
import sys
from dataclasses import replace

from benchmarks.referee_accuracy import refereed_games, summarise, variant_arguments, write_report
from benchmarks.rendered import render_once

#: (seed, fps, seconds): games never used while building the arm measure
GAMES = [(81, 30, 24.0), (82, 60, 14.0), (83, 30, 24.0), (84, 30, 24.0), (85, 30, 24.0), (86, 60, 14.0)]
#: share of plays made with the other hand in these games
TWO_HANDS_RATE = 0.12


def render(folder: pathlib.Path, seed: int, fps: int, seconds: float) -> None:
    """The game of `seed` with TWO_HANDS_RATE, rendered into `folder` unless it is there already."""
    from referee.sim.config import SimConfig

    render_once(folder, seed, fps, seconds, sim_config=replace(SimConfig(), two_hands_rate=TWO_HANDS_RATE),
                record={"two_hands_rate": TWO_HANDS_RATE})


def main() -> int:
    args = variant_arguments(__doc__, "one_hand", codecs=True)
    games = []
    for game in refereed_games(GAMES, render, args.models, args.keep, args.codec):
        breaches = [v for v in game["violations"] if v["kind"] == "two_hands"]
        game["two_hands"] = len(breaches)
        game["two_hands_found"] = sum(v["found"] for v in breaches)
        game["two_hands_false"] = sum(1 for kind in game["false_violations"] if kind == "two_hands")
        games.append(game)
        print(json.dumps({k: game[k] for k in ("seed", "fps", "design", "true_card_events", "found", "extra", "all_right",
                                                "two_hands", "two_hands_found", "two_hands_false", "false_violations")}),
              flush=True)
    summary = summarise(games)
    summary.update({key: sum(g[key] for g in games) for key in ("two_hands", "two_hands_found", "two_hands_false")})
    write_report(args.out, summary, games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
