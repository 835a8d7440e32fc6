"""Training views for the face classifier: the top card of a spit pile as the referee sees it.

The referee cuts a top-down view around a pile from a 540p-1080p camera, so the top card is seen at
0.7-2.5 camera pixels per mm: corner indices blur into a few pixels, while the pips, their colour and
layout, and the court pictures stay readable. One sample is such a pile, drawn at a random camera
resolution (cards under the top one peeking out, a finger or thumb over an edge now and then, uneven
light, blur, noise, compression), then cut along a deliberately imperfect outline of the top card and
warped upright to FACE_SIZE, exactly as `referee.vision.geometry.face_crop` cuts it at run time.

Deterministic per seed; numpy and OpenCV only.
"""

from __future__ import annotations

import numpy as np
import cv2

import functools

from models.data_gen import (
    ALL_CARDS, NONE_CLASS, _back, _composite, _face, _hand, _jpeg, _shade_card, _similarity, imperfect_outline,
    procedural_background,
)
from referee.synth import faces
from referee.vision.geometry import CARD_MM, SUIT_PX_PER_MM, face_crop, order_card_corners, suit_corners

try:
    from referee.synth.surfaces import table_surface
except ImportError:  # pragma: no cover
    table_surface = None

#: Resolution the faces are drawn at before the camera blur (px per mm).
DRAW_PX_PER_MM = 3.0
#: Camera resolutions drawn (px per mm on the table): a 1080p camera close up to a 540p one far away.
CAMERA_PX_PER_MM = (0.65, 2.6)
#: Share of samples that show no readable face: a card back, a bare spot, a face mostly under a hand.
NONE_SHARE = 0.07


