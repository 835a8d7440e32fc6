"""From frames to a `Calibration` and its `QualityReport`.

Automatic: the four markers are found in each frame; their 16 corners (median over the frames
kept) fit the mapping (homography + lens model, see fit.py). Manual: the four play-area corners
given in pixels fit a plain homography (through the lens file's model when one is given).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from referee.calibration.calibration import Calibration
from referee.calibration.fit import check_convex_quadrilateral, fit_mapping, parse_corners
from referee.calibration.lens import LensModel
from referee.calibration.markers import MarkerSighting, correspondences, detect_markers, table_marker_sightings, to_gray
from referee.calibration.quality import Finding, QualityReport, Verdict, assess
from referee.errors import CalibrationError
from referee.table.layout import TableLayout

#: an image whose grey levels spread less than this (standard deviation) is taken as blank
BLANK_STD = 2.0


def check_area(area: tuple[float, float]) -> TableLayout:
    width, height = (float(v) for v in area)
    if not (width > 0 and height > 0) or not np.isfinite([width, height]).all():
        raise CalibrationError(f"the play area must have a positive width and height, got {width:g} x {height:g} mm: give --area like 800x600")
    if width < 200 or height < 200:
        raise CalibrationError(f"a {width:g} x {height:g} mm play area is too small to hold four 60 mm markers and the cards: give --area in millimetres, like 800x600")
    return TableLayout(width=width, height=height)


def _check_not_blank(frame: np.ndarray) -> np.ndarray:
    gray = to_gray(frame)
    if float(gray.std()) < BLANK_STD:
        raise CalibrationError(f"the image is blank (all grey level {float(gray.mean()):.0f}): check the lens cap, the lighting and that the camera shows the table")
    return gray


def _median_markers(frames: Sequence[np.ndarray]) -> tuple[dict[int, MarkerSighting], int, float | None, int]:
    """Markers found in every usable frame, corners median-combined; (markers, frames used, jitter px, index of sharpest used)."""
    found: list[tuple[int, dict[int, MarkerSighting]]] = []
    first_error: CalibrationError | None = None
    for index, frame in enumerate(frames):
        try:
            found.append((index, table_marker_sightings(detect_markers(frame))))
        except CalibrationError as error:
            first_error = first_error or error
    if not found:
        assert first_error is not None
        raise first_error
    if len(found) == 1:
        return found[0][1], 1, None, found[0][0]
    stacked = {marker_id: np.stack([markers[marker_id].corners_px for _, markers in found]) for marker_id in found[0][1]}
    median = {marker_id: MarkerSighting(marker_id, np.median(corners, axis=0)) for marker_id, corners in stacked.items()}
    jitter = float(np.median([np.linalg.norm(corners - np.median(corners, axis=0), axis=-1).std() for corners in stacked.values()]))
    return median, len(found), jitter, found[0][0]


def calibrate_frames(
    frames: Sequence[np.ndarray],
    *,
    area: tuple[float, float] = (800.0, 600.0),
    corners: np.ndarray | str | None = None,
    lens: LensModel | None = None,
    fps: float | None = None,
    estimate_distortion: bool = True,
    source: dict | None = None,
) -> tuple[Calibration, QualityReport]:
    """Calibrate from frames of one fixed camera, sharpest first (see sources.py)."""
    layout = check_area(area)
    if not frames:
        raise CalibrationError("no frames to calibrate from: give an image, a video or a camera that delivers frames")
    height, width = frames[0].shape[:2]
    image_size = (width, height)
    if any(frame.shape[:2] != (height, width) for frame in frames):
        raise CalibrationError("the frames differ in size: calibrate from one camera at one resolution")
    gray = _check_not_blank(frames[0])
    if lens is not None:
        lens = lens.for_image_size(image_size)
    source = dict(source or {})
    extra_findings: list[Finding] = []
    if isinstance(corners, str):
        corners = parse_corners(corners)
    if corners is not None:
        corners = np.asarray(corners, np.float64)
        if corners.shape != (4, 2):
            raise CalibrationError(f"expected four play-area corners [[x, y] x 4], got an array of shape {corners.shape}")
        check_convex_quadrilateral(corners)
        outside = [i for i, (x, y) in enumerate(corners) if not (-0.5 <= x <= width - 0.5 and -0.5 <= y <= height - 0.5)]
        if outside:
            names = ", ".join(["(0,0)", "(W,0)", "(W,H)", "(0,H)"][i] for i in outside)
            extra_findings.append(Finding("warning", f"play-area corner {names} lies outside the {width}x{height} image: part of the play area is not seen; move the camera back"))
        calibration = Calibration.from_corners(corners, area=(layout.width, layout.height), image_size=image_size, fps=fps, lens=lens, source=source)
        markers: dict[int, MarkerSighting] = {}
        plain = calibration.homography
        frames_used, jitter = 1, None
    else:
        markers, frames_used, jitter, sharpest = _median_markers(frames)
        gray = to_gray(frames[sharpest])
        table_mm, image_px = correspondences(markers, layout)
        fit = fit_mapping(table_mm, image_px, image_size, lens=lens, estimate_distortion=estimate_distortion)
        calibration = Calibration(
            homography=fit.homography,
            area_mm=(layout.width, layout.height),
            image_size=image_size,
            fps=fps,
            lens=fit.lens,
            method="markers",
            marker_corners_px={marker_id: sighting.corners_px for marker_id, sighting in markers.items()},
            source=source,
        )
        check_convex_quadrilateral(calibration.play_area_corners_px, what="the play-area corners found from the markers")
        plain = fit.plain_homography
    source["frames_used"] = frames_used
    report = assess(calibration, gray=gray, markers=markers, plain_homography=plain, fps=fps, frames_used=frames_used, jitter_px=jitter, lens_from_file=lens is not None)
    if extra_findings:
        verdict = Verdict.NOT_USABLE if report.verdict is Verdict.NOT_USABLE else Verdict.USABLE
        report = replace(report, findings=report.findings + tuple(extra_findings), verdict=verdict)
    calibration = replace(calibration, quality=report.to_dict(), source=source)
    return calibration, report


def calibrate_image(
    image: np.ndarray,
    *,
    area: tuple[float, float] = (800.0, 600.0),
    corners: np.ndarray | str | None = None,
    lens: LensModel | None = None,
    fps: float | None = None,
    estimate_distortion: bool = True,
    source: dict | None = None,
) -> tuple[Calibration, QualityReport]:
    """Calibrate from one still frame (contract for the pipeline)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise CalibrationError(f"expected a BGR image array, got {type(image).__name__} of shape {getattr(image, 'shape', None)}")
    return calibrate_frames([image], area=area, corners=corners, lens=lens, fps=fps, estimate_distortion=estimate_distortion, source=source or {"kind": "image"})
