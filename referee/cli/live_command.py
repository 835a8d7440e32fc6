"""`referee live`: referee a game in front of a camera, driving the board."""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

from referee.errors import InputFileError, VideoError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "live", help="Referee a game in front of a camera, driving the board.",
        description="Referee a game in front of a camera (index, device path, or rtsp:// / http:// MJPEG URL), "
                    "announcing rulings on the board. Ctrl-C ends it cleanly; the log keeps every ruling.")
    parser.add_argument("--camera", required=True, metavar="N|PATH|URL", help="camera index (0), device path or stream URL")
    parser.add_argument("--calibration", required=True, metavar="CAL.yaml", help="calibration made on this camera")
    parser.add_argument("--board", default="none", metavar="PORT|sim|none",
                        help="the LED/buzzer board: a serial port, 'sim' (virtual board) or 'none' (default)")
    parser.add_argument("--record", metavar="FILE", help="also record the video (with true timestamps) for later replay")
    parser.add_argument("--events", default="live_events.jsonl", metavar="OUT.jsonl",
                        help="where to write the event log (default: live_events.jsonl)")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds (default: until Ctrl-C or the stream ends)")
    parser.add_argument("--models", metavar="DIR", help="recognition models folder (default: the shipped models/)")
    parser.add_argument("--reconnect", type=float, default=10.0, metavar="S",
                        help="how long to keep trying a camera or stream that stopped sending before stopping "
                             "(default: 10 s; 0 stops at once); the game is refereed on when it comes back")
    parser.add_argument("--fps", type=float, metavar="F",
                        help="the camera's frame rate (default: measured from its first frames; what a camera or stream "
                             "reports can be wrong, and OpenCV reports 25 for every MJPEG stream)")
    parser.set_defaults(handler=run)


def _blind_and_back(board, camera: str, reconnect: float):
    """What `referee live` does as the camera stops sending and as its pictures come back: the board shows the
    players that the referee is blind, and the terminal says so."""
    def lost() -> None:
        board.camera_lost()
        print(f"warning: camera {camera} stopped sending; opening it again for up to {reconnect:g} s (the board shows "
              "the referee is blind)", file=sys.stderr, flush=True)

    def back() -> None:
        board.camera_back()
        print(f"camera {camera} is sending again; the table is taken up as it is now", file=sys.stderr, flush=True)

    return lost, back


def run(args: argparse.Namespace) -> int:
    from referee.capture import KeepUp, Recorder, open_live_source
    from referee.capture.addresses import shown
    from referee.pipeline.board_link import open_board_link
    from referee.pipeline.drift_watch import DriftWatch
    from referee.pipeline.calibration_input import load_calibration
    from referee.pipeline.run import build_session, load_namer
    from referee.report.page import describe
    from referee.rules.events import EventLogWriter

    events_path = pathlib.Path(args.events)
    if not events_path.parent.exists():
        raise InputFileError(f"cannot write {events_path}: folder {events_path.parent} does not exist; create it first")
    if args.seconds is not None and args.seconds <= 0:
        raise InputFileError(f"--seconds must be positive, got {args.seconds}")
    if args.fps is not None and not 1 <= args.fps <= 240:
        raise InputFileError(f"--fps must be between 1 and 240, got {args.fps:g}")
    if args.reconnect < 0:
        raise InputFileError(f"--reconnect must be 0 or more seconds, got {args.reconnect:g}")
    camera = open_live_source(args.camera, fps=args.fps, reconnect=args.reconnect)
    try:  # every frame the camera gives is recorded (on the reading thread), those skipped to keep up too
        recorder = Recorder(args.record, fps=camera.fps) if args.record else None
    except BaseException:
        camera.close()
        raise
    source = KeepUp(camera, on_frame=recorder.write if recorder is not None else None)
    frames = source.frames()
    writer = board = session = None
    count = 0
    stopped_by = "the stream ended"
    try:
        first = next(frames, None)
        if first is None:
            raise VideoError(f"camera {shown(args.camera)} gave no picture; check it is connected and not in use")
        height, width = first.image.shape[:2]
        fps = source.settled_fps()  # measured from the first frames, which queue meanwhile
        calibration = load_calibration(args.calibration, image_size=(width, height), fps=fps)
        # loaded once frames flow: each frame is stamped as it arrives, and frames left waiting in the
        # camera's or the network's buffer would arrive in a burst, stamped too close together
        namer = load_namer(args.models)
        board = open_board_link(args.board)
        camera.on_lost, camera.on_back = _blind_and_back(board, shown(args.camera), args.reconnect)
        session = build_session(calibration, fps=fps, image_size=(width, height), namer=namer, writer=None,
                                board=board, on_event=lambda event: print(f"{event.t:8.3f}  {describe(event)}", flush=True), live=True)
        writer = EventLogWriter(str(events_path))
        session.writer = writer
        drift_watch = DriftWatch(calibration)
        print(f"refereeing camera {shown(args.camera)} ({width}x{height} at {fps:.0f} fps); Ctrl-C to stop", file=sys.stderr)
        started = time.monotonic()
        seen_notices = 0
        frame = first
        while frame is not None:
            fresh = source.notices[seen_notices:]
            seen_notices = len(source.notices)
            markers = drift_watch.check(frame)  # a calibration for another setup, or the camera knocked
            if markers is not None:
                print(f"warning: {markers.message}", file=sys.stderr)
                fresh = [*fresh, markers]
            session.process(frame, fresh)
            count += 1
            if args.seconds is not None and time.monotonic() - started >= args.seconds:
                stopped_by = f"{args.seconds:g} s elapsed"
                break
            frame = next(frames, None)
    except KeyboardInterrupt:
        stopped_by = "Ctrl-C"
    finally:
        if session is not None:
            for notice in source.notices[seen_notices if session else 0:]:
                session._hold(notice.t, notice)
            try:
                session.finish()
            except KeyboardInterrupt:
                pass
        source.close()
        for closable in (writer, recorder, board):
            if closable is not None:
                closable.close()
    stats = session.stats
    ruling = sorted(stats.ruling_latency_ms) or [0.0]
    print(f"stopped ({stopped_by}) after {count} frames: {stats.events} events -> {events_path}; "
          f"{source.skipped_total} frames skipped to keep up; ruling frames {ruling[len(ruling) // 2]:.1f} ms median, "
          f"{ruling[int(0.95 * (len(ruling) - 1))]:.1f} ms at the 95th percentile, slowest {ruling[-1]:.1f} ms", file=sys.stderr)
    return 0
