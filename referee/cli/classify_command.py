"""`referee classify IMAGE... --json`: find and name every card visible in each photo.

One JSON object per image on its own line (INTERFACE.md). An image that cannot be read gets a one-line
`error: ...` on stderr and the other images are still processed; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

import cv2
import numpy as np

from referee.errors import InputFileError, RefereeError
from referee.vision.recogniser import MAX_IMAGE_SIDE, check_image, load_recogniser

#: Largest file read, bytes: a bigger one is refused before decoding rather than eating the memory.
MAX_FILE_BYTES = 200 * 1024 * 1024


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "classify",
        help="Find and name every card visible in each photo.",
        description="Find and name every card visible in each photo (any angle, no calibration needed). "
        "Prints one JSON object per image: {\"image\": PATH, \"cards\": [{\"card\": \"QS\", \"confidence\": 0.97, \"quad\": [[x,y]x4]}]}.",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...); EXIF orientation is honoured")
    parser.add_argument("--json", action="store_true", help="print JSON lines (the only output format; accepted for the interface)")
    parser.add_argument("--thorough", action="store_true",
                        help="also search each photo turned a quarter: about twice the model time, for a few more small cards")
    parser.add_argument("--models", type=pathlib.Path, default=None, help="folder holding card_detector.onnx and card_index_classifier.onnx (default: the shipped ones)")
    parser.set_defaults(handler=run)


def read_image(path: pathlib.Path) -> np.ndarray:
    """A BGR image, turned upright as its EXIF orientation says, or InputFileError."""
    if not path.is_file():
        raise InputFileError(f"{path}: no such image file; expected a photo (JPEG, PNG, ...)")
    size = path.stat().st_size
    if size == 0:
        raise InputFileError(f"{path}: the file is empty; expected a photo (JPEG, PNG, ...)")
    if size > MAX_FILE_BYTES:
        raise InputFileError(f"{path}: {size} bytes is too large; expected a photo under {MAX_FILE_BYTES // (1024 * 1024)} MB")
    data = np.fromfile(str(path), dtype=np.uint8)
    try:
        # IMREAD_COLOR honours the EXIF orientation tag, so pixels and quads are those of the upright photo.
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise InputFileError(f"{path}: cannot decode the file as an image; expected a photo (JPEG, PNG, ...)")
    if max(image.shape[:2]) > MAX_IMAGE_SIDE:
        raise InputFileError(f"{path}: {image.shape[1]}x{image.shape[0]} pixels is too large; expected at most {MAX_IMAGE_SIDE} pixels a side, shrink it first")
    return check_image(image)


def run(args: argparse.Namespace) -> int:
    recogniser = load_recogniser(args.models)  # a missing or broken model fails the whole call, once
    recogniser.both_ways = args.thorough
    failed = 0
    for name in args.images:
        path = pathlib.Path(name)
        try:
            image = read_image(path)
            detections = recogniser.find_cards(image)
        except RefereeError as error:
            print(f"error: {error}", file=sys.stderr, flush=True)
            failed += 1
            continue
        except (cv2.error, MemoryError) as error:
            print(f"error: {path}: cannot process the image ({str(error).strip().splitlines()[-1][:120]}); expected an ordinary photo", file=sys.stderr, flush=True)
            failed += 1
            continue
        print(json.dumps({"image": name, "cards": [detection.to_json() for detection in detections]}), flush=True)
    return 1 if failed else 0
