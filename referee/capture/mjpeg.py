"""A small pure-Python reader for MJPEG over HTTP (multipart/x-mixed-replace), as IP cameras and
phone camera apps serve it. Used when OpenCV's FFmpeg backend cannot open the stream.

`MjpegParser` is a pure class fed with bytes (testable without a socket); `read_mjpeg_jpegs`
wraps it around an HTTP response.
"""

from __future__ import annotations

import http.client
import re
import urllib.error
import urllib.request
from typing import Iterator

from referee.capture.addresses import basic_login, shown
from referee.errors import VideoError

_BOUNDARY = re.compile(rb"boundary=\"?([^\";\r\n]+)\"?", re.IGNORECASE)


class MjpegParser:
    """Splits a byte stream into JPEG images. It looks for JPEG start/end markers (FF D8 ... FF D9)
    rather than trusting part headers: many cameras send wrong or no Content-Length."""

    #: A part bigger than this is not a camera frame; the parser drops it and resynchronises.
    MAX_JPEG_BYTES = 16 * 1024 * 1024

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer.extend(data)
        images: list[bytes] = []
        while True:
            start = self._buffer.find(b"\xff\xd8")
            if start < 0:
                del self._buffer[:-1]  # keep one byte: a marker may straddle two chunks
                break
            end = self._buffer.find(b"\xff\xd9", start + 2)
            if end < 0:
                del self._buffer[:start]
                if len(self._buffer) > self.MAX_JPEG_BYTES:
                    self._buffer.clear()
                break
            images.append(bytes(self._buffer[start:end + 2]))
            del self._buffer[:end + 2]
        return images


def read_mjpeg_jpegs(url: str, *, timeout: float = 5.0, chunk: int = 65536) -> Iterator[bytes]:
    """Yields the JPEG bytes of each frame of an MJPEG HTTP stream until the server closes it."""
    address, login = basic_login(url)  # a phone app's or camera's `http://user:password@...`
    request = urllib.request.Request(address, headers={"Authorization": login} if login else {})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - the user's own camera URL
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as error:
        raise VideoError(f"cannot open stream {shown(url)}: {getattr(error, 'reason', error)}; "
                         "check the camera app is serving and the address is right") from None
    content_type = response.headers.get("Content-Type", "")
    if "multipart" not in content_type.lower() and "jpeg" not in content_type.lower():
        response.close()
        raise VideoError(f"stream {shown(url)} serves {content_type or 'no content type'}, expected an MJPEG stream "
                         "(multipart/x-mixed-replace); use the camera's MJPEG address")
    parser = MjpegParser()
    try:
        while True:
            try:
                data = response.read1(chunk) if hasattr(response, "read1") else response.read(chunk)
            except (OSError, ValueError, http.client.HTTPException):
                return  # the connection dropped (or answered garbled): the stream ends here
            if not data:
                return
            yield from parser.feed(data)
    finally:
        response.close()
