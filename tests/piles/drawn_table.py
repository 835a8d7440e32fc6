"""A plainly drawn table for the tracker's own tests: white cards with a centre whose colour encodes the card,
skin-coloured hands with arms reaching in from a player's edge, a plain camera straight above.

Cards are named by `ColourNamer`, a fake recogniser plugged in through the same Protocol as the real
one. Everything moves on exact, known timelines, so touch times are known to the microsecond.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.rules.cards import RANKS, SUITS, Card
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, TableLayout

SCALE = 1.0          # camera px per mm
OFFSET = (60.0, 50.0)
IMAGE_SIZE = (920, 700)
TABLE_BGR = (60, 110, 40)
SKIN_BGR = (120, 160, 215)


class PlainCalibration:
    """A camera straight above the table: image px = OFFSET + SCALE * table mm."""

    area_mm = (800.0, 600.0)
    image_size = IMAGE_SIZE

    def table_to_image(self, points_mm):
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        return points * SCALE + np.array(OFFSET)

    def image_to_table(self, points_px):
        points = np.asarray(points_px, np.float64).reshape(-1, 2)
        return (points - np.array(OFFSET)) / SCALE


def card_colour(card: Card) -> tuple[int, int, int]:
    return (30 + 16 * RANKS.index(card.rank), 40 + 50 * SUITS.index(card.suit), 235)


class ColourNamer:
    """Names the top card of a pile crop from the commonest card colour in it."""

    def __init__(self) -> None:
        self.calls = 0

    def name_top_card(self, image: np.ndarray):
        self.calls += 1
        pixels = image.reshape(-1, 3).astype(np.int32)
        cardish = pixels[(np.abs(pixels[:, 2] - 235) < 14) & (pixels[:, 1] < 205)]  # the coloured centre, not the white
        if len(cardish) < 0.03 * len(pixels):
            return None, 0.0
        rank = np.clip(np.round((cardish[:, 0] - 30) / 16), 0, 12).astype(int)
        suit = np.clip(np.round((cardish[:, 1] - 40) / 50), 0, 3).astype(int)
        codes = rank * 4 + suit
        best = int(np.bincount(codes, minlength=52).argmax())
        return Card(RANKS[best // 4], SUITS[best % 4]), 0.95


@dataclass
class Move:
    """A card carried by `player` from `start` to `final`, first overlapping the pile's top at `t_touch`."""

    player: str
    card: Card
    start: tuple[float, float]
    final: tuple[float, float]
    t_grab: float
    t_touch: float
    t_release: float
    t_end: float
    contact: tuple[float, float] = (0.0, 0.0)
    face_down: bool = False
    slap: bool = False


