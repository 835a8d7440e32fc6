"""The table seen from straight above: camera frames rectified through the calibration.

A `TableView` turns a camera frame into a top-down image of the play area at `px_per_mm`
((0, 0) at the top-left pixel = table (0, 0) mm, x to the right along A's edge, y downwards towards B),
and cuts sharper crops of single places (a pile) for the recogniser without rectifying the whole frame
at high resolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import cv2
import numpy as np

from referee.errors import CalibrationError
from referee.table.layout import CARD_WIDTH_MM


class TableToImage(Protocol):
    """The one thing the table view needs from a calibration."""

    def table_to_image(self, points_mm: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class RectMM:
    """An axis-aligned rectangle in table millimetres."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if not (self.x1 > self.x0 and self.y1 > self.y0):
            raise ValueError(f"rectangle must have x1 > x0 and y1 > y0, got {self}")

    @classmethod
    def around(cls, centre: tuple[float, float], width: float, height: float) -> "RectMM":
        x, y = centre
        return cls(x - width / 2, y - height / 2, x + width / 2, y + height / 2)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def to_pixels(self, px_per_mm: float, shape: tuple[int, int]) -> tuple[slice, slice]:
        """Row and column slices of this rectangle in a view at px_per_mm, clipped to the view."""
        height, width = shape
        rows = slice(max(0, int(round(self.y0 * px_per_mm))), min(height, int(round(self.y1 * px_per_mm))))
        cols = slice(max(0, int(round(self.x0 * px_per_mm))), min(width, int(round(self.x1 * px_per_mm))))
        return rows, cols


#: Camera pixels per view pixel from which frames are pre-filtered before sampling. Measured on
#: rendered games the filter changed no ruling beyond a coin-flip pair, and it moved sharp drawn edges
#: by a few mm; so it is off (infinity) by default. Lower it (e.g. 1.3) for very noisy cameras.
ANTI_ALIAS_RATIO = float("inf")


#: A calibration that shows an edge of the play area at fewer camera pixels per mm than this (a card
#: under 13 px wide, the 800 mm play area under 160 px) is refused: nothing could be read there, and the
#: referee would rule nothing and say nothing. It is most often a calibration made for another camera or
#: setup. (The built-in demo's clip, 0.45 px per mm at its far edge, is refereed right throughout.)
MIN_CAMERA_PX_PER_MM = 0.2

#: Maps are worked out exactly every this many pixels each way and interpolated in between: the
#: camera's perspective and lens bend them smoothly (off by under 0.01 px at the referee's crops), and
#: the lens model in numpy takes some 40 ms on the 190 000 points of a pile crop, each time a place moves.
MAP_STEP = 8


