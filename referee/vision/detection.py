"""The value the vision layer hands to the rest of the referee: one named card and where it is."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from referee.rules.cards import Card


@dataclass(frozen=True, eq=False)
class CardDetection:
    """A card found in an image.

    `quad` is the card's outline as it shows in image pixels, shape (4, 2) float32, corners in
    clockwise order (in image coordinates, y down) starting from the corner nearest the card's upper-left
    index. A card partly under others, or cut by the picture's edge, is outlined where it shows (as
    people outline cards in photos), and then `whole_quad` is the whole card's outline (for a cut card,
    partly outside the picture); otherwise `whole_quad` is None and `quad` is it.
    `confidence` in [0, 1] is how sure the recogniser is of `card` (rank and suit; a card whose suit
    could not be read has `card.suit is None`).
    """

    card: Card
    confidence: float
    quad: np.ndarray
    whole_quad: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise TypeError(f"CardDetection.card: expected a Card, got {type(self.card).__name__}")
        confidence = float(self.confidence)
        if not 0.0 <= confidence <= 1.0 or confidence != confidence:
            raise ValueError(f"CardDetection.confidence: expected a number in [0, 1], got {self.confidence!r}")
        object.__setattr__(self, "confidence", confidence)
        for name in ("quad", "whole_quad"):
            quad = getattr(self, name)
            if quad is None and name == "whole_quad":
                continue
            quad = np.asarray(quad, dtype=np.float32)
            if quad.shape != (4, 2):
                raise ValueError(f"CardDetection.{name}: expected shape (4, 2), got {quad.shape}")
            if not np.all(np.isfinite(quad)):
                raise ValueError(f"CardDetection.{name}: expected finite pixel coordinates, got NaN or infinity")
            quad = quad.copy()
            quad.setflags(write=False)
            object.__setattr__(self, name, quad)

    @property
    def outline(self) -> np.ndarray:
        """The whole card's outline (where part of it is hidden, more than `quad`)."""
        return self.quad if self.whole_quad is None else self.whole_quad

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.quad.mean(axis=0)
        return float(x), float(y)

    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned bounds (x0, y0, x1, y1) of the outline."""
        x0, y0 = self.quad.min(axis=0)
        x1, y1 = self.quad.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    def to_json(self) -> dict:
        found = {
            "card": str(self.card),
            "confidence": round(self.confidence, 4),
            "quad": _points(self.quad),
        }
        if self.whole_quad is not None:
            found["whole_quad"] = _points(self.whole_quad)
        return found


def _points(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in quad]