@dataclass
class DrawnTable:
    layout: TableLayout = field(default_factory=TableLayout)
    #: cards lying still: [card (None = a back), centre, shown from t, shown until t]
    lying: list[list] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    light: float = 1.0
    table: tuple[int, int, int] = TABLE_BGR

    def lay(self, card: Card | None, centre: tuple[float, float], t_from: float = 0.0, t_until: float = math.inf) -> None:
        self.lying.append([card, centre, t_from, t_until])

    def play(self, player: str, card: Card, start: tuple[float, float], pile_top: tuple[float, float], *,
             t_touch: float, duration: float = 0.5, settle: float = 0.1, back: float = 0.35, slap: bool = False) -> Move:
        """A card from `start` slid straight onto a pile whose top card lies at `pile_top`."""
        final = (pile_top[0] + 3, pile_top[1] + (-4 if player == "A" else 4))
        direction = np.subtract(start, final)
        direction /= np.linalg.norm(direction)
        # the outlines first meet where, going back from `final` towards `start`, the rectangles part
        offsets = (final[0] - pile_top[0], final[1] - pile_top[1])
        partings = []
        for offset, step, size in zip(offsets, direction, (CARD_WIDTH_MM, CARD_HEIGHT_MM)):
            if abs(step) > 1e-9:
                partings.append((size - offset) / step if step > 0 else (size + offset) / -step)
        back_off = min(partings)
        contact = (final[0] + direction[0] * back_off, final[1] + direction[1] * back_off)
        for lying in self.lying:
            if lying[0] == card and lying[3] == math.inf:
                lying[3] = t_touch - duration  # picked up from where it lay
        move = Move(player, card, start, final, t_touch - duration, t_touch, t_touch + settle, t_touch + settle + back,
                    contact, slap=slap)
        self.moves.append(move)
        return move

    def _card_at(self, move: Move, t: float) -> tuple[float, float]:
        if t < move.t_touch:
            s = (t - move.t_grab) / (move.t_touch - move.t_grab)
            return (move.start[0] + (move.contact[0] - move.start[0]) * s, move.start[1] + (move.contact[1] - move.start[1]) * s)
        s = min(1.0, (t - move.t_touch) / (move.t_release - move.t_touch))
        return (move.contact[0] + (move.final[0] - move.contact[0]) * s, move.contact[1] + (move.final[1] - move.contact[1]) * s)

    def frame(self, t: float, rng: np.random.Generator | None = None) -> np.ndarray:
        width, height = IMAGE_SIZE
        image = np.zeros((height, width, 3), np.uint8)
        image[:] = (40, 40, 40)
        cv2.rectangle(image, _px((0, 0)), _px((800, 600)), self.table, -1)
        for card, centre, t_from, t_until in self.lying:
            if t_from <= t < t_until:
                _draw_card(image, card, centre)
        for move in self.moves:  # cards already put down lie under anything still moving
            if t >= move.t_release and not move.slap:
                _draw_card(image, move.card, move.final)
        hands = []
        for move in self.moves:
            if not move.t_grab <= t < move.t_end:
                continue
            edge_y = -60 if move.player == "A" else 660
            toward = -30 if move.player == "A" else 30
            if move.slap:
                position = self._card_at(move, min(t, move.t_release))
                if t >= move.t_release:
                    s = (t - move.t_release) / (move.t_end - move.t_release)
                    position = (position[0], position[1] + (edge_y - position[1]) * s)
                hands.append((move.player, position))
            elif t < move.t_release:
                position = self._card_at(move, t)
                _draw_card(image, move.card, position)
                hands.append((move.player, (position[0], position[1] + toward)))
            else:
                s = (t - move.t_release) / (move.t_end - move.t_release)
                hold = (move.final[0], move.final[1] + toward)
                hands.append((move.player, (hold[0], hold[1] + (edge_y - hold[1]) * s)))
        for player, position in hands:
            _draw_hand(image, player, position)
        if self.light != 1.0:
            image = cv2.convertScaleAbs(image, alpha=self.light)
        if rng is not None:  # sensor noise: one stored pattern, shifted at random each frame (cheap)
            noise = _noise(image.shape)
            shift = int(rng.integers(0, image.shape[0]))
            image = cv2.add(image, np.roll(noise, shift, axis=0), dtype=cv2.CV_8U)
            image = cv2.subtract(image, np.roll(noise, shift // 2 + 7, axis=1), dtype=cv2.CV_8U)
        return image


_NOISE: dict = {}


def _noise(shape) -> np.ndarray:
    if shape not in _NOISE:
        _NOISE[shape] = np.random.default_rng(7).integers(0, 4, shape, dtype=np.uint8)
    return _NOISE[shape]


def _px(point: tuple[float, float]) -> tuple[int, int]:
    return int(round(OFFSET[0] + SCALE * point[0])), int(round(OFFSET[1] + SCALE * point[1]))


def _draw_card(image: np.ndarray, card: Card | None, centre: tuple[float, float]) -> None:
    x, y = centre
    top_left = _px((x - CARD_WIDTH_MM / 2, y - CARD_HEIGHT_MM / 2))
    bottom_right = _px((x + CARD_WIDTH_MM / 2, y + CARD_HEIGHT_MM / 2))
    if card is None:
        cv2.rectangle(image, top_left, bottom_right, (140, 30, 30), -1)
        cv2.rectangle(image, top_left, bottom_right, (250, 250, 250), 2)
        return
    cv2.rectangle(image, top_left, bottom_right, (238, 238, 238), -1)  # a white face, as cards have
    inset = int(round(12 * SCALE))
    cv2.rectangle(image, (top_left[0] + inset, top_left[1] + inset), (bottom_right[0] - inset, bottom_right[1] - inset),
                  card_colour(card), -1)


def _draw_hand(image: np.ndarray, player: str, position: tuple[float, float]) -> None:
    x, y = position
    edge = -80.0 if player == "A" else 680.0
    hand_edge = y - 35 if player == "A" else y + 35
    cv2.rectangle(image, _px((x - 22, min(edge, hand_edge))), _px((x + 22, max(edge, hand_edge))), SKIN_BGR, -1)
    cv2.ellipse(image, _px((x, y)), (int(32 * SCALE), int(40 * SCALE)), 0, 0, 360, SKIN_BGR, -1)


def write_video(table: DrawnTable, path, *, fps: float, seconds: float, seed: int = 0, fourcc: str = "mp4v",
                light=None) -> int:
    """`light`: the room's brightness at time t (a gain, 1 = as drawn), or None for steady light."""
    rng = np.random.default_rng(seed)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, IMAGE_SIZE)
    count = int(round(seconds * fps))
    for index in range(count):
        image = table.frame(index / fps, rng)
        if light is not None:
            image = cv2.convertScaleAbs(image, alpha=float(light(index / fps)))
        writer.write(image)
    writer.release()
    return count