def _maps_for(table_to_image, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps sampling the camera image at table points (xs[j], ys[i]), xs and ys evenly spaced."""
    coarse_x, between_x = _coarse(xs)
    coarse_y, between_y = _coarse(ys)
    grid_x, grid_y = np.meshgrid(coarse_x, coarse_y)
    points = np.stack([grid_x.ravel(), grid_y.ravel()], axis=-1)
    try:
        image = np.asarray(table_to_image(points), np.float64).reshape(len(coarse_y), len(coarse_x), 2)
    except Exception as error:  # a foreign object: its failure is converted at the boundary
        raise CalibrationError(f"calibration cannot map table points to the image: {error}") from None
    if not np.all(np.isfinite(image)):
        raise CalibrationError("calibration maps the play area to non-finite pixels; recalibrate")
    if between_y is not None:
        image = _lerp(image, *between_y, axis=0)
    if between_x is not None:
        image = _lerp(image, *between_x, axis=1)
    return cv2.convertMaps(image.astype(np.float32), None, cv2.CV_16SC2)


def _coarse(values: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """Every MAP_STEP-th of evenly spaced `values` (the last included), and for each of all of them the
    coarse sample below it and its share of the way to the next, which give them back by linear
    interpolation; (values, None) when short."""
    count = len(values)
    if count <= 2 * MAP_STEP:
        return values, None
    samples = int(np.ceil((count - 1) / MAP_STEP)) + 1
    at = np.linspace(0.0, count - 1.0, samples)
    coarse = np.interp(at, np.arange(count), values)
    position = np.arange(count) * (samples - 1) / (count - 1)
    low = np.minimum(np.floor(position).astype(int), samples - 2)
    return coarse, (low, position - low)


def _lerp(image: np.ndarray, low: np.ndarray, share: np.ndarray, *, axis: int) -> np.ndarray:
    """`image` interpolated linearly along `axis` at coarse index `low` plus `share`."""
    shape = [1] * image.ndim
    shape[axis] = len(share)
    share = share.reshape(shape)
    return np.take(image, low, axis=axis) * (1.0 - share) + np.take(image, low + 1, axis=axis) * share


class TableView:
    """Rectifies frames into the top-down view used for motion, hands and piles.

    The tracking view is indexed like the table: row = y (A's edge y = 0 is the top row), column = x.
    That is the table seen from *below* (mirrored), which does not matter for motion; crops handed
    to the recogniser are turned the right way round (`crop`: seen from above, A at the bottom, as
    `Calibration.rectify` shows it), so printed indices read as printed.
    """

    def __init__(self, calibration: TableToImage, area_mm: Sequence[float], px_per_mm: float,
                 image_size: tuple[int, int] | None = None) -> None:
        if not 0.1 <= px_per_mm <= 10:
            raise ValueError(f"px_per_mm must be between 0.1 and 10, got {px_per_mm}")
        self.calibration = calibration
        self.area_mm = (float(area_mm[0]), float(area_mm[1]))
        self.px_per_mm = float(px_per_mm)
        self.size = (int(round(self.area_mm[0] * px_per_mm)), int(round(self.area_mm[1] * px_per_mm)))
        self._check_visible(image_size)
        xs = (np.arange(self.size[0]) + 0.5) / px_per_mm
        ys = (np.arange(self.size[1]) + 0.5) / px_per_mm
        # camera pixels per view pixel; frames are first shrunk by about half that (never below the view)
        corners = self.table_to_image(np.array([[0, 0], [self.area_mm[0], 0], self.area_mm, [0, self.area_mm[1]]]))
        camera_px_per_mm = float(np.linalg.norm(corners[1] - corners[0])) / self.area_mm[0]
        ratio = camera_px_per_mm / px_per_mm
        #: Gaussian pre-filter (camera px) against aliasing: the view samples the frame sparsely, and
        #: unfiltered texture and noise would alias into "motion". Zero where the view is as fine as the frame.
        self._blur_sigma = 0.25 * ratio if ratio >= ANTI_ALIAS_RATIO else 0.0
        self._maps = _maps_for(calibration.table_to_image, xs, ys)
        self._crop_maps: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def _check_visible(self, image_size: tuple[int, int] | None) -> None:
        corners = self.table_to_image(np.array([[0, 0], [self.area_mm[0], 0], self.area_mm, [0, self.area_mm[1]]]))
        if image_size is None:
            return
        width, height = image_size
        margin = 0.25 * max(width, height)
        if np.any(corners[:, 0] < -margin) or np.any(corners[:, 0] > width + margin) or \
                np.any(corners[:, 1] < -margin) or np.any(corners[:, 1] > height + margin):
            raise CalibrationError(
                f"calibration puts the play area at {np.round(corners).astype(int).tolist()} px, far outside the "
                f"{width}x{height} video: the calibration is for another camera or setup; recalibrate on this video")
        edges_mm = np.array([self.area_mm[0], self.area_mm[1], self.area_mm[0], self.area_mm[1]])
        px_per_mm = float(np.min(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1) / edges_mm))
        if px_per_mm < MIN_CAMERA_PX_PER_MM:
            raise CalibrationError(
                f"calibration puts the play area at {np.round(corners).astype(int).tolist()} px, {px_per_mm:.2f} px per mm "
                f"at its smallest edge: a card would be about {px_per_mm * CARD_WIDTH_MM:.0f} px wide, too small to read; the "
                f"calibration is for another camera or setup, or the camera is too far: recalibrate on this video")

    def table_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        try:
            points = np.asarray(self.calibration.table_to_image(np.asarray(points_mm, np.float64).reshape(-1, 2)), np.float64)
        except Exception as error:
            raise CalibrationError(f"calibration cannot map table points to the image: {error}") from None
        return points.reshape(-1, 2)

    def view_to_image(self, points_view_px: np.ndarray) -> np.ndarray:
        """Tracking-view pixels -> camera pixels (for drawing outlines on frames)."""
        points = (np.asarray(points_view_px, np.float64).reshape(-1, 2) + 0.5) / self.px_per_mm
        return self.table_to_image(points)

    def rectify(self, image: np.ndarray) -> np.ndarray:
        if self._blur_sigma:
            image = cv2.GaussianBlur(image, (0, 0), self._blur_sigma)
        return cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    @staticmethod
    def in_crop(points_mm: np.ndarray, rect: RectMM, px_per_mm: float) -> np.ndarray:
        """Table points (mm) as pixel coordinates (x, y) of `crop(image, rect, px_per_mm)`."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        return np.stack([(points[:, 0] - rect.x0) * px_per_mm - 0.5, (rect.y1 - points[:, 1]) * px_per_mm - 0.5], axis=-1)

    @staticmethod
    def from_crop(points_px: np.ndarray, rect: RectMM, px_per_mm: float) -> np.ndarray:
        """Pixel coordinates (x, y) of `crop(image, rect, px_per_mm)` as table points (mm): `in_crop` undone."""
        points = np.asarray(points_px, np.float64).reshape(-1, 2)
        return np.stack([(points[:, 0] + 0.5) / px_per_mm + rect.x0, rect.y1 - (points[:, 1] + 0.5) / px_per_mm], axis=-1)

    def crop(self, image: np.ndarray, rect: RectMM, px_per_mm: float) -> np.ndarray:
        """A sharper cut of one table rectangle straight from the camera frame, seen from above with
        A at the bottom (row 0 = the rectangle's far edge from A)."""
        key = (rect, float(px_per_mm))
        if key not in self._crop_maps:
            columns = max(1, int(round((rect.x1 - rect.x0) * px_per_mm)))
            rows = max(1, int(round((rect.y1 - rect.y0) * px_per_mm)))
            xs = rect.x0 + (np.arange(columns) + 0.5) / px_per_mm
            ys = rect.y1 - (np.arange(rows) + 0.5) / px_per_mm
            self._crop_maps[key] = _maps_for(self.calibration.table_to_image, xs, ys)
        maps = self._crop_maps[key]
        return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
