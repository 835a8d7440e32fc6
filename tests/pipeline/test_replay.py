"""End-to-end replays of short drawn games against their truth."""

import json
import subprocess

import pytest

from referee.errors import CalibrationError, InputFileError, VideoError
from referee.pipeline.run import replay
from referee.rules.events import EventType, read_event_log
from tests.piles.drawn_table import ColourNamer, write_video
from tests.pipeline.drawn_games import PLAYS, mid_game_table, write_mid_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mid_game")
    video, calibration = write_mid_game(folder)
    return folder, video, calibration


def test_a_clip_starting_mid_game_is_refereed_from_its_visible_layout(game, tmp_path):
    _, video, calibration = game
    result = replay(video, calibration, tmp_path / "events.jsonl", namer=ColourNamer())
    events = read_event_log(str(tmp_path / "events.jsonl"))
    plays = [e for e in events if e.type is EventType.PLAY]
    assert [(e["player"], e["card"], e["pile"], e["legal"]) for e in plays] == \
        [(player, card, pile, legal) for player, card, _, pile, _, legal in PLAYS]
    assert all(abs(e.t - truth[4]) < 1 / 30 for e, truth in zip(plays, PLAYS))
    assert not [e for e in events if e.type is EventType.SPIT]  # nothing invented for before the clip
    touch = [e for e in events if e.type is EventType.TOUCH_ORDER]
    assert [(e["pile"], e["first"]) for e in touch] == [(1, "B")]
    assert result.frames == 168


