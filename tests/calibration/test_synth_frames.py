"""Calibration on the synthetic table renderer's own frames (cards, hands, lighting, its camera model)."""

import numpy as np
import pytest

from referee.calibration import calibrate_image

synth_frames = pytest.importorskip("referee.synth.frames")
example = pytest.importorskip("referee.synth.example_script")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_renderer_frames_calibrate_within_the_accuracy_budget(seed):
    renderer = synth_frames.TableRenderer(example.example_script(0), seed=seed, size="720p")
    frame, _ = renderer.render(0)
    calibration, report = calibrate_image(frame)
    camera = renderer.camera
    xs, ys = np.meshgrid(np.linspace(0, 800, 41), np.linspace(0, 600, 31))
    grid = np.stack([xs.ravel(), ys.ravel()], -1)
    errors = np.linalg.norm(calibration.image_to_table(camera.project(grid)) - grid, axis=1)
    assert np.median(errors) < 2.0 and errors.max() < 5.0
    corners_json = np.array(camera.corners_px(calibration.layout))  # what the renderer writes to corners.json
    assert np.abs(calibration.play_area_corners_px - corners_json).max() < 2.0
    assert report.markers_seen == (0, 1, 2, 3)
