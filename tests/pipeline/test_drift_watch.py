import cv2
import numpy as np
import pytest

from referee.capture.frames import Frame
from referee.demo import CLIP
from referee.pipeline.calibration_input import load_calibration
from referee.pipeline.drift_watch import DriftWatch


@pytest.fixture(scope="module")
def first_frame_and_calibration():
    capture = cv2.VideoCapture(str(CLIP / "video.mp4"))
    ok, image = capture.read()
    capture.release()
    assert ok
    height, width = image.shape[:2]
    return image, load_calibration(CLIP / "corners.json", image_size=(width, height))


def _shifted(image, dx, dy):
    height, width = image.shape[:2]
    return cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (width, height), borderMode=cv2.BORDER_REPLICATE)


def test_a_steady_camera_raises_no_notice(first_frame_and_calibration):
    image, calibration = first_frame_and_calibration
    watch = DriftWatch(calibration, every=1.0)
    assert [watch.check(Frame(index, index / 30, image)) for index in range(0, 90, 15)] == [None] * 6


def test_a_knocked_camera_is_said_once_with_the_fix(first_frame_and_calibration):
    image, calibration = first_frame_and_calibration
    watch = DriftWatch(calibration, every=1.0)
    moved = _shifted(image, 25, 12)
    assert watch.check(Frame(0, 0.0, image)) is None
    notice = watch.check(Frame(40, 1.4, moved))
    assert notice is not None and notice.kind == "camera_moved" and "referee calibrate" in notice.message
    assert watch.check(Frame(80, 2.7, moved)) is None  # once per movement, not once per check


def test_checks_are_spaced_by_frame_time(first_frame_and_calibration):
    image, calibration = first_frame_and_calibration
    watch = DriftWatch(calibration, every=5.0)
    assert watch.check(Frame(0, 0.0, image)) is None
    assert watch.check(Frame(30, 1.0, _shifted(image, 25, 12))) is None  # not checked yet
    assert watch.check(Frame(160, 5.3, _shifted(image, 25, 12))) is not None


def test_a_calibration_made_for_another_setup_is_said_at_the_first_check(first_frame_and_calibration):
    image, calibration = first_frame_and_calibration
    watch = DriftWatch(calibration, every=1.0)
    notice = watch.check(Frame(0, 0.0, _shifted(image, 25, 12)))
    assert notice is not None and notice.kind == "calibration_off" and "referee calibrate" in notice.message
    assert watch.check(Frame(40, 1.4, _shifted(image, 25, 12))) is None  # said once; the camera has not moved since
