"""Stock tops read in doubt: what the engine is told so that a misread stock top calls no stall.

A stall is ruled the moment no stock top can be played on either spit pile. Read unsurely, a stock top
may be another card, one that could be played (seed 302 of `all_at_once`: A's `QS` read `JC` at 0.39,
the queen among its alternatives; with `JH` and `JD` spat, the referee called a stall at once, and A
laid the queen on the jack 0.7 s later). Each stock reading under STOCK_DOUBT whose alternatives give
other ranks at least DOUBT_FLOOR is sent to the engine as `StockInDoubt` (and cleared when read surely,
or as another card); the engine holds back a stall while one of those ranks could be played, until the
table has been left alone a while (`StocksSettled.doubts_taken`) or the players spit (a spit in open
play rules the stall it implies, dated when the table last changed).
"""

from __future__ import annotations

from referee.piles.reading import Reading
from referee.rules.cards import Card
from referee.rules.observations import StockInDoubt

#: A stock top read less surely than this is in doubt ...
STOCK_DOUBT = 0.5
#: ... as to the ranks its reading's alternatives give at least this.
DOUBT_FLOOR = 0.03


def doubt_of(reading: Reading) -> tuple[Card, frozenset[str]] | None:
    """The card a stock reading names and the other ranks it may be, when it is in doubt; else None."""
    if reading.card is None or reading.confidence >= STOCK_DOUBT:
        return None
    ranks = frozenset(card.rank for card, chance in reading.alternatives if chance >= DOUBT_FLOOR and card.rank != reading.card.rank)
    return (reading.card, ranks) if ranks else None


class StockDoubts:
    """The stock slots read in doubt, as last told to the engine."""

    def __init__(self) -> None:
        self._told: dict[tuple[str, int], tuple[Card, frozenset[str]]] = {}

    def seen(self, t: float, frame: int | None, readings: dict[tuple[str, int], Reading]) -> list[StockInDoubt]:
        """What the engine is to be told of `readings` ((player, slot) -> the slot's new reading): a
        `StockInDoubt` for each slot whose doubt is new or changed, or gone (`could_be` empty)."""
        told = []
        for (player, slot), reading in sorted(readings.items()):
            doubt = doubt_of(reading)
            if doubt == self._told.get((player, slot)):
                continue
            if doubt is None:
                card = self._told.pop((player, slot))[0]
                told.append(StockInDoubt(t, player, slot, card, frozenset(), frame=frame))
            else:
                self._told[(player, slot)] = doubt
                told.append(StockInDoubt(t, player, slot, doubt[0], doubt[1], frame=frame))
        return told
