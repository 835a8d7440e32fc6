"""`referee calibrate`: Write a calibration from one still frame, video or camera."""

from __future__ import annotations

import argparse

from referee.errors import NotBuiltYet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="Write a calibration from one still frame, video or camera.", description="Write a calibration from one still frame, video or camera.")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise NotBuiltYet("`referee calibrate` is not built yet (calibration, issue 4); see README.md")
