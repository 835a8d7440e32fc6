"""The clip-openings benchmark's clips: cut a little before a play, of the length asked, truth on the clip's clock."""

import json

import cv2
import numpy as np

from benchmarks.clip_openings import CLIP_SECONDS, CLIPS_PER_GAME, cut_points, opening_second
from benchmarks.referee_accuracy import cut_clip


def test_clips_open_a_little_before_plays_picked_by_the_seed_and_fit_in_the_game(tmp_path):
    truth = tmp_path / "truth.jsonl"
    rows = [{"type": "play", "t": t, "frame": int(t * 30)} for t in (1.0, 3.5, 6.2, 9.9, 14.0, 21.0, 30.5)]
    rows.append({"type": "stall", "t": 8.0, "frame": 240})
    truth.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    points = cut_points(truth, seed=5, seconds=40.0)
    assert points == cut_points(truth, seed=5, seconds=40.0) and len(points) == CLIPS_PER_GAME
    plays = [row["t"] for row in rows if row["type"] == "play"]
    for start in points:
        assert any(0.12 - 0.01 <= t - start <= 0.6 + 0.01 for t in plays if 3.0 <= t <= 40.0 - CLIP_SECONDS)


def test_a_clip_of_a_given_length_keeps_its_frames_and_truth_on_its_own_clock(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    writer = cv2.VideoWriter(str(game / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (64, 48))
    for index in range(60):
        writer.write(np.full((48, 64, 3), index * 4, np.uint8))
    writer.release()
    rows = [{"type": "play", "t": t, "frame": int(t * 10)} for t in (0.5, 2.1, 3.0, 4.95, 5.2)]
    for name in ("truth.jsonl", "labels.jsonl"):
        (game / name).write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    (game / "corners.json").write_text("{}")
    (game / "render.json").write_text(json.dumps({"design": "plain"}))
    clip = cut_clip(game, 2.0, 3.0)
    capture = cv2.VideoCapture(str(clip / "video.mp4"))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == 30
    capture.release()
    kept = [json.loads(line) for line in (clip / "truth.jsonl").read_text().splitlines() if line]
    assert [(row["t"], row["frame"]) for row in kept] == [(0.1, 1), (1.0, 10), (2.95, 29)]
    assert cut_clip(game, 2.0, 3.0) == clip and (clip / "render.json").exists()


def test_the_first_second_is_scored_by_the_true_plays_matched_over_the_whole_clip(tmp_path):
    """A play laid at 1.04 s and found at 0.99 s is neither invented in the first second nor missed after it;
    a play of the first second named wrong is found and not right; one invented in it is counted."""
    def play(t, card, player="A"):
        return {"type": "play", "t": t, "frame": int(t * 30), "player": player, "pile": 0, "card": card, "on": "5S", "legal": True}

    truth = [play(0.3, "4D"), play(1.04, "3S", "B")]
    found = [play(0.31, "4H"), play(0.99, "3S", "B"), play(0.6, "9C", "B")]
    for name, rows in (("truth.jsonl", truth), ("events.jsonl", found)):
        (tmp_path / name).write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    assert opening_second(tmp_path) == {"true": 1, "found": 1, "all_right": 0, "extra": 1}
