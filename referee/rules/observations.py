"""What a camera can see on a Spit table: the input of the rules engine.

Each observation is a small frozen value with `t` (seconds from the first frame, the moment it
happened on the table, e.g. the instant a card first touched a pile) and an optional keyword
`frame` (the first frame it was seen in; events the engine rules from it carry that frame).
Cards may be given as `Card` or as strings (`"10H"`, `"7?"`); a bad value raises
ObservationError naming the observation. Face-down cards are never named: the camera cannot
see them, so the engine tracks counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Mapping, Sequence, Union

from referee.errors import CardNotationError, ObservationError
from referee.rules.cards import RANKS, Card

PLAYERS = ("A", "B")
STOCK_SLOTS = 5
#: index of the place where a (forbidden) sixth stock pile is laid
SIXTH_SLOT = 5


def describe(observation: object) -> str:
    """A short, readable form for messages: `CardLanded(t=3.2, player='A', pile=0, card=7H)`."""
    parts = []
    for item in fields(observation):  # type: ignore[arg-type]
        value = getattr(observation, item.name)
        if item.name == "frame" and value is None:
            continue
        parts.append(f"{item.name}={value}" if isinstance(value, Card) else f"{item.name}={value!r}")
    return f"{type(observation).__name__}({', '.join(parts)})".replace("Card('", "'").replace("')", "'")


@dataclass(frozen=True)
class _Observation:
    t: float
    frame: int | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if isinstance(self.t, bool) or not isinstance(self.t, (int, float)) or not math.isfinite(self.t):
            self._fail(f"t must be a finite number of seconds, got {self.t!r}")
        if self.frame is not None and (not isinstance(self.frame, int) or self.frame < 0):
            self._fail(f"frame must be a frame index >= 0 or None, got {self.frame!r}")

    def _fail(self, problem: str) -> None:
        raise ObservationError(f"bad observation {type(self).__name__} at t={self.t!r}: {problem}")

    def _check_error(self) -> None:
        error = self.error
        if isinstance(error, bool) or not isinstance(error, (int, float)) or not (math.isfinite(error) and error >= 0):
            self._fail(f"error must be a finite number of seconds >= 0, got {error!r}")

    def _check_player(self, name: str = "player", *, optional: bool = False) -> None:
        value = getattr(self, name)
        if value is None and optional:
            return
        if value not in PLAYERS:
            self._fail(f"{name} must be 'A' or 'B'{' or None' if optional else ''}, got {value!r}")

    def _check_index(self, name: str, upper: int, *, optional: bool = False) -> None:
        value = getattr(self, name)
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= upper:
            self._fail(f"{name} must be an integer 0-{upper}, got {value!r}")

    def _card(self, value: object, name: str = "card", *, optional: bool = False) -> Card | None:
        if value is None and optional:
            return None
        if isinstance(value, Card):
            return value
        try:
            return Card.parse(value)  # type: ignore[arg-type]
        except CardNotationError as error:
            self._fail(f"{name}: {error}")
        raise AssertionError("unreachable")

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)


def _tops_per_player(obs: _Observation, tops: object, name: str) -> dict[str, tuple[Card | None, ...]]:
    if not isinstance(tops, Mapping) or set(tops) != set(PLAYERS):
        obs._fail(f"{name} must map 'A' and 'B' to five cards or None, got {tops!r}")
    result = {}
    for player in PLAYERS:
        row = tops[player]  # type: ignore[index]
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != STOCK_SLOTS:
            obs._fail(f"{name}[{player!r}] must list 5 stock tops (card or None), got {row!r}")
        result[player] = tuple(obs._card(card, f"{name}[{player!r}]", optional=True) for card in row)
    return result


def _counts_per_player(obs: _Observation, counts: object, name: str, length: int | None) -> dict:
    if not isinstance(counts, Mapping) or set(counts) != set(PLAYERS):
        obs._fail(f"{name} must map 'A' and 'B' to counts, got {counts!r}")
    result = {}
    for player in PLAYERS:
        value = counts[player]  # type: ignore[index]
        values = [value] if length is None else value
        if length is not None and (not isinstance(value, Sequence) or len(value) != length):
            obs._fail(f"{name}[{player!r}] must list {length} counts, got {value!r}")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
            obs._fail(f"{name}[{player!r}] must be whole numbers >= 0, got {value!r}")
        result[player] = value if length is None else tuple(value)
    return result


@dataclass(frozen=True)
class RoundLaidOut(_Observation):
    """A new round's layout, before the opening spit: the face-up top of each stock pile
    (None = empty slot). Counts are optional: the camera cannot count face-down cards, so by
    default the engine derives them from each player's cards and the deal of RULES.md."""

    stock_tops: Mapping[str, Sequence[Card | str | None]]
    stock_counts: Mapping[str, Sequence[int]] | None = None
    spit_counts: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._set("stock_tops", _tops_per_player(self, self.stock_tops, "stock_tops"))
        if self.stock_counts is not None:
            self._set("stock_counts", _counts_per_player(self, self.stock_counts, "stock_counts", STOCK_SLOTS))
        if self.spit_counts is not None:
            self._set("spit_counts", _counts_per_player(self, self.spit_counts, "spit_counts", None))


