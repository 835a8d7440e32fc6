"""`referee demo`: the whole referee on a built-in rendered game, no camera, no board."""

from __future__ import annotations

import argparse
import pathlib
import sys
import time


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="Run the whole referee on a built-in game, no camera or board.",
        description="Referee the built-in rendered game (14 s: opening spit, plays, a close touch, an illegal card, "
                    "a stall and the re-spit), print its rulings beside the truth, and write the dispute report.")
    parser.add_argument("--out", default="demo_output", metavar="DIR",
                        help="where to write the event log and the report (default: ./demo_output)")
    parser.add_argument("--board", default="none", metavar="sim|none", help="show the rulings on the virtual board too")
    parser.add_argument("--models", metavar="DIR", help="recognition models folder (default: the shipped models/)")
    parser.add_argument("--namer", choices=("models", "labels"), default="models",
                        help="who names the cards: the recognition models (default, the real referee) or the clip's "
                             "own labels (to watch tracking, touch timing and rules apart from recognition)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.demo import CLIP
    from referee.errors import InputFileError, ModelError
    from referee.pipeline.calibration_input import load_calibration
    from referee.pipeline.label_namer import LabelNamer
    from referee.pipeline.run import load_namer, progress_bar, replay
    from referee.report.collect import ReportCollector
    from referee.report.compare import compare, side_by_side
    from referee.rules.events import read_event_log

    video = CLIP / "video.mp4"
    if not video.exists():
        raise InputFileError(f"the demo clip {video} is missing: rebuild it with `python -m referee.demo.build`")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    def label_namer() -> LabelNamer:
        import cv2

        capture = cv2.VideoCapture(str(video))
        size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        capture.release()
        return LabelNamer(CLIP / "labels.json.gz", load_calibration(CLIP / "corners.json", image_size=size))

    if args.namer == "labels":
        namer = label_namer()
        naming = ("cards named from the clip's own labels, as asked; everything else (tracking, touch timing, "
                  "rules, report) runs for real")
    else:
        try:
            namer = load_namer(args.models)
            naming = "cards named by the recognition models"
        except ModelError as error:
            namer = label_namer()
            naming = (f"recognition models not available ({error}); cards are named from the clip's own labels, "
                      "everything else (tracking, touch timing, rules, report) runs for real")
    print(f"demo: refereeing the built-in game {video} ({naming})", file=sys.stderr)
    collector = ReportCollector(out / "report")
    board = None
    if args.board != "none":
        from referee.pipeline.board_link import open_board_link

        board = open_board_link(args.board)
    started = time.perf_counter()
    result = replay(video, CLIP / "corners.json", out / "events.jsonl", namer=namer, progress=progress_bar(sys.stderr),
                    on_frame=collector.on_frame)
    if board is not None:
        from referee.pipeline.board_link import announce

        for event in result.session.events:
            announce(board, event)
        print(f"board: {board.status()}", file=sys.stderr)
        board.close()
    page = collector.write(result.session, video=str(video))
    truth = read_event_log(str(CLIP / "truth.jsonl"))
    found = read_event_log(str(out / "events.jsonl"))
    print("\n".join(side_by_side(truth, found)))
    comparison = compare(truth, found)
    errors = sorted(comparison.time_errors())
    median_ms = 1000 * errors[len(errors) // 2] if errors else float("nan")
    print(f"\ncards on spit piles: found {len(comparison.pairs)} of {len(comparison.pairs) + len(comparison.missed)} "
          f"(recall {comparison.recall:.0%}, precision {comparison.precision:.0%}); player/card/legality right on "
          f"{comparison.all_right:.0%} of those found; median touch-time error {median_ms:.0f} ms")
    print(f"refereed {result.video_seconds:.1f} s of video in {time.perf_counter() - started:.1f} s; "
          f"event log: {out / 'events.jsonl'}; report: {page}")
    if args.namer == "models" and comparison.recall < 0.5:
        print("\nthe shipped recognition models are still undertrained (README: Card recognition) and named few of "
              "these cards; `referee demo --namer labels` shows the tracker, touch timing and rules with the cards "
              "named from the clip's own labels")
    return 0
