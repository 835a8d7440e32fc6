"""`referee replay`: referee a recorded game from its first frame and write the event log."""

from __future__ import annotations

import argparse
import pathlib
import sys

from referee.errors import InputFileError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help="Referee a recorded game and write the event log.",
        description="Referee a recorded game from its first frame and write the event log (JSON Lines). "
                    "The same video always gives the same log, byte for byte.")
    parser.add_argument("video", help="the recorded game (e.g. video.mp4; a --record FILE keeps its true timestamps beside it)")
    parser.add_argument("--calibration", required=True, metavar="CAL.yaml",
                        help="calibration from `referee calibrate`, or a rendered clip's corners.json")
    parser.add_argument("--events", required=True, metavar="OUT.jsonl", help="where to write the event log")
    parser.add_argument("--report", metavar="DIR", help="also write a dispute report (HTML + PNGs) into DIR")
    parser.add_argument("--models", metavar="DIR", help="recognition models folder (default: the shipped models/)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.pipeline.run import progress_bar, replay
    from referee.report.collect import ReportCollector

    events_path = pathlib.Path(args.events)
    if not events_path.parent.exists():
        raise InputFileError(f"cannot write {events_path}: folder {events_path.parent} does not exist; create it first")
    collector = ReportCollector(args.report) if args.report else None
    result = replay(args.video, args.calibration, events_path,
                    models=args.models,
                    progress=progress_bar(sys.stderr), on_frame=collector.on_frame if collector else None)
    print(f"refereed {result.frames} frames ({result.video_seconds:.1f} s of video) in {result.processing_seconds:.1f} s "
          f"({result.speed:.1f}x real time): {result.events} events -> {events_path}")
    if collector is not None:
        page = collector.write(result.session, video=str(args.video))
        print(f"report: {page}")
    return 0
