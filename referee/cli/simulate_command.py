"""`referee simulate`: Render a simulated game with its true event log."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("simulate", help="Render a simulated game with its true event log.", description="Render a simulated game with its true event log.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee simulate` is not built yet (the game simulator, issue 2/3); see README.md")
