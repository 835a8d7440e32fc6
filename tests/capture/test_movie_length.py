"""The playing length an MP4 or MOV file's movie header gives, read without decoding."""

import struct

import cv2
import numpy as np
import pytest

from referee.capture.movie_length import movie_seconds


def _box(kind: bytes, content: bytes) -> bytes:
    return struct.pack(">I4s", 8 + len(content), kind) + content


def _header(version: int, timescale: int, duration: int) -> bytes:
    times = struct.pack(">QQIQ", 0, 0, timescale, duration) if version == 1 else struct.pack(">IIII", 0, 0, timescale, duration)
    return _box(b"mvhd", bytes([version, 0, 0, 0]) + times + bytes(80))


@pytest.mark.parametrize("version", [0, 1])
def test_the_movie_header_gives_the_length_whichever_its_version(tmp_path, version):
    path = tmp_path / "clip.mp4"
    path.write_bytes(_box(b"ftyp", b"isom\0\0\0\0") + _box(b"mdat", bytes(64)) + _box(b"moov", _box(b"free", b"") + _header(version, 600, 3700)))
    assert movie_seconds(path) == pytest.approx(3700 / 600)


def test_a_video_written_by_opencv_plays_for_its_frames(tmp_path):
    path = tmp_path / "clip.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30, (64, 48))
    for index in range(45):
        writer.write(np.full((48, 64, 3), index, np.uint8))
    writer.release()
    assert movie_seconds(path) == pytest.approx(1.5, abs=1 / 30)


@pytest.mark.parametrize("content", [
    b"RIFF\0\0\0\0AVI LIST",                                   # an AVI
    b"this is not a video at all" * 10,                         # text
    _box(b"ftyp", b"isom") + struct.pack(">I4s", 4000, b"moov"),  # a box running past the file's end
    _box(b"ftyp", b"isom") + _box(b"mdat", bytes(16)),          # no movie box at all (cut before its index)
    _box(b"ftyp", b"isom") + _box(b"moov", _header(0, 0, 100)),  # a header with no time scale
    b"",
], ids=["avi", "text", "overrun", "no_moov", "no_timescale", "empty"])
def test_a_file_without_a_readable_movie_header_has_no_length(tmp_path, content):
    path = tmp_path / "clip.mp4"
    path.write_bytes(content)
    assert movie_seconds(path) is None


def test_a_missing_file_has_no_length(tmp_path):
    assert movie_seconds(tmp_path / "gone.mp4") is None
