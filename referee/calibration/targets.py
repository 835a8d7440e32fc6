"""Printable calibration targets at true scale: the four corner markers and the lens board.

Pages (300 dpi, black and white): an overview of where everything goes, one page per corner
marker (60 mm, with its cut line, which corner touches the play-area corner and which way faces
player A), and the ChArUco lens board. Every page carries a 100 mm ruler: measure it after
printing; if it is not 100 mm the printer scaled the page ("fit to page"): print at 100 %.
"""

from __future__ import annotations

import pathlib
import struct
import zlib

import cv2
import numpy as np

from referee.calibration.charuco import BOARD_DICTIONARY_NAME, BOARD_MARKER_MM, BOARD_SQUARE_MM, BOARD_SQUARES, board_size_mm, charuco_board
from referee.calibration.markers import DICTIONARY_NAME, MARKER_PLACES
from referee.calibration.pdf import write_pdf
from referee.errors import ConfigError
from referee.table.layout import MARKER_SIDE_MM

DPI = 300
PAPERS_MM = {"A4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: white paper kept round each marker (the detector needs a light quiet zone round the black border)
MARKER_PAPER_MARGIN_MM = 10.0
#: which corner of each marker lies on the play-area corner, in the marker's printed frame
OUTER_CORNER = {0: "bottom-left", 1: "bottom-right", 2: "top-right", 3: "top-left"}
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def mm(value: float) -> int:
    return int(round(value * DPI / 25.4))


def _blank(paper: str) -> np.ndarray:
    width, height = PAPERS_MM[paper]
    return np.full((mm(height), mm(width)), 255, np.uint8)


def _text(page: np.ndarray, text: str, x_mm: float, y_mm: float, size: float = 1.4, thickness: int = 3) -> None:
    cv2.putText(page, text, (mm(x_mm), mm(y_mm)), _FONT, size, 0, thickness, cv2.LINE_8)


def _ruler(page: np.ndarray, x_mm: float, y_mm: float) -> None:
    """A 100 mm ruler with mm ticks, its baseline at y_mm."""
    cv2.line(page, (mm(x_mm), mm(y_mm)), (mm(x_mm + 100), mm(y_mm)), 0, 3)
    for tick in range(101):
        length = 6.0 if tick % 10 == 0 else 4.0 if tick % 5 == 0 else 2.5
        x = mm(x_mm + tick)
        cv2.line(page, (x, mm(y_mm)), (x, mm(y_mm - length)), 0, 2 if tick % 10 else 3)
        if tick % 10 == 0:
            cv2.putText(page, str(tick // 10), (x - 10, mm(y_mm - 7.5)), _FONT, 0.9, 0, 2)
    _text(page, "100 mm: measure it. If it is not 100 mm, print again at 100 % (no fit-to-page).", x_mm, y_mm + 6, 0.9, 2)


def _dashed_rectangle(page: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> None:
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = float(np.hypot(bx - ax, by - ay))
        for start in np.arange(0, length, 4.0):
            end = min(start + 2.0, length)
            p = (mm(ax + (bx - ax) * start / length), mm(ay + (by - ay) * start / length))
            q = (mm(ax + (bx - ax) * end / length), mm(ay + (by - ay) * end / length))
            cv2.line(page, p, q, 0, 2)


def _marker_raster(marker_id: int) -> np.ndarray:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, mm(MARKER_SIDE_MM))


def marker_page(paper: str, marker_id: int) -> np.ndarray:
    page = _blank(paper)
    width, height = PAPERS_MM[paper]
    side = MARKER_SIDE_MM
    x0, y0 = (width - side) / 2, 75.0
    raster = _marker_raster(marker_id)
    page[mm(y0) : mm(y0) + raster.shape[0], mm(x0) : mm(x0) + raster.shape[1]] = raster
    margin = MARKER_PAPER_MARGIN_MM
    _dashed_rectangle(page, x0 - margin, y0 - margin, x0 + side + margin, y0 + side + margin)
    # Mark the outer corner: an L just outside it, in the paper margin.
    corner = OUTER_CORNER[marker_id]
    cx = x0 if "left" in corner else x0 + side
    cy = y0 if "top" in corner else y0 + side
    dx = -1 if "left" in corner else 1
    dy = -1 if "top" in corner else 1
    for length_x, length_y in ((8 * -dx, 0), (0, 8 * -dy)):
        cv2.line(page, (mm(cx + 2 * dx), mm(cy + 2 * dy)), (mm(cx + 2 * dx + length_x), mm(cy + 2 * dy + length_y)), 0, 6)
    place = MARKER_PLACES[marker_id]
    _text(page, f"Spit referee corner marker {marker_id}", 15, 22, 1.9, 4)
    _text(page, f"ArUco {DICTIONARY_NAME} id {marker_id}, black square exactly {side:g} mm", 15, 33, 1.1, 2)
    _text(page, f"Goes at {place}.", 15, 44, 1.3, 3)
    _text(page, "Cut along the dashed line. Leave the white border.", 15, y0 + side + margin + 12, 1.1, 2)
    lines = [
        "Lay it flat, UPRIGHT AS PLAYER A SEES IT: this page's bottom edge towards player A.",
        f"The {corner} corner of the black square (marked with the thick L)",
        "goes exactly on the play-area corner; the marker lies inside the play area.",
        "Tape it down; keep it uncovered and free of glare during play.",
    ]
    for index, line in enumerate(lines):
        _text(page, line, 15, y0 + side + margin + 24 + 9 * index, 0.95, 2)
    arrow_y = y0 + side + margin + 70
    cv2.arrowedLine(page, (mm(width / 2), mm(arrow_y)), (mm(width / 2), mm(arrow_y + 25)), 0, 6, tipLength=0.3)
    _text(page, "PLAYER A SITS THIS WAY", width / 2 - 45, arrow_y + 35, 1.3, 3)
    _ruler(page, 15, height - 25)
    return page


def overview_page(paper: str) -> np.ndarray:
    page = _blank(paper)
    width, height = PAPERS_MM[paper]
    _text(page, "Spit referee: calibration targets", 15, 22, 1.9, 4)
    lines = [
        "1. Print every page at 100 % (no fit-to-page). Check the 100 mm ruler.",
        "2. Cut out the four corner markers (pages 2-5) and tape one in each corner",
        "   of the play area (default 800 x 600 mm), upright as player A sees them,",
        "   the thick-L corner exactly on the play-area corner (diagram below).",
        "3. Put the camera above the table so all four markers are in view; then run",
        "   referee calibrate --camera 0 --out table.yaml   (or --image / --video)",
        "4. Optional, for the most accurate lens correction: film the lens board",
        "   (last page, taped flat) from many angles and run",
        "   referee calibrate lens --video board.mp4 --out lens.yaml",
        "   then calibrate the table with --lens lens.yaml.",
    ]
    for index, line in enumerate(lines):
        _text(page, line, 15, 38 + 8.5 * index, 0.95, 2)
    # Diagram: play area as seen from above with player A at the bottom.
    left, right, top, bottom = 35.0, width - 35.0, 140.0, 240.0
    cv2.rectangle(page, (mm(left), mm(top)), (mm(right), mm(bottom)), 0, 3)
    tile = 14.0
    positions = {0: (left, bottom - tile), 1: (right - tile, bottom - tile), 2: (right - tile, top), 3: (left, top)}
    for marker_id, (x, y) in positions.items():
        small = cv2.resize(_marker_raster(marker_id), (mm(tile), mm(tile)), interpolation=cv2.INTER_NEAREST)
        page[mm(y) : mm(y) + small.shape[0], mm(x) : mm(x) + small.shape[1]] = small
        label_x = x + tile + 2 if marker_id in (0, 3) else x - 30
        _text(page, f"id {marker_id}", label_x, y + tile / 2 + 2, 1.0, 2)
    _text(page, "(0,0)", left - 12, bottom + 7, 0.9, 2)
    _text(page, "(W,0)", right - 6, bottom + 7, 0.9, 2)
    _text(page, "(W,H)", right - 6, top - 3, 0.9, 2)
    _text(page, "(0,H)", left - 12, top - 3, 0.9, 2)
    _text(page, "player B", (left + right) / 2 - 14, top + 12, 1.2, 3)
    _text(page, "spit piles", (left + right) / 2 - 17, (top + bottom) / 2 + 2, 1.0, 2)
    _text(page, "player A sits here", (left + right) / 2 - 30, bottom + 12, 1.2, 3)
    _ruler(page, 15, height - 25)
    return page


def board_page(paper: str) -> np.ndarray:
    page = _blank(paper)
    width, height = PAPERS_MM[paper]
    board_width, board_height = board_size_mm()
    raster = charuco_board().generateImage((mm(board_width), mm(board_height)), marginSize=0, borderBits=1)
    x0, y0 = (width - board_width) / 2, 22.0
    page[mm(y0) : mm(y0) + raster.shape[0], mm(x0) : mm(x0) + raster.shape[1]] = raster
    _text(page, f"Lens board: ChArUco {BOARD_SQUARES[0]}x{BOARD_SQUARES[1]}, squares {BOARD_SQUARE_MM:g} mm, markers {BOARD_MARKER_MM:g} mm, {BOARD_DICTIONARY_NAME}", 15, 10, 0.95, 2)
    _text(page, "Tape flat to card or a board. Film it filling much of the frame, from many angles.", 15, 17, 0.95, 2)
    _ruler(page, 15, height - 12)
    return page


def target_pages(paper: str) -> list[tuple[str, np.ndarray]]:
    if paper not in PAPERS_MM:
        raise ConfigError(f"--paper must be one of {', '.join(PAPERS_MM)}, got {paper!r}")
    pages = [("overview", overview_page(paper))]
    pages += [(f"marker-{marker_id}", marker_page(paper, marker_id)) for marker_id in range(4)]
    pages.append(("lens-board", board_page(paper)))
    return pages


def png_bytes(page: np.ndarray, dpi: int = DPI) -> bytes:
    """PNG with a pHYs chunk so viewers and printers know its true size."""
    ok, encoded = cv2.imencode(".png", page)
    if not ok:
        raise OSError("could not encode a target page as PNG")
    data = encoded.tobytes()
    pixels_per_metre = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", pixels_per_metre, pixels_per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    end_of_header = 8 + 25  # signature + IHDR chunk
    return data[:end_of_header] + chunk + data[end_of_header:]


def write_targets(out: pathlib.Path | str, paper: str) -> list[pathlib.Path]:
    """Write the targets as one PDF, or as one PNG per page (NAME-1-overview.png, ...)."""
    out = pathlib.Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise ConfigError(f"--out must end in .pdf or .png, got {out.name!r}")
    pages = target_pages(paper)
    if suffix == ".pdf":
        write_pdf(out, [page for _, page in pages], dpi=DPI)
        return [out]
    written = []
    for number, (name, page) in enumerate(pages, start=1):
        path = out.with_name(f"{out.stem}-{number}-{name}.png")
        path.write_bytes(png_bytes(page))
        written.append(path)
    return written
