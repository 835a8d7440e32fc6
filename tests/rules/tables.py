"""Small builders for rule tests: a table written as text, taken up mid-round by the engine.

    engine = table(a="2H 5S 9D JC KH", b="3C 6D 10S QS AH", piles="4C 8H")

A stock top is a card, `#` (a face-down top) or `-` (an empty slot); counts default to one card per
shown pile (`#` piles to 2). Spit counts default to 10 each; `piles` has one card per pile in use.
"""

from __future__ import annotations

from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import LayoutSeen


def _row(text: str) -> tuple[list[str | None], list[int]]:
    tops, counts = [], []
    for item in text.split():
        if item == "-":
            tops.append(None)
            counts.append(0)
        elif item == "#":
            tops.append(None)
            counts.append(2)
        else:
            tops.append(item)
            counts.append(1)
    assert len(tops) == 5, text
    return tops, counts


def layout(a: str = "2H 5S 9D JC KH", b: str = "3C 6D 10S QS AH", piles: str = "4C 8H", *, spit=(10, 10),
           a_counts=None, b_counts=None, t: float = 0.0, scores=None) -> LayoutSeen:
    a_tops, a_default = _row(a)
    b_tops, b_default = _row(b)
    pile_tops = piles.split() + [None] * (2 - len(piles.split()))
    return LayoutSeen(
        t,
        stock_tops={"A": a_tops, "B": b_tops},
        stock_counts={"A": list(a_counts or a_default), "B": list(b_counts or b_default)},
        spit_counts={"A": spit[0], "B": spit[1]},
        pile_tops=pile_tops,
        scores=scores,
    )


def table(a: str = "2H 5S 9D JC KH", b: str = "3C 6D 10S QS AH", piles: str = "4C 8H", *, config=None, **kwargs) -> RulesEngine:
    return RulesEngine.starting_from(layout(a, b, piles, **kwargs), config or RulesConfig())


def kinds(events) -> list[str]:
    return [event.type.value for event in events]


def of_type(events, name: str):
    return [event for event in events if event.type.value == name]
