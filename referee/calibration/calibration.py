"""`Calibration`: how table millimetres map to camera pixels, saved as a versioned YAML file.

Mapping: table (x, y) mm --homography--> ideal px --lens distortion--> image px. Without a lens
model the homography maps straight to image px. `play_area_corners_px` (INTERFACE.md) is the
four play-area corners as they appear in the captured image, order (0,0), (W,0), (W,H), (0,H).

Rectified (top-down) view, `rectify(frame, px_per_mm, margin_mm=0)`: a proper, non-mirrored
view from above with **player A at the bottom** and x to the right, so everything A puts down
facing A (cards, the printed markers) appears upright, as a camera or person above would see it:

    rectified pixel (u, v) = ((x + margin) * px_per_mm - 0.5, (H + margin - y) * px_per_mm - 0.5)

(pixel centres at integers). The top-left pixel is table (-margin, H + margin), B's far-left
corner as A sees it; the bottom-left is table (-margin, -margin), A's left corner. Use
`table_to_rectified` / `rectified_to_table` rather than re-deriving this. (A plain u = x, v = y
mapping would show the table mirrored, cards' indices included.)
"""

from __future__ import annotations

import datetime
import pathlib
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import yaml

from referee.calibration.fit import apply_homography, check_convex_quadrilateral, fit_homography
from referee.calibration.lens import LensModel
from referee.calibration.markers import DICTIONARY_NAME
from referee.calibration.zones import Zones
from referee.errors import CalibrationError, InputFileError
from referee.table.layout import MARKER_SIDE_MM, TableLayout

SCHEMA_VERSION = 1
KIND = "referee-table-calibration"
#: stored corners may differ from the stored homography by this much (px) before a file is refused
CONSISTENCY_TOLERANCE_PX = 1.0


