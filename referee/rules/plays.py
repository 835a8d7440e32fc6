"""The rules of play inside a round: spits, plays, stock moves, take-backs and the stall.

A mixin of RulesEngine (engine.py), kept apart so each module has one job. Every handler checks
everything before it changes anything, so an ObservationError leaves the state as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.errors import ObservationError
from referee.rules.cards import Card, can_play_on, rank_index, same_card
from referee.rules.events import Event, EventType
from referee.rules.observations import (
    CardLanded, CardTakenBack, LayoutSeen, SpitTurned, StockInDoubt, StockMoved, StockSeenEmpty, StockSeenFaceDown, StocksSettled, StockTurnedUp,
    describe,
)
from referee.rules.state import PLAYERS, GamePhase, Landing, Stock, any_play, ranks_that_play

if TYPE_CHECKING:
    from referee.rules.engine import RulesEngine

_IN_ROUND = (GamePhase.LAID_OUT, GamePhase.PLAYING, GamePhase.STALLED)


class PlayRules:
    """Handlers for what happens on the table during a round (see RulesEngine)."""

    # ---- spits ------------------------------------------------------------------------------------

    def _spit(self: "RulesEngine", obs: SpitTurned) -> list[Event]:
        if self._phase not in _IN_ROUND:
            raise ObservationError(f"{describe(obs)}: no round is being played ({self._phase.value}), so no spit is due")
        table = self._players[obs.player]
        if table.spit_count == 0 and self.config.camera_tolerant:
            # counts of face-down cards are estimates (a clip that began mid-game): the spit seen is ruled
            self._notes.append(f"{obs.player} had no spit cards left by the engine's count; the spit seen is ruled")
            table.spit_count = 1
        if table.spit_count == 0:
            raise ObservationError(
                f"{describe(obs)}: {obs.player} has no spit cards left by the engine's count; a spit cannot come from them"
            )
        self._refuse_seen(obs, obs.card)
        events: list[Event] = []
        if obs.pile >= self._in_use:
            # [engine reading] a card put on a pile that is not in use goes back: called, not counted
            events.append(self._event(EventType.VIOLATION, obs, player=obs.player, kind="pile_not_in_use"))
            return events + [self._event(EventType.SPIT, obs, player=obs.player, pile=obs.pile, card=obs.card)]
        if obs.player not in self._spits_due and self._phase is GamePhase.PLAYING and obs.stalled_before_layout:
            # the clip opened on the spits: the stall came (and was called) before it began; each spit is
            # taken as it comes (the other player's may have come before the clip, or unseen)
            self._phase = GamePhase.STALLED
            self._spits_due = {obs.player}
        if obs.player not in self._spits_due and self._phase is GamePhase.PLAYING and self.config.camera_tolerant \
                and obs.pile < self._in_use:
            # a camera misses cards: a spit in open play says more surely that play had stalled than that the
            # engine's picture of the stocks was right
            self._phase = GamePhase.STALLED
            self._spits_due = {player for player in PLAYERS if self._players[player].spit_count > 0}
            if self._stalled_as_first_seen(obs):
                # nothing changed on the table since the video's first view of it: it was stalled then, and the
                # stall came before the video began (a clip that opens as the players wait to re-spit, a stock
                # top misread as one that could be played): not called, as for a table first seen stalled
                self._notes.append(f"{obs.player} spat while the engine saw a play left, and nothing had changed since the "
                                   "table was first seen: it was stalled then, the stall came before the video began, "
                                   "and is not called")
            else:
                stall = self._stall_event(obs)
                self._notes.append(f"{obs.player} spat while the engine saw a play left; the stall it implies is ruled now"
                                   + (f", from t={stall.t:.3f}s when the table last changed" if stall.t < obs.t else ""))
                events.append(stall)
        if obs.player not in self._spits_due:
            events.append(self._event(EventType.VIOLATION, obs, player=obs.player, kind="spit_without_stall"))
        table.spit_count -= 1
        pile = self._piles[obs.pile]
        pile.push(obs.card, ("spit", obs.player, None))
        pile.last_landing = None
        if obs.card.suit:
            self._seen.add(obs.card)
        events.append(self._event(EventType.SPIT, obs, player=obs.player, pile=obs.pile, card=obs.card))
        self._spits_due.discard(obs.player)
        if self._phase is not GamePhase.PLAYING and not self._spits_due:
            self._phase = GamePhase.PLAYING
        return events + self._check_stall(obs)

    # ---- plays ------------------------------------------------------------------------------------

    def _card_landed(self: "RulesEngine", obs: CardLanded) -> list[Event]:
        events: list[Event] = []
        if self._phase is GamePhase.WAITING_FOR_LAYOUT:
            if not self.config.camera_tolerant:
                raise ObservationError(f"{describe(obs)}: no layout has been seen, so no stock card is known to play")
            events += self._blind_round(obs)
        player, slot, card, note = self._find_stock_card(obs)
        pile = self._piles[obs.pile]
        top = pile.top if obs.pile < self._in_use else None
        if note is not None:
            events.append(self._event(EventType.NOTICE, obs, message=note))
        at_the_end = self._phase is GamePhase.ROUND_OVER and self._too_close_to_the_end(obs)
        if obs.pile >= self._in_use or (self._phase is GamePhase.ROUND_OVER and not at_the_end):
            kind = "pile_not_in_use" if obs.pile >= self._in_use else "play_after_round_end"
            events.append(self._event(EventType.VIOLATION, obs, player=player, kind=kind))
            self._back_on_its_stock(player, slot, card)
            return events + [self._play_event(obs, player, card, top, False)]  # the card goes back
        last = pile.last_landing
        judged_on = top
        if last is not None and last.player not in (None, player):
            gap_ms = (obs.t - last.t) * 1000.0
            if gap_ms <= self.config.touch_window_ms:
                events.append(self._touch_order(obs, obs.pile, last.player, gap_ms, (last.error, obs.error)))
                if self.config.later_card_judged_against == "old_top":
                    judged_on = last.previous_top
        legal = judged_on is not None and can_play_on(card, judged_on)
        if top is None and pile.top_unknown:
            # [engine reading] nothing is known to judge it against: a camera referee rules it legal, and says so
            legal = True
            events.append(self._event(
                EventType.NOTICE, obs, message=f"the top of spit pile {obs.pile} was not known; {card} is taken as a legal play"
            ))
        events.append(self._play_event(obs, player, card, top, legal))
        if not legal and self.config.illegal_card == "returned":
            self._back_on_its_stock(player, slot, card)
            return events
        if slot is not None:
            stock = self._players[player].stocks[slot]
            stock.count = max(0, stock.count - 1)
            stock.top = None
        pile.push(card, ("stock", player, slot) if slot is not None else ("unknown", player, None))
        pile.last_landing = Landing(obs.t, player, top, obs.error)
        if card.suit:
            self._seen.add(card)
        if at_the_end:
            return events  # the round is over already: its end stands
        if self._players[player].stock_count == 0:
            return events + self._round_over(obs, "stock_out", player)
        return events + self._check_stall(obs)

    def _too_close_to_the_end(self: "RulesEngine", obs: CardLanded) -> bool:
        """[engine reading] For a camera: a card landing after the last stock card that ended the round, but
        closer to it than the camera can tell apart (`RulesConfig.too_close`), may have touched first; it is
        ruled as a play, not as one after the round's end, and the round's end stands."""
        if not self.config.camera_tolerant or self._round_over_at is None or self._reason != "stock_out":
            return False
        ended, error = self._round_over_at
        return self.config.too_close((obs.t - ended) * 1000.0, (error, obs.error))

    def _play_event(self: "RulesEngine", obs: Any, player: str, card: Card, top: Card | None, legal: bool) -> Event:
        return self._event(EventType.PLAY, obs, player=player, pile=obs.pile, card=card, on=top, legal=legal)

    def _find_stock_card(self: "RulesEngine", obs: CardLanded) -> tuple[str, int | None, Card, str | None]:
        """Whose stock top the landed card was, and which slot. A card from a pile whose top the engine
        still thinks face down means the turn-up was missed: accepted with a notice. With camera_tolerant,
        a card that fits no stock is still ruled (see `_guess_stock`); slot None = no count is changed, as
        for a card that left its stock before the layout was seen."""
        if obs.left_before_layout:
            return obs.player or self._guess_stock(obs)[0], None, obs.card, None
        players = [obs.player] if obs.player else list(PLAYERS)
        found = []
        for player in players:
            for slot, stock in enumerate(self._players[player].stocks):
                if obs.stock not in (None, slot) or stock.top is None or not same_card(stock.top, obs.card):
                    continue
                found.append((stock.top.suit != obs.card.suit, player, slot, stock.top))
        if found:
            if len({player for _, player, _, _ in found}) > 1 and not self.config.camera_tolerant:
                raise ObservationError(
                    f"{describe(obs)}: both players show a {obs.card} on their stocks; say which player played it"
                )
            _, player, slot, seen = min(found)
            return player, slot, obs.card if obs.card.suit else seen, None
        if obs.player and obs.stock is not None and obs.stock < len(self._players[obs.player].stocks):
            stock = self._players[obs.player].stocks[obs.stock]
            if stock.face_down_top:
                self._refuse_seen(obs, obs.card)
                note = f"turn-up of stock {obs.player}{obs.stock} not seen; {obs.card} came from it"
                return obs.player, obs.stock, obs.card, note
            if self.config.resync_misread_cards:
                self._refuse_seen(obs, obs.card)
                note = f"stock {obs.player}{obs.stock} was read as {stock.top or 'empty'}; {obs.card} came from it"
                if stock.top is not None:
                    self._seen.discard(stock.top)
                if stock.count == 0:
                    stock.count = 1  # a card came from it, so it was not empty
                return obs.player, obs.stock, obs.card, note
        whose = obs.player or "either player"
        shown = {p: [str(c) for c in self._players[p].visible_tops()] for p in players}
        if self.config.camera_tolerant:
            self._refuse_seen(obs, obs.card)
            player, slot, where = self._guess_stock(obs)
            note = f"{obs.card} is not a face-up stock top of {whose} (tops: {shown}); ruled as {player}'s play {where}"
            return player, slot, obs.card, note
        raise ObservationError(
            f"{describe(obs)}: {obs.card} is not a face-up stock top of {whose} (tops: {shown}); "
            "it cannot have been played from there"
        )

    def _back_on_its_stock(self: "RulesEngine", player: str, slot: int | None, card: Card) -> None:
        """A card played and sent back lies on the stock it came from again: one read as another card (the
        misreading put right as it was played) shows the card now."""
        if slot is None:
            return
        self._players[player].stocks[slot].top = card
        if card.suit:
            self._seen.add(card)

    def _guess_stock(self: "RulesEngine", obs: CardLanded) -> tuple[str, int | None, str]:
        """camera_tolerant: the best guess at where a card that fits no known stock top came from. The
        player seen, else one showing a card of its rank, else one with a face-down top, else the one with
        more stock cards (A on a tie). The slot: a top of the same rank (its suit misread), else the slot
        seen or a face-down top; else none (counts unchanged)."""
        players = [obs.player] if obs.player else list(PLAYERS)

        def slots(player: str) -> list[int]:
            stocks = self._players[player].stocks
            same_rank = [i for i, stock in enumerate(stocks) if stock.top is not None and stock.top.rank == obs.card.rank]
            seen = [obs.stock] if obs.stock is not None and obs.stock < len(stocks) and stocks[obs.stock].count > 0 else []
            face_down = [i for i, stock in enumerate(stocks) if stock.face_down_top]
            return same_rank + seen + face_down

        def rank_match(player: str) -> bool:
            return any(stock.top is not None and stock.top.rank == obs.card.rank for stock in self._players[player].stocks)

        ranked = sorted(players, key=lambda p: (not rank_match(p), not slots(p), -self._players[p].stock_count, p))
        player = ranked[0]
        found = slots(player)
        if not found:
            return player, None, "(the stock it left is not known; counts unchanged)"
        slot = found[0]
        stock = self._players[player].stocks[slot]
        if stock.top is not None:
            self._seen.discard(stock.top)
            return player, slot, f"from stock {player}{slot} (read as {stock.top})"
        return player, slot, f"from stock {player}{slot} (face down)"

    # ---- stock piles ------------------------------------------------------------------------------

    def _stock_turned_up(self: "RulesEngine", obs: StockTurnedUp) -> list[Event]:
        stock = self._stock_at(obs, obs.player, obs.stock)
        if stock.top is not None and self.config.resync_misread_cards and not same_card(stock.top, obs.card):
            self._refuse_seen(obs, obs.card)
            self._seen.discard(stock.top)
            note = f"stock {obs.player}{obs.stock} was read as {stock.top}; it shows {obs.card}"
            stock.top = obs.card
            if obs.card.suit:
                self._seen.add(obs.card)
            return [self._event(EventType.NOTICE, obs, message=note)] + self._check_stall(obs)
        if stock.top is not None:
            raise ObservationError(
                f"{describe(obs)}: stock {obs.player}{obs.stock} already shows {stock.top} face up; only a face-down top can be turned up"
            )
        self._refuse_seen(obs, obs.card)
        events = []
        if stock.count == 0:
            events.append(self._event(EventType.NOTICE, obs, message=f"stock {obs.player}{obs.stock} was counted empty; now 1 card"))
            stock.count = 1
        stock.top = obs.card
        if obs.card.suit:
            self._seen.add(obs.card)
        return events + self._check_stall(obs)

    def _stock_moved(self: "RulesEngine", obs: StockMoved) -> list[Event]:
        table = self._players[obs.player]
        source = self._stock_at(obs, obs.player, obs.from_stock)
        if source.top is None or not same_card(source.top, obs.card):
            raise ObservationError(
                f"{describe(obs)}: stock {obs.player}{obs.from_stock} does not show {obs.card} face up (it shows "
                f"{source.top or 'no face-up card'})"
            )
        if obs.to_stock < len(table.stocks) and table.stocks[obs.to_stock].count > 0:
            raise ObservationError(
                f"{describe(obs)}: stock {obs.player}{obs.to_stock} is not empty; a card may only be moved into an empty slot"
            )
        card = obs.card if obs.card.suit else source.top
        while len(table.stocks) <= obs.to_stock:
            table.stocks.append(Stock())
        source.count -= 1
        source.top = None
        table.stocks[obs.to_stock] = Stock(1, card)
        events = []
        if sum(1 for stock in table.stocks if stock.count > 0) > 5:
            events.append(self._event(EventType.VIOLATION, obs, player=obs.player, kind="sixth_stock"))
        return events + self._check_stall(obs)

    def _stock_seen_empty(self: "RulesEngine", obs: StockSeenEmpty) -> list[Event]:
        """The camera sees a bare slot: the engine's count there was an estimate (a clip that began
        mid-game counts stocks as dealt) or a move went unseen. The slot is set empty, with a notice."""
        if self._phase not in _IN_ROUND:
            return []
        stocks = self._players[obs.player].stocks
        if obs.stock >= len(stocks) or stocks[obs.stock].count == 0:
            return []
        stock = stocks[obs.stock]
        note = (f"stock {obs.player}{obs.stock} was counted {stock.count} card{'s' if stock.count != 1 else ''}"
                f"{f' ({stock.top} on top)' if stock.top is not None else ''}; it is seen empty")
        stock.count, stock.top, stock.counted = 0, None, True
        return [self._event(EventType.NOTICE, obs, message=note)] + self._check_stall(obs)

    def _stocks_settled(self: "RulesEngine", obs: StocksSettled) -> list[Event]:
        """The stock rows have been left alone: counts not known are taken as they stand for now, once the
        lull is long enough (`uncounted_taken`: a player with a card to move into an empty slot would have
        moved it), and the stall is checked again."""
        if self._phase not in _IN_ROUND:
            return []
        return self._check_stall(obs, as_counted=obs.uncounted_taken, face_down_unturned=obs.face_down_unturned,
                                 doubts_taken=obs.doubts_taken)

    def _stock_in_doubt(self: "RulesEngine", obs: StockInDoubt) -> list[Event]:
        """A stock top read in doubt (or, `could_be` empty, no longer): kept to hold a stall back (`_doubted`)."""
        if obs.could_be:
            self._doubts[(obs.player, obs.stock)] = (obs.card, obs.could_be)
        else:
            self._doubts.pop((obs.player, obs.stock), None)
        return []

    def _doubted(self: "RulesEngine", tops: list[Card]) -> list[str]:
        """The stock tops read in doubt whose reading says they may be a card that could be played on
        `tops` ("A0 JC, maybe Q"), where the stock still shows the card read."""
        wanted = ranks_that_play(tops)
        doubted = []
        for (player, slot), (card, could_be) in sorted(self._doubts.items()):
            stocks = self._players[player].stocks
            if slot < len(stocks) and stocks[slot].top == card and could_be & wanted:
                doubted.append(f"{player}{slot} {card}, maybe {' or '.join(sorted(could_be & wanted, key=rank_index))}")
        return doubted

    def _stock_seen_face_down(self: "RulesEngine", obs: StockSeenFaceDown) -> list[Event]:
        """The camera sees a face-down card on a slot the engine counted empty (a clip that began mid-game
        counts one card per stock seen), or under a face-up top that has just left: one card is counted
        there, to be turned up."""
        if self._phase not in _IN_ROUND:
            return []
        stocks = self._players[obs.player].stocks
        while len(stocks) <= obs.stock:
            stocks.append(Stock())
        stock = stocks[obs.stock]
        if stock.count == 0:
            stock.count, stock.top = 1, None
            return [self._event(EventType.NOTICE, obs, message=f"stock {obs.player}{obs.stock} was counted empty; a face-down card lies there")]
        if stock.top is not None and stock.count < 2:
            stock.count = 2  # its face-up top is on its way to a pile (ruled when it lands), a card lies under it
        return []

    def _stock_at(self: "RulesEngine", obs: Any, player: str, slot: int) -> Stock:
        if self._phase is GamePhase.WAITING_FOR_LAYOUT:
            raise ObservationError(f"{describe(obs)}: no layout has been seen, so no stock pile is known")
        stocks = self._players[player].stocks
        if slot >= len(stocks):
            raise ObservationError(f"{describe(obs)}: {player} has no stock pile {slot} (only {len(stocks)})")
        return stocks[slot]

    def _card_taken_back(self: "RulesEngine", obs: CardTakenBack) -> list[Event]:
        pile = self._piles[obs.pile]
        at = len(pile.cards) - 1
        if self.config.camera_tolerant and pile.top is not None and not same_card(pile.top, obs.card):
            # seen lifted only after another card lay on it: the camera saw the next card land first (the
            # other player's, laid on the pile the moment it was lifted); it leaves from under that card
            at = next((index for index in range(len(pile.cards) - 2, -1, -1) if same_card(pile.cards[index], obs.card)), at)
        if self._phase is GamePhase.WAITING_FOR_LAYOUT or pile.top is None or not same_card(pile.cards[at], obs.card):
            raise ObservationError(
                f"{describe(obs)}: {obs.card} is not the top of spit pile {obs.pile} (top: {pile.top}); only a top card can be lifted"
            )
        kind, owner, slot = pile.sources[at]
        player = obs.player or owner or None
        if player not in PLAYERS:
            raise ObservationError(f"{describe(obs)}: who took {obs.card} back is not known; give the player")
        owner = owner or player
        if obs.to_stock is not None:
            kind, slot = "stock", obs.to_stock
        if kind == "unknown" and not self.config.camera_tolerant:
            raise ObservationError(f"{describe(obs)}: where {obs.card} came from is not known; give to_stock")
        events = [self._event(EventType.VIOLATION, obs, player=player, kind="take_back")]
        if kind == "unknown":
            # [camera reading] laid before the camera saw where it came from (a clip that opens as it is laid):
            # it leaves the pile, and the stock it goes back to is seen when that stock next settles
            events.append(self._event(EventType.NOTICE, obs, message=f"{obs.card} lifted back off spit pile {obs.pile} to a "
                                                                      "stock not known yet"))
        if self._phase is GamePhase.ROUND_OVER:
            return events  # the round's end stands; the card is called, not counted back
        lifted = obs.card if obs.card.suit else pile.cards[at]
        pile.cards.pop(at)
        pile.sources.pop(at)
        pile.count -= 1
        if at == len(pile.cards):
            pile.last_landing = None
        if obs.revealed is not None and not pile.cards and self.config.camera_tolerant:
            # [camera reading] the top a clip's layout showed, lifted: what lay under it is seen only now
            pile.push(obs.revealed, ("unknown", "", None))
            pile.count -= 1  # it was counted with the card lifted off it
            if obs.revealed.suit:
                self._seen.add(obs.revealed)
        table = self._players[owner]
        if kind == "spit":
            table.spit_count += 1
        elif kind == "unknown":
            self._seen.discard(lifted)  # in the hand, face up nowhere the engine knows: seen again where it is put
        else:
            while len(table.stocks) <= slot:
                table.stocks.append(Stock())
            stock = table.stocks[slot]
            if not (self.config.camera_tolerant and stock.top is not None and same_card(stock.top, lifted)):
                stock.count += 1  # [camera reading] one seen there already (a layout read after it came back) is counted
            stock.top = lifted
        return events + self._check_stall(obs)

    # ---- the stall --------------------------------------------------------------------------------

    def _check_stall(self: "RulesEngine", obs: Any, *, as_counted: bool = False, face_down_unturned: bool = False,
                     doubts_taken: bool = False) -> list[Event]:
        """Called after every change: a stall is ruled once, at the moment no stock card can move.
        `as_counted`: stock counts that are only a least are taken as they stand (the stocks were left alone);
        `face_down_unturned`: face-down tops nobody turned up through a lull hold no stall back (camera only);
        `doubts_taken`: stock tops read in doubt are taken as read (a long lull); until then one that may be a
        card that could be played holds the stall back (camera only): a misread stock top would call a stall
        the players are not in, and the board would say so."""
        if self._phase is not GamePhase.PLAYING or self._spits_due:
            return []
        if any(pile.top_unknown for pile in self._piles[: self._in_use]):
            return []  # [engine reading] a pile with an unknown top may take any card: no stall is ruled
        tops = [pile.top for pile in self._piles[: self._in_use] if pile.top is not None]
        if any_play(self._players, tops):
            return []
        doubted = self._doubted(tops) if self.config.camera_tolerant else []
        if doubted and not doubts_taken:
            return []
        unturned_ignored = face_down_unturned and self.config.camera_tolerant
        if self.config.stall_waits_for_stock_moves and any(
                table.unsettled(as_counted=as_counted, face_down=not unturned_ignored) for table in self._players.values()):
            return []
        unturned = [f"{player}{slot}" for player in PLAYERS for slot, stock in enumerate(self._players[player].stocks)
                    if stock.face_down_top] if unturned_ignored else []
        if unturned:
            self._notes.append(f"stock{'s' if len(unturned) > 1 else ''} {', '.join(unturned)} seen face down and not turned up "
                               f"through the lull: taken for {'face-up cards' if len(unturned) > 1 else 'a face-up card'} "
                               "the camera cannot read")
        if doubted:
            self._notes.append(f"stock top{'s' if len(doubted) > 1 else ''} read in doubt ({'; '.join(doubted)}) taken as "
                               "read: nobody played through the lull")
        spitters = {player for player in PLAYERS if self._players[player].spit_count > 0}
        if self._in_use == 2 and not self.config.lone_respit and len(spitters) < 2:
            spitters = set()
        if not spitters:
            return self._round_over(obs, "no_play", None)
        self._phase = GamePhase.STALLED
        self._spits_due = spitters
        if self.config.camera_tolerant and self._stalled_as_first_seen(obs):
            # the table has not changed since the video's first view of it: it was stalled then (seen so at once,
            # or once the stocks were left alone, their counts then known only as a least)
            self._notes.append("the table was stalled as first seen: the stall came before the video began, and is not "
                               "called; the spits are due")
            return []
        return [self._stall_event(obs)]

    def _stalled_as_first_seen(self: "RulesEngine", obs: Any) -> bool:
        """A stall dated when the table last changed (`stalled_since`: the stocks settled, or a spit in open play)
        no later than the round's first view of the table (a round taken up mid-game): the table was stalled as
        first seen, and the stall came before the video began. The first view itself shows it as it is."""
        since = obs.t if isinstance(obs, LayoutSeen) else getattr(obs, "stalled_since", None)
        return self._first_seen_at is not None and since is not None and since <= self._first_seen_at

    def _stall_event(self: "RulesEngine", obs: Any) -> Event:
        """The stall, dated at `obs.stalled_since` where the observation says when play stopped (when the
        table last changed: the stall came then, though it is known only now), never before the engine's
        last observation."""
        since = getattr(obs, "stalled_since", None)
        if since is None:
            return self._event(EventType.STALL, obs)
        return Event(EventType.STALL, max(since, self._t if self._t is not None else since), obs.frame, {})

    def _refuse_seen(self: "RulesEngine", obs: Any, card: Card) -> None:
        if card.suit and card in self._seen:
            if self.config.camera_tolerant:
                self._notes.append(f"{card} was already seen on the table this round; one of the two readings is wrong")
                return
            raise ObservationError(
                f"{describe(obs)}: {card} is already on the table this round; a deck holds each card once"
            )
