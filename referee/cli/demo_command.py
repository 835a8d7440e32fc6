"""`referee demo`: Run the whole referee on a built-in game, no camera or board."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="Run the whole referee on a built-in game, no camera or board.", description="Run the whole referee on a built-in game, no camera or board.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee demo` is not built yet (the demo, issue 6); see README.md")
