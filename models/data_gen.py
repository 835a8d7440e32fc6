"""Training scenes for the card models, drawn from the synthetic table's faces and surfaces.

One scene is a photo-like image of cards scattered, fanned, gridded or piled on a table, seen at any
angle under random perspective, light, shadow, blur, noise and JPEG loss, with distractors and hands.
From a scene come
- detector labels: each face-up card's outline (ultralytics OBB polygon format), and
- index crops: both corners of each card cut by `referee.vision.geometry.index_crops` from a
  deliberately imperfect outline (as the detector will give), labelled with the card or `none`.

Everything is deterministic per seed. Only numpy and OpenCV are needed, so tests can render scenes.
"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np

from referee.rules.cards import RANKS, SUITS, Card
from referee.synth import faces
from referee.vision.geometry import CARD_MM, index_crops, order_card_corners
from referee.vision.picture_edge import card_part_outline

try:  # the synthetic table's textures; our own procedural ones are used alongside
    from referee.synth.surfaces import table_surface
except ImportError:  # pragma: no cover - surfaces.py is optional
    table_surface = None

ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
NONE_CLASS = "none"
#: Resolutions faces are drawn at (px per mm); a card is drawn from the smallest one at least 1.3x
#: its size in the scene, so shrinking it never aliases.
FACE_RESOLUTIONS = (2.0, 4.0, 7.0)


@dataclasses.dataclass(frozen=True)
class SceneCard:
    card: Card
    quad: np.ndarray  # (4, 2) image px: the face's corners (0,0), (63,0), (63,88), (0,88) mm
    visible: float  # fraction of the card seen: inside the picture and not covered by anything
    index_visible: tuple[float, float]  # fraction of the top-left and bottom-right index boxes visible
    design: str
    #: a card cut by the picture's edge: the card-aligned outline of its part inside the picture (what
    #: the detector is taught to outline, as a person boxing the photo would); None when it is all in.
    shown_quad: np.ndarray | None = None


@dataclasses.dataclass(frozen=True)
class Scene:
    image: np.ndarray
    cards: list[SceneCard]
    backs: list[np.ndarray]  # outlines of face-down cards


# ------------------------------------------------------------------------------------------ faces
@functools.lru_cache(maxsize=4096)
def _face(card: Card, design: str, px_per_mm: float) -> np.ndarray:
    return faces.card_face(card, design, px_per_mm)


@functools.lru_cache(maxsize=256)
def _back(design: str, px_per_mm: float) -> np.ndarray:
    return faces.card_back(design, px_per_mm)


def _index_box(design: str) -> tuple[float, float, float, float]:
    try:
        return tuple(float(v) for v in faces.index_box_mm(design))
    except Exception:  # an older faces module, or a design without a measured box
        return (1.0, 1.5, 10.0, 20.0)


# ------------------------------------------------------------------------------------- backgrounds
def _noise(rng: np.random.Generator, width: int, height: int, scale: float) -> np.ndarray:
    small = rng.standard_normal((max(2, int(height / scale)), max(2, int(width / scale)))).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def procedural_background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Carpet, wood, cloth, plain or busy backgrounds; variety matters more than realism."""
    kind = rng.choice(["carpet", "wood", "cloth", "plain", "busy", "stripes"])
    base = rng.uniform(20, 230, size=3).astype(np.float32)
    if rng.random() < 0.5:  # mostly greys and browns, as real tables and floors are
        grey = rng.uniform(30, 220)
        base = np.array([grey * rng.uniform(0.7, 1.0), grey * rng.uniform(0.8, 1.05), grey * rng.uniform(0.9, 1.2)], np.float32)
    field = np.zeros((height, width), np.float32)
    if kind == "carpet":
        field = 28 * rng.standard_normal((height, width)).astype(np.float32) + 18 * _noise(rng, width, height, 3)
        field = cv2.GaussianBlur(field, (0, 0), rng.uniform(0.6, 1.5))
    elif kind == "wood":
        stretch = rng.uniform(20, 80)
        grain = cv2.resize(rng.standard_normal((max(2, int(height / 2)), max(2, int(width / stretch)))).astype(np.float32), (width, height))
        field = 30 * grain + 10 * _noise(rng, width, height, 30)
        field = 25 * np.sin(field / 9.0) + field
        if rng.random() < 0.5:
            field = field.T.copy() if width == height else cv2.resize(field.T.copy(), (width, height))
    elif kind == "cloth":
        field = 30 * _noise(rng, width, height, rng.uniform(40, 120)) + 6 * rng.standard_normal((height, width)).astype(np.float32)
    elif kind == "plain":
        field = 12 * _noise(rng, width, height, 60) + 3 * rng.standard_normal((height, width)).astype(np.float32)
    elif kind == "stripes":
        period = rng.uniform(6, 40)
        angle = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        phase = (xx * np.cos(angle) + yy * np.sin(angle)) / period + 2 * _noise(rng, width, height, 50)
        field = 60 * (np.sin(2 * np.pi * phase) > rng.uniform(-0.5, 0.5)) - 30 + 10 * rng.standard_normal((height, width)).astype(np.float32)
    image = np.clip(base[None, None, :] + field[:, :, None] * rng.uniform(0.6, 1.3, size=3), 0, 255).astype(np.uint8)
    if kind == "busy":
        for _ in range(rng.integers(10, 40)):
            _draw_distractor(rng, image)
    return image


