"""`referee replay`: Referee a recorded game and write the event log."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="Referee a recorded game and write the event log.", description="Referee a recorded game and write the event log.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee replay` is not built yet (replay, issue 6); see README.md")
