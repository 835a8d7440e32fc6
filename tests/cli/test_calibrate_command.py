"""`referee calibrate` in-process: exit codes, one-line errors, and what is (not) written."""

import functools

import cv2
import numpy as np
import pytest
import yaml

from referee.cli.main import main
from tests.calibration.conftest import BARREL, rendered
from tests.calibration.synthetic import board_views
from tests.capture.rtsp_serving import h264_access_units, serve_rtsp

CORNERS_MM = np.array([[0, 0], [800, 0], [800, 600], [0, 600]], float)


def _write(path, image):
    cv2.imwrite(str(path), image)
    return str(path)


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err):
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_calibrate_from_an_image_writes_yaml_and_preview(tmp_path, capsys):
    frame, camera = rendered(15, BARREL, (1920, 1080))
    code, out, err = _run(["calibrate", "--image", _write(tmp_path / "f.png", frame), "--out", str(tmp_path / "cal.yaml"), "--fps", "30"], capsys)
    assert code == 0, err
    assert out.startswith("verdict: good") and "wrote" in out
    data = yaml.safe_load((tmp_path / "cal.yaml").read_text())
    assert np.abs(np.array(data["play_area_corners_px"]) - camera.project(CORNERS_MM)).max() < 1.0
    assert data["camera"]["image_size"] == [1920, 1080] and data["source"]["kind"] == "image"
    preview = cv2.imread(str(tmp_path / "cal.preview.png"))
    assert preview.shape[:2] == (720, 920)  # (600 + 2 * 60) x (800 + 2 * 60) mm at 1 px/mm


def test_calibrate_with_corners_and_area(tmp_path, capsys):
    frame, camera = rendered(15)
    corners = ";".join(f"{x:.2f},{y:.2f}" for x, y in camera.project(CORNERS_MM))
    code, out, err = _run(["calibrate", "--image", _write(tmp_path / "f.png", frame), "--out", str(tmp_path / "c.yaml"), "--corners", corners, "--area", "800x600", "--no-preview"], capsys)
    assert code == 0, err
    data = yaml.safe_load((tmp_path / "c.yaml").read_text())
    assert data["method"] == "corners" and data["quality"]["reprojection_rms_mm"] is None
    assert np.abs(np.array(data["play_area_corners_px"]) - camera.project(CORNERS_MM)).max() < 0.02
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "f.png"]


def _blank(tmp_path):
    return _write(tmp_path / "blank.png", np.full((720, 1280, 3), 128, np.uint8))


def _corrupt(tmp_path):
    path = tmp_path / "corrupt.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    return str(path)


@pytest.mark.parametrize(
    "make_image, extra, message",
    [
        (lambda d: _write(d / "f.png", rendered(markers=())[0]), [], "no play-area markers found"),
        (lambda d: _write(d / "f.png", rendered(markers=(0, 1, 3))[0]), [], "marker 2 (B's left corner (W, H)) not found (found 0, 1, 3): it is covered"),
        (lambda d: _write(d / "f.png", rendered(extra_markers=((1, (370.0, 270.0)),))[0]), [], "marker 1 (2 times) seen more than once"),
        (_blank, [], "the image is blank"),
        (_corrupt, [], "cannot be decoded"),
        (lambda d: str(d / "missing.png"), [], "not found: give a photo of the table"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--corners", "0,0;100,0;0,100;100,100"], "do not form a convex quadrilateral"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--corners", "0,0;100,0;100"], "expected --corners"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--area", "0x600"], "--area '0x600' has a zero or negative side"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--area", "big"], "--area expects WIDTHxHEIGHT"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--fps", "10"], "setup not usable: 10 fps"),
        (lambda d: _write(d / "f.png", rendered()[0]), ["--lens", "/nonexistent/lens.yaml"], "lens file /nonexistent/lens.yaml not found"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, make_image, extra, message):
    inputs = tmp_path / "in"
    inputs.mkdir()
    outputs = tmp_path / "out"
    outputs.mkdir()
    code, _, err = _run(["calibrate", "--image", make_image(inputs), "--out", str(outputs / "cal.yaml"), *extra], capsys)
    assert code == 1
    assert message in _one_line_error(err)
    assert list(outputs.iterdir()) == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["calibrate", "--out", "x.yaml"], "give exactly one of --image FRAME, --video FILE or --camera N (got none)"),
        (["calibrate", "--image", "a.png", "--video", "b.mp4", "--out", "x.yaml"], "(got --image, --video)"),
        (["calibrate", "--image", "a.png"], "give --out CAL.yaml"),
        (["calibrate", "--image", "a.png", "--out", "x.txt"], "--out must end in .yaml or .yml"),
        (["calibrate", "--image", "a.png", "--out", "/nonexistent/dir/x.yaml"], "folder /nonexistent/dir does not exist"),
        (["calibrate", "lens", "--out", "l.yaml"], "give exactly one of --video FILE or --images GLOB"),
        (["calibrate", "lens", "--images", "/nonexistent/*.png", "--out", "l.yaml"], "no images match"),
        (["calibrate", "print-target", "--paper", "A3", "--out", "t.pdf"], "--paper must be A4 or letter"),
        (["calibrate", "--video", "/nonexistent.mp4", "--out", "x.yaml"], "video /nonexistent.mp4 not found"),
    ],
)
def test_bad_arguments_are_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(argv, capsys)
    assert code == 1
    assert message in _one_line_error(err)
    assert list(tmp_path.iterdir()) == []


