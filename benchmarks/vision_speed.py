"""Speed of card recognition on 2 cores: a 1280x720 photo and the top of a pile.

    .venv/bin/python -m benchmarks.vision_speed [--models DIR] [--repeats 30]

Targets (issue 5): find_cards on a 1280x720 photo <= 15 ms of model time; name_top_card <= 3 ms.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import cv2
import numpy as np

from models import data_gen
from referee.vision import load_recogniser
from referee.vision.geometry import index_crops, letterbox


def _median_ms(function, repeats: int) -> float:
    function()  # warm up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return 1000 * float(np.median(times))


def pile_view(seed: int = 11, px_per_mm: float = 2.0) -> np.ndarray:
    """A rectified top-down view around one spit pile (about 110 x 130 mm), the top card square-ish on it."""
    rng = np.random.default_rng(seed)
    width, height = int(110 * px_per_mm), int(130 * px_per_mm)
    image = data_gen.procedural_background(rng, width, height)
    for number, card in enumerate(data_gen.ALL_CARDS[:3]):
        face = data_gen.faces.card_face(card, "classic", px_per_mm)
        alpha = data_gen.faces.card_mask(px_per_mm).astype(np.float32)[:, :, None] / 255
        angle = rng.normal(0, 8)
        matrix = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), angle, 1.0)
        matrix[:, 2] += (width / 2 - face.shape[1] / 2 + rng.normal(0, 4), height / 2 - face.shape[0] / 2 + rng.normal(0, 4))
        warped = cv2.warpAffine(face, matrix, (width, height))
        mask = cv2.warpAffine(alpha, matrix, (width, height))[:, :, None]
        image = (image * (1 - mask) + warped * mask).astype(np.uint8)
    return image


def measure(recogniser, repeats: int) -> dict:
    scene = data_gen.render_scene(4_000_123, size=(1280, 720)).image
    tensor, _, _ = recogniser.detector.prepare(scene)
    quads = [quad for quad, _ in recogniser.detector.detect(scene)] or [np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)]
    crops = [crop for quad in quads for crop in index_crops(scene, quad)]
    pile = pile_view()
    return {
        "find_cards_1280x720_ms": _median_ms(lambda: recogniser.find_cards(scene), repeats),
        "detector_model_only_ms": _median_ms(lambda: recogniser.detector.raw(tensor), repeats),
        "letterbox_ms": _median_ms(lambda: letterbox(scene, recogniser.detector.image_size), repeats),
        "classifier_model_only_ms": _median_ms(lambda: recogniser.classifier.probabilities(crops), repeats),
        "crops_classified": len(crops),
        "name_top_card_ms": _median_ms(lambda: recogniser.name_top_card(pile), repeats),
        "pile_view_px": list(pile.shape[1::-1]),
        "top_card_named": str(recogniser.name_top_card(pile)[0]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=pathlib.Path, default=None)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    print(json.dumps(measure(load_recogniser(args.models), args.repeats), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
