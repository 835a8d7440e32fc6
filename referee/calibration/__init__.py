"""Camera calibration: where the play area, its zones and every table millimetre are in the image.

Pipeline contract (notes/contracts.md):
- `calibrate_image(image, *, area=(800, 600), corners=None) -> (Calibration, QualityReport)`
- `Calibration.load(path)` / `.save(path)`, `.table_to_image(mm)`, `.image_to_table(px)`,
  `.rectify(frame, px_per_mm)` (top-down, player A at the bottom: see calibration.py),
  `.area_mm`, `.image_size`, `.fps`, `.zones`, `.play_area_corners_px`
- `check_drift(frame, calibration) -> DriftReport` (has the camera moved?)
"""

from referee.calibration.calibration import Calibration
from referee.calibration.drift import DriftReport, DriftStatus, check_drift
from referee.calibration.lens import LensModel
from referee.calibration.quality import Finding, QualityReport, Verdict
from referee.calibration.solve import calibrate_frames, calibrate_image
from referee.calibration.zones import Zone, Zones

__all__ = [
    "Calibration",
    "DriftReport",
    "DriftStatus",
    "Finding",
    "LensModel",
    "QualityReport",
    "Verdict",
    "Zone",
    "Zones",
    "calibrate_frames",
    "calibrate_image",
    "check_drift",
]
