"""How long an MP4 or MOV file says it plays, from its movie header (`mvhd`), read without decoding.

A clip cut from a recording without re-encoding (`ffmpeg -ss 5 -t 6 -c copy`, a phone's trim) starts on
the key frame before the cut and keeps an edit list that hides the frames before it. The decoder shows
only the frames of the cut, but the frame count OpenCV reports counts the hidden ones too, so a whole
clip looked truncated. The movie header gives the length the clip plays for, edits applied.
"""

from __future__ import annotations

import pathlib
import struct

#: The boxes an ISO base media file may begin with (anything else: not such a file).
_FIRST_BOXES = (b"ftyp", b"wide", b"free", b"skip", b"mdat", b"moov")
_MOVIE = b"moov"
_HEADER = b"mvhd"


def movie_seconds(path: str | pathlib.Path) -> float | None:
    """The playing length (s) the file's movie header gives, or None: not an ISO base media file (AVI,
    Matroska, a stream), no header where one is expected, or a header that cannot be read."""
    try:
        with open(path, "rb") as file:
            size = file.seek(0, 2)
            file.seek(0)
            first = _box_at(file, size)
            if first is None or first[0] not in _FIRST_BOXES:
                return None
            movie = _find(file, 0, size, _MOVIE)
            if movie is None:
                return None
            header = _find(file, movie[0], movie[1], _HEADER)
            return None if header is None else _header_seconds(file, header[0])
    except (OSError, struct.error, ValueError):
        return None


def _box_at(file, end: int) -> tuple[bytes, int, int] | None:
    """(type, start of its content, end) of the box at the file's position, or None past `end`."""
    start = file.tell()
    if start + 8 > end:
        return None
    size, kind = struct.unpack(">I4s", file.read(8))
    content = start + 8
    if size == 1:  # a 64-bit size follows
        size = struct.unpack(">Q", file.read(8))[0]
        content += 8
    elif size == 0:  # to the end of the file
        size = end - start
    if size < content - start or start + size > end:
        raise ValueError("box overruns its parent")
    return kind, content, start + size


def _find(file, start: int, end: int, kind: bytes) -> tuple[int, int] | None:
    """(content start, end) of the first box of `kind` among the boxes from `start` to `end`."""
    file.seek(start)
    while True:
        box = _box_at(file, end)
        if box is None:
            return None
        if box[0] == kind:
            return box[1], box[2]
        file.seek(box[2])


def _header_seconds(file, content: int) -> float | None:
    file.seek(content)
    version = file.read(4)[0]
    if version == 1:
        _, _, timescale, duration = struct.unpack(">QQIQ", file.read(28))
    else:
        _, _, timescale, duration = struct.unpack(">IIII", file.read(16))
    if timescale == 0 or duration in (0, 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF):
        return None
    return duration / timescale
