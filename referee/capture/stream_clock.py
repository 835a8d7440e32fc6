"""A network camera's own clock for its frames, kept honest against their arrival.

An RTSP camera stamps every picture with the instant it captured it (the RTP timestamp, 90 kHz). Its
pictures do not arrive as evenly: the stream is probed for a second before the first is handed on, then
the pictures queued meanwhile come at once, and a congested network delivers them in bursts. Stamped on
arrival, a burst's frames would lie a few milliseconds apart where the cards moved 33 ms between them, and
touch timing, which interpolates between frames, would be off by up to the burst's length. So a stream
that has such a clock is timed by it (`StreamClock`); arrival times remain for cameras and MJPEG streams,
which have none.

The camera's clock is trusted frame to frame, not blindly: a stamp that does not move on from the last
(OpenCV gives an RTSP stream's first two pictures the same time), or jumps further than the pictures'
arrival allows (a camera that restarted its clock), is replaced by one nominal period after the last
frame, and the clock is taken up again from there. A real gap, frames the camera sent that never came,
keeps its length, and is said as dropped frames as a file's would be.
"""

from __future__ import annotations

#: How far (s) the camera's clock may run ahead of the pictures' arrival between two frames before its
#: stamp is taken for a jump of the clock: a burst delivers late frames at once (arrival behind the
#: clock, always allowed), but no camera captures a second's pictures faster than they can arrive.
MOST_AHEAD_SECONDS = 1.0
#: The least (s) a stamp must move on from the last to be taken: no camera captures 1,000 pictures a second.
LEAST_STEP_SECONDS = 0.001


class StreamClock:
    """Frame times (s from the first frame) from a stream's own stamps, checked against arrival times."""

    def __init__(self, fps: float) -> None:
        if not fps or fps <= 0:
            raise ValueError(f"fps must be positive, got {fps!r}")
        self.period = 1.0 / fps
        self.taken_up_again = 0  # stamps replaced (see the module docstring)
        self._last: tuple[float | None, float, float] | None = None  # (stamp, arrival, t) of the last frame

    def time(self, stamp: float | None, arrival: float) -> float:
        """The time of a frame the stream stamped `stamp` (s on its clock; None: no stamp) that arrived at
        `arrival` (s on the monotonic clock)."""
        last, t = self._last, 0.0
        if last is not None:
            last_stamp, last_arrival, last_t = last
            moved = None if stamp is None or last_stamp is None else stamp - last_stamp
            if moved is not None and LEAST_STEP_SECONDS <= moved <= max(arrival - last_arrival, 0.0) + MOST_AHEAD_SECONDS:
                t = last_t + moved
            else:
                t = last_t + self.period
                self.taken_up_again += 1
        self._last = (stamp, arrival, t)
        return t
