"""A pinhole camera over the table, with mild radial distortion: table-frame millimetres (z = 0) to pixels.

The pose is what a phone on a stand or a webcam on an arm gives: 0.7-1.3 m above the table, the optical
axis tilted 0-35 degrees from straight down, any heading (which way round the table appears in the image),
a slight roll. The focal length is chosen so that the whole play area is in view with a margin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.table.layout import TableLayout

SIZES: dict[str, tuple[int, int]] = {"720p": (1280, 720), "1080p": (1920, 1080), "480p": (854, 480), "360p": (640, 360)}


def image_size(size: str) -> tuple[int, int]:
    """(width, height) for a size name: 720p, 1080p (and 480p, 360p for quick tests)."""
    if size not in SIZES:
        raise ValueError(f"unknown video size {size!r}: expected one of {', '.join(SIZES)}")
    return SIZES[size]


@dataclass(frozen=True, kw_only=True)
class CameraPose:
    """Where the camera is and how it looks. Lengths in mm, angles in degrees."""

    height: float = 1000.0     # lens above the table
    tilt: float = 0.0          # optical axis from straight down
    heading: float = 0.0       # 0: player A at the bottom of the image, B at the top; 90: A on the left...
    roll: float = 0.0          # a slight twist of the camera about its axis
    target: tuple[float, float] = (400.0, 300.0)  # table point on the optical axis
    k1: float = 0.0            # radial distortion (OpenCV model), mild: |k1| < 0.1
    k2: float = 0.0

    def __post_init__(self) -> None:
        if not 300 <= self.height <= 3000:
            raise ValueError(f"camera height must be 300-3000 mm, got {self.height}")
        if not 0 <= self.tilt < 80:
            raise ValueError(f"camera tilt must be 0-80 degrees, got {self.tilt}")


@dataclass(frozen=True)
class Camera:
    pose: CameraPose
    width: int
    height: int
    focal: float
    rvec: np.ndarray = field(repr=False)
    tvec: np.ndarray = field(repr=False)

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.focal, 0, self.width / 2], [0, self.focal, self.height / 2], [0, 0, 1]], np.float64)

    @property
    def distortion(self) -> np.ndarray:
        return np.array([self.pose.k1, self.pose.k2, 0.0, 0.0, 0.0], np.float64)

    @property
    def position(self) -> np.ndarray:
        """The lens centre in the table frame (mm, z up)."""
        rotation, _ = cv2.Rodrigues(self.rvec)
        return (-rotation.T @ self.tvec).ravel()

    def project(self, points_mm: np.ndarray, z_mm: np.ndarray | float = 0.0) -> np.ndarray:
        """Table points (N, 2) mm, at height z above the table, to image pixels (N, 2) float64."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        z = np.broadcast_to(np.asarray(z_mm, np.float64), (len(points),))
        world = np.column_stack([points, z])
        pixels, _ = cv2.projectPoints(world, self.rvec, self.tvec, self.matrix, self.distortion)
        return pixels.reshape(-1, 2)

    def unproject(self, pixels: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) to the table points (N, 2) mm they see (on z = 0)."""
        pixels = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        normalised = cv2.undistortPoints(pixels, self.matrix, self.distortion, criteria=
                                         (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9)).reshape(-1, 2)
        rotation, _ = cv2.Rodrigues(self.rvec)
        rays = np.column_stack([normalised, np.ones(len(normalised))]) @ rotation  # camera rays in the table frame
        origin = self.position
        scale = -origin[2] / rays[:, 2]
        return origin[None, :2] + rays[:, :2] * scale[:, None]

    def table_maps(self, origin_mm: tuple[float, float], px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps that turn a top-down table image (pixel (0,0) at table `origin_mm`, `px_per_mm`,
        x right along table x, y down along table y) into this camera's view, distortion included."""
        xs, ys = np.meshgrid(np.arange(self.width, dtype=np.float64), np.arange(self.height, dtype=np.float64))
        table = self.unproject(np.column_stack([xs.ravel(), ys.ravel()]))
        map_x = ((table[:, 0] - origin_mm[0]) * px_per_mm).reshape(self.height, self.width).astype(np.float32)
        map_y = ((table[:, 1] - origin_mm[1]) * px_per_mm).reshape(self.height, self.width).astype(np.float32)
        return map_x, map_y

    def corners_px(self, layout: TableLayout) -> list[list[float]]:
        """The play area's corners in pixels, in INTERFACE.md order (0,0), (W,0), (W,H), (0,H)."""
        return [[float(x), float(y)] for x, y in self.project(np.array(layout.corners()))]

    def px_per_mm_at(self, point_mm: tuple[float, float]) -> float:
        """How many image pixels one table millimetre spans near a point (the geometric mean of both axes)."""
        x, y = point_mm
        p = self.project(np.array([[x, y], [x + 1, y], [x, y + 1]]))
        return float(math.sqrt(np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[2] - p[0])))


