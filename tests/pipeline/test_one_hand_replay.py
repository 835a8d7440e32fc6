"""A play made with the other hand, in a rendered game refereed end to end with the shipped models."""

import json
from dataclasses import replace

import pytest

from referee.pipeline.run import replay
from referee.sim.config import SimConfig
from referee.sim.game import simulate_game
from referee.synth.render import render_game

#: A plays 2C and 8H with the right hand, then KC with the left at 4.98 s (B plays with the right throughout)
SEED, SECONDS = 110, 6.0


def _events(path, kind):
    return [event for event in map(json.loads, path.read_text().splitlines()) if event["type"] == kind]


@pytest.mark.slow
def test_a_play_with_the_other_hand_is_called_and_still_ruled(tmp_path):
    script = simulate_game(SEED, config=replace(SimConfig(), two_hands_rate=0.12))
    render_game(script, tmp_path, fps=30, size="720p", seconds=SECONDS, seed=SEED, workers=2)
    replay(tmp_path / "video.mp4", tmp_path / "corners.json", tmp_path / "events.jsonl")
    truth = _events(tmp_path / "truth.jsonl", "violation")
    assert [(event["player"], event["kind"]) for event in truth] == [("A", "two_hands")]
    called = _events(tmp_path / "events.jsonl", "violation")
    assert [(event["player"], event["kind"]) for event in called] == [("A", "two_hands")]
    assert abs(called[0]["t"] - truth[0]["t"]) < 0.1
    plays = {(event["player"], event["card"]) for event in _events(tmp_path / "events.jsonl", "play")}
    assert ("A", "KC") in plays  # the breach is called; the card still counts as played
