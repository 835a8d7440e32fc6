import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.vision.geometry import (CARD_MM, index_crops, letterbox, order_card_corners, quad_iou, rectify_card, refine_outline, suit_crops,
                                     turn_half_round)


def rotated_card(center, height, angle_degrees):
    return cv2.boxPoints(((center[0], center[1]), (height * CARD_MM[0] / CARD_MM[1], height), angle_degrees)).astype(np.float32)


@settings(max_examples=200, deadline=None)
@given(
    x=st.floats(50, 500), y=st.floats(50, 500), height=st.floats(20, 400), angle=st.floats(0, 360),
    shuffle=st.permutations(range(4)),
)
def test_ordered_corners_run_clockwise_from_a_short_edge(x, y, height, angle, shuffle):
    quad = rotated_card((x, y), height, angle)[list(shuffle)]
    ordered = order_card_corners(quad)
    assert sorted(map(tuple, ordered.tolist())) == sorted(map(tuple, quad.tolist()))
    short, long = np.linalg.norm(ordered[1] - ordered[0]), np.linalg.norm(ordered[2] - ordered[1])
    assert short <= long + 1e-3
    # clockwise on screen (y down): positive signed area in image coordinates
    area = 0.5 * sum(ordered[i, 0] * ordered[(i + 1) % 4, 1] - ordered[(i + 1) % 4, 0] * ordered[i, 1] for i in range(4))
    assert area > 0


def test_an_upright_card_keeps_its_upper_left_corner_first():
    quad = np.array([[10, 10], [73, 10], [73, 98], [10, 98]], np.float32)
    assert order_card_corners(quad[[2, 0, 3, 1]]).tolist() == quad.tolist()
    assert turn_half_round(quad)[0].tolist() == [73, 98]


def test_index_crops_cut_both_corners_upright():
    # a card whose top-left corner holds a black square and whose bottom-right holds the same square turned
    card = np.full((880, 630, 3), 255, np.uint8)
    cv2.rectangle(card, (30, 30), (120, 80), (0, 0, 0), -1)
    card = np.minimum(card, np.rot90(card, 2))
    scene = np.full((1000, 1000, 3), 90, np.uint8)
    scene[60:940, 185:815] = card
    # outline on the pixels' outer edges (OpenCV puts pixel centres on integers)
    quad = order_card_corners(np.array([[184.5, 59.5], [814.5, 59.5], [814.5, 939.5], [184.5, 939.5]], np.float32))
    first, second = index_crops(scene, quad, 64)
    assert first.shape == second.shape == (64, 64, 3)
    assert np.abs(first.astype(int) - second.astype(int))[2:-2, 2:-2].mean() < 2
    assert first[8:14, 12:30].mean() < 30  # the square sits in the crop's upper left
    assert first[50:, 50:].mean() > 200


def test_suit_crops_cut_both_index_corners_upright_at_two_pixels_a_millimetre():
    # a card (10 px a mm) with a red mark 5-15 mm into its upper-left corner and a blue one as far
    # into its lower-right corner
    card = np.full((880, 630, 3), 255, np.uint8)
    cv2.rectangle(card, (50, 50), (150, 150), (0, 0, 255), -1)
    cv2.rectangle(card, (630 - 150, 880 - 150), (630 - 50, 880 - 50), (255, 0, 0), -1)
    scene = np.full((1000, 1000, 3), 90, np.uint8)
    scene[60:940, 185:815] = card
    quad = order_card_corners(np.array([[184.5, 59.5], [814.5, 59.5], [814.5, 939.5], [184.5, 939.5]], np.float32))
    first, second = suit_crops(scene, quad)
    assert first.shape == second.shape == (80, 64, 3)  # 40 x 32 mm at 2 px a mm
    assert first[12:28, 12:28, 2].mean() > 200 and first[12:28, 12:28, 0].mean() < 50  # red, 6-14 mm in
    assert second[12:28, 12:28, 0].mean() > 200 and second[12:28, 12:28, 2].mean() < 50  # blue, turned upright
    assert first[40:, 40:].mean() > 240 and second[40:, 40:].mean() > 240


