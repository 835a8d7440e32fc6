"""`referee board`: Talk to the LED/buzzer board (self-test)."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("board", help="Talk to the LED/buzzer board (self-test).", description="Talk to the LED/buzzer board (self-test).")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee board` is not built yet (the board driver, issue 7); see README.md")
