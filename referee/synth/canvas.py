"""The top-down table image the renderer composes each frame before the camera warps it.

A canvas covers a rectangle of the table frame at `px_per_mm`; its pixel (i, j) has its centre at
table (origin_x + (i + 0.5) / px_per_mm, origin_y + (j + 0.5) / px_per_mm). Note the canvas is the table
seen from *below* (row index grows with table y): only the camera's warp turns it into a view from above,
so everything drawn here is placed by table coordinates, never by how it "looks" in the canvas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.synth.scene import Pose
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, TableLayout

#: Card sizes on the table (width, height mm): the poker size every deck here is drawn at, and the
#: bridge size many decks are printed at (`referee simulate --card-size`).
CARD_SIZES: dict[str, tuple[float, float]] = {"poker": (CARD_WIDTH_MM, CARD_HEIGHT_MM), "bridge": (57.0, 89.0)}
POKER = CARD_SIZES["poker"]

_SHIFT = 4  # sub-pixel bits for OpenCV's polygon drawing
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class CanvasGeometry:
    origin: tuple[float, float]   # table mm at the canvas's top-left corner
    px_per_mm: float
    width: int
    height: int

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        points = np.asarray(points_mm, np.float64)
        return (points - np.array(self.origin)) * self.px_per_mm - 0.5

    def to_fixed(self, points_mm: np.ndarray) -> np.ndarray:
        """Points in canvas px as OpenCV fixed-point integers (for drawing with shift=_SHIFT)."""
        return np.round(self.to_px(points_mm) * _ONE).astype(np.int32)

    def box(self, points_mm: np.ndarray, pad_mm: float = 0.0) -> tuple[int, int, int, int] | None:
        """Canvas pixel box (x0, y0, x1, y1), clipped, of the points plus a margin; None if off the canvas."""
        px = self.to_px(points_mm)
        pad = pad_mm * self.px_per_mm
        x0 = max(0, int(math.floor(px[:, 0].min() - pad)))
        y0 = max(0, int(math.floor(px[:, 1].min() - pad)))
        x1 = min(self.width, int(math.ceil(px[:, 0].max() + pad)) + 1)
        y1 = min(self.height, int(math.ceil(px[:, 1].max() + pad)) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1


def fill_polygon(image: np.ndarray, geometry: CanvasGeometry, points_mm: np.ndarray, colour, *, antialias: bool = True) -> None:
    cv2.fillPoly(image, [geometry.to_fixed(points_mm)], colour, cv2.LINE_AA if antialias else cv2.LINE_8, _SHIFT)


def card_affine(pose: Pose, card_px_per_mm: float, geometry: CanvasGeometry, offset: tuple[int, int] = (0, 0), flip: float = 1.0,
                card_mm: tuple[float, float] = POKER) -> np.ndarray:
    """2x3 matrix from a card image's pixels (card_px_per_mm) to canvas pixels, minus `offset` (a box corner).

    `flip` narrows the card across its width about its centre line (a card being turned over). `card_mm`:
    the card's size on the table; an image drawn at the poker size is stretched to it (a bridge card's
    face is the poker face drawn a tenth narrower)."""
    a = math.radians(pose.angle)
    stretch_u, stretch_v = card_mm[0] / CARD_WIDTH_MM, card_mm[1] / CARD_HEIGHT_MM
    right = np.array([math.cos(a), math.sin(a)]) * flip * stretch_u
    down = np.array([math.sin(a), -math.cos(a)]) * stretch_v
    r, c = geometry.px_per_mm, card_px_per_mm
    # card pixel centre p -> face u = (p + 0.5) / c mm of the poker-size image -> table -> canvas
    linear = np.column_stack([right, down]) * r / c
    table_at_zero = np.array([pose.x, pose.y]) + right * (0.5 / c - CARD_WIDTH_MM / 2) + down * (0.5 / c - CARD_HEIGHT_MM / 2)
    translation = (table_at_zero - np.array(geometry.origin)) * r - 0.5 - np.array(offset, np.float64)
    return np.column_stack([linear, translation]).astype(np.float64)


def card_outline(pose: Pose, flip: float = 1.0, card_mm: tuple[float, float] = POKER) -> np.ndarray:
    """The card's four corners (face TL, TR, BR, BL) in the table frame, narrowed by `flip`."""
    return pose.corners(card_mm[0] * flip, card_mm[1])