def test_rectify_card_gives_the_card_upright_size():
    scene = np.zeros((300, 300, 3), np.uint8)
    quad = order_card_corners(rotated_card((150, 150), 176, 30))
    assert rectify_card(scene, quad, 2.0).shape == (176, 126, 3)


@pytest.mark.parametrize("shape", [(720, 1280), (504, 378), (320, 320), (100, 50)])
def test_letterbox_maps_points_back(shape):
    image = np.zeros(shape + (3,), np.uint8)
    padded, scale, (pad_x, pad_y) = letterbox(image, 320)
    assert padded.shape == (320, 320, 3)
    corner_x = (shape[1] * scale) + pad_x
    corner_y = (shape[0] * scale) + pad_y
    assert corner_x <= 320.5 and corner_y <= 320.5
    assert min(pad_x, pad_y) == 0


@pytest.mark.parametrize(
    "shift, expected", [(0, 1.0), (63, 0.0), (31.5, 1 / 3)],
)
def test_quad_iou(shift, expected):
    quad = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    assert quad_iou(quad, quad + np.array([shift, 0], np.float32)) == pytest.approx(expected, abs=1e-3)


def drawn_card_on_table(quad: np.ndarray) -> np.ndarray:
    """A white card with a red pip on a dark brown table, as a grey picture."""
    scene = np.full((600, 600, 3), (30, 50, 80), np.uint8)
    cv2.fillConvexPoly(scene, np.round(quad * 16).astype(np.int32), (235, 235, 235), lineType=cv2.LINE_AA, shift=4)
    cv2.circle(scene, tuple(int(v) for v in quad.mean(axis=0)), 20, (40, 40, 200), -1)
    return cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize("turned_by", [-14.0, -6.0, 9.0, 15.0])
def test_a_turned_outline_is_snapped_to_the_card_only_when_sides_may_turn(turned_by):
    card = order_card_corners(rotated_card((300, 300), 300, 8.0))
    rough = order_card_corners(rotated_card((306, 296), 300, 8.0 + turned_by))
    gray = drawn_card_on_table(card)
    error = lambda quad: float(np.linalg.norm(order_card_corners(quad) - card, axis=1).max())
    turned = refine_outline(gray, rough, search=0.15, turn_degrees=20.0)
    assert error(turned) < 3.0
    assert error(refine_outline(gray, rough)) > 10.0  # sides that may only shift keep the rough angle


def test_a_side_turned_further_than_allowed_is_not_followed():
    card = order_card_corners(rotated_card((300, 300), 300, 8.0))
    rough = order_card_corners(rotated_card((300, 300), 300, 23.0))
    gray = drawn_card_on_table(card)
    refined = refine_outline(gray, rough, search=0.15, turn_degrees=5.0)
    assert float(np.linalg.norm(refined - card, axis=1).max()) > 10.0


@pytest.mark.parametrize("shape, padded_shape", [((720, 1280), (160, 256)), ((1280, 720), (256, 160)), ((480, 640), (192, 256)),
                                                 ((256, 256), (256, 256)), ((50, 100), (128, 256))])
def test_letterbox_to_a_stride_pads_only_to_its_next_multiple_and_maps_points_back(shape, padded_shape):
    image = np.zeros(shape + (3,), np.uint8)
    image[shape[0] // 4, shape[1] // 3] = 255  # one bright pixel, found again where the mapping puts it
    padded, scale, (pad_x, pad_y) = letterbox(image, 256, stride=32)
    assert padded.shape[:2] == padded_shape
    assert max(padded.shape[:2]) == 256 and min(pad_x, pad_y) == 0
    row, col = np.unravel_index(np.argmax(padded[..., 0].astype(int) - 114 * (padded[..., 0] == 114)), padded.shape[:2])
    assert abs((col - pad_x) / scale - shape[1] // 3) <= 1.5 / scale + 0.5
    assert abs((row - pad_y) / scale - shape[0] // 4) <= 1.5 / scale + 0.5
