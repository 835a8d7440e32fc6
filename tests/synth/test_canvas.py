"""The canvas: a card image drawn where its pose and size put it on the table."""

import numpy as np
import pytest

from referee.synth import faces
from referee.synth.canvas import CARD_SIZES, CanvasGeometry, card_affine, card_outline, draw_card
from referee.synth.scene import Pose


@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_a_card_images_corners_land_on_its_outline_at_its_size(size):
    pose, card_px_per_mm = Pose(200.0, 150.0, 30.0), 4.0
    geometry = CanvasGeometry((100.0, 50.0), 2.0, 400, 300)
    width, height = faces.card_size_px(card_px_per_mm)
    matrix = card_affine(pose, card_px_per_mm, geometry, card_mm=CARD_SIZES[size])
    # the image's outer pixel edges (face top-left, top-right, bottom-right, bottom-left) in canvas pixels
    edges = np.array([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]])
    landed = edges @ matrix[:, :2].T + matrix[:, 2]
    assert np.allclose(landed, geometry.to_px(card_outline(pose, card_mm=CARD_SIZES[size])), atol=1e-6)


def test_a_bridge_card_is_drawn_a_tenth_narrower_and_as_tall():
    geometry = CanvasGeometry((0.0, 0.0), 2.0, 240, 240)
    image = np.full((*faces.card_size_px(4.0)[::-1], 3), 255, np.uint8)
    mask = np.full(image.shape[:2], 255, np.uint8)
    drawn = {}
    for size in ("poker", "bridge"):
        canvas = np.zeros((240, 240, 3), np.uint8)
        draw_card(canvas, geometry, image, mask, 4.0, Pose(60.0, 60.0, 0.0), card_mm=CARD_SIZES[size])
        rows, cols = np.nonzero(canvas[..., 0] > 127)
        drawn[size] = ((cols.max() - cols.min() + 1) / 2.0, (rows.max() - rows.min() + 1) / 2.0)  # mm
    assert drawn["poker"] == pytest.approx((63.0, 88.0), abs=1.0)
    assert drawn["bridge"] == pytest.approx((57.0, 89.0), abs=1.0)
