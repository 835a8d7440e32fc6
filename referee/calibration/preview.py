"""The top-down preview a user looks at after calibrating: the rectified play area with the zones,
the expected marker outlines and a 100 mm grid drawn on it, player A at the bottom."""

from __future__ import annotations

import cv2
import numpy as np

from referee.calibration.calibration import Calibration
from referee.calibration.quality import QualityReport, Verdict
from referee.table.layout import PLAYERS

PREVIEW_PX_PER_MM = 1.0
PREVIEW_MARGIN_MM = 60.0
_COLOURS = {"spit": (0, 200, 255), "stock_A": (255, 160, 0), "stock_B": (80, 80, 255), "grid": (200, 200, 200), "marker": (0, 255, 0)}
_VERDICT_COLOURS = {Verdict.GOOD: (0, 170, 0), Verdict.USABLE: (0, 170, 255), Verdict.NOT_USABLE: (0, 0, 230)}


def _polygon(calibration: Calibration, points_mm, ppm: float, margin: float) -> np.ndarray:
    return np.round(calibration.table_to_rectified(np.array(points_mm, float), ppm, margin)).astype(np.int32)


def draw_preview(calibration: Calibration, frame: np.ndarray, report: QualityReport | None = None, *, px_per_mm: float = PREVIEW_PX_PER_MM) -> np.ndarray:
    margin = PREVIEW_MARGIN_MM
    view = calibration.rectify(frame, px_per_mm, margin_mm=margin)
    if view.ndim == 2:
        view = cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
    overlay = view.copy()
    zones = calibration.zones
    width, height = calibration.area_mm
    for x in np.arange(0, width + 1, 100):
        cv2.polylines(view, [_polygon(calibration, [(x, 0), (x, height)], px_per_mm, margin)], False, _COLOURS["grid"], 1, cv2.LINE_AA)
    for y in np.arange(0, height + 1, 100):
        cv2.polylines(view, [_polygon(calibration, [(0, y), (width, y)], px_per_mm, margin)], False, _COLOURS["grid"], 1, cv2.LINE_AA)
    cv2.fillPoly(overlay, [_polygon(calibration, zones.spit_band.polygon_mm, px_per_mm, margin)], _COLOURS["spit"])
    for player in PLAYERS:
        cv2.fillPoly(overlay, [_polygon(calibration, zones.stock_rows[player].polygon_mm, px_per_mm, margin)], _COLOURS[f"stock_{player}"])
    view = cv2.addWeighted(overlay, 0.22, view, 0.78, 0)
    thickness = max(1, int(round(2 * px_per_mm)))
    for pile, zone in enumerate(zones.spit_piles):
        polygon = _polygon(calibration, zone.polygon_mm, px_per_mm, margin)
        cv2.polylines(view, [polygon], True, _COLOURS["spit"], thickness, cv2.LINE_AA)
        cv2.putText(view, f"pile {pile}", tuple(polygon[3] + [4, 16]), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * px_per_mm, _COLOURS["spit"], 1, cv2.LINE_AA)
    for player in PLAYERS:
        colour = _COLOURS[f"stock_{player}"]
        for index, zone in enumerate(zones.stock_slots[player]):
            polygon = _polygon(calibration, zone.polygon_mm, px_per_mm, margin)
            cv2.polylines(view, [polygon], True, colour, 1, cv2.LINE_AA)
            centre = polygon.mean(axis=0).astype(int)
            cv2.putText(view, f"{player}{index}", tuple(centre - [10, -5]), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * px_per_mm, colour, 1, cv2.LINE_AA)
        start, end = zones.edges[player]
        cv2.polylines(view, [_polygon(calibration, [start, end], px_per_mm, margin)], False, colour, thickness + 1, cv2.LINE_AA)
    outline = _polygon(calibration, calibration.layout.corners(), px_per_mm, margin)
    cv2.polylines(view, [outline], True, (255, 255, 255), 1, cv2.LINE_AA)
    for marker_id in range(4):
        cv2.polylines(view, [_polygon(calibration, calibration.layout.marker_corners(marker_id), px_per_mm, margin)], True, _COLOURS["marker"], 1, cv2.LINE_AA)
    rows, columns = view.shape[:2]
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(view, "player A", (columns // 2 - 40, rows - 12), font, 0.6, _COLOURS["stock_A"], 2, cv2.LINE_AA)
    cv2.putText(view, "player B", (columns // 2 - 40, 24), font, 0.6, _COLOURS["stock_B"], 2, cv2.LINE_AA)
    if report is not None:
        banner = f"{report.verdict.value}  |  {report.px_per_mm_far_edge:.2f} px/mm at worst"
        if report.reprojection_rms_mm is not None:
            banner += f"  |  fit {report.reprojection_rms_mm:.2f} mm"
        cv2.putText(view, banner, (8, 48), font, 0.5, _VERDICT_COLOURS[report.verdict], 2, cv2.LINE_AA)
    return view


def write_preview(path, calibration: Calibration, frame: np.ndarray, report: QualityReport | None = None) -> None:
    image = draw_preview(calibration, frame, report)
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"could not encode the preview image for {path}")
    encoded.tofile(str(path))
