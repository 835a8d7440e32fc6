"""Cards cut by the picture's edge.

The detector outlines such a card by its part inside the picture, as a person boxing the photo
would. Its corner index can only be read from a whole card's outline, so the part is grown, away
from the picture's edge, to a whole card in the two ways it may lie (the part's uncut side being
the card's short side or its long side); the index classifier says which reads. A card found so is
reported by its part in the picture, its whole outline kept beside it.
"""

from __future__ import annotations

import numpy as np

from referee.vision.geometry import CARD_MM, card_to_image_homography, order_card_corners

#: A corner this share of the picture's shorter side from its edge (or beyond) lies on the edge.
EDGE_SHARE = 0.015
#: A part must be grown by at least this much to be a cut card (a whole card touching the edge is not).
LEAST_GROWTH = 1.08
#: A whole outline sticking out of the picture by less than this (px) is taken as inside it.
INSIDE_SLACK = 3.0

_CARD_ASPECT = CARD_MM[1] / CARD_MM[0]


def _on_edge(point: np.ndarray, width: int, height: int, margin: float) -> bool:
    x, y = point
    return x <= margin or y <= margin or x >= width - margin or y >= height - margin


def whole_card_guesses(quad: np.ndarray, width: int, height: int) -> list[np.ndarray]:
    """Whole-card outlines of a card whose found part (4x2 image pixels) lies along the edge of a
    width x height picture: the part grown beyond that edge to a card's shape, each way it may lie.
    None (an empty list) when no side of the part lies along the edge, or two do (a card cut at a
    picture's corner has no uncut side to measure it by)."""
    corners = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    margin = EDGE_SHARE * min(width, height)
    on_edge = [_on_edge(point, width, height, margin) for point in corners]
    cut_sides = [side for side in range(4) if on_edge[side] and on_edge[(side + 1) % 4]]
    if len(cut_sides) != 1:
        return []
    side = cut_sides[0]
    first, second = corners[side], corners[(side + 1) % 4]
    beside_second, beside_first = corners[(side + 2) % 4], corners[(side + 3) % 4]
    uncut = float(np.linalg.norm(second - first))
    depth = float(np.linalg.norm(first - beside_first))
    if uncut < 1.0 or depth < 1.0:
        return []
    outward = (first - beside_first) / depth
    guesses = []
    for whole_depth in (uncut * _CARD_ASPECT, uncut / _CARD_ASPECT):
        if whole_depth >= depth * LEAST_GROWTH:
            grown = np.array([beside_first + outward * whole_depth, beside_second + outward * whole_depth, beside_second, beside_first])
            guesses.append(order_card_corners(grown.astype(np.float32)))
    return guesses


def part_in_picture(quad: np.ndarray, width: int, height: int) -> np.ndarray | None:
    """The card-aligned outline of the part of a whole card outline inside a width x height picture;
    None when the card lies inside it (or nearly all of it does not)."""
    quad = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    if quad[:, 0].min() >= -INSIDE_SLACK and quad[:, 1].min() >= -INSIDE_SLACK and quad[:, 0].max() <= width + INSIDE_SLACK and quad[:, 1].max() <= height + INSIDE_SLACK:
        return None
    part, share = card_part_outline(card_to_image_homography(quad), width, height)
    if part is None or share < 0.05:
        return None
    part[:, 0] = np.clip(part[:, 0], 0, width)
    part[:, 1] = np.clip(part[:, 1], 0, height)
    return order_card_corners(part)


def card_part_outline(card_to_image: np.ndarray, width: int, height: int, slack: float = 0.0) -> tuple[np.ndarray | None, float]:
    """(the card-aligned outline, image pixels, of the part of a card inside a width x height picture,
    the share of the card inside it) for the homography from card millimetres to the picture; the
    outline is None when none of the card is inside. Points up to `slack` pixels out count as in."""
    grid = np.stack(np.meshgrid(np.linspace(0, CARD_MM[0], 64), np.linspace(0, CARD_MM[1], 89)), axis=-1).reshape(-1, 2)
    points = _apply(card_to_image, grid)
    inside = (points[:, 0] >= -slack) & (points[:, 0] <= width + slack) & (points[:, 1] >= -slack) & (points[:, 1] <= height + slack)
    if not inside.any():
        return None, 0.0
    (x0, y0), (x1, y1) = grid[inside].min(axis=0), grid[inside].max(axis=0)
    part = _apply(card_to_image, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)).astype(np.float32)
    return part, float(inside.mean())


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.c_[points, np.ones(len(points))] @ np.asarray(homography, dtype=np.float64).T
    return homogeneous[:, :2] / homogeneous[:, 2:3]
