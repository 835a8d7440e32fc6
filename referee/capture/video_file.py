"""Frames from a recorded video file, with the container's own timestamps."""

from __future__ import annotations

import json
import pathlib
import queue
import sys
import threading
from typing import Iterator

import cv2

from referee.capture.frames import Frame, Notice
from referee.capture.gaps import GapDetector
from referee.capture.movie_length import movie_seconds
from referee.capture.priority import give_way
from referee.errors import VideoError


def sidecar_path(video: pathlib.Path) -> pathlib.Path:
    """Where `--record` keeps a recording's true capture times: `game.mp4` -> `game.timestamps.jsonl`."""
    return video.with_name(video.stem + ".timestamps.jsonl")


def read_sidecar(path: pathlib.Path) -> list[float] | None:
    """Capture times written by the recorder, one `{"frame": i, "t": s}` per line; None if absent."""
    if not path.exists():
        return None
    times: list[float] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            times.append(float(json.loads(line)["t"]))
        except (ValueError, KeyError, TypeError):
            break  # a half-written last line from a crash: keep what came before
    return times



def read_picture(capture: "cv2.VideoCapture"):
    """The next picture from an OpenCV capture, or None at the end or on a decoding error
    (a damaged file or a dropped stream ends the frames; it never raises)."""
    try:
        ok, image = capture.read()
    except cv2.error:
        return None
    return image if ok and image is not None else None


#: FFmpeg's own decoding threads. Its default (one per core) starts them when the file is opened, on the
#: thread that opens it, so they run at the referee's priority beside the tracking instead of giving way as
#: the decoding thread does (`priority`); one decoder on that thread leaves the cores to the tracking.
#: Measured on `all_at_once`'s sixteen 30 fps H.264 games, each replayed both ways back to back in two rounds on a
#: 2-core AMD EPYC host: 6.45x -> 6.95x real time (mean), 7.8 % faster at the median of the pairs; H.264 decodes to
#: the same pixels either way (every log byte for byte).
DECODER_THREADS = 1

#: Frames decoded ahead of the referee. Decoding runs in its own thread (OpenCV releases the GIL), so
#: on two cores it overlaps the tracking instead of adding to it. The tracking's cost per frame is uneven
#: (a frame that settles a pile reads its card: a few ms more), and a deep queue lets the decoding run on
#: through those frames instead of waiting for room: with 32 here and `ahead.DEPTH` 16 (8 and 4 before),
#: `all_at_once`'s sixteen H.264 games replayed 4 % faster, run for run, in two rounds (session 63, 2
#: cores; 16 and 8: 2 %; deeper still: nothing more). Each frame held is 2.7 MB at 720p, 6.2 MB at 1080p:
#: the two queues hold about 110 MB more than before at 720p (peak 271 -> 378 MB replaying a 60 fps game),
#: in a replay only (a live source reads its latest picture).
READ_AHEAD = 32


def read_ahead(capture: "cv2.VideoCapture", depth: int = READ_AHEAD) -> Iterator[tuple[object, float]]:
    """(picture, position ms) pairs in order, decoded by a helper thread; stops at the end or at an error."""
    pictures: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def decode() -> None:
        give_way()  # the tracking of the frames decoded already comes first (see `priority`)
        while not stop.is_set():
            image = read_picture(capture)
            item = None if image is None else (image, capture.get(cv2.CAP_PROP_POS_MSEC))
            while not stop.is_set():
                try:
                    pictures.put(item, timeout=0.1)
                    break
                except queue.Full:
                    continue
            if item is None:
                return

    worker = threading.Thread(target=decode, name="video-decode", daemon=True)
    worker.start()
    try:
        while True:
            item = pictures.get()
            if item is None:
                return
            yield item
    finally:
        stop.set()
        worker.join(timeout=2.0)


class VideoFileSource:
    """Reads a video file to its end. A truncated or corrupt tail ends the footage with one warning.

    Timestamps come from the recorder's sidecar file when there is one (true capture times of a
    live recording), otherwise from the container (CAP_PROP_POS_MSEC of each decoded frame).
    """

    def __init__(self, path: str | pathlib.Path, *, warn=None) -> None:
        self.path = pathlib.Path(path)
        if not self.path.is_file():
            raise VideoError(f"video {self.path} not found: give the path of a recorded game (e.g. video.mp4)")
        self._capture = cv2.VideoCapture(str(self.path), cv2.CAP_FFMPEG, [cv2.CAP_PROP_N_THREADS, DECODER_THREADS])
        if not self._capture.isOpened():
            raise VideoError(f"cannot open video {self.path}: not a video OpenCV/FFmpeg can read "
                             "(truncated before its header, or not a video at all); re-record or re-export it")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and 1.0 <= fps <= 1000.0 else 30.0
        self.sidecar = read_sidecar(sidecar_path(self.path))
        #: how long the file plays (s), where its container says so (MP4, MOV) and no sidecar gives the
        #: frames' own times: a clip cut without re-encoding hides frames OpenCV's count includes
        self.seconds = movie_seconds(self.path) if self.sidecar is None else None
        counted = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.frame_count = int(round(self.seconds * self.fps)) if self.seconds is not None else counted
        self.width = int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        self.height = int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self.notices: list[Notice] = []
        self._warn = warn if warn is not None else (lambda message: print(f"warning: {message}", file=sys.stderr))

    def frames(self) -> Iterator[Frame]:
        gaps = GapDetector(self.fps)
        index = 0
        last_t = 0.0
        first_ms: float | None = None
        for image, position_ms in read_ahead(self._capture):
            if self.sidecar is not None and index < len(self.sidecar):
                t = self.sidecar[index] - self.sidecar[0]
            else:
                if first_ms is None:
                    first_ms = position_ms
                t = (position_ms - first_ms) / 1000.0
                if index and t <= last_t:  # a container without usable times: fall back to the nominal rate
                    t = index / self.fps
            notice = gaps.check(index, t)
            if notice is not None:
                self.notices.append(notice)
            last_t = t
            yield Frame(index, t, image)
            index += 1
        self._capture.release()
        # frames short of the end: by time where the container gives the length (a gap in the frames is said
        # as dropped frames already), else by count
        if self.seconds is None or not index:
            missing = self.frame_count - index
        else:  # the last frame's place in the file, counted from the file's start as its length is
            missing = int(round((self.seconds - last_t - (first_ms or 0.0) / 1000.0) * self.fps)) - 1
        if self.frame_count and missing > 1:
            message = (f"{self.path.name} ended after {index} of {self.frame_count} frames "
                       f"(t={last_t:.2f}s): the file is truncated or damaged; refereed what was readable")
            self.notices.append(Notice("truncated", last_t, max(index - 1, 0), message, missing))
            self._warn(message)

    def close(self) -> None:
        self._capture.release()
