"""Putting the referee together for a video, a camera, or the demo."""

from __future__ import annotations

import contextlib
import pathlib
import sys
import time
from dataclasses import dataclass
from typing import Callable, Iterator

import cv2

from referee.capture.frames import Frame
from referee.capture.video_file import VideoFileSource
from referee.pipeline.ahead import ahead
from referee.pipeline.calibration_input import load_calibration
from referee.pipeline.drift_watch import DriftWatch
from referee.pipeline.session import RefereeSession
from referee.piles.reading import TopCardNamer
from referee.piles.table_view import TableView
from referee.piles.tracker import TableTracker
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.events import EventLogWriter

#: Resolution of the tracking view (px per mm). 0.5 keeps a card 31x44 px: enough to follow hands and
#: outlines, and cheap enough for 10x real time. Raise it for finer touch timing at a cost in speed.
TRACKING_PX_PER_MM = 0.5


def load_namer(models_dir: str | None = None) -> TopCardNamer:
    from referee.vision import load_recogniser

    return load_recogniser(models_dir)


def rules_config_for(fps: float) -> RulesConfig:
    """Touches closer than about half a frame cannot be ordered by the camera; the engine says so."""
    return RulesConfig(touch_too_close_ms=round(500.0 / fps, 1), on_impossible="raise")


def build_session(calibration, *, fps: float, image_size: tuple[int, int], namer: TopCardNamer,
                  writer: EventLogWriter | None, board=None, on_event=None, on_frame=None, live: bool = False) -> RefereeSession:
    """`live`: rule as soon as can be (work that may be needed is started ahead), rather than with the
    least work (a replay); the rulings are the same."""
    view = TableView(calibration, calibration.area_mm, TRACKING_PX_PER_MM, image_size)
    tracker = TableTracker(view, namer, fps=fps, read_ahead=live)
    engine = RulesEngine(rules_config_for(fps))
    return RefereeSession(tracker, engine, writer, board=board, on_event=on_event, on_frame=on_frame)


@dataclass
class ReplayResult:
    frames: int
    events: int
    video_seconds: float
    processing_seconds: float
    notices: list
    session: RefereeSession

    @property
    def speed(self) -> float:
        return self.video_seconds / self.processing_seconds if self.processing_seconds else float("inf")


def replay(video: str | pathlib.Path, calibration_path: str | pathlib.Path, events_path: str | pathlib.Path, *,
           namer: TopCardNamer | None = None, models: str | None = None, progress: Callable[[int, int], None] | None = None,
           on_frame: Callable[[Frame, RefereeSession], None] | None = None,
           warn: Callable[[str], None] | None = None) -> ReplayResult:
    with opencv_threads(1):
        return _replay(video, calibration_path, events_path, namer=namer, models=models, progress=progress,
                       on_frame=on_frame, warn=warn)


@contextlib.contextmanager
def opencv_threads(count: int) -> Iterator[None]:
    """OpenCV's own worker threads limited to `count` for a while. A replay already keeps both cores
    busy with a thread per stage (decoding, the view from above, the tracking, the models'
    runtime); OpenCV splitting each small image operation across them as well only adds switching
    (measured on a 45 s game on 2 cores: 19.2-19.5 s of CPU with OpenCV's default of two threads,
    17.7 s with one, 3.8 -> 3.9x real time). The rulings do not depend on it."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(count)
    try:
        yield
    finally:
        cv2.setNumThreads(before)


def _warning_to_stderr(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _replay(video, calibration_path, events_path, *, namer, models, progress, on_frame, warn) -> ReplayResult:
    warn = warn if warn is not None else _warning_to_stderr
    source = VideoFileSource(video, warn=warn)
    calibration = load_calibration(calibration_path, image_size=(source.width, source.height), fps=source.fps)
    namer = namer if namer is not None else load_namer(models)
    started = time.perf_counter()
    last_t = 0.0
    seen_notices = 0
    session = build_session(calibration, fps=source.fps, image_size=(source.width, source.height), namer=namer,
                            writer=None, on_frame=on_frame)
    # the markers, looked at every few seconds of video: a calibration made for another setup, or the camera
    # knocked during the recording, is said (on stderr and in the log), not silently misjudged
    markers = DriftWatch(calibration)
    said: list = []
    with EventLogWriter(str(events_path)) as writer:
        session.writer = writer
        count = 0
        # decoding and the view from above run ahead on a helper thread; each frame comes with how many
        # notices its source had raised by then, so the rulings are the same whatever the threads' pace
        seen_ahead = ((frame, session.tracker.look(frame.image), len(source.notices)) for frame in source.frames())
        for frame, look, notices_by_then in ahead(seen_ahead):
            fresh = source.notices[seen_notices:notices_by_then]
            seen_notices = notices_by_then
            off = markers.check(frame)
            if off is not None:
                warn(off.message)
                said.append(off)
                fresh = [*fresh, off]
            session.process(frame, fresh, look)
            count += 1
            last_t = frame.t
            if progress is not None:
                progress(count, source.frame_count)
        for notice in source.notices[seen_notices:]:
            session._hold(notice.t, notice)
        session.finish()
    elapsed = time.perf_counter() - started
    return ReplayResult(count, session.stats.events, last_t + 1.0 / source.fps, elapsed, sorted(source.notices + said, key=lambda n: n.t), session)


def progress_bar(stream=sys.stderr) -> Callable[[int, int], None]:
    """A one-line progress bar, redrawn in place, only when `stream` is a terminal."""
    if not stream.isatty():
        return lambda done, total: None
    last = [0.0]

    def draw(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 0.1 and done != total:
            return
        last[0] = now
        if total:
            filled = int(30 * min(done, total) / total)
            stream.write(f"\rrefereeing [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} frames")
        else:
            stream.write(f"\rrefereeing {done} frames")
        if done >= total:
            stream.write("\n")
        stream.flush()
    return draw