def _rotation_for(pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Camera axes (x right, y down, z forward) for the pose, and the lens position, in the table frame."""
    heading = math.radians(pose.heading)
    # the table direction that appears "up" in the image; heading 0 puts B (larger y) at the top
    up = np.array([math.sin(heading), math.cos(heading), 0.0])
    tilt = math.radians(pose.tilt)
    target = np.array([pose.target[0], pose.target[1], 0.0])
    # the camera leans back from the target, away from the image's "up" direction
    position = target + np.array([0, 0, pose.height]) - up * pose.height * math.tan(tilt)
    forward = target - position
    forward /= np.linalg.norm(forward)
    down = -(up - forward * (up @ forward))
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    roll = math.radians(pose.roll)
    right, down = right * math.cos(roll) + down * math.sin(roll), down * math.cos(roll) - right * math.sin(roll)
    rotation = np.vstack([right, down, forward])  # rows: camera axes in table coordinates
    return rotation, position


def make_camera(pose: CameraPose, size: str = "720p", *, focal: float | None = None, layout: TableLayout | None = None,
                margin: float = 0.06) -> Camera:
    """A camera at `pose`. Without `focal`, the longest focal length that keeps the play area of `layout`
    inside the image with `margin` (a fraction of the image) on every side."""
    width, height = image_size(size)
    rotation, position = _rotation_for(pose)
    rvec, _ = cv2.Rodrigues(rotation)
    tvec = -rotation @ position
    if focal is None:
        layout = layout or TableLayout()
        corners = np.column_stack([np.array(layout.corners()), np.zeros(4)])
        in_camera = corners @ rotation.T + tvec
        normalised = in_camera[:, :2] / in_camera[:, 2:3]
        # the distortion moves points by at most a few per cent at the edges; the margin absorbs it
        half_w, half_h = width * (0.5 - margin), height * (0.5 - margin)
        focal = float(min(half_w / np.abs(normalised[:, 0]).max(), half_h / np.abs(normalised[:, 1]).max()))
    return Camera(pose, width, height, float(focal), rvec.reshape(3, 1), tvec.reshape(3, 1))


def random_camera(rng: np.random.Generator, size: str = "720p", layout: TableLayout | None = None) -> Camera:
    """A plausible phone-or-webcam pose over the table, drawn from `rng`."""
    layout = layout or TableLayout()
    headings = [0.0, 90.0, 180.0, 270.0]
    heading = headings[int(rng.integers(4))] + rng.normal(0, 12) if rng.random() < 0.75 else rng.uniform(0, 360)
    pose = CameraPose(
        height=float(rng.uniform(700, 1300)),
        tilt=float(min(35.0, abs(rng.normal(0, 15)))),
        heading=float(heading % 360),
        roll=float(rng.normal(0, 2)),
        target=(layout.width / 2 + float(rng.normal(0, 25)), layout.height / 2 + float(rng.normal(0, 25))),
        k1=float(rng.uniform(-0.08, 0.05)),
        k2=float(rng.uniform(-0.01, 0.02)),
    )
    return make_camera(pose, size, layout=layout, margin=float(rng.uniform(0.03, 0.12)))
