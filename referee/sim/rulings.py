"""The simulator's true event log, written from its hidden state (it never asks the rules engine).

Kept separate from the engine on purpose: replaying simulated games through the engine and comparing
with this log is the engine's main test, so the two must not share the code being tested.
"""

from __future__ import annotations

from typing import Any

from referee.rules.cards import Card, can_play_on
from referee.rules.config import RulesConfig
from referee.rules.events import Event, EventType

PLAYERS = ("A", "B")


class TruthWriter:
    def __init__(self, rules: RulesConfig) -> None:
        self.rules = rules
        self.events: list[Event] = []
        self.scores = {"A": 0, "B": 0}
        self.game_over = False

    def _add(self, event_type: EventType, t: float, **details: Any) -> None:
        self.events.append(Event(event_type, t, None, details))

    def round_start(self, t: float, number: int, spit_piles: int) -> None:
        self._add(EventType.ROUND_START, t, round=number, spit_piles=spit_piles)

    def spit(self, t: float, player: str, pile: int, card: Card) -> None:
        self._add(EventType.SPIT, t, player=player, pile=pile, card=card)

    def play(self, t: float, player: str, pile: int, card: Card, top: Card | None) -> bool:
        legal = top is not None and can_play_on(card, top)
        self._add(EventType.PLAY, t, player=player, pile=pile, card=card, on=top, legal=legal)
        return legal

    def touch_order(self, t: float, pile: int, first: str, gap_ms: float) -> None:
        if gap_ms <= self.rules.touch_window_ms:
            self._add(EventType.TOUCH_ORDER, t, pile=pile, first=first, gap_ms=round(gap_ms, 3),
                      too_close=gap_ms < self.rules.touch_too_close_ms)

    def violation(self, t: float, player: str, kind: str) -> None:
        self._add(EventType.VIOLATION, t, player=player, kind=kind)

    def stall(self, t: float) -> None:
        self._add(EventType.STALL, t)

    def round_over(self, t: float, reason: str, ender: str | None) -> None:
        if ender is None:
            self._add(EventType.ROUND_OVER, t, reason=reason)
        else:
            self._add(EventType.ROUND_OVER, t, reason=reason, player=ender)

    def slap(self, t: float, player: str, pile: int) -> None:
        self._add(EventType.SLAP, t, player=player, pile=pile)

    def takes(self, reason: str, ender: str | None, in_use: int, no_spit_player: str | None,
              slaps: dict[str, tuple[float, int]], stock_counts: dict[str, int]) -> dict[str, int | None]:
        if in_use == 1:
            if reason == "stock_out":
                return {p: (None if p == ender else 0) for p in PLAYERS}
            spitter = "B" if no_spit_player == "A" else "A"
            taker = spitter
            if self.rules.one_pile_no_play_taker == "more_stock" and stock_counts["A"] != stock_counts["B"]:
                taker = max(PLAYERS, key=lambda p: stock_counts[p])
            return {p: (0 if p == taker else None) for p in PLAYERS}
        (t_a, pile_a), (t_b, pile_b) = slaps["A"], slaps["B"]
        if pile_a != pile_b:
            return {"A": pile_a, "B": pile_b}
        first_takes = pile_a
        return {"A": first_takes, "B": 1 - first_takes} if t_a <= t_b else {"A": 1 - first_takes, "B": first_takes}

    def round_end(self, t: float, reason: str, ender: str | None, takes: dict[str, int | None],
                  held: dict[str, int], cards: dict[str, int], in_use: int, no_spit_player: str | None) -> str | None:
        details: dict[str, Any] = {"reason": reason, "takes": dict(takes), "cards": dict(cards)}
        for player in PLAYERS:
            self.scores[player] += held[player]
        if self.rules.win_rule == "scoring":
            details.update(points=dict(held), scores=dict(self.scores))
        self._add(EventType.ROUND_END, t, **details)
        winner = self._winner(reason, ender, cards, in_use, no_spit_player)
        if winner is not None:
            self._add(EventType.GAME_END, t, winner=winner)
            self.game_over = True
        return winner

    def _winner(self, reason: str, ender: str | None, cards: dict[str, int], in_use: int,
                no_spit_player: str | None) -> str | None:
        empty_handed = [p for p in PLAYERS if cards[p] == 0]
        if self.rules.win_rule == "standard":
            if in_use == 1 and reason == "stock_out" and ender == no_spit_player:
                return ender
            return empty_handed[0] if empty_handed else None
        if max(self.scores.values()) < self.rules.target_points and not empty_handed:
            return None
        if self.scores["A"] != self.scores["B"]:
            return min(PLAYERS, key=lambda p: self.scores[p])
        return empty_handed[0] if empty_handed else None

    def stopped(self, t: float, cards: dict[str, int]) -> None:
        self.game_over = True
        if self.rules.win_rule == "scoring" and self.scores["A"] != self.scores["B"]:
            winner: str | None = min(PLAYERS, key=lambda p: self.scores[p])
        elif cards["A"] != cards["B"]:
            winner = min(PLAYERS, key=lambda p: cards[p])
        else:
            winner = None
        if winner is None:
            self._add(EventType.NOTICE, t, message="game stopped with equal cards and scores: no winner")
        else:
            self._add(EventType.GAME_END, t, winner=winner, reason="stopped")
