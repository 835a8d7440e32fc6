"""Test utility: frames of a table with known truth, for calibration tests and benchmarks.

Not part of the referee. A flat table texture (surface + the four corner markers printed on
white paper + a few card-sized rectangles) is drawn top-down at `TEXTURE_PX_PER_MM`, then seen
through a pinhole camera with pose and lens distortion (OpenCV's model) by inverse mapping with
cv2.remap, supersampled for clean edges. The truth is `PinholeCamera.project`.

The texture is a proper top-down view: x to the right, y *up* (player A at the bottom), so a
marker image pasted unchanged is "upright as seen by player A" as INTERFACE.md asks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.table.layout import MARKER_SIDE_MM, TableLayout

TEXTURE_PX_PER_MM = 4.0
#: how far the drawn table extends beyond the play area on every side
TABLE_MARGIN_MM = 140.0
#: white paper around each printed marker (the print-target tiles have 10 mm)
PAPER_MARGIN_MM = 10.0


@dataclass(frozen=True)
class TableTexture:
    image: np.ndarray  # BGR, rows = decreasing y
    x_min: float
    y_max: float
    px_per_mm: float = TEXTURE_PX_PER_MM

    def to_texture_px(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Continuous texture pixel coordinates (pixel centres at integers) of table points."""
        return (x - self.x_min) * self.px_per_mm - 0.5, (self.y_max - y) * self.px_per_mm - 0.5


def _marker_image(marker_id: int, side_px: int, dictionary: int = cv2.aruco.DICT_4X4_50) -> np.ndarray:
    aruco_dictionary = cv2.aruco.getPredefinedDictionary(dictionary)
    return cv2.aruco.generateImageMarker(aruco_dictionary, marker_id, side_px)


def paste_marker(texture: TableTexture, marker_id: int, origin_mm: tuple[float, float], *, paper: bool = True) -> None:
    """Print marker `marker_id` with its bottom-left (A's near-left) corner at `origin_mm`."""
    ppm = texture.px_per_mm
    x0, y0 = origin_mm
    side = MARKER_SIDE_MM
    if paper:
        m = PAPER_MARGIN_MM
        u0, v0 = texture.to_texture_px(np.array(x0 - m), np.array(y0 + side + m))
        u1, v1 = texture.to_texture_px(np.array(x0 + side + m), np.array(y0 - m))
        cv2.rectangle(texture.image, (int(u0 + 0.5), int(v0 + 0.5)), (int(u1 + 0.5), int(v1 + 0.5)), (238, 240, 240), -1)
    side_px = int(round(side * ppm))
    u = int(round((x0 - texture.x_min) * ppm))
    v = int(round((texture.y_max - (y0 + side)) * ppm))
    marker = _marker_image(marker_id, side_px)
    texture.image[v : v + side_px, u : u + side_px] = np.where(marker[..., None] > 127, 238, 20).astype(np.uint8)