def _ground(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    if table_surface is not None and rng.random() < 0.6:
        return np.ascontiguousarray(table_surface(rng, width, height))
    return procedural_background(rng, width, height)


@functools.lru_cache(maxsize=1)
def _backs() -> tuple[str, ...]:
    return tuple(faces.back_designs())


def _place(canvas: np.ndarray, picture: np.ndarray, homography: np.ndarray, rng: np.random.Generator, shadow: float) -> None:
    """Composite one card (picture at DRAW_PX_PER_MM) through `homography` (card px -> canvas px)."""
    _composite(canvas, _shade_card(rng, picture), faces.card_mask(DRAW_PX_PER_MM), homography, shadow=shadow,
               shadow_blur=1.5, shadow_offset=(1, 1))


def pile_view_sample(seed: int, designs: tuple[str, ...] | None = None, size: tuple[int, int] | None = None) -> tuple[np.ndarray, str]:
    """(face crop HxWx3 BGR, class name) of the top card of a pile seen from above."""
    from referee.vision.geometry import FACE_SIZE

    size = size or FACE_SIZE
    rng = np.random.default_rng(seed)
    designs = designs or faces.DESIGNS
    design = designs[int(rng.integers(len(designs)))]
    camera = float(np.exp(rng.uniform(*np.log(CAMERA_PX_PER_MM))))
    # the pile, in table mm, drawn at 4 px/mm then shrunk to the camera's resolution
    area = np.array([130.0, 150.0])
    draw = DRAW_PX_PER_MM
    width, height = (area * draw).astype(int)
    # the table drawn at the camera's resolution (its texture finer than that is never seen), enlarged
    canvas = cv2.resize(_ground(rng, max(8, int(width * camera / draw)), max(8, int(height * camera / draw))), (width, height),
                        interpolation=cv2.INTER_LINEAR)
    to_centre = np.array([[1, 0, -CARD_MM[0] * draw / 2], [0, 1, -CARD_MM[1] * draw / 2], [0, 0, 1]])
    cards_under = int(rng.choice([0, 1, 2, 3], p=[0.2, 0.35, 0.3, 0.15]))
    top = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
    kind = "face" if rng.random() >= NONE_SHARE else str(rng.choice(["back", "bare", "covered"]))
    for _ in range(cards_under if kind != "bare" else 0):
        under = ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]
        matrix = _similarity(rng.normal(0, np.radians(14)) + np.pi * rng.integers(2), 1.0,
                             tuple(area * draw / 2 + rng.normal(0, 7 * draw, size=2))) @ to_centre
        _place(canvas, _face(under, design, draw) if rng.random() < 0.9 else _back(str(rng.choice(_backs())), draw), matrix, rng, 0.25)
    turn = rng.normal(0, np.radians(12)) + np.pi * rng.integers(2)
    if rng.random() < 0.15:
        turn += np.pi / 2  # laid across the pile
    centre = area * draw / 2 + rng.normal(0, 4 * draw, size=2)
    top_matrix = _similarity(turn, 1.0, tuple(centre)) @ to_centre
    if kind != "bare":
        picture = _back(str(rng.choice(_backs())), draw) if kind == "back" else _face(top, design, draw)
        _place(canvas, picture, top_matrix, rng, 0.35)
    if kind == "covered" or rng.random() < 0.12:  # a thumb or a hand over part of the card
        ids = np.zeros(canvas.shape[:2], np.int16)
        _hand(rng, canvas, ids, CARD_MM[1] * draw * (1.0 if kind == "covered" else 0.45))
    # the camera: shrink to its resolution, uneven light, blur, noise, compression
    shrink = camera / draw
    small = cv2.resize(canvas, (max(8, int(width * shrink)), max(8, int(height * shrink))), interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[0:small.shape[0], 0:small.shape[1]].astype(np.float32)
    slope = rng.uniform(-0.35, 0.35, size=2)
    light = (1 + slope[0] * (xx / small.shape[1] - 0.5) + slope[1] * (yy / small.shape[0] - 0.5)) * rng.uniform(0.55, 1.2)
    small = np.clip(small.astype(np.float32) * light[:, :, None] * rng.uniform(0.88, 1.12, size=3), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.2:  # motion blur of a nudge
        length = int(rng.integers(2, 5))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        small = cv2.filter2D(small, -1, cv2.warpAffine(kernel, rotation, (length, length)))
    small = np.clip(small + rng.normal(0, rng.uniform(0, 6), size=small.shape), 0, 255).astype(np.uint8)
    small = _jpeg(rng, small)
    # the referee's pile view is resampled to 3 px/mm; the outline comes from the top card's edges
    view_scale = 3.0 / camera
    view = cv2.resize(small, (int(small.shape[1] * view_scale), int(small.shape[0] * view_scale)), interpolation=cv2.INTER_LINEAR)
    card_corners = np.array([[0, 0], [CARD_MM[0], 0], [CARD_MM[0], CARD_MM[1]], [0, CARD_MM[1]]], np.float64) * draw
    projected = cv2.perspectiveTransform(card_corners.reshape(-1, 1, 2), top_matrix).reshape(4, 2) * (3.0 / draw)
    outline = order_card_corners(imperfect_outline(rng, projected.astype(np.float32)))
    if rng.random() < 0.5:
        outline = np.roll(outline, 2, axis=0)  # either short edge first: the card reads the same turned round
    label = str(top) if kind == "face" else NONE_CLASS
    return face_crop(view, outline, size), label


def pile_view_samples(first_seed: int, count: int, designs: tuple[str, ...] | None = None) -> tuple[np.ndarray, list[str]]:
    images, labels = [], []
    for seed in range(first_seed, first_seed + count):
        image, label = pile_view_sample(seed, designs)
        images.append(image)
        labels.append(label)
    return np.stack(images), labels


# ------------------------------------------------------------------------------------------ suits
SUIT_CLASSES = ("C", "D", "H", "S", NONE_CLASS)


def suit_view_samples(first_seed: int, count: int, designs: tuple[str, ...] | None = None) -> tuple[np.ndarray, list[str]]:
    """Both index corners (`referee.vision.geometry.suit_corners`) of the top card of `count` pile views
    drawn as `pile_view_sample` draws them, labelled with the card's suit or `none`."""
    size = tuple(int(round(v * SUIT_PX_PER_MM)) for v in CARD_MM)
    images, labels = [], []
    for seed in range(first_seed, first_seed + count):
        face, label = pile_view_sample(seed, designs, size=size)
        for crop in suit_corners(face):
            images.append(crop)
            labels.append(label if label == NONE_CLASS else label[-1])
    return np.stack(images), labels
