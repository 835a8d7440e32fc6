"""Fixtures for calibration tests: rendered table frames with known truth (see synthetic.py)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.calibration.synthetic import PinholeCamera, table_texture

NO_DISTORTION = (0.0, 0.0, 0.0, 0.0, 0.0)
BARREL = (-0.2, 0.05, 0.0, 0.0, 0.0)


@functools.lru_cache(maxsize=8)
def texture(seed: int = 0, markers: tuple[int, ...] = (0, 1, 2, 3), extra_markers: tuple = ()):
    return table_texture(seed=seed, markers=markers, extra_markers=extra_markers)


@functools.lru_cache(maxsize=32)
def rendered(
    tilt_deg: float = 20.0,
    distortion: tuple[float, ...] = NO_DISTORTION,
    image_size: tuple[int, int] = (1280, 720),
    heading_deg: float = 0.0,
    seed: int = 0,
    markers: tuple[int, ...] = (0, 1, 2, 3),
    extra_markers: tuple = (),
    blur_sigma_px: float = 0.0,
    height_mm: float = 1000.0,
) -> tuple[np.ndarray, PinholeCamera]:
    camera = PinholeCamera.looking_at_table(tilt_deg=tilt_deg, distortion=distortion, image_size=image_size, heading_deg=heading_deg, height_mm=height_mm)
    frame = camera.render(texture(seed, markers, extra_markers), blur_sigma_px=blur_sigma_px, seed=seed)
    frame.setflags(write=False)
    return frame, camera


@pytest.fixture
def frame_and_camera():
    return rendered()
