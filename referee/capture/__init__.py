"""Frame sources: video files, cameras, network streams; gap detection; recording.

    from referee.capture import open_source
    source = open_source("game.mp4")           # or "0", "/dev/video0", "rtsp://...", "http://.../video"
    for frame in source.frames(): ...          # Frame(index, t, image); source.notices lists gaps
"""

from __future__ import annotations

import pathlib

from referee.capture.frames import Frame, FrameSource, Notice
from referee.capture.gaps import GapDetector
from referee.capture.live import KeepUp, MjpegHttpSource, OpenCvLiveSource, open_live_source
from referee.capture.mjpeg import MjpegParser
from referee.capture.recorder import Recorder
from referee.capture.video_file import VideoFileSource, sidecar_path

__all__ = [
    "Frame", "FrameSource", "Notice", "GapDetector", "KeepUp", "MjpegHttpSource", "MjpegParser",
    "OpenCvLiveSource", "Recorder", "VideoFileSource", "open_live_source", "open_source", "sidecar_path",
]


def is_live_spec(spec: str) -> bool:
    spec = str(spec)
    return spec.isdigit() or "://" in spec or spec.startswith("/dev/")


def open_source(spec: str | pathlib.Path, *, fps: float | None = None):
    """A video file path, or a live camera/stream spec."""
    if is_live_spec(str(spec)):
        return open_live_source(str(spec), fps=fps)
    return VideoFileSource(spec)
