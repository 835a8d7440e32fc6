"""A minimal multi-page PDF writer for black-and-white raster pages (no extra dependency).

Each page is one 1-bit image (Flate-compressed) drawn over the whole page, so a page printed at
"actual size" (no fit-to-page) reproduces the raster at its stated dots per inch.
"""

from __future__ import annotations

import pathlib
import zlib

import numpy as np


def write_pdf(path: pathlib.Path | str, pages: list[np.ndarray], *, dpi: float) -> None:
    """Write grey uint8 pages (thresholded at 128: darker prints black) as one PDF."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in below
    pages_id = add(b"")
    kids = []
    for page in pages:
        rows, columns = page.shape[:2]
        bits = np.packbits(page >= 128, axis=1)  # 1 = white in DeviceGray; rows padded to whole bytes
        data = zlib.compress(bits.tobytes(), 9)
        image = add(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 1 "
            b"/Filter /FlateDecode /Length %d >>\nstream\n" % (columns, rows, len(data)) + data + b"\nendstream"
        )
        width_pt, height_pt = columns * 72.0 / dpi, rows * 72.0 / dpi
        content = b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q" % (width_pt, height_pt)
        content_id = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.4f %.4f] /Contents %d 0 R "
                b"/Resources << /XObject << /Im0 %d 0 R >> >> >>" % (pages_id, width_pt, height_pt, content_id, image)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % kid for kid in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    pathlib.Path(path).write_bytes(bytes(out))
