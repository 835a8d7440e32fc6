"""Cards cut by the picture's edge: the part in the picture, and the whole card grown back from it."""

import cv2
import numpy as np
import pytest

from referee.vision.geometry import order_card_corners
from referee.vision.picture_edge import part_in_picture, whole_card_guesses

WIDTH, HEIGHT = 700, 500


def card(centre, angle, height=220.0):
    return order_card_corners(cv2.boxPoints((centre, (height * 63 / 88, height), angle)).astype(np.float32))


def same_outline(first, second, tolerance=2.0):
    """Two outlines with the same corners, in any order of labelling."""
    first, second = np.asarray(first, np.float32), np.asarray(second, np.float32)
    return any(np.abs(np.roll(first, shift, axis=0) - second).max() <= tolerance for shift in range(4))


@pytest.mark.parametrize("centre, angle", [
    ((350, 450), 0.0),    # upright, its lower third below the picture
    ((660, 250), 90.0),   # lying across, a third beyond the right edge
    ((300, 40), 0.0),     # its upper half above the picture
    ((80, 250), 90.0),    # beyond the left edge
])
def test_a_cut_card_is_grown_back_whole_from_its_part_in_the_picture(centre, angle):
    whole = card(centre, angle)
    part = part_in_picture(whole, WIDTH, HEIGHT)
    assert part is not None
    assert part[:, 0].min() >= 0 and part[:, 1].min() >= 0 and part[:, 0].max() <= WIDTH and part[:, 1].max() <= HEIGHT
    assert cv2.contourArea(part) < 0.9 * cv2.contourArea(whole)
    guesses = whole_card_guesses(part, WIDTH, HEIGHT)
    assert any(same_outline(guess, whole) for guess in guesses)


def test_a_card_inside_the_picture_is_left_as_it_is():
    whole = card((350, 250), 30.0)
    assert part_in_picture(whole, WIDTH, HEIGHT) is None
    assert whole_card_guesses(whole, WIDTH, HEIGHT) == []


def test_a_card_cut_at_a_corner_of_the_picture_is_not_guessed():
    whole = card((20, 20), 0.0)
    part = part_in_picture(whole, WIDTH, HEIGHT)
    assert part is not None
    assert whole_card_guesses(part, WIDTH, HEIGHT) == []


def test_the_part_of_a_card_cut_aslant_keeps_the_card_s_direction():
    whole = card((350, 470), 25.0)
    part = part_in_picture(whole, WIDTH, HEIGHT)
    assert part is not None
    sides = [part[1] - part[0], whole[1] - whole[0]]
    angles = [np.degrees(np.arctan2(side[1], side[0])) % 180 for side in sides]
    assert abs(angles[0] - angles[1]) < 2 or abs(abs(angles[0] - angles[1]) - 90) < 2
