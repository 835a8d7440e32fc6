"""The relit games of benchmarks.referee_light: each light does to a frame what it says."""

import numpy as np
import pytest

from benchmarks.referee_light import LIGHTS, relight

GREY = np.full((20, 1280, 3), 200, np.uint8)


def test_steady_light_leaves_the_frame_as_it_is():
    assert np.array_equal(relight(GREY, "steady", 3.0), GREY)


def test_the_room_dims_to_65_percent_and_comes_back():
    assert relight(GREY, "dimmed", 4.0)[0, 0, 0] == 200
    assert relight(GREY, "dimmed", 8.0)[0, 0, 0] == 130
    assert relight(GREY, "dimmed", 12.0)[0, 0, 0] == 200


def test_flicker_swings_six_percent_either_way():
    peak = 1 / 400  # a quarter of the 100 Hz cycle
    assert relight(GREY, "flicker", peak)[0, 0, 0] == 212
    assert relight(GREY, "flicker", 3 * peak)[0, 0, 0] == 188


def test_the_white_balance_drifts_warm():
    blue, green, red = relight(GREY, "warm", 10.0)[0, 0]
    assert blue < green < red


def test_a_shadow_darkens_where_it_passes_and_nowhere_else():
    frame = relight(GREY, "shadow", 6.5)   # its core at column (2.5 / 5) * 1880 - 300 = 640
    assert frame[0, 640, 0] == 140 and frame[0, 0, 0] == 200 and frame[0, 1279, 0] == 200
    assert np.array_equal(relight(GREY, "shadow", 10.0), GREY)


def test_a_person_leaning_in_darkens_the_right_side_while_there():
    frame = relight(GREY, "lean", 7.0)   # still, its core at column 1280 + 200 - 650 = 830
    assert frame[9, 830, 0] == 120 and frame[9, 0, 0] == 200
    assert np.array_equal(relight(GREY, "lean", 3.0), GREY) and np.array_equal(relight(GREY, "lean", 10.5), GREY)


def test_the_leaning_shadow_is_there_as_the_video_opens_and_leaves():
    assert relight(GREY, "leave", 0.0)[9, 830, 0] == 120
    assert np.array_equal(relight(GREY, "leave", 6.0), GREY)


def test_an_unknown_light_is_refused():
    with pytest.raises(ValueError, match="unknown light"):
        relight(GREY, "disco", 1.0)
    assert "steady" in LIGHTS
