"""The steep-camera benchmark's games: cameras as steep as the acceptance checks use, the whole play area
in the picture, decks that exist."""

import math

import pytest

from benchmarks.referee_steep import GAMES
from referee.synth import faces
from referee.synth.camera import CameraPose, make_camera
from referee.table.layout import TableLayout


@pytest.mark.parametrize("seed, fps, seconds, tilt, heading, height, design", GAMES)
def test_each_steep_camera_sees_the_whole_play_area_at_a_slant(seed, fps, seconds, tilt, heading, height, design):
    assert 33 <= tilt <= 35 and fps in (30, 60)
    assert design is None or design in faces.DESIGNS
    camera = make_camera(CameraPose(height=height, tilt=tilt, heading=heading, roll=1.0, k1=-0.04, k2=0.01))
    corners = camera.corners_px(TableLayout())
    assert all(0 <= x < camera.width and 0 <= y < camera.height for x, y in corners)
    # seen at a slant: the near edge of the play area is clearly longer in the picture than the far one
    sides = [math.dist(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    assert max(sides[0] / sides[2], sides[2] / sides[0], sides[1] / sides[3], sides[3] / sides[1]) > 1.2


def test_the_games_cover_both_frame_rates_and_decks_the_models_never_saw():
    assert {fps for _, fps, *_ in GAMES} == {30, 60}
    assert {"hershey", "svg:dondorf"} <= {design for *_, design in GAMES}
