"""Which card lies on which, seen from the card edges in the picture."""

import cv2
import numpy as np
import pytest

from referee.vision.geometry import order_card_corners
from referee.vision.overlaps import showing_outlines


def card(centre, angle, height=220.0):
    return order_card_corners(cv2.boxPoints((centre, (height * 63 / 88, height), angle)).astype(np.float32))


def picture(cards_bottom_first):
    """Cards drawn on a brown table, each a white face with a black rim line and some ink on it."""
    image = np.full((500, 700, 3), (40, 70, 110), np.uint8)
    for quad in cards_bottom_first:
        points = np.round(quad).astype(np.int32)
        cv2.fillConvexPoly(image, points, (235, 235, 235))
        cv2.polylines(image, [points], True, (150, 150, 150), 1)
        centre = quad.mean(axis=0)
        cv2.circle(image, tuple(int(v) for v in centre), 18, (30, 30, 190), -1)
    return image


def box(quad):
    return np.concatenate([quad.min(axis=0), quad.max(axis=0)])


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_the_card_beneath_is_outlined_where_it_shows(order):
    # two cards side by side, the right one laid over most of the left
    left, right = card((250, 250), 0.0), card((330, 250), 0.0)
    quads = [left, right]
    bottom, top = order
    showing = showing_outlines(picture([quads[bottom], quads[top]]), quads)
    assert showing[top] is None
    part = showing[bottom]
    assert part is not None
    if bottom == 0:  # the left card shows its left 80 px
        expected = np.array([left[:, 0].min(), left[:, 1].min(), right[:, 0].min(), left[:, 1].max()])
    else:  # the right card shows its right 80 px
        expected = np.array([left[:, 0].max(), right[:, 1].min(), right[:, 0].max(), right[:, 1].max()])
    assert np.abs(box(part) - expected).max() < 3.0
    # corners clockwise (y down), from the one nearest the card's own first corner
    assert np.argmin(np.linalg.norm(part - quads[bottom][0], axis=1)) == 0
    assert sum(part[i, 0] * part[(i + 1) % 4, 1] - part[(i + 1) % 4, 0] * part[i, 1] for i in range(4)) > 0


def test_cards_apart_or_alone_are_outlined_whole():
    apart = [card((200, 250), 10.0), card((480, 250), -5.0)]
    assert showing_outlines(picture(apart), apart) == [None, None]
    assert showing_outlines(picture(apart[:1]), apart[:1]) == [None]


def test_a_card_barely_covered_keeps_its_whole_outline():
    # the top card covers only a corner of the other: it still shows more than the share outlined whole
    beneath, over = card((250, 250), 0.0), card((400, 380), 0.0)
    showing = showing_outlines(picture([beneath, over]), [beneath, over])
    assert showing == [None, None]


def test_a_corner_index_read_inside_the_other_card_settles_which_lies_on_top():
    # drawn with the right card over the left, so the edges say the right lies on top; but the left
    # card's lower index, inside the right's outline, is read as its own rank, and the right card's
    # upper index, inside the left's outline, is not: the left lies on top (its face art's edges fooled
    # the edges)
    left, right = card((250, 250), 0.0), card((330, 250), 0.0)
    image = picture([left, right])
    assert showing_outlines(image, [left, right])[0] is not None  # by the edges alone
    showing = showing_outlines(image, [left, right], index_shows=[(0.9, 0.9), (0.05, 0.9)])
    assert showing[0] is None and showing[1] is not None
    assert abs(box(showing[1])[0] - left[:, 0].max()) < 3.0  # the right card shows right of the left one


def test_indices_that_both_show_or_neither_leave_it_to_the_edges():
    left, right = card((250, 250), 0.0), card((330, 250), 0.0)
    image = picture([left, right])
    by_edges = showing_outlines(image, [left, right])
    for shows in ([(0.9, 0.9), (0.9, 0.9)], [(0.1, 0.1), (0.1, 0.1)]):
        showing = showing_outlines(image, [left, right], index_shows=shows)
        assert (showing[0] is None) == (by_edges[0] is None) and (showing[1] is None) == (by_edges[1] is None)


def test_the_card_beneath_a_card_turned_a_few_degrees_shows_its_strip_not_the_slivers_beside():
    # the card on top is turned 5 degrees: slivers of the card beneath show along its top and bottom
    # sides; what shows is the strip to its left
    beneath, over = card((250, 250), 0.0), card((330, 250), 5.0)
    showing = showing_outlines(picture([beneath, over]), [beneath, over])
    assert showing[1] is None
    strip = box(showing[0])
    assert strip[2] - strip[0] < 0.65 * (beneath[:, 0].max() - beneath[:, 0].min())
    assert abs(strip[0] - beneath[:, 0].min()) < 3.0
