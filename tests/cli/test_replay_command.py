"""`referee replay` in-process, as a user runs it."""

import pathlib

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


def test_progress_bar_is_drawn_on_a_terminal(game, tmp_path):
    """A real pseudo-terminal on stderr: the bar is redrawn in place; the log is the same as without it."""
    import os
    import pty
    import subprocess
    import sys
    import textwrap

    video, calibration = game
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(pathlib.Path(__file__).resolve().parents[2])!r})
        import referee.pipeline.run as run
        from tests.piles.drawn_table import ColourNamer
        run.load_namer = lambda models=None: ColourNamer()
        from referee.cli.main import main
        sys.exit(main(["replay", {str(video)!r}, "--calibration", {str(calibration)!r}, "--events", {str(tmp_path / "tty.jsonl")!r}]))
    """)
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", script], stderr=follower, stdout=subprocess.PIPE)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert process.wait(timeout=120) == 0
    os.close(leader)
    assert b"\rrefereeing [" in seen and b"168/168 frames" in seen
    assert sum(1 for line in (tmp_path / "tty.jsonl").read_text().splitlines() if '"play"' in line) == 5