def blend_into(canvas: np.ndarray, box: tuple[int, int, int, int], colour: np.ndarray, alpha: np.ndarray) -> None:
    """canvas[box] = canvas * (1 - alpha) + colour * alpha, alpha float32 0..1 (h, w)."""
    x0, y0, x1, y1 = box
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    a = alpha[..., None]
    canvas[y0:y1, x0:x1] = (region + (colour.astype(np.float32) - region) * a).astype(np.uint8)


def draw_card(canvas: np.ndarray, geometry: CanvasGeometry, image: np.ndarray, mask: np.ndarray, card_px_per_mm: float,
              pose: Pose, *, flip: float = 1.0, shade: np.ndarray | None = None,
              card_mm: tuple[float, float] = POKER) -> tuple[int, int, int, int] | None:
    """Warps a card image (with its mask) onto the canvas at `pose`, `card_mm` in size; `shade` (same size as
    the card image, float32) multiplies its colours (bends, dirt, glare). Returns the box drawn."""
    box = geometry.box(card_outline(pose, flip, card_mm), pad_mm=1.0)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    matrix = card_affine(pose, card_px_per_mm, geometry, (x0, y0), flip, card_mm)
    size = (x1 - x0, y1 - y0)
    source = image if shade is None else np.clip(image.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    warped = cv2.warpAffine(source, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(mask, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    blend_into(canvas, box, warped, alpha.astype(np.float32) / 255.0)
    return box


def darken(canvas: np.ndarray, box: tuple[int, int, int, int], amount: np.ndarray) -> None:
    """Multiplies canvas[box] by (1 - amount), amount float32 0..1 (a shadow)."""
    x0, y0, x1, y1 = box
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region * (1 - amount[..., None])).astype(np.uint8)


def draw_markers(canvas: np.ndarray, geometry: CanvasGeometry, layout: TableLayout, rng: np.random.Generator) -> None:
    """The four ArUco markers (DICT_4X4_50, ids 0-3) printed on paper sheets, placed exactly as layout says."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id in range(4):
        corners = np.array(layout.marker_corners(marker_id), np.float64)  # TL, TR, BR, BL of the printed marker
        top_left, top_right, bottom_left = corners[0], corners[1], corners[3]
        across = (top_right - top_left) / 6.0
        down = (bottom_left - top_left) / 6.0
        quiet = float(rng.uniform(7, 12)) / 10.0  # white margin, in cells of 10 mm
        paper = np.array([top_left - (across + down) * quiet, top_right + (across - down) * quiet,
                          corners[2] + (across + down) * quiet, bottom_left + (down - across) * quiet])
        shadow = paper + np.array([0.6, -0.6])
        fill_polygon(canvas, geometry, shadow, (60, 60, 60))
        tint = int(rng.uniform(225, 250))
        fill_polygon(canvas, geometry, paper, (tint, tint + int(rng.integers(0, 4)), tint + int(rng.integers(0, 4))))
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
        ink = float(rng.uniform(15, 40))
        _draw_marker_bits(canvas, geometry, bits, top_left, top_right, bottom_left, ink, float(tint))


def _draw_marker_bits(canvas: np.ndarray, geometry: CanvasGeometry, bits: np.ndarray, top_left: np.ndarray,
                      top_right: np.ndarray, bottom_left: np.ndarray, ink: float, paper: float) -> None:
    """The marker's cells, supersampled 4x with nearest-neighbour and averaged down: exact edges, no seams."""
    square = np.array([top_left, top_right, top_right + bottom_left - top_left, bottom_left])
    box = geometry.box(square, pad_mm=1.0)
    if box is None:
        return
    x0, y0, x1, y1 = box
    factor = 4
    corners_canvas = geometry.to_px(np.array([top_left, top_right, bottom_left])) - np.array([x0, y0])
    destination = ((corners_canvas + 0.5) * factor - 0.5).astype(np.float32)
    source = np.array([[-0.5, -0.5], [5.5, -0.5], [-0.5, 5.5]], np.float32)
    matrix = cv2.getAffineTransform(source, destination)
    size = ((x1 - x0) * factor, (y1 - y0) * factor)
    fine = cv2.warpAffine(bits, matrix, size, flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=255)
    coverage = cv2.resize(fine, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    darkness = 1.0 - coverage  # 1 where the cell is black
    colour = np.full((y1 - y0, x1 - x0, 3), ink, np.float32)
    blend_into(canvas, box, colour, darkness)
