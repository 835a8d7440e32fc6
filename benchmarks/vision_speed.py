"""Speed of card recognition on 2 cores: a 1280x720 photo and the top of a pile.

    .venv/bin/python -m benchmarks.vision_speed [--models DIR] [--repeats 30]

Targets (issue 5): find_cards on a 1280x720 photo <= 15 ms of model time; name_top_card <= 3 ms.
`find_cards` is timed on SCENES rendered scenes that each show a whole card (median of their medians),
both whole (`_ms`) and inside its models alone (`_model_ms`: every onnxruntime call it makes, summed).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import cv2
import numpy as np

from benchmarks.model_clock import ModelClock
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


#: Rendered 1280x720 scenes with at least one card nothing covers, from this seed on (held-out seeds).
FIRST_SCENE_SEED, SCENES = 4_000_100, 8


def scenes_with_cards(count: int = SCENES, first_seed: int = FIRST_SCENE_SEED) -> list[np.ndarray]:
    """`count` rendered 1280x720 scenes, each showing at least one whole card (many of the scene
    generator's scenes cover or crop every card: timing `find_cards` on one of those measures little)."""
    scenes, seed = [], first_seed
    while len(scenes) < count:
        scene = data_gen.render_scene(seed, size=(1280, 720))
        if any(card.visible >= 0.95 for card in scene.cards):
            scenes.append(scene.image)
        seed += 1
    return scenes


def _model_ms(recogniser, function, repeats: int) -> float:
    """Median milliseconds per call of `function` spent inside the recogniser's models (all of them)."""
    with ModelClock(recogniser) as clock:
        function()  # warm up
        times = []
        for _ in range(repeats):
            clock.seconds = 0.0
            function()
            times.append(clock.seconds)
    return 1000 * float(np.median(times))


def measure(recogniser, repeats: int) -> dict:
    scenes = scenes_with_cards()
    scene = scenes[0]
    tensor, _, _ = recogniser.detector.prepare(scene)
    quads = [quad for quad, _ in recogniser.detector.detect(scene)] or [np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)]
    crops = [crop for quad in quads for crop in index_crops(scene, quad)]
    pile = pile_view()
    return {
        # the median over the scenes of each scene's median time
        "find_cards_1280x720_ms": float(np.median([_median_ms(lambda image=image: recogniser.find_cards(image), max(3, repeats // 4)) for image in scenes])),
        # the target's measure: time inside the models (every detector and classifier call find_cards makes)
        "find_cards_1280x720_model_ms": float(np.median([_model_ms(recogniser, lambda image=image: recogniser.find_cards(image),
                                                                   max(3, repeats // 4)) for image in scenes])),
        "scenes": len(scenes),
        "cards_found_per_scene": [len(recogniser.find_cards(image)) for image in scenes],
        "detector_model_only_ms": _median_ms(lambda: recogniser.detector.raw(tensor), repeats),
        "letterbox_ms": _median_ms(lambda: letterbox(scene, recogniser.detector.image_size), repeats),
        "classifier_model_only_ms": _median_ms(lambda: recogniser.classifier.probabilities(crops), repeats),
        "crops_classified": len(crops),
        "name_top_card_ms": _median_ms(lambda: recogniser.name_top_card(pile), repeats),
        "name_top_card_model_ms": _model_ms(recogniser, lambda: recogniser.name_top_card(pile), repeats),
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