@dataclass(frozen=True)
class LayoutSeen(_Observation):
    """The table as first seen in a clip that starts mid-round: stock tops (None = empty slot, or
    a face-down top where its count is above 0), stock and spit counts (best estimates), the
    spit piles' top cards (None = pile not in use) and, optionally, how many cards each holds.
    `unknown_piles`: spit piles in use whose top could not be read (face down, unreadable); their
    `pile_tops` entry is None and the first card seen landing there becomes the top."""

    stock_tops: Mapping[str, Sequence[Card | str | None]]
    stock_counts: Mapping[str, Sequence[int]]
    spit_counts: Mapping[str, int]
    pile_tops: Sequence[Card | str | None]
    pile_counts: Sequence[int] | None = None
    round_number: int = 1
    scores: Mapping[str, int] | None = None
    unknown_piles: Sequence[int] = ()
    #: True: the stock counts are the least seen (one card per pile showing), more may lie under the tops
    counts_at_least: bool = False
    #: the player who had played their last stock card before the table was seen (every stock slot bare, no card of
    #: theirs laid since the video began still to be ruled): the round is over, its slaps to come (a camera's reading)
    stocks_out: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._set("stock_tops", _tops_per_player(self, self.stock_tops, "stock_tops"))
        self._set("stock_counts", _counts_per_player(self, self.stock_counts, "stock_counts", STOCK_SLOTS))
        self._set("spit_counts", _counts_per_player(self, self.spit_counts, "spit_counts", None))
        if isinstance(self.pile_tops, (str, bytes)) or not isinstance(self.pile_tops, Sequence) or len(self.pile_tops) != 2:
            self._fail(f"pile_tops must list 2 cards or None, got {self.pile_tops!r}")
        self._set("pile_tops", tuple(self._card(card, "pile_tops", optional=True) for card in self.pile_tops))
        if isinstance(self.unknown_piles, (str, bytes)) or not isinstance(self.unknown_piles, Sequence) or any(
            pile not in (0, 1) or isinstance(pile, bool) for pile in self.unknown_piles
        ):
            self._fail(f"unknown_piles must list spit piles 0 and/or 1, got {self.unknown_piles!r}")
        self._set("unknown_piles", tuple(sorted(set(self.unknown_piles))))
        for pile in self.unknown_piles:
            if self.pile_tops[pile] is not None:
                self._fail(f"pile {pile} is listed in unknown_piles but shows {self.pile_tops[pile]}")
        if self.pile_tops[0] is None and 0 not in self.unknown_piles:
            self._fail("pile_tops[0] is None: pile 0 is always in use once play has begun (list it in unknown_piles "
                       "if its top could not be read)")
        if self.pile_counts is not None:
            counts = tuple(self.pile_counts)
            if len(counts) != 2 or any(not isinstance(c, int) or c < 0 for c in counts):
                self._fail(f"pile_counts must be two whole numbers, got {self.pile_counts!r}")
            self._set("pile_counts", counts)
        if self.scores is not None:
            self._set("scores", _counts_per_player(self, self.scores, "scores", None))
        if self.stocks_out is not None and (self.stocks_out not in ("A", "B") or any(self.stock_counts[self.stocks_out])):
            self._fail(f"stocks_out must be a player whose stock counts are all 0, got {self.stocks_out!r}")
        for player in PLAYERS:
            for slot, (top, count) in enumerate(zip(self.stock_tops[player], self.stock_counts[player])):
                if top is not None and count == 0:
                    self._fail(f"stock {player}{slot} shows {top} but its count is 0")


