"""Live frame sources: a camera (index or device path) and a network stream (RTSP, HTTP MJPEG).

Live frames are stamped with the monotonic clock when they arrive, except an RTSP stream's, which carry
the camera's own capture times (`stream_clock`): its pictures arrive in bursts. RTSP is asked for over
TCP (RTSP_OPTIONS). `KeepUp` wraps a live source so that a slow moment of the referee costs no frames,
and a referee slower than the camera skips frames (and says so) rather than falling ever further behind
the table.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
from typing import Callable, Iterator

import cv2
import numpy as np

from referee.capture.addresses import shown
from referee.capture.frames import Frame, Notice
from referee.capture.gaps import GapDetector
from referee.capture.mjpeg import read_mjpeg_jpegs
from referee.capture.stream_clock import StreamClock
from referee.capture.priority import give_way
from referee.capture.video_file import DECODER_THREADS, read_picture
from referee.errors import VideoError


def _stderr_warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


#: Frames whose arrival times measure a live source's frame rate before any gap is judged.
RATE_FRAMES = 12
#: A measured frame rate this far (a share) from the one the source reports replaces it: OpenCV reports
#: 25 fps for every MJPEG stream, and a webcam in dim light may deliver half what it reports.
RATE_MISMATCH = 0.15


#: How long (s) a live source that stopped sending is tried again before the referee stops: a phone's
#: camera app or an IP camera on Wi-Fi drops its connection now and then (a hiccup of the link, the app
#: sent to the background, the camera restarting), and a game should not end there. `referee live
#: --reconnect S` sets it; 0 stops at once.
RECONNECT_SECONDS = 10.0
#: Pause (s) between tries to open a source again.
RETRY_SECONDS = 0.5


class _ClockedSource:
    """Shared loop: time each picture (by the stream's own clock where it has one, else by the monotonic
    clock as it arrives), number it, check for gaps; open the source again when it stops sending.

    Unless the frame rate was given, the first RATE_FRAMES arrivals measure it, and a rate
    far from the one reported replaces it; `rate_settled` is set once `fps` is final.

    A source that stops sending is opened again every RETRY_SECONDS for up to `reconnect_seconds`
    (`_reopen`). The frames go on, numbered on from the last and timed on from it by how long no picture
    came, and a `reconnect` notice says how long that was: what happened on the table meanwhile was not
    seen. Otherwise the frames end with an `ended` notice."""

    description: str
    #: the source times its pictures by its own clock (`_pictures` gives stamps): how soon they are read does
    #: not move their times, so its reading gives way to the referee's tracking (`priority`)
    stamped: bool = False

    def __init__(self, fps: float | None, reported: float, reconnect: float) -> None:
        """`fps`: the rate given (kept), else `reported` until the first frames have measured it;
        `reconnect`: how long (s) to try the source again should it stop sending."""
        self.fps = float(fps or reported)
        self.reconnect_seconds = float(reconnect)
        #: called (on the reading thread) as the source stops sending and is to be opened again, and as its
        #: pictures come back: `referee live` shows the players on the board that the referee is blind
        self.on_lost: Callable[[], None] | None = None
        self.on_back: Callable[[], None] | None = None
        self.notices: list[Notice] = []
        self.rate_settled = threading.Event()
        self._closing = threading.Event()
        self._gaps: GapDetector | None = None  # once the frame rate is settled
        self._arrivals: list[float] = []  # the first frames' times, which measure it
        if fps:
            self.rate_settled.set()

    def _pictures(self) -> Iterator[tuple[np.ndarray, float | None]]:
        """Each picture with its time on the stream's own clock (s), or None where the stream has none."""
        raise NotImplementedError

    def _reopen(self) -> bool:
        """Opens the source again after it stopped sending; whether it could."""
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self._closing.set()
        self._release()

    def _measure_rate(self, arrivals: list[float]) -> None:
        gaps = sorted(later - earlier for earlier, later in zip(arrivals, arrivals[1:]))
        typical = gaps[len(gaps) // 2] if gaps else 0.0
        if typical > 0 and abs(1.0 / typical - self.fps) > RATE_MISMATCH * self.fps:
            self.fps = round(1.0 / typical, 2)
        self.rate_settled.set()

    def _opened_again(self) -> bool:
        """Tries `_reopen` every RETRY_SECONDS for up to `reconnect_seconds`, unless closed meanwhile."""
        given_up_at = time.monotonic() + self.reconnect_seconds
        while not self._closing.is_set() and time.monotonic() < given_up_at:
            if self._closing.wait(RETRY_SECONDS):
                return False
            try:
                if self._reopen():
                    return True
            except Exception:  # noqa: BLE001 - not opened this time (refused, a garbled answer...): tried again
                pass
        return False

    def _tell(self, hook: Callable[[], None] | None) -> None:
        """Calls `on_lost` or `on_back`; a failing one (a board closed meanwhile) is not the camera's concern."""
        if hook is not None:
            try:
                hook()
            except Exception as error:  # noqa: BLE001 - the pictures matter more than the announcement
                _stderr_warn(f"could not announce the camera's state: {error}")

    def _back(self, lost: float, index: int, t: float) -> Notice:
        """The `reconnect` notice for frame `index` at `t`, the first after the source stopped sending at `lost`."""
        return Notice("reconnect", lost, index - 1,
                      f"{self.description} stopped sending after frame {index - 1} (t={lost:.2f}s); opened again, "
                      f"pictures back after {t - lost:.1f} s: what happened meanwhile was not seen",
                      max(1, round((t - lost) * self.fps) - 1))

    def frames(self) -> Iterator[Frame]:
        if self.stamped:
            give_way()  # (on the thread that reads the pictures: `KeepUp`'s)
        self._gaps = GapDetector(self.fps) if self.rate_settled.is_set() else None
        self._arrivals = []
        start: float | None = None
        index = -1
        t = 0.0
        arrived = 0.0  # when the last picture came (s from the first)
        lost: float | None = None  # when the source stopped sending, while it is opened again
        size: tuple[int, ...] | None = None  # the pictures' size, which the calibration was made for
        ended = None
        try:
            while ended is None:
                clock = StreamClock(self.fps)  # each connection's stamps start afresh
                opened_at = 0.0  # the time of a connection's first frame
                for number, (image, stamp) in enumerate(self._pictures()):
                    now = time.monotonic()
                    if start is None:
                        start, size = now, image.shape
                    if image.shape != size:
                        ended = (f"{self.description} now sends {image.shape[1]}x{image.shape[0]} pictures, not the "
                                 f"{size[1]}x{size[0]} it began with, which the calibration is for; stopped after frame "
                                 f"{index} (t={t:.2f}s): calibrate it at its new size and start again")
                        break
                    if number == 0 and index >= 0:  # on from the last frame by how long no picture came
                        opened_at = t + (now - start - arrived)
                    arrived = now - start
                    t = arrived if stamp is None else opened_at + clock.time(stamp, arrived - opened_at)
                    index += 1
                    if lost is not None:
                        self.notices.append(self._back(lost, index, t))
                        lost = None
                        self._tell(self.on_back)
                    self._check_gap(index, t, after_reconnect=number == 0 and index > 0)
                    yield Frame(index, t, image)
                if ended is not None or index < 0 or self.reconnect_seconds <= 0:
                    break
                self._tell(self.on_lost)
                if not self._opened_again():
                    break
                lost = t
        finally:
            self.rate_settled.set()
        self.notices.append(Notice("ended", t, max(index, 0), ended or f"{self.description} stopped sending pictures "
                                   f"after frame {index} (t={t:.2f}s)"))

    def _check_gap(self, index: int, t: float, *, after_reconnect: bool) -> None:
        """The gap before frame `index`, said as a notice where frames were dropped or the stream stalled (not
        after a reconnection, said as that); the first RATE_FRAMES times measure the frame rate first."""
        if self._gaps is None:
            self._arrivals.append(t)
            if len(self._arrivals) >= RATE_FRAMES:
                self._measure_rate(self._arrivals)
                self._gaps = GapDetector(self.fps)
                self._gaps.check(index, t)
            return
        notice = self._gaps.check(index, t)
        if notice is not None and not after_reconnect:
            self.notices.append(notice)


class OpenCvLiveSource(_ClockedSource):
    """A camera index (`0`), a device path (`/dev/video2`) or a stream URL opened by OpenCV."""

    def __init__(self, spec: str | int, *, fps: float | None = None, reconnect: float = RECONNECT_SECONDS) -> None:
        self.description = f"camera {shown(spec)}"
        if isinstance(spec, str) and spec.isdigit():
            spec = int(spec)
        self._spec = spec
        #: the stream stamps its pictures with the camera's clock (RTSP): frames are timed by it
        self.stamped = is_rtsp(spec)
        self._capture = self._open()
        if not self._capture.isOpened():
            raise VideoError(f"cannot open camera {shown(spec)}: no such camera or stream; "
                             "give a camera index (0), a device path (/dev/video0) or an rtsp:// / http:// URL")
        reported = self._capture.get(cv2.CAP_PROP_FPS)
        super().__init__(fps, reported if reported and 1 <= reported <= 240 else 30.0, reconnect)

    def _open(self) -> "cv2.VideoCapture":
        return open_capture(self._spec)

    def _pictures(self) -> Iterator[tuple[np.ndarray, float | None]]:
        while True:
            image = read_picture(self._capture)
            if image is None:
                return
            yield image, (self._capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0 if self.stamped else None)

    def _reopen(self) -> bool:
        self._capture.release()
        self._capture = self._open()
        return self._capture.isOpened()

    def _release(self) -> None:
        self._capture.release()


class MjpegHttpSource(_ClockedSource):
    """HTTP MJPEG read by the pure-Python reader (the fallback when OpenCV cannot open the URL)."""

    def __init__(self, url: str, *, fps: float | None = None, timeout: float = 5.0,
                 reconnect: float = RECONNECT_SECONDS) -> None:
        self.description = f"stream {shown(url)}"
        self.url = url
        self._timeout = timeout
        super().__init__(fps, 30.0, reconnect)
        if not self._connect():
            raise VideoError(f"stream {shown(url)} closed before sending a picture; check the camera is streaming")

    def _connect(self) -> bool:
        """Opens the stream and reads its first picture; whether it sent one."""
        self._jpegs = read_mjpeg_jpegs(self.url, timeout=self._timeout)
        try:
            self._first = next(self._jpegs)
        except StopIteration:
            return False
        return True

    def _pictures(self) -> Iterator[tuple[np.ndarray, float | None]]:
        pending = [self._first]
        for jpeg in _chain(pending, self._jpegs):
            image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
            if image is not None:
                yield image, None

    def _reopen(self) -> bool:
        self._jpegs.close()
        return self._connect()

    def _release(self) -> None:
        self._jpegs.close()


#: FFmpeg's options for an RTSP camera, unless OPENCV_FFMPEG_CAPTURE_OPTIONS gives others: RTP over the
#: RTSP connection (TCP), as over a lossy Wi-Fi link UDP loses packets and smears pictures (a card's
#: corner is what names it), and an unreachable camera given up after 5 s (microseconds) rather than
#: waited on for good.
RTSP_OPTIONS = "rtsp_transport;tcp|timeout;5000000"


def is_rtsp(spec: str | int) -> bool:
    return isinstance(spec, str) and spec.lower().startswith(("rtsp://", "rtsps://"))


def open_capture(spec: str | int) -> "cv2.VideoCapture":
    """OpenCV's reader of a camera index, a device path or a stream URL (an RTSP one by `open_rtsp`), as
    `referee live` and `referee calibrate` open them; not checked for being open."""
    if is_rtsp(spec):
        return open_rtsp(spec)
    return cv2.VideoCapture(spec, cv2.CAP_FFMPEG if isinstance(spec, str) and "://" in spec else cv2.CAP_ANY)


def open_rtsp(url: str) -> "cv2.VideoCapture":
    """An RTSP stream opened by OpenCV's FFmpeg with RTSP_OPTIONS (read from the environment at opening)."""
    chosen = os.environ.get("OPENCV_FFMPEG_CAPTURE_OPTIONS")
    os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] = chosen if chosen is not None else RTSP_OPTIONS
    try:  # decoded by the reading thread alone (no FFmpeg threads of its own beside the tracking, as for files)
        return cv2.VideoCapture(url, cv2.CAP_FFMPEG, [cv2.CAP_PROP_N_THREADS, DECODER_THREADS])
    finally:
        if chosen is None:
            del os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"]


