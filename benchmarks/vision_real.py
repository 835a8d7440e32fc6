"""Card recognition on real photos: ../shared/real/pinochle-train (Pascal VOC boxes named by rank).

    .venv/bin/python -m benchmarks.vision_real [--folder DIR] [--models DIR] [--draw OUT_DIR]

The deck is a pinochle deck (9 to A); each labelled box covers a card. A detection is right when its
outline's bounding box overlaps an unclaimed labelled box of the same rank at IoU >= 0.5 (detections
taken best first). Rank recall = right / labelled boxes; rank precision = right / detections. A card
mostly under others is labelled by the part that shows, as `find_cards` outlines it.
Read-only use of the folder; never a test dependency; no threshold is tuned here.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
import xml.etree.ElementTree as ElementTree

import cv2
import numpy as np

from referee.vision import load_recogniser

DEFAULT_FOLDER = pathlib.Path(__file__).resolve().parents[2] / "shared" / "real" / "pinochle-train"
RANK_NAMES = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def read_labels(xml_path: pathlib.Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    root = ElementTree.parse(xml_path).getroot()
    labels = []
    for element in root.findall("object"):
        box = element.find("bndbox")
        coordinates = tuple(float(box.find(key).text) for key in ("xmin", "ymin", "xmax", "ymax"))
        labels.append((RANK_NAMES[element.find("name").text.strip().lower()], coordinates))
    return labels


def box_iou(first, second) -> float:
    x0, y0 = max(first[0], second[0]), max(first[1], second[1])
    x1, y1 = min(first[2], second[2]), min(first[3], second[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (first[2] - first[0]) * (first[3] - first[1]) + (second[2] - second[0]) * (second[3] - second[1]) - inter
    return inter / union if union > 0 else 0.0


def match(detections, labels) -> tuple[int, int, list[bool]]:
    """(rank-right detections, boxes found at all, per-detection rightness)."""
    claimed = [False] * len(labels)
    right = []
    for detection in detections:
        box = detection.box()
        best, best_iou = None, 0.5
        for number, (rank, label_box) in enumerate(labels):
            iou = box_iou(box, label_box)
            if not claimed[number] and rank == detection.card.rank and iou >= best_iou:
                best, best_iou = number, iou
        if best is not None:
            claimed[best] = True
        right.append(best is not None)
    located = sum(any(box_iou(d.box(), label_box) >= 0.5 for d in detections) for _, label_box in labels)
    return sum(right), located, right


def draw(image: np.ndarray, detections, labels, right) -> np.ndarray:
    canvas = image.copy()
    for _, (x0, y0, x1, y1) in labels:
        cv2.rectangle(canvas, (int(x0), int(y0)), (int(x1), int(y1)), (255, 200, 0), 1)
    for detection, ok in zip(detections, right):
        colour = (0, 200, 0) if ok else (0, 0, 255)
        cv2.polylines(canvas, [detection.quad.astype(np.int32)], True, colour, 2)
        cv2.circle(canvas, tuple(int(v) for v in detection.quad[0]), 4, colour, -1)
        x, y = detection.quad.mean(axis=0)
        cv2.putText(canvas, f"{detection.card} {detection.confidence:.2f}", (int(x) - 30, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3)
        cv2.putText(canvas, f"{detection.card} {detection.confidence:.2f}", (int(x) - 30, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1)
    return canvas


def evaluate(recogniser, folder: pathlib.Path, draw_folder: pathlib.Path | None = None, draw_count: int = 24) -> dict:
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    labelled = detected = right_total = located_total = 0
    per_rank: dict[str, list[int]] = {}
    seconds = []
    for number, path in enumerate(images):
        xml_path = path.with_suffix(".xml")
        if not xml_path.exists():
            continue
        labels = read_labels(xml_path)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        started = time.perf_counter()
        detections = recogniser.find_cards(image)
        seconds.append(time.perf_counter() - started)
        right, located, rightness = match(detections, labels)
        labelled += len(labels)
        detected += len(detections)
        right_total += right
        located_total += located
        for rank, _ in labels:
            per_rank.setdefault(rank, [0, 0])[1] += 1
        for detection, ok in zip(detections, rightness):
            if ok:
                per_rank.setdefault(detection.card.rank, [0, 0])[0] += 1
        if draw_folder is not None and (number % max(1, len(images) // draw_count) == 0 or right < len(labels) or right < len(detections)):
            draw_folder.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(draw_folder / f"{path.stem}.png"), draw(image, detections, labels, rightness))
    return {
        "photos": len(seconds),
        "labelled_cards": labelled,
        "detections": detected,
        "rank_recall": right_total / max(labelled, 1),
        "rank_precision": right_total / max(detected, 1),
        "located_recall_any_rank": located_total / max(labelled, 1),
        "recall_by_rank": {rank: round(found / max(total, 1), 3) for rank, (found, total) in sorted(per_rank.items())},
        "median_find_cards_ms": 1000 * float(np.median(seconds)) if seconds else None,
    }


def _recogniser(models, faces: bool):
    recogniser = load_recogniser(models)
    recogniser.faces_in_photos = faces
    return recogniser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=pathlib.Path, default=DEFAULT_FOLDER)
    parser.add_argument("--models", type=pathlib.Path, default=None)
    parser.add_argument("--faces", action="store_true", help="mix the face classifier into photo reading too (off in `referee classify`)")
    parser.add_argument("--draw", type=pathlib.Path, default=None, help="write annotated PNGs of some photos here")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"skipped: {args.folder} is not here (the real photo set lives in the project's shared folder)")
        return 0
    print(json.dumps(evaluate(_recogniser(args.models, args.faces), args.folder, args.draw), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
