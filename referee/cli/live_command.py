"""`referee live`: Referee a game in front of a camera, driving the board."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("live", help="Referee a game in front of a camera, driving the board.", description="Referee a game in front of a camera, driving the board.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee live` is not built yet (live refereeing, issue 6); see README.md")