def table_texture(
    *,
    area: tuple[float, float] = (800.0, 600.0),
    seed: int = 0,
    markers: tuple[int, ...] = (0, 1, 2, 3),
    extra_markers: tuple[tuple[int, tuple[float, float]], ...] = (),
    cards: bool = True,
) -> TableTexture:
    """A wood-ish table with the corner markers of `markers` in place (others left off)."""
    width, height = area
    rng = np.random.default_rng(seed)
    ppm = TEXTURE_PX_PER_MM
    x_min, y_min = -TABLE_MARGIN_MM, -TABLE_MARGIN_MM
    x_max, y_max = width + TABLE_MARGIN_MM, height + TABLE_MARGIN_MM
    cols, rows = int(round((x_max - x_min) * ppm)), int(round((y_max - y_min) * ppm))
    base = np.array([60, 100, 150], np.float32) + rng.uniform(-20, 20, 3)
    low = cv2.resize(rng.normal(0, 1, (rows // 64 + 2, cols // 64 + 2)).astype(np.float32), (cols, rows), interpolation=cv2.INTER_CUBIC)
    grain = cv2.resize(rng.normal(0, 1, (rows // 2, 8)).astype(np.float32), (cols, rows), interpolation=cv2.INTER_LINEAR)
    fine = cv2.resize(rng.normal(0, 3, (rows // 2, cols // 2)).astype(np.float32), (cols, rows), interpolation=cv2.INTER_NEAREST)
    shade = cv2.addWeighted(low, 14, grain, 8, 0) + fine
    image = cv2.merge([np.clip(shade + float(b), 0, 255).astype(np.uint8) for b in base])
    texture = TableTexture(image=image, x_min=x_min, y_max=y_max)
    layout = TableLayout(width=width, height=height)
    if cards:
        for player in ("A", "B"):
            for index in range(5):
                _card(texture, layout.stock_centre(player, index), rng)
        for pile in (0, 1):
            _card(texture, layout.spit_pile_centre(pile), rng)
    for marker_id in markers:
        bottom_left = layout.marker_corners(marker_id)[3]
        paste_marker(texture, marker_id, bottom_left)
    for marker_id, origin in extra_markers:
        paste_marker(texture, marker_id, origin)
    return texture


def _card(texture: TableTexture, centre: tuple[float, float], rng: np.random.Generator) -> None:
    cx, cy = centre
    angle = rng.uniform(-8, 8)
    ppm = texture.px_per_mm
    u, v = texture.to_texture_px(np.array(cx), np.array(cy))
    box = ((float(u), float(v)), (63 * ppm, 88 * ppm), angle)
    points = cv2.boxPoints(box).astype(np.int32)
    cv2.fillConvexPoly(texture.image, points, (245, 245, 245), lineType=cv2.LINE_AA)
    colour = (30, 30, 200) if rng.random() < 0.5 else (30, 30, 30)
    cv2.circle(texture.image, (int(u), int(v)), int(12 * ppm), colour, -1, lineType=cv2.LINE_AA)


@dataclass(frozen=True)
class PinholeCamera:
    """OpenCV pinhole camera over the table plane z = 0 (table mm, z up)."""

    camera_matrix: np.ndarray
    distortion: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    image_size: tuple[int, int]
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def looking_at_table(
        cls,
        *,
        area: tuple[float, float] = (800.0, 600.0),
        image_size: tuple[int, int] = (1280, 720),
        height_mm: float = 1000.0,
        tilt_deg: float = 0.0,
        heading_deg: float = 0.0,
        distortion: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0),
        fill: float = 0.92,
        target_offset_mm: tuple[float, float] = (0.0, 0.0),
    ) -> "PinholeCamera":
        """A camera `height_mm` above the table, tilted `tilt_deg` from straight down, looking at the
        play-area centre from behind player A (heading 0) and zoomed so the play area plus its
        marker paper fills `fill` of the frame."""
        width, height = area
        target = np.array([width / 2 + target_offset_mm[0], height / 2 + target_offset_mm[1], 0.0])
        tilt, heading = math.radians(tilt_deg), math.radians(heading_deg)
        direction = np.array([math.sin(heading), math.cos(heading), 0.0])
        distance = height_mm / math.cos(tilt)
        centre = target - distance * math.sin(tilt) * direction + np.array([0, 0, height_mm])
        forward = (target - centre) / np.linalg.norm(target - centre)
        down_hint = -direction
        down = down_hint - (down_hint @ forward) * forward
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        rotation = np.stack([right, down, forward])
        tvec = -rotation @ centre
        rvec, _ = cv2.Rodrigues(rotation)
        m = PAPER_MARGIN_MM + 5
        outline = np.array([[-m, -m, 0], [width + m, -m, 0], [width + m, height + m, 0], [-m, height + m, 0]], float)
        camera_points = (rotation @ outline.T).T + tvec
        normalised = camera_points[:, :2] / camera_points[:, 2:3]
        w, h = image_size
        focal = fill * min(w / 2 / np.abs(normalised[:, 0]).max(), h / 2 / np.abs(normalised[:, 1]).max())
        matrix = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], float)
        return cls(matrix, np.array(distortion, float), rvec.reshape(3), tvec.reshape(3), image_size)

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        points = np.asarray(points_mm, float).reshape(-1, 2)
        object_points = np.hstack([points, np.zeros((len(points), 1))])
        image_points, _ = cv2.projectPoints(object_points, self.rvec, self.tvec, self.camera_matrix, self.distortion)
        return image_points.reshape(-1, 2)

    def _table_points_of_pixels(self, supersample: int) -> tuple[np.ndarray, np.ndarray]:
        key = ("grid", supersample)
        if key not in self._cache:
            # The table point seen by each (supersampled) pixel is a smooth function of the pixel, so it
            # is computed exactly on a coarse grid and interpolated linearly (fast, error < 0.01 px).
            w, h = self.image_size
            s = supersample
            step = 4
            cols, rows = w * s, h * s
            coarse_cols, coarse_rows = -(-cols // step), -(-rows // step)
            fine_u, fine_v = np.meshgrid(np.arange(coarse_cols) * step + (step - 1) / 2, np.arange(coarse_rows) * step + (step - 1) / 2)
            pixels = np.stack([(fine_u + 0.5) / s - 0.5, (fine_v + 0.5) / s - 0.5], -1).reshape(-1, 1, 2).astype(np.float64)
            if np.any(self.distortion):
                criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12)
                normalised = cv2.undistortPoints(pixels, self.camera_matrix, self.distortion, criteria=criteria).reshape(-1, 2)
            else:
                k = self.camera_matrix
                flat = pixels.reshape(-1, 2)
                normalised = np.stack([(flat[:, 0] - k[0, 2]) / k[0, 0], (flat[:, 1] - k[1, 2]) / k[1, 1]], -1)
            rotation, _ = cv2.Rodrigues(self.rvec)
            rays = np.hstack([normalised, np.ones((len(normalised), 1))]) @ rotation  # rows are R^T d
            centre = -rotation.T @ self.tvec
            scale = -centre[2] / rays[:, 2]
            x = (centre[0] + scale * rays[:, 0]).reshape(coarse_rows, coarse_cols)
            y = (centre[1] + scale * rays[:, 1]).reshape(coarse_rows, coarse_cols)
            size = (coarse_cols * step, coarse_rows * step)
            x = cv2.resize(x, size, interpolation=cv2.INTER_LINEAR)[:rows, :cols]
            y = cv2.resize(y, size, interpolation=cv2.INTER_LINEAR)[:rows, :cols]
            self._cache[key] = (x, y)
        return self._cache[key]

    def render(self, texture: TableTexture, *, supersample: int = 2, blur_sigma_px: float = 0.0, noise: float = 2.0, seed: int = 0) -> np.ndarray:
        """What the camera sees of `texture`: BGR uint8 of `image_size`."""
        x, y = self._table_points_of_pixels(supersample)
        map_u, map_v = texture.to_texture_px(x, y)
        big = cv2.remap(texture.image, map_u.astype(np.float32), map_v.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(40, 60, 80))
        image = cv2.resize(big, self.image_size, interpolation=cv2.INTER_AREA)
        if blur_sigma_px > 0:
            image = cv2.GaussianBlur(image, (0, 0), blur_sigma_px)
        if noise > 0:
            rng = np.random.default_rng(seed)
            image = np.clip(image.astype(np.float32) + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
        return image


def play_area_grid(area: tuple[float, float] = (800.0, 600.0), step_mm: float = 20.0) -> np.ndarray:
    """Table points every `step_mm` over the play area, edges included."""
    width, height = area
    xs = np.linspace(0, width, int(round(width / step_mm)) + 1)
    ys = np.linspace(0, height, int(round(height / step_mm)) + 1)
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel()], -1)


def board_texture(*, seed: int = 0) -> tuple[TableTexture, tuple[float, float]]:
    """The ChArUco lens board lying on a table, its top-left square at table (0, H_board)."""
    from referee.calibration.charuco import board_size_mm, charuco_board

    width, height = board_size_mm()
    texture = table_texture(area=(width, height), seed=seed, markers=(), cards=False)
    ppm = texture.px_per_mm
    margin = 8.0
    u0, v0 = texture.to_texture_px(np.array(-margin), np.array(height + margin))
    u1, v1 = texture.to_texture_px(np.array(width + margin), np.array(-margin))
    cv2.rectangle(texture.image, (int(u0), int(v0)), (int(u1) + 1, int(v1) + 1), (240, 240, 240), -1)
    board = charuco_board().generateImage((int(round(width * ppm)), int(round(height * ppm))), marginSize=0, borderBits=1)
    u = int(round((0 - texture.x_min) * ppm))
    v = int(round((texture.y_max - height) * ppm))
    texture.image[v : v + board.shape[0], u : u + board.shape[1]] = np.where(board[..., None] > 127, 240, 20).astype(np.uint8)
    return texture, (width, height)


def board_views(distortion: tuple[float, ...], *, image_size: tuple[int, int] = (1280, 720), count: int = 12, seed: int = 0) -> tuple[list[np.ndarray], "PinholeCamera"]:
    """`count` views of the lens board from varied poses through one lens; returns (frames, a camera of that lens)."""
    texture, area = board_texture(seed=seed)
    rng = np.random.default_rng(seed)
    frames = []
    reference = PinholeCamera.looking_at_table(area=area, image_size=image_size, height_mm=500, tilt_deg=0, distortion=distortion, fill=0.9)
    for index in range(count):
        camera = PinholeCamera.looking_at_table(
            area=area,
            image_size=image_size,
            height_mm=float(rng.uniform(350, 650)),
            tilt_deg=float(rng.uniform(5, 40)),
            heading_deg=float(rng.uniform(-180, 180)),
            distortion=distortion,
            target_offset_mm=(float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60))),
        )
        # One lens for all views: keep the reference focal length, vary the pose only.
        camera = PinholeCamera(reference.camera_matrix, camera.distortion, camera.rvec, camera.tvec, image_size)
        frames.append(camera.render(texture, seed=index))
    return frames, reference
