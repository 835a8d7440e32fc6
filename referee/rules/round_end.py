"""The end of a round: who takes which spit pile, the points, the cards each player will hold, the winner.

Pure functions of counts, so the engine and its tests share one reading of RULES.md 'End of a round',
'Winning (standard)' and 'Winning (scoring variant)'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from referee.rules.config import RulesConfig

PLAYERS = ("A", "B")


def other(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass(frozen=True)
class RoundFacts:
    reason: str                        # "stock_out" or "no_play"
    ender: str | None                  # who played their last stock card (stock_out)
    spit_piles_in_use: int
    no_spit_player: str | None         # one-pile round: the player who had no spit cards at its start
    stock_counts: Mapping[str, int]
    spit_counts: Mapping[str, int]
    pile_counts: tuple[int, int]
    slaps: Mapping[str, tuple[float, int]]  # first slap of each player: (t, pile)


@dataclass(frozen=True)
class Settlement:
    takes: dict[str, int | None]
    points: dict[str, int]             # this round's points (cards still held), scoring variant
    cards: dict[str, int]              # cards each player lays out next round
    scores: dict[str, int]             # running totals
    winner: str | None
    notes: tuple[str, ...] = ()


def takes_from_slaps(slaps: Mapping[str, tuple[float, int]]) -> tuple[dict[str, int | None], tuple[str, ...]]:
    """Different piles: each takes the pile slapped. Same pile: the first hand (underneath) takes it and
    the other player takes the other pile; slaps timed alike, the one the engine was told of first (the
    order of `slaps`), as its touch-order event says: a camera sees the hand that came down on the other
    hand ruled after it, timed no earlier. A player who did not slap takes the pile left over."""
    if len(slaps) == 2:
        (time_a, pile_a), (time_b, pile_b) = slaps["A"], slaps["B"]
        if pile_a != pile_b:
            return {"A": pile_a, "B": pile_b}, ()
        first = "A" if time_a < time_b else "B" if time_b < time_a else next(iter(slaps))
        return {first: pile_a, other(first): 1 - pile_a}, ()
    if len(slaps) == 1:
        (player, (_, pile)), = slaps.items()
        return {player: pile, other(player): 1 - pile}, (f"only {player} slapped; {other(player)} takes pile {1 - pile}",)
    return {"A": 0, "B": 1}, ("nobody slapped; A is given pile 0 and B pile 1",)


def one_pile_takes(facts: RoundFacts, config: RulesConfig) -> dict[str, int | None]:
    """RULES.md 'Winning (standard)': the first to empty their stocks takes nothing; the opponent takes
    the spit pile. [engine reading] for a no-play ending, see RulesConfig.one_pile_no_play_taker."""
    if facts.reason == "stock_out" and facts.ender is not None:
        return {facts.ender: None, other(facts.ender): 0}
    spitter = other(facts.no_spit_player) if facts.no_spit_player else "A"
    taker = spitter
    if config.one_pile_no_play_taker == "more_stock":
        a, b = facts.stock_counts["A"], facts.stock_counts["B"]
        taker = "A" if a > b else "B" if b > a else spitter
    return {taker: 0, other(taker): None}


def settle(facts: RoundFacts, scores: Mapping[str, int], config: RulesConfig) -> Settlement:
    notes: tuple[str, ...] = ()
    if facts.spit_piles_in_use == 1:
        takes = one_pile_takes(facts, config)
    else:
        takes, notes = takes_from_slaps(facts.slaps)
    points = {p: facts.stock_counts[p] + facts.spit_counts[p] for p in PLAYERS}
    cards = {
        p: points[p] + (facts.pile_counts[takes[p]] if takes[p] is not None else 0) for p in PLAYERS
    }
    new_scores = {p: scores.get(p, 0) + points[p] for p in PLAYERS}
    winner = _winner(facts, cards, new_scores, config)
    return Settlement(takes, points, cards, new_scores, winner, notes)


def _winner(facts: RoundFacts, cards: Mapping[str, int], scores: Mapping[str, int], config: RulesConfig) -> str | None:
    without_cards = [p for p in PLAYERS if cards[p] == 0]
    if config.win_rule == "standard":
        if facts.spit_piles_in_use == 1 and facts.reason == "stock_out" and facts.ender == facts.no_spit_player:
            return facts.ender
        if config.player_without_cards_wins and without_cards:
            return without_cards[0]
        return None
    # scoring variant: ends at target points (or when someone has nothing left to lay out)
    if max(scores.values()) < config.target_points and not (config.player_without_cards_wins and without_cards):
        return None
    if scores["A"] != scores["B"]:
        return "A" if scores["A"] < scores["B"] else "B"
    return without_cards[0] if without_cards else None  # a tie at the target: play on


def stopped_winner(cards: Mapping[str, int], scores: Mapping[str, int], config: RulesConfig) -> str | None:
    """[engine reading] A game stopped early goes to the lower score (scoring) or to the player holding
    fewer cards; a tie on both has no winner."""
    if config.win_rule == "scoring" and scores["A"] != scores["B"]:
        return "A" if scores["A"] < scores["B"] else "B"
    if cards["A"] != cards["B"]:
        return "A" if cards["A"] < cards["B"] else "B"
    return None
