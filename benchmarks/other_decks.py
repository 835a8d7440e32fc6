"""Games in decks no model ever saw: `python -m benchmarks.other_decks [--keep DIR] [--models DIR] [--quick] [--public]`.

The models train on twenty decks and are judged, everywhere else, on two they never saw (`hershey`,
`svg:dondorf`), which is where every choice between models has been made since. A deck brought to the table
is neither. These games are dealt in KDE's decks (Debian's `kdegames-card-data-kf5`, `svg_decks.OTHER_DECKS`):
art no model trained on and no choice was made on. Otherwise they are dealt as `all_at_once` deals its own
(`all_at_once.fresh_games`): players racing, cameras tilted 20-35 degrees from any side, hands in parallax, a
change of light, H.264, and clips cut from each game that open mid-game. Scores per deck and in all go to
stdout and to benchmarks/results/other_decks.json.

`--public` deals six games on seeds of their own in the free decks kept in this repository instead
(`svg_decks.FILE_DECKS`: Adrian Kennard's CC0 cards, the free deck art most used, so likely art for a table
the referee never saw); results to benchmarks/results/other_decks_public.json.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from benchmarks.all_at_once import fresh_games, game_arguments, referee_games
from benchmarks.referee_accuracy import summarise, write_report

#: Seeds used nowhere else: each deck deals three games in turn (the decks of `faces.OTHER_DESIGNS`).
SEEDS = list(range(401, 410))
#: ... and for `--public` (the decks of `faces.PUBLIC_DESIGNS`)
PUBLIC_SEEDS = list(range(411, 417))
RESULTS = pathlib.Path(__file__).parent / "results"


def main() -> int:
    from referee.synth.faces import OTHER_DESIGNS, PUBLIC_DESIGNS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_arguments(parser, quick="the first game (24 s) and its clips")
    parser.add_argument("--public", action="store_true", help="deal in the free decks kept in this repository (Kennard's), not KDE's")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="results file (default: benchmarks/results/other_decks[_public].json)")
    args = parser.parse_args()
    designs, seeds = (PUBLIC_DESIGNS, PUBLIC_SEEDS) if args.public else (OTHER_DESIGNS, SEEDS)
    if not designs:
        print("error: " + ("the repository's decks cannot be drawn here (librsvg and cairo are needed)" if args.public else
                           "KDE's card decks are not installed (apt-get install kdegames-card-data-kf5)"), file=sys.stderr)
        return 2
    out = args.out or RESULTS / ("other_decks_public.json" if args.public else "other_decks.json")
    chosen = fresh_games(seeds[:1] if args.quick else seeds, designs)
    games, clips = referee_games(chosen, args.keep, args.models)
    summary = {"games": summarise(games), "clips": summarise(clips),
               "per_deck": {design: {"games": summarise([game for game in games if game["design"] == design]),
                                     "clips": summarise([clip for clip in clips if clip["design"] == design])}
                            for design in sorted({game["design"] for game in games})}}
    write_report(out, summary, games, clips=clips)
    print(json.dumps({deck: {kind: {key: scores[kind][key] for key in ("true_card_events", "recall", "all_right", "touch_error_median_frames")}
                             for kind in ("games", "clips")} for deck, scores in summary["per_deck"].items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
