import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.calibration.fit import check_convex_quadrilateral, fit_mapping, parse_corners
from referee.calibration.lens import radial_model
from referee.errors import CalibrationError
from referee.table.layout import TableLayout


@pytest.mark.parametrize(
    "text, expected",
    [
        ("10,20;30,40;50,60;70,80", [[10, 20], [30, 40], [50, 60], [70, 80]]),
        (" 1.5,2 ; 3,4;5,6;7,8; ", [[1.5, 2], [3, 4], [5, 6], [7, 8]]),
    ],
)
def test_corners_parse(text, expected):
    assert parse_corners(text).tolist() == expected


@pytest.mark.parametrize("text", ["1,2;3,4;5,6", "1,2;3,4;5,6;7", "a,b;1,2;3,4;5,6", "1,2;3,4;5,6;7,8;9,10", "1,2;3,4;5,6;nan,1"])
def test_bad_corner_text_is_refused_in_one_line(text):
    with pytest.raises(CalibrationError, match="expected --corners") as error:
        parse_corners(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "points, message",
    [
        ([[0, 0], [100, 0], [0, 100], [100, 100]], "not form a convex quadrilateral"),  # crossed (bow tie)
        ([[0, 0], [100, 0], [30, 30], [0, 100]], "not form a convex quadrilateral"),  # dented
        ([[0, 0], [100, 0], [200, 0], [300, 0]], "almost no area"),  # collinear
        ([[5, 5], [5, 5], [5, 5], [5, 5]], "almost no area"),
    ],
)
def test_non_convex_corners_are_refused(points, message):
    with pytest.raises(CalibrationError, match=message):
        check_convex_quadrilateral(np.array(points, float))


@pytest.mark.parametrize("points", [[[0, 0], [100, 0], [100, 80], [0, 80]], [[0, 80], [100, 80], [100, 0], [0, 0]]])
def test_convex_corners_pass_in_either_turning_sense(points):
    check_convex_quadrilateral(np.array(points, float))


def _projected_marker_corners(k1: float, size=(1280, 720)):
    """Marker corners through a known homography and radial term."""
    layout = TableLayout()
    table = np.array([c for i in range(4) for c in layout.marker_corners(i)])
    homography = np.array([[1.2, 0.2, 180.0], [0.0, -0.9, 660.0], [0.0, 0.0004, 1.0]])
    ideal = table @ homography[:, :2].T + homography[:, 2]
    ideal = ideal[:, :2] / ideal[:, 2:]
    return table, radial_model(size, k1).distort_points(ideal)


@pytest.mark.parametrize("k1", [-0.15, -0.05, 0.05])
def test_radial_term_is_recovered_from_the_16_marker_corners(k1):
    table, image = _projected_marker_corners(k1)
    fit = fit_mapping(table, image, (1280, 720))
    assert fit.lens is not None
    assert fit.lens.distortion[0] == pytest.approx(k1, abs=0.003)
    assert fit.rms_px < 0.01


def test_no_radial_term_is_invented_for_a_clean_homography():
    table, image = _projected_marker_corners(0.0)
    rng = np.random.default_rng(1)
    fit = fit_mapping(table, image + rng.normal(0, 0.1, image.shape), (1280, 720))
    assert fit.lens is None


@settings(max_examples=30, deadline=None)
@given(st.floats(-0.14, 0.3), st.lists(st.tuples(st.floats(0, 1279), st.floats(0, 719)), min_size=1, max_size=20))
def test_radial_model_distort_inverts_undistort(k1, points):
    # below k1 = -4/27 a barrel folds before the frame corner and has no inverse there
    lens = radial_model((1280, 720), k1)
    points = np.array(points)
    assert np.allclose(lens.distort_points(lens.undistort_points(points)), points, atol=1e-3)
