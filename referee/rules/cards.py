"""Cards in the notation of INTERFACE.md: rank then suit, `10H`, `AS`, `7?`."""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import CardNotationError

#: Ranks from low to high. Adjacency wraps through the ace: A is next to both K and 2.
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
UNKNOWN_SUIT = "?"

_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A playing card. `suit` is None when the suit could not be read (written `?`)."""

    rank: str
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.rank not in _RANK_INDEX:
            raise CardNotationError(f"unknown rank {self.rank!r}: expected one of {' '.join(RANKS)}")
        if self.suit is not None and self.suit not in SUITS:
            raise CardNotationError(f"unknown suit {self.suit!r}: expected one of {' '.join(SUITS)} or ?")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """`Card.parse("10H")`; raises CardNotationError naming the bad string."""
        if not isinstance(text, str):
            raise CardNotationError(f"a card must be a string like '10H', got {type(text).__name__}")
        cleaned = text.strip().upper()
        if len(cleaned) < 2:
            raise CardNotationError(f"bad card {text!r}: expected rank then suit, like '10H', 'AS' or '7?'")
        rank, suit = cleaned[:-1], cleaned[-1]
        if rank == "T":
            rank = "10"
        if rank not in _RANK_INDEX:
            raise CardNotationError(f"bad card {text!r}: rank {rank!r} is not one of {' '.join(RANKS)}")
        if suit == UNKNOWN_SUIT:
            return cls(rank, None)
        if suit not in SUITS:
            raise CardNotationError(f"bad card {text!r}: suit {suit!r} is not one of S H D C ?")
        return cls(rank, suit)

    @property
    def rank_index(self) -> int:
        """0 for 2 ... 12 for A."""
        return _RANK_INDEX[self.rank]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit or UNKNOWN_SUIT}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def same_card(seen: Card, said: Card) -> bool:
    """Two sightings of one card: same rank, and the same suit wherever both suits were read."""
    return seen.rank == said.rank and (seen.suit is None or said.suit is None or seen.suit == said.suit)


def rank_index(rank: str) -> int:
    try:
        return _RANK_INDEX[rank]
    except KeyError:
        raise CardNotationError(f"unknown rank {rank!r}: expected one of {' '.join(RANKS)}") from None


def _one_apart(first: int, second: int) -> bool:
    gap = abs(first - second)
    return gap == 1 or gap == len(RANKS) - 1


#: every ordered pair of adjacent ranks (a set lookup: the simulator and engine ask this very often)
_ADJACENT_RANKS = frozenset(
    (first, second) for first in RANKS for second in RANKS if _one_apart(_RANK_INDEX[first], _RANK_INDEX[second])
)


#: the two ranks next to each rank: NEIGHBOURS["A"] == {"K", "2"}
NEIGHBOURS: dict[str, frozenset[str]] = {
    rank: frozenset(other for other in RANKS if (rank, other) in _ADJACENT_RANKS) for rank in RANKS
}


def ranks_adjacent(first: str, second: str) -> bool:
    """True when the ranks are one apart on the cycle 2-3-...-K-A-2 (K and 2 are not adjacent)."""
    if (first, second) in _ADJACENT_RANKS:
        return True
    rank_index(first), rank_index(second)  # an unknown rank is an error, not "not adjacent"
    return False


def can_play_on(card: Card, top: Card) -> bool:
    return (card.rank, top.rank) in _ADJACENT_RANKS


def full_deck() -> list[Card]:
    """The 52 cards, in a fixed order (suits S H D C, ranks low to high)."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]
