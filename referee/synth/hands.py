"""Hands and arms reaching in from a player's side of the table, drawn top-down onto the canvas.

An arm runs from the shoulder (beyond the player's edge) through a bent elbow to the wrist; the hand is
a palm with four fingers and a thumb, curled round a card when gripping, flat and spread when slapping.
Skin tone and sleeve vary per player. Everything is drawn into a small patch (colour + alpha) that the
renderer shades, blurs for motion and lays onto the canvas with a shadow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.synth.canvas import CanvasGeometry
from referee.synth.scene import HandPose, shoulder_point

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (176, 196, 232), (150, 178, 224), (128, 160, 212), (105, 140, 196), (80, 112, 166), (58, 84, 128), (45, 62, 96),
)
SLEEVE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 40, 40), (120, 60, 20), (30, 30, 140), (200, 200, 200), (60, 100, 60), (90, 90, 90), (150, 110, 70), (30, 60, 110),
)


@dataclass(frozen=True)
class ArmStyle:
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_reach: float   # 0.3 short sleeve .. 0.95 long sleeve down to the wrist
    size: float           # 0.9 .. 1.1 times an average adult hand


def random_style(rng: np.random.Generator) -> ArmStyle:
    return ArmStyle(
        skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
        sleeve=SLEEVE_COLOURS[int(rng.integers(len(SLEEVE_COLOURS)))],
        sleeve_reach=float(rng.choice([0.35, 0.8, 0.9])),
        size=float(rng.uniform(0.9, 1.1)),
    )


@dataclass(frozen=True)
class HandShape:
    """The hand's outline pieces, in table mm, for drawing and for labels."""

    arm: list[tuple[np.ndarray, np.ndarray, float]]   # (from, to, width) segments
    sleeve: list[tuple[np.ndarray, np.ndarray, float]]
    palm: tuple[np.ndarray, float, float, float]       # centre, half-length, half-width, angle (deg)
    fingers: list[tuple[np.ndarray, np.ndarray, float]]

    def outline_points(self) -> np.ndarray:
        """Points spanning the hand (palm and fingers, not the arm): their hull is the hand's label polygon."""
        centre, half_length, half_width, angle = self.palm
        a = math.radians(angle)
        along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        points = [centre + along * half_length * s + across * half_width * c for s, c in ((1, 1), (1, -1), (-1, 1), (-1, -1))]
        for start, end, width in self.fingers:
            points += [start, end + (end - start) / max(1e-6, np.linalg.norm(end - start)) * width / 2]
        return np.array(points)


def hand_shape(pose: HandPose, shoulder: np.ndarray, style: ArmStyle) -> HandShape:
    palm_centre = np.array([pose.x, pose.y])
    reach = palm_centre - shoulder
    length = float(np.linalg.norm(reach))
    direction = reach / max(1e-6, length)
    normal = np.array([-direction[1], direction[0]])
    k = style.size
    wrist = palm_centre - direction * 50 * k
    # the elbow bends outwards, more when the hand is close to the body
    bend = max(0.0, 330.0 - length * 0.45)
    outward = 1.0 if (pose.hand == "main") == (pose.player == "A") else -1.0
    elbow = shoulder + (wrist - shoulder) * 0.5 + normal * outward * bend * 0.5
    arm = [(shoulder, elbow, 105 * k), (elbow, wrist, 78 * k)]
    sleeve_end = shoulder + (elbow - shoulder) * min(1.0, style.sleeve_reach * 2)
    sleeve = [(shoulder, sleeve_end, 118 * k)]
    if style.sleeve_reach > 0.5:
        sleeve.append((elbow, elbow + (wrist - elbow) * ((style.sleeve_reach - 0.5) * 2), 92 * k))
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    palm = (palm_centre, 48 * k, 42 * k, angle)
    fingers = []
    finger_length = (72 if pose.open else 42) * k
    spread = 0.16 if pose.open else 0.05
    # the thumb is on the inside of the hand: left of a right hand seen from above along its direction
    thumb_side = 1.0 if (pose.hand == "main") == (pose.player == "A") else -1.0
    thumb_side = thumb_side if pose.player == "A" else -thumb_side
    for i, offset in enumerate((-1.5, -0.5, 0.5, 1.5)):
        root = palm_centre + direction * 40 * k + normal * offset * 19 * k
        turn = offset * spread
        finger_direction = direction * math.cos(turn) + normal * math.sin(turn)
        scale = (0.85, 1.0, 0.97, 0.8)[i if thumb_side > 0 else 3 - i]
        fingers.append((root, root + finger_direction * finger_length * scale, 18 * k))
    thumb_root = palm_centre + normal * thumb_side * 35 * k - direction * 10 * k
    thumb_angle = (0.9 if pose.open else 0.6) * thumb_side
    thumb_direction = direction * math.cos(thumb_angle) + normal * math.sin(thumb_angle)
    fingers.append((thumb_root, thumb_root + thumb_direction * 52 * k, 22 * k))
    return HandShape(arm, sleeve, palm, fingers)