def _chain(first: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    yield from rest


def open_live_source(spec: str, *, fps: float | None = None, prefer_opencv: bool = True,
                     reconnect: float = RECONNECT_SECONDS):
    """Opens `--camera SPEC`: an index, a device path, or a URL (RTSP via OpenCV; HTTP via OpenCV, else
    the pure-Python MJPEG reader). `reconnect`: how long (s) to try it again should it stop sending."""
    spec = str(spec)
    if spec.lower().startswith(("http://", "https://")):
        if prefer_opencv:
            try:
                return OpenCvLiveSource(spec, fps=fps, reconnect=reconnect)
            except VideoError:
                pass
        return MjpegHttpSource(spec, fps=fps, reconnect=reconnect)
    return OpenCvLiveSource(spec, fps=fps, reconnect=reconnect)


#: How far (s) the referee may fall behind the camera before it skips frames. Frames queue up to this
#: far behind the newest, so a slow moment (a pile read, 30-150 ms; the opening layout, up to ~0.7 s)
#: costs no frame around a touch; a referee steadily slower than the camera skips the oldest and says
#: so. Higher: fewer frames skipped, rulings and board announcements later in a slow stretch.
MAX_LAG_SECONDS = 1.0


class KeepUp:
    """Reads a live source on its own thread and hands the referee its frames in order, never more
    than `max_lag` seconds behind the newest.

    A slow moment is caught up from the queue afterwards; when the referee falls further behind, the
    oldest frames it had no time for are skipped and reported as a `skipped` notice (one per run of
    skips), so the referee stays within `max_lag` of the table's present rather than drifting seconds
    behind it. `on_frame` (a recorder's `write`) sees every frame the camera gave, skipped or not, on
    the reading thread; should it fail, recording stops with a warning and refereeing goes on.
    """

    def __init__(self, source, *, warn: Callable[[str], None] | None = None, max_lag: float = MAX_LAG_SECONDS,
                 on_frame: Callable[[Frame], None] | None = None) -> None:
        self.source = source
        self.notices: list[Notice] = source.notices
        self.skipped_total = 0
        self.max_lag = float(max_lag)
        self._warn = warn or _stderr_warn
        self._on_frame = on_frame
        self._queue: collections.deque[Frame] = collections.deque()
        self._done = False
        self._stop = False
        self._error: BaseException | None = None
        self._ready = threading.Condition()
        self._thread = threading.Thread(target=self._pump, name="frame-reader", daemon=True)

    @property
    def fps(self) -> float:
        return self.source.fps

    def settled_fps(self, timeout: float = 2.0) -> float:
        """The source's frame rate once its first frames have measured it (or `timeout` s on)."""
        settled = getattr(self.source, "rate_settled", None)
        if settled is not None:
            settled.wait(timeout)
        return self.fps

    def _pump(self) -> None:
        try:
            for frame in self.source.frames():
                self._record(frame)
                with self._ready:
                    self._queue.append(frame)
                    self._ready.notify()
                if self._stop:
                    break
        except BaseException as error:  # handed to the consumer thread
            self._error = error
        finally:
            with self._ready:
                self._done = True
                self._ready.notify()

    def _record(self, frame: Frame) -> None:
        if self._on_frame is None:
            return
        try:
            self._on_frame(frame)
        except Exception as error:  # a full disk, a vanished folder: the game is still refereed
            self._on_frame = None
            self._warn(f"recording stopped at frame {frame.index}: {error}")

    def _next(self) -> Frame | None:
        """The oldest frame within `max_lag` of the newest (older ones dropped), or None once the
        source has ended and every frame was handed out."""
        with self._ready:
            while not self._queue and not self._done:
                self._ready.wait(0.5)
            if not self._queue:
                return None
            newest = self._queue[-1]
            most = max(2, int(round(self.max_lag * max(self.fps, 1.0))) + 1)  # frames held at most
            while len(self._queue) > 1 and (newest.t - self._queue[0].t > self.max_lag or len(self._queue) > most):
                self._queue.popleft()
            return self._queue.popleft()

    def frames(self) -> Iterator[Frame]:
        self._thread.start()
        last_index = -1
        while (frame := self._next()) is not None:
            skipped = frame.index - last_index - 1
            if last_index >= 0 and skipped > 0:
                self.skipped_total += skipped
                message = f"skipped {skipped} frame(s) before frame {frame.index} to keep up with the camera"
                self.notices.append(Notice("skipped", frame.t, frame.index, message, skipped))
            last_index = frame.index
            yield frame
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        self._stop = True
        self.source.close()
        self._thread.join(timeout=2.0)
