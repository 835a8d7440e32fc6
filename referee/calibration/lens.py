"""The camera's lens: intrinsics and distortion (OpenCV's pinhole + radial/tangential model).

A `LensModel` comes either from a ChArUco lens calibration (`referee calibrate lens`, source
"lens-file") or is estimated from the four table markers alone (source "estimated-from-markers",
one radial term around the image centre). Points are moved between the *image* (what the camera
delivered, distorted) and the *ideal* pinhole image (same camera matrix, no distortion).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import cv2
import numpy as np
import yaml

from referee.errors import CalibrationError, InputFileError

LENS_SCHEMA_VERSION = 1
LENS_KIND = "referee-lens-calibration"
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)


@dataclass(frozen=True, kw_only=True, eq=False)
class LensModel:
    camera_matrix: np.ndarray
    distortion: np.ndarray
    image_size: tuple[int, int]
    source: str = "lens-file"
    rms_px: float | None = None
    frames_used: int | None = None

    def __post_init__(self) -> None:
        matrix = np.asarray(self.camera_matrix, dtype=np.float64)
        distortion = np.asarray(self.distortion, dtype=np.float64).ravel()
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)) or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise CalibrationError(f"lens camera_matrix must be a 3x3 matrix with positive focal lengths, got {matrix.tolist()}")
        if distortion.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(distortion)):
            raise CalibrationError(f"lens distortion must have 4, 5, 8, 12 or 14 finite numbers, got {distortion.tolist()}")
        object.__setattr__(self, "camera_matrix", matrix)
        object.__setattr__(self, "distortion", distortion)
        object.__setattr__(self, "image_size", (int(self.image_size[0]), int(self.image_size[1])))

    @property
    def has_distortion(self) -> bool:
        return bool(np.any(self.distortion != 0))

    def undistort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Image px -> ideal (undistorted) px with the same camera matrix."""
        points = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        if not self.has_distortion or len(points) == 0:
            return points.reshape(-1, 2).copy()
        ideal = cv2.undistortPoints(points, self.camera_matrix, self.distortion, P=self.camera_matrix, criteria=_UNDISTORT_CRITERIA)
        return ideal.reshape(-1, 2)

    def distort_points(self, ideal_px: np.ndarray) -> np.ndarray:
        """Ideal px -> image px (where the lens really puts them)."""
        points = np.asarray(ideal_px, np.float64).reshape(-1, 2)
        if not self.has_distortion or len(points) == 0:
            return points.copy()
        inverse = np.linalg.inv(self.camera_matrix)
        rays = np.hstack([points, np.ones((len(points), 1))]) @ inverse.T
        if self.distortion.size > 12:  # the tilted-sensor model: leave it to OpenCV (slow on big grids)
            projected, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), self.camera_matrix, self.distortion)
            return projected.reshape(-1, 2)
        # OpenCV's model written out: cv2.projectPoints also computes Jacobians and takes seconds
        # on the million points of a rectification map.
        c = np.zeros(12)
        c[: self.distortion.size] = self.distortion
        k1, k2, p1, p2, k3, k4, k5, k6, s1, s2, s3, s4 = c
        x, y = rays[:, 0] / rays[:, 2], rays[:, 1] / rays[:, 2]
        r2 = x * x + y * y
        radial = (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x) + s1 * r2 + s2 * r2 * r2
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y + s3 * r2 + s4 * r2 * r2
        k = self.camera_matrix
        return np.stack([k[0, 0] * xd + k[0, 2], k[1, 1] * yd + k[1, 2]], axis=-1)  # OpenCV ignores skew

    def for_image_size(self, image_size: tuple[int, int]) -> "LensModel":
        """The same lens at another resolution of the same sensor crop (same aspect ratio only)."""
        width, height = image_size
        if (width, height) == self.image_size:
            return self
        own_width, own_height = self.image_size
        if abs(width / height - own_width / own_height) > 0.01:
            raise CalibrationError(
                f"the lens calibration was made at {own_width}x{own_height} but the camera delivers {width}x{height} "
                "(another aspect ratio crops the sensor differently): run `referee calibrate lens` at this resolution"
            )
        scale = width / own_width
        matrix = self.camera_matrix.copy()
        matrix[:2] *= scale
        return LensModel(camera_matrix=matrix, distortion=self.distortion, image_size=(width, height), source=self.source, rms_px=self.rms_px, frames_used=self.frames_used)

    def to_dict(self) -> dict:
        return {
            "source": self.source,
            "image_size": list(self.image_size),
            "camera_matrix": [[float(v) for v in row] for row in self.camera_matrix],
            "distortion": [float(v) for v in self.distortion],
            "rms_px": None if self.rms_px is None else round(float(self.rms_px), 4),
            "frames_used": self.frames_used,
        }

    @classmethod
    def from_dict(cls, data: dict, *, where: str = "lens") -> "LensModel":
        try:
            return cls(
                camera_matrix=np.array(data["camera_matrix"], float),
                distortion=np.array(data["distortion"], float),
                image_size=tuple(data["image_size"]),
                source=str(data.get("source", "lens-file")),
                rms_px=data.get("rms_px"),
                frames_used=data.get("frames_used"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CalibrationError(f"{where}: expected camera_matrix (3x3), distortion and image_size [w, h], got {error!r}") from None

    def save(self, path: pathlib.Path | str) -> None:
        document = {"schema_version": LENS_SCHEMA_VERSION, "kind": LENS_KIND, **self.to_dict()}
        header = "# Lens calibration written by `referee calibrate lens` (OpenCV camera model).\n"
        text = header + yaml.safe_dump(document, sort_keys=False, default_flow_style=None, width=120)
        pathlib.Path(path).write_text(text, encoding="utf-8")

    @classmethod
    def load(cls, path: pathlib.Path | str) -> "LensModel":
        path = pathlib.Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputFileError(f"lens file {path} not found: make one with `referee calibrate lens`") from None
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            raise InputFileError(f"lens file {path} is not readable YAML ({type(error).__name__}): give a file written by `referee calibrate lens`") from None
        if not isinstance(data, dict) or data.get("kind") != LENS_KIND:
            raise CalibrationError(f"{path} is not a lens calibration (expected kind: {LENS_KIND}): give a file written by `referee calibrate lens`")
        if data.get("schema_version") != LENS_SCHEMA_VERSION:
            raise CalibrationError(f"{path} has lens schema_version {data.get('schema_version')!r}, this referee reads {LENS_SCHEMA_VERSION}: recalibrate the lens")
        return cls.from_dict(data, where=str(path))


def radial_model(image_size: tuple[int, int], k1: float) -> LensModel:
    """One radial term about the image centre, with the half-diagonal as the unit of radius.

    This stands in for an unknown lens: any focal length f with coefficient k maps to
    k1 = k * (half_diagonal / f)^2 in this normalisation, and the table homography absorbs the rest.
    """
    width, height = image_size
    half_diagonal = 0.5 * float(np.hypot(width, height))
    matrix = np.array([[half_diagonal, 0, width / 2], [0, half_diagonal, height / 2], [0, 0, 1]], float)
    return LensModel(camera_matrix=matrix, distortion=np.array([k1, 0, 0, 0, 0], float), image_size=image_size, source="estimated-from-markers")