@dataclass(frozen=True, kw_only=True, eq=False)
class Calibration:
    homography: np.ndarray  # table mm -> ideal px (image px when lens is None)
    area_mm: tuple[float, float] = (800.0, 600.0)
    image_size: tuple[int, int]  # (width, height) px
    fps: float | None = None
    lens: LensModel | None = None
    method: str = "markers"  # "markers" | "corners"
    marker_corners_px: dict[int, np.ndarray] = field(default_factory=dict)
    quality: dict | None = None  # QualityReport.to_dict()
    source: dict = field(default_factory=dict)
    created: str = ""
    _maps: dict = field(default_factory=dict, init=False, compare=False, repr=False)  # rectify's pixel maps

    def __post_init__(self) -> None:
        homography = np.asarray(self.homography, np.float64)
        if homography.shape != (3, 3) or not np.all(np.isfinite(homography)) or abs(np.linalg.det(homography)) < 1e-12:
            raise CalibrationError(f"a calibration homography must be an invertible 3x3 matrix, got {homography.tolist()}")
        width, height = (float(v) for v in self.area_mm)
        if not (width > 0 and height > 0):
            raise CalibrationError(f"the play area must be positive, got {width:g} x {height:g} mm: give --area like 800x600")
        image_width, image_height = (int(v) for v in self.image_size)
        if image_width <= 0 or image_height <= 0:
            raise CalibrationError(f"image size must be positive, got {image_width}x{image_height}")
        object.__setattr__(self, "homography", homography / homography[2, 2])
        object.__setattr__(self, "area_mm", (width, height))
        object.__setattr__(self, "image_size", (image_width, image_height))
        object.__setattr__(self, "marker_corners_px", {int(k): np.asarray(v, np.float64).reshape(4, 2) for k, v in self.marker_corners_px.items()})
        if not self.created:
            object.__setattr__(self, "created", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))

    # ----- geometry -------------------------------------------------------------------------
    @property
    def layout(self) -> TableLayout:
        return TableLayout(width=self.area_mm[0], height=self.area_mm[1])

    @property
    def zones(self) -> Zones:
        return Zones.from_layout(self.layout)

    @property
    def play_area_corners_px(self) -> np.ndarray:
        return self.table_to_image(np.array(self.layout.corners()))

    def table_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) or (2,) -> image px (N, 2), where the camera shows them."""
        ideal = apply_homography(self.homography, points_mm)
        return ideal if self.lens is None else self.lens.distort_points(ideal)

    def image_to_table(self, points_px: np.ndarray) -> np.ndarray:
        """Image px (N, 2) or (2,) -> table mm (N, 2) on the table plane."""
        points = np.asarray(points_px, np.float64).reshape(-1, 2)
        ideal = points if self.lens is None else self.lens.undistort_points(points)
        return apply_homography(np.linalg.inv(self.homography), ideal)

    def table_to_rectified(self, points_mm: np.ndarray, px_per_mm: float, margin_mm: float = 0.0) -> np.ndarray:
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        u = (points[:, 0] + margin_mm) * px_per_mm - 0.5
        v = (self.area_mm[1] + margin_mm - points[:, 1]) * px_per_mm - 0.5
        return np.stack([u, v], axis=-1)

    def rectified_to_table(self, points_px: np.ndarray, px_per_mm: float, margin_mm: float = 0.0) -> np.ndarray:
        points = np.asarray(points_px, np.float64).reshape(-1, 2)
        x = (points[:, 0] + 0.5) / px_per_mm - margin_mm
        y = self.area_mm[1] + margin_mm - (points[:, 1] + 0.5) / px_per_mm
        return np.stack([x, y], axis=-1)

    def rectified_size(self, px_per_mm: float, margin_mm: float = 0.0) -> tuple[int, int]:
        width, height = self.area_mm
        return int(round((width + 2 * margin_mm) * px_per_mm)), int(round((height + 2 * margin_mm) * px_per_mm))

    def check_frame(self, frame: np.ndarray) -> None:
        if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3):
            raise CalibrationError(f"expected an image array, got {type(frame).__name__}")
        height, width = frame.shape[:2]
        if (width, height) != self.image_size:
            raise CalibrationError(
                f"frame is {width}x{height} but the calibration was made at {self.image_size[0]}x{self.image_size[1]}: "
                "set the camera to that resolution or recalibrate"
            )

    def rectify(self, frame: np.ndarray, px_per_mm: float = 2.0, *, margin_mm: float = 0.0) -> np.ndarray:
        """Top-down view of the play area (A at the bottom, see the module docstring), lens undistorted.

        The pixel maps are computed once per (px_per_mm, margin) and cached, so calling this on
        every frame costs one cv2.remap."""
        if not px_per_mm > 0:
            raise CalibrationError(f"px_per_mm must be positive, got {px_per_mm}")
        self.check_frame(frame)
        key = (float(px_per_mm), float(margin_mm))
        if key not in self._maps:
            columns, rows = self.rectified_size(px_per_mm, margin_mm)
            u, v = np.meshgrid(np.arange(columns, dtype=np.float64), np.arange(rows, dtype=np.float64))
            table = self.rectified_to_table(np.stack([u.ravel(), v.ravel()], -1), px_per_mm, margin_mm)
            image = self.table_to_image(table).astype(np.float32).reshape(rows, columns, 2)
            self._maps[key] = cv2.convertMaps(image, None, cv2.CV_16SC2)
        map1, map2 = self._maps[key]
        return cv2.remap(frame, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """The whole frame with lens distortion removed (a copy when no lens model is known)."""
        self.check_frame(frame)
        if self.lens is None or not self.lens.has_distortion:
            return frame.copy()
        return cv2.undistort(frame, self.lens.camera_matrix, self.lens.distortion)

    # ----- construction ---------------------------------------------------------------------
    @classmethod
    def from_corners(cls, corners_px: np.ndarray, *, area: tuple[float, float] = (800.0, 600.0), image_size: tuple[int, int], fps: float | None = None, lens: LensModel | None = None, **extra: Any) -> "Calibration":
        """From the four play-area corners as seen in the image ((0,0), (W,0), (W,H), (0,H)), e.g.
        a synthetic clip's corners.json."""
        corners = np.asarray(corners_px, np.float64)
        if corners.shape != (4, 2):
            raise CalibrationError(f"expected 4 play-area corners [[x, y] x 4], got shape {corners.shape}")
        check_convex_quadrilateral(corners)
        layout = TableLayout(width=float(area[0]), height=float(area[1])) if area[0] > 0 and area[1] > 0 else None
        if layout is None:
            raise CalibrationError(f"the play area must be positive, got {area[0]:g} x {area[1]:g} mm: give --area like 800x600")
        ideal = corners if lens is None else lens.undistort_points(corners)
        homography = fit_homography(np.array(layout.corners()), ideal)
        extra.setdefault("method", "corners")
        return cls(homography=homography, area_mm=(layout.width, layout.height), image_size=image_size, fps=fps, lens=lens, **extra)

    # ----- file -----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        corners = self.play_area_corners_px
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": KIND,
            "created": self.created,
            "play_area_corners_px": [[round(float(x), 3), round(float(y), 3)] for x, y in corners],
            "play_area": {"width_mm": self.area_mm[0], "height_mm": self.area_mm[1]},
            "camera": {"image_size": list(self.image_size), "fps": None if self.fps is None else round(float(self.fps), 3)},
            "homography_table_mm_to_image_px": [[float(v) for v in row] for row in self.homography],
            "homography_maps_to": "image_px" if self.lens is None else "ideal_px",
            "lens": None if self.lens is None else self.lens.to_dict(),
            "method": self.method,
            "source": dict(self.source),
            "markers": {
                "dictionary": DICTIONARY_NAME,
                "side_mm": MARKER_SIDE_MM,
                "ids_seen": sorted(self.marker_corners_px),
                "corners_px": {k: [[round(float(x), 3), round(float(y), 3)] for x, y in v] for k, v in sorted(self.marker_corners_px.items())},
            },
            "zones": self.zones.to_dict(),
            "rectified_view": "player A at the bottom: pixel (u, v) = ((x + margin) * px_per_mm - 0.5, (H + margin - y) * px_per_mm - 0.5)",
            "quality": self.quality,
        }

    def save(self, path: pathlib.Path | str) -> None:
        header = (
            "# Spit referee table calibration, written by `referee calibrate`.\n"
            "# Table frame in mm: player A along y = 0, B along y = H, x from A's left (INTERFACE.md).\n"
            "# play_area_corners_px: the play-area corners (0,0), (W,0), (W,H), (0,H) in pixels of the captured image.\n"
        )
        text = header + yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=None, width=140, allow_unicode=True)
        path = pathlib.Path(path)
        temporary = path.with_name(path.name + ".partial")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "calibration") -> "Calibration":
        if not isinstance(data, dict):
            raise CalibrationError(f"{where} is not a calibration (expected a YAML mapping, got {type(data).__name__}): give a file written by `referee calibrate`")
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise CalibrationError(f"{where} has schema_version {version!r}, this referee reads {SCHEMA_VERSION}: recalibrate with `referee calibrate`")
        try:
            corners = np.array(data["play_area_corners_px"], np.float64)
            area = (float(data["play_area"]["width_mm"]), float(data["play_area"]["height_mm"]))
            image_size = tuple(int(v) for v in data["camera"]["image_size"])
            fps = data["camera"].get("fps")
            fps = None if fps is None else float(fps)
        except (KeyError, TypeError, ValueError) as error:
            raise CalibrationError(f"{where} lacks or garbles {error}: expected play_area_corners_px, play_area.width_mm/height_mm and camera.image_size") from None
        if corners.shape != (4, 2) or len(image_size) != 2:
            raise CalibrationError(f"{where}: play_area_corners_px must be 4 [x, y] pairs and camera.image_size [w, h], got {corners.tolist()} and {list(image_size)}")
        lens = LensModel.from_dict(data["lens"], where=f"{where} lens") if data.get("lens") else None
        markers = (data.get("markers") or {}).get("corners_px") or {}
        extra = dict(
            method=str(data.get("method", "markers" if data.get("homography_table_mm_to_image_px") is not None else "corners")),
            marker_corners_px={int(k): np.array(v, np.float64) for k, v in markers.items()},
            quality=data.get("quality"),
            source=data.get("source") or {},
            created=str(data.get("created", "")),
        )
        if data.get("homography_table_mm_to_image_px") is None:
            calibration = cls.from_corners(corners, area=area, image_size=image_size, fps=fps, lens=lens, **extra)
            return calibration
        calibration = cls(homography=np.array(data["homography_table_mm_to_image_px"], np.float64), area_mm=area, image_size=image_size, fps=fps, lens=lens, **extra)
        disagreement = float(np.max(np.linalg.norm(calibration.play_area_corners_px - corners, axis=1)))
        if disagreement > CONSISTENCY_TOLERANCE_PX:
            raise CalibrationError(
                f"{where}: play_area_corners_px disagree with homography_table_mm_to_image_px by {disagreement:.1f} px "
                "(edited by hand?): delete the homography key to use the corners, or recalibrate"
            )
        return calibration

    @classmethod
    def load(cls, path: pathlib.Path | str) -> "Calibration":
        path = pathlib.Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputFileError(f"calibration file {path} not found: make one with `referee calibrate --image FRAME --out {path.name}`") from None
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            raise InputFileError(f"calibration file {path} is not readable YAML ({type(error).__name__}): give a file written by `referee calibrate`") from None
        return cls.from_dict(data, where=str(path))
