"""Has the camera moved since calibration? Re-find the markers in a live frame and compare.

Cheap enough for every few seconds: markers are searched only in small windows around where the
calibration saw them (falling back to the whole frame when none is found there), and each seen
corner is mapped back to the table with the stored calibration: a fixed camera maps it to where
the marker lies (within corner noise, ~0.3 mm); a moved camera does not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from referee.calibration.calibration import Calibration
from referee.calibration.markers import TABLE_MARKER_IDS, MarkerSighting, detect_markers, to_gray

#: the camera counts as moved when any seen marker corner lands this far (mm) from where that
#: corner lies on the table. Zones are ~10 mm generous and the accuracy budget is 5 mm, so 3 mm
#: catches a nudge well before calls go wrong; lower it to react to smaller bumps (more false
#: alarms from a corner half-hidden by a hand), raise it to tolerate a wobbly mount.
MOVED_THRESHOLD_MM = 3.0
#: search window around a marker's calibrated position, in marker sides on each side
SEARCH_MARGIN_SIDES = 1.5


class DriftStatus(str, enum.Enum):
    STEADY = "steady"
    MOVED = "moved"
    UNKNOWN = "unknown"  # no marker visible (all covered, or the camera moved far away)


@dataclass(frozen=True)
class DriftReport:
    status: DriftStatus
    max_shift_mm: float | None
    shifts_mm: dict[int, float] = field(default_factory=dict)  # worst corner shift per marker seen
    markers_missing: tuple[int, ...] = ()
    threshold_mm: float = MOVED_THRESHOLD_MM

    @property
    def moved(self) -> bool:
        return self.status is DriftStatus.MOVED

    @property
    def message(self) -> str:
        if self.status is DriftStatus.UNKNOWN:
            return "camera movement unknown: no play-area marker is visible (covered, or the camera moved a lot); check the camera"
        seen = ", ".join(f"{marker_id}: {shift:.1f} mm" for marker_id, shift in sorted(self.shifts_mm.items()))
        missing = f"; marker(s) {', '.join(map(str, self.markers_missing))} hidden" if self.markers_missing else ""
        if self.status is DriftStatus.MOVED:
            return f"the camera has moved (markers shifted up to {self.max_shift_mm:.1f} mm: {seen}{missing}): put it back or recalibrate"
        return f"camera steady (markers within {self.max_shift_mm:.1f} mm: {seen}{missing})"


def _find_near(gray: np.ndarray, calibration: Calibration) -> list[MarkerSighting]:
    height, width = gray.shape[:2]
    found: list[MarkerSighting] = []
    for marker_id in TABLE_MARKER_IDS:
        expected = calibration.table_to_image(np.array(calibration.layout.marker_corners(marker_id)))
        side = float(np.max(np.ptp(expected, axis=0)))
        pad = SEARCH_MARGIN_SIDES * side
        x0, y0 = (int(max(0, v)) for v in expected.min(axis=0) - pad)
        x1, y1 = (int(min(limit, v)) for v, limit in zip(expected.max(axis=0) + pad, (width, height)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        for sighting in detect_markers(gray[y0:y1, x0:x1]):
            if sighting.marker_id == marker_id:
                found.append(MarkerSighting(marker_id, sighting.corners_px + [x0, y0]))
    return found


def check_drift(frame: np.ndarray, calibration: Calibration, *, threshold_mm: float = MOVED_THRESHOLD_MM) -> DriftReport:
    """Compare the markers seen in `frame` with where `calibration` says they lie."""
    calibration.check_frame(frame)
    gray = to_gray(frame)
    sightings = _find_near(gray, calibration)
    if not sightings:
        sightings = [s for s in detect_markers(gray) if s.marker_id in TABLE_MARKER_IDS]
    shifts: dict[int, float] = {}
    layout = calibration.layout
    for sighting in sightings:
        truth = np.array(layout.marker_corners(sighting.marker_id))
        shift = float(np.max(np.linalg.norm(calibration.image_to_table(sighting.corners_px) - truth, axis=1)))
        # A duplicate id (a stray printout) must not hide a real shift: keep the smaller, which is
        # the copy in its corner.
        shifts[sighting.marker_id] = min(shift, shifts.get(sighting.marker_id, np.inf))
    missing = tuple(marker_id for marker_id in TABLE_MARKER_IDS if marker_id not in shifts)
    if not shifts:
        return DriftReport(DriftStatus.UNKNOWN, None, {}, missing, threshold_mm)
    worst = max(shifts.values())
    status = DriftStatus.MOVED if worst > threshold_mm else DriftStatus.STEADY
    return DriftReport(status, worst, shifts, missing, threshold_mm)
