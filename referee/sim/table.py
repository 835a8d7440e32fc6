"""The simulator's hidden table: every card, face up or down, where it really is.

Unlike the rules engine (which sees only what a camera sees), this knows the face-down cards.
All 52 cards are always somewhere in it: stock piles, spit stacks, or spit piles.
"""

from __future__ import annotations

from referee.rules.cards import NEIGHBOURS, Card, can_play_on
from referee.rules.deal import spit_cards, stock_sizes
from referee.sim.script import RoundLayout

PLAYERS = ("A", "B")
SLOTS = 6


class HiddenTable:
    def __init__(self) -> None:
        #: slots 0-4 are the stock piles; slot 5 holds a forbidden sixth pile (a simulated error), normally empty
        self.stocks: dict[str, list[list[Card]]] = {p: [[] for _ in range(SLOTS)] for p in PLAYERS}
        self.face_up: dict[str, list[bool]] = {p: [False] * SLOTS for p in PLAYERS}
        self.spit: dict[str, list[Card]] = {p: [] for p in PLAYERS}
        self.piles: list[list[Card]] = [[], []]
        self.in_use = 2

    def deal(self, hands: dict[str, list[Card]]) -> RoundLayout:
        """Lays out each player's (already shuffled) cards: stocks 1-5 as far as they go, the rest spit cards."""
        for player in PLAYERS:
            cards = list(hands[player])
            slots = []
            for size in stock_sizes(len(cards)):
                slots.append(cards[:size])
                cards = cards[size:]
            assert len(cards) == spit_cards(len(hands[player]))
            self.stocks[player] = slots + [[]]
            self.face_up[player] = [bool(slot) for slot in slots] + [False]
            self.spit[player] = cards
        self.piles = [[], []]
        self.in_use = 2 if all(self.spit[p] for p in PLAYERS) else 1
        return RoundLayout(
            stocks={p: [list(slot) for slot in self.stocks[p][:5]] for p in PLAYERS},
            spit_stacks={p: list(self.spit[p]) for p in PLAYERS},
            spit_piles_in_use=self.in_use,
        )

    # ---- what the players can see and do --------------------------------------------------------

    def stock_count(self, player: str) -> int:
        return sum(len(slot) for slot in self.stocks[player])

    def top(self, player: str, slot: int) -> Card | None:
        """The face-up top of a stock pile, or None (empty or face down)."""
        cards = self.stocks[player][slot]
        return cards[-1] if cards and self.face_up[player][slot] else None

    def face_up_tops(self, player: str) -> list[tuple[int, Card]]:
        return [(slot, self.stocks[player][slot][-1]) for slot in range(SLOTS) if self.stocks[player][slot] and self.face_up[player][slot]]

    def face_down_slots(self, player: str) -> list[int]:
        return [slot for slot in range(SLOTS) if self.stocks[player][slot] and not self.face_up[player][slot]]

    def fill_move(self, player: str) -> tuple[int, int] | None:
        """(from, to): a face-up card of the biggest pile of two or more, into the first empty slot."""
        empty = [slot for slot in range(5) if not self.stocks[player][slot]]
        sources = [slot for slot in range(SLOTS) if len(self.stocks[player][slot]) >= 2 and self.face_up[player][slot]]
        if not empty or not sources:
            return None
        source = max(sources, key=lambda slot: (len(self.stocks[player][slot]), -slot))
        return source, empty[0]

    def unsettled(self, player: str) -> bool:
        stocks = self.stocks[player]
        if any(stocks[slot] and not self.face_up[player][slot] for slot in range(SLOTS)):
            return True
        return any(not slot for slot in stocks[:5]) and any(len(slot) >= 2 for slot in stocks)

    def sixth_pile_move(self, player: str) -> tuple[int, int] | None:
        """(from, 5): a face-up card of a pile of two or more laid out as a sixth pile, when no slot is empty."""
        stocks = self.stocks[player]
        if stocks[5] or not all(stocks[:5]):
            return None
        sources = [slot for slot in range(5) if len(stocks[slot]) >= 2 and self.face_up[player][slot]]
        return (sources[0], 5) if sources else None

    def stock_piles(self, player: str) -> int:
        return sum(1 for slot in self.stocks[player] if slot)

    def pile_tops(self) -> list[tuple[int, Card]]:
        return [(index, self.piles[index][-1]) for index in range(self.in_use) if self.piles[index]]

    def plays(self, player: str) -> list[tuple[int, Card, int]]:
        """Every (slot, card, pile) where a face-up stock top fits a spit pile now."""
        tops = self.pile_tops()
        return [(slot, card, pile) for slot, card in self.face_up_tops(player) for pile, top in tops if can_play_on(card, top)]

    def wrong_plays(self, player: str) -> list[tuple[int, Card, int]]:
        tops = self.pile_tops()
        return [(slot, card, pile) for slot, card in self.face_up_tops(player) for pile, top in tops if not can_play_on(card, top)]

    def any_play(self) -> bool:
        wanted = set()
        for index in range(self.in_use):
            if self.piles[index]:
                wanted |= NEIGHBOURS[self.piles[index][-1].rank]
        for player in PLAYERS:
            cards, face_up = self.stocks[player], self.face_up[player]
            for slot in range(SLOTS):
                if cards[slot] and face_up[slot] and cards[slot][-1].rank in wanted:
                    return True
        return False

    def all_cards(self) -> list[Card]:
        cards = [card for pile in self.piles for card in pile]
        for player in PLAYERS:
            cards += [card for slot in self.stocks[player] for card in slot] + self.spit[player]
        return cards
