"""How fast the synthetic table renders: a simulated game's first S seconds, at a size and frame rate.

    .venv/bin/python benchmarks/render_speed.py --seconds 60 --size 720p --fps 30 --workers 2

Prints frames, wall time, frames per second and the ratio to real time. Target: a 60 s 720p30 game in
under 2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import pathlib
import tempfile
import time

from referee.synth.render import render_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--size", default="720p")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--example", action="store_true", help="render the renderer's own small example game instead of simulate_game")
    args = parser.parse_args()
    if args.example:
        from referee.synth.example_script import example_script
        script = example_script(args.seed, max(args.seconds, 6.0))
    else:
        from referee.sim.game import simulate_game
        script = simulate_game(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        result = render_game(script, pathlib.Path(folder), fps=args.fps, size=args.size, seconds=args.seconds, seed=args.seed, workers=args.workers)
        wall = time.perf_counter() - started
        video_mb = result.video.stat().st_size / 1e6
    seconds = result.frames / result.fps
    print(f"{result.frames} frames ({seconds:.1f} s of {args.size}{args.fps}, design {result.design}, codec {result.codec}) "
          f"in {wall:.1f} s wall with {args.workers} worker(s): {result.frames / wall:.1f} frames/s, "
          f"{wall / seconds:.2f} x real time; video {video_mb:.1f} MB")


if __name__ == "__main__":
    main()
