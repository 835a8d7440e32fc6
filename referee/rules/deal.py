"""How a player's cards are laid out at the start of a round (RULES.md 'Setup', 'Fewer than 15 cards')."""

from __future__ import annotations

FULL_STOCK = (1, 2, 3, 4, 5)


def stock_sizes(cards: int) -> tuple[int, ...]:
    """Cards in each of the five stock piles for a player holding `cards` cards.

    [reading] With fewer than 15, pile 1 gets 1 card, pile 2 gets 2, and so on until the cards run
    out: 7 cards -> (1, 2, 3, 1, 0).
    """
    if cards < 0:
        raise ValueError(f"a player cannot hold {cards} cards")
    sizes = []
    left = cards
    for wanted in FULL_STOCK:
        size = min(wanted, left)
        sizes.append(size)
        left -= size
    return tuple(sizes)


def spit_cards(cards: int) -> int:
    """Cards left in the hand as spit cards once the stocks are laid out."""
    return max(0, cards - sum(FULL_STOCK))


def spit_piles_in_use(spit_counts: dict[str, int]) -> int:
    """Two spit piles when both players can spit; one (pile 0) when either has no spit cards."""
    return 2 if all(count > 0 for count in spit_counts.values()) else 1
