"""`referee replay` in-process, as a user runs it."""

import pytest

from referee.cli.main import main
from referee.rules.events import EventType, read_event_log
from tests.piles.drawn_table import ColourNamer
from tests.pipeline.drawn_games import write_mid_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return write_mid_game(tmp_path_factory.mktemp("cli_game"))


@pytest.fixture
def colour_namer(monkeypatch):
    monkeypatch.setattr("referee.pipeline.run.load_namer", lambda models=None: ColourNamer())


def test_replay_writes_the_log_and_the_report(game, tmp_path, capsys, colour_namer):
    video, calibration = game
    code = main(["replay", str(video), "--calibration", str(calibration), "--events", str(tmp_path / "out.jsonl"),
                 "--report", str(tmp_path / "report")])
    out = capsys.readouterr()
    assert code == 0
    assert "refereed 168 frames" in out.out and "report:" in out.out
    assert "\r" not in out.err  # no progress bar when stderr is not a terminal
    events = read_event_log(str(tmp_path / "out.jsonl"))
    assert sum(e.type is EventType.PLAY for e in events) == 5
    page = (tmp_path / "report" / "index.html").read_text()
    assert "timeline.png" in page and "touched first" in page and "ILLEGAL" in page
    assert (tmp_path / "report" / "call001_at.png").stat().st_size > 1000


@pytest.mark.parametrize("args, message", [
    (["replay", "missing.mp4", "--calibration", "cal.yaml", "--events", "out.jsonl"], "not found"),
    (["replay", "{video}", "--calibration", "missing.yaml", "--events", "out.jsonl"], "calibration file"),
    (["replay", "{video}", "--calibration", "{calibration}", "--events", "no/such/folder/out.jsonl"], "does not exist"),
])
def test_bad_input_is_one_error_line(game, tmp_path, capsys, colour_namer, monkeypatch, args, message):
    video, calibration = game
    monkeypatch.chdir(tmp_path)
    code = main([arg.format(video=video, calibration=calibration) for arg in args])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_missing_models_are_reported_not_crashed(game, tmp_path, capsys):
    video, calibration = game
    code = main(["replay", str(video), "--calibration", str(calibration), "--events", str(tmp_path / "o.jsonl"),
                 "--models", str(tmp_path / "no-models")])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1
