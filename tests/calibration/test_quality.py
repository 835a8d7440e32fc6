import numpy as np
import pytest

from referee.calibration import Verdict, calibrate_image
from referee.calibration.quality import BLUR_FATAL_PX, BLUR_WARN_PX
from tests.calibration.conftest import BARREL, rendered


def test_a_sharp_overhead_1080p_frame_at_30_fps_is_good():
    frame, _ = rendered(0, image_size=(1920, 1080))
    _, report = calibrate_image(frame, fps=30.0)
    assert report.verdict is Verdict.GOOD, report.lines()
    assert report.findings == ()
    assert report.px_per_mm_far_edge > 1.2
    assert max(report.blur_px.values()) < BLUR_WARN_PX
    assert report.reprojection_rms_mm < 0.5


@pytest.mark.parametrize(
    "fps, verdict, message",
    [
        (60.0, Verdict.GOOD, None),
        (29.97, Verdict.GOOD, None),
        (18.0, Verdict.USABLE, "18 fps: cards will blur and touch order is only resolved to 56 ms; use 30 fps or more"),
        (10.0, Verdict.NOT_USABLE, "10 fps: fast plays fall between frames; use 30 fps or more"),
    ],
)
def test_frame_rate_verdicts(fps, verdict, message):
    frame, _ = rendered(0, image_size=(1920, 1080))
    _, report = calibrate_image(frame, fps=fps)
    assert report.verdict is verdict
    if message:
        assert message in [f.message for f in report.findings]


@pytest.mark.parametrize("sigma, verdict", [(1.8, Verdict.USABLE), (3.0, Verdict.NOT_USABLE)])
def test_blurred_markers_lower_the_verdict_and_say_how_to_fix_it(sigma, verdict):
    frame, _ = rendered(0, image_size=(1920, 1080), blur_sigma_px=sigma)
    _, report = calibrate_image(frame, fps=30.0)
    assert report.verdict is verdict, report.lines()
    worst = max(report.blur_px.values())
    assert worst == pytest.approx(sigma, rel=0.25)
    assert worst > BLUR_WARN_PX
    assert any("blurred over" in f.message and "focus the camera" in f.message for f in report.findings)
    assert (worst > BLUR_FATAL_PX) == (verdict is Verdict.NOT_USABLE)


def test_a_far_small_play_area_is_not_usable_for_resolution():
    frame, _ = rendered(30, image_size=(640, 360), heading_deg=35)
    _, report = calibrate_image(frame, fps=30.0)
    assert report.verdict is Verdict.NOT_USABLE
    assert any("px/mm at" in f.message and "cannot be read" in f.message for f in report.findings if f.severity == "fatal")


@pytest.mark.parametrize("area, verdict", [((850, 600), Verdict.USABLE), ((1000, 600), Verdict.NOT_USABLE), ((800, 700), Verdict.NOT_USABLE)])
def test_wrong_area_shows_as_a_bad_fit(area, verdict):
    frame, _ = rendered(10, image_size=(1920, 1080))
    _, report = calibrate_image(frame, area=area, fps=30.0)
    assert report.verdict is verdict
    assert "check --area" in report.findings[0].message


def test_distortion_cost_is_reported():
    frame, _ = rendered(15, BARREL)
    _, report = calibrate_image(frame)
    assert report.distortion_source.startswith("estimated from the markers")
    assert report.distortion_cost_mm > 3.0
    assert any("calibrate lens" in note for note in report.notes)


def test_report_lines_and_dict_agree():
    frame, _ = rendered()
    _, report = calibrate_image(frame, fps=25.0)
    data = report.to_dict()
    assert data["verdict"] == report.verdict.value
    assert data["warnings"] == [f.message for f in report.findings if f.severity == "warning"]
    text = "\n".join(report.lines())
    assert text.startswith(f"verdict: {report.verdict.value}")
    assert "frame rate: 25.0 fps" in text
    assert np.isfinite(data["px_per_mm_far_edge"])
