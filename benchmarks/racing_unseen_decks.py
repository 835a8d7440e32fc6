"""Players racing, in decks the face classifier never trained on: `python -m benchmarks.racing_unseen_decks [--keep DIR] [--models DIR]`.

The players who bring the referee a game bring their own deck. The face classifier holds two of the
synthetic table's deck designs out of its training (`models.train.FACE_HELD_OUT_DESIGNS`: `hershey`
and `svg:dondorf`); these games are dealt in them, with the players racing for piles as in
`touch_order` (every pile the other hand heads for raced, 60 % of those pairs under a frame apart), on
seeds used nowhere else, and refereed and scored as in `referee_accuracy`. Results go to stdout and to
benchmarks/results/racing_unseen_decks.json.
"""

from __future__ import annotations

import json
import sys

from benchmarks.referee_accuracy import refereed_games, summarise, variant_arguments, write_report
from benchmarks.touch_order import by_gap, render

#: (seed, fps, seconds, deck design): seeds never used while building the referee
GAMES = [(151, 30, 24.0, "hershey"), (152, 30, 24.0, "svg:dondorf"), (153, 60, 16.0, "hershey"),
         (154, 30, 24.0, "svg:dondorf"), (155, 30, 24.0, "hershey"), (156, 60, 16.0, "svg:dondorf")]


def main() -> int:
    args = variant_arguments(__doc__, "racing_unseen_decks", codecs=True)
    designs = {seed: design for seed, *_, design in GAMES}
    games = []
    for game in refereed_games([(seed, fps, seconds) for seed, fps, seconds, _ in GAMES],
                               lambda folder, seed, fps, seconds: render(folder, seed, fps, seconds, designs[seed]),
                               args.models, args.keep, args.codec):
        games.append(game)
        print(json.dumps({key: game[key] for key in ("seed", "fps", "design", "true_card_events", "found", "extra", "all_right")}),
              flush=True)
    summary = summarise(games)
    summary["touch_order_by_gap"] = by_gap([pair for game in games for pair in game["touch_pairs"]])
    write_report(args.out, summary, games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
