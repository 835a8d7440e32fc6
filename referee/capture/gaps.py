"""Finds dropped frames and stalls from frame timestamps (a pure class: feed it times)."""

from __future__ import annotations

import collections
import statistics

from referee.capture.frames import Notice

#: A gap longer than this many frame periods counts as dropped frames. Lower it and jitter on a
#: busy USB camera reads as drops; raise it and single dropped frames go unreported.
DROP_FACTOR = 1.5
#: A gap longer than this (seconds) is a stall of the stream, not just a few dropped frames.
STALL_SECONDS = 0.5
#: This many gaps in a row that each count as dropped frames, at one steady pace (STEADY_PACE), are the
#: camera's frame rate changing (a webcam slowing as the light dims, a phone recording at a variable rate
#: in a dim room): said once as `rate_changed`, and the gaps judged by the new pace from then on, not
#: said as frames dropped at every frame. The same many gaps in a row at a faster pace again take it back.
RATE_RUN = 6
#: ... one steady pace: the run's longest gap at most this many times its shortest.
STEADY_PACE = 1.25


class GapDetector:
    """Compares each frame's time with the previous one; returns a Notice for each gap it finds."""

    def __init__(self, fps: float, *, drop_factor: float = DROP_FACTOR, stall_seconds: float = STALL_SECONDS) -> None:
        if not fps or fps <= 0:
            raise ValueError(f"fps must be positive, got {fps!r}")
        self.period = 1.0 / fps
        self.nominal_period = self.period
        self.drop_factor = drop_factor
        self.stall_seconds = stall_seconds
        self._last: tuple[int, float] | None = None
        self._recent: collections.deque[float] = collections.deque(maxlen=RATE_RUN)  # the latest gaps

    def check(self, index: int, t: float) -> Notice | None:
        last, self._last = self._last, (index, t)
        if last is None:
            return None
        last_index, last_t = last
        gap = t - last_t
        self._recent.append(gap)
        changed = self._pace_changed(last_index, last_t)
        if changed is not None:
            return changed
        if gap <= self.drop_factor * self.period:
            return None
        missing = max(1, round(gap / self.period) - 1)
        if gap >= self.stall_seconds:
            self._recent.clear()
            return Notice("stall", last_t, last_index,
                          f"no picture for {gap * 1000:.0f} ms after frame {last_index} (t={last_t:.3f}s): "
                          f"about {missing} frames missing", missing)
        return Notice("dropped", last_t, last_index,
                      f"{missing} frame(s) dropped after frame {last_index} (t={last_t:.3f}s, gap {gap * 1000:.0f} ms)",
                      missing)

    def _pace_changed(self, last_index: int, last_t: float) -> Notice | None:
        """A `rate_changed` notice where the last RATE_RUN gaps all came at one steady pace slower than the
        frame rate allows, or (after such a change) faster than the pace taken; None otherwise."""
        if len(self._recent) < RATE_RUN or max(self._recent) > STEADY_PACE * min(self._recent):
            return None
        pace = statistics.median(self._recent)
        slower = min(self._recent) > self.drop_factor * self.period and pace < self.stall_seconds
        faster = self.period > self.nominal_period and max(self._recent) * self.drop_factor < self.period
        if not (slower or faster):
            return None
        before, self.period = self.period, max(pace, self.nominal_period)
        self._recent.clear()
        return Notice("rate_changed", last_t, last_index,
                      f"pictures come every {self.period * 1000:.0f} ms ({1 / self.period:.1f} fps) from frame "
                      f"{last_index} (t={last_t:.3f}s), every {before * 1000:.0f} ms before: the camera's frame rate "
                      "changed (a camera slowing as the light dims, a phone's variable rate); frames at that pace are "
                      "not said as dropped")
