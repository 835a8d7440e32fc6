"""Which card lies on which, and the part of each card that shows.

Where two found cards overlap, the one on top shows its corner index inside the other's outline, where
the one beneath cannot; and it shows its own edges across the other, where the one beneath has its
edges hidden. A card partly under others is outlined where it shows (the rectangle
around its uncovered part), as people outline cards in photos; its whole outline is kept beside it.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.vision.geometry import CARD_MM, card_to_image_homography

#: Two outlines overlapping by less than this share of the smaller are taken as merely touching.
LEAST_OVERLAP = 0.02
#: A card whose uncovered part is this share of it or more is outlined whole; under the smallest
#: share it is outlined whole too (too little shows to outline it by).
SHOWING_SHARE = (0.1, 0.8)
#: Spacing (px) of the samples taken along a card's sides to see whether they show.
SIDE_STEP = 2.0
#: Uncovered slivers of a card narrower than this share of its width are not taken as showing: two
#: outlines a few degrees apart leave one along the side of the card on top, and the rectangle around
#: the part that shows would take it in (a fan's strip outlined as nearly the whole card).
SLIVER = 0.1
#: The middle of a card's corner index (rank over suit), millimetres in from the corner it is printed at.
INDEX_MIDDLE_MM = (5.0, 12.0)
#: A corner read as the card's own rank at least this surely shows its index: nothing lies on it.
INDEX_SHOWS = 0.5


def showing_outlines(image: np.ndarray, quads: list[np.ndarray], index_shows: list[tuple[float, float]] | None = None) -> list[np.ndarray | None]:
    """For each card outline (4x2, image pixels), the outline of its part that shows, or None where
    the card shows whole (or nearly, or too little to tell). `index_shows`: for each card, how surely
    its own rank is read at its corner 0 and at its corner 2 (see `lying_on_top`)."""
    if len(quads) < 2:
        return [None] * len(quads)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    edges = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))  # an outline a pixel off still lands on its edge
    on_top = lying_on_top(edges, quads, index_shows)
    return [_showing_part(quad, [quads[i] for i in range(len(quads)) if on_top[i][j]]) for j, quad in enumerate(quads)]


def lying_on_top(edges: np.ndarray, quads: list[np.ndarray], index_shows: list[tuple[float, float]] | None = None) -> list[list[bool]]:
    """on_top[i][j]: card i lies on card j. First by the corner indices, when `index_shows` is given: a
    card whose index inside the other's outline is read as its own rank (INDEX_SHOWS), where the
    other's inside it is not, lies on top. Otherwise by the edges (`edges`: gradient magnitude of the
    picture): card i lies on card j when its sides show more edge inside card j than card j's sides
    show inside card i. (A card's sides under another run through that card's printed face, whose
    art has edges of its own; the index settles those.)"""
    count = len(quads)
    on_top = [[False] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            overlap, _ = cv2.intersectConvexConvex(quads[i].reshape(-1, 1, 2), quads[j].reshape(-1, 1, 2))
            smaller = min(cv2.contourArea(quads[i].reshape(-1, 1, 2)), cv2.contourArea(quads[j].reshape(-1, 1, 2)))
            if overlap < LEAST_OVERLAP * smaller:
                continue
            by_index = _by_indices(quads[i], quads[j], index_shows[i], index_shows[j]) if index_shows is not None else None
            if by_index is not None:
                on_top[i][j], on_top[j][i] = by_index, not by_index
                continue
            i_shows, j_shows = _edge_within(edges, quads[i], quads[j]), _edge_within(edges, quads[j], quads[i])
            if i_shows is None and j_shows is None:
                continue
            if j_shows is None or (i_shows is not None and i_shows > j_shows):
                on_top[i][j] = True
            else:
                on_top[j][i] = True
    return on_top


def _by_indices(first: np.ndarray, second: np.ndarray, first_shows: tuple[float, float], second_shows: tuple[float, float]) -> bool | None:
    """True when the first card lies on the second by their corner indices, False when the second
    lies on the first, None when the indices do not tell (neither or both show one inside the other)."""
    first_over = _index_shows_within(first, first_shows, second)
    second_over = _index_shows_within(second, second_shows, first)
    return first_over if first_over != second_over else None


def _index_shows_within(quad: np.ndarray, shows: tuple[float, float], other: np.ndarray) -> bool:
    """Whether one of the card's corner indices lies inside `other` and is read as its own rank."""
    width, height = CARD_MM
    middles = np.array([INDEX_MIDDLE_MM, (width - INDEX_MIDDLE_MM[0], height - INDEX_MIDDLE_MM[1])], np.float32)
    points = cv2.perspectiveTransform(middles.reshape(-1, 1, 2), card_to_image_homography(quad)).reshape(-1, 2)
    outline = np.asarray(other, np.float32).reshape(-1, 1, 2)
    return any(read >= INDEX_SHOWS and cv2.pointPolygonTest(outline, (float(x), float(y)), False) > 0
               for read, (x, y) in zip(shows, points))


def _edge_within(edges: np.ndarray, quad: np.ndarray, other: np.ndarray) -> float | None:
    """Mean edge strength along the sides of `quad` where they run inside `other` (kept a little in
    from its sides), or None where too little of them does."""
    centre = other.mean(axis=0)
    inner = (centre + 0.9 * (other - centre)).astype(np.float32).reshape(-1, 1, 2)
    height, width = edges.shape
    values = []
    for side in range(4):
        start, end = quad[side], quad[(side + 1) % 4]
        for share in np.linspace(0.05, 0.95, max(2, int(np.linalg.norm(end - start) / SIDE_STEP))):
            x, y = start + share * (end - start)
            if 0 <= x < width and 0 <= y < height and cv2.pointPolygonTest(inner, (float(x), float(y)), False) > 0:
                values.append(edges[int(y), int(x)])
    return float(np.mean(values)) if len(values) >= 4 else None


def _showing_part(quad: np.ndarray, covering: list[np.ndarray]) -> np.ndarray | None:
    if not covering:
        return None
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    corner = np.array([x0, y0], np.float32)
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - corner).astype(np.int32), 1)
    whole = max(int(mask.sum()), 1)
    for other in covering:
        cv2.fillConvexPoly(mask, np.round(other - corner).astype(np.int32), 0)
    side = int(max(3, SLIVER * min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]))))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count <= 1:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if not SHOWING_SHARE[0] <= stats[largest, cv2.CC_STAT_AREA] / whole < SHOWING_SHARE[1]:
        return None
    points = cv2.findNonZero((labels == largest).astype(np.uint8))
    return _ordered_like((cv2.boxPoints(cv2.minAreaRect(points)) + corner).astype(np.float32), quad)


def _ordered_like(rectangle: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """`rectangle`'s corners clockwise on screen, starting from the one nearest `quad`'s first corner."""
    centre = rectangle.mean(axis=0)
    rectangle = rectangle[np.argsort(np.arctan2(rectangle[:, 1] - centre[1], rectangle[:, 0] - centre[0]))]  # clockwise, y down
    first = int(np.argmin(np.linalg.norm(rectangle - quad[0], axis=1)))
    return np.roll(rectangle, -first, axis=0)


__all__ = ["showing_outlines", "lying_on_top"]
