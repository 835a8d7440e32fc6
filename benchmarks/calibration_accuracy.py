"""Calibration accuracy on rendered frames with known truth: table points over the play area.

    .venv/bin/python -m benchmarks.calibration_accuracy [--quick] [--json OUT.json]

Frames: a top-down table texture with the four corner markers (tests/calibration/synthetic.py), seen
through cameras posed by referee.synth.camera (0.7-1.3 m high, tilt 0-35 deg, several headings, with
and without lens distortion), 720p and 1080p; plus first frames of the synthetic table renderer
(cards, hands, lighting) with its own random cameras. For each frame the calibration maps every
table point of a 20 mm grid over the play area (as seen by the true camera) back to the table;
the error is the distance to the true point. Target (issue 4): median <= 2 mm, max <= 5 mm.

Modes: `auto` = what `referee calibrate --image` does (16 marker corners, radial distortion
estimated from them); `plain` = a pure homography (distortion ignored, --no-distortion-estimate);
`lens` = with the true lens model given (as a perfect --lens file); `charuco` = with a lens file
made by `calibrate_lens` from rendered views of the printed ChArUco board.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from referee.calibration import LensModel, calibrate_image  # noqa: E402
from referee.calibration.charuco import calibrate_lens  # noqa: E402
from referee.errors import CalibrationError  # noqa: E402
from tests.calibration.synthetic import PinholeCamera, board_views, play_area_grid, table_texture  # noqa: E402

MEDIAN_TARGET_MM = 2.0
MAX_TARGET_MM = 5.0
DISTORTIONS = {"none": (0.0, 0.0), "mild": (-0.06, 0.01), "strong": (-0.25, 0.08), "pincushion": (0.05, 0.0)}
SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}
HEADINGS = (0, 90, 180, 270, 15)


def synth_camera(size: str, tilt: float, heading: float, k1: float, k2: float, *, height: float = 1000.0, focal: float | None = None) -> PinholeCamera:
    """A camera posed by referee.synth.camera (the renderer's own model), as a test-utility PinholeCamera."""
    try:
        from referee.synth.camera import CameraPose, make_camera
    except ImportError:  # the synthetic table is not installed: fall back to the test utility's own poses
        return PinholeCamera.looking_at_table(tilt_deg=tilt, heading_deg=heading, height_mm=height, image_size=SIZES[size], distortion=(k1, k2, 0, 0, 0))
    camera = make_camera(CameraPose(height=height, tilt=tilt, heading=heading, k1=k1, k2=k2), size, focal=focal, margin=0.09)
    return PinholeCamera(camera.matrix, camera.distortion, camera.rvec.ravel(), camera.tvec.ravel(), (camera.width, camera.height))


def errors_mm(calibration, camera) -> np.ndarray:
    grid = play_area_grid(step_mm=20.0)
    return np.linalg.norm(calibration.image_to_table(camera.project(grid)) - grid, axis=1)


def row(source: str, size: str, tilt: float, heading: float, distortion: str, mode: str, errors: np.ndarray | None, note: str = "") -> dict:
    if errors is None:
        return {"source": source, "size": size, "tilt": tilt, "heading": heading, "distortion": distortion, "mode": mode, "median_mm": None, "max_mm": None, "pass": False, "note": note}
    median, worst = float(np.median(errors)), float(errors.max())
    return {
        "source": source, "size": size, "tilt": tilt, "heading": heading, "distortion": distortion, "mode": mode,
        "median_mm": round(median, 3), "max_mm": round(worst, 3), "pass": median <= MEDIAN_TARGET_MM and worst <= MAX_TARGET_MM, "note": note,
    }


def rendered_poses(quick: bool) -> list[dict]:
    texture = table_texture(seed=7)
    tilts = [0, 20, 35] if quick else [0, 10, 20, 30, 35]
    sizes = ["720p"] if quick else ["720p", "1080p"]
    rows = []
    for size in sizes:
        for distortion, (k1, k2) in DISTORTIONS.items():
            for index, tilt in enumerate(tilts):
                heading = HEADINGS[index % len(HEADINGS)]
                camera = synth_camera(size, tilt, heading, k1, k2)
                frame = camera.render(texture, seed=index)
                truth_lens = LensModel(camera_matrix=camera.camera_matrix, distortion=camera.distortion, image_size=camera.image_size)
                for mode, kwargs in (("auto", {}), ("plain", {"estimate_distortion": False}), ("lens", {"lens": truth_lens})):
                    try:
                        calibration, _ = calibrate_image(frame, **kwargs)
                        rows.append(row("table+markers", size, tilt, heading, distortion, mode, errors_mm(calibration, camera)))
                    except CalibrationError as error:
                        rows.append(row("table+markers", size, tilt, heading, distortion, mode, None, str(error)))
    return rows


def charuco_poses(quick: bool) -> list[dict]:
    """The full lens path: board views -> calibrate_lens -> table calibration with that lens."""
    k1, k2 = DISTORTIONS["strong"]
    views, reference = board_views((k1, k2, 0, 0, 0), image_size=SIZES["720p"], count=10 if quick else 16, seed=5)
    lens = calibrate_lens(views)
    texture = table_texture(seed=8)
    rows = []
    for index, tilt in enumerate([0, 20, 35] if quick else [0, 10, 20, 30, 35]):
        heading = HEADINGS[index % len(HEADINGS)]
        camera = synth_camera("720p", tilt, heading, k1, k2, height=1500.0, focal=float(reference.camera_matrix[0, 0]))
        frame = camera.render(texture, seed=index)
        try:
            calibration, _ = calibrate_image(frame, lens=lens)
            rows.append(row("table+markers", "720p", tilt, heading, "strong", "charuco", errors_mm(calibration, camera), f"lens rms {lens.rms_px:.3f} px, {lens.frames_used} views"))
        except CalibrationError as error:
            rows.append(row("table+markers", "720p", tilt, heading, "strong", "charuco", None, str(error)))
    return rows


def renderer_frames(quick: bool) -> list[dict]:
    """First frames of the synthetic table renderer (its random camera per seed)."""
    try:
        from referee.synth.example_script import example_script
        from referee.synth.frames import TableRenderer
    except ImportError:
        return []
    script = example_script(0)
    rows = []
    for seed in range(2 if quick else 6):
        renderer = TableRenderer(script, seed=seed, size="720p")
        frame, _ = renderer.render(0)
        pose = renderer.camera.pose
        camera = renderer.camera
        distortion = f"k1={pose.k1:+.3f},k2={pose.k2:+.3f}"
        for mode, kwargs in (("auto", {}), ("plain", {"estimate_distortion": False})):
            try:
                calibration, _ = calibrate_image(frame, **kwargs)
                grid = play_area_grid(step_mm=20.0)
                errors = np.linalg.norm(calibration.image_to_table(camera.project(grid)) - grid, axis=1)
                rows.append(row(f"renderer seed {seed}", "720p", round(pose.tilt, 1), round(pose.heading, 1), distortion, mode, errors))
            except CalibrationError as error:
                rows.append(row(f"renderer seed {seed}", "720p", round(pose.tilt, 1), round(pose.heading, 1), distortion, mode, None, str(error)))
    return rows


def summarise(rows: list[dict]) -> list[str]:
    lines = []
    for mode in ("auto", "plain", "lens", "charuco"):
        chosen = [r for r in rows if r["mode"] == mode]
        if not chosen:
            continue
        measured = [r for r in chosen if r["median_mm"] is not None]
        worst_median = max(r["median_mm"] for r in measured) if measured else float("nan")
        worst_max = max(r["max_mm"] for r in measured) if measured else float("nan")
        passed = sum(r["pass"] for r in chosen)
        lines.append(f"{mode:8s} {passed}/{len(chosen)} frames within target; worst median {worst_median:.2f} mm, worst max {worst_max:.2f} mm")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer poses (about a minute)")
    parser.add_argument("--json", type=pathlib.Path, help="write every row as JSON here")
    parser.add_argument("--no-renderer", action="store_true", help="skip the synthetic table renderer's frames (slow)")
    args = parser.parse_args()
    started = time.monotonic()
    rows = rendered_poses(args.quick) + charuco_poses(args.quick)
    if not args.no_renderer:
        rows += renderer_frames(args.quick)
    header = f"{'source':18s} {'size':6s} {'tilt':>5s} {'head':>5s} {'distortion':18s} {'mode':8s} {'median':>7s} {'max':>7s}  ok"
    print(header)
    for r in rows:
        median = "-" if r["median_mm"] is None else f"{r['median_mm']:.2f}"
        worst = "-" if r["max_mm"] is None else f"{r['max_mm']:.2f}"
        print(f"{r['source']:18s} {r['size']:6s} {r['tilt']:5.1f} {r['heading']:5.0f} {r['distortion']:18s} {r['mode']:8s} {median:>7s} {worst:>7s}  {'yes' if r['pass'] else 'NO'} {r['note']}")
    print()
    print(f"target: median <= {MEDIAN_TARGET_MM} mm, max <= {MAX_TARGET_MM} mm over the play area (20 mm grid)")
    for line in summarise(rows):
        print(line)
    print(f"({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
