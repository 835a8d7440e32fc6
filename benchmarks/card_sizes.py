"""Cards of another size: `python -m benchmarks.card_sizes [--keep DIR] [--models DIR] [--quick] [--poker-too]`.

Every other benchmark deals poker-size cards (63 x 88 mm), the size the referee's nominal pile places and the
recognition models' training scenes assume. Many decks are bridge size (57 x 89 mm), a tenth narrower. These
games are the first six of `all_at_once` (players racing, decks the face classifier never saw, cameras tilted
20-35 degrees, hands in parallax, a change of light, H.264, two clips each opening mid-game), dealt again with
bridge-size cards (`referee simulate --card-size bridge`: each face drawn a tenth narrower); `--poker-too`
referees the same deals at poker size beside them (with `--keep` pointing at `all_at_once`'s kept renders, they
are found there). Scored as `referee_accuracy` scores; results go to stdout and to
benchmarks/results/card_sizes.json.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from benchmarks.all_at_once import GAMES, QUICK_GAMES, game_arguments, games_and_clips, referee_games
from benchmarks.referee_accuracy import write_report

#: The deals: `all_at_once`'s first six (two decks, both frame rates, six changes of light).
SIZED_GAMES = GAMES[:6]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_arguments(parser, quick="one short game and its clips")
    parser.add_argument("--poker-too", action="store_true", help="referee the same deals at poker size as well")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results" / "card_sizes.json")
    args = parser.parse_args()
    chosen = QUICK_GAMES if args.quick else SIZED_GAMES
    summary, rows = {}, {}
    for size in ("bridge", "poker") if args.poker_too else ("bridge",):
        games, clips = referee_games(chosen, args.keep, args.models, card_size=size)
        summary[size] = games_and_clips(games, clips)
        rows[size] = {"games": games, "clips": clips}
        print(json.dumps({size: {part: {key: summary[size][part][key] for key in ("true_card_events", "recall", "all_right")}
                                 for part in ("games", "clips")}}), flush=True)
    write_report(args.out, summary, rows["bridge"]["games"], clips=rows["bridge"]["clips"],
                 **({"poker": rows["poker"]} if "poker" in rows else {}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