def _check_since(observation) -> None:
    """`stalled_since`, where given, is a time no later than the observation's."""
    since = observation.stalled_since
    if since is not None and (isinstance(since, bool) or not isinstance(since, (int, float))
                              or not math.isfinite(since) or since > observation.t):
        observation._fail(f"stalled_since must be a time no later than t, got {since!r}")


@dataclass(frozen=True)
class SpitTurned(_Observation):
    """A spit card turned face up onto a spit pile (the opening spit or a re-spit). `stalled_since`: for
    a spit seen while play seemed open, when the table last changed before it (the last card laid or
    stock card turned up): the stall the spit implies came then."""

    player: str
    pile: int
    card: Card | str
    stalled_since: float | None = None
    #: the stall this spit ends came before the layout the engine was given was seen (a clip that opens
    #: on the spits): it was called then, and is not ruled now
    stalled_before_layout: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player()
        self._check_index("pile", 1)
        self._set("card", self._card(self.card))
        _check_since(self)


@dataclass(frozen=True)
class CardLanded(_Observation):
    """A card first touched a spit pile at `t`. `player` None = the carrying hand was not seen
    (the engine finds whose stock top it was); `stock` None = which stock pile it left was not seen."""

    player: str | None
    pile: int
    card: Card | str
    stock: int | None = None
    #: seconds `t` may be off by (the camera's timing, about one standard error); 0 = exact
    error: float = field(default=0.0, kw_only=True)
    #: the card had left its stock before the layout the engine was given was seen (a clip that opens
    #: with a card being laid): no stock top on the table is it, and no stock changes
    left_before_layout: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player(optional=True)
        self._check_index("pile", 1)
        self._check_index("stock", SIXTH_SLOT, optional=True)
        self._check_error()
        self._set("card", self._card(self.card))


@dataclass(frozen=True)
class StockTurnedUp(_Observation):
    """The face-down top card of a stock pile was turned face up in place. `stalled_since`: when it was
    turned, where that is known to be before `t` (a stall it leaves came then)."""

    player: str
    stock: int
    card: Card | str
    stalled_since: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player()
        self._check_index("stock", SIXTH_SLOT)
        self._set("card", self._card(self.card))
        _check_since(self)


@dataclass(frozen=True)
class StockMoved(_Observation):
    """A face-up stock card moved to another stock slot (normally an empty one; slot 5 = a sixth pile)."""

    player: str
    from_stock: int
    to_stock: int
    card: Card | str

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player()
        self._check_index("from_stock", SIXTH_SLOT)
        self._check_index("to_stock", SIXTH_SLOT)
        if self.from_stock == self.to_stock:
            self._fail(f"from_stock and to_stock are both {self.from_stock}")
        self._set("card", self._card(self.card))


@dataclass(frozen=True)
class _PlayerOnly(_Observation):
    player: str

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player()


@dataclass(frozen=True)
class _StockSlot(_PlayerOnly):
    stock: int

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_index("stock", SIXTH_SLOT)


@dataclass(frozen=True)
class StockSeenEmpty(_StockSlot):
    """A stock slot is seen bare (a camera's observation): whatever the engine counted there is gone."""


@dataclass(frozen=True)
class StockSeenFaceDown(_StockSlot):
    """A face-down card is seen on a stock slot (a camera's observation): at least one card lies there."""


