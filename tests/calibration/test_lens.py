import functools

import cv2
import numpy as np
import pytest

from referee.calibration import LensModel, calibrate_image
from referee.calibration.charuco import calibrate_lens
from referee.errors import CalibrationError, InputFileError
from tests.calibration.conftest import rendered, texture
from tests.calibration.synthetic import PinholeCamera, board_views, play_area_grid

STRONG = (-0.3, 0.1, 0.0, 0.0, 0.0)


@functools.lru_cache(maxsize=2)
def views(distortion=STRONG, count=10):
    return board_views(distortion, image_size=(1280, 720), count=count, seed=4)


@pytest.mark.slow
def test_charuco_lens_calibration_recovers_the_lens():
    frames, truth = views()
    lens = calibrate_lens(frames)
    assert lens.rms_px < 0.3 and lens.frames_used == len(frames)
    assert lens.camera_matrix[0, 0] == pytest.approx(truth.camera_matrix[0, 0], rel=0.02)
    # where the board was seen (the lens model is only trusted there): the central part of the frame
    points = np.random.default_rng(0).uniform([200, 100], [1080, 620], (200, 2))
    expected = LensModel(camera_matrix=truth.camera_matrix, distortion=truth.distortion, image_size=(1280, 720)).undistort_points(points)
    # The undistorted images must agree up to a homography (a focal length or principal point
    # that differs a little is absorbed by the table homography, a wrong distortion is not).
    got = lens.undistort_points(points)
    homography, _ = cv2.findHomography(got, expected, 0)
    residual = np.linalg.norm(cv2.perspectiveTransform(got.reshape(-1, 1, 2), homography).reshape(-1, 2) - expected, axis=1)
    assert residual.max() < 0.5


@pytest.mark.slow
def test_a_lens_file_makes_table_calibration_exact_under_strong_distortion(tmp_path):
    frames, truth = views()
    calibrate_lens(frames).save(tmp_path / "lens.yaml")
    lens = LensModel.load(tmp_path / "lens.yaml")
    frame, camera = rendered(25, STRONG, height_mm=1150.0)
    camera = PinholeCamera(truth.camera_matrix, camera.distortion, camera.rvec, camera.tvec, camera.image_size)  # the same lens
    frame = camera.render(texture(0))
    calibration, report = calibrate_image(frame, lens=lens)
    grid = play_area_grid()
    errors = np.linalg.norm(calibration.image_to_table(camera.project(grid)) - grid, axis=1)
    assert np.median(errors) < 1.0 and errors.max() < 2.0
    assert report.distortion_source == "corrected from lens file"


def test_too_few_board_views_is_a_clear_error():
    frames, _ = views()
    with pytest.raises(CalibrationError, match="found in 2 of 2 frames, need at least 6"):
        calibrate_lens(frames[:2])
    frame, _ = rendered()
    with pytest.raises(CalibrationError, match="found in 0 of 1 frames"):
        calibrate_lens([frame])


def test_lens_at_another_resolution_of_the_same_aspect_is_scaled():
    lens = LensModel(camera_matrix=np.array([[1000.0, 0, 640], [0, 1000, 360], [0, 0, 1]]), distortion=np.zeros(5), image_size=(1280, 720))
    assert lens.for_image_size((1920, 1080)).camera_matrix[0, 0] == pytest.approx(1500)
    with pytest.raises(CalibrationError, match="another aspect ratio"):
        lens.for_image_size((640, 480))


@pytest.mark.parametrize(
    "content, error, message",
    [(None, InputFileError, "not found"), ("kind: something-else\n", CalibrationError, "not a lens calibration"), ("kind: referee-lens-calibration\nschema_version: 1\n", CalibrationError, "expected camera_matrix")],
)
def test_bad_lens_files(tmp_path, content, error, message):
    path = tmp_path / "lens.yaml"
    if content is not None:
        path.write_text(content)
    with pytest.raises(error, match=message):
        LensModel.load(path)


@pytest.mark.parametrize(
    "distortion",
    [
        [-0.3, 0.1, 0.001, -0.002, 0.02],
        [-0.3, 0.1, 0.001, -0.002, 0.02, 0.01, 0.002, 0.001],
        [-0.3, 0.1, 0.001, -0.002, 0.02, 0.01, 0.002, 0.001, 0.001, 0.002, 0.003, 0.004],
    ],
)
def test_distort_points_is_opencvs_model(distortion):
    lens = LensModel(camera_matrix=np.array([[1000.0, 0, 640], [0, 1010, 360], [0, 0, 1]]), distortion=np.array(distortion), image_size=(1280, 720))
    points = np.random.default_rng(0).uniform(0, [1280, 720], (500, 2))
    rays = np.hstack([points, np.ones((500, 1))]) @ np.linalg.inv(lens.camera_matrix).T
    expected, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), lens.camera_matrix, lens.distortion)
    assert np.abs(lens.distort_points(points) - expected.reshape(-1, 2)).max() < 1e-6
