import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from referee.calibration.charuco import BOARD_SQUARE_MM, charuco_board
from referee.calibration.markers import detect_markers
from referee.calibration.pdf import write_pdf
from referee.calibration.targets import DPI, PAPERS_MM, mm, png_bytes, target_pages, write_targets
from referee.errors import ConfigError

PX_PER_MM = DPI / 25.4


@pytest.fixture(scope="module", params=["A4", "letter"])
def pages(request):
    return request.param, dict(target_pages(request.param))


def test_pages_are_the_paper_size_at_300_dpi(pages):
    paper, by_name = pages
    width, height = PAPERS_MM[paper]
    assert list(by_name) == ["overview", "marker-0", "marker-1", "marker-2", "marker-3", "lens-board"]
    for page in by_name.values():
        assert page.shape == (mm(height), mm(width))


@pytest.mark.parametrize("marker_id", [0, 1, 2, 3])
def test_each_marker_page_has_its_marker_at_60_mm_upright(pages, marker_id):
    _, by_name = pages
    found = detect_markers(cv2.resize(by_name[f"marker-{marker_id}"], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    assert [s.marker_id for s in found] == [marker_id]
    corners = found[0].corners_px * 2
    side_mm = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1) / PX_PER_MM
    assert np.allclose(side_mm, 60.0, atol=0.3)
    top_left, _, bottom_right, _ = corners
    assert top_left[0] < bottom_right[0] and top_left[1] < bottom_right[1]  # upright on the page


def test_the_ruler_is_100_mm(pages):
    _, by_name = pages
    page = by_name["marker-0"]
    rows = np.where((page < 128).sum(axis=1) > mm(95))[0]  # the ruler's baseline: a long dark row
    assert len(rows) > 0
    columns = np.where(page[rows[0]] < 128)[0]
    assert (columns.max() - columns.min()) / PX_PER_MM == pytest.approx(100.0, abs=0.5)


def test_the_lens_board_is_found_at_true_scale(pages):
    _, by_name = pages
    image = cv2.resize(by_name["lens-board"], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(charuco_board()).detectBoard(image)
    assert ids is not None and len(ids) == 24
    points = {int(i): c.ravel() * 2 for i, c in zip(ids.ravel(), corners)}
    assert np.linalg.norm(points[1] - points[0]) / PX_PER_MM == pytest.approx(BOARD_SQUARE_MM, abs=0.3)
    assert not any(s.marker_id in (0, 1, 2, 3) for s in detect_markers(image))  # never taken for a table marker


def test_pdf_is_well_formed_with_one_page_per_target(tmp_path):
    path = write_targets(tmp_path / "t.pdf", "A4")[0]
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert re.search(rb"/Type /Pages /Kids \[[^\]]*\] /Count 6", data)
    boxes = [tuple(map(float, box)) for box in re.findall(rb"/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]", data)]
    assert len(boxes) == 6 and all(abs(w - 595.28) < 0.5 and abs(h - 841.89) < 0.5 for w, h in boxes)  # A4 in points
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start : start + 4] == b"xref"
    offsets = [int(line[:10]) for line in data[start:].split(b"\n")[3:9]]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(b"%d 0 obj" % number)
    assert len(data) < 400_000


def test_pdf_image_decodes_back_to_the_page(tmp_path):
    page = np.full((40, 20), 255, np.uint8)
    page[10:20, 3:9] = 0
    write_pdf(tmp_path / "p.pdf", [page], dpi=300)
    data = (tmp_path / "p.pdf").read_bytes()
    stream = re.search(rb"/Subtype /Image.*?stream\n(.*?)\nendstream", data, re.S).group(1)
    bits = np.unpackbits(np.frombuffer(zlib.decompress(stream), np.uint8).reshape(40, -1), axis=1)[:, :20]
    assert np.array_equal(bits.astype(bool), page >= 128)


def test_png_pages_carry_300_dpi(tmp_path):
    paths = write_targets(tmp_path / "targets.png", "letter")
    assert [p.name for p in paths][:2] == ["targets-1-overview.png", "targets-2-marker-0.png"]
    data = paths[1].read_bytes()
    at = data.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert (x, y, unit) == (11811, 11811, 1)
    assert cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).shape == (mm(279.4), mm(215.9))
    assert png_bytes(np.zeros((4, 4), np.uint8)).startswith(b"\x89PNG")


@pytest.mark.parametrize("name, paper, message", [("t.jpg", "A4", "must end in .pdf or .png"), ("t.pdf", "A3", "--paper must be one of")])
def test_bad_target_requests(tmp_path, name, paper, message):
    with pytest.raises(ConfigError, match=message):
        write_targets(tmp_path / name, paper)
    assert list(tmp_path.iterdir()) == []
