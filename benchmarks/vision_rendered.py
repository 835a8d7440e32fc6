"""Card naming on rendered held-out scenes (seeds never trained on).

    .venv/bin/python -m benchmarks.vision_rendered [--scenes 300] [--models DIR]

A card counts when it is fully visible (nothing covers it, all of it inside the picture). It is named
right when a detection's outline overlaps it (IoU >= 0.5) and names its rank (and suit).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np

from models import data_gen
from referee.vision import load_recogniser
from referee.vision.geometry import quad_iou

#: Benchmark scenes start here; training uses seeds below 2 000 000 (models/train.py).
BENCHMARK_SEED = 5_000_000
FULLY_VISIBLE = 0.95  # a card nothing covers measures about 0.98 (rounded corners, antialiased edge)


def evaluate(recogniser, scenes: int, *, first_seed: int = BENCHMARK_SEED, size: tuple[int, int] | None = None) -> dict:
    counted = rank_right = both_right = found = 0
    detections_total = detections_on_cards = 0
    model_seconds = []
    for seed in range(first_seed, first_seed + scenes):
        scene = data_gen.render_scene(seed, size=size)
        height, width = scene.image.shape[:2]
        started = time.perf_counter()
        detections = recogniser.find_cards(scene.image)
        model_seconds.append(time.perf_counter() - started)
        detections_total += len(detections)
        for detection in detections:
            if any(quad_iou(detection.outline, card.quad) >= 0.5 for card in scene.cards if card.visible >= 0.3):
                detections_on_cards += 1
        for card in scene.cards:
            inside = card.quad[:, 0].min() >= 0 and card.quad[:, 1].min() >= 0 and card.quad[:, 0].max() <= width and card.quad[:, 1].max() <= height
            if card.visible < FULLY_VISIBLE or not inside:
                continue
            counted += 1
            matches = [(quad_iou(d.outline, card.quad), d) for d in detections]
            matches = [m for m in matches if m[0] >= 0.5]
            if not matches:
                continue
            found += 1
            best = max(matches, key=lambda m: m[0])[1]
            rank_right += best.card.rank == card.card.rank
            both_right += best.card == card.card
    return {
        "scenes": scenes,
        "fully_visible_cards": counted,
        "found": found / max(counted, 1),
        "rank_right": rank_right / max(counted, 1),
        "rank_and_suit_right": both_right / max(counted, 1),
        "detections": detections_total,
        "detections_on_a_card": detections_on_cards / max(detections_total, 1),
        "median_find_cards_ms": 1000 * float(np.median(model_seconds)) if model_seconds else None,
    }


def _recogniser(models, faces: bool):
    recogniser = load_recogniser(models)
    recogniser.faces_in_photos = faces
    return recogniser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--faces", action="store_true", help="mix the face classifier into photo reading too (off in `referee classify`)")
    parser.add_argument("--models", type=pathlib.Path, default=None)
    args = parser.parse_args(argv)
    result = evaluate(_recogniser(args.models, args.faces), args.scenes)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
