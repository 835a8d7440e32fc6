import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.calibration import Calibration, calibrate_image
from referee.calibration.markers import detect_markers
from referee.errors import CalibrationError, InputFileError
from tests.calibration.conftest import BARREL, NO_DISTORTION, rendered
from tests.calibration.synthetic import play_area_grid

CORNERS_MM = np.array([[0, 0], [800, 0], [800, 600], [0, 600]], float)


def _errors_mm(calibration, camera, step=25.0):
    grid = play_area_grid(step_mm=step)
    return np.linalg.norm(calibration.image_to_table(camera.project(grid)) - grid, axis=1)


@pytest.mark.parametrize(
    "tilt, distortion, heading, size",
    [
        (0, NO_DISTORTION, 0, (1280, 720)),
        (20, NO_DISTORTION, 10, (1280, 720)),
        (35, NO_DISTORTION, -8, (1920, 1080)),
        (10, BARREL, 0, (1280, 720)),
        (30, BARREL, 5, (1920, 1080)),
    ],
)
def test_round_trip_on_rendered_frames_is_within_the_accuracy_budget(tilt, distortion, heading, size, tmp_path):
    frame, camera = rendered(tilt, distortion, size, heading)
    calibration, report = calibrate_image(frame)
    errors = _errors_mm(calibration, camera)
    assert np.median(errors) < 2.0 and errors.max() < 5.0, (np.median(errors), errors.max())
    assert np.abs(calibration.play_area_corners_px - camera.project(CORNERS_MM)).max() < 1.0
    assert report.reprojection_rms_mm < 1.0
    calibration.save(tmp_path / "cal.yaml")
    loaded = Calibration.load(tmp_path / "cal.yaml")
    assert np.allclose(loaded.image_to_table(camera.project(CORNERS_MM)), calibration.image_to_table(camera.project(CORNERS_MM)), atol=1e-3)
    assert (loaded.image_size, loaded.area_mm) == (size, (800.0, 600.0))


def test_strong_barrel_costs_millimetres_unless_estimated():
    frame, camera = rendered(20, BARREL)
    plain, plain_report = calibrate_image(frame, estimate_distortion=False)
    corrected, report = calibrate_image(frame)
    assert _errors_mm(plain, camera).max() > 5.0  # what ignoring the lens would cost
    assert _errors_mm(corrected, camera).max() < 1.5
    assert report.distortion_cost_mm == pytest.approx(_errors_mm(plain, camera).max(), rel=0.4)
    assert plain_report.distortion_source.startswith("none")


def test_yaml_schema(tmp_path):
    frame, _ = rendered()
    calibration, _ = calibrate_image(frame, fps=30.0)
    calibration.save(tmp_path / "cal.yaml")
    data = yaml.safe_load((tmp_path / "cal.yaml").read_text())
    assert data["schema_version"] == 1 and data["kind"] == "referee-table-calibration"
    assert np.array(data["play_area_corners_px"]).shape == (4, 2)
    assert data["play_area"] == {"width_mm": 800.0, "height_mm": 600.0}
    assert data["camera"] == {"image_size": [1280, 720], "fps": 30.0}
    assert np.array(data["homography_table_mm_to_image_px"]).shape == (3, 3)
    assert data["markers"]["ids_seen"] == [0, 1, 2, 3] and data["markers"]["dictionary"] == "DICT_4X4_50"
    assert set(data["zones"]) == {"spit_band", "spit_piles", "stock_rows", "stock_slots", "edges"}
    assert len(data["zones"]["stock_slots"]["A"]) == 5
    assert data["quality"]["verdict"] in ("good", "usable with warnings", "not usable")
    for key in ("reprojection_rms_mm", "px_per_mm_far_edge", "blur_px", "fps", "distortion_cost_mm"):
        assert key in data["quality"]
    assert (tmp_path / "cal.yaml").read_text().startswith("# Spit referee table calibration")


def test_a_file_with_only_corners_loads(tmp_path):
    frame, camera = rendered()
    corners = camera.project(CORNERS_MM)
    document = {"schema_version": 1, "play_area_corners_px": corners.tolist(), "play_area": {"width_mm": 800, "height_mm": 600}, "camera": {"image_size": [1280, 720]}}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(document))
    loaded = Calibration.load(tmp_path / "c.yaml")
    assert np.allclose(loaded.play_area_corners_px, corners, atol=1e-6)
    assert loaded.fps is None and loaded.method == "corners"


