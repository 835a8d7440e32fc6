import numpy as np
import pytest

from referee.rules.cards import Card
from referee.vision import CardDetection

SQUARE = [[0, 0], [63, 0], [63, 88], [0, 88]]


@pytest.mark.parametrize(
    "card, confidence, quad, error",
    [
        ("QS", 0.9, SQUARE, TypeError),
        (Card("Q", "S"), 1.5, SQUARE, ValueError),
        (Card("Q", "S"), -0.1, SQUARE, ValueError),
        (Card("Q", "S"), float("nan"), SQUARE, ValueError),
        (Card("Q", "S"), 0.9, [[0, 0], [1, 1], [2, 2]], ValueError),
        (Card("Q", "S"), 0.9, [[0, 0], [1, 1], [2, 2], [np.inf, 0]], ValueError),
    ],
)
def test_bad_detections_are_refused(card, confidence, quad, error):
    with pytest.raises(error):
        CardDetection(card=card, confidence=confidence, quad=quad)


def test_a_detection_is_frozen_and_serialises_as_the_interface_says():
    detection = CardDetection(card=Card("10", "H"), confidence=0.97123, quad=SQUARE)
    assert detection.quad.dtype == np.float32 and detection.quad.shape == (4, 2)
    with pytest.raises(ValueError):
        detection.quad[0, 0] = 5
    assert detection.to_json() == {"card": "10H", "confidence": 0.9712, "quad": [[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]]}
    assert detection.box() == (0.0, 0.0, 63.0, 88.0)
    assert CardDetection(card=Card("7"), confidence=0.5, quad=SQUARE).to_json()["card"] == "7?"


def test_a_card_partly_hidden_serialises_its_showing_outline_and_its_whole_one():
    strip = [[0, 0], [20, 0], [20, 88], [0, 88]]
    detection = CardDetection(card=Card("9", "S"), confidence=0.9, quad=strip, whole_quad=SQUARE)
    assert detection.to_json()["quad"][1] == [20.0, 0.0]
    assert detection.to_json()["whole_quad"][1] == [63.0, 0.0]
    assert detection.outline.tolist() == np.asarray(SQUARE, np.float32).tolist()
    whole = CardDetection(card=Card("9", "S"), confidence=0.9, quad=SQUARE)
    assert whole.outline is whole.quad and "whole_quad" not in whole.to_json()
    with pytest.raises(ValueError):
        CardDetection(card=Card("9", "S"), confidence=0.9, quad=strip, whole_quad=[[0, 0], [1, 1]])
