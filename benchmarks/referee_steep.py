"""Steep cameras: `python -m benchmarks.referee_steep [--keep DIR] [--models DIR]`.

A camera on a shelf or a tripod at the table's side looks down at a slant, not from straight above:
the far cards are small and foreshortened, and arms reaching across the table cross each other in the
picture. These games are rendered through cameras tilted 33-35 degrees from straight down (the most the
acceptance checks use), low over the table, from four sides, in decks the recognition models never saw
(hershey, dondorf) and one they did, at 30 and 60 fps, and refereed and scored as in `referee_accuracy`.
Results go to stdout and to benchmarks/results/referee_steep.json.
"""

from __future__ import annotations

import json
import pathlib
import sys

from benchmarks.referee_accuracy import run_game, summarise, variant_arguments, write_report
from benchmarks.rendered import game_folder, render_once

#: (seed, fps, seconds, tilt degrees, heading degrees, height mm, deck design or None for the seed's own):
#: seeds never used while building the referee
GAMES = [
    (91, 30, 20.0, 35.0, 90.0, 800.0, "hershey"),
    (92, 60, 12.0, 34.0, 200.0, 900.0, "svg:dondorf"),
    (93, 30, 20.0, 33.0, 0.0, 750.0, None),
    (94, 60, 12.0, 35.0, 300.0, 1100.0, "hershey"),
]


def render(folder: pathlib.Path, seed: int, fps: int, seconds: float, tilt: float, heading: float, height: float,
           design: str | None) -> None:
    """The game of `seed` seen through the steep camera, rendered into `folder` unless it is there already."""
    from referee.synth.camera import CameraPose, make_camera

    camera = make_camera(CameraPose(height=height, tilt=tilt, heading=heading, roll=1.0, k1=-0.04, k2=0.01))
    render_once(folder, seed, fps, seconds, design, camera=camera, record={"tilt": tilt, "heading": heading, "height": height})


def main() -> int:
    args = variant_arguments(__doc__, "referee_steep")
    games = []
    for seed, fps, seconds, tilt, heading, height, design in GAMES:
        with game_folder(args.keep, f"seed{seed}_{fps}fps_tilt{tilt:g}") as folder:
            render(folder, seed, fps, seconds, tilt, heading, height, design)
            game = run_game(seed, fps, seconds, folder, args.models, use_labels=False)
        game["tilt"] = tilt
        games.append(game)
        stalls = f"{sum(stall['found'] for stall in game['stalls'])} of {len(game['stalls'])}"
        print(json.dumps({**{k: game[k] for k in ("seed", "fps", "tilt", "design", "true_card_events", "found", "extra",
                                                   "all_right")}, "stalls": stalls, "false_stalls": game["false_stalls"]}),
              flush=True)
    write_report(args.out, summarise(games), games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
