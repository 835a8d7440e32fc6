"""What a real camera adds on top of the scene: uneven light, exposure drift, white balance, vignetting,
soft lens, sensor noise, and motion blur of fast things. Deterministic per seed and frame index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class CameraLook:
    """The per-video settings of the image-space effects, drawn once from the video's generator."""

    gain: np.ndarray          # (h, w, 3) float32: light gradient x vignetting x white balance
    glare: np.ndarray | None  # (h, w, 1) float32: a soft specular patch (added, 0..~60), or none
    exposure_phase: float
    exposure_period: float
    exposure_depth: float
    exposure_steps: np.ndarray  # (n, 2): times and gains of auto-exposure corrections
    noise_sigma: float
    noise_bank: np.ndarray    # (k, h + 16, w + 16, 3) float32
    softness: float           # Gaussian sigma of the lens blur, px

    def exposure(self, t: float) -> float:
        value = 1.0 + self.exposure_depth * math.sin(2 * math.pi * t / self.exposure_period + self.exposure_phase)
        for time, gain in self.exposure_steps:
            value *= 1.0 + (gain - 1.0) * min(1.0, max(0.0, (t - time) / 0.4))
        return value


def make_look(rng: np.random.Generator, width: int, height: int, *, noise_frames: int = 4) -> CameraLook:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    nx, ny = (xs - width / 2) / (width / 2), (ys - height / 2) / (height / 2)
    angle = rng.uniform(0, 2 * math.pi)
    gradient = 1.0 + rng.uniform(0.05, 0.25) * (nx * math.cos(angle) + ny * math.sin(angle)) / 1.4
    vignette = 1.0 - rng.uniform(0.08, 0.3) * (nx ** 2 + ny ** 2) / 2
    # a lamp: a broad bright region somewhere
    lx, ly = rng.uniform(-1, 1), rng.uniform(-1, 1)
    lamp = 1.0 + rng.uniform(0.0, 0.2) * np.exp(-((nx - lx) ** 2 + (ny - ly) ** 2) / rng.uniform(0.3, 1.0))
    brightness = rng.uniform(0.75, 1.1)
    white_balance = np.array([rng.uniform(0.85, 1.05), 1.0, rng.uniform(0.95, 1.15)], np.float32)  # B, G, R
    gain = (gradient * vignette * lamp * brightness).astype(np.float32)[..., None] * white_balance[None, None, :]
    glare = None
    if rng.random() < 0.5:
        glare = np.zeros((height, width, 1), np.float32)
        gx, gy = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7)
        glare[..., 0] = rng.uniform(15, 60) * np.exp(-((nx - gx) ** 2 + (ny - gy) ** 2) / rng.uniform(0.005, 0.04))
    steps = []
    for _ in range(int(rng.integers(0, 4))):
        steps.append((rng.uniform(0, 60), rng.uniform(0.93, 1.07)))
    sigma = float(rng.uniform(1.5, 5.0))
    bank = np.clip(rng.normal(0, sigma, (noise_frames, height + 16, width + 16, 3)), -30, 30).astype(np.float32)
    return CameraLook(gain, glare, float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(3, 9)), float(rng.uniform(0.0, 0.04)),
                      np.array(steps, np.float64).reshape(-1, 2), sigma, bank, float(rng.uniform(0.3, 0.8)))


def apply_look(image: np.ndarray, look: CameraLook, t: float, frame_index: int) -> np.ndarray:
    """The camera's view of `image` (BGR uint8) at time t."""
    if look.softness > 0.45:
        image = cv2.GaussianBlur(image, (0, 0), look.softness)
    frame = cv2.multiply(image.astype(np.float32), look.gain, scale=float(look.exposure(t)))
    if look.glare is not None:
        frame += look.glare
    noise = look.noise_bank[frame_index % len(look.noise_bank)]
    # a different window of the noise each frame, so the pattern never repeats visibly
    dx, dy = (frame_index * 5) % 16, (frame_index * 11) % 16
    height, width = frame.shape[:2]
    frame += noise[dy: dy + height, dx: dx + width]
    return cv2.convertScaleAbs(frame)


def motion_blur(colour: np.ndarray, alpha: np.ndarray, velocity_px: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Smears a patch (colour float32 (h,w,3), alpha float32 (h,w)) along the displacement it makes
    during the exposure (px). Small displacements are left sharp."""
    dx, dy = velocity_px
    length = math.hypot(dx, dy)
    if length < 1.5:
        return colour, alpha
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    cv2.line(kernel, (int(round(centre - dx / 2)), int(round(centre - dy / 2))), (int(round(centre + dx / 2)), int(round(centre + dy / 2))), 1.0, 1, cv2.LINE_AA)
    kernel /= kernel.sum()
    premultiplied = colour * alpha[..., None]
    premultiplied = cv2.filter2D(premultiplied, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    blurred_alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    colour = premultiplied / np.maximum(blurred_alpha[..., None], 1e-4)
    return colour, blurred_alpha
