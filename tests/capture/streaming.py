"""A real MJPEG-over-HTTP server on 127.0.0.1 for tests: serves frames at real-time pace, as a live camera."""

from __future__ import annotations

import base64
import contextlib
import http.server
import threading
import time
from typing import Iterator, Sequence

import cv2
import numpy as np


def jpegs_from_video(path: str, limit: int | None = None) -> list[bytes]:
    capture = cv2.VideoCapture(str(path))
    out: list[bytes] = []
    while limit is None or len(out) < limit:
        ok, image = capture.read()
        if not ok:
            break
        out.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    capture.release()
    return out


class CameraTimeline:
    """A camera's footage as a live camera gives it: running in real time from the first connection, so
    that a client connecting again gets the picture due then, not the first one. `drop_after`: the camera
    is gone at that picture (every connection closed, none answered after). `outage`: (picture, seconds)
    the connection is cut at that picture and the camera cannot be reached for that long, then serves on
    live. `stall`: (picture, seconds) a pause before that picture; the footage runs on later by as much."""

    def __init__(self, count: int, fps: float, *, drop_after: int | None = None,
                 outage: tuple[int, float] | None = None, stall: tuple[int, float] | None = None) -> None:
        self.count, self.fps = count, fps
        self.drop_after, self.outage, self.stall = drop_after, outage, stall
        self._started: float | None = None
        self._paused = 0.0
        self._unreachable_until = 0.0
        self._gone = False
        self._lock = threading.Lock()

    def reachable(self) -> bool:
        """Whether a connection now would be answered: the camera not gone, not in an outage, its footage not over."""
        over = self._started is not None and time.monotonic() - self._started - self._paused >= self.count / self.fps
        return not self._gone and not over and time.monotonic() >= self._unreachable_until

    def begin(self) -> int:
        """A connection starts: the picture due now (0 for the first connection)."""
        with self._lock:
            if self._started is None:
                self._started = time.monotonic()
                return 0
            return max(0, int((time.monotonic() - self._started - self._paused) * self.fps) + 1)

    def wait_for(self, index: int, until: int | None = None) -> bool:
        """Waits until picture `index` (or the later picture `until`, where the footage holds it) is due;
        False where the connection is cut before `index` (the camera gone, an outage starting, or the
        footage over)."""
        with self._lock:
            if self.drop_after is not None and index >= self.drop_after:
                self._gone = True
            if self._gone or index >= self.count:
                return False
            if self.outage is not None and index == self.outage[0]:
                self._unreachable_until = time.monotonic() + self.outage[1]
                self.outage = None
                return False
            if self.stall is not None and index == self.stall[0]:
                self._paused += self.stall[1]
                self.stall = None
            due = self._started + self._paused + min(max(index, until or 0), self.count - 1) / self.fps
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        return True


@contextlib.contextmanager
def serve_mjpeg(jpegs: Sequence[bytes], *, fps: float, drop_after: int | None = None,
                stall: tuple[int, float] | None = None, outage: tuple[int, float] | None = None,
                login: tuple[str, str] | None = None) -> Iterator[str]:
    """Serves the JPEGs as multipart/x-mixed-replace at `fps` as a live camera (`CameraTimeline`: a client
    connecting again gets the picture due then); yields the URL. A client that connects while the camera
    cannot be reached, or after its footage, is answered 503.

    drop_after: the camera is gone after that many frames (a stream that drops);
    stall: (frame index, seconds) pause before sending that frame (a stream that stalls);
    outage: (frame index, seconds) the connection cut there and the camera unreachable that long;
    login: (user, password) asked for by HTTP Basic authentication, as phone camera apps may.
    """
    timeline = CameraTimeline(len(jpegs), fps, drop_after=drop_after, outage=outage, stall=stall)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if login is not None and self.headers.get("Authorization") != "Basic " + base64.b64encode(":".join(login).encode()).decode():
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="camera"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if not timeline.reachable():
                self.send_error(503, "camera unavailable")
                return
            index = timeline.begin()
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            try:
                while timeline.wait_for(index):
                    jpeg = jpegs[index]
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n"
                                     + f"Content-Length: {len(jpeg)}\r\n\r\n".encode() + jpeg + b"\r\n")
                    self.wfile.flush()
                    index += 1
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/video.mjpg"
    finally:
        server.shutdown()
        server.server_close()


def numbered_images(count: int, size: tuple[int, int] = (160, 120)) -> list[np.ndarray]:
    """Frames whose mean brightness encodes their index (index*7 + 20), to check order and drops."""
    width, height = size
    return [np.full((height, width, 3), 20 + 7 * i, np.uint8) for i in range(count)]


def coded_images(count: int, size: tuple[int, int] = (160, 120)) -> list[np.ndarray]:
    """Frames whose colour gives their index (up to 400; blue the twenties, green the rest, steps of 10 that
    survive JPEG and H.264 alike), to check order, drops and reconnections over longer footage."""
    width, height = size
    return [np.dstack([np.full((height, width), 20 + 10 * channel, np.uint8) for channel in (i // 20, i % 20, 0)])
            for i in range(count)]


def coded_number(image: np.ndarray) -> int:
    """The index `coded_images` gave a frame."""
    blue, green = (int(round((float(image[..., channel].mean()) - 20) / 10)) for channel in (0, 1))
    return 20 * blue + green
