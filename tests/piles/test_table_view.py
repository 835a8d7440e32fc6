"""The view from above: maps worked out on a coarse grid and interpolated sample the frame where the
exact calibration says, to well under a pixel."""

import cv2
import numpy as np
import pytest

from referee.calibration.calibration import Calibration
from referee.calibration.lens import LensModel
from referee.piles.table_view import MAP_STEP, RectMM, TableView, _maps_for

CORNERS = [[330.0, 120.0], [990.0, 150.0], [1060.0, 640.0], [250.0, 600.0]]  # a camera tilted and turned


def calibration(distortion):
    lens = LensModel(camera_matrix=np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]),
                     distortion=np.array(distortion), image_size=(1280, 720))
    return Calibration.from_corners(np.array(CORNERS), image_size=(1280, 720), lens=lens)


@pytest.mark.parametrize("distortion", [[0, 0, 0, 0, 0], [-0.2, 0.05, 0.001, -0.001, 0]], ids=["pinhole", "barrel"])
@pytest.mark.parametrize("columns, rows", [(408, 468), (400, 300), (7, 5)], ids=["pile_crop", "view", "tiny"])
def test_interpolated_maps_sample_where_the_calibration_says(distortion, columns, rows):
    table_to_image = calibration(distortion).table_to_image
    xs = 40.0 + (np.arange(columns) + 0.5) / 3.0
    ys = 500.0 - (np.arange(rows) + 0.5) / 3.0
    maps = _maps_for(table_to_image, xs, ys)
    sampled = cv2.convertMaps(maps[0], maps[1], cv2.CV_32FC2)[0]
    grid_x, grid_y = np.meshgrid(xs, ys)
    exact = np.asarray(table_to_image(np.stack([grid_x.ravel(), grid_y.ravel()], axis=-1))).reshape(rows, columns, 2)
    assert sampled.shape == (rows, columns, 2)
    assert np.abs(sampled - exact).max() < 0.05   # fixed-point maps themselves round to 1/32 px
    if columns > 2 * MAP_STEP:
        assert np.abs(sampled[::MAP_STEP, ::MAP_STEP] - exact[::MAP_STEP, ::MAP_STEP]).max() < 0.04


def test_crop_pixels_and_table_millimetres_convert_both_ways():
    rect = RectMM(210.0, 222.0, 398.0, 378.0)
    points = np.array([[215.5, 370.25], [300.0, 300.0], [397.0, 223.0]])
    pixels = TableView.in_crop(points, rect, 3.0)
    assert np.allclose(pixels[0], [(215.5 - 210.0) * 3.0 - 0.5, (378.0 - 370.25) * 3.0 - 0.5])  # A at the bottom
    assert np.allclose(TableView.from_crop(pixels, rect, 3.0), points)
