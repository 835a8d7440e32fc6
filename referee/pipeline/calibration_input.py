"""Loading `--calibration`: a file written by `referee calibrate`, or the renderer's corners.json.

The renderer writes only `{"play_area_corners_px": [[x, y] x 4]}` (no image size, no schema
version); JSON is YAML, so such a file is read here and completed with the video's own size.
"""

from __future__ import annotations

import json
import pathlib

import yaml

from referee.errors import CalibrationError, InputFileError


def load_calibration(path: str | pathlib.Path, *, image_size: tuple[int, int], fps: float | None = None):
    """A `referee.calibration.Calibration` for a video of `image_size` (width, height)."""
    from referee.calibration.calibration import Calibration

    path = pathlib.Path(path)
    if not path.is_file():
        raise InputFileError(f"calibration file {path} not found: make one with "
                             f"`referee calibrate --image FRAME --out {path.name}` (or give the renderer's corners.json)")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CalibrationError(f"calibration file {path} is not YAML or JSON ({type(error).__name__}): "
                               "give a file written by `referee calibrate` or a corners.json") from None
    if not isinstance(data, dict) or "play_area_corners_px" not in data:
        raise CalibrationError(f"calibration file {path} has no play_area_corners_px: "
                               "give a file written by `referee calibrate` or the renderer's corners.json")
    if "schema_version" in data:
        calibration = Calibration.load(path)
    else:
        area = data.get("area_mm") or data.get("play_area_mm") or (800.0, 600.0)
        try:
            calibration = Calibration.from_corners(data["play_area_corners_px"], area=tuple(float(v) for v in area),
                                                   image_size=image_size, fps=fps, lens=_renderer_lens(data, image_size))
        except (TypeError, ValueError) as error:
            raise CalibrationError(f"calibration file {path}: play_area_corners_px must be four [x, y] pairs ({error})") from None
    if tuple(calibration.image_size) != tuple(image_size):
        raise CalibrationError(
            f"calibration {path} was made for {calibration.image_size[0]}x{calibration.image_size[1]} frames but the video "
            f"is {image_size[0]}x{image_size[1]}: calibrate on this camera's frames (`referee calibrate --video ...`)")
    return calibration


def _renderer_lens(data: dict, image_size: tuple[int, int]):
    """The synthetic camera's lens (focal length, k1, k2 about the image centre), when corners.json gives it."""
    camera = data.get("camera")
    if not isinstance(camera, dict) or "focal_px" not in camera:
        return None
    from referee.calibration.lens import LensModel

    try:
        focal = float(camera["focal_px"])
        k1, k2 = float(camera.get("k1", 0.0)), float(camera.get("k2", 0.0))
    except (TypeError, ValueError):
        return None
    width, height = image_size
    matrix = [[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]]
    return LensModel(camera_matrix=matrix, distortion=[k1, k2, 0.0, 0.0, 0.0], image_size=image_size, source="renderer")
