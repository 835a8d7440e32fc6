"""What every frame source hands on: numbered, timestamped frames, and notices about gaps.

A `FrameSource` is the one door through which the referee gets pictures: a video file, a camera,
a network stream, or a fake in a test. `t` is the frame's true time in seconds from the first
frame (the container's presentation time for files, the monotonic clock for live sources), so a
dropped frame shows up as a gap in `t` rather than being silently merged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: `index` counts frames as the source delivered them (0-based), `t` is seconds."""

    index: int
    t: float
    image: np.ndarray

    def __post_init__(self) -> None:
        if self.index < 0:
            raise ValueError(f"frame index must be >= 0, got {self.index}")
        if not isinstance(self.image, np.ndarray) or self.image.ndim != 3 or self.image.shape[2] != 3:
            shape = getattr(self.image, "shape", None)
            raise ValueError(f"frame image must be an HxWx3 BGR array, got shape {shape}")


#: Kinds of notice a source can raise, the drift watch's (`camera_moved`, `calibration_off`), and `fault`: what the
#: referee itself failed to track or rule (a fault in its own code), said as it referees on.
NOTICE_KINDS = ("dropped", "stall", "rate_changed", "truncated", "skipped", "ended", "reconnect", "camera_moved", "calibration_off",
                "fault")


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the referee must say about the footage itself, never silently absorb.

    `frame` is the index of the frame after which it happened (the last good frame), `t` its time.
    """

    kind: str
    t: float
    frame: int
    message: str
    missing: int = 0

    def __post_init__(self) -> None:
        if self.kind not in NOTICE_KINDS:
            raise ValueError(f"notice kind must be one of {NOTICE_KINDS}, got {self.kind!r}")


@runtime_checkable
class FrameSource(Protocol):
    """A supply of frames. `fps` is the nominal rate; `notices` fills up as gaps are found."""

    fps: float
    notices: list[Notice]

    def frames(self) -> Iterator[Frame]:
        """Yields frames in order until the footage ends; ends cleanly (never raises) on a broken tail."""
        ...

    def close(self) -> None:
        ...
