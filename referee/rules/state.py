"""What the rules engine knows about the table: its working state and the read-only snapshot it shows.

Face-down cards are never known: a stock pile is a count plus its face-up top (None while the top is
face down); a spit pile keeps the cards seen landing on it (top last) and a count that includes any
cards under them the engine never saw (a clip that began mid-game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping

from referee.rules.cards import NEIGHBOURS, Card

PLAYERS = ("A", "B")


class GamePhase(str, Enum):
    WAITING_FOR_LAYOUT = "waiting_for_layout"  # before a round's layout is seen
    LAID_OUT = "laid_out"                      # layout seen, opening spit not complete
    PLAYING = "playing"
    STALLED = "stalled"                        # stall declared, re-spit not complete
    ROUND_OVER = "round_over"                  # a round-end condition met, slaps not settled
    GAME_OVER = "game_over"


@dataclass
class Stock:
    count: int = 0
    top: Card | None = None  # the face-up top; None with count > 0 means the top is face down
    #: False: `count` is the least there may be (a clip begun mid-round shows tops, not what lies under)
    counted: bool = True

    @property
    def face_down_top(self) -> bool:
        return self.count > 0 and self.top is None


@dataclass
class Landing:
    """The last card that touched a spit pile: for touch order and the old-top reading."""

    t: float
    player: str | None
    previous_top: Card | None
    error: float = 0.0  # seconds `t` may be off by


@dataclass
class SpitPile:
    cards: list[Card] = field(default_factory=list)
    #: where each seen card came from: ("stock", player, slot) or ("spit", player, None)
    sources: list[tuple[str, str, int | None]] = field(default_factory=list)
    count: int = 0
    last_landing: Landing | None = None
    #: in use, but its top card is not known (a clip that began mid-game with the top unreadable); the
    #: first card seen landing on it becomes its top
    top_unknown: bool = False

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    def push(self, card: Card, source: tuple[str, str, int | None]) -> None:
        self.top_unknown = False
        self.cards.append(card)
        self.sources.append(source)
        self.count += 1


@dataclass
class PlayerTable:
    stocks: list[Stock] = field(default_factory=lambda: [Stock() for _ in range(5)])
    spit_count: int = 0

    @property
    def stock_count(self) -> int:
        return sum(stock.count for stock in self.stocks)

    @property
    def cards_held(self) -> int:
        return self.stock_count + self.spit_count

    def visible_tops(self) -> list[Card]:
        return [stock.top for stock in self.stocks if stock.top is not None]

    def can_fill_a_slot(self, *, as_counted: bool = False) -> bool:
        """An empty slot among the five and a pile of two or more to take a face-up card from (or, unless
        `as_counted`, a pile whose count is only a least, which may hold more)."""
        return any(stock.count == 0 for stock in self.stocks[:5]) and any(
            stock.count >= 2 or (not as_counted and not stock.counted and stock.count >= 1) for stock in self.stocks)

    def unsettled(self, *, as_counted: bool = False, face_down: bool = True) -> bool:
        """A move is still to come on this player's stocks: a face-down top to turn up (unless not
        `face_down`), or a slot to fill."""
        return (face_down and any(stock.face_down_top for stock in self.stocks)) or self.can_fill_a_slot(as_counted=as_counted)


def ranks_that_play(pile_tops: list[Card]) -> frozenset[str]:
    """The ranks a card may have to be played on one of the pile tops (a neighbour of one of them)."""
    return frozenset().union(*(NEIGHBOURS[top.rank] for top in pile_tops))


def any_play(players: Mapping[str, PlayerTable], pile_tops: list[Card]) -> bool:
    """Whether any face-up stock top of either player is adjacent to any of the pile tops."""
    wanted = ranks_that_play(pile_tops)
    return any(stock.top is not None and stock.top.rank in wanted for player in players.values() for stock in player.stocks)


# ---- the read-only snapshot -------------------------------------------------------------------------


@dataclass(frozen=True)
class StockView:
    count: int
    top: Card | None


@dataclass(frozen=True)
class PlayerView:
    stocks: tuple[StockView, ...]
    spit_count: int
    stock_count: int
    cards: int           # between rounds: the cards the player will lay out; during a round: stock + spit
    score: int           # scoring variant: points so far


@dataclass(frozen=True)
class EngineState:
    phase: GamePhase
    round_number: int
    t: float | None
    spit_piles_in_use: int
    pile_tops: tuple[Card | None, Card | None]
    pile_counts: tuple[int, int]
    players: Mapping[str, PlayerView]
    winner: str | None
    #: players who still owe a spit card (after a stall, or at the round's start)
    spits_due: frozenset[str] = frozenset()
    #: the cards (with their suits) seen face up this round, on a stock or laid on a pile: a deck holds each
    #: card once, so a card read as one of these is misread, or the earlier reading was
    seen: frozenset[Card] = frozenset()
