"""How good a camera setup is for refereeing: figures, a verdict, and what to fix.

Every threshold below says what raising or lowering it does. The verdict is
- "good": nothing to fix;
- "usable with warnings": the referee runs, but some calls may be wrong (each warning says why and the fix);
- "not usable": the referee would get calls wrong too often; the CLI refuses to write the file
  unless --force is given.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.calibration.fit import apply_homography
from referee.calibration.markers import MarkerSighting
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, PLAYERS, TableLayout

if TYPE_CHECKING:
    from referee.calibration.calibration import Calibration

#: RMS disagreement (mm) of the 16 marker corners with a flat play area of the given size. Above
#: WARN something is off (a marker not flat or not quite in its corner, a wrong --area); above
#: FATAL the zones would be misplaced. Rendered frames give 0.1-0.4 mm.
REPROJECTION_WARN_MM = 1.5
REPROJECTION_FATAL_MM = 4.0
#: pixels per mm of a card at the worst place (usually the edge farthest from the camera). An
#: 800 x 600 mm area filling a 720p frame from straight above gives ~1.0 px/mm (a card 63 x 88 px,
#: its index ~6 px tall), 1080p ~1.5. Below GOOD the index letters get too small to be sure of the
#: suit; below FATAL (a card under ~28 px wide) neither rank nor suit can be read. Raise them to
#: demand a closer camera or a higher resolution.
PX_PER_MM_GOOD = 1.0
PX_PER_MM_FATAL = 0.45
#: focus: blur (Gaussian sigma, px) estimated from the markers' edges. Sharp prints read ~0.5-1 px.
#: Above WARN card indices smear; above FATAL they are unreadable.
BLUR_WARN_PX = 1.5
BLUR_FATAL_PX = 2.5
#: the focus measure F = var(Laplacian) * marker side px / contrast^2 falls roughly as 1/sigma^3
#: (sigma: Gaussian blur of the edges, px). Measured on rendered markers with sensor noise (720p and
#: 1080p, 50-110 px markers) as (F, sigma) pairs; the blur is read off by log-log interpolation.
_FOCUS_TO_BLUR = ((0.76, 3.0), (0.97, 2.6), (1.8, 2.0), (3.9, 1.5), (10.8, 1.0), (24.5, 0.7), (100.0, 0.5))
#: frame rate: below GOOD a fast slap or drop spans too few frames and touch order is coarse; below
#: FATAL the referee misses whole plays.
FPS_GOOD = 29.0
FPS_FATAL = 15.0
#: distortion: if leaving the lens uncorrected would move table points by more than this (mm), say so.
DISTORTION_NOTE_MM = 2.0
#: video: marker corners moving more than this (mm, standard deviation) across the frames used
#: means the camera is not steady.
JITTER_WARN_MM = 0.5


class Verdict(str, enum.Enum):
    GOOD = "good"
    USABLE = "usable with warnings"
    NOT_USABLE = "not usable"


@dataclass(frozen=True)
class Finding:
    severity: str  # "warning" | "fatal"
    message: str  # what is wrong: the fix

    def __post_init__(self) -> None:
        if self.severity not in ("warning", "fatal"):
            raise ValueError(f"severity must be warning or fatal, got {self.severity!r}")


@dataclass(frozen=True, kw_only=True)
class QualityReport:
    verdict: Verdict
    findings: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()
    method: str = "markers"
    markers_seen: tuple[int, ...] = ()
    reprojection_rms_mm: float | None = None
    reprojection_max_mm: float | None = None
    px_per_mm_far_edge: float = 0.0
    far_edge: str = ""
    card_px_far_edge: tuple[float, float] = (0.0, 0.0)
    blur_px: dict[int, float] = field(default_factory=dict)
    focus_measure: dict[int, float] = field(default_factory=dict)
    fps: float | None = None
    distortion_source: str = "none"
    distortion_cost_mm: float | None = None
    jitter_mm: float | None = None
    frames_used: int = 1

    def to_dict(self) -> dict:
        def rounded(value: float | None, digits: int = 2) -> float | None:
            return None if value is None else round(float(value), digits)

        return {
            "verdict": self.verdict.value,
            "warnings": [f.message for f in self.findings if f.severity == "warning"],
            "fatal": [f.message for f in self.findings if f.severity == "fatal"],
            "notes": list(self.notes),
            "method": self.method,
            "markers_seen": list(self.markers_seen),
            "reprojection_rms_mm": rounded(self.reprojection_rms_mm, 3),
            "reprojection_max_mm": rounded(self.reprojection_max_mm, 3),
            "px_per_mm_far_edge": rounded(self.px_per_mm_far_edge, 3),
            "far_edge": self.far_edge,
            "card_px_far_edge": [rounded(v, 1) for v in self.card_px_far_edge],
            "blur_px": {k: rounded(v) for k, v in self.blur_px.items()},
            "focus_measure": {k: rounded(v) for k, v in self.focus_measure.items()},
            "fps": rounded(self.fps, 3),
            "distortion_source": self.distortion_source,
            "distortion_cost_mm": rounded(self.distortion_cost_mm),
            "jitter_mm": rounded(self.jitter_mm, 3),
            "frames_used": self.frames_used,
        }

    def lines(self) -> list[str]:
        """The report as a user reads it."""
        out = [f"verdict: {self.verdict.value}"]
        if self.reprojection_rms_mm is not None:
            out.append(f"marker corners fit a flat play area to {self.reprojection_rms_mm:.2f} mm RMS ({self.reprojection_max_mm:.2f} mm worst)")
        width, height = self.card_px_far_edge
        out.append(f"resolution: {self.px_per_mm_far_edge:.2f} px/mm at {self.far_edge} (a card there is about {width:.0f} x {height:.0f} px)")
        if self.blur_px:
            shown = ", ".join(f"{k}: {v:.1f}" for k, v in sorted(self.blur_px.items()))
            out.append(f"focus/motion blur on the markers (px, lower is sharper): {shown}")
        out.append("frame rate: unknown (still image)" if self.fps is None else f"frame rate: {self.fps:.1f} fps")
        if self.distortion_cost_mm is not None:
            out.append(f"lens distortion: {self.distortion_source}; left uncorrected it would cost up to {self.distortion_cost_mm:.1f} mm")
        if self.jitter_mm is not None:
            out.append(f"camera steadiness over {self.frames_used} frames: markers moved {self.jitter_mm:.2f} mm (std)")
        out += [f"{finding.severity}: {finding.message}" for finding in self.findings]
        out += [f"note: {note}" for note in self.notes]
        return out


def focus_of_marker(gray: np.ndarray, sighting: MarkerSighting) -> tuple[float, float]:
    """(focus measure F, estimated blur sigma px) from the variance of the Laplacian over a marker."""
    mask = np.zeros(gray.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(sighting.corners_px).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    x, y, w, h = cv2.boundingRect(mask)
    # compute on a patch padded well beyond the mask, so the patch border (where the filter
    # reflects the image) never falls on a blurred edge
    pad = 8
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(gray.shape[1], x + w + pad), min(gray.shape[0], y + h + pad)
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    inside = mask[y0:y1, x0:x1] > 0
    laplacian = cv2.Laplacian(patch, cv2.CV_32F, ksize=3)
    values = patch[inside]
    contrast = float(np.percentile(values, 95) - np.percentile(values, 5))
    if contrast < 10:
        return 0.0, float("inf")
    focus = float(laplacian[inside].var()) * sighting.side_px / contrast**2
    return focus, blur_from_focus(focus)


def blur_from_focus(focus: float) -> float:
    """Blur sigma (px) for a focus measure, from the measured table; 1/sigma^3 beyond its ends."""
    table_focus = np.log([f for f, _ in _FOCUS_TO_BLUR])
    table_blur = np.log([b for _, b in _FOCUS_TO_BLUR])
    log_focus = float(np.log(max(focus, 1e-6)))
    if log_focus < table_focus[0]:
        return float(np.exp(table_blur[0] + (table_focus[0] - log_focus) / 3))
    return float(np.exp(np.interp(log_focus, table_focus, table_blur)))


def card_footprint(calibration: "Calibration", centre: tuple[float, float]) -> tuple[float, float]:
    """(width px, height px) of an upright card lying centred at `centre` (table mm)."""
    x, y = centre
    w, h = CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2
    corners = calibration.table_to_image(np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]]))
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return float((sides[0] + sides[2]) / 2), float((sides[1] + sides[3]) / 2)


def worst_card_resolution(calibration: "Calibration") -> tuple[float, str, tuple[float, float]]:
    """(px per mm, where, card size px) at the place where a card is seen smallest."""
    layout = calibration.layout
    places: list[tuple[str, tuple[float, float]]] = []
    for player in PLAYERS:
        places += [(f"{player}'s stock row", layout.stock_centre(player, index)) for index in range(5)]
        places.append((f"{player}'s spit stack", layout.spit_stack_centre(player)))
        places.append((f"{player}'s spare slot", layout.spare_slot_centre(player)))
    places += [(f"spit pile {pile}", layout.spit_pile_centre(pile)) for pile in (0, 1)]
    worst = None
    for name, centre in places:
        width, height = card_footprint(calibration, centre)
        scale = min(width / CARD_WIDTH_MM, height / CARD_HEIGHT_MM)
        if worst is None or scale < worst[0]:
            worst = (scale, name, (width, height))
    assert worst is not None
    return worst


def distortion_cost_mm(calibration: "Calibration", plain_homography: np.ndarray, step_mm: float = 25.0) -> float:
    """Worst table error (mm) over the play area if the lens model were dropped for a plain homography."""
    if calibration.lens is None or not calibration.lens.has_distortion:
        return 0.0
    width, height = calibration.area_mm
    xs = np.linspace(0, width, int(width // step_mm) + 1)
    ys = np.linspace(0, height, int(height // step_mm) + 1)
    grid = np.stack([g.ravel() for g in np.meshgrid(xs, ys)], -1)
    seen = calibration.table_to_image(grid)
    guessed = apply_homography(np.linalg.inv(plain_homography), seen)
    return float(np.max(np.linalg.norm(guessed - grid, axis=1)))


def assess(
    calibration: "Calibration",
    *,
    gray: np.ndarray,
    markers: dict[int, MarkerSighting],
    plain_homography: np.ndarray,
    fps: float | None,
    frames_used: int = 1,
    jitter_px: float | None = None,
    lens_from_file: bool = False,
) -> QualityReport:
    findings: list[Finding] = []
    notes: list[str] = []
    layout = TableLayout(width=calibration.area_mm[0], height=calibration.area_mm[1])

    rms_mm = max_mm = None
    if markers:
        truth = np.array([corner for marker_id in sorted(markers) for corner in layout.marker_corners(marker_id)])
        seen = np.vstack([markers[marker_id].corners_px for marker_id in sorted(markers)])
        errors = np.linalg.norm(calibration.image_to_table(seen) - truth, axis=1)
        rms_mm, max_mm = float(np.sqrt(np.mean(errors**2))), float(errors.max())
        advice = (
            f"the marker corners disagree with a flat {layout.width:g} x {layout.height:g} mm play area by {rms_mm:.1f} mm RMS: "
            "check --area, that each marker lies flat with its outer corner on the play-area corner, "
            "and that the printout was not scaled (the ruler must measure 100 mm)"
        )
        if rms_mm > REPROJECTION_FATAL_MM:
            findings.append(Finding("fatal", advice))
        elif rms_mm > REPROJECTION_WARN_MM:
            findings.append(Finding("warning", advice))
    else:
        notes.append("corners given by hand: placement accuracy cannot be measured; markers would also correct lens distortion")

    px_per_mm, where, card_px = worst_card_resolution(calibration)
    fix = "move the camera closer or zoom in" + (", or use a higher resolution (1080p)" if calibration.image_size[1] < 1000 else "")
    if px_per_mm < PX_PER_MM_FATAL:
        findings.append(Finding("fatal", f"{px_per_mm:.2f} px/mm at {where}: a card is only {card_px[0]:.0f} x {card_px[1]:.0f} px and cannot be read; {fix}"))
    elif px_per_mm < PX_PER_MM_GOOD:
        findings.append(Finding("warning", f"{px_per_mm:.2f} px/mm at {where}: a card is only {card_px[0]:.0f} x {card_px[1]:.0f} px, suits may be misread; {fix}"))

    blur: dict[int, float] = {}
    focus: dict[int, float] = {}
    for marker_id, sighting in sorted(markers.items()):
        focus[marker_id], blur[marker_id] = focus_of_marker(gray, sighting)
    if blur:
        worst_id = max(blur, key=lambda k: blur[k])
        worst_blur = blur[worst_id]
        fix = "focus the camera on the table, hold it rigidly (no hand-held phone), and add light so the exposure is short"
        if worst_blur > BLUR_FATAL_PX:
            findings.append(Finding("fatal", f"marker {worst_id} is blurred over ~{worst_blur:.1f} px: cards will be unreadable; {fix}"))
        elif worst_blur > BLUR_WARN_PX:
            findings.append(Finding("warning", f"marker {worst_id} is blurred over ~{worst_blur:.1f} px: card indices will smear; {fix}"))

    if fps is None:
        notes.append("frame rate unknown for a still image: make sure the camera records 30 fps or more (calibrate with --video or --camera to measure it)")
    elif fps < FPS_FATAL:
        findings.append(Finding("fatal", f"{fps:.0f} fps: fast plays fall between frames; use 30 fps or more"))
    elif fps < FPS_GOOD:
        findings.append(Finding("warning", f"{fps:.0f} fps: cards will blur and touch order is only resolved to {1000 / fps:.0f} ms; use 30 fps or more"))

    cost = None
    source = "none"
    if calibration.lens is not None:
        source = "corrected from lens file" if lens_from_file else f"estimated from the markers (k1 = {calibration.lens.distortion[0]:+.3f}) and corrected"
        cost = distortion_cost_mm(calibration, plain_homography)
        if not lens_from_file and cost > DISTORTION_NOTE_MM:
            notes.append(f"the lens distorts noticeably (up to {cost:.1f} mm if uncorrected); the estimate from the markers corrects most of it, `referee calibrate lens` corrects it fully")
    elif markers:
        source = "none found in the marker corners"
        cost = 0.0
    else:
        notes.append("lens distortion uncorrected and unmeasurable from four hand-given corners: use markers or --lens LENS.yaml")

    jitter_mm = None
    if jitter_px is not None:
        jitter_mm = jitter_px / max(px_per_mm, 1e-6)
        if jitter_mm > JITTER_WARN_MM:
            findings.append(Finding("warning", f"the markers moved {jitter_mm:.1f} mm between frames: the camera is not steady; fix it to a stand"))

    if any(f.severity == "fatal" for f in findings):
        verdict = Verdict.NOT_USABLE
    elif findings:
        verdict = Verdict.USABLE
    else:
        verdict = Verdict.GOOD
    return QualityReport(
        verdict=verdict,
        findings=tuple(findings),
        notes=tuple(notes),
        method=calibration.method,
        markers_seen=tuple(sorted(markers)),
        reprojection_rms_mm=rms_mm,
        reprojection_max_mm=max_mm,
        px_per_mm_far_edge=px_per_mm,
        far_edge=where,
        card_px_far_edge=card_px,
        blur_px=blur,
        focus_measure=focus,
        fps=fps,
        distortion_source=source,
        distortion_cost_mm=cost,
        jitter_mm=jitter_mm,
        frames_used=frames_used,
    )
