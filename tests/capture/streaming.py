"""A real MJPEG-over-HTTP server on 127.0.0.1 for tests: serves frames at real-time pace."""

from __future__ import annotations

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


@contextlib.contextmanager
def serve_mjpeg(jpegs: Sequence[bytes], *, fps: float, drop_after: int | None = None,
                stall: tuple[int, float] | None = None) -> Iterator[str]:
    """Serves the JPEGs as multipart/x-mixed-replace at `fps`; yields the URL.

    drop_after: close the connection after that many frames (a stream that drops);
    stall: (frame index, seconds) pause before sending that frame (a stream that stalls).
    """

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            start = time.monotonic()
            paused = 0.0
            try:
                for index, jpeg in enumerate(jpegs):
                    if drop_after is not None and index >= drop_after:
                        break
                    if stall is not None and index == stall[0]:
                        paused += stall[1]
                    due = start + paused + index / fps
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n"
                                     + f"Content-Length: {len(jpeg)}\r\n\r\n".encode() + jpeg + b"\r\n")
                    self.wfile.flush()
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