@dataclass(frozen=True)
class StockInDoubt(_StockSlot):
    """A stock top was read as `card`, but in doubt (a camera's observation): it may be a card of a rank in
    `could_be` (empty: no longer in doubt). While a card it may be could be played, no stall is ruled from
    that stock top until the table has been left alone a while (`StocksSettled.doubts_taken`) or the players
    spit. Applies while the stock's top is `card`."""

    card: Card | str
    could_be: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._set("card", self._card(self.card))
        ranks = self.could_be
        if not isinstance(ranks, (set, frozenset, tuple, list)) or not all(isinstance(rank, str) and rank in RANKS for rank in ranks):
            self._fail(f"could_be must be a set of ranks ({', '.join(RANKS)}), got {ranks!r}")
        self._set("could_be", frozenset(ranks))


@dataclass(frozen=True)
class StocksSettled(_Observation):
    """Nobody has touched a stock for a while (a camera's observation): players who could still move a
    card into an empty slot would have done so, so stock counts not known are taken as they stand (only
    once `uncounted_taken`: a long enough lull; before it, a stock counted only as a least may still hold a
    card to move into an empty slot). `stalled_since`: when the table last changed before (the last card
    laid or stock card turned up): a stall the settled stocks show came then. `face_down_unturned`: a stock
    top seen face down has stayed so through the lull, though turning it up is always a move: it is a
    face-up card the camera cannot read, and no longer holds a stall back. `doubts_taken`: the lull has
    lasted long enough that stock tops read in doubt (`StockInDoubt`) are taken as read: a player who held a
    card that could be played would have played it."""

    stalled_since: float | None = None
    face_down_unturned: bool = False
    uncounted_taken: bool = True
    doubts_taken: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_since(self)


@dataclass(frozen=True)
class CardTakenBack(_Observation):
    """A played card was lifted back off a spit pile (at `t`, the moment it left the pile).
    `to_stock`: where it was put down (None = back where it came from). `revealed`: the card the pile
    showed once it was lifted, where nothing under it was known (the top of a layout a clip opened on)."""

    player: str | None
    pile: int
    card: Card | str
    to_stock: int | None = None
    revealed: Card | str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player(optional=True)
        self._check_index("pile", 1)
        self._check_index("to_stock", SIXTH_SLOT, optional=True)
        self._set("card", self._card(self.card))
        self._set("revealed", self._card(self.revealed, "revealed", optional=True))


@dataclass(frozen=True)
class Slap(_Observation):
    """A flat hand first touched a spit pile at `t`."""

    player: str
    pile: int
    #: seconds `t` may be off by, as CardLanded's
    error: float = field(default=0.0, kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._check_player()
        self._check_index("pile", 1)
        self._check_error()


@dataclass(frozen=True)
class SixthStock(_PlayerOnly):
    """A player has laid out a sixth stock pile (seen as a pile, its move not followed)."""


@dataclass(frozen=True)
class TwoCardsMoved(_PlayerOnly):
    """One hand moved two cards at once."""


@dataclass(frozen=True)
class TwoHandsUsed(_PlayerOnly):
    """A player used their second hand."""


@dataclass(frozen=True)
class GameStopped(_Observation):
    """The players stopped the game (time limit, or they agreed): decide it on the cards held."""


Observation = Union[
    RoundLaidOut, LayoutSeen, SpitTurned, CardLanded, StockTurnedUp, StockMoved, StockSeenEmpty, StockSeenFaceDown,
    StockInDoubt, StocksSettled, CardTakenBack, Slap, SixthStock, TwoCardsMoved, TwoHandsUsed, GameStopped,
]
OBSERVATION_TYPES: tuple[type, ...] = Observation.__args__  # type: ignore[attr-defined]

__all__ = [
    "Observation", "OBSERVATION_TYPES", "RoundLaidOut", "LayoutSeen", "SpitTurned", "CardLanded",
    "StockTurnedUp", "StockMoved", "StockSeenEmpty", "StockSeenFaceDown", "StockInDoubt", "StocksSettled", "CardTakenBack", "Slap", "SixthStock", "TwoCardsMoved", "TwoHandsUsed",
    "GameStopped", "describe", "PLAYERS", "STOCK_SLOTS", "SIXTH_SLOT",
]