@pytest.mark.parametrize(
    "content, error, message",
    [
        (None, InputFileError, "not found"),
        ("{{{ not yaml", InputFileError, "not readable YAML"),
        ("- just\n- a list\n", CalibrationError, "expected a YAML mapping"),
        ("schema_version: 99\n", CalibrationError, "schema_version 99"),
        ("schema_version: 1\nplay_area_corners_px: [[0, 0]]\n", CalibrationError, "lacks or garbles"),
    ],
)
def test_bad_calibration_files_are_refused_in_one_line(tmp_path, content, error, message):
    path = tmp_path / "cal.yaml"
    if content is not None:
        path.write_text(content)
    with pytest.raises(error, match=message) as raised:
        Calibration.load(path)
    assert "\n" not in str(raised.value)


def test_hand_edited_corners_that_disagree_with_the_homography_are_refused(tmp_path):
    frame, _ = rendered()
    calibration, _ = calibrate_image(frame)
    calibration.save(tmp_path / "cal.yaml")
    data = yaml.safe_load((tmp_path / "cal.yaml").read_text())
    data["play_area_corners_px"][2][0] += 25
    (tmp_path / "cal.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(CalibrationError, match="disagree with homography"):
        Calibration.load(tmp_path / "cal.yaml")


def test_rectified_view_has_player_a_at_the_bottom_and_is_not_mirrored():
    frame, _ = rendered(25, BARREL)
    calibration, _ = calibrate_image(frame)
    ppm, margin = 2.0, 20.0
    assert calibration.rectify(frame, ppm).shape[:2] == (1200, 1600)
    view = calibration.rectify(frame, ppm, margin_mm=margin)  # the margin keeps the markers' white border
    assert view.shape[:2] == (1280, 1680)
    found = {s.marker_id: s for s in detect_markers(view)}  # mirrored markers would not decode
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, sighting in found.items():
        expected = calibration.table_to_rectified(np.array(calibration.layout.marker_corners(marker_id)), ppm, margin)
        assert np.abs(sighting.corners_px - expected).max() < 1.5
    assert found[0].corners_px[:, 1].mean() > 1100 and found[0].corners_px[:, 0].mean() < 200  # A's left: bottom-left
    back = calibration.rectified_to_table(calibration.table_to_rectified(CORNERS_MM, ppm, margin), ppm, margin)
    assert np.allclose(back, CORNERS_MM)


def test_rectify_refuses_a_frame_of_another_size():
    frame, _ = rendered()
    calibration, _ = calibrate_image(frame)
    with pytest.raises(CalibrationError, match="frame is 640x360 but the calibration was made at 1280x720"):
        calibration.rectify(frame[:360, :640], 2.0)


def test_undistort_straightens_the_play_area_edges():
    frame, camera = rendered(10, BARREL)
    calibration, _ = calibrate_image(frame)
    straight = calibration.undistort(frame)
    assert straight.shape == frame.shape
    edge = np.stack([np.linspace(0, 800, 9), np.zeros(9)], -1)
    ideal = calibration.lens.undistort_points(camera.project(edge))
    line = np.polyfit(ideal[:, 0], ideal[:, 1], 1)
    assert np.abs(np.polyval(line, ideal[:, 0]) - ideal[:, 1]).max() < 0.5


@pytest.mark.parametrize("area", [(0, 600), (800, 0), (-800, 600)])
def test_zero_area_is_refused(area):
    frame, _ = rendered()
    with pytest.raises(CalibrationError, match="positive width and height"):
        calibrate_image(frame, area=area)


def test_manual_corners_give_the_same_mapping_as_markers():
    frame, camera = rendered(15)
    calibration, report = calibrate_image(frame, corners=camera.project(CORNERS_MM))
    assert calibration.method == "corners" and report.reprojection_rms_mm is None
    assert _errors_mm(calibration, camera).max() < 0.01


@settings(max_examples=25, deadline=None)
@given(st.floats(0, 800), st.floats(0, 600))
def test_table_image_round_trip(x, y):
    calibration = _calibration_with_lens()
    point = np.array([[x, y]])
    assert np.allclose(calibration.image_to_table(calibration.table_to_image(point)), point, atol=1e-3)


_CACHE = {}


def _calibration_with_lens():
    if "cal" not in _CACHE:
        frame, _ = rendered(20, BARREL)
        _CACHE["cal"] = calibrate_image(frame)[0]
    return _CACHE["cal"]


def test_zones_contain_their_piles():
    zones = _calibration_with_lens().zones
    layout = _calibration_with_lens().layout
    for pile in (0, 1):
        assert zones.spit_piles[pile].contains(layout.spit_pile_centre(pile))
        assert "spit_band" in zones.zone_names_at(layout.spit_pile_centre(pile))
    for player in "AB":
        for index in range(5):
            assert zones.stock_slots[player][index].contains(layout.stock_centre(player, index))
            assert zones.stock_rows[player].contains(layout.stock_centre(player, index))
            assert not zones.spit_band.contains(layout.stock_centre(player, index))
