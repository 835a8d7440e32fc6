"""Checking the calibration markers as a game is refereed, so a calibration made for another setup, or a
camera knocked during play, is said, not silently misjudged."""

from __future__ import annotations

from referee.calibration.drift import MOVED_THRESHOLD_MM, DriftStatus, check_drift
from referee.capture.frames import Frame, Notice

#: Seconds of play between two marker checks. A check costs 2-9 ms at 720p (session 38, on rendered games
#: with right and wrong calibrations), well under 1 % of the frame budget every 5 s; raising it notices a
#: moved camera later.
CHECK_EVERY_SECONDS = 5.0
#: Markers seen this far (mm) from where the calibration puts them at the first check: the calibration is
#: not this video's (made for another camera or setup, or its corners given in another order). The fit's
#: own error leaves them 0.4-4 mm off on rendered games, tilted cameras and blurred ones included; at this
#: distance every card is misplaced by a third of its width.
CALIBRATION_OFF_MM = 20.0


class DriftWatch:
    """Checks the markers every `every` seconds of frame time; one notice per movement, not one per check.

    The first check sets the baseline: on a low-resolution camera the markers already sit a few mm
    from the calibration's prediction (the fit's own error), so "moved" means `threshold_mm` beyond
    what the first check saw, not beyond zero.
    """

    def __init__(self, calibration, *, every: float = CHECK_EVERY_SECONDS, threshold_mm: float = MOVED_THRESHOLD_MM) -> None:
        self.calibration = calibration
        self.every = every
        self.threshold_mm = threshold_mm
        self._baseline_mm: float | None = None
        self._next_check: float | None = None
        self._moved = False

    def check(self, frame: Frame) -> Notice | None:
        if self._next_check is not None and frame.t < self._next_check:
            return None
        self._next_check = frame.t + self.every
        if self._baseline_mm is None:
            first = check_drift(frame.image, self.calibration, threshold_mm=float("inf"))
            self._baseline_mm = first.max_shift_mm or 0.0 if first.max_shift_mm is not None else None
            if first.max_shift_mm is not None and first.max_shift_mm > CALIBRATION_OFF_MM:
                marker = max(first.shifts_mm, key=first.shifts_mm.get)
                return Notice("calibration_off", frame.t, frame.index,
                              f"the calibration does not fit this video: marker {marker} is seen {first.max_shift_mm:.0f} mm "
                              "from where it puts it, so every card will be misplaced; run `referee calibrate` on this "
                              "video's frames (`--video`) and referee again")
            return None
        report = check_drift(frame.image, self.calibration, threshold_mm=self._baseline_mm + self.threshold_mm)
        if report.status is DriftStatus.MOVED and not self._moved:
            self._moved = True
            return Notice("camera_moved", frame.t, frame.index,
                          f"the camera has moved: a marker is {report.max_shift_mm:.0f} mm from where the calibration "
                          "put it; rulings from here may misplace cards: stop and run `referee calibrate` again")
        if report.status is DriftStatus.STEADY:
            self._moved = False
        return None