def _thick_line(image: np.ndarray, geometry: CanvasGeometry, offset: np.ndarray, start: np.ndarray, end: np.ndarray, width_mm: float, value) -> None:
    a = geometry.to_px(start) - offset
    b = geometry.to_px(end) - offset
    thickness = max(1, int(round(width_mm * geometry.px_per_mm)))
    cv2.line(image, tuple(int(round(v)) for v in a), tuple(int(round(v)) for v in b), value, thickness, cv2.LINE_AA)


def draw_hand_patch(geometry: CanvasGeometry, shape: HandShape, style: ArmStyle, rng_seed: int) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None:
    """The hand and arm drawn into a patch: (canvas box, colour float32 (h,w,3), alpha float32 (h,w)).

    The patch is drawn at half the canvas resolution (limbs have no fine detail, and a hand in motion is
    blurred anyway): the caller scales it up to the box."""
    points = [p for segment in shape.arm + shape.fingers for p in segment[:2]]
    points.append(shape.palm[0])
    box = geometry.box(np.array(points), pad_mm=62.0)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    half = CanvasGeometry(geometry.origin, geometry.px_per_mm / 2, (geometry.width + 1) // 2, (geometry.height + 1) // 2)
    # the half-size patch's pixel (0, 0) sits on the box's corner
    offset = (np.array([x0, y0], np.float64) + 0.5) / 2 - 0.5
    h, w = max(1, (y1 - y0) // 2), max(1, (x1 - x0) // 2)
    geometry = half
    skin_mask = np.zeros((h, w), np.uint8)
    sleeve_mask = np.zeros((h, w), np.uint8)
    for start, end, width in shape.arm:
        _thick_line(skin_mask, geometry, offset, start, end, width, 255)
    centre, half_length, half_width, angle = shape.palm
    c = geometry.to_px(centre) - offset
    cv2.ellipse(skin_mask, (int(round(c[0])), int(round(c[1]))),
                (int(round(half_length * geometry.px_per_mm)), int(round(half_width * geometry.px_per_mm))), angle, 0, 360, 255, -1, cv2.LINE_AA)
    for start, end, width in shape.fingers:
        _thick_line(skin_mask, geometry, offset, start, end, width, 255)
    for start, end, width in shape.sleeve:
        _thick_line(sleeve_mask, geometry, offset, start, end, width, 255)
    skin_alpha = skin_mask.astype(np.float32) / 255.0
    sleeve_alpha = sleeve_mask.astype(np.float32) / 255.0
    alpha = np.maximum(skin_alpha, sleeve_alpha)
    # rounded limbs: darker towards the outline, lighter along the middle
    sigma = max(1.0, 9.0 * geometry.px_per_mm)
    small = cv2.resize(alpha, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    roundness = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h), interpolation=cv2.INTER_LINEAR)
    shading = 0.62 + 0.48 * np.clip(roundness, 0, 1)
    rng = np.random.default_rng(rng_seed)
    folds = cv2.resize(rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    colour = np.empty((h, w, 3), np.float32)
    skin = np.array(style.skin, np.float32)
    sleeve = np.array(style.sleeve, np.float32)
    colour[:] = skin
    colour = colour * (1 - sleeve_alpha[..., None]) + sleeve * (1 + 0.06 * folds[..., None]) * sleeve_alpha[..., None]
    colour *= shading[..., None]
    # the gaps between neighbouring fingers, and a knuckle line across their roots
    creases = np.zeros((h, w), np.uint8)
    fingers = shape.fingers[:4]
    for (root_a, tip_a, _), (root_b, tip_b, _) in zip(fingers, fingers[1:]):
        _thick_line(creases, geometry, offset, (root_a + root_b) / 2, (tip_a + tip_b) / 2, 1.5, 255)
    _thick_line(creases, geometry, offset, fingers[0][0], fingers[-1][0], 1.5, 120)
    creases = cv2.GaussianBlur(creases.astype(np.float32) / 255.0, (0, 0), 0.8) * skin_alpha * (1 - sleeve_alpha)
    colour *= (1 - 0.35 * creases)[..., None]
    return box, np.clip(colour, 0, 255), alpha


HAIR_COLOURS: tuple[tuple[int, int, int], ...] = ((20, 20, 25), (30, 45, 70), (40, 70, 110), (90, 140, 180), (140, 140, 140))


def draw_body(canvas: np.ndarray, geometry: CanvasGeometry, player: str, centre_x: float, edge_y: float, style: ArmStyle,
              rng: np.random.Generator) -> None:
    """The player's chest and head beyond their edge of the table (seen from above), drawn onto `canvas`.

    `edge_y` is the play area's edge on the player's side (0 for A, H for B); the body leans in over it."""
    away = -1.0 if player == "A" else 1.0
    chest_y = edge_y + away * float(rng.uniform(470, 560))
    head_y = chest_y + away * 230.0
    # everything is drawn in the box the body can cover, not over the whole canvas
    reach = np.array([[centre_x - 420, chest_y - 320], [centre_x + 420, chest_y + 320], [centre_x, head_y + away * 120]])
    box = geometry.box(reach)
    if box is None:
        return
    x0, y0, x1, y1 = box
    local = CanvasGeometry((geometry.origin[0] + x0 / geometry.px_per_mm, geometry.origin[1] + y0 / geometry.px_per_mm), geometry.px_per_mm, x1 - x0, y1 - y0)
    h, w = y1 - y0, x1 - x0
    layer = np.zeros((h, w), np.uint8)
    chest = np.array([[centre_x + dx * 260, chest_y + away * dy] for dx, dy in ((-1, -90), (1, -90), (1.05, 200), (-1.05, 200))])
    cv2.fillPoly(layer, [local.to_fixed(chest)], 255, cv2.LINE_AA, 4)
    for side in (-1, 1):  # rounded shoulders
        c = local.to_px(np.array([centre_x + side * 200, chest_y + away * 10]))
        cv2.circle(layer, (int(c[0]), int(c[1])), int(95 * geometry.px_per_mm), 255, -1, cv2.LINE_AA)
    head = np.zeros((h, w), np.uint8)
    c = local.to_px(np.array([centre_x + float(rng.normal(0, 15)), head_y]))
    cv2.ellipse(head, (int(c[0]), int(c[1])), (int(80 * geometry.px_per_mm), int(100 * geometry.px_per_mm)), 0, 0, 360, 255, -1, cv2.LINE_AA)
    region = canvas[y0:y1, x0:x1]
    for mask, colour in ((layer, style.sleeve), (head, HAIR_COLOURS[int(rng.integers(len(HAIR_COLOURS)))])):
        alpha = mask.astype(np.float32) / 255.0
        if not alpha.any():
            continue
        small = cv2.resize(alpha, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
        roundness = cv2.resize(cv2.GaussianBlur(small, (0, 0), 40 * geometry.px_per_mm / 8), (w, h), interpolation=cv2.INTER_LINEAR)
        shade = (0.55 + 0.5 * np.clip(roundness, 0, 1))[..., None]
        a = alpha[..., None]
        region[:] = (region.astype(np.float32) * (1 - a) + np.array(colour, np.float32) * shade * a).astype(np.uint8)
