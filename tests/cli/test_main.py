import pytest

from referee.cli.main import COMMANDS, main


def test_help_lists_every_command_of_the_interface(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    for command in ("calibrate", "replay", "live", "classify", "simulate", "board", "demo"):
        assert command in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_prints_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["no-such-command"], ["replay"], ["simulate", "--seed", "x"], ["classify", "--bogus"]],
)
def test_a_bad_command_line_is_one_error_line_and_a_non_zero_exit(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")


def _run_referee(*argv: str) -> "subprocess.CompletedProcess[str]":
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "referee.cli.main", *argv], capture_output=True, text=True, timeout=120)


def test_opencv_and_ffmpeg_warnings_never_come_before_the_one_error_line(tmp_path):
    broken_png = tmp_path / "broken.png"
    broken_png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    not_a_video = tmp_path / "game.mp4"
    not_a_video.write_text("not a video")
    corners = tmp_path / "corners.json"
    corners.write_text('{"play_area_corners_px": [[100, 100], [1100, 100], [1100, 650], [100, 650]]}')
    runs = [
        _run_referee("calibrate", "--image", str(broken_png), "--out", str(tmp_path / "cal.yaml")),
        _run_referee("replay", str(not_a_video), "--calibration", str(corners), "--events", str(tmp_path / "e.jsonl")),
    ]
    for run in runs:
        assert run.returncode != 0
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    assert not (tmp_path / "cal.yaml").exists()
