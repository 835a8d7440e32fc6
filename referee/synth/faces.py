"""Card faces and backs for the synthetic table: 63 x 88 mm, rounded corners, in several designs.

Drawn designs imitate real decks: rank and suit indices in the top-left corner and again rotated 180
degrees in the bottom-right, pips laid out as on real cards, court cards with a framed picture. They
differ in font (DejaVu TrueType faces when installed, OpenCV's Hershey fonts otherwise), index size,
ink shades and paper tint, so that a recogniser trained on them does not learn one deck. Where Debian's
gnome-cards-data is installed its SVG decks are further designs (`svg:<deck>`), rasterised in memory.

Card frame: an upright face, origin at its top-left corner, x to the right (0-63 mm), y down (0-88 mm).
Every function is deterministic: the same arguments give the same pixels.
"""

from __future__ import annotations

import functools
import pathlib
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from referee.rules.cards import RANKS, SUITS, Card
from referee.synth import svg_decks
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM

CORNER_RADIUS_MM = 3.2
FONT_FOLDER = pathlib.Path("/usr/share/fonts/truetype/dejavu")
_SUIT_GLYPHS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@dataclass(frozen=True)
class DrawnDesign:
    """How one drawn deck looks. Sizes in mm, colours BGR."""

    font: str                 # a DejaVu file name, or "hershey:<n>" for an OpenCV Hershey font
    index_height: float       # height of the rank index (digits/letters)
    index_x: float            # left edge of the index column
    index_y: float            # top of the rank index
    index_pip: float          # height of the small suit pip under the rank
    pip: float                # height of the pips in the middle of number cards
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    paper: tuple[int, int, int]
    weight: int = 700
    border: bool = False      # a thin printed frame line inside the edge


DRAWN_DESIGNS: dict[str, DrawnDesign] = {
    "classic": DrawnDesign("DejaVuSerif-Bold.ttf", 6.6, 2.2, 2.6, 4.6, 10.5, (30, 25, 200), (25, 20, 20), (246, 248, 250)),
    "modern": DrawnDesign("DejaVuSans-Bold.ttf", 7.2, 2.0, 2.4, 5.0, 11.5, (40, 20, 215), (10, 10, 10), (252, 252, 252)),
    "condensed": DrawnDesign("DejaVuSansCondensed-Bold.ttf", 8.0, 2.0, 2.2, 4.4, 10.0, (50, 40, 180), (40, 35, 30), (235, 243, 247)),
    "jumbo": DrawnDesign("DejaVuSans-Bold.ttf", 10.5, 1.8, 2.0, 5.6, 9.5, (35, 35, 225), (20, 20, 20), (250, 250, 247)),
    "serif-light": DrawnDesign("DejaVuSerifCondensed.ttf", 7.0, 2.4, 2.8, 4.8, 11.0, (60, 50, 190), (50, 45, 40), (238, 246, 250), 400, True),
    "hershey": DrawnDesign("hershey:4", 6.8, 2.2, 2.6, 4.8, 10.5, (40, 30, 195), (30, 30, 30), (244, 247, 248)),
    "hershey-plain": DrawnDesign("hershey:2", 7.6, 2.0, 2.4, 5.0, 10.0, (45, 35, 210), (25, 25, 25), (250, 250, 250), 700, True),
}

#: Drawn back designs: (name, main BGR colour, pattern).
BACK_DESIGNS: tuple[str, ...] = ("red-lattice", "blue-lattice", "red-rosette", "blue-rosette", "green-checks", "black-plain")


def _svg_design_names(decks: tuple[str, ...] = svg_decks.FRENCH_DECKS) -> tuple[str, ...]:
    return tuple(f"svg:{name}" for name in svg_decks.available_decks(decks))


