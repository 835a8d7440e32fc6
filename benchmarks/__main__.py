"""Runs every benchmark in turn: `python -m benchmarks [--quick] [NAME ...]`.

Each benchmark is its own module (`python -m benchmarks.NAME --help`); this only runs them one after
another, passing `--quick` to those that have a quick mode, and prints which passed or failed.
Figures land on stdout and in benchmarks/results/.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).parent
ORDER = (
    "board_roundtrip",
    "calibration_accuracy",
    "render_speed",
    "vision_speed",
    "vision_rendered",
    "vision_real",
    "pile_tops",
    "turned_tops",
    "referee_accuracy",
    "referee_light",
    "referee_camera",
    "referee_codecs",
    "one_hand",
    "touch_order",
    "racing_unseen_decks",
    "referee_steep",
    "clip_openings",
    "clip_slaps",
    "referee_unseen",
    "other_decks",
    "all_at_once",
    "card_sizes",
)


def _has_quick_mode(name: str) -> bool:
    return '"--quick"' in (HERE / f"{name}.py").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"benchmarks to run (default: all): {', '.join(ORDER)}")
    parser.add_argument("--quick", action="store_true", help="use each benchmark's quick mode where it has one")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in ORDER]
    if unknown:
        parser.error(f"no benchmark {', '.join(unknown)}; choose from {', '.join(ORDER)}")
    failed = []
    for name in args.names or ORDER:
        command = [sys.executable, "-m", f"benchmarks.{name}"]
        if args.quick and _has_quick_mode(name):
            command.append("--quick")
        print(f"== {' '.join(command[1:])}", flush=True)
        started = time.monotonic()
        code = subprocess.call(command, cwd=HERE.parent)
        print(f"== {name}: {'ok' if code == 0 else f'exit {code}'} in {time.monotonic() - started:.0f} s\n", flush=True)
        if code != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
