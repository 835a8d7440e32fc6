"""`--record FILE`: keeps the live video with each frame's true capture time, for later disputes.

The video goes to FILE (mp4v in .mp4, MJPG in .avi); the times go beside it, one JSON object a line,
to `<stem>.timestamps.jsonl`, flushed per frame so a crash keeps everything recorded so far.
Replaying FILE later reads that sidecar and so sees the live session's real timing, drops included.
"""

from __future__ import annotations

import json
import pathlib

import cv2

from referee.capture.frames import Frame
from referee.capture.video_file import sidecar_path
from referee.errors import VideoError


class Recorder:
    def __init__(self, path: str | pathlib.Path, *, fps: float) -> None:
        self.path = pathlib.Path(path)
        self.fps = float(fps)
        self.timestamps_path = sidecar_path(self.path)
        if not self.path.parent.exists():
            raise VideoError(f"cannot record to {self.path}: folder {self.path.parent} does not exist")
        if self.path.suffix.lower() not in (".mp4", ".avi"):
            # told now, not at the first frame: that is written on the camera's reading thread, where a
            # failure only stops the recording (with a warning) so that the game is still refereed
            raise VideoError(f"cannot record to {self.path}: use a .mp4 or .avi file name")
        self._writer: cv2.VideoWriter | None = None
        self._times = open(self.timestamps_path, "w", encoding="utf-8")
        self.count = 0

    def _open(self, width: int, height: int) -> cv2.VideoWriter:
        fourcc = "MJPG" if self.path.suffix.lower() == ".avi" else "mp4v"
        writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*fourcc), self.fps, (width, height))
        if not writer.isOpened():
            raise VideoError(f"cannot record to {self.path}: OpenCV could not open a {fourcc} writer; "
                             "use a .mp4 or .avi file name")
        return writer

    def write(self, frame: Frame) -> None:
        if self._writer is None:
            height, width = frame.image.shape[:2]
            self._writer = self._open(width, height)
        self._writer.write(frame.image)
        self._times.write(json.dumps({"frame": self.count, "source_frame": frame.index, "t": round(frame.t, 6)}) + "\n")
        self._times.flush()
        self.count += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None
        if not self._times.closed:
            self._times.close()

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
