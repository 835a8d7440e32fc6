import pytest

from referee.calibration import DriftStatus, calibrate_image, check_drift
from referee.calibration.drift import MOVED_THRESHOLD_MM
from tests.calibration.conftest import BARREL, rendered


@pytest.fixture(scope="module")
def calibration():
    frame, _ = rendered(20, BARREL)
    return calibrate_image(frame)[0]


def test_the_calibration_frame_is_steady(calibration):
    frame, _ = rendered(20, BARREL)
    report = check_drift(frame, calibration)
    assert report.status is DriftStatus.STEADY and not report.moved
    assert report.max_shift_mm < 1.0
    assert sorted(report.shifts_mm) == [0, 1, 2, 3]


@pytest.mark.parametrize("tilt, heading, moved", [(20, 0, False), (23, 0, True), (20, 2, True)])
def test_a_moved_camera_is_noticed(calibration, tilt, heading, moved):
    frame, _ = rendered(tilt, BARREL, heading_deg=heading)
    report = check_drift(frame, calibration)
    assert report.moved is moved, report.message
    if moved:
        assert report.max_shift_mm > MOVED_THRESHOLD_MM
        assert "the camera has moved" in report.message


def test_covered_markers_are_reported_not_mistaken_for_movement(calibration):
    frame, _ = rendered(20, BARREL, markers=(0, 1))
    report = check_drift(frame, calibration)
    assert report.status is DriftStatus.STEADY
    assert report.markers_missing == (2, 3)
    assert "hidden" in report.message


def test_no_marker_at_all_is_unknown(calibration):
    frame, _ = rendered(20, BARREL, markers=())
    report = check_drift(frame, calibration)
    assert report.status is DriftStatus.UNKNOWN and report.max_shift_mm is None