def test_not_usable_is_written_only_with_force(tmp_path, capsys):
    image = _write(tmp_path / "f.png", rendered()[0])
    code, out, _ = _run(["calibrate", "--image", image, "--out", str(tmp_path / "c.yaml"), "--fps", "10", "--force"], capsys)
    assert code == 0 and "verdict: not usable" in out
    assert yaml.safe_load((tmp_path / "c.yaml").read_text())["quality"]["verdict"] == "not usable"


@functools.lru_cache(maxsize=1)
def _video_frames():
    frames = []
    for index in range(12):
        frame, camera = rendered(20, image_size=(960, 540), seed=0)
        shaken = frame.copy()
        if index % 4 == 3:  # a few blurred frames the calibration must skip
            shaken = cv2.GaussianBlur(shaken, (0, 0), 2.5)
        frames.append(shaken)
    return frames, camera


def _write_video(path, fps=24.0):
    frames, camera = _video_frames()
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (960, 540))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()
    return camera


@pytest.mark.parametrize("flag", ["--video", "--camera"])
def test_calibrate_from_video_or_camera_url(tmp_path, capsys, flag):
    camera = _write_video(tmp_path / "clip.avi", fps=24.0)
    code, out, err = _run(["calibrate", flag, str(tmp_path / "clip.avi"), "--out", str(tmp_path / "c.yaml"), "--seconds", "1"], capsys)
    assert code == 0, err
    data = yaml.safe_load((tmp_path / "c.yaml").read_text())
    assert data["camera"]["fps"] == pytest.approx(24.0)
    assert data["source"]["kind"] == flag[2:] and data["source"]["frames_used"] >= 6
    assert np.abs(np.array(data["play_area_corners_px"]) - camera.project(CORNERS_MM)).max() < 1.5
    assert "24 fps: cards will blur" in out


def test_calibrate_from_an_rtsp_camera(tmp_path, capsys):
    camera = _write_video(tmp_path / "clip.avi", fps=24.0)
    with serve_rtsp(h264_access_units(tmp_path / "clip.avi", fps=24.0), fps=24.0) as url:
        code, out, err = _run(["calibrate", "--camera", url, "--out", str(tmp_path / "c.yaml"), "--seconds", "1"], capsys)
    assert code == 0, err
    data = yaml.safe_load((tmp_path / "c.yaml").read_text())
    assert data["camera"]["fps"] == pytest.approx(24.0, rel=0.05)
    assert data["source"] == {"kind": "camera", "path": url, "frames_read": 12, "frames_used": data["source"]["frames_used"]}
    assert np.abs(np.array(data["play_area_corners_px"]) - camera.project(CORNERS_MM)).max() < 1.5


def test_unreadable_camera_is_one_line(capsys, tmp_path):
    code, _, err = _run(["calibrate", "--camera", str(tmp_path / "no-such-stream.avi"), "--out", str(tmp_path / "c.yaml")], capsys)
    assert code == 1 and "cannot be opened" in _one_line_error(err)


@pytest.mark.slow
def test_lens_then_table_calibration(tmp_path, capsys):
    frames, _ = board_views((-0.3, 0.1, 0, 0, 0), image_size=(960, 540), count=8, seed=2)
    for index, frame in enumerate(frames):
        _write(tmp_path / f"board-{index}.png", frame)
    code, out, err = _run(["calibrate", "lens", "--images", str(tmp_path / "board-*.png"), "--out", str(tmp_path / "lens.yaml")], capsys)
    assert code == 0, err
    assert "over 8 views" in out
    lens = yaml.safe_load((tmp_path / "lens.yaml").read_text())
    assert lens["kind"] == "referee-lens-calibration" and len(lens["distortion"]) == 5
    frame, _ = rendered(10, image_size=(960, 540))
    code, out, err = _run(["calibrate", "--image", _write(tmp_path / "f.png", frame), "--lens", str(tmp_path / "lens.yaml"), "--out", str(tmp_path / "c.yaml")], capsys)
    assert code == 0, err
    assert "corrected from lens file" in out
    assert yaml.safe_load((tmp_path / "c.yaml").read_text())["lens"]["source"] == "lens-file"


def test_print_target(tmp_path, capsys):
    code, out, _ = _run(["calibrate", "print-target", "--paper", "letter", "--out", str(tmp_path / "t.pdf")], capsys)
    assert code == 0 and (tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")
    assert "100 mm ruler" in out


@pytest.mark.parametrize("action", [[], ["lens"], ["print-target"]])
def test_every_sub_action_prints_help(capsys, action):
    with pytest.raises(SystemExit) as exit_:
        main(["calibrate", *action, "--help"])
    assert exit_.value.code == 0
    assert "usage: referee calibrate" in capsys.readouterr().out