def _draw_distractor(rng: np.random.Generator, image: np.ndarray, paper: bool = False, ids: np.ndarray | None = None) -> None:
    """A shape, a line, text or (`paper`) a plain white card-like sheet drawn on `image`; with `ids`, the
    pixels it covers become occluder (-1) there, as a card under it is not seen."""
    if ids is not None:
        before = image.copy()
        _draw_distractor(rng, image, paper)
        ids[np.any(image != before, axis=2)] = -1
        return
    height, width = image.shape[:2]
    colour = tuple(int(c) for c in rng.uniform(0, 255, size=3))
    center = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
    size = rng.uniform(0.05, 0.35) * min(width, height)
    shape = rng.choice(["rect", "ellipse", "poly", "text", "line"]) if not paper else "paper"
    if shape == "paper":  # white card-like rectangles without an index: the detector must not take them
        white = int(rng.uniform(190, 255))
        box = ((center[0], center[1]), (size * rng.uniform(0.5, 1.6), size * rng.uniform(0.5, 1.6)), rng.uniform(0, 180))
        cv2.fillConvexPoly(image, cv2.boxPoints(box).astype(np.int32), (white, white, white - int(rng.uniform(0, 25))), cv2.LINE_AA)
        if rng.random() < 0.6:
            for _ in range(rng.integers(1, 6)):
                text_colour = tuple(int(c) for c in rng.uniform(0, 120, size=3))
                cv2.putText(image, "".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "), size=int(rng.integers(2, 10)))),
                            (int(center[0] - size / 3), int(center[1] + rng.uniform(-size / 3, size / 3))), int(rng.integers(0, 7)),
                            rng.uniform(0.3, 1.0), text_colour, 1, cv2.LINE_AA)
    elif shape == "rect":
        box = ((center[0], center[1]), (size * rng.uniform(0.3, 1.5), size * rng.uniform(0.3, 1.5)), rng.uniform(0, 180))
        cv2.fillConvexPoly(image, cv2.boxPoints(box).astype(np.int32), colour, cv2.LINE_AA)
    elif shape == "ellipse":
        cv2.ellipse(image, center, (int(size / 2), int(size * rng.uniform(0.2, 0.6))), rng.uniform(0, 180), 0, 360, colour, -1, cv2.LINE_AA)
    elif shape == "poly":
        points = np.array(center) + rng.uniform(-size, size, size=(int(rng.integers(3, 7)), 2))
        cv2.fillPoly(image, [points.astype(np.int32)], colour, cv2.LINE_AA)
    elif shape == "text":
        cv2.putText(image, "".join(rng.choice(list("AKQJ10987654321XYZ"), size=int(rng.integers(1, 5)))), center,
                    int(rng.integers(0, 7)), rng.uniform(0.5, 3.0), colour, int(rng.integers(1, 5)), cv2.LINE_AA)
    else:
        end = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        cv2.line(image, center, end, colour, int(rng.integers(1, 8)), cv2.LINE_AA)


def _background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    if table_surface is not None and rng.random() < 0.5:
        image = np.ascontiguousarray(table_surface(rng, width, height))
    else:
        image = procedural_background(rng, width, height)
    for _ in range(rng.poisson(1.0)):
        _draw_distractor(rng, image, paper=rng.random() < 0.3)
    return image


# ---------------------------------------------------------------------------------- real-room clutter
#: Chances of the real-room conditions a scene gets (drawn from a stream of their own, so a seed's cards,
#: layout and camera stay what they were without them). The real photos' misses were white cards on
#: white paper and printed matter, on cluttered desks, and in hard sunlight with sharp shadows.
DOCUMENT_CHANCE = 0.35
PALE_TABLE_CHANCE = 0.15
OBJECT_CHANCE = 0.3
SUN_CHANCE = 0.25
#: Chances of the conditions of hand-held photos of cards (a stream of their own again): cards running
#: off the picture's edge, and books, papers, cloths or a basket lying over part of a card. The real
#: photos' misses of session 6 were such cards; the detector had been taught to leave out cards cut by
#: the picture's edge and had never seen a card under anything but a hand or another card.
EDGE_CHANCE = 0.3
COVER_CHANCE = 0.3


