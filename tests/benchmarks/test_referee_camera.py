"""The other cameras of benchmarks.referee_camera: each does to a frame what it says."""

import numpy as np
import pytest

from benchmarks.referee_camera import CAMERAS, seen_by

#: a grey frame with a sharp white square in the middle
FRAME = np.full((120, 160, 3), 120, np.uint8)
FRAME[40:80, 60:100] = 230


def test_the_plain_camera_shows_the_frame_as_it_is():
    assert np.array_equal(seen_by(FRAME, "plain", 1.0), FRAME)


def test_sensor_noise_spreads_each_pixel_by_about_six_grey_levels_afresh_each_frame():
    first, second = seen_by(FRAME, "noisy", 1.0), seen_by(FRAME, "noisy", 1.0 + 1 / 30)
    spread = (first.astype(float) - FRAME)[:30].std()
    assert 5.0 < spread < 7.0
    assert not np.array_equal(first, second)


def test_soft_focus_blurs_a_sharp_edge():
    edge = seen_by(FRAME, "soft", 0.0)[60, 58:62, 0]
    assert edge[0] < edge[1] < edge[2] < edge[3] and edge[0] > 120 and edge[3] < 230


def test_the_vignette_darkens_the_corners_not_the_middle():
    seen = seen_by(FRAME, "vignette", 0.0)
    assert seen[60, 80, 0] == 230 and seen[0, 0, 0] < 0.7 * 120


def test_jpeg_blocks_change_the_frame():
    seen = seen_by(FRAME, "blocky", 0.0)
    assert seen.shape == FRAME.shape and not np.array_equal(seen, FRAME)


def test_the_contrasty_style_darkens_mid_greys_and_pales_colours():
    coloured = np.zeros_like(FRAME)
    coloured[...] = (40, 80, 200)
    seen = seen_by(coloured, "contrasty", 0.0).astype(int)
    assert seen_by(FRAME, "contrasty", 0.0)[0, 0, 0] < 120
    assert np.ptp(seen[0, 0]) < np.ptp(coloured[0, 0].astype(int))


def test_an_unknown_camera_is_refused():
    with pytest.raises(ValueError, match="unknown camera"):
        seen_by(FRAME, "fisheye", 0.0)
    assert "plain" in CAMERAS