@pytest.mark.parametrize("codec", [
    ["-c:v", "libx264", "-crf", "23", "-bf", "3", "-pix_fmt", "yuv420p"],   # a phone, or `ffmpeg -i`: B-frames
    ["-c:v", "libx265", "-crf", "28", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"],  # a recent phone
], ids=["h264", "hevc"])
def test_a_clip_as_phones_record_it_is_refereed_as_the_original(game, tmp_path, codec):
    """H.264 and H.265 store frames out of order (B-frames): each is still taken at its own time."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    _, video, calibration = game
    encoded = tmp_path / "phone.mp4"
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-i", str(video), *codec, str(encoded)],
                   check=True)
    replay(video, calibration, tmp_path / "original.jsonl", namer=ColourNamer())
    result = replay(encoded, calibration, tmp_path / "phone.jsonl", namer=ColourNamer())
    original, phone = (read_event_log(str(tmp_path / name)) for name in ("original.jsonl", "phone.jsonl"))
    assert [(e.type, e.get("player"), e.get("card")) for e in phone] == [(e.type, e.get("player"), e.get("card")) for e in original]
    assert all(abs(a.t - b.t) < 0.5 / 30 for a, b in zip(phone, original))
    assert result.frames == 168 and not result.notices


def test_a_recording_with_the_camera_blind_a_while_is_taken_up_again_after_it(game, tmp_path):
    # a live recording whose camera sent nothing for 1.5 s (frames 70-114, as its timestamps say): the 10H
    # and JH laid on pile 1 meanwhile are not ruled, least of all as the JH played on the 9C it covered
    events = _replayed_recording(game, tmp_path, kept=lambda index: not 70 <= index < 115)
    plays = [(e["player"], e["card"], e["legal"]) for e in events if e.type is EventType.PLAY]
    assert plays == [("A", "6S", True), ("A", "KD", False)]
    stall = next(e for e in events if e.type is EventType.NOTICE and e["kind"] == "stall")
    taken_up = [e for e in events if e.type is EventType.ROUND_START][1:]
    assert len(taken_up) == 1 and taken_up[0]["round"] == 1 and taken_up[0]["mid_round"] and taken_up[0].t > stall.t + 1.4


def test_a_recording_whose_camera_slowed_down_a_while_says_so_once_and_is_refereed_the_same(game, tmp_path):
    # every other frame gone from 1 s to 2.7 s, as a webcam in dim light or a phone's variable frame rate
    # records: 15 fps there, the times true
    events = _replayed_recording(game, tmp_path, kept=lambda index: not (30 <= index < 80 and index % 2))
    assert [(e["player"], e["card"], e["pile"], e["legal"]) for e in events if e.type is EventType.PLAY] == \
        [(player, card, pile, legal) for player, card, _, pile, _, legal in PLAYS]
    said = [e["kind"] for e in events if e.type is EventType.NOTICE and e["kind"] in ("dropped", "rate_changed")]
    assert said == ["dropped"] * 5 + ["rate_changed"] * 2  # slowed, and back to 30 fps: not 25 drops


def _replayed_recording(game, tmp_path, kept):
    """The events of the drawn game recorded as `referee live --record` keeps a camera's frames (each with its
    true time), only those `kept(index)` allows, and replayed."""
    import cv2

    from referee.capture import Frame, Recorder

    _, video, calibration = game
    recording = Recorder(tmp_path / "recording.avi", fps=30)
    capture = cv2.VideoCapture(str(video))
    for index in range(168):
        ok, image = capture.read()
        if ok and kept(index):
            recording.write(Frame(index, index / 30, image))
    recording.close()
    replay(tmp_path / "recording.avi", calibration, tmp_path / "events.jsonl", namer=ColourNamer())
    return read_event_log(str(tmp_path / "events.jsonl"))


def test_the_same_video_gives_a_byte_identical_log(game, tmp_path):
    _, video, calibration = game
    replay(video, calibration, tmp_path / "one.jsonl", namer=ColourNamer())
    replay(video, calibration, tmp_path / "two.jsonl", namer=ColourNamer())
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_a_truncated_video_ends_cleanly_with_the_log_intact(tmp_path):
    video = tmp_path / "game.avi"
    write_video(mid_game_table(), video, fps=30, seconds=3.2, fourcc="MJPG")
    data = video.read_bytes()
    video.write_bytes(data[: int(len(data) * 0.8)])
    (tmp_path / "corners.json").write_text(_corners())
    warnings = []
    replay(video, tmp_path / "corners.json", tmp_path / "events.jsonl", namer=ColourNamer(), warn=warnings.append)
    events = read_event_log(str(tmp_path / "events.jsonl"))
    assert len(warnings) == 1 and "truncated" in warnings[0]
    assert events[-1].type is EventType.NOTICE and "truncated" in events[-1]["message"]
    assert [e["card"] for e in events if e.type is EventType.PLAY] == ["6S"]  # the play before the cut


def test_a_crash_loses_nothing_already_ruled(game, tmp_path):
    _, video, calibration = game

    ruled = []

    def crash(frame, session):
        if frame.index == 130:  # after the fourth play was ruled, before the fifth
            ruled.extend(session.ruled_at)
            raise RuntimeError("power cut")
    with pytest.raises(RuntimeError):
        replay(video, calibration, tmp_path / "events.jsonl", namer=ColourNamer(), on_frame=crash)
    events = read_event_log(str(tmp_path / "events.jsonl"))
    assert [e["card"] for e in events if e.type is EventType.PLAY] == ["6S", "10H", "JH", "7D"]
    assert all(at <= 130 for _, at in ruled)


def _corners() -> str:
    from tests.piles.drawn_table import OFFSET, SCALE
    from referee.table.layout import TableLayout
    return json.dumps({"play_area_corners_px": [[OFFSET[0] + SCALE * x, OFFSET[1] + SCALE * y] for x, y in TableLayout().corners()]})


@pytest.mark.parametrize("content, error, message", [
    ('{"play_area_corners_px": [[0, 0], [10, 0], [10, 10]]}', CalibrationError, "4"),
    ('{"play_area_corners_px": [[-5000, -5000], [-4000, -5000], [-4000, -4000], [-5000, -4000]]}', CalibrationError, "outside"),
    ('{"play_area_corners_px": [[0, 0], [10, 0], [10, 10], [0, 10]]}', CalibrationError, "too small to read"),
    ("not: [valid", CalibrationError, "YAML"),
    ('{"something": 1}', CalibrationError, "play_area_corners_px"),
    (None, InputFileError, "not found"),
])
def test_a_bad_calibration_is_a_clear_error_and_no_log_is_started(game, tmp_path, content, error, message):
    _, video, _ = game
    calibration = tmp_path / "cal.yaml"
    if content is not None:
        calibration.write_text(content)
    with pytest.raises(error, match=message):
        replay(video, calibration, tmp_path / "events.jsonl", namer=ColourNamer())
    assert not (tmp_path / "events.jsonl").exists()


def test_a_missing_video_is_a_clear_error(tmp_path):
    with pytest.raises(VideoError, match="not found"):
        replay(tmp_path / "none.mp4", tmp_path / "cal.yaml", tmp_path / "events.jsonl", namer=ColourNamer())


@pytest.mark.parametrize("shift_px, said", [((0, 0), False), ((25, 12), True)])
def test_a_calibration_made_for_another_setup_is_said_once_and_the_game_still_refereed(tmp_path, shift_px, said):
    """The markers in the video say where the play area lies: a calibration 25 px off (about 50 mm in the
    built-in clip) is said on the warning stream and in the log, and the game is refereed all the same."""
    from referee.demo import CLIP
    from referee.pipeline.calibration_input import load_calibration
    from referee.pipeline.label_namer import LabelNamer

    data = json.loads((CLIP / "corners.json").read_text())
    data["play_area_corners_px"] = [[x + shift_px[0], y + shift_px[1]] for x, y in data["play_area_corners_px"]]
    calibration = tmp_path / "corners.json"
    calibration.write_text(json.dumps(data))
    namer = LabelNamer(CLIP / "labels.json.gz", load_calibration(CLIP / "corners.json", image_size=(960, 540)))
    warnings: list[str] = []
    replay(CLIP / "video.mp4", calibration, tmp_path / "events.jsonl", namer=namer, warn=warnings.append)
    events = read_event_log(str(tmp_path / "events.jsonl"))
    off = [e for e in events if e.type is EventType.NOTICE and e.get("kind") == "calibration_off"]
    assert [e.frame for e in off] == ([0] if said else [])
    assert warnings == [e["message"] for e in off]
    assert not [e for e in events if e.get("kind") == "camera_moved"]
    assert [e for e in events if e.type is EventType.PLAY]