#: Every face design the rendered games draw on this machine: the drawn ones, then the installed SVG decks.
DESIGNS: tuple[str, ...] = tuple(DRAWN_DESIGNS) + _svg_design_names()
#: ... and the decks only the recognition models train on (`svg_decks.TRAINING_DECKS`).
TRAINING_DESIGNS: tuple[str, ...] = DESIGNS + _svg_design_names(svg_decks.TRAINING_DECKS)
#: ... and the decks only the suit classifier trains on (`svg_decks.SUIT_DECKS`): every face design here.
SUIT_DESIGNS: tuple[str, ...] = TRAINING_DESIGNS + _svg_design_names(svg_decks.SUIT_DECKS)
#: Decks no model trains on and no game draws unless asked (`svg_decks.OTHER_DECKS`, KDE's): the art of the
#: decks the referee meets and was never shown, for `benchmarks.other_decks`.
OTHER_DESIGNS: tuple[str, ...] = _svg_design_names(svg_decks.OTHER_DECKS)
#: ... and the decks kept in this repository that no model trains on (`svg_decks.FILE_DECKS`: Kennard's free
#: cards), for `benchmarks.other_decks --public`; apart from OTHER_DESIGNS, whose games that benchmark deals by default.
PUBLIC_DESIGNS: tuple[str, ...] = _svg_design_names(svg_decks.FILE_DECKS)
#: Every SVG design a card can be drawn in.
EVERY_SVG_DESIGN: tuple[str, ...] = SUIT_DESIGNS + OTHER_DESIGNS + PUBLIC_DESIGNS


def card_size_px(px_per_mm: float) -> tuple[int, int]:
    """(width, height) of a card image at this resolution."""
    return int(round(CARD_WIDTH_MM * px_per_mm)), int(round(CARD_HEIGHT_MM * px_per_mm))


