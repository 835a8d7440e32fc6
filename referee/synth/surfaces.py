"""Procedural table tops: wood, felt, cloth, laminate and stone, light and dark.

Each is built from a few octaves of smooth noise at low resolution, scaled up, so a full table texture
costs a few milliseconds. Deterministic for a given generator state.
"""

from __future__ import annotations

import cv2
import numpy as np

SURFACE_KINDS: tuple[str, ...] = ("wood", "felt", "cloth", "laminate", "stone")


def _smooth_noise(rng: np.random.Generator, width: int, height: int, cell: float) -> np.ndarray:
    """Noise with features about `cell` px across, roughly N(0, 1), float32 (height, width)."""
    small_w, small_h = max(2, int(width / cell) + 2), max(2, int(height / cell) + 2)
    small = rng.normal(0, 1, (small_h, small_w)).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, width: int, height: int, cell: float, octaves: int = 4) -> np.ndarray:
    total = np.zeros((height, width), np.float32)
    amplitude = 1.0
    for _ in range(octaves):
        total += amplitude * _smooth_noise(rng, width, height, max(1.5, cell))
        cell /= 2
        amplitude /= 2
    return total / 1.6


def _wood(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    dark = rng.random() < 0.45
    base = np.array([35, 60, 95] if dark else [90, 150, 200], np.float32) * rng.uniform(0.8, 1.15) * rng.uniform(0.94, 1.06, 3)
    angle = rng.uniform(0, np.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = xs * np.cos(angle) + ys * np.sin(angle)
    across = -xs * np.sin(angle) + ys * np.cos(angle)
    warp = _fractal(rng, width, height, max(width, height) / 3, 3) * rng.uniform(8, 25)
    period = rng.uniform(6, 18)
    rings = np.sin((across + warp) / period * 2 * np.pi + _fractal(rng, width, height, 40, 2))
    grain = _smooth_noise(rng, width, height, 2.0) * 0.3
    # long streaks along the grain: noise stretched along `along`
    streak = np.sin(across / rng.uniform(1.5, 3.0) + warp * 0.3) * 0.15
    plank = max(60, int(rng.uniform(0.12, 0.3) * max(width, height)))
    seams = (np.abs(((across + 10000) % plank) - plank / 2) > plank / 2 - 1.2).astype(np.float32)
    shade = 1 + 0.09 * rings + 0.05 * grain + streak * 0.4 - 0.25 * seams
    plank_tone = ((across + 10000) // plank).astype(np.int64) % 7
    shade *= 1 + (plank_tone.astype(np.float32) - 3) * 0.025
    del along
    return base[None, None, :] * shade[..., None]


def _felt(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    palettes = [[40, 95, 30], [95, 60, 25], [30, 30, 120], [60, 60, 60], [25, 45, 25], [110, 90, 70]]
    base = np.array(palettes[rng.integers(len(palettes))], np.float32) * rng.uniform(0.8, 1.25)
    fibres = rng.normal(0, 1, (height, width)).astype(np.float32)
    fibres = cv2.GaussianBlur(fibres, (0, 0), 0.7)
    blotch = _fractal(rng, width, height, 80, 3)
    shade = 1 + 0.07 * fibres + 0.05 * blotch
    return base[None, None, :] * shade[..., None]


def _cloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    grey = rng.uniform(60, 210)
    colour_a = (grey + (rng.uniform(40, 230, 3) - grey) * rng.uniform(0.2, 0.6)).astype(np.float32)  # muted, as dyed cloth
    colour_b = colour_a * rng.uniform(0.55, 0.9)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    thread = rng.uniform(1.6, 3.0)
    weave = (np.sin(xs * np.pi / thread) * np.sin(ys * np.pi / thread)) * 0.06
    image = np.broadcast_to(colour_a, (height, width, 3)).copy()
    if rng.random() < 0.5:  # a check or stripe pattern, as on a tablecloth
        band = rng.uniform(15, 45)
        stripes_x = (np.floor(xs / band) % 2).astype(np.float32)
        stripes_y = (np.floor(ys / band) % 2).astype(np.float32) if rng.random() < 0.7 else 0
        mix = np.clip(stripes_x + stripes_y, 0, 1) * 0.5 + (stripes_x * stripes_y if isinstance(stripes_y, np.ndarray) else 0) * 0.5
        image = image * (1 - mix[..., None]) + colour_b * mix[..., None]
    wrinkles = _fractal(rng, width, height, 120, 3) * 0.05
    return image * (1 + weave + wrinkles)[..., None]


def _laminate(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    tones = [[235, 235, 235], [200, 210, 215], [150, 160, 165], [70, 70, 72], [180, 200, 215], [40, 40, 45]]
    base = np.array(tones[rng.integers(len(tones))], np.float32) * rng.uniform(0.92, 1.05)
    speckle = (rng.random((height, width)) < 0.01).astype(np.float32) * rng.uniform(-0.15, 0.15)
    cloud = _fractal(rng, width, height, 150, 3) * 0.03
    return base[None, None, :] * (1 + cloud + speckle)[..., None]


def _stone(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = np.array([rng.uniform(120, 220)] * 3, np.float32) * rng.uniform(0.9, 1.05, 3)
    veins = np.abs(np.sin(_fractal(rng, width, height, 200, 4) * rng.uniform(3, 6)))
    shade = 1 - 0.25 * (veins < 0.08) * (1 - veins / 0.08) + 0.05 * _fractal(rng, width, height, 30, 3)
    return base[None, None, :] * shade[..., None]


_MAKERS = {"wood": _wood, "felt": _felt, "cloth": _cloth, "laminate": _laminate, "stone": _stone}


def table_surface(rng: np.random.Generator, width_px: int, height_px: int, kind: str | None = None) -> np.ndarray:
    """A table top texture (BGR uint8, height_px x width_px). `kind` is one of SURFACE_KINDS, or None to
    draw one at random (wood and felt the most common, as on real card tables)."""
    if kind is None:
        kind = SURFACE_KINDS[int(rng.choice(len(SURFACE_KINDS), p=[0.35, 0.2, 0.15, 0.2, 0.1]))]
    if kind not in _MAKERS:
        raise ValueError(f"unknown surface {kind!r}: expected one of {', '.join(SURFACE_KINDS)}")
    image = _MAKERS[kind](rng, int(width_px), int(height_px))
    return np.clip(image, 0, 255).astype(np.uint8)
