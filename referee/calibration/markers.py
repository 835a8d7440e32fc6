"""Finding the four corner markers of the play area in a camera image.

INTERFACE.md: ArUco markers from DICT_4X4_50, side 60 mm, id 0 at (0, 0), id 1 at (W, 0), id 2 at
(W, H), id 3 at (0, H), each printed upright as seen by player A with its outer corner on the
play-area corner. Corners are refined to sub-pixel precision (measured on rendered frames: about
0.2 px mean error, against 0.7 px without refinement).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.errors import CalibrationError
from referee.table.layout import TableLayout

DICTIONARY_NAME = "DICT_4X4_50"
TABLE_MARKER_IDS = (0, 1, 2, 3)
#: where each marker sits, in words a user understands (for error messages)
MARKER_PLACES = {
    0: "A's left corner (0, 0)",
    1: "A's right corner (W, 0)",
    2: "B's left corner (W, H)",
    3: "B's right corner (0, H)",
}
#: half-size of the sub-pixel corner search window (px). Larger averages more noise but can be
#: pulled by the neighbouring marker cells on small markers; 5 suits markers of 40-200 px.
CORNER_WINDOW_PX = 5


@dataclass(frozen=True, eq=False)
class MarkerSighting:
    """One marker found in an image: its id and four corners (px) in OpenCV's order
    (top-left, top-right, bottom-right, bottom-left of the printed marker)."""

    marker_id: int
    corners_px: np.ndarray

    def __post_init__(self) -> None:
        corners = np.asarray(self.corners_px, dtype=np.float64).reshape(-1, 2)
        if corners.shape != (4, 2):
            raise ValueError(f"a marker has 4 corners, got array of shape {np.shape(self.corners_px)}")
        object.__setattr__(self, "corners_px", corners)

    @property
    def side_px(self) -> float:
        """Mean side length in pixels."""
        return float(np.mean(np.linalg.norm(self.corners_px - np.roll(self.corners_px, -1, axis=0), axis=1)))


def _detector(dictionary: int = cv2.aruco.DICT_4X4_50) -> cv2.aruco.ArucoDetector:
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    parameters.cornerRefinementWinSize = CORNER_WINDOW_PX
    parameters.cornerRefinementMaxIterations = 50
    parameters.cornerRefinementMinAccuracy = 0.01
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(dictionary), parameters)


def to_gray(image: np.ndarray) -> np.ndarray:
    if image is None or not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise CalibrationError(f"expected a BGR or grey image, got {type(image).__name__} of shape {getattr(image, 'shape', None)}")
    if image.ndim == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image


def detect_markers(image: np.ndarray) -> list[MarkerSighting]:
    """Every DICT_4X4_50 marker in the image (any id, duplicates kept), corners sub-pixel refined."""
    corners, ids, _rejected = _detector().detectMarkers(to_gray(image))
    if ids is None:
        return []
    return [MarkerSighting(int(marker_id), quad.reshape(4, 2)) for quad, marker_id in zip(corners, ids.ravel())]


def table_marker_sightings(sightings: list[MarkerSighting]) -> dict[int, MarkerSighting]:
    """The four play-area markers by id; a one-line CalibrationError if any is missing or doubled."""
    by_id: dict[int, list[MarkerSighting]] = {}
    for sighting in sightings:
        if sighting.marker_id in TABLE_MARKER_IDS:
            by_id.setdefault(sighting.marker_id, []).append(sighting)
    doubled = sorted(marker_id for marker_id, found in by_id.items() if len(found) > 1)
    if doubled:
        names = ", ".join(f"{marker_id} ({len(by_id[marker_id])} times)" for marker_id in doubled)
        raise CalibrationError(
            f"marker {names} seen more than once: each of ids 0-3 must be printed once, at its own corner; "
            "remove the extra copies from view"
        )
    missing = [marker_id for marker_id in TABLE_MARKER_IDS if marker_id not in by_id]
    if missing:
        raise CalibrationError(missing_markers_message(missing, found=sorted(by_id)))
    return {marker_id: found[0] for marker_id, found in sorted(by_id.items())}


def missing_markers_message(missing: list[int], *, found: list[int]) -> str:
    if len(missing) == len(TABLE_MARKER_IDS):
        return (
            "no play-area markers found (expected ArUco DICT_4X4_50 ids 0-3, 60 mm): print them with "
            "`referee calibrate print-target`, put one in each corner, check the whole play area is in frame "
            "and lit; or give the corners with --corners"
        )
    places = "; ".join(f"marker {marker_id} ({MARKER_PLACES[marker_id]})" for marker_id in missing)
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"{places} not found (found {', '.join(map(str, found))}): it {verb} covered, out of frame or too blurred to read; "
        "uncover it or move the camera so all four corners are seen, or give the corners with --corners"
    ).replace("it are", "they are")


def correspondences(markers: dict[int, MarkerSighting], layout: TableLayout) -> tuple[np.ndarray, np.ndarray]:
    """All marker corners as (table mm, image px) pairs, 4 per marker, in a fixed order."""
    table = np.array([corner for marker_id in sorted(markers) for corner in layout.marker_corners(marker_id)], float)
    image = np.vstack([markers[marker_id].corners_px for marker_id in sorted(markers)])
    return table, image

