"""`referee simulate`, run in-process as a user would."""

import json
import math
import sys

import pytest

from referee.cli.main import main
from referee.rules.events import read_event_log


def test_simulate_with_a_seed_prints_the_whole_games_event_log(capsys):
    assert main(["simulate", "--seed", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    events = [json.loads(line) for line in lines]
    assert events[0]["type"] == "round_start" and events[-1]["type"] in ("game_end", "notice")
    assert all(event["frame"] == math.ceil(event["t"] * 30 - 1e-9) for event in events)
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)
    assert {"spit", "play", "stall", "round_end"} <= {e["type"] for e in events}


def test_events_only_writes_truth_jsonl_with_frames_at_the_given_fps(tmp_path, capsys):
    out = tmp_path / "game"
    assert main(["simulate", "--seed", "7", "--out", str(out), "--events-only", "--fps", "60"]) == 0
    events = read_event_log(str(out / "truth.jsonl"))
    assert events and all(event.frame == math.ceil(event.t * 60 - 1e-9) for event in events)
    assert events[-1].type.value in ("game_end", "notice")
    assert "truth.jsonl" in capsys.readouterr().out
    assert not (out / "video.mp4").exists()


def test_the_same_seed_writes_the_same_log(tmp_path):
    for name in ("one", "two"):
        assert main(["simulate", "--seed", "11", "--out", str(tmp_path / name), "--events-only"]) == 0
    assert (tmp_path / "one" / "truth.jsonl").read_text() == (tmp_path / "two" / "truth.jsonl").read_text()


def test_seconds_limits_the_log_to_the_first_seconds(capsys):
    assert main(["simulate", "--seed", "3", "--seconds", "20"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events and max(e["t"] for e in events) <= 20


def test_the_scoring_variant_reports_points(capsys):
    assert main(["simulate", "--seed", "2", "--win-rule", "scoring"]) == 0
    ends = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"round_end"' in line]
    assert ends and all("scores" in end and "points" in end for end in ends)


@pytest.mark.parametrize("argv", [["--seed", "-3"], ["--seed", "x"], ["--seed", "1", "--fps", "25"], ["--seed", "1", "--seconds", "0"]])
def test_bad_arguments_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", *argv])
    assert exit_.value.code == 2 and "error" in capsys.readouterr().err


def test_an_output_folder_that_cannot_be_made_is_one_error_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["simulate", "--seed", "1", "--out", str(blocker / "game"), "--events-only"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot create output folder") and "\n" not in err


def test_without_the_renderer_rendering_says_it_is_not_built_yet(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "referee.synth.render", None)  # makes the import fail
    assert main(["simulate", "--seed", "1", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "not built yet" in err and "--events-only" in err


@pytest.mark.slow
def test_simulate_renders_the_first_seconds_of_a_game(tmp_path):
    pytest.importorskip("referee.synth.render")
    out = tmp_path / "video"
    assert main(["simulate", "--seed", "4", "--out", str(out), "--seconds", "2"]) == 0
    assert (out / "video.mp4").stat().st_size > 0
    corners = json.loads((out / "corners.json").read_text())["play_area_corners_px"]
    assert len(corners) == 4
    assert read_event_log(str(out / "truth.jsonl"))


def test_simulate_parallax_renders_with_hands_seen_where_the_camera_sees_them(tmp_path, monkeypatch):
    import referee.synth.render as render

    seen = {}
    real = render.TableRenderer

    def spy(*args, **kwargs):
        renderer = real(*args, **kwargs)
        seen["parallax"] = renderer.parallax
        return renderer

    monkeypatch.setattr(render, "TableRenderer", spy)
    monkeypatch.delenv("REFEREE_PARALLAX", raising=False)
    out = tmp_path / "video"
    assert main(["simulate", "--seed", "4", "--out", str(out), "--seconds", "0.2", "--parallax"]) == 0
    assert seen["parallax"] is True and (out / "video.mp4").stat().st_size > 0
    assert main(["simulate", "--seed", "4", "--out", str(out), "--seconds", "0.2"]) == 0
    assert seen["parallax"] is False