def _paper_sheet(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A printed sheet: white or cream paper with lines of text, maybe a frame and a picture."""
    white = rng.uniform(200, 255)
    sheet = np.empty((height, width, 3), np.float32)
    sheet[:] = (white * rng.uniform(0.9, 1.0), white * rng.uniform(0.95, 1.0), white)
    sheet += 4 * _noise(rng, width, height, 40)[:, :, None]
    sheet = np.clip(sheet, 0, 255).astype(np.uint8)
    ink = tuple(int(c) for c in rng.uniform(0, 90, size=3))
    margin = int(rng.uniform(0.05, 0.12) * min(width, height))
    if rng.random() < 0.3:  # a certificate's frame
        cv2.rectangle(sheet, (margin // 2, margin // 2), (width - margin // 2, height - margin // 2), ink, int(rng.integers(1, 5)))
    if rng.random() < 0.45:  # a picture or a coloured block
        x0, y0 = int(rng.uniform(margin, width * 0.6)), int(rng.uniform(margin, height * 0.6))
        x1, y1 = min(width - margin, x0 + int(rng.uniform(0.2, 0.6) * width)), min(height - margin, y0 + int(rng.uniform(0.15, 0.5) * height))
        if x1 - x0 > 4 and y1 - y0 > 4:
            sheet[y0:y1, x0:x1] = procedural_background(rng, x1 - x0, y1 - y0)
    line_height = rng.uniform(0.01, 0.035) * height + 2
    y = margin + line_height
    while y < height - margin:
        if rng.random() < 0.85:
            x = margin
            end = width - margin - rng.uniform(0, 0.4) * width
            while x < end:
                word = rng.uniform(1.5, 7) * line_height * 0.6
                cv2.rectangle(sheet, (int(x), int(y - line_height * 0.4)), (int(min(x + word, end)), int(y)), ink, -1)
                x += word + line_height * 0.4
        y += line_height * rng.uniform(1.4, 2.2)
    return cv2.GaussianBlur(sheet, (0, 0), 0.6)


def _lay_flat(image: np.ndarray, rng: np.random.Generator, picture: np.ndarray, alpha: np.ndarray, center: tuple[float, float], angle: float,
              shadow: float) -> None:
    matrix = _similarity(angle, 1.0, center) @ np.array([[1, 0, -picture.shape[1] / 2], [0, 1, -picture.shape[0] / 2], [0, 0, 1]])
    _composite(image, picture, alpha, matrix, shadow=shadow, shadow_blur=rng.uniform(1.5, 6), shadow_offset=tuple(int(v) for v in rng.normal(0, 4, size=2)))


def _documents(rng: np.random.Generator, image: np.ndarray) -> None:
    """Sheets of paper, letters, book covers lying on the table, some bigger than the picture."""
    height, width = image.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        side = rng.uniform(0.35, 1.3) * min(width, height)
        sheet_w, sheet_h = int(side * rng.uniform(0.6, 1.0)), int(side)
        sheet = _paper_sheet(rng, sheet_w, sheet_h) if rng.random() < 0.8 else procedural_background(rng, sheet_w, sheet_h)
        _lay_flat(image, rng, sheet, np.full((sheet_h, sheet_w), 255, np.uint8), (rng.uniform(0, width), rng.uniform(0, height)),
                  rng.uniform(0, 2 * np.pi), shadow=rng.uniform(0.1, 0.4))


def _objects(rng: np.random.Generator, image: np.ndarray) -> None:
    """Desk clutter: bowls, boxes, pens and cloths with a texture of their own and a shadow."""
    height, width = image.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        side = int(rng.uniform(0.1, 0.45) * min(width, height)) + 8
        long_side = side if rng.random() < 0.6 else int(side * rng.uniform(1.5, 5))
        texture = procedural_background(rng, long_side, side)
        alpha = np.zeros((side, long_side), np.uint8)
        if rng.random() < 0.5:
            cv2.ellipse(alpha, (long_side // 2, side // 2), (long_side // 2 - 1, side // 2 - 1), 0, 0, 360, 255, -1, cv2.LINE_AA)
        else:
            alpha[:] = 255
        if rng.random() < 0.5:  # a rim or gloss
            rim = np.zeros_like(alpha)
            cv2.ellipse(rim, (long_side // 2, side // 3), (long_side // 3, side // 6), 0, 0, 360, 255, -1)
            texture = np.clip(texture + cv2.GaussianBlur(rim, (0, 0), side / 10)[:, :, None].astype(np.float32) * rng.uniform(0.2, 0.6), 0, 255).astype(np.uint8)
        _lay_flat(image, rng, texture, alpha, (rng.uniform(0, width), rng.uniform(0, height)), rng.uniform(0, 2 * np.pi), shadow=rng.uniform(0.3, 0.6))


def _pale_table(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A white or light table, desk or tablecloth: white cards on it have little edge to show."""
    tone = rng.uniform(175, 250)
    base = np.array([tone * rng.uniform(0.85, 1.0), tone * rng.uniform(0.92, 1.0), tone], np.float32)
    field = 6 * _noise(rng, width, height, rng.uniform(20, 120)) + 2 * rng.standard_normal((height, width)).astype(np.float32)
    return np.clip(base[None, None, :] + field[:, :, None], 0, 255).astype(np.uint8)


def _sunlight(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Hard sun through a window: sharp-edged shadows (a frame, a plant, a person), the lit part
    overexposed and warm, so a white card in it washes out and one in the shadow goes dark."""
    height, width = image.shape[:2]
    picture = image.astype(np.float32)
    lit = np.ones((height, width), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        points = np.array([rng.uniform(0, width), rng.uniform(0, height)]) + rng.uniform(-0.7, 0.7, size=(int(rng.integers(3, 8)), 2)) * np.array([width, height])
        cv2.fillPoly(lit, [points.astype(np.int32)], 0.0)
    lit = cv2.GaussianBlur(lit, (0, 0), rng.uniform(0.7, 4))
    dark = rng.uniform(0.3, 0.6)
    gain = rng.uniform(1.1, 1.6)
    warm = np.array([rng.uniform(0.8, 0.95), rng.uniform(0.92, 1.0), rng.uniform(1.0, 1.1)], np.float32)
    picture = picture * (dark + (gain * warm[None, None, :] - dark) * lit[:, :, None])
    return np.clip(picture, 0, 255).astype(np.uint8)


def _cover_cards(rng: np.random.Generator, image: np.ndarray, ids: np.ndarray, quads: list[np.ndarray], card_height: float) -> None:
    """One or two things lying over part of a card (a book, a sheet, a cloth, a bowl), their edge
    across it at a random depth; the pixels they cover become occluder (-1) in `ids`."""
    height, width = image.shape[:2]
    for _ in range(int(rng.integers(1, 3))):
        quad = quads[int(rng.integers(len(quads)))]
        weights = rng.dirichlet(np.ones(4))
        point = weights @ quad  # a point on the card the cover's edge lies just beyond
        long_side = int(card_height * rng.uniform(0.8, 2.5)) + 8
        short_side = int(long_side * rng.uniform(0.35, 1.0)) + 4
        if rng.random() < 0.4:
            picture = _paper_sheet(rng, long_side, short_side)
        else:
            picture = procedural_background(rng, long_side, short_side)
        alpha = np.full((short_side, long_side), 255, np.uint8)
        if rng.random() < 0.25:  # a bowl or a round basket
            alpha[:] = 0
            cv2.ellipse(alpha, (long_side // 2, short_side // 2), (long_side // 2 - 1, short_side // 2 - 1), 0, 0, 360, 255, -1, cv2.LINE_AA)
        angle = rng.uniform(0, 2 * np.pi)
        depth = rng.uniform(0.05, 0.6) * card_height  # how far past the point the cover's edge lies
        direction = np.array([np.cos(angle), np.sin(angle)])
        center = point + direction * (long_side / 2 - depth)
        matrix = _similarity(angle, 1.0, (float(center[0]), float(center[1]))) @ np.array([[1, 0, -long_side / 2], [0, 1, -short_side / 2], [0, 0, 1]])
        mask = _composite(image, picture, alpha, matrix, shadow=rng.uniform(0.2, 0.6), shadow_blur=rng.uniform(1.5, 6),
                          shadow_offset=tuple(int(v) for v in rng.normal(0, 4, size=2)))
        ids[mask > 0.5] = -1


def _shown_quad(mm_to_image: np.ndarray, width: int, height: int) -> np.ndarray | None:
    """The card-aligned outline of the part of a card inside the picture; None when all of it is (a
    card a pixel or so out is in the picture)."""
    part, share = card_part_outline(mm_to_image, width, height, slack=1.5)
    return None if share == 1.0 else part


# ------------------------------------------------------------------------------------------ layout
def _similarity(angle: float, scale: float, center: tuple[float, float]) -> np.ndarray:
    """mm (card frame, origin at the card's centre) -> plane px."""
    cos, sin = np.cos(angle) * scale, np.sin(angle) * scale
    return np.array([[cos, -sin, center[0]], [sin, cos, center[1]], [0, 0, 1]], dtype=np.float64)


def _card_corners_mm() -> np.ndarray:
    width, height = CARD_MM
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64) - np.array([width / 2, height / 2])


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.c_[points, np.ones(len(points))] @ matrix.T
    return homogeneous[:, :2] / homogeneous[:, 2:3]


def _layout(rng: np.random.Generator, width: int, height: int, edge: float = 0.4) -> list[tuple[float, float, float, float]]:
    """(centre x, centre y, angle, px per mm) of each card on the plane, bottom card first; `edge`: how
    far (in card heights) the cards' centres keep from the picture's edge (negative: beyond it)."""
    mode = rng.choice(["scatter", "fan", "grid", "pile", "single"], p=[0.35, 0.2, 0.15, 0.15, 0.15])
    short = min(width, height)
    card_height = rng.uniform(0.18, 0.62) * short if mode != "single" else rng.uniform(0.25, 0.8) * short
    if mode == "scatter" and rng.random() < 0.3:
        card_height = rng.uniform(0.1, 0.2) * short
    scale = card_height / CARD_MM[1]
    margin = card_height * edge
    placed = []
    if mode in ("scatter", "single"):
        for _ in range(1 if mode == "single" else int(rng.integers(2, 8))):
            placed.append((rng.uniform(margin, width - margin), rng.uniform(margin, height - margin), rng.uniform(0, 2 * np.pi), scale * rng.uniform(0.92, 1.08)))
    elif mode == "fan":
        count = int(rng.integers(2, 6))
        angle = rng.uniform(0, 2 * np.pi)
        step = CARD_MM[0] * scale * rng.uniform(0.22, 0.9)
        spread = rng.uniform(-0.25, 0.25) if rng.random() < 0.5 else 0.0
        x0, y0 = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
        for k in range(count):
            offset = k - (count - 1) / 2
            placed.append((x0 + np.cos(angle) * step * offset, y0 + np.sin(angle) * step * offset, angle + spread * offset + rng.normal(0, 0.03), scale))
    elif mode == "grid":
        columns, rows = int(rng.integers(2, 4)), int(rng.integers(1, 3))
        gap = rng.uniform(1.05, 1.5)
        base = rng.uniform(0, 2 * np.pi) if rng.random() < 0.3 else rng.choice([0, np.pi / 2, np.pi, 3 * np.pi / 2]) + rng.normal(0, 0.05)
        x0, y0 = width / 2, height / 2
        for r in range(rows):
            for c in range(columns):
                dx, dy = (c - (columns - 1) / 2) * CARD_MM[0] * scale * gap, (r - (rows - 1) / 2) * CARD_MM[1] * scale * gap
                x = x0 + np.cos(base) * dx - np.sin(base) * dy + rng.normal(0, 3)
                y = y0 + np.sin(base) * dx + np.cos(base) * dy + rng.normal(0, 3)
                placed.append((x, y, base + rng.normal(0, 0.06), scale))
    else:  # pile: loosely squared cards, the top one fully visible
        x0, y0 = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
        angle = rng.uniform(0, 2 * np.pi)
        for _ in range(int(rng.integers(2, 6))):
            placed.append((x0 + rng.normal(0, 0.08 * card_height), y0 + rng.normal(0, 0.08 * card_height), angle + rng.normal(0, 0.25), scale))
    return placed


def _perspective(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A random view of the table plane: corners of the image moved by up to a quarter of its size."""
    strength = rng.choice([0.0, rng.uniform(0.02, 0.12), rng.uniform(0.1, 0.25)], p=[0.25, 0.45, 0.3])
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    target = source + rng.uniform(-strength, strength, size=(4, 2)).astype(np.float32) * np.array([width, height], np.float32)
    # keep the middle where it was so the cards stay in view
    target += (source.mean(axis=0) - target.mean(axis=0))
    return cv2.getPerspectiveTransform(source, target).astype(np.float64)


# ------------------------------------------------------------------------------------------ drawing
def _roi(matrix: np.ndarray, picture_shape: tuple[int, int], width: int, height: int, margin: int) -> tuple[int, int, int, int]:
    h, w = picture_shape
    corners = _apply(matrix, np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - margin
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + margin
    return max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)


def _composite(image: np.ndarray, picture: np.ndarray, alpha: np.ndarray, matrix: np.ndarray, shadow: float = 0.0, shadow_blur: float = 1.0,
               shadow_offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Warp picture (with alpha 0..255) into image by homography, over a soft contact shadow.

    Works inside the picture's bounding box only. Returns the warped alpha in [0, 1] (full image size)."""
    height, width = image.shape[:2]
    full = np.zeros((height, width), np.float32)
    margin = int(3 * shadow_blur) + abs(shadow_offset[0]) + abs(shadow_offset[1]) + 2
    x0, y0, x1, y1 = _roi(matrix, alpha.shape[:2], width, height, margin)
    if x1 <= x0 or y1 <= y0:
        return full
    shifted = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64) @ matrix
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(picture, shifted, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).astype(np.float32)
    mask = cv2.warpPerspective(alpha, shifted, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).astype(np.float32) / 255.0
    region = image[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        dark = cv2.GaussianBlur(mask, (0, 0), shadow_blur)
        dark = np.roll(dark, (shadow_offset[1], shadow_offset[0]), axis=(0, 1))
        region *= (1 - shadow * dark)[:, :, None]
    blend = mask[:, :, None]
    image[y0:y1, x0:x1] = np.clip(region * (1 - blend) + warped * blend, 0, 255).astype(np.uint8)
    full[y0:y1, x0:x1] = mask
    return full


def _shade_card(rng: np.random.Generator, picture: np.ndarray) -> np.ndarray:
    """Per-card light: brightness, colour cast, a gloss highlight, a curl shadow."""
    picture = picture.astype(np.float32)
    picture *= rng.uniform(0.6, 1.12) * rng.uniform(0.9, 1.1, size=3)
    height, width = picture.shape[:2]
    if rng.random() < 0.25:
        gloss = np.zeros((height, width), np.float32)
        cv2.ellipse(gloss, (int(rng.uniform(0, width)), int(rng.uniform(0, height))), (int(width * rng.uniform(0.1, 0.5)), int(height * rng.uniform(0.05, 0.3))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        gloss = cv2.GaussianBlur(gloss, (0, 0), width * 0.08)
        picture += gloss[:, :, None] * rng.uniform(30, 140)
    if rng.random() < 0.3:
        ramp = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.95, 1.1), width if rng.random() < 0.5 else height, dtype=np.float32)
        picture *= (ramp[None, :, None] if len(ramp) == width else ramp[:, None, None])
    return np.clip(picture, 0, 255).astype(np.uint8)


def _hand(rng: np.random.Generator, image: np.ndarray, ids: np.ndarray, card_height: float) -> None:
    """A hand (palm and fingers) reaching into the picture: covers cards like a real hand does."""
    height, width = image.shape[:2]
    skin = np.array([rng.uniform(60, 200), rng.uniform(90, 210), rng.uniform(140, 250)], np.float32) * rng.uniform(0.6, 1.05)
    layer = np.zeros((height, width), np.uint8)
    center = np.array([rng.uniform(0, width), rng.uniform(0, height)])
    palm = card_height * rng.uniform(0.6, 1.0)
    angle = rng.uniform(0, 2 * np.pi)
    cv2.ellipse(layer, tuple(int(v) for v in center), (int(palm * 0.55), int(palm * 0.45)), np.degrees(angle), 0, 360, 255, -1, cv2.LINE_AA)
    direction = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-direction[1], direction[0]])
    for k in range(int(rng.integers(2, 6))):
        base = center + direction * palm * 0.4 + across * (k - 1.5) * palm * 0.22
        tip = base + (direction + across * rng.normal(0, 0.2)) * palm * rng.uniform(0.5, 0.9)
        cv2.line(layer, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, max(2, int(palm * 0.17)), cv2.LINE_AA)
    # the arm leaves the picture
    far = center - direction * max(width, height) * 1.5
    cv2.line(layer, tuple(int(v) for v in center), tuple(int(v) for v in far), 255, max(3, int(palm * 0.7)), cv2.LINE_AA)
    alpha = cv2.GaussianBlur(layer, (0, 0), 1.0).astype(np.float32)[:, :, None] / 255.0
    shading = (0.75 + 0.35 * _noise(rng, width, height, palm / 2 + 1)[:, :, None] * 0.3) * skin
    image[:] = np.clip(image * (1 - alpha) + shading * alpha, 0, 255).astype(np.uint8)
    ids[layer > 127] = -1


def _light_and_camera(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    height, width = image.shape[:2]
    picture = image.astype(np.float32)
    # uneven light over the table
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(-1, 1, size=2)
    gradient = 1 + rng.uniform(0, 0.45) * ((xx / width - 0.5) * direction[0] + (yy / height - 0.5) * direction[1])
    picture *= gradient[:, :, None] * rng.uniform(0.55, 1.25)
    if rng.random() < 0.35:  # a shadow with soft edges (a head, a lamp arm)
        shadow = np.zeros((height, width), np.float32)
        points = np.array([rng.uniform(0, width), rng.uniform(0, height)]) + rng.uniform(-0.6, 0.6, size=(int(rng.integers(3, 7)), 2)) * np.array([width, height])
        cv2.fillPoly(shadow, [points.astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(3, 25))
        picture *= (1 - shadow * rng.uniform(0.25, 0.6))[:, :, None]
    picture *= rng.uniform(0.85, 1.15, size=3)  # white balance
    picture = np.clip(picture, 0, 255)
    if rng.random() < 0.6:
        picture = cv2.GaussianBlur(picture, (0, 0), rng.uniform(0.3, 1.6))
    elif rng.random() < 0.4:  # motion blur
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        picture = cv2.filter2D(picture, -1, kernel / max(kernel.sum(), 1e-6))
    picture += rng.normal(0, rng.uniform(0, 7), size=picture.shape).astype(np.float32)
    return np.clip(picture, 0, 255).astype(np.uint8)


def _jpeg(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    quality = int(rng.uniform(30, 95))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image


def _region_visibility(ids: np.ndarray, homography: np.ndarray, box_mm: tuple[float, float, float, float], owner: int) -> float:
    """Fraction of a card region (mm box) seen in the picture: uncovered and inside the frame."""
    x0, y0, x1, y1 = box_mm
    corners = _apply(homography, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64))
    mask = np.zeros(ids.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    total = max(float(cv2.contourArea(corners.astype(np.float32))), float(mask.sum()), 1.0)
    return min(1.0, float((ids[mask.astype(bool)] == owner).sum()) / total)


# ------------------------------------------------------------------------------------------ scenes
SIZES = ((640, 480), (480, 640), (640, 360), (360, 640), (576, 576), (504, 672), (672, 504))


def render_scene(seed: int, size: tuple[int, int] | None = None, designs: tuple[str, ...] | None = None) -> Scene:
    """A random scene of cards; deterministic per seed."""
    rng = np.random.default_rng(seed)
    designs = designs or faces.DESIGNS
    width, height = size or SIZES[int(rng.integers(len(SIZES)))]
    image = _background(rng, width, height)
    room = np.random.default_rng(seed + 11_000_000)  # real-room conditions, drawn apart from the cards
    if room.random() < PALE_TABLE_CHANCE:
        image = _pale_table(room, width, height)
    if room.random() < DOCUMENT_CHANCE:
        _documents(room, image)
    if room.random() < OBJECT_CHANCE:
        _objects(room, image)
    ids = np.full((height, width), -2, np.int16)  # -2 table, -1 occluder, k card k
    view = _perspective(rng, width, height)
    handheld = np.random.default_rng(seed + 12_000_000)  # hand-held photo conditions, drawn apart again
    edge = handheld.uniform(-0.15, 0.25) if handheld.random() < EDGE_CHANCE else 0.4
    placements = _layout(rng, width, height, edge)
    design = designs[int(rng.integers(len(designs)))]  # one deck per scene, as on a real table
    if rng.random() < 0.2:
        design = None  # mixed decks
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    drawn: list[tuple[Card | None, np.ndarray, str]] = []
    shadow_offset = rng.normal(0, 2.5, size=2)
    for number, (x, y, angle, scale) in enumerate(placements):
        card = deck[number % len(deck)]
        card_design = design or designs[int(rng.integers(len(designs)))]
        face_up = rng.random() > 0.1
        on_image = scale * CARD_MM[1]
        px_per_mm = next((r for r in FACE_RESOLUTIONS if r * CARD_MM[1] >= 1.3 * on_image), FACE_RESOLUTIONS[-1])
        picture = _face(card, card_design, px_per_mm) if face_up else _back(card_design, px_per_mm)
        alpha = faces.card_mask(px_per_mm)
        # face px -> card mm (centred) -> plane px -> image px
        face_to_mm = np.array([[1 / px_per_mm, 0, -CARD_MM[0] / 2], [0, 1 / px_per_mm, -CARD_MM[1] / 2], [0, 0, 1]])
        homography = view @ _similarity(angle, scale, (x, y)) @ face_to_mm
        mask = _composite(image, _shade_card(rng, picture), alpha, homography, shadow=0.35, shadow_blur=1.5 + scale,
                          shadow_offset=(int(shadow_offset[0] * scale), int(shadow_offset[1] * scale)))
        ids[mask > 0.5] = number
        quad = _apply(homography, np.array([[0, 0], [picture.shape[1], 0], [picture.shape[1], picture.shape[0]], [0, picture.shape[0]]], dtype=np.float64))
        drawn.append((card if face_up else None, quad, card_design, homography @ np.diag([px_per_mm, px_per_mm, 1.0])))
    card_height = (placements[0][3] * CARD_MM[1]) if placements else 100.0
    if drawn and handheld.random() < COVER_CHANCE:
        _cover_cards(handheld, image, ids, [quad for _, quad, _, _ in drawn], card_height)
    if rng.random() < 0.25:
        _hand(rng, image, ids, card_height)
    for _ in range(rng.poisson(0.3)):
        _draw_distractor(rng, image, ids=ids)  # over the cards: what it covers is not seen
    if room.random() < SUN_CHANCE:
        image = _sunlight(room, image)
    image = _jpeg(rng, _light_and_camera(rng, image))
    cards, backs = [], []
    for number, (card, quad, card_design, mm_to_image) in enumerate(drawn):
        if card is None:
            backs.append(quad.astype(np.float32))
            continue
        mask = np.zeros(ids.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        shown = _shown_quad(mm_to_image, width, height)
        area = max(int(mask.sum()), 1) if shown is None else max(int(mask.sum()), float(cv2.contourArea(quad.astype(np.float32))))
        visible = float((ids[mask.astype(bool)] == number).sum()) / area
        box = _index_box(card_design)
        turned = (CARD_MM[0] - box[2], CARD_MM[1] - box[3], CARD_MM[0] - box[0], CARD_MM[1] - box[1])
        index_visible = (_region_visibility(ids, mm_to_image, box, number), _region_visibility(ids, mm_to_image, turned, number))
        cards.append(SceneCard(card, quad.astype(np.float32), visible, index_visible, card_design, shown))
    return Scene(image, cards, backs)


# ------------------------------------------------------------------------------------------ labels
#: A card is a detector target when this much of it is visible, or a corner index is fully visible
#: and some of the card is.
DETECT_VISIBLE = 0.5
INDEX_READABLE = 0.9  # an index crop is named when this much of the index is uncovered
INDEX_HIDDEN = 0.35  # ... and is `none` when less than this is
#: Cards shorter than this (pixels) in a scene give no index crops: their index is a few blurred pixels,
#: and naming them would teach the classifier to guess.
MIN_NAMED_CARD_PX = 90


#: A card cut by the picture's edge is a target when this much of it is seen, or a corner index is
#: fully seen and CUT_INDEX_VISIBLE of the card is (a person names such a card by its index).
CUT_VISIBLE = 0.4
CUT_INDEX_VISIBLE = 0.15


def detector_targets(scene: Scene) -> list[SceneCard]:
    """The face-up cards the detector should find: mostly seen, or seen in part with a whole corner index."""
    targets = []
    for scene_card in scene.cards:
        enough, with_index = (DETECT_VISIBLE, 0.2) if scene_card.shown_quad is None else (CUT_VISIBLE, CUT_INDEX_VISIBLE)
        if scene_card.visible >= enough or (scene_card.visible >= with_index and max(scene_card.index_visible) >= INDEX_READABLE):
            targets.append(scene_card)
    return targets


def obb_label_lines(scene: Scene) -> list[str]:
    """ultralytics OBB label lines: `0 x1 y1 ... x4 y4`, normalised: a card's outline, or for a card cut
    by the picture's edge the outline of its part inside the picture."""
    height, width = scene.image.shape[:2]
    lines = []
    for scene_card in detector_targets(scene):
        quad = scene_card.quad if scene_card.shown_quad is None else scene_card.shown_quad
        points = np.clip(quad / np.array([width, height], np.float32), 0, 1)
        lines.append("0 " + " ".join(f"{v:.5f}" for v in points.reshape(-1)))
    return lines


def imperfect_outline(rng: np.random.Generator, quad: np.ndarray) -> np.ndarray:
    """An outline as a detector gives it: a rotated rectangle, a little off in place, size and angle."""
    quad = np.asarray(quad, dtype=np.float32)
    size = float(np.linalg.norm(quad[2] - quad[0]))
    if rng.random() < 0.75:
        quad = cv2.boxPoints(cv2.minAreaRect(quad)).astype(np.float32)
    center = quad.mean(axis=0)
    grow = rng.normal(1.0, 0.025)
    turn = rng.normal(0, np.radians(1.5))
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
    quad = (quad - center) @ rotation.T * grow + center + rng.normal(0, 0.012 * size, size=2)
    return (quad + rng.normal(0, 0.008 * size, size=(4, 2))).astype(np.float32)


def index_samples(scene: Scene, rng: np.random.Generator) -> list[tuple[np.ndarray, str]]:
    """(crop, class) pairs: both corners of every face-up card, `none` for covered corners and backs."""
    samples = []
    for scene_card in scene.cards:
        card_height = float(np.linalg.norm(scene_card.quad[3] - scene_card.quad[0]))
        if scene_card.visible < 0.15 or card_height < MIN_NAMED_CARD_PX:
            continue
        outline = order_card_corners(imperfect_outline(rng, scene_card.quad))
        crops = index_crops(scene.image, outline)
        # which face corner did the ordering put first?
        first_is_top_left = np.linalg.norm(outline[0] - scene_card.quad[0]) <= np.linalg.norm(outline[0] - scene_card.quad[2])
        visibility = scene_card.index_visible if first_is_top_left else scene_card.index_visible[::-1]
        for crop, seen in zip(crops, visibility):
            if seen >= INDEX_READABLE:
                samples.append((crop, str(scene_card.card)))
            elif seen <= INDEX_HIDDEN and rng.random() < 0.5:
                samples.append((crop, NONE_CLASS))
    for quad in scene.backs:
        if rng.random() < 0.4:
            samples.append((index_crops(scene.image, order_card_corners(imperfect_outline(rng, quad)))[int(rng.integers(2))], NONE_CLASS))
    if rng.random() < 0.3:  # a stretch of table where the detector wrongly saw a card
        height, width = scene.image.shape[:2]
        side = rng.uniform(0.15, 0.5) * min(width, height)
        box = ((rng.uniform(0, width), rng.uniform(0, height)), (side * 0.72, side), rng.uniform(0, 180))
        samples.append((index_crops(scene.image, order_card_corners(cv2.boxPoints(box)))[0], NONE_CLASS))
    return samples


def class_names() -> list[str]:
    return [str(card) for card in ALL_CARDS] + [NONE_CLASS]


def face_samples(seed: int, card: Card, designs: tuple[str, ...] | None = None) -> list[tuple[np.ndarray, str]]:
    """Both index crops of one card laid flat on a plain ground: every class gets examples even in tiny runs."""
    rng = np.random.default_rng(seed)
    designs = designs or faces.DESIGNS
    design = designs[int(rng.integers(len(designs)))]
    px_per_mm = float(rng.uniform(1.2, 3.0))
    face = faces.card_face(card, design, px_per_mm)
    pad = int(20 * px_per_mm)
    ground = np.full((face.shape[0] + 2 * pad, face.shape[1] + 2 * pad, 3), rng.integers(20, 200, size=3), np.uint8)
    alpha = faces.card_mask(px_per_mm).astype(np.float32)[:, :, None] / 255.0
    region = ground[pad:pad + face.shape[0], pad:pad + face.shape[1]]
    region[:] = (region * (1 - alpha) + face * alpha).astype(np.uint8)
    height, width = face.shape[:2]
    quad = np.array([[pad, pad], [pad + width, pad], [pad + width, pad + height], [pad, pad + height]], np.float32)
    outline = order_card_corners(imperfect_outline(rng, quad))
    return [(crop, str(card)) for crop in index_crops(_jpeg(rng, ground), outline)]


def card_samples(seed: int, designs: tuple[str, ...] | None = None) -> list[tuple[np.ndarray, str]]:
    """Index crops from one card seen close up: any angle, some perspective, a neighbour card that may
    cover a corner, uneven light, blur, noise and JPEG. Much cheaper than a whole scene per crop."""
    rng = np.random.default_rng(seed)
    designs = designs or faces.DESIGNS
    card = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
    design = designs[int(rng.integers(len(designs)))]
    card_height = float(rng.uniform(90, 300))
    px_per_mm = 4.0  # one resolution keeps the face cache small; a card is at most about 1.2x enlarged
    side = int(card_height * 1.6)
    image = cv2.resize(procedural_background(rng, side // 3, side // 3), (side, side), interpolation=cv2.INTER_LINEAR)
    for _ in range(rng.poisson(0.7)):
        _draw_distractor(rng, image, paper=rng.random() < 0.3)
    ids = np.full((side, side), -2, np.int16)
    scale = card_height / CARD_MM[1]
    view = _perspective(rng, side, side) if rng.random() < 0.6 else np.eye(3)
    face_to_mm = np.array([[1 / px_per_mm, 0, -CARD_MM[0] / 2], [0, 1 / px_per_mm, -CARD_MM[1] / 2], [0, 0, 1]])
    placements = [(side / 2 + rng.normal(0, 4), side / 2 + rng.normal(0, 4), rng.uniform(0, 2 * np.pi), scale, card, True, True)]
    if rng.random() < 0.5:  # a neighbour, under or over
        other = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        offset = rng.uniform(0.35, 0.9) * card_height
        direction = rng.uniform(0, 2 * np.pi)
        neighbour = (side / 2 + np.cos(direction) * offset, side / 2 + np.sin(direction) * offset, rng.uniform(0, 2 * np.pi), scale, other, rng.random() > 0.15, False)
        placements.insert(int(rng.integers(2)), neighbour)
    target_homography = None
    for number, (x, y, angle, card_scale, drawn, face_up, is_target) in enumerate(placements):
        picture = _face(drawn, design, px_per_mm) if face_up else _back(design, px_per_mm)
        alpha = faces.card_mask(px_per_mm)
        homography = view @ _similarity(angle, card_scale, (x, y)) @ face_to_mm
        mask = _composite(image, _shade_card(rng, picture), alpha, homography, shadow=0.3, shadow_blur=2.0, shadow_offset=(2, 3))
        ids[mask > 0.5] = number
        if is_target:
            target_homography, target_number = homography, number
    if rng.random() < 0.15:
        _hand(rng, image, ids, card_height)
    image = np.clip(image.astype(np.float32) * rng.uniform(0.6, 1.15) * rng.uniform(0.94, 1.06, size=3), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.2) * card_height / 200)
    image = np.clip(image + rng.normal(0, rng.uniform(0, 6), size=image.shape), 0, 255).astype(np.uint8)
    image = _jpeg(rng, image)
    mm_to_image = target_homography @ np.diag([px_per_mm, px_per_mm, 1.0])
    quad = _apply(mm_to_image, np.array([[0, 0], [CARD_MM[0], 0], [CARD_MM[0], CARD_MM[1]], [0, CARD_MM[1]]], dtype=np.float64)).astype(np.float32)
    box = _index_box(design)
    turned = (CARD_MM[0] - box[2], CARD_MM[1] - box[3], CARD_MM[0] - box[0], CARD_MM[1] - box[1])
    index_visible = (_region_visibility(ids, mm_to_image, box, target_number), _region_visibility(ids, mm_to_image, turned, target_number))
    outline = order_card_corners(imperfect_outline(rng, quad))
    first_is_top_left = np.linalg.norm(outline[0] - quad[0]) <= np.linalg.norm(outline[0] - quad[2])
    visibility = index_visible if first_is_top_left else index_visible[::-1]
    samples = []
    for crop, seen in zip(index_crops(image, outline), visibility):
        if seen >= INDEX_READABLE:
            samples.append((crop, str(card)))
        elif seen <= INDEX_HIDDEN:
            samples.append((crop, NONE_CLASS))
    return samples
