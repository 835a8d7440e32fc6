"""The rules engine: a deterministic state machine that turns observations into rulings.

    engine = RulesEngine(RulesConfig())
    for observation in observations:          # in order of t
        for event in engine.observe(observation):
            ...                                # events in the schema of INTERFACE.md

It referees from what is visible. Face-down cards are unknown, so it tracks counts and reads every
card's identity from the observations. An observation that cannot be true (out of time order, a card
that cannot be where it is said to be, a spit by a player with none left) raises ObservationError
naming it and leaves the state exactly as it was; with `RulesConfig(on_impossible="notice")` it
becomes a `notice` event instead. Illegal plays and breaches are events, never exceptions.

For a camera, `RulesConfig(camera_tolerant=True)` (see `RulesConfig.for_camera`) rules what visibly
happened even where it does not fit what the engine knows, with a `notice` naming the doubt: a play
is never lost to an earlier misreading.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from referee.errors import ObservationError
from referee.rules.cards import Card
from referee.rules.config import RulesConfig, touch_error_ms
from referee.rules.deal import spit_cards, spit_piles_in_use, stock_sizes
from referee.rules.events import Event, EventType, place_notes
from referee.rules.observations import (
    OBSERVATION_TYPES, CardLanded, CardTakenBack, GameStopped, LayoutSeen, RoundLaidOut, SixthStock, Slap,
    SpitTurned, StockInDoubt, StockMoved, StockSeenEmpty, StockSeenFaceDown, StocksSettled, StockTurnedUp, TwoCardsMoved, TwoHandsUsed, describe,
)
from referee.rules.plays import PlayRules
from referee.rules.round_end import RoundFacts, settle, stopped_winner
from referee.rules.state import (
    PLAYERS, EngineState, GamePhase, PlayerTable, PlayerView, SpitPile, Stock, StockView,
)

__all__ = ["RulesEngine"]


class RulesEngine(PlayRules):
    """Feed it observations in order of `t` with `observe`; read `events` and `state`."""

    def __init__(self, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()
        self._events: list[Event] = []
        self._t: float | None = None
        self._phase = GamePhase.WAITING_FOR_LAYOUT
        self._round = 0
        self._players = {player: PlayerTable() for player in PLAYERS}
        self._piles = [SpitPile(), SpitPile()]
        self._in_use = 2
        self._spits_due: set[str] = set()
        self._no_spit_player: str | None = None
        self._seen: set[Card] = set()
        self._cards = {"A": 26, "B": 26}
        self._scores = {"A": 0, "B": 0}
        self._slaps: dict[str, tuple[float, int]] = {}
        self._slap_errors: dict[str, float] = {}  # how far off each slap's time may be (s)
        self._reason: str | None = None
        self._ender: str | None = None
        #: when the round ended and how far off that time may be (s), for a card landing at the same moment
        self._round_over_at: tuple[float, float] | None = None
        self._winner: str | None = None
        self._first_seen_at: float | None = None  # see `_start_round`
        #: stock tops read in doubt (camera_tolerant): (player, slot) -> (the card read, the ranks it may be)
        self._doubts: dict[tuple[str, int], tuple[Card, frozenset[str]]] = {}
        #: doubts found while ruling one observation (camera_tolerant), sent as notices before its rulings
        self._notes: list[str] = []
        self._handlers: dict[type, Callable[[Any], list[Event]]] = {
            RoundLaidOut: self._round_laid_out,
            LayoutSeen: self._layout_seen,
            SpitTurned: self._spit,
            CardLanded: self._card_landed,
            StockTurnedUp: self._stock_turned_up,
            StockMoved: self._stock_moved,
            StockSeenEmpty: self._stock_seen_empty,
            StockSeenFaceDown: self._stock_seen_face_down,
            StockInDoubt: self._stock_in_doubt,
            StocksSettled: self._stocks_settled,
            CardTakenBack: self._card_taken_back,
            Slap: self._slap,
            SixthStock: lambda obs: [self._event(EventType.VIOLATION, obs, player=obs.player, kind="sixth_stock")],
            TwoCardsMoved: lambda obs: [self._event(EventType.VIOLATION, obs, player=obs.player, kind="two_cards")],
            TwoHandsUsed: lambda obs: [self._event(EventType.VIOLATION, obs, player=obs.player, kind="two_hands")],
            GameStopped: self._stopped,
        }

    @classmethod
    def starting_from(cls, layout: LayoutSeen, config: RulesConfig | None = None) -> "RulesEngine":
        """An engine that takes up a game mid-round from the first layout a clip shows."""
        engine = cls(config)
        engine.observe(layout)
        return engine

    # ---- public surface ---------------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> EngineState:
        between_rounds = self._phase in (GamePhase.WAITING_FOR_LAYOUT, GamePhase.GAME_OVER)
        players = {
            player: PlayerView(
                stocks=tuple(StockView(stock.count, stock.top) for stock in table.stocks),
                spit_count=table.spit_count,
                stock_count=table.stock_count,
                cards=self._cards[player] if between_rounds else table.cards_held,
                score=self._scores[player],
            )
            for player, table in self._players.items()
        }
        return EngineState(
            phase=self._phase,
            round_number=self._round,
            t=self._t,
            spit_piles_in_use=self._in_use,
            pile_tops=(self._piles[0].top, self._piles[1].top),
            pile_counts=(self._piles[0].count, self._piles[1].count),
            players=players,
            winner=self._winner,
            spits_due=frozenset(self._spits_due),
            seen=frozenset(self._seen),
        )

    def observe(self, observation: Any) -> list[Event]:
        """Rules one observation; returns the events it caused (also appended to `events`)."""
        try:
            if not isinstance(observation, OBSERVATION_TYPES):
                raise ObservationError(
                    f"expected an observation from referee.rules.observations, got {type(observation).__name__}"
                )
            if self._t is not None and observation.t < self._t:
                raise ObservationError(
                    f"{describe(observation)} is out of time order: the previous observation was at t={self._t}; "
                    "send observations in order of t"
                )
            if self._phase is GamePhase.GAME_OVER:
                raise ObservationError(
                    f"{describe(observation)} came after the game ended ({self._winner or 'no one'} won); "
                    "start a new RulesEngine for a new game"
                )
            self._notes = []
            events = self._handlers[type(observation)](observation)
            place_notes(events, [self._event(EventType.NOTICE, observation, message=note) for note in self._notes])
            self._notes = []
        except ObservationError as error:
            self._notes = []
            if self.config.on_impossible == "raise" or not isinstance(observation, OBSERVATION_TYPES):
                raise
            t = max(observation.t, self._t if self._t is not None else observation.t)
            events = [Event(EventType.NOTICE, t, observation.frame, {"message": f"ignored: {error}"})]
            self._t = t
            self._events.extend(events)
            return events
        if events or not isinstance(observation, (StocksSettled, StockInDoubt)):
            # a lull that rules nothing leaves the clock where play left it: a stall a longer lull shows is
            # dated when play stopped (`_stall_event`), not when the first lull began; nor does a doubt move it
            self._t = observation.t
        self._events.extend(events)
        return events

    def observe_all(self, observations: Iterable[Any]) -> list[Event]:
        out: list[Event] = []
        for observation in observations:
            out.extend(self.observe(observation))
        return out

    # ---- layouts ----------------------------------------------------------------------------------

    def _round_laid_out(self, obs: RoundLaidOut) -> list[Event]:
        events: list[Event] = []
        cards = dict(self._cards)
        settlement_due = self._phase is GamePhase.ROUND_OVER
        if settlement_due:
            pending = self._settlement()
            if pending.winner and self.config.camera_tolerant:
                # the players lay out again, so the game went on: the slaps were not seen as they were
                settlement_due = False
                events.append(self._event(
                    EventType.NOTICE, obs,
                    message=f"round {self._round} was not settled as seen (it would have ended the game); new layout taken as seen",
                ))
            elif pending.winner:
                raise ObservationError(
                    f"{describe(obs)}: round {self._round} still waits for its slaps, and settling it ends the game"
                )
            cards = pending.cards
        elif self._phase is not GamePhase.WAITING_FOR_LAYOUT:
            if not (obs.stock_counts and obs.spit_counts) and self.config.camera_tolerant:
                # the end of the round was missed: the cards each player holds as best known (each takes the
                # pile a round with no slaps seen gives them)
                cards = self._settlement().cards
                events.append(self._event(
                    EventType.NOTICE, obs,
                    message=f"the end of round {self._round} was not seen; new layout taken as seen, with counts as best known",
                ))
            elif not (obs.stock_counts and obs.spit_counts):
                raise ObservationError(
                    f"{describe(obs)}: round {self._round} is still being played ({self._phase.value}); "
                    "a new layout can only follow the end of a round (give stock_counts and spit_counts to start "
                    "a new round anyway)"
                )
            else:
                # the end of the round was missed: take the new layout as seen, with its counts
                cards = {p: sum(obs.stock_counts[p]) + obs.spit_counts[p] for p in PLAYERS}
                events.append(self._event(
                    EventType.NOTICE, obs, message=f"the end of round {self._round} was not seen; new layout taken as seen"
                ))
        plan = {player: self._planned_layout(obs, player, cards[player]) for player in PLAYERS}
        tops = [card for player in PLAYERS for card in obs.stock_tops[player] if card is not None]
        self._check_duplicates(obs, tops)
        if settlement_due:
            events += self._settle(obs)
        for player, (counts, spit, note) in plan.items():
            if note:
                events.append(self._event(EventType.NOTICE, obs, message=note))
            table = self._players[player]
            table.stocks = [Stock(count, obs.stock_tops[player][slot]) for slot, count in enumerate(counts)]
            table.spit_count = spit
        self._start_round(obs, {player: plan[player][1] for player in PLAYERS})
        events.append(self._event(EventType.ROUND_START, obs, round=self._round, spit_piles=self._in_use))
        self._phase = GamePhase.LAID_OUT if self._spits_due else GamePhase.PLAYING
        return events + self._check_stall(obs)

    def _planned_layout(self, obs: RoundLaidOut, player: str, cards: int) -> tuple[tuple[int, ...], int, str | None]:
        counts = obs.stock_counts[player] if obs.stock_counts else stock_sizes(cards)
        spit = obs.spit_counts[player] if obs.spit_counts else spit_cards(cards)
        note = None
        if sum(counts) + spit != cards:
            note = f"{player} laid out {sum(counts) + spit} cards where the engine counted {cards}; taking the layout as seen"
        for slot, (top, count) in enumerate(zip(obs.stock_tops[player], counts)):
            if top is not None and count == 0:
                if self.config.camera_tolerant:
                    counts = tuple(1 if index == slot else size for index, size in enumerate(counts))
                    self._notes.append(f"stock {player}{slot} shows {top} where the deal leaves it empty; counted 1 card")
                    continue
                raise ObservationError(
                    f"{describe(obs)}: stock {player}{slot} shows {top} but {player}'s {cards} cards leave it empty "
                    f"(stock sizes {list(counts)}); give stock_counts if the deal differed"
                )
        return tuple(counts), spit, note

    def _layout_seen(self, obs: LayoutSeen) -> list[Event]:
        tops = [card for player in PLAYERS for card in obs.stock_tops[player] if card is not None]
        self._check_duplicates(obs, tops + [card for card in obs.pile_tops if card is not None])
        for player in PLAYERS:
            self._players[player].stocks = [
                Stock(count, top, counted=count == 0 or not obs.counts_at_least)
                for top, count in zip(obs.stock_tops[player], obs.stock_counts[player])
            ]
            self._players[player].spit_count = obs.spit_counts[player]
        spit = dict(obs.spit_counts)
        self._start_round(obs, spit, round_number=obs.round_number)
        for index, top in enumerate(obs.pile_tops):
            pile = self._piles[index]
            if top is not None:
                pile.push(top, ("unknown", "", None))
                self._seen.add(top)
            pile.count = obs.pile_counts[index] if obs.pile_counts else len(pile.cards)
            if index in obs.unknown_piles:
                pile.top_unknown = True
                self._notes.append(
                    f"the top of spit pile {index} could not be read; the first card seen landing there becomes its "
                    "top, and is taken as a legal play"
                )
        self._in_use = 2 if obs.pile_tops[1] is not None or 1 in obs.unknown_piles else 1
        empty = [player for player in PLAYERS if spit[player] == 0]
        self._no_spit_player = empty[0] if self._in_use == 1 and len(empty) == 1 else None
        self._spits_due = set()
        if obs.scores:
            self._scores = dict(obs.scores)
        self._phase = GamePhase.PLAYING
        start = self._event(EventType.ROUND_START, obs, round=self._round, spit_piles=self._in_use, mid_round=True)
        if self.config.camera_tolerant and obs.stocks_out is not None:
            # [camera reading] a first view of a round that is over: a player's stock slots all bare while the spit
            # piles still hold their cards (a clip that opens as the last stock card is laid, or as the hands go for
            # the slaps). The round ended before the layout was seen; its slaps are still to come
            self._notes.append(f"{obs.stocks_out} had no stock cards left as the table was first seen: the round was "
                               "over already, and the slaps are still to come")
            return [start] + self._round_over(obs, "stock_out", obs.stocks_out)
        # a stock top read in doubt is taken as read here: a first view has no lull to wait for. A table stalled as
        # first seen (a clip that opens while the players wait to re-spit) stalled before the video began: the
        # stall is not called, the spits are due (`_stalled_as_first_seen`)
        return [start] + self._check_stall(obs, doubts_taken=True)

    def _blind_round(self, obs: Any) -> list[Event]:
        """camera_tolerant: a card landed before any layout was seen. The round is taken up blind: stock
        counts from the deal of the cards each player holds, every stock top and spit pile top unknown."""
        for player in PLAYERS:
            table = self._players[player]
            table.stocks = [Stock(count) for count in stock_sizes(self._cards[player])]
            table.spit_count = spit_cards(self._cards[player])
        self._start_round(obs, {player: self._players[player].spit_count for player in PLAYERS})
        for pile in self._piles[: self._in_use]:
            pile.top_unknown = True
        self._spits_due = set()
        self._phase = GamePhase.PLAYING
        self._notes.append(
            f"no layout was seen; round {self._round} is taken up from the first card seen landing (stock counts "
            "from the deal, stock and spit pile tops unknown)"
        )
        return [self._event(EventType.ROUND_START, obs, round=self._round, spit_piles=self._in_use, mid_round=True)]

    def _start_round(self, obs: Any, spit: dict[str, int], round_number: int | None = None) -> None:
        self._round = round_number if round_number is not None else self._round + 1
        self._piles = [SpitPile(), SpitPile()]
        self._in_use = spit_piles_in_use(spit)
        empty = [player for player in PLAYERS if spit[player] == 0]
        self._no_spit_player = empty[0] if len(empty) == 1 else None
        self._spits_due = {player for player in PLAYERS if spit[player] > 0}
        self._seen = {card for player in PLAYERS for card in self._players[player].visible_tops() if card.suit}
        self._slaps, self._slap_errors = {}, {}
        self._reason = self._ender = None
        #: when the round was taken up from a first view of the table (`LayoutSeen`), else None
        self._first_seen_at = obs.t if isinstance(obs, LayoutSeen) else None

    # ---- the end of a round and of the game --------------------------------------------------------

    def _round_over(self, obs: Any, reason: str, ender: str | None) -> list[Event]:
        self._phase = GamePhase.ROUND_OVER
        self._round_over_at = (obs.t, getattr(obs, "error", 0.0))
        self._reason, self._ender = reason, ender
        details: dict[str, Any] = {"reason": reason}
        if ender:
            details["player"] = ender
        events = [self._event(EventType.ROUND_OVER, obs, **details)]
        if self._in_use == 1:
            events += self._settle(obs)
        return events

    def _settlement(self):
        facts = RoundFacts(
            reason=self._reason or "no_play",
            ender=self._ender,
            spit_piles_in_use=self._in_use,
            no_spit_player=self._no_spit_player,
            stock_counts={player: table.stock_count for player, table in self._players.items()},
            spit_counts={player: table.spit_count for player, table in self._players.items()},
            pile_counts=(self._piles[0].count, self._piles[1].count),
            slaps=dict(self._slaps),
        )
        return settle(facts, self._scores, self.config)

    def _settle(self, obs: Any) -> list[Event]:
        result = self._settlement()
        events = [self._event(EventType.NOTICE, obs, message=text) for text in result.notes]
        details: dict[str, Any] = {"reason": self._reason, "takes": result.takes, "cards": result.cards}
        if self.config.win_rule == "scoring":
            details.update(points=result.points, scores=result.scores)
        events.append(self._event(EventType.ROUND_END, obs, **details))
        self._cards, self._scores = result.cards, result.scores
        self._phase = GamePhase.WAITING_FOR_LAYOUT
        if result.winner:
            self._winner = result.winner
            self._phase = GamePhase.GAME_OVER
            events.append(self._event(EventType.GAME_END, obs, winner=result.winner))
        return events

    def _slap(self, obs: Slap) -> list[Event]:
        if self._phase in (GamePhase.LAID_OUT, GamePhase.PLAYING, GamePhase.STALLED):
            return [self._event(EventType.VIOLATION, obs, player=obs.player, kind="early_slap")]
        if self._phase is not GamePhase.ROUND_OVER:
            return [self._event(EventType.NOTICE, obs, message=f"slap by {obs.player} ignored: no round is waiting for slaps")]
        if obs.player in self._slaps:
            return []  # only a player's first slap counts
        events = []
        for player, (t, pile) in self._slaps.items():
            gap_ms = (obs.t - t) * 1000.0
            if pile == obs.pile and gap_ms <= self.config.touch_window_ms:
                events.append(self._touch_order(obs, obs.pile, player, gap_ms, (self._slap_errors[player], obs.error)))
        self._slaps[obs.player] = (obs.t, obs.pile)
        self._slap_errors[obs.player] = obs.error
        events.append(self._event(EventType.SLAP, obs, player=obs.player, pile=obs.pile))
        if len(self._slaps) == 2:
            events += self._settle(obs)
        return events

    def _stopped(self, obs: GameStopped) -> list[Event]:
        between = self._phase is GamePhase.WAITING_FOR_LAYOUT
        cards = dict(self._cards) if between else {p: t.cards_held for p, t in self._players.items()}
        winner = stopped_winner(cards, self._scores, self.config)
        self._phase = GamePhase.GAME_OVER
        if winner is None:
            return [self._event(EventType.NOTICE, obs, message="game stopped with equal cards and scores: no winner")]
        self._winner = winner
        return [self._event(EventType.GAME_END, obs, winner=winner, reason="stopped")]

    # ---- helpers ----------------------------------------------------------------------------------

    def _event(self, event_type: EventType, obs: Any, **details: Any) -> Event:
        return Event(event_type, obs.t, obs.frame, details)

    def _check_duplicates(self, obs: Any, cards: list[Card]) -> None:
        known = [card for card in cards if card.suit]
        twice = sorted({str(card) for card in known if known.count(card) > 1})
        if twice and self.config.camera_tolerant:
            self._notes.append(f"layout: {', '.join(twice)} shown in two places; one of the readings is wrong, "
                               "the layout is taken as seen")
        elif twice:
            raise ObservationError(f"{describe(obs)}: {', '.join(twice)} shown in two places; a deck holds each card once")

    def _touch_order(self, obs: Any, pile: int, first: str, gap_ms: float,
                     errors: tuple[float, float] = (0.0, 0.0)) -> Event:
        """`errors`: how far off each touch's time may be (seconds); with any, the event also says how
        far off the gap may be (`error_ms`), and a gap under it is too close to call."""
        margin = {"error_ms": round(touch_error_ms(errors), 1)} if any(errors) else {}
        return self._event(
            EventType.TOUCH_ORDER, obs, pile=pile, first=first, gap_ms=round(gap_ms, 3),
            too_close=self.config.too_close(gap_ms, errors), **margin,
        )