@functools.lru_cache(maxsize=16)
def card_mask(px_per_mm: float = 10) -> np.ndarray:
    """The rounded-rectangle outline of a card (uint8, 255 inside, antialiased edge), same size as card_face."""
    width, height = card_size_px(px_per_mm)
    scale = 4  # drawn large and shrunk: a smooth antialiased edge
    radius = CORNER_RADIUS_MM * px_per_mm * scale
    big = np.zeros((height * scale, width * scale), np.uint8)
    w, h = width * scale, height * scale
    r = int(round(radius))
    cv2.rectangle(big, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    mask = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
    mask.setflags(write=False)
    return mask


def _rng_for(*parts: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("|".join(map(str, parts)).encode()))


# ---------------------------------------------------------------- text and pips


@functools.lru_cache(maxsize=8)
def _font_face(file_name: str):
    path = FONT_FOLDER / file_name
    if not path.is_file():
        return None
    return cv2.FontFace(str(path))


def _glyph_alpha(text: str, font: str, height_px: int, weight: int) -> np.ndarray:
    """Alpha image of `text` cropped to its ink and scaled to `height_px` tall."""
    return _glyph_alpha_cached(text, font, max(4, int(height_px)), weight).copy()


@functools.lru_cache(maxsize=2048)
def _glyph_alpha_cached(text: str, font: str, height_px: int, weight: int) -> np.ndarray:
    canvas_h = 200
    canvas = np.zeros((canvas_h, canvas_h * max(2, len(text)) + 40), np.uint8)
    face = None if font.startswith("hershey:") else _font_face(font)
    is_glyph = text in _SUIT_GLYPHS.values()
    if face is None and is_glyph:
        _draw_pip_polygon(canvas, {v: k for k, v in _SUIT_GLYPHS.items()}[text])
    elif face is None:
        hershey = int(font.split(":")[1]) if font.startswith("hershey:") else cv2.FONT_HERSHEY_TRIPLEX
        thickness = 9 if weight >= 600 else 6
        cv2.putText(canvas, text, (10, 160), hershey, 4.0, 255, thickness, cv2.LINE_AA)
    else:
        cv2.putText(canvas, text, (10, 160), 255, face, 150, weight)
    ys, xs = np.nonzero(canvas > 20)
    crop = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    scale = height_px / crop.shape[0]
    width_px = max(2, int(round(crop.shape[1] * scale)))
    return cv2.resize(crop, (width_px, height_px), interpolation=cv2.INTER_AREA)


def _draw_pip_polygon(canvas: np.ndarray, suit: str) -> None:
    """Suit shapes for machines without the DejaVu fonts (a 150 px tall pip drawn at (10..160))."""
    cx, top, size = 90, 10, 150
    if suit == "D":
        points = np.array([[cx, top], [cx + 55, top + 75], [cx, top + size], [cx - 55, top + 75]], np.int32)
        cv2.fillPoly(canvas, [points], 255, cv2.LINE_AA)
        return
    if suit in "HS":
        lobes_y = top + 45 if suit == "H" else top + 85
        point_y = top + size if suit == "H" else top
        cv2.circle(canvas, (cx - 33, lobes_y), 37, 255, -1, cv2.LINE_AA)
        cv2.circle(canvas, (cx + 33, lobes_y), 37, 255, -1, cv2.LINE_AA)
        sign = 1 if suit == "H" else -1
        points = np.array([[cx - 69, lobes_y + sign * 8], [cx + 69, lobes_y + sign * 8], [cx, point_y]], np.int32)
        cv2.fillPoly(canvas, [points], 255, cv2.LINE_AA)
        if suit == "S":
            cv2.fillPoly(canvas, [np.array([[cx, top + 100], [cx + 25, top + size], [cx - 25, top + size]], np.int32)], 255, cv2.LINE_AA)
        return
    for dx, dy in ((0, 35), (-38, 85), (38, 85)):
        cv2.circle(canvas, (cx + dx, top + dy), 33, 255, -1, cv2.LINE_AA)
    cv2.fillPoly(canvas, [np.array([[cx, top + 80], [cx + 25, top + size], [cx - 25, top + size]], np.int32)], 255, cv2.LINE_AA)


def _stamp(image: np.ndarray, alpha: np.ndarray, x: float, y: float, colour: tuple[int, int, int], *, rotate: bool = False, anchor: str = "topleft") -> tuple[int, int, int, int]:
    """Inks `alpha` onto `image` at (x, y) px; returns the box (x0, y0, x1, y1) it covered."""
    if rotate:
        alpha = alpha[::-1, ::-1]
    h, w = alpha.shape
    if anchor == "centre":
        x, y = x - w / 2, y - h / 2
    elif anchor == "bottomright":
        x, y = x - w, y - h
    x0, y0 = int(round(x)), int(round(y))
    x1, y1 = min(image.shape[1], x0 + w), min(image.shape[0], y0 + h)
    sx0, sy0 = max(0, -x0), max(0, -y0)
    x0, y0 = max(0, x0), max(0, y0)
    if x1 <= x0 or y1 <= y0:
        return x0, y0, x0, y0
    a = alpha[sy0: sy0 + (y1 - y0), sx0: sx0 + (x1 - x0)].astype(np.float32)[..., None] / 255.0
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)
    return x0, y0, x1, y1


# ---------------------------------------------------------------- drawn faces

