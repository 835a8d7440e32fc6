"""Entry point of the `referee` console command.

Each subcommand lives in its own module under referee/cli/ with two functions:
`add_parser(subparsers)` declares its arguments, `run(args) -> int` does the work.
Any RefereeError (or a bad file, or Ctrl-C) becomes one `error: ...` line and a non-zero exit.
"""

from __future__ import annotations

import argparse
import importlib
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


def main(argv: Sequence[str] | None = None) -> int:
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
