"""The live-stream benchmark's scoring: the plays up to the window's end, matched with their rulings."""

import json

from benchmarks.live_stream import TAIL_SECONDS, _game, score


def _log(path, rows):
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")


def _play(t, card, pile=1):
    return {"type": "play", "t": t, "frame": int(t * 30), "player": "A", "pile": pile, "card": card, "on": "7C", "legal": True}


def test_a_play_just_inside_the_window_ruled_just_past_it_is_found_and_one_past_it_not_invented(tmp_path):
    end = 16.0
    window = end - TAIL_SECONDS
    _log(tmp_path / "truth.jsonl", [_play(3.0, "8C"), _play(window - 0.015, "6H"), _play(window + 0.2, "5H", pile=0)])
    _log(tmp_path / "events.jsonl", [_play(3.01, "8C"), _play(window + 0.002, "6H"), _play(window + 0.21, "5H", pile=0),
                                     {"type": "notice", "t": end, "frame": 480, "message": "ended"}])
    scored = score(tmp_path, tmp_path / "events.jsonl", 30)
    assert (scored["plays"], scored["found"], scored["invented"], scored["all_right"]) == (2, 2, 0, 2)


def test_a_ruling_in_the_window_with_no_play_is_invented(tmp_path):
    _log(tmp_path / "truth.jsonl", [_play(3.0, "8C")])
    _log(tmp_path / "events.jsonl", [_play(3.01, "8C"), _play(9.0, "4D", pile=0),
                                     {"type": "notice", "t": 16.0, "frame": 480, "message": "ended"}])
    scored = score(tmp_path, tmp_path / "events.jsonl", 30)
    assert (scored["found"], scored["invented"]) == (1, 1)


def test_games_are_given_as_seed_seconds_and_frame_rate():
    assert _game("6:12:60") == (6, 12.0, 60) and _game("1:16") == (1, 16.0, 30)
