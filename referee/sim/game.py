"""Two simulated players playing a whole game of Spit, as a timed script of physical actions.

    script = simulate_game(7)                         # deterministic per seed
    script.truth                                      # the true event log (frame=None)
    script.rounds[0].actions                          # what each hand did, and when

The players act at the same time on one continuous time line. Each decides from the table as it
is when their hand is free, so two hands can go for one pile: the card that touches first is on,
the later one is judged against it. A card is on the pile from the instant it touches (`t_touch`),
which is also the `t` of its event. The simulator keeps the full hidden state (it knows the
face-down cards) and writes its truth from it, independently of the rules engine.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Callable

from referee.rules.cards import Card, full_deck
from referee.sim.config import SimConfig
from referee.sim.rulings import TruthWriter
from referee.sim.script import Action, ActionKind, GameScript, Place, PlaceKind, RoundScript
from referee.sim.table import PLAYERS, HiddenTable
from referee.sim.timing import HandTiming

__all__ = ["simulate_game", "GameSimulator", "SimConfig"]

#: a safety net far beyond any real game; a round that has not ended by then is a simulator bug
_MAX_STEPS_PER_ROUND = 20000


def simulate_game(seed: int, *, config: SimConfig | None = None) -> GameScript:
    """A complete simulated game under `config` (default SimConfig()), the same for the same seed."""
    return GameSimulator(seed, config).run()


@dataclass(order=True)
class _Scheduled:
    t: float
    order: int
    kind: str = field(compare=False)              # "decide" or "commit"
    player: str = field(compare=False)
    action: Action | None = field(default=None, compare=False)
    info: dict = field(default_factory=dict, compare=False)
    cancelled: bool = field(default=False, compare=False)


class GameSimulator:
    """Runs one game. `on_commit(simulator)` (optional) is called after every change to the table."""

    def __init__(self, seed: int, config: SimConfig | None = None,
                 on_commit: Callable[["GameSimulator"], None] | None = None) -> None:
        self.seed = seed
        self.config = config or SimConfig()
        self.rng = random.Random(seed)
        self.table = HiddenTable()
        self.truth = TruthWriter(self.config.rules_config())
        self.rounds: list[RoundScript] = []
        self.on_commit = on_commit
        self.timing = {p: HandTiming(self.rng, self.config, self.rng.uniform(*self.config.player_speed)) for p in PLAYERS}
        self.stopped_at: float | None = None

    # ---- the game ---------------------------------------------------------------------------------

    def run(self) -> GameScript:
        deck = full_deck()
        self.rng.shuffle(deck)
        hands = {"A": deck[:26], "B": deck[26:]}
        t_start = 0.5
        number = 1
        while True:
            hands, winner = self._play_round(number, t_start, hands)
            round_ = self.rounds[-1]
            if winner is not None or self.truth.game_over:
                break
            t_next = round_.t_end + self.rng.uniform(*self.config.round_gap_s)
            if t_next > self.config.max_seconds:
                self.stopped_at = round_.t_end
                self.truth.stopped(self.stopped_at, {p: len(hands[p]) for p in PLAYERS})
                break
            t_start, number = t_next, number + 1
        duration = self.rounds[-1].t_end + 1.0
        return GameScript(self.seed, self.rounds, self.truth.events, duration,
                          win_rule=self.config.win_rule, stopped_at=self.stopped_at)

    def _play_round(self, number: int, t0: float, hands: dict[str, list[Card]]) -> tuple[dict[str, list[Card]], str | None]:
        layout = self.table.deal(hands)
        self.round = RoundScript(number, t0, layout)
        self.rounds.append(self.round)
        self.heap: list[_Scheduled] = []
        self.counter = 0
        self.phase = "laid_out"
        self.spits_due = {p for p in PLAYERS if self.table.spit[p]}
        self.no_spit_player = next((p for p in PLAYERS if not self.table.spit[p]), None)
        self.pending: dict[str, list[_Scheduled]] = {p: [] for p in PLAYERS}
        self.hand_free = {p: t0 for p in PLAYERS}
        self.last_end = {p: t0 for p in PLAYERS}
        self.waiting: set[str] = {p for p in PLAYERS if p not in self.spits_due}  # start once the spit lands
        self.last_landing: list[tuple[float, str] | None] = [None, None]
        self.take_back_intent: dict[str, tuple[int, Card, int] | None] = {p: None for p in PLAYERS}
        self.slaps: dict[str, tuple[float, int]] = {}
        self.result: tuple[dict[str, list[Card]], str | None] | None = None
        self.truth.round_start(t0, number, self.table.in_use)
        self._notify()
        self._schedule_spits(t0 + self.rng.uniform(*self.config.opening_spit_s), sorted(self.spits_due))
        steps = 0
        while self.result is None:
            steps += 1
            if not self.heap or steps > _MAX_STEPS_PER_ROUND:
                raise RuntimeError(f"simulator stuck in round {number} of seed {self.seed} (phase {self.phase})")
            item = heapq.heappop(self.heap)
            if item.cancelled:
                continue
            if item.kind == "decide":
                self._decide(item.player, item.t)
            else:
                self._commit(item)
        self.round.t_end = max([self.round.t_start] + [a.t_end for a in self.round.actions]) + 0.5
        return self.result

    # ---- scheduling -------------------------------------------------------------------------------

    def _push(self, t: float, kind: str, player: str, action: Action | None = None, **info) -> _Scheduled:
        self.counter += 1
        item = _Scheduled(t, self.counter, kind, player, action, info)
        heapq.heappush(self.heap, item)
        return item

    def _schedule(self, action: Action, commit_t: float, **info) -> None:
        item = self._push(commit_t, "commit", action.player, action, **info)
        self.pending[action.player].append(item)
        self.hand_free[action.player] = action.t_end
        if action.kind is not ActionKind.SLAP:
            self._push(action.t_end, "decide", action.player)

    def _cancel_pending(self) -> None:
        for player in PLAYERS:
            for item in self.pending[player]:
                item.cancelled = True
            self.pending[player] = []
            self.hand_free[player] = self.last_end[player]

    def _wake(self, t: float) -> None:
        for player in sorted(self.waiting):
            self._push(t + self.timing[player].draw(self.config.notice_s), "decide", player)
        self.waiting.clear()

    def _schedule_spits(self, t_spit: float, spitters: list[str]) -> None:
        for player in spitters:
            timing = self.timing[player]
            touch = max(t_spit + self.rng.uniform(*self.config.spit_spread_s), self.hand_free[player] + 0.6)
            times = timing.move_touching_at(touch, earliest_start=self.hand_free[player])
            if times is None:  # cannot happen with the 0.6 s margin unless ranges are huge; go as soon as free
                times = timing.move(self.hand_free[player])
            if self.table.in_use == 1:
                pile = 0
            elif len(spitters) == 2:
                pile = 1 if player == "A" else 0  # each spits onto the pile at their right hand
            else:
                pile = self.rng.randrange(2)
            source, target = Place(PlaceKind.SPIT_STACK, 0, player), Place(PlaceKind.SPIT_PILE, pile)
            card = self.table.spit[player][-1]
            action = Action(player, ActionKind.SPIT, card, source, target, *times)
            self._schedule(action, times[2], pile=pile)

    # ---- a free hand chooses what to do -----------------------------------------------------------

    def _decide(self, player: str, t: float) -> None:
        if t < self.hand_free[player]:
            return  # a later decide is already queued at the hand's free time
        if self.phase != "playing":
            self.waiting.add(player)
            return
        table, timing, config = self.table, self.timing[player], self.config
        start = t + timing.think()
        intent = self.take_back_intent[player]
        self.take_back_intent[player] = None
        if intent is not None and table.piles[intent[0]] and table.piles[intent[0]][-1] == intent[1]:
            pile, card, slot = intent
            times = timing.move(start)
            action = Action(player, ActionKind.TAKE_BACK, card, Place(PlaceKind.SPIT_PILE, pile),
                            Place(PlaceKind.STOCK, slot, player), *times)
            self._schedule(action, times[1], pile=pile, slot=slot)
            return
        face_down = table.face_down_slots(player)
        if face_down:
            slot = face_down[0]
            times = timing.flip(start)
            place = Place(PlaceKind.STOCK, slot, player)
            action = Action(player, ActionKind.TURN_UP, table.stocks[player][slot][-1], place, place, *times)
            self._schedule(action, times[2], slot=slot)
            return
        sixth = table.sixth_pile_move(player) if config.sixth_stock_rate else None
        if sixth is not None and self.rng.random() < config.sixth_stock_rate:
            self._move_stock(player, start, sixth)
            return
        plays = table.plays(player)
        if self.rng.random() < config.illegal_play_rate:
            plays = table.wrong_plays(player) or plays
        else:
            # a player sees the other hand heading for a pile and usually leaves that pile alone; sometimes
            # races for it instead
            busy = {item.info["pile"] for item in self.pending[self._other(player)] if item.action.kind is ActionKind.PLAY}
            if self.rng.random() >= config.near_simultaneous_rate:
                plays = [play for play in plays if play[2] not in busy]
            elif config.race_rate > 0 and self.rng.random() < config.race_rate:
                plays = [play for play in plays if play[2] in busy] or plays
        if plays:
            self._play(player, start, self.rng.choice(plays))
            return
        move = table.fill_move(player)
        if move is not None:
            self._move_stock(player, start, move)
            return
        self.waiting.add(player)

    def _move_stock(self, player: str, start: float, move: tuple[int, int]) -> None:
        source, target = move
        times = self.timing[player].move(start, travel=(0.1, 0.25))
        action = Action(player, ActionKind.FILL_SLOT, self.table.stocks[player][source][-1],
                        Place(PlaceKind.STOCK, source, player), Place(PlaceKind.STOCK, target, player), *times)
        self._schedule(action, times[2], source=source, target=target)

    def _play(self, player: str, start: float, choice: tuple[int, Card, int]) -> None:
        slot, card, pile = choice
        timing, config = self.timing[player], self.config
        times = None
        rival = [item for item in self.pending[self._other(player)]
                 if item.action.kind is ActionKind.PLAY and item.info["pile"] == pile and item.t > start]
        if rival:
            if self.rng.random() < config.within_frame_share:
                gap = self.rng.uniform(*config.close_gap_s)
            else:
                gap = self.rng.uniform(0.017, config.touch_window_ms / 1000.0 * 0.8)
            times = timing.move_touching_at(rival[0].t + self.rng.choice((-gap, gap)), earliest_start=start)
            if times is None and config.race_rate > 0:  # racing for the pile, the player hurries to land just after
                times = timing.move_touching_at(rival[0].t + gap, earliest_start=start, hurry=True)
        if times is None:
            times = timing.move(start)
        hand = "other" if self.rng.random() < config.two_hands_rate else "main"
        action = Action(player, ActionKind.PLAY, card, Place(PlaceKind.STOCK, slot, player),
                        Place(PlaceKind.SPIT_PILE, pile), *times, hand=hand)
        self._schedule(action, times[2], pile=pile, slot=slot)

    @staticmethod
    def _other(player: str) -> str:
        return "B" if player == "A" else "A"

    # ---- an action takes effect -------------------------------------------------------------------

    def _commit(self, item: _Scheduled) -> None:
        action, player, t = item.action, item.player, item.t
        self.pending[player].remove(item)
        if self.phase in ("over", "settled") and action.kind is not ActionKind.SLAP:
            self.hand_free[player] = self.last_end[player]
            return
        handler = {
            ActionKind.PLAY: self._commit_play,
            ActionKind.TURN_UP: self._commit_turn_up,
            ActionKind.FILL_SLOT: self._commit_fill,
            ActionKind.SPIT: self._commit_spit,
            ActionKind.SLAP: self._commit_slap,
            ActionKind.TAKE_BACK: self._commit_take_back,
        }[action.kind]
        previous_end = self.last_end[player]
        self.last_end[player] = max(previous_end, action.t_end)  # a slap this causes waits for this hand
        if handler(action, t, item.info) is False:
            self.last_end[player] = self.hand_free[player] = previous_end
            return  # the action came to nothing and is left out of the script
        self.round.actions.append(action)
        self._notify()
        self._wake(t)

    def _commit_play(self, action: Action, t: float, info: dict) -> None:
        table, player, pile, slot = self.table, action.player, info["pile"], info["slot"]
        if action.hand != "main":
            self.truth.violation(t, player, "two_hands")
        last = self.last_landing[pile]
        if last is not None and last[1] != player:
            self.truth.touch_order(t, pile, last[1], (t - last[0]) * 1000.0)
        top = table.piles[pile][-1] if table.piles[pile] else None
        legal = self.truth.play(t, player, pile, action.card, top)
        table.stocks[player][slot].pop()
        table.face_up[player][slot] = False
        table.piles[pile].append(action.card)
        self.last_landing[pile] = (t, player)
        if not legal and self.rng.random() < self.config.take_back_rate:
            self.take_back_intent[player] = (pile, action.card, slot)
        if table.stock_count(player) == 0:
            self._round_over(t, "stock_out", player)
        else:
            self._check_stall(t)

    def _commit_turn_up(self, action: Action, t: float, info: dict) -> None:
        self.table.face_up[action.player][info["slot"]] = True
        self._check_stall(t)

    def _commit_fill(self, action: Action, t: float, info: dict) -> None:
        stocks, face_up = self.table.stocks[action.player], self.table.face_up[action.player]
        stocks[info["target"]].append(stocks[info["source"]].pop())
        face_up[info["target"]], face_up[info["source"]] = True, False
        if self.table.stock_piles(action.player) > 5:
            self.truth.violation(t, action.player, "sixth_stock")
        self._check_stall(t)

    def _commit_spit(self, action: Action, t: float, info: dict) -> None:
        player, pile = action.player, info["pile"]
        self.table.piles[pile].append(self.table.spit[player].pop())
        self.last_landing[pile] = None
        self.truth.spit(t, player, pile, action.card)
        self.spits_due.discard(player)
        if not self.spits_due:
            self.phase = "playing"
            self._check_stall(t)

    def _commit_take_back(self, action: Action, t: float, info: dict) -> bool:
        pile, slot, player = info["pile"], info["slot"], action.player
        cards = self.table.piles[pile]
        if not cards or cards[-1] != action.card:
            return False  # someone played on top of it meanwhile: it can no longer be lifted
        self.truth.violation(t, player, "take_back")
        self.table.stocks[player][slot].append(cards.pop())
        self.table.face_up[player][slot] = True
        self.last_landing[pile] = None
        self._check_stall(t)
        return True

    # ---- stalls, round ends, slaps ----------------------------------------------------------------

    def _check_stall(self, t: float) -> None:
        if self.phase != "playing" or self.spits_due:
            return
        table = self.table
        if table.any_play() or any(table.unsettled(p) for p in PLAYERS):
            return
        spitters = [p for p in PLAYERS if table.spit[p]]
        if not spitters:
            self._round_over(t, "no_play", None)
            return
        self.phase = "stalled"
        self.spits_due = set(spitters)
        self.truth.stall(t)
        noticed = []
        for player in PLAYERS:
            span = self.config.slow_stall_s if self.rng.random() < self.config.slow_stall_rate else self.config.stall_notice_s
            noticed.append(self.rng.uniform(*span))
        self._schedule_spits(t + max(noticed), spitters)

    def _round_over(self, t: float, reason: str, ender: str | None) -> None:
        self.phase = "over"
        self.reason, self.ender = reason, ender
        self.truth.round_over(t, reason, ender)
        self._cancel_pending()
        if self.table.in_use == 1:
            self._settle(t)
            return
        sizes = [len(pile) for pile in self.table.piles]
        smaller = 0 if sizes[0] < sizes[1] else 1 if sizes[1] < sizes[0] else self.rng.randrange(2)
        touches = set()
        for player in PLAYERS:
            pile = smaller if self.rng.random() < self.config.slap_smaller_rate else 1 - smaller
            start = max(t, self.hand_free[player]) + self.rng.uniform(*self.config.slap_reaction_s)
            times = self.timing[player].slap(start)
            while round(times[2], 3) in touches:  # two hands never touch in the very same millisecond
                times = tuple(x + 0.002 for x in times)
            touches.add(round(times[2], 3))
            action = Action(player, ActionKind.SLAP, None, None, Place(PlaceKind.SPIT_PILE, pile), *times)
            self._schedule(action, times[2], pile=pile)

    def _commit_slap(self, action: Action, t: float, info: dict) -> None:
        player, pile = action.player, info["pile"]
        for other, (t_other, pile_other) in self.slaps.items():
            if pile_other == pile:
                self.truth.touch_order(t, pile, other, (t - t_other) * 1000.0)
        self.slaps[player] = (t, pile)
        self.truth.slap(t, player, pile)
        if len(self.slaps) == 2:
            self._settle(t)

    def _settle(self, t: float) -> None:
        table = self.table
        held = {p: [card for slot in table.stocks[p] for card in slot] + table.spit[p] for p in PLAYERS}
        takes = self.truth.takes(self.reason, self.ender, table.in_use, self.no_spit_player, self.slaps,
                                 {p: table.stock_count(p) for p in PLAYERS})
        hands = {p: held[p] + (table.piles[takes[p]] if takes[p] is not None else []) for p in PLAYERS}
        winner = self.truth.round_end(t, self.reason, self.ender, takes, {p: len(held[p]) for p in PLAYERS},
                                      {p: len(hands[p]) for p in PLAYERS}, table.in_use, self.no_spit_player)
        for player in PLAYERS:
            self.rng.shuffle(hands[player])
        self.phase = "settled"
        self.result = (hands, winner)

    def _notify(self) -> None:
        if self.on_commit is not None:
            self.on_commit(self)
