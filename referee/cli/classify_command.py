"""`referee classify`: Find and name every card visible in each photo."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("classify", help="Find and name every card visible in each photo.", description="Find and name every card visible in each photo.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee classify` is not built yet (card recognition, issue 5); see README.md")
