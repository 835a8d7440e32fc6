"""Fitting the table-mm -> image-px mapping: a homography, seen through the lens.

With a lens file the marker corners are undistorted first and the homography maps table mm to
*ideal* pixels. Without one, a single radial distortion term about the image centre is estimated
from the 16 marker corners: the local shape of each 60 mm marker (radially squashed near the
frame's edges by barrel distortion) pins it down well, and it is kept only when it explains the
corners clearly better than a pure homography.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.calibration.lens import LensModel, radial_model
from referee.errors import CalibrationError

#: the radial term is searched in [-K1_LIMIT, K1_LIMIT] (half-diagonal units); -0.5 is a fisheye-like
#: barrel no table camera should have.
K1_LIMIT = 0.6
#: keep the estimated radial term only if it lowers the corner RMS residual by this factor or more.
#: Measured on rendered frames: with no distortion the term still "explains" corner-finding bias
#: (ratio 1.1-1.4); with mild distortion (k1 = -0.06) the ratio is 2.4-4.5, strong 8-19. Lower it to
#: accept weaker evidence of distortion, raise it to prefer the plain homography.
K1_MIN_IMPROVEMENT = 1.8
#: ... and by at least this many pixels (below it the residual is corner-finding noise, ~0.2 px)
K1_MIN_GAIN_PX = 0.1


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if len(points) == 0:
        return points.copy()
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)


def fit_homography(table_mm: np.ndarray, image_px: np.ndarray) -> np.ndarray:
    """Least-squares homography over all pairs (refined by OpenCV's Levenberg-Marquardt)."""
    homography, _ = cv2.findHomography(np.asarray(table_mm, np.float64), np.asarray(image_px, np.float64), 0)
    if homography is None or not np.all(np.isfinite(homography)) or abs(np.linalg.det(homography)) < 1e-12:
        raise CalibrationError("the marker corners do not form a usable view of a flat play area: check the markers lie flat in the four corners")
    return homography / homography[2, 2]


@dataclass(frozen=True)
class MappingFit:
    homography: np.ndarray  # table mm -> ideal px (image px when lens is None)
    lens: LensModel | None
    residuals_px: np.ndarray  # (N, 2) predicted - observed, in image px
    plain_homography: np.ndarray  # the fit with no lens model at all, for the distortion cost

    @property
    def rms_px(self) -> float:
        return float(np.sqrt(np.mean(np.sum(self.residuals_px**2, axis=1)))) if len(self.residuals_px) else 0.0


def _residuals(table_mm: np.ndarray, image_px: np.ndarray, lens: LensModel | None) -> tuple[np.ndarray, np.ndarray]:
    ideal = image_px if lens is None else lens.undistort_points(image_px)
    homography = fit_homography(table_mm, ideal)
    predicted = apply_homography(homography, table_mm)
    if lens is not None:
        predicted = lens.distort_points(predicted)
    return homography, predicted - image_px


def _rms(residuals: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.sum(residuals**2, axis=1))))


def estimate_radial_term(table_mm: np.ndarray, image_px: np.ndarray, image_size: tuple[int, int]) -> tuple[float, float]:
    """(k1, rms_px) minimising the corner residual over one radial term (coarse scan + golden section)."""

    def cost(k1: float) -> float:
        try:
            return _rms(_residuals(table_mm, image_px, radial_model(image_size, k1))[1])
        except CalibrationError:
            return math.inf

    grid = np.linspace(-K1_LIMIT, K1_LIMIT, 25)
    costs = [cost(k) for k in grid]
    best = int(np.argmin(costs))
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    cost_a, cost_b = cost(a), cost(b)
    for _ in range(40):
        if cost_a < cost_b:
            high, b, cost_b = b, a, cost_a
            a = high - ratio * (high - low)
            cost_a = cost(a)
        else:
            low, a, cost_a = a, b, cost_b
            b = low + ratio * (high - low)
            cost_b = cost(b)
    k1 = (low + high) / 2
    return k1, cost(k1)


def fit_mapping(table_mm: np.ndarray, image_px: np.ndarray, image_size: tuple[int, int], *, lens: LensModel | None = None, estimate_distortion: bool = True) -> MappingFit:
    """Fit table mm -> image px from point pairs (the 16 marker corners, or the 4 play-area corners)."""
    table_mm = np.asarray(table_mm, np.float64).reshape(-1, 2)
    image_px = np.asarray(image_px, np.float64).reshape(-1, 2)
    plain, plain_residuals = _residuals(table_mm, image_px, None)
    if lens is not None:
        homography, residuals = _residuals(table_mm, image_px, lens)
        return MappingFit(homography, lens, residuals, plain)
    # 4 points leave nothing over to estimate distortion from.
    if estimate_distortion and len(table_mm) > 8:
        k1, rms = estimate_radial_term(table_mm, image_px, image_size)
        plain_rms = _rms(plain_residuals)
        if rms * K1_MIN_IMPROVEMENT <= plain_rms and plain_rms - rms >= K1_MIN_GAIN_PX:
            estimated = radial_model(image_size, k1)
            homography, residuals = _residuals(table_mm, image_px, estimated)
            return MappingFit(homography, estimated, residuals, plain)
    return MappingFit(plain, None, plain_residuals, plain)


def parse_corners(text: str) -> np.ndarray:
    """--corners "x0,y0;x1,y1;x2,y2;x3,y3" -> (4, 2) array."""
    expected = 'expected --corners "x0,y0;x1,y1;x2,y2;x3,y3" (four play-area corners in pixels, order (0,0), (W,0), (W,H), (0,H))'
    parts = [part.strip() for part in str(text).strip().strip(";").split(";")]
    if len(parts) != 4:
        raise CalibrationError(f"{expected}, got {len(parts)} point(s) in {text!r}")
    points = []
    for part in parts:
        numbers = part.split(",")
        try:
            if len(numbers) != 2:
                raise ValueError
            x, y = float(numbers[0]), float(numbers[1])
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError
        except ValueError:
            raise CalibrationError(f"{expected}, got {part!r} in {text!r}") from None
        points.append((x, y))
    return np.array(points, np.float64)


def check_convex_quadrilateral(points: np.ndarray, *, what: str = "the play-area corners") -> None:
    """Four points, in order, must make a convex quadrilateral of non-zero area (either turning sense)."""
    points = np.asarray(points, np.float64).reshape(4, 2)
    edges = np.roll(points, -1, axis=0) - points
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    area = 0.5 * abs(float(np.sum(points[:, 0] * np.roll(points[:, 1], -1) - np.roll(points[:, 0], -1) * points[:, 1])))
    shown = "; ".join(f"{x:g},{y:g}" for x, y in points)
    degenerate = float(np.max(np.abs(turns))) <= 1e-9 * max(1.0, float(np.max(np.abs(edges))) ** 2)  # collinear or coincident
    if not degenerate and not (np.all(turns > 0) or np.all(turns < 0)):
        raise CalibrationError(
            f"{what} ({shown}) do not form a convex quadrilateral: give them in order (0,0), (W,0), (W,H), (0,H) "
            "going round the play area, not crossing it"
        )
    if area < 100.0:
        raise CalibrationError(f"{what} ({shown}) enclose almost no area ({area:.0f} px²): give four distinct corners of the play area")
