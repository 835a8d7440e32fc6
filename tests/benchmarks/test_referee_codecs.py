"""The encoders of benchmarks.referee_codecs: each copy is the same game, as that codec stores it."""

import cv2
import numpy as np
import pytest

from benchmarks.referee_codecs import CODECS, encoded_copy

pytest.importorskip("imageio_ffmpeg")

FRAMES = 12


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A 12-frame 160x120 'game': a white card sliding over green felt, with the files a render holds."""
    folder = tmp_path_factory.mktemp("game")
    writer = cv2.VideoWriter(str(folder / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30, (160, 120))
    for index in range(FRAMES):
        frame = np.full((120, 160, 3), (40, 110, 30), np.uint8)
        cv2.rectangle(frame, (20 + 6 * index, 30), (60 + 6 * index, 90), (235, 235, 235), -1)
        writer.write(frame)
    writer.release()
    for name in ("corners.json", "truth.jsonl", "labels.jsonl", "render.json"):
        (folder / name).write_text("{}\n")
    return folder


def _frames(path):
    capture = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, image = capture.read()
        if not ok:
            return frames
        frames.append(image)


@pytest.mark.parametrize("codec", list(CODECS))
def test_each_copy_holds_every_frame_of_the_game_and_its_truth(game, tmp_path, codec):
    copy = encoded_copy(game, tmp_path / codec, codec)
    original, encoded = _frames(game / "video.mp4"), _frames(copy / "video.mp4")
    assert len(encoded) == FRAMES
    # each frame is likest the original frame of its own index: none dropped, doubled or out of order
    for index, frame in enumerate(encoded):
        differences = [np.abs(frame.astype(int) - other.astype(int)).mean() for other in original]
        assert int(np.argmin(differences)) == index and differences[index] < 3.0
    assert (copy / "truth.jsonl").read_text() == (game / "truth.jsonl").read_text()
    if codec == "mp4v":
        assert (copy / "video.mp4").read_bytes() == (game / "video.mp4").read_bytes()
