"""Finds dropped frames and stalls from frame timestamps (a pure class: feed it times)."""

from __future__ import annotations

from referee.capture.frames import Notice

#: A gap longer than this many frame periods counts as dropped frames. Lower it and jitter on a
#: busy USB camera reads as drops; raise it and single dropped frames go unreported.
DROP_FACTOR = 1.5
#: A gap longer than this (seconds) is a stall of the stream, not just a few dropped frames.
STALL_SECONDS = 0.5


class GapDetector:
    """Compares each frame's time with the previous one; returns a Notice for each gap it finds."""

    def __init__(self, fps: float, *, drop_factor: float = DROP_FACTOR, stall_seconds: float = STALL_SECONDS) -> None:
        if not fps or fps <= 0:
            raise ValueError(f"fps must be positive, got {fps!r}")
        self.period = 1.0 / fps
        self.drop_factor = drop_factor
        self.stall_seconds = stall_seconds
        self._last: tuple[int, float] | None = None

    def check(self, index: int, t: float) -> Notice | None:
        last, self._last = self._last, (index, t)
        if last is None:
            return None
        last_index, last_t = last
        gap = t - last_t
        if gap <= self.drop_factor * self.period:
            return None
        missing = max(1, round(gap / self.period) - 1)
        if gap >= self.stall_seconds:
            return Notice("stall", last_t, last_index,
                          f"no picture for {gap * 1000:.0f} ms after frame {last_index} (t={last_t:.3f}s): "
                          f"about {missing} frames missing", missing)
        return Notice("dropped", last_t, last_index,
                      f"{missing} frame(s) dropped after frame {last_index} (t={last_t:.3f}s, gap {gap * 1000:.0f} ms)",
                      missing)
