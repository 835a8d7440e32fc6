"""Entry point of the `referee` console command.

Each subcommand lives in its own module under referee/cli/ with two functions:
`add_parser(subparsers)` declares its arguments, `run(args) -> int` does the work.
Any RefereeError (or a bad file, or Ctrl-C) becomes one `error: ...` line and a non-zero exit.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from typing import NoReturn, Sequence

from referee import __version__
from referee.errors import RefereeError

COMMANDS = ("calibrate", "replay", "live", "classify", "simulate", "board", "demo")


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse, but a bad command line gives one `error: ...` line (with a hint), not a usage block."""

    def error(self, message: str) -> "NoReturn":
        self.exit(2, f"error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="referee",
        description="A camera referee for the card game Spit (Speed, Slam).",
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"referee.cli.{name}_command")
        module.add_parser(subparsers)
    return parser


def _quiet_native_logging() -> None:
    """OpenCV and FFmpeg print their own warnings (`[ WARN:0@0.7] ... incomplete`, `moov atom not found`)
    before our one-line error; the referee says what went wrong itself, so theirs are silenced."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
    os.environ.setdefault("OPENCV_VIDEOIO_DEBUG", "0")
    try:
        import cv2

        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except (ImportError, AttributeError):
        pass


def _stop_on_sigterm() -> None:
    """`kill` (SIGTERM) ends the referee like Ctrl-C: the log is closed cleanly and the exit says why."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (embedded use): leave signals alone
        pass


def main(argv: Sequence[str] | None = None) -> int:
    _quiet_native_logging()
    _stop_on_sigterm()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None) or not hasattr(args, "handler"):
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return int(args.handler(args) or 0)
    except RefereeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError) as error:
        # Last line of defence: a user never sees a traceback for bad input.
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
