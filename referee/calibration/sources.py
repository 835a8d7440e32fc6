"""Getting calibration frames: a still image, the first seconds of a video, or a live camera.

From a video or camera only the sharpest frames are kept (variance of the Laplacian on a half-size
grey copy), so a hand still settling the camera or a passing blur does not spoil the calibration.
"""

from __future__ import annotations

import heapq
import pathlib
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.capture.addresses import shown
from referee.capture.live import open_capture
from referee.errors import InputFileError, VideoError

#: frames kept from a video/camera (the sharpest); more averages corner noise, costs memory
FRAMES_KEPT = 8
#: seconds read from the start of a video or from a camera
DEFAULT_SECONDS = 3.0


@dataclass(frozen=True)
class Capture:
    frames: list[np.ndarray]  # sharpest first
    fps: float | None
    image_size: tuple[int, int]
    source: dict = field(default_factory=dict)


def read_image(path: pathlib.Path | str) -> Capture:
    path = pathlib.Path(path)
    if not path.is_file():
        raise InputFileError(f"image {path} not found: give a photo of the table (PNG or JPEG) with --image")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputFileError(f"image {path} cannot be decoded ({data.size} bytes, not a readable PNG/JPEG): give an image file the camera wrote")
    height, width = image.shape[:2]
    return Capture([image], None, (width, height), {"kind": "image", "path": str(path)})


def sharpness(frame: np.ndarray) -> float:
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(small, cv2.CV_32F).var())


def _read_stream(capture: cv2.VideoCapture, *, seconds: float, reported_fps: float | None, live: bool, description: str) -> tuple[list[np.ndarray], float | None, int]:
    best: list[tuple[float, int, np.ndarray]] = []
    limit_frames = int(seconds * (reported_fps or 30)) if not live else None
    started = time.monotonic()
    count = 0
    while True:
        if limit_frames is not None and count >= max(limit_frames, 1):
            break
        if live and time.monotonic() - started > seconds and count > 0:
            break
        ok, frame = capture.read()
        if not ok or frame is None:
            if count == 0:
                raise VideoError(f"{description} gave no frames: check it is a readable video (or a connected camera)")
            break
        item = (sharpness(frame), count, frame)
        if len(best) < FRAMES_KEPT:
            heapq.heappush(best, item)
        else:
            heapq.heappushpop(best, item)
        count += 1
    elapsed = time.monotonic() - started
    measured = (count - 1) / elapsed if live and count > 1 and elapsed > 0 else None
    fps = reported_fps
    if measured is not None:
        fps = measured if not reported_fps else min(reported_fps, measured)
    frames = [frame for _, _, frame in sorted(best, key=lambda item: -item[0])]
    return frames, fps, count


def read_video(path: pathlib.Path | str, *, seconds: float = DEFAULT_SECONDS) -> Capture:
    path = pathlib.Path(path)
    if not path.is_file():
        raise InputFileError(f"video {path} not found: give a recording of the table with --video")
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise VideoError(f"video {path} cannot be opened (unknown format or corrupt file): give an MP4/AVI the camera wrote")
        reported = capture.get(cv2.CAP_PROP_FPS)
        reported = float(reported) if reported and reported > 0 and np.isfinite(reported) else None
        frames, fps, count = _read_stream(capture, seconds=seconds, reported_fps=reported, live=False, description=f"video {path}")
    finally:
        capture.release()
    height, width = frames[0].shape[:2]
    return Capture(frames, fps, (width, height), {"kind": "video", "path": str(path), "frames_read": count, "frames_used": len(frames)})


def open_camera(spec: str) -> cv2.VideoCapture:
    """`spec` is a camera index ("0") or a URL/path OpenCV can open (rtsp://, http://, a file)."""
    target: int | str = int(spec) if str(spec).strip().isdigit() else str(spec)
    capture = open_capture(target)  # as `referee live` opens it (RTSP over TCP)
    if not capture.isOpened():
        raise VideoError(f"camera {shown(spec)!r} cannot be opened: check the index (0, 1, ...) or URL and that no other program uses it")
    return capture


def read_camera(spec: str, *, seconds: float = DEFAULT_SECONDS) -> Capture:
    capture = open_camera(spec)
    try:
        reported = capture.get(cv2.CAP_PROP_FPS)
        reported = float(reported) if reported and reported > 0 and np.isfinite(reported) else None
        frames, fps, count = _read_stream(capture, seconds=seconds, reported_fps=reported, live=True, description=f"camera {shown(spec)!r}")
    finally:
        capture.release()
    height, width = frames[0].shape[:2]
    return Capture(frames, fps, (width, height), {"kind": "camera", "path": shown(spec), "frames_read": count, "frames_used": len(frames)})
