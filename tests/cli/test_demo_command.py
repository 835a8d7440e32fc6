"""`referee demo` runs the whole referee on the built-in clip and shows its rulings against the truth."""

import pytest

from referee.cli.main import main
from referee.demo import CLIP
from referee.rules.events import EventType, read_event_log


def test_the_demo_clip_is_small_and_complete():
    assert (CLIP / "video.mp4").stat().st_size < 3_000_000
    for name in ("truth.jsonl", "corners.json", "labels.json.gz"):
        assert (CLIP / name).exists()


@pytest.mark.slow
def test_demo_with_the_shipped_models_prints_rulings_beside_the_truth_and_writes_the_report(tmp_path, capsys):
    code = main(["demo", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].startswith("truth") and "| referee" in out.splitlines()[0]
    assert "cards on spit piles: found" in out and "report:" in out
    assert (tmp_path / "events.jsonl").exists() and (tmp_path / "report" / "index.html").exists()
    for event in read_event_log(str(tmp_path / "events.jsonl")):
        if event.type in (EventType.PLAY, EventType.SPIT):
            assert event["pile"] in (0, 1) and event["player"] in ("A", "B")


@pytest.mark.slow
def test_demo_with_cards_named_from_labels_finds_the_plays(tmp_path, capsys):
    code = main(["demo", "--out", str(tmp_path), "--namer", "labels"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].startswith("truth") and "| referee" in out.splitlines()[0]
    assert "cards on spit piles: found" in out and "report:" in out
    events = read_event_log(str(tmp_path / "events.jsonl"))
    assert sum(e.type in (EventType.PLAY, EventType.SPIT) for e in events) >= 6
    assert (tmp_path / "report" / "index.html").exists()
