"""Finding and naming cards: the detector gives outlines, the index classifier reads both corners."""

from __future__ import annotations

import os
import pathlib
from typing import Protocol, runtime_checkable

import numpy as np

from referee.errors import InputFileError, ModelError
from referee.rules.cards import RANKS, SUITS, Card
from referee.vision.detection import CardDetection
from referee.vision.geometry import index_crops, order_card_corners, quad_iou, turn_half_round
from referee.vision.onnx_models import CardDetector, IndexClassifier

DETECTOR_FILE = "card_detector.onnx"
CLASSIFIER_FILE = "card_index_classifier.onnx"

#: Lowest probability of the named card (rank and suit together) for a detection to be reported.
#: Lowering it reports more cards seen at bad angles, and more misnamed ones.
NAMING_THRESHOLD = 0.5
#: Below this suit probability the suit is reported as unknown (`7?`) while the rank still stands.
SUIT_THRESHOLD = 0.6
#: Largest image side accepted, pixels. Bigger images are refused rather than eating the laptop's memory.
MAX_IMAGE_SIDE = 12000
#: Side the top-of-pile view is shrunk to for the detector; a pile view shows one card large.
PILE_DETECTOR_SIZE = 160


@runtime_checkable
class CardRecogniser(Protocol):
    """What the referee needs from card recognition; tests and the demo plug in fakes here."""

    def find_cards(self, image_bgr: np.ndarray) -> list[CardDetection]: ...

    def name_card(self, card_image_bgr_upright: np.ndarray) -> tuple[Card | None, float]: ...

    def name_top_card(self, rectified_pile_image: np.ndarray) -> tuple[Card | None, float]: ...


def default_models_dir() -> pathlib.Path:
    """`$REFEREE_MODELS_DIR`, else the repository's models/ folder."""
    override = os.environ.get("REFEREE_MODELS_DIR")
    if override:
        return pathlib.Path(override)
    return pathlib.Path(__file__).resolve().parents[2] / "models"


def load_recogniser(models_dir: pathlib.Path | str | None = None) -> "OnnxCardRecogniser":
    """The shipped recogniser (ONNX through onnxruntime), or ModelError naming the missing or bad file."""
    folder = pathlib.Path(models_dir) if models_dir is not None else default_models_dir()
    return OnnxCardRecogniser(CardDetector(folder / DETECTOR_FILE), IndexClassifier(folder / CLASSIFIER_FILE))


def check_image(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise InputFileError(f"expected a BGR image array, got {getattr(image, 'shape', type(image).__name__)}")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    elif image.shape[2] == 4:
        image = np.ascontiguousarray(image[:, :, :3])
    elif image.shape[2] != 3:
        raise InputFileError(f"expected a BGR image with 3 channels, got {image.shape[2]} channels")
    if image.dtype != np.uint8:
        raise InputFileError(f"expected an 8-bit image, got {image.dtype}")
    if max(image.shape[:2]) > MAX_IMAGE_SIDE:
        raise InputFileError(f"image of {image.shape[1]}x{image.shape[0]} pixels is too large: expected at most {MAX_IMAGE_SIDE} pixels a side; shrink it first")
    return image


class OnnxCardRecogniser:
    """CardRecogniser backed by the two ONNX models."""

    def __init__(self, detector: CardDetector, classifier: IndexClassifier, *, naming_threshold: float = NAMING_THRESHOLD) -> None:
        self.detector = detector
        self.classifier = classifier
        self.naming_threshold = naming_threshold
        names = classifier.names
        try:
            self._card_columns = [names.index(f"{rank}{suit}") for rank in RANKS for suit in SUITS]
        except ValueError:
            raise ModelError(f"index classifier {classifier.path} does not name the 52 cards: expected classes like 'AS', '10H' and 'none', got {names[:6]}...") from None

    # -- naming -------------------------------------------------------------------------------------
    def _read(self, probabilities: np.ndarray) -> tuple[Card | None, float, float]:
        """(card, card confidence, how index-like the crop is) from one crop's class probabilities."""
        cards = probabilities[self._card_columns].reshape(len(RANKS), len(SUITS))
        readable = float(cards.sum())
        if readable <= 1e-6:
            return None, 0.0, 0.0
        rank_probabilities = cards.sum(axis=1)
        rank = int(rank_probabilities.argmax())
        suit = int(cards[rank].argmax())
        suit_probability = float(cards[rank, suit] / max(rank_probabilities[rank], 1e-9))
        if suit_probability >= SUIT_THRESHOLD:
            return Card(RANKS[rank], SUITS[suit]), float(cards[rank, suit]), readable
        return Card(RANKS[rank], None), float(rank_probabilities[rank]), readable

    def _name_quads(self, image: np.ndarray, quads: list[np.ndarray]) -> list[tuple[Card | None, float, np.ndarray]]:
        crops = []
        for quad in quads:
            crops.extend(index_crops(image, quad, self.classifier.image_size))
        probabilities = self.classifier.probabilities(crops)
        named = []
        for number, quad in enumerate(quads):
            readings = [self._read(probabilities[2 * number]), self._read(probabilities[2 * number + 1])]
            best = 0 if readings[0][1] >= readings[1][1] else 1
            card, confidence, _ = readings[best]
            named.append((card, confidence, quad if best == 0 else turn_half_round(quad)))
        return named

    def name_card(self, card_image_bgr_upright: np.ndarray) -> tuple[Card | None, float]:
        """Name a card from an image that is the card itself, upright or turned half round."""
        image = check_image(card_image_bgr_upright)
        height, width = image.shape[:2]
        quad = order_card_corners(np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32))
        card, confidence, _ = self._name_quads(image, [quad])[0]
        return (card, confidence) if confidence >= self.naming_threshold else (None, confidence)

    # -- finding ------------------------------------------------------------------------------------
    def find_cards(self, image_bgr: np.ndarray) -> list[CardDetection]:
        """Every card whose index can be read, best first."""
        image = check_image(image_bgr)
        return self._find(image, None)

    def _find(self, image: np.ndarray, detector_size: int | None) -> list[CardDetection]:
        found = self.detector.detect(image, detector_size)
        if not found:
            return []
        named = self._name_quads(image, [quad for quad, _ in found])
        detections = []
        for (card, confidence, quad), (_, score) in zip(named, found):
            if card is None or confidence < self.naming_threshold:
                continue
            detections.append(CardDetection(card=card, confidence=min(1.0, confidence), quad=quad))
        detections.sort(key=lambda detection: -detection.confidence)
        return detections

    def name_top_card(self, rectified_pile_image: np.ndarray) -> tuple[Card | None, float]:
        """Name the card on top of a pile seen from above (a rectified view around one pile).

        The top card is the one the detector is surest of whose outline nothing else covers; an
        empty pile gives (None, 0.0).
        """
        image = check_image(rectified_pile_image)
        found = self.detector.detect(image, PILE_DETECTOR_SIZE)
        if not found:
            return None, 0.0
        found = found[:3]
        named = self._name_quads(image, [quad for quad, _ in found])
        best_card, best_score = None, 0.0
        for (card, confidence, quad), (_, detector_score) in zip(named, found):
            score = confidence * detector_score
            if card is not None and confidence >= self.naming_threshold and score > best_score:
                best_card, best_score = card, score
                best_confidence = confidence
        if best_card is None:
            return None, 0.0
        return best_card, best_confidence


__all__ = ["CardRecogniser", "OnnxCardRecogniser", "load_recogniser", "default_models_dir", "quad_iou"]