#: Pip centres for number cards, as fractions of the pip field (x across, y down); y > 0.5 pips are upside down.
_PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0.0), (0.5, 1.0)],
    "3": [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def _ink(design: DrawnDesign, suit: str) -> tuple[int, int, int]:
    return design.red if suit in "HD" else design.black


def _paper(design: DrawnDesign, px_per_mm: float, seed_parts: tuple) -> np.ndarray:
    width, height = card_size_px(px_per_mm)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = design.paper
    # faint printing grain so a face is never a perfectly flat colour
    noise = _rng_for(*seed_parts).normal(0, 1.6, (height // 4 + 1, width // 4 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (width, height), interpolation=cv2.INTER_LINEAR)[..., None]
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _draw_indices(image: np.ndarray, card: Card, design: DrawnDesign, px_per_mm: float) -> None:
    colour = _ink(design, card.suit)
    rank_alpha = _glyph_alpha(card.rank, design.font, int(design.index_height * px_per_mm), design.weight)
    if card.rank == "10":  # real decks squeeze the 10 to the width of the other indices
        squeeze = min(1.0, design.index_height * 0.95 * px_per_mm / rank_alpha.shape[1])
        rank_alpha = cv2.resize(rank_alpha, (max(2, int(rank_alpha.shape[1] * squeeze)), rank_alpha.shape[0]), interpolation=cv2.INTER_AREA)
    pip_alpha = _glyph_alpha(_SUIT_GLYPHS[card.suit], "DejaVuSans.ttf", int(design.index_pip * px_per_mm), 400)
    column_centre = (design.index_x + design.index_height * 0.42) * px_per_mm
    top = design.index_y * px_per_mm
    gap = 0.8 * px_per_mm
    height, width = image.shape[:2]
    for rotate in (False, True):
        rank_y = top + rank_alpha.shape[0] / 2
        pip_y = top + rank_alpha.shape[0] + gap + pip_alpha.shape[0] / 2
        x = column_centre
        if rotate:
            x, rank_y, pip_y = width - column_centre, height - rank_y, height - pip_y
        _stamp(image, rank_alpha, x, rank_y, colour, rotate=rotate, anchor="centre")
        _stamp(image, pip_alpha, x, pip_y, colour, rotate=rotate, anchor="centre")


def index_box_mm(design: str) -> tuple[float, float, float, float]:
    """The top-left corner index (rank + suit pip) of a design, as (x0, y0, x1, y1) mm in the card frame.

    The bottom-right index is the same box turned 180 degrees about the card's centre."""
    if design in DRAWN_DESIGNS:
        spec = DRAWN_DESIGNS[design]
        half_width = max(spec.index_height * 0.95, spec.index_pip * 1.1) / 2
        centre = spec.index_x + spec.index_height * 0.42
        bottom = spec.index_y + spec.index_height + 0.8 + spec.index_pip
        return (max(0.0, centre - half_width - 0.5), max(0.0, spec.index_y - 0.5), centre + half_width + 0.5, bottom + 0.5)
    return _svg_index_box(design)


@functools.lru_cache(maxsize=32)
def _svg_index_box(design: str) -> tuple[float, float, float, float]:
    """Measured on the deck's 8 of spades: the ink inside the top-left corner window."""
    px_per_mm = 6.0
    face = card_face(Card("8", "S"), design, px_per_mm)
    window = face[: int(26 * px_per_mm), : int(13 * px_per_mm)]
    ink = (window.min(axis=2) < 150) & (card_mask(px_per_mm)[: window.shape[0], : window.shape[1]] == 255)
    ink[: int(1.0 * px_per_mm), :] = False
    ink[:, : int(1.0 * px_per_mm)] = False
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return (1.5, 1.5, 11.0, 22.0)
    # the pips of the middle field may reach into the window: keep the leftmost cluster of columns
    return (xs.min() / px_per_mm - 0.5, ys.min() / px_per_mm - 0.5, xs.max() / px_per_mm + 0.5, ys.max() / px_per_mm + 0.5)


def _draw_number(image: np.ndarray, card: Card, design: DrawnDesign, px_per_mm: float) -> None:
    colour = _ink(design, card.suit)
    glyph = _SUIT_GLYPHS[card.suit]
    height, width = image.shape[:2]
    if card.rank == "A":
        size = design.pip * (2.6 if card.suit == "S" else 2.0)
        alpha = _glyph_alpha(glyph, "DejaVuSans.ttf", int(size * px_per_mm), 400)
        _stamp(image, alpha, width / 2, height / 2, colour, anchor="centre")
        return
    alpha = _glyph_alpha(glyph, "DejaVuSans.ttf", int(design.pip * px_per_mm), 400)
    left, right = 17.0 * px_per_mm, (CARD_WIDTH_MM - 17.0) * px_per_mm
    top, bottom = 16.0 * px_per_mm, (CARD_HEIGHT_MM - 16.0) * px_per_mm
    for fx, fy in _PIP_LAYOUTS[card.rank]:
        x = left + fx * (right - left)
        y = top + fy * (bottom - top)
        _stamp(image, alpha, x, y, colour, rotate=fy > 0.5, anchor="centre")


def _draw_court(image: np.ndarray, card: Card, design: DrawnDesign, px_per_mm: float) -> None:
    """A framed, mirror-symmetric figure: robe, collar, face, crown or hat, in the printed court colours."""
    colour = _ink(design, card.suit)
    rng = _rng_for("court", card, design.font, design.paper)
    height, width = image.shape[:2]
    x0, y0 = int(11.5 * px_per_mm), int(9.5 * px_per_mm)
    x1, y1 = width - x0, height - y0
    half = np.full(((y1 - y0) // 2, x1 - x0, 3), design.paper, np.uint8)
    hh, ww = half.shape[:2]
    palette = [design.red, (170, 110, 30), (40, 170, 230), design.black, (60, 130, 60)]
    robe, trim = palette[rng.integers(0, 3)], palette[rng.integers(1, 5)]
    unit = ww / 10
    cx = ww // 2 + int(rng.integers(-2, 3) * unit / 4)
    # robe and shoulders filling the half
    shoulders = np.array([[0, hh], [0, int(hh * 0.62)], [cx - 3 * unit, int(hh * 0.45)], [cx + 3 * unit, int(hh * 0.45)], [ww, int(hh * 0.6)], [ww, hh]], np.int32)
    cv2.fillPoly(half, [shoulders], robe, cv2.LINE_AA)
    for k in range(4):
        xk = int(unit * (1 + 2.4 * k))
        cv2.line(half, (xk, hh), (xk + int(unit), int(hh * 0.55)), trim, max(1, int(unit * 0.35)), cv2.LINE_AA)
    cv2.ellipse(half, (cx, int(hh * 0.5)), (int(2.6 * unit), int(0.9 * unit)), 0, 0, 360, trim, -1, cv2.LINE_AA)
    # face, hair, crown or hat
    face_c = (cx, int(hh * 0.32))
    cv2.ellipse(half, face_c, (int(1.6 * unit), int(2.0 * unit)), 0, 0, 360, (170, 200, 235), -1, cv2.LINE_AA)
    cv2.ellipse(half, face_c, (int(1.6 * unit), int(2.0 * unit)), 0, 0, 360, design.black, max(1, int(unit * 0.12)), cv2.LINE_AA)
    for side in (-1, 1):
        cv2.circle(half, (cx + side * int(0.6 * unit), int(hh * 0.3)), max(1, int(unit * 0.18)), design.black, -1, cv2.LINE_AA)
    cv2.line(half, (cx - int(0.5 * unit), int(hh * 0.4)), (cx + int(0.5 * unit), int(hh * 0.4)), design.red, max(1, int(unit * 0.15)), cv2.LINE_AA)
    if card.rank == "K":
        crown = np.array([[cx - 2 * unit, hh * 0.18], [cx - 2 * unit, hh * 0.04], [cx - unit, hh * 0.12], [cx, hh * 0.02], [cx + unit, hh * 0.12], [cx + 2 * unit, hh * 0.04], [cx + 2 * unit, hh * 0.18]], np.int32)
        cv2.fillPoly(half, [crown], (40, 190, 235), cv2.LINE_AA)
        cv2.ellipse(half, (cx, int(hh * 0.5)), (int(1.2 * unit), int(1.6 * unit)), 0, 0, 180, (120, 120, 120), -1, cv2.LINE_AA)  # beard
    elif card.rank == "Q":
        cv2.ellipse(half, (cx, int(hh * 0.14)), (int(1.8 * unit), int(0.9 * unit)), 0, 180, 360, (40, 190, 235), -1, cv2.LINE_AA)
        cv2.circle(half, (cx + int(3.2 * unit), int(hh * 0.42)), int(0.7 * unit), design.red, -1, cv2.LINE_AA)  # flower
    else:
        cv2.ellipse(half, (cx, int(hh * 0.14)), (int(2.4 * unit), int(0.8 * unit)), 0, 180, 360, design.black, -1, cv2.LINE_AA)  # cap
        cv2.line(half, (cx - int(3.5 * unit), int(hh * 0.95)), (cx - int(3.2 * unit), int(hh * 0.2)), (40, 190, 235), max(1, int(unit * 0.3)), cv2.LINE_AA)
    pip = _glyph_alpha(_SUIT_GLYPHS[card.suit], "DejaVuSans.ttf", int(5.5 * px_per_mm), 400)
    _stamp(half, pip, ww - 1.8 * unit, 1.4 * unit, colour, anchor="centre")
    picture = np.concatenate([half, half[::-1, ::-1]], axis=0)
    image[y0: y0 + picture.shape[0], x0: x0 + picture.shape[1]] = picture
    line = max(1, int(round(0.25 * px_per_mm)))
    cv2.rectangle(image, (x0, y0), (x0 + picture.shape[1], y0 + picture.shape[0]), colour if rng.random() < 0.5 else design.black, line, cv2.LINE_AA)
    cv2.line(image, (x0, y0 + picture.shape[0] // 2), (x0 + picture.shape[1], y0 + picture.shape[0] // 2), design.black, max(1, line // 2), cv2.LINE_AA)


def _drawn_face(card: Card, name: str, px_per_mm: float) -> np.ndarray:
    design = DRAWN_DESIGNS[name]
    image = _paper(design, px_per_mm, ("paper", name, card))
    if card.rank in "JQK":
        _draw_court(image, card, design, px_per_mm)
    else:
        _draw_number(image, card, design, px_per_mm)
    if design.border:
        inset = int(1.6 * px_per_mm)
        radius = int(2.0 * px_per_mm)
        _rounded_outline(image, inset, radius, _ink(design, card.suit), max(1, int(0.18 * px_per_mm)))
    _draw_indices(image, card, design, px_per_mm)
    return image


def _rounded_outline(image: np.ndarray, inset: int, radius: int, colour: tuple[int, int, int], thickness: int) -> None:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = inset, inset, w - 1 - inset, h - 1 - inset
    cv2.line(image, (x0 + radius, y0), (x1 - radius, y0), colour, thickness, cv2.LINE_AA)
    cv2.line(image, (x0 + radius, y1), (x1 - radius, y1), colour, thickness, cv2.LINE_AA)
    cv2.line(image, (x0, y0 + radius), (x0, y1 - radius), colour, thickness, cv2.LINE_AA)
    cv2.line(image, (x1, y0 + radius), (x1, y1 - radius), colour, thickness, cv2.LINE_AA)
    for (cx, cy), start in (((x0 + radius, y0 + radius), 180), ((x1 - radius, y0 + radius), 270), ((x1 - radius, y1 - radius), 0), ((x0 + radius, y1 - radius), 90)):
        cv2.ellipse(image, (cx, cy), (radius, radius), 0, start, start + 90, colour, thickness, cv2.LINE_AA)


def _svg_face(card: Card, deck: str, px_per_mm: float, element: str | None = None) -> np.ndarray:
    width, height = card_size_px(px_per_mm)
    rendered = svg_decks.render_element(deck, element or svg_decks.element_id(card, deck), width, height)
    alpha = rendered[..., 3:4].astype(np.float32) / 255.0
    # cards drawn with their own rounded corners: the corners show the white card stock under our mask
    return (rendered[..., :3].astype(np.float32) * alpha + 250.0 * (1 - alpha)).astype(np.uint8)


@functools.lru_cache(maxsize=512)
def _card_face_cached(card: Card, design: str, px_per_mm: float) -> np.ndarray:
    if design in DRAWN_DESIGNS:
        image = _drawn_face(card, design, px_per_mm)
    elif design.startswith("svg:") and design in EVERY_SVG_DESIGN:
        image = _svg_face(card, design[4:], px_per_mm)
    else:
        raise ValueError(f"unknown card design {design!r}: expected one of {', '.join(EVERY_SVG_DESIGN)}")
    image.setflags(write=False)
    return image


def card_face(card: Card, design: str, px_per_mm: float = 10) -> np.ndarray:
    """The upright face of `card` in `design` (BGR uint8, card_size_px(px_per_mm)); the outside of the
    rounded corners is filled with card colour: use card_mask(px_per_mm) as its alpha."""
    if card.suit is None:
        raise ValueError(f"cannot draw {card}: a card to draw needs a suit")
    return _card_face_cached(card, design, float(px_per_mm)).copy()


# ---------------------------------------------------------------- backs


def back_designs() -> tuple[str, ...]:
    """Every back design here: the drawn ones, then the backs of the installed SVG decks."""
    svg_backs = []
    for name in svg_decks.available_decks():
        try:
            svg_decks._card_rect(name, "back")
        except KeyError:
            continue
        svg_backs.append(f"svg:{name}")
    return BACK_DESIGNS + tuple(svg_backs)


@functools.lru_cache(maxsize=8)
def own_back(design: str) -> bool:
    """Whether a face design has a back of its own to be dealt with: the games' SVG decks with a card-sized
    back (`back_designs`), and the other decks (`OTHER_DESIGNS`) whose back renders; kept out of
    `back_designs`, which the models train on."""
    if design in OTHER_DESIGNS:
        try:
            svg_decks._box_on_its_page(design[4:], "back")
        except KeyError:
            return False
        return True
    return design in back_designs()


def _drawn_back(name: str, px_per_mm: float) -> np.ndarray:
    width, height = card_size_px(px_per_mm)
    colours = {"red": (40, 35, 170), "blue": (140, 70, 25), "green": (60, 110, 30), "black": (35, 30, 30)}
    main = colours[name.split("-")[0]]
    pattern = name.split("-")[1]
    image = np.full((height, width, 3), 248, np.uint8)
    border = int(3.5 * px_per_mm)
    field = np.full((height - 2 * border, width - 2 * border, 3), main, np.uint8)
    fh, fw = field.shape[:2]
    light = tuple(int(c + (255 - c) * 0.75) for c in main)
    step = max(3, int(3.0 * px_per_mm))
    thickness = max(1, int(0.35 * px_per_mm))
    if pattern == "lattice":
        for k in range(-fh, fw + fh, step):
            cv2.line(field, (k, 0), (k + fh, fh), light, thickness, cv2.LINE_AA)
            cv2.line(field, (k, fh), (k + fh, 0), light, thickness, cv2.LINE_AA)
    elif pattern == "rosette":
        for yy in range(0, fh + step, step):
            for xx in range(0, fw + step, step):
                cv2.circle(field, (xx, yy), step // 2, light, thickness, cv2.LINE_AA)
        cv2.ellipse(field, (fw // 2, fh // 2), (fw // 4, fh // 5), 0, 0, 360, main, -1, cv2.LINE_AA)
        cv2.ellipse(field, (fw // 2, fh // 2), (fw // 4, fh // 5), 0, 0, 360, light, thickness * 2, cv2.LINE_AA)
    elif pattern == "checks":
        for yy in range(0, fh, step):
            for xx in range(0, fw, step):
                if (xx // step + yy // step) % 2:
                    cv2.rectangle(field, (xx, yy), (xx + step - 1, yy + step - 1), light, -1)
    image[border: border + fh, border: border + fw] = field
    return image


@functools.lru_cache(maxsize=64)
def _card_back_cached(design: str, px_per_mm: float) -> np.ndarray:
    if design in BACK_DESIGNS:
        image = _drawn_back(design, px_per_mm)
    elif design.startswith("svg:") and own_back(design):  # a deck's own back
        image = _svg_face(Card("2", "S"), design[4:], px_per_mm, element="back")
    elif design in EVERY_SVG_DESIGN:  # a face design without one: a drawn back picked by name
        return _card_back_cached(BACK_DESIGNS[zlib.crc32(design.encode()) % len(BACK_DESIGNS)], px_per_mm)
    else:
        raise ValueError(f"unknown back design {design!r}: expected one of {', '.join(back_designs())}")
    image.setflags(write=False)
    return image


def card_back(design: str, px_per_mm: float = 10) -> np.ndarray:
    """A card back (BGR uint8, card_size_px(px_per_mm)). `design` is one of back_designs(), or a face
    design (then that deck's back). Use card_mask(px_per_mm) as its alpha."""
    return _card_back_cached(design, float(px_per_mm)).copy()


def all_cards() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]
