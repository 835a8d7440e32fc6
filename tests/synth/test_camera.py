import numpy as np
import pytest

from referee.synth.camera import CameraPose, make_camera, random_camera
from referee.table.layout import TableLayout


@pytest.mark.parametrize("seed", range(8))
def test_random_cameras_see_the_whole_play_area_and_invert(seed):
    layout = TableLayout()
    camera = random_camera(np.random.default_rng(seed), "720p", layout)
    assert 700 <= camera.pose.height <= 1300 and 0 <= camera.pose.tilt <= 35
    corners = np.array(camera.corners_px(layout))
    assert (corners[:, 0] > 0).all() and (corners[:, 0] < 1280).all()
    assert (corners[:, 1] > 0).all() and (corners[:, 1] < 720).all()
    points = np.array([[10.0, 20.0], [400.0, 300.0], [790.0, 580.0]])
    assert np.abs(camera.unproject(camera.project(points)) - points).max() < 1e-6


@pytest.mark.parametrize("heading, a_edge_below", [(0.0, True), (180.0, False)])
def test_heading_zero_puts_player_a_at_the_bottom(heading, a_edge_below):
    camera = make_camera(CameraPose(height=1000, tilt=10, heading=heading), "720p")
    a_side, b_side = camera.project(np.array([[400.0, 0.0], [400.0, 600.0]]))
    assert (a_side[1] > b_side[1]) == a_edge_below


def test_top_down_view_is_not_mirrored():
    # seen from above with A at the bottom, table x must run left to right
    camera = make_camera(CameraPose(height=1000, tilt=0, heading=0), "720p")
    left, right = camera.project(np.array([[0.0, 300.0], [800.0, 300.0]]))
    assert left[0] < right[0]


def test_pose_limits():
    with pytest.raises(ValueError):
        CameraPose(height=100)
