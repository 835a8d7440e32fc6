"""Naming cards from a rendered clip's labels.jsonl (its ground truth) instead of from pixels.

Two uses, both saying so wherever they are used: measuring the tracker and the rulings apart from
card recognition (benchmarks), and keeping `referee demo` working on a machine where the recognition
models have not been trained or installed. It answers through the tracker's `name_top_card_in`
door (frame and table rectangle known), never guesses from the crop.
"""

from __future__ import annotations

import gzip
import json
import pathlib

import numpy as np

from referee.errors import InputFileError
from referee.rules.cards import Card

#: A card this much hidden (by hands or other cards) is not named, as a camera could not read it.
MAX_OCCLUSION = 0.6


class LabelNamer:
    def __init__(self, labels_path: str | pathlib.Path, calibration) -> None:
        self.calibration = calibration
        self._frames: dict[int, list[tuple[Card, bool, np.ndarray, float]]] = {}
        path = pathlib.Path(labels_path)
        try:
            if path.suffix == ".gz":
                with gzip.open(path, "rt", encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            else:
                lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise InputFileError(f"cannot read labels {labels_path}: {error.strerror or error}") from None
        for line in lines:
            if not line.strip():
                continue
            data = json.loads(line)
            cards = []
            for item in data.get("cards", []):
                if "centre_mm" in item:  # the demo's compact labels
                    centre = np.asarray(item["centre_mm"], np.float64)
                else:
                    quad = np.asarray(item["quad"], np.float64)
                    centre = calibration.image_to_table(quad.mean(axis=0, keepdims=True))[0]
                cards.append((Card.parse(item["card"]), bool(item.get("face_up")), centre, float(item.get("occlusion", 0.0))))
            self._frames[int(data["frame"])] = cards

    def name_top_card(self, image: np.ndarray):
        return None, 0.0  # without a frame and place it cannot know; the tracker uses name_top_card_in

    def name_top_card_in(self, frame: int, rect, image: np.ndarray, outline: np.ndarray | None = None,
                         whole_card: bool = False):
        """The labelled card lying at `rect` in `frame` (`outline`, where the tracker saw it, and `whole_card`,
        whether a whole card lies there when anything does, are not needed)."""
        inside = [(occlusion, card, face_up) for card, face_up, centre, occlusion in self._frames.get(frame, [])
                  if rect.x0 <= centre[0] <= rect.x1 and rect.y0 <= centre[1] <= rect.y1]
        if not inside:
            return None, 0.0
        occlusion, card, face_up = min(inside, key=lambda item: item[0])
        if not face_up or occlusion > MAX_OCCLUSION:
            return None, 0.0
        return card, 1.0 - occlusion / 2
