"""Rendering a few seconds of a simulated game: truth, corners, labels and determinism."""

import json
import pathlib

import cv2
import numpy as np
import pytest

from referee.sim.game import simulate_game
from referee.synth.render import RenderError, first_frame_at, render_game
from referee.table.layout import TableLayout

SECONDS = 4.5
FPS = 15


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("game")
    render_game(simulate_game(1), out, fps=FPS, size="720p", seconds=SECONDS, seed=5, workers=2)
    return out


def _labels(folder: pathlib.Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]


def _truth(folder: pathlib.Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines()]


def test_outputs_exist_and_video_has_every_frame(rendered):
    for name in ("video.mp4", "truth.jsonl", "corners.json", "labels.jsonl", "contact_sheet.png"):
        assert (rendered / name).stat().st_size > 0, name
    video = cv2.VideoCapture(str(rendered / "video.mp4"))
    count = 0
    while video.read()[0]:
        count += 1
    assert count == int(SECONDS * FPS) == len(_labels(rendered))


def test_truth_is_the_scripts_truth_cut_at_seconds_with_first_frames(rendered):
    script_truth = [e for e in simulate_game(1).truth if first_frame_at(e.t, FPS) < SECONDS * FPS]
    truth = _truth(rendered)
    assert [e["type"] for e in truth] == [e.type.value for e in script_truth]
    assert any(e["type"] == "play" for e in truth)
    for event in truth:
        assert event["frame"] / FPS >= event["t"] > (event["frame"] - 1) / FPS


def test_every_play_lies_on_its_pile_in_the_next_settled_frame(rendered):
    labels = _labels(rendered)
    for event in _truth(rendered):
        if event["type"] not in ("play", "spit"):
            continue
        place = f"spit_pile:{event['pile']}"
        before = labels[event["frame"] - 1] if event["frame"] > 0 else {"cards": []}
        assert not any(c["card"] == event["card"] and c["place"] == place for c in before["cards"]), "on the pile before it touched"
        settled = None
        for frame in labels[event["frame"]: event["frame"] + FPS]:  # it settles within a second
            if not any(c["place"] == "moving" for c in frame["cards"]):
                settled = frame
                break
        if settled is None:
            continue  # hands busy for a whole second: nothing settled to look at
        on_pile = [c for c in settled["cards"] if c["card"] == event["card"] and c["place"] == place]
        assert on_pile, f"{event['card']} not on {place} in frame {settled['frame']}"
        assert on_pile[0]["face_up"] and on_pile[0]["occlusion"] < 1.0


@pytest.mark.parametrize("size", ["720p"])
def test_play_area_corners_match_the_markers_found_in_the_video(rendered, size):
    corners = np.array(json.loads((rendered / "corners.json").read_text())["play_area_corners_px"])
    video = cv2.VideoCapture(str(rendered / "video.mp4"))
    ok, frame = video.read()
    assert ok
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters())
    parameters = detector.getDetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector.setDetectorParameters(parameters)
    found, ids, _ = detector.detectMarkers(frame)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    layout = TableLayout()
    for quad, marker_id in zip(found, ids.ravel()):
        # the marker corner that sits on the play-area corner of the same number
        table_corners = layout.marker_corners(int(marker_id))
        outer = table_corners.index(layout.corners()[int(marker_id)])
        error = np.linalg.norm(quad.reshape(4, 2)[outer] - corners[int(marker_id)])
        assert error < 1.0, f"marker {marker_id}: {error:.2f} px off"


def test_labels_schema(rendered):
    labels = _labels(rendered)
    assert [frame["frame"] for frame in labels] == list(range(len(labels)))
    face_up_seen = 0
    for frame in labels:
        assert set(frame) == {"frame", "t", "cards", "hands"}
        for card in frame["cards"]:
            assert {"card", "face_up", "place", "quad", "occlusion"} <= set(card)
            assert np.array(card["quad"]).shape == (4, 2)
            assert 0.0 <= card["occlusion"] <= 1.0
            if card["face_up"]:
                face_up_seen += 1
                assert len(card["index_boxes"]) == 2
                for box in card["index_boxes"]:
                    x0, y0, x1, y1 = box["box"]
                    assert x0 < x1 and y0 < y1 and 0.0 <= box["visible"] <= 1.0
        for hand in frame["hands"]:
            assert hand["player"] in ("A", "B") and len(hand["box"]) == 4
    assert face_up_seen > 100


def test_same_seed_same_output_whatever_the_number_of_workers(rendered, tmp_path):
    render_game(simulate_game(1), tmp_path, fps=FPS, size="720p", seconds=SECONDS, seed=5, workers=1)
    for name in ("truth.jsonl", "labels.jsonl", "corners.json"):
        assert (tmp_path / name).read_bytes() == (rendered / name).read_bytes(), name
    first, again = cv2.VideoCapture(str(rendered / "video.mp4")), cv2.VideoCapture(str(tmp_path / "video.mp4"))
    while True:
        ok_first, frame_first = first.read()
        ok_again, frame_again = again.read()
        assert ok_first == ok_again
        if not ok_first:
            break
        assert np.array_equal(frame_first, frame_again)


@pytest.mark.parametrize("kwargs, message", [
    ({"fps": 7}, "fps must be"),
    ({"size": "4k"}, "unknown video size"),
    ({"seconds": 0}, "nothing to render"),
    ({"card_size": "tarot"}, "card size must be one of poker, bridge"),
])
def test_bad_arguments_are_referee_errors(tmp_path, kwargs, message):
    with pytest.raises(RenderError, match=message):
        render_game(simulate_game(1), tmp_path, **kwargs)
