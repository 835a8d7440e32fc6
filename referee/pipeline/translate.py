"""From the tracker's sightings to the rules engine's observations.

The tracker knows pixels, the engine knows rules; this is where a sighting gets its meaning from
the state of the game: a card arriving on a pile while spits are due is a spit, otherwise a play
from whichever stock showed it; a hand on a pile is a slap only once the round is over; a stock
slot showing a new card is a turn-up, or a card moved into an empty slot, or a sixth pile.

Nothing seen is dropped for not fitting: a clip that starts mid-game with a spit pile's top face down
or unreadable starts with that top unknown (the first card seen landing there becomes it), and a card
landing that is no one's stock top still goes to the engine, which rules it with a notice when its
config is camera-tolerant (RulesConfig.for_camera, set by the session).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from referee.piles.covered import PASSING_SECONDS, REACHED_AFTER_LANDING_S
from referee.piles.owners import JOINT_SECONDS
from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, Sighting, StockSeen, TableCleared, TableQuiet
from referee.pipeline.one_hand import OneHand
from referee.pipeline.stock_doubts import StockDoubts
from referee.rules.cards import Card, can_play_on, same_card
from referee.rules.observations import (
    CardLanded, CardTakenBack, LayoutSeen, RoundLaidOut, Slap, SixthStock, SpitTurned, StockMoved, StockSeenEmpty,
    StockSeenFaceDown, StocksSettled, StockTurnedUp,
)
from referee.rules.state import EngineState, GamePhase

PLAYERS = ("A", "B")
#: The red suits (a suit misread keeps its colour far likelier than not).
RED = frozenset("HD")
#: Spit cards assumed per player when a clip starts mid-game and the count cannot be seen.
ASSUMED_SPIT_CARDS = 5
#: Least probability (among the reader's alternatives) for a card landing to be taken for a stock top it
#: was not read as. Lower: more misreads put right, and more plays credited to the wrong stock.
LIKELY_OWNER_FLOOR = 0.05
#: A landing card read at least this surely in the other colour than the stock top it was matched to by its
#: rank is as it landed (`Translator._both_readings`).
COLOUR_SURE_LANDING = 0.9
#: A card that landed while its player owed a spit is taken for a card from their stock only if that stock
#: was seen losing its top within this many seconds before the landing (else the stock still shows it).
STOCK_LEFT_SECONDS = 2.0
#: A stock seen showing another card than the one the engine has there, with no move seen, is taken for
#: a misreading and put right after this many seconds (or once the table is quiet), unless the old card
#: is seen landing first (then the new one was turned up after it left).
RESYNC_SECONDS = 1.5
#: A card appearing in an empty slot, like no stock top, comes from a stock of the same player that was
#: seen losing its top this many seconds before (whose top was misread).
MOVE_SECONDS = 1.0
#: A card landing whose reading fits more than one stock top waits this long (s, of the video) for the
#: stocks to show which of them lost its top: a stock is seen again once the hand has left it.
STOCK_AHEAD_SECONDS = 0.6
#: How far off (s, about one standard error) a slap's time is at least, whatever its fit says: a slap's
#: last centimetres are straight down, which a camera above barely sees. Measured on 16 slaps of the
#: rendered benchmarks (session 15): -100 to +224 ms off, 74 ms median, where the fit claimed about 7.
SLAP_ERROR_S = 0.075
#: A hand's touch of a spit pile no deeper than this (mm inside its outline) once the round is over is a graze,
#: not yet a slap: the same hand touching the other pile deeper within GRAZE_SECONDS after it slapped that one
#: (a clip of racing seed 127 cut 0.8 s before the slaps: A's hand, landing on B's hand on pile 1, grazed pile
#: 0 by 2 mm two frames before, and its slap went to pile 0; in the game the two touches fell in one frame)
GRAZE_MM = 4.0
GRAZE_SECONDS = 0.15
#: A card a player laid on a spit pile and seen back on one of their stocks within this many seconds was
#: taken back (`Translator._taken_back_to_stock`): when the other player lays a card on the pile at
#: once, the pile never shows the card under it again, but the stock shows the card come back.
TAKE_BACK_SECONDS = 3.0
#: The card under a pile's top, shown again as the top is lifted back and read with the other suit of its
#: colour, is still taken for it when the reading gives it at least this (`_shows_again`).
UNDER_DOUBT_FLOOR = 0.05
#: A card read this unsurely on one pile, as the same hand lays a card on the other pile within
#: PASSING_SECONDS, and whose stock is not seen losing it, was the arm reaching across, not a play.
PASSING_BELOW = 0.5
#: A card named from both its readings (the stock it left, the pile it landed on) gets a suit neither
#: gave alone only when that card holds this share of what the two believe together (as a reading
#: names a suit only above 0.6 given its rank).
SUIT_BY_BOTH = 0.6
#: A spit card read without its suit is named with the suit that holds this share of the weight its
#: reading gave the cards of its rank not seen this round (`_suit_by_elimination`).
SPIT_SUIT_SHARE = 2 / 3
#: Both players laying a card at once (within JOINT_SECONDS) after this long (s) with no card laid, and
#: neither card's stock seen losing it, is the re-spit after a stall the referee did not see.
LULL_SECONDS = 1.0
#: A card credited to another player than the hand seen laying it is timed by that player's own touch of
#: the pile when one is seen this long after (s).
OWN_TOUCH_SECONDS = 1.0


class Translator:
    def __init__(self) -> None:
        # per player: stock slots in the order their top was last played (latest last)
        self._played_from: dict[str, list[int]] = {player: [] for player in PLAYERS}
        # per spit pile: the tops it showed before each card the referee saw land (latest last)
        self._under: dict[int, list[Card | None]] = {0: [], 1: []}
        # stock slots last seen bare, (player, slot)
        self._seen_empty: set[tuple[str, int]] = set()
        # when each stock slot was last seen losing its face-up top, and which card, (player, slot) -> (t, card)
        self._left: dict[tuple[str, int], tuple[float, Card]] = {}
        # stocks seen showing another card than the engine's top, no move seen: (player, slot) -> (t, card)
        self._reread: dict[tuple[str, int], tuple[float, Card]] = {}
        # cards seen landing, (t, player, pile), the last few
        self._laid: list[tuple[float, str | None, int]] = []
        #: (t, player) of the last card the engine was told landed (`_laying_the_last_card`)
        self._last_landed: tuple[float, str] | None = None
        # which hand each player plays with
        self.one_hand = OneHand()
        # the frame the opening layout was read in: a card seen landing before it had left its stock by then
        self._opening_frame: int | None = None
        self._opening_stalled = False  # ... on a table that looked stalled: a card laid then that fits no top is a spit
        self._opening_spit: tuple[float, str, int] | None = None  # (t, player, pile) of a spit ruled as such a card
        # the latest reading of each stock slot, with its doubts, (player, slot) -> Reading
        self._stock_readings: dict[tuple[str, int], Reading] = {}
        # when a card was last seen landing or a stock seen changing
        self._table_changed = 0.0
        # the stock tops read in doubt, as told to the engine
        self._doubts = StockDoubts()
        # the cards seen laid on the spit piles this round by a known player, (t, player, pile, card), the last few
        self._played: list[tuple[float, str, int, Card]] = []
        # hands that touched a spit pile in play and left no card there, (t, player, pile), the last few: a hand
        # come back for the card it laid
        self._touched: list[tuple[float, str, int]] = []

    def translate(self, sighting: Sighting, state: EngineState,
                  coming: Sequence[Sighting] = ()) -> tuple[list[object], str | None]:
        """Observations for the engine, and a note for the log when a sighting cannot be used. `coming`:
        sightings already made but later in time (a card landing is named by the stock seen losing it)."""
        if isinstance(sighting, LayoutRead):
            if sighting.first:
                self._opening_frame = sighting.frame
                self._opening_stalled = sighting.looked_stalled
            read = {(player, slot): reading for player in PLAYERS for slot, reading in enumerate(sighting.stocks[player])}
        elif isinstance(sighting, StockSeen):
            read = {(sighting.player, sighting.slot): sighting.reading}
        else:
            read = {}
        self._stock_readings.update(read)
        observations, note = self._observations(sighting, state, coming)
        # told first (a stock top turned up in doubt holds back the stall its turning up would otherwise rule),
        # dated as the engine's last ruling: a doubt rules nothing, and moves no stall's time on
        told_at = sighting.t if state.t is None else min(sighting.t, state.t)
        observations = self._doubts.seen(told_at, sighting.frame, read) + observations
        landed = [obs for obs in observations if isinstance(obs, CardLanded)]
        if landed:
            self._last_landed = max((obs.t, obs.player) for obs in landed)
        if isinstance(sighting, (Arrival, StockSeen)):
            changed = sighting.turned_at if isinstance(sighting, StockSeen) and sighting.turned_at is not None else sighting.t
            self._table_changed = max(self._table_changed, changed)
        if self._reread and not isinstance(sighting, LayoutRead):
            rereads = self._rereads(sighting, observations)
            observations = rereads + observations if isinstance(sighting, TableQuiet) else observations + rereads
        return observations, note

    def _rereads(self, sighting: Sighting, observations: list[object]) -> list[object]:
        """Stocks seen showing a card the engine does not have there: a turn-up once the old top is seen
        landing, else (RESYNC_SECONDS on, or the table quiet) the engine's reading put right."""
        out = []
        landed = {(obs.player, obs.stock) for obs in observations if isinstance(obs, CardLanded)}
        for (player, slot), (seen_at, card) in list(self._reread.items()):
            if (player, slot) in landed or isinstance(sighting, TableQuiet) or sighting.t - seen_at >= RESYNC_SECONDS:
                del self._reread[(player, slot)]
                out.append(StockTurnedUp(sighting.t, player, slot, card, frame=sighting.frame))
        return out

    def waits_for_stocks(self, sighting: Sighting, state: EngineState) -> bool:
        """A card landing in play whose reading fits more than one stock top, or is unsure (PASSING_BELOW):
        its ruling should wait (STOCK_AHEAD_SECONDS) for the stocks to show which card left them, and for
        what the same hand did on the other pile."""
        if isinstance(sighting, PileTouched):
            # a card laid unseen is named by the stock it left; a graze once the round is over waits for the slap
            return state.phase is GamePhase.PLAYING or (state.phase is GamePhase.ROUND_OVER and sighting.depth <= GRAZE_MM)
        return (isinstance(sighting, Arrival) and sighting.card is not None and state.phase is GamePhase.PLAYING
                and (len(self._fitting(sighting, state)) > 1 or sighting.confidence < PASSING_BELOW or sighting.together))

    def _observations(self, sighting: Sighting, state: EngineState,
                      coming: Sequence[Sighting] = ()) -> tuple[list[object], str | None]:
        if isinstance(sighting, LayoutRead):
            return self._layout(sighting, state)
        if isinstance(sighting, Arrival):
            return self._arrival(sighting, state, coming)
        if isinstance(sighting, PileTouched):
            if state.phase is GamePhase.ROUND_OVER:
                if self._laying_the_last_card(sighting):
                    return [], (f"{sighting.player}'s hand over spit pile {sighting.pile} at t={sighting.t:.3f}s, no later "
                                "than it laid the round's last card: laying it, not a slap")
                deeper = _slapped_deeper(sighting, coming)
                if deeper is not None:
                    return [], (f"{sighting.player}'s hand touched both spit piles at t={sighting.t:.3f}s and t={deeper.t:.3f}s: "
                                f"it slapped pile {deeper.pile}, {deeper.depth:.0f} mm inside its outline, and grazed pile "
                                f"{sighting.pile} ({sighting.depth:.0f} mm)")
                return [_slap(sighting)], None
            if state.phase is GamePhase.PLAYING and not sighting.through_hand:
                self._touched = self._touched[-7:] + [(sighting.t, sighting.player, sighting.pile)]
                observations, note = self._laid_unseen(sighting, state, coming)
                self._note_laid(observations, sighting, state)
                return observations, note
            return [], None
        if isinstance(sighting, StockSeen):
            return self._stock(sighting, state)
        if isinstance(sighting, TableCleared):
            return [], None
        if isinstance(sighting, TableQuiet):
            if state.phase is GamePhase.PLAYING:
                return [StocksSettled(sighting.t, stalled_since=min(self._table_changed, sighting.t), frame=sighting.frame,
                                      face_down_unturned=sighting.unturned, uncounted_taken=sighting.uncounted,
                                      doubts_taken=sighting.lasted)], None
            return [], None
        raise TypeError(f"not a sighting: {sighting!r}")

    # ---------------------------------------------------------------------------------------------
    def _layout(self, sighting: LayoutRead, state: EngineState):
        tops = {player: [reading.card for reading in sighting.stocks[player][:5]] for player in PLAYERS}
        piles = sighting.piles
        note = None
        if not sighting.first and not all(pile.empty for pile in piles) and all(pile.card is None for pile in piles):
            # a layout after a bare table with no card named on the spit piles: spit cards are turned face up,
            # so what looked covered there is the table in a shade (seed 205: a lamp leaning over the piles as
            # the video opened), and the piles are bare until the spits land
            note = "spit piles looked covered as the layout was read, no card seen there: taken as bare until the spits"
            piles = (Reading(None), Reading(None))
        if all(pile.empty for pile in piles):
            if all(reading.empty for row in sighting.stocks.values() for reading in row):
                return [], None  # a bare table: wait for a layout
            self._played_from = {player: [] for player in PLAYERS}
            self._under = {0: [], 1: []}
            self._played = []
            self._touched = []
            self._seen_empty = set()
            self._reread = {}
            return [RoundLaidOut(sighting.t, tops, frame=sighting.frame)], note
        if not sighting.first:
            return [], "new layout seen with cards already on the spit piles; ignored"
        # a pile in use whose top cannot be read starts with its top unknown (pile 0 is always in use once
        # play has begun; pile 1 is in use if anything lies there)
        unknown = [index for index, pile in enumerate(piles) if pile.card is None and (index == 0 or not pile.empty)]
        # how many cards lie under each stock top is not seen: one is counted, and more are found as they
        # turn up (a count from the deal would have the referee wait for stock moves that cannot come)
        counts = {player: [0 if reading.empty else 1 for reading in sighting.stocks[player][:5]] for player in PLAYERS}
        # nor how many cards each spit stack holds: it is assumed to hold some (ASSUMED_SPIT_CARDS) until a
        # stall shows otherwise
        spit = {player: ASSUMED_SPIT_CARDS for player in PLAYERS}
        # the round the engine is in, where play was under way when the table was taken up again (the camera
        # blind for a while); else the next
        under_way = state.phase in (GamePhase.PLAYING, GamePhase.STALLED)
        observation = LayoutSeen(sighting.t, tops, counts, spit, [piles[0].card, piles[1].card],
                                 unknown_piles=unknown, counts_at_least=True, frame=sighting.frame,
                                 round_number=state.round_number if under_way else state.round_number + 1,
                                 stocks_out=sighting.stocks_out)
        if unknown:
            seen = {True: "a card there not named", False: "nothing seen there"}
            read = ", ".join(f"spit pile {index} ({seen[piles[index].face_down]})" for index in unknown)
            note = f"clip starts mid-game and the top of {read} could not be read; refereeing on with it unknown"
        return [observation], note

    def _laying_the_last_card(self, sighting: Arrival | PileTouched) -> bool:
        """Once the round is over: whether `sighting` is the hand that laid the round's last card, touching a
        pile no later than it laid that card. Slaps answer the round's end; that hand was laying the card (its
        fingers over the other pile as the camera sees a hand held above the table, or the pile it laid on
        settling again under it)."""
        if self._last_landed is None or sighting.player is None:
            return False
        t, player = self._last_landed
        return player == sighting.player and sighting.t <= t

    def _arrival(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting] = ()):
        observations, note = self._arrival_observations(sighting, state, coming)
        self._laid = self._laid[-7:] + [(sighting.t, sighting.player, sighting.pile)]
        played = [obs for obs in observations if isinstance(obs, CardLanded) and obs.player == sighting.player]
        if played and state.phase is GamePhase.PLAYING:
            # the arm seen is the player's who played (a card credited to the other player says nothing)
            breach = self.one_hand.judge(sighting.t, sighting.player, sighting.arm, frame=sighting.frame)
            if breach is not None:
                observations = [breach] + observations
        self._note_laid(observations, sighting, state)
        return observations, note

    def _note_laid(self, observations: Sequence[object], sighting: Arrival | PileTouched, state: EngineState) -> None:
        """What the cards laid on a pile leave to judge later ones by: the top each covers (a take-back
        shows it again), and who laid what where (a card seen back on its stock was taken back). A card
        laid unseen (`_laid_unseen`: the pile read as before) counts as much as one seen."""
        for observation in observations:
            if isinstance(observation, (CardLanded, SpitTurned)):
                self._under[sighting.pile].append(state.pile_tops[sighting.pile])
                del self._under[sighting.pile][:-8]
            if isinstance(observation, CardLanded) and observation.player is not None:
                self._played = self._played[-7:] + [(observation.t, observation.player, observation.pile, observation.card)]

    def _taken_back(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting] = ()) -> CardTakenBack | None:
        """The pile shows again the card that lay under its top: the top was lifted off (a take-back),
        since a card already under a spit pile cannot be played a second time. On a pile no card has landed on
        since the layout, nothing under it is known: see `_layout_top_taken_back`."""
        under, top = self._under[sighting.pile], state.pile_tops[sighting.pile]
        if not under:
            return self._layout_top_taken_back(sighting, state, coming)
        if under[-1] is None or top is None or not _shows_again(under[-1], sighting):
            return None
        laid_by = next((player for _, player, pile, card in reversed(self._played) if pile == sighting.pile and card == top), None)
        if sighting.player is not None and laid_by is not None and sighting.player != laid_by:
            # only the hand that laid the top lifts it back: the other player's hand laid a card like the
            # one under it (a `J?` laid on the `10S` the other player put on a `JS`)
            return None
        players = [sighting.player] if sighting.player else list(PLAYERS)
        # the card under, named with its suit and read so again, lies on the pile: no stock shows it, and a stock
        # top known by its rank alone is another card of that rank (jolly-royal's `A?` on A's stock as A lifted a
        # `3S` back off the `AD` it had laid on: the `AD` seen again was taken for that ace, laid on the `3S`)
        itself = under[-1].suit is not None and sighting.card == under[-1]
        if self._being_played(sighting, players, state, besides=under[-1] if itself else None, suited=itself):
            return None  # the card under, or this one, was misread
        if state.phase not in (GamePhase.PLAYING, GamePhase.STALLED, GamePhase.ROUND_OVER):
            return None
        under.pop()
        self._played = [laid for laid in self._played if not (laid[2] == sighting.pile and same_card(laid[3], top))]
        return CardTakenBack(sighting.t, None, sighting.pile, top, frame=sighting.frame)

    def _layout_top_taken_back(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting] = ()) -> CardTakenBack | None:
        """A pile no card has landed on since the layout shows another card after the player's hand was there,
        and the top the layout showed, named with its suit, lies on one of that player's stocks: the player lifted
        it back there (a clip that opens as an illegal card is laid, and the layout is read once it is back on
        the stock: `all_at_once --after-touch` seed 172's clip from 3 s, whose A's `6S` was taken back off the
        `8H` and the `8H` ruled as A's card laid on it). The card now showing lay under it. Not when it fits the
        top, nor when it lies on the player's stocks too, or likely may (it is being played, the top was misread).
        The stock may show the top only a moment later (`coming`), its hand still over it as the pile settled: seed
        175's clip from 3 s, read as A laid its `2H` on the `4D` and lifted it back, the `4D` ruled A's play on it."""
        top, player = state.pile_tops[sighting.pile], sighting.player
        if (top is None or top.suit is None or player is None or same_card(top, sighting.card)
                or state.phase not in (GamePhase.PLAYING, GamePhase.STALLED)):
            return None
        if can_play_on(sighting.card, top):
            # the two fit: the card was laid on it (the top and a stock card alike misread as one: `jolly-royal`'s
            # `JC` read `JS` on the pile and on A's stock, A's `QS` laid on it), and a card lifted back was one that
            # did not fit what it lay on
            return None
        slot = next((index for index, stock in enumerate(state.players[player].stocks) if stock.top == top), None)
        if slot is None:
            slot = next((seen.slot for seen in coming if isinstance(seen, StockSeen) and seen.player == player and seen.visited
                         and seen.reading.card == top and 0.0 <= seen.t - sighting.t <= TAKE_BACK_SECONDS), None)
        if slot is None or self._being_played(sighting, [player], state, besides=top):
            return None
        return CardTakenBack(sighting.t, player, sighting.pile, top, to_stock=slot, revealed=sighting.card, frame=sighting.frame)

    def _being_played(self, sighting: Arrival, players: list[str], state: EngineState, *, besides: Card | None = None,
                      suited: bool = False) -> bool:
        """The card seen, or one the reader thought it may well be, lies on a stock of one of `players`: it is being
        played, not shown again. `besides`: a card known to lie on the pile, which the reader's doubts do not name;
        `suited`: the card seen is known by its suit, and a stock top known by its rank alone is another card."""
        alike = sighting if besides is None else replace(sighting, alternatives=tuple(alt for alt in sighting.alternatives if alt[0] != besides))
        return any(stock.top is not None and same_card(stock.top, sighting.card) and not (suited and stock.top.suit is None)
                   for player in players for stock in state.players[player].stocks) or bool(self._likely_owner(alike, players, state))

    def _taken_back_to_stock(self, sighting: StockSeen, state: EngineState) -> CardTakenBack | None:
        """A card the player laid on a spit pile a moment ago (TAKE_BACK_SECONDS) seen back on one of
        their stocks, where their hand just was: lifted back off the pile, though the pile may never have
        shown the card under it again (the other player's next card laid on it at once). Also once that
        next card ended the round or the players stalled: the card was lifted before, and is called."""
        found = self._take_back(sighting, state)
        if found is None:
            return None
        number, taken_back = found
        del self._played[number]
        return taken_back

    def _take_back(self, sighting: StockSeen, state: EngineState) -> tuple[int, CardTakenBack] | None:
        """`_taken_back_to_stock`'s take-back, and the card laid it lifts (its place in `_played`), without
        taking the card out of those laid."""
        card = sighting.reading.card
        if (not sighting.visited or card is None
                or state.phase not in (GamePhase.PLAYING, GamePhase.STALLED, GamePhase.ROUND_OVER)):
            return None
        if any(stock.top is not None and (same_card(stock.top, card) if player == sighting.player else stock.top == card)
               for player in PLAYERS for stock in state.players[player].stocks):
            return None  # the card already lies on a stock (the other player's read without its suit is not it)
        laid_lately = [number for number, (t, player, _, laid) in enumerate(self._played)
                       if player == sighting.player and same_card(laid, card) and 0 < sighting.t - t <= TAKE_BACK_SECONDS]
        if card.suit is None and (len(laid_lately) != 1 or not sighting.previous.empty):
            # read by its rank alone, it is the card brought back only as the one card of that rank the
            # player laid lately, onto a bare slot (a face-down card there may have been turned up as
            # another card of that rank)
            return None
        if not laid_lately:
            return None
        t, player, pile, laid = self._played[laid_lately[-1]]  # the latest such card
        # it left the pile before the hand brought it back (when it reached the stock): when the hand came back to
        # the pile for it, if it was seen to (`other_decks` seed 405: B's hand back at pile 1 for its AD at 3.906 s,
        # at its stock at 4.1 s, and A's 2H laid on the pile at 3.967 s was judged on the AD; six take-backs over
        # 181 kept replays dated 0.16-0.32 s late now within 0.07 s of the renderer's, two plays more fully right)
        back = next((at for at in (sighting.reached_at, sighting.turned_at) if at is not None), sighting.t)
        back = max((at for at, who, where in self._touched if who == player and where == pile and t < at < back), default=back)
        return laid_lately[-1], CardTakenBack(max(t, back), player, pile, laid, to_stock=sighting.slot, frame=sighting.frame)

    def takes_back_before(self, sighting: StockSeen, state: EngineState, arrival: Arrival) -> bool:
        """Whether `sighting` (a stock seen later) shows a card lifted back off the top of the pile `arrival`
        lands on before it touched: the take-back is to be ruled first, so that the card lands on the one
        under it (seen back on the stock only once the other player's next card had been laid)."""
        if state.phase is not GamePhase.PLAYING:
            return False
        found = self._take_back(sighting, state)
        if found is None:
            return False
        taken_back = found[1]
        return (taken_back.pile == arrival.pile and taken_back.t < arrival.t
                and state.pile_tops[arrival.pile] is not None and taken_back.card == state.pile_tops[arrival.pile]
                # the card itself read under the hand lifting it is no card laid after it
                and not (arrival.card is not None and same_card(arrival.card, taken_back.card)))

    def _arrival_observations(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting] = ()):
        if sighting.card is None:
            return [], f"a card landed on spit pile {sighting.pile} at t={sighting.t:.3f}s but could not be read"
        card = sighting.card
        top = state.pile_tops[sighting.pile]
        # of the stock tops the reading could be, the one seen leaving its stock names the card
        shown = (self._seen_leaving(sighting, state, coming) or self._the_one_that_left(sighting, state, coming)
                 if state.phase is GamePhase.PLAYING else None)
        if shown is None and self._arm_passing(sighting, state, coming):
            return [], (f"{card} read unsurely on spit pile {sighting.pile} at t={sighting.t:.3f}s as {sighting.player}'s hand "
                        f"laid a card on spit pile {1 - sighting.pile}, and no stock was seen losing it: taken for the arm "
                        "reaching across, not a play")
        from_stock = shown is not None or any(
            stock.top is not None and same_card(stock.top, card)
            for player in ([sighting.player] if sighting.player else PLAYERS) for stock in state.players[player].stocks)
        if state.phase is GamePhase.ROUND_OVER and self._laying_the_last_card(sighting):
            return [], (f"{card} seen on spit pile {sighting.pile} at t={sighting.t:.3f}s under {sighting.player}'s hand, no "
                        "later than it laid the round's last card: laying it, not a slap")
        if top is not None and same_card(top, card) and state.phase is GamePhase.ROUND_OVER and sighting.player is not None:
            # once the round is over, the hand that made the pile be read again slapped it (a card of the
            # same rank laid then, from a stock or not, would be a late play of a card the rules forbid there)
            return [_slap(sighting)], (
                f"{card} seen on spit pile {sighting.pile} again after the round's end at t={sighting.t:.3f}s: "
                f"the card on top read again, {sighting.player}'s hand a slap")
        if (state.phase is GamePhase.ROUND_OVER and sighting.player is not None
                and not any(stock.top is not None and stock.top.rank == card.rank for stock in state.players[sighting.player].stocks)
                and not self._likely_owner(sighting, [sighting.player], state)):
            # once the round is over a card can only come from a stock (a late play); one that is none of the
            # player's stock tops, nor of their rank, is the top misread under the slapping hand, or the pile
            # knocked askew by it
            return [_slap(sighting)], (
                f"{card} read on spit pile {sighting.pile} after the round's end at t={sighting.t:.3f}s is none of "
                f"{sighting.player}'s stock tops: the card on top misread, {sighting.player}'s hand a slap")
        if top is not None and same_card(top, card) and (not from_stock or self._passing_over(sighting, coming)):
            # the card already on top, seen again (a hand passing over it); one that also lies on the player's
            # stocks is a real play, and the top was misread, unless the hand went on to lay a card on the other
            # pile and no stock was seen losing one like it (B's arm over A's opening `JS`, read `J?` as B,
            # with a `JC` on a stock, spat on the other pile)
            return [], (f"{card} seen landing again on spit pile {sighting.pile} at t={sighting.t:.3f}s: taken for a "
                        "second reading of the card on top, not a new play")
        taken_back = None if shown is not None else self._taken_back(sighting, state, coming)
        if taken_back is not None:
            return [taken_back], None
        if self._top_read_again(sighting, state, shown, coming):
            return [], (f"{card} seen landing on spit pile {sighting.pile} at t={sighting.t:.3f}s, on the {top} there, and no "
                        f"stock top is a {card}: taken for the card on top read again with another suit, not a new play")
        spits_due = state.phase in (GamePhase.LAID_OUT, GamePhase.STALLED)
        if (self._before_opening(sighting) and self._opening_stalled and sighting.player is not None
                and (top is None or not can_play_on(card, top) or self._other_half_of_the_spits(sighting))):
            # the clip opened on the spits after a stall (called before it began): a card laid then that
            # fits no top is a spit (one that fits is a play: a card held as the clip began, unless the other
            # player had just spat on the other pile, the two laid together)
            self._opening_spit = (sighting.t, sighting.player, sighting.pile)
            return [replace(self._spit(sighting, sighting.player, card, state), stalled_since=None,
                            stalled_before_layout=True)], None
        if self._before_opening(sighting) and not spits_due:
            # laid as the clip opened: the card had left its stock before the layout was read, so no stock
            # top names it (a misread one would match another card still lying there)
            return [CardLanded(sighting.t, sighting.player, sighting.pile, card, frame=sighting.frame, error=sighting.error,
                               left_before_layout=True)], None
        candidates = [sighting.player] if sighting.player else list(PLAYERS)
        owners = [shown] if shown is not None else [
            (player, slot) for player in candidates for slot, stock in enumerate(state.players[player].stocks)
            if stock.top is not None and same_card(stock.top, card)]
        if spits_due and sighting.together and sighting.player in state.spits_due and owners and not any(
                sighting.t - STOCK_LEFT_SECONDS <= self._left.get(owner, (-1e9,))[0] <= sighting.t + 0.5 for owner in owners):
            # spits are due (no stock top fits, or it is the round's start) and both players laid a card at
            # once: a card like one still lying on the player's stock is their spit card misread
            owners = []
        if spits_due and not owners:
            # each player turns one spit card per spit: a hand seen spitting twice is the other player's
            # card landing under a hand passing over the pile
            due = [player for player in PLAYERS if player in state.spits_due]
            spitter = sighting.player if sighting.player in due else (due[0] if due else None)
            if len(due) == 2 and spitter == sighting.player and self._same_hand_spits_again(sighting, coming):
                # one hand seen laying both spit cards: it laid the one it reached last, and this one is the
                # other player's, whose arm the camera lost (a dark arm on dark wood, merged with the seen one)
                spitter = next(player for player in due if player != sighting.player)
            if spitter is not None:
                return [self._spit(sighting, spitter, card, state)], None
        beneath = None
        if not owners and sighting.player is not None:
            # the card is the other player's stock top: the hand seen was not the one that played it
            other = [(player, slot) for player in PLAYERS if player != sighting.player
                     for slot, stock in enumerate(state.players[player].stocks)
                     if stock.top is not None and same_card(stock.top, card)]
            if other and not spits_due and not _of_its_rank_and_colour(card, sighting.player, state):
                # (unless the hand's own player has a card of its rank and colour on a stock: a suit misread, on
                # that stock or on the pile, is likelier than the hand's side seen wrong; B's `KC` was given to
                # A, whose `KS` the opening layout had read `KC`)
                owners = other
                beneath = self._own_card_beneath(sighting, state, coming)
        misread_stock = None
        if not owners and not spits_due and shown is None:
            misread_stock = self._left_as_read(sighting, state, coming)
            owners = [] if misread_stock is None else [(sighting.player, misread_stock)]
        if not owners and not spits_due:
            owners = self._likely_owner(sighting, candidates, state) or _one_of_its_rank(card, candidates, state)
        if not owners and not spits_due and shown is None:
            misread_stock = self._misread_stock_that_left(sighting, state, coming)
            owners = [] if misread_stock is None else [(sighting.player, misread_stock)]
        if owners and shown is None and self._spits_after_unseen_stall(sighting, state, coming):
            return [self._spit(sighting, sighting.player, card, state)], (
                f"both players laid a card at once at t={sighting.t:.3f}s after {LULL_SECONDS:g} s with none laid, and "
                f"no stock was seen losing {card}: taken for the spits after a stall, not plays")
        if (not owners and sighting.together and sighting.player is not None and state.phase is GamePhase.PLAYING
                and state.players[sighting.player].spit_count > 0 and not self._laid_with_a_stock_top(sighting, state, coming)):
            # both players laid a card from their hands at once, neither a stock top: a re-spit after a stall
            # the referee did not see (the engine, camera-tolerant, rules the stall it implies)
            return [self._spit(sighting, sighting.player, card, state)], None
        if owners:
            player, slot = owners[0]
            self._remember(player, slot)
            top = state.players[player].stocks[slot].top
            if top is not None and misread_stock is None:
                card = self._both_readings(sighting, player, slot, top)
                if top.suit is None:
                    # the stock named its rank alone, and the landing card a suit: one seen this round already
                    # (the deck has one of each: A's `KS` read `KC` as it landed, B's `KC` under the pile) is
                    # the other of its rank that reading gave weight to
                    card = _one_in_the_deck(card, sighting.alternatives, state)
            when = sighting if player == sighting.player else self._own_touch(sighting, player, coming) or sighting
            landed = CardLanded(when.t, player, sighting.pile, card, stock=slot, frame=when.frame, error=when.error)
            laid = [landed]
            if beneath is not None:
                # the hand seen laid its own card first, and the other player's covered it at once (`_own_card_beneath`)
                own = state.players[sighting.player].stocks[beneath].top
                self._remember(sighting.player, beneath)
                laid = [CardLanded(sighting.t, sighting.player, sighting.pile, own, stock=beneath, frame=sighting.frame,
                                   error=sighting.error),
                        landed if when.t >= sighting.t else replace(landed, t=sighting.t, frame=sighting.frame)]
            if (player, slot) in self._seen_empty and state.players[player].stocks[slot].count > 1:
                # its slot was seen bare as the card left: nothing lay under it, whatever the deal's count said
                return laid + [StockSeenEmpty(sighting.t, player, slot, frame=sighting.frame)], None
            return laid, None
        if sighting.player is not None:
            slot = self._face_down_slot(sighting.player, state)
            if slot is not None:
                self._remember(sighting.player, slot)
                return [CardLanded(sighting.t, sighting.player, sighting.pile, card, stock=slot, frame=sighting.frame, error=sighting.error)], None
        # not a stock top of anyone (a misread card, or a missed stall): still the engine's to rule, so the
        # play that visibly happened is not lost
        return [CardLanded(sighting.t, sighting.player, sighting.pile, card, frame=sighting.frame, error=sighting.error)], None

    def _laid_with_a_stock_top(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> bool:
        """The other player's card laid together with this one (on the other pile, within JOINT_SECONDS after
        it) is one of that player's stock tops: the two were plays made at once, not the spits after a stall,
        whatever this card was (racing seed 130's clip from 19.27 s: A's `QC`, its stock unread, and B's last
        stock card `2H` laid 7 ms apart were ruled spits after a stall, and the round's end lost)."""
        partner = _laid_with(sighting, coming)
        return partner is not None and partner.card is not None and any(
            stock.top is not None and same_card(stock.top, partner.card) for stock in state.players[partner.player].stocks)

    def _other_half_of_the_spits(self, sighting: Arrival) -> bool:
        """A card laid together with the other player's, who spat on the other pile as the clip opened on the
        spits (within JOINT_SECONDS before it): this player's spit, though it fits the top it covers (racing
        seed 129's clip from 27.15 s: B spat `AH` and A `3S` on the `2H` 0.14 s later, ruled a play of A's last
        stock card, the round over, and A's `2D` laid a second later a slap)."""
        if not sighting.together or self._opening_spit is None:
            return False
        t, player, pile = self._opening_spit
        return player != sighting.player and pile != sighting.pile and 0.0 <= sighting.t - t <= JOINT_SECONDS

    def _before_opening(self, sighting: Arrival) -> bool:
        """The card touched its pile before the opening layout was read."""
        return self._opening_frame is not None and sighting.frame < self._opening_frame

    def _both_readings(self, sighting: Arrival, player: str, slot: int, top: Card) -> Card:
        """The card that left stock `slot` of `player` and landed. A stock top with a suit names it: read
        while it lay still, it is surer than a glimpse of the card landing, unless the landing card was read
        surely in the other colour (COLOUR_SURE_LANDING) (letting the two readings' joint
        belief override it changed 11 cards in 24 games and 4 clips, 10 for the worse: a `KC` made `KS`, a
        `QD` made `KD`). When neither reading named a suit (a court card of a deck the models never saw),
        the card gets the suit both believe in together, when that card holds at least SUIT_BY_BOTH of
        their joint belief; else the landing card stands as read (a suit it named included: filling in the
        stock's doubts over it made a `KC` a `KS`). A stock top named by rank alone that the landing card
        was matched to through its doubts (another rank read) gives its rank (`_of_rank`)."""
        if top.suit is not None:
            card = sighting.card
            if (card.suit is not None and card.rank == top.rank and (card.suit in RED) != (top.suit in RED)
                    and sighting.confidence >= COLOUR_SURE_LANDING):
                # the landing card read surely in the other colour: a suit misread keeps its colour, so this is
                # another card of the rank (held since before the clip began, A's `8S` with an `8H` on A's
                # stock) or the stock was misread (B's `9H` read `9C` on its stock): it is as it landed
                return card
            return top
        if sighting.card.rank != top.rank:
            # matched to this stock through the landing reading's doubts (`_likely_owner`, `_seen_leaving`: a
            # dondorf `JD` glimpsed landing as `QD`, the jack among its alternatives): the rank read on the
            # stock, lying still, names the card, and the suit is the one the landing reading gives that rank
            return _of_rank(top.rank, sighting.alternatives)
        if sighting.card.suit is not None:
            return sighting.card
        stock = self._stock_readings.get((player, slot))
        if stock is None or stock.card != top or not stock.alternatives or not sighting.alternatives:
            return sighting.card
        landing = dict(sighting.alternatives)
        joint = {card: chance * landing[card] for card, chance in stock.alternatives if card in landing}
        if not joint:
            return sighting.card
        best = max(joint, key=joint.get)
        sure = best.rank == top.rank and joint[best] >= SUIT_BY_BOTH * sum(joint.values())
        return best if sure else sighting.card

    def _spit(self, sighting: Arrival, player: str, card: Card, state: EngineState) -> SpitTurned:
        """The card landing is `player`'s spit; one seen while play seemed open carries when the table last
        changed before it, when the stall it implies came."""
        since = min(self._table_changed, sighting.t) if state.phase is GamePhase.PLAYING else None
        card = _not_on_the_table(card, sighting.alternatives, state)
        return SpitTurned(sighting.t, player, sighting.pile, card, stalled_since=since, frame=sighting.frame)

    def _own_card_beneath(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> int | None:
        """A hand seen laying the other player's stock top, its own player's stock seen losing its top about as
        it touched: the two hands reached the pile at once, the hand seen laid its own card and the other's
        covered it before it could be read (its card merged into the first one on the pile, that hand was
        never seen touching: `all_at_once --seeds` 514, A's `6C` and B's `8S` 23 ms apart, only A's touch
        seen, the pile read `8S`). The slot of that card, when exactly one of its player's stocks lost
        a top within STOCK_AHEAD_SECONDS of the touch that no card landing later is read as, nor turned up
        in another of their slots, and the same hand laid no other card just before or after, here or on the
        other pile (an arm reaching across); else None. Where the tracker saw the other hand close in and merge
        (`PlaceTracker._merged_into_another`) the covered card comes as its own arrival and this is not needed;
        it is for a hand the tracker never saw at the pile, named by the stocks alone."""
        player = sighting.player
        if self._laid_about(sighting, player, coming):
            return None
        left = self._unplayed_departures(sighting, player, state, coming, nor_moved=True, before=STOCK_AHEAD_SECONDS)
        return left[0] if len(left) == 1 else None

    @staticmethod
    def _own_touch(sighting: Arrival, player: str, coming: Sequence[Sighting]) -> Arrival | None:
        """The card on top is `player`'s, though another hand was seen laying it: that player's own touch of
        the pile, seen under it (a covered arrival to come, within OWN_TOUCH_SECONDS), times it. The other
        hand had been at the pile first (lifting its own card back, as a take-back does) and lingered."""
        return next((seen for seen in coming if isinstance(seen, Arrival) and seen.player == player and seen.under
                     and seen.pile == sighting.pile and 0 < seen.t - sighting.t <= OWN_TOUCH_SECONDS), None)

    @staticmethod
    def _same_hand_spits_again(sighting: Arrival, coming: Sequence[Sighting]) -> bool:
        """The same player's hand is seen laying a card on the other spit pile within JOINT_SECONDS after this one."""
        return any(isinstance(seen, Arrival) and seen.player == sighting.player and seen.pile != sighting.pile
                   and 0 <= seen.t - sighting.t <= JOINT_SECONDS for seen in coming)

    def _spits_after_unseen_stall(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> bool:
        """Both players laid a card at once (the other on the other pile, within JOINT_SECONDS), after
        LULL_SECONDS with no card laid, both still hold spit cards, and neither card's stock (any of its
        player's stock tops the reading fits) was seen losing it: the re-spit after a stall the referee
        did not see, because a stock card was misread as one that could be played (a blurred king read
        as a queen). Plays made at once after a lull show their stocks losing them (on 34 rendered runs the
        one such pair did; of all plays, a fifth had no stock seen losing them within STOCK_AHEAD_SECONDS,
        hence both cards, and the lull)."""
        if not sighting.together or sighting.player is None or state.phase is not GamePhase.PLAYING:
            return False
        partner = _laid_with(sighting, coming)
        if partner is None or any(state.players[player].spit_count == 0 for player in PLAYERS):
            return False
        if any(t > sighting.t - LULL_SECONDS for t, _, _ in self._laid):
            return False
        for arrival in (sighting, partner):
            fitting = {key for key in self._fitting(arrival, state) if key[0] == arrival.player}
            if any(key in fitting and same_card(state.players[key[0]].stocks[key[1]].top, card)
                   for key, card in self._departures(arrival, coming)):
                return False
        return True

    @staticmethod
    def _fitting(sighting: Arrival, state: EngineState) -> dict[tuple[str, int], float]:
        """The stock tops the arriving card may be, with how likely: those of its player (of either when
        no hand was seen) the reading gives at least LIKELY_OWNER_FLOOR, or that it names; and the other
        player's tops it names (the hand seen may not be the one that laid it)."""
        fitting: dict[tuple[str, int], float] = {}
        for player in PLAYERS:
            own = sighting.player in (None, player)
            for slot, stock in enumerate(state.players[player].stocks):
                if stock.top is None:
                    continue
                named = sighting.card is not None and same_card(stock.top, sighting.card)
                score = sum(p for card, p in sighting.alternatives if same_card(stock.top, card))
                if named or (own and score >= LIKELY_OWNER_FLOOR):
                    fitting[(player, slot)] = max(score, sighting.confidence if named else 0.0)
        return fitting

    def _departures(self, sighting: Arrival | PileTouched, coming: Sequence[Sighting],
                    before: float = STOCK_LEFT_SECONDS) -> list[tuple[tuple[str, int], Card]]:
        """Stock tops seen leaving their slot, ((player, slot), card), from `before` seconds before the
        card landed to STOCK_AHEAD_SECONDS after (those after from the sightings still to be ruled, where
        the hand reached the stock before the card landed: a stock is seen again only once the hand has left
        it, but a card cannot leave a stock the hand came to after it landed: that is the player's next card,
        fetched after a spit)."""
        left = [(key, card) for key, (t, card) in self._left.items() if sighting.t - before <= t <= sighting.t]
        return left + [((seen.player, seen.slot), seen.previous.card) for seen in coming
                       if isinstance(seen, StockSeen) and seen.t <= sighting.t + STOCK_AHEAD_SECONDS and _lost_its_top(seen)
                       and (seen.reached_at is None or seen.reached_at <= sighting.t + REACHED_AFTER_LANDING_S)]

    def _seen_leaving(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> tuple[str, int] | None:
        """When the reading fits several stock tops, the likeliest of those seen leaving their stock
        (`_departures`), of the hand seen laying it where they are as likely (a covered `Q?` named by the
        queen that left its player's stock, and the other player's `QH` gone too); None when one fits, or
        none of them was seen to leave. A stock seen losing a card of its top's rank lost its top, though the
        two readings differ in suit (seed 204: B's `JD`, read `JH` as it left, one of three jacks on B's stocks)."""
        fitting = self._fitting(sighting, state)
        if len(fitting) < 2:
            return None
        left = self._departures(sighting, coming)
        gone = [(score, key[0] == sighting.player, key) for key, score in fitting.items()
                if any(key == slot and card is not None and card.rank == state.players[key[0]].stocks[key[1]].top.rank
                       for slot, card in left)]
        return max(gone)[2] if gone else None

    def _the_one_that_left(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> tuple[str, int] | None:
        """A card read unsurely (under PASSING_BELOW) as none of its player's stock tops (a blurred 4
        read as a 2) is the one top of theirs seen leaving its stock around its landing and not yet
        played: their stock says which card their hand took. None when the reading fits a top or names
        the card on the pile's top (read again as a hand passed), or when none or several of their stocks
        lost a top that no card landing later is read as."""
        if sighting.player is None or sighting.card is None or sighting.confidence >= PASSING_BELOW:
            return None
        top = state.pile_tops[sighting.pile]
        if top is not None and same_card(top, sighting.card):
            return None  # the card on top read again (a hand passing over it)
        if any(player == sighting.player for player, _ in self._fitting(sighting, state)):
            return None
        left = self._unplayed_departures(sighting, sighting.player, state, coming)
        return (sighting.player, left[0]) if len(left) == 1 else None

    def _left_as_read(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> int | None:
        """A card read as none of its player's stock tops came from the one stock of theirs seen losing a
        card like it around its landing (as `_misread_stock_that_left` looks): that stock showed it, though
        the engine has another card there, or none (seed 203: A's stock counted empty, then seen showing a
        `K?` the engine had not taken in yet, lost the `KC` laid; with no king on A's stocks, the `JC` its
        reading gave 0.07 was taken instead). None otherwise, and for a slot the engine holds no stock in (the
        spare slot beside the row, where a card seen there was no stock of the engine's: it raised)."""
        card = sighting.card
        if sighting.player is None or card is None:
            return None
        stocks = len(state.players[sighting.player].stocks)
        slots = {slot for (who, slot), left in self._departures(sighting, coming, before=STOCK_AHEAD_SECONDS)
                 if who == sighting.player and slot < stocks and left is not None and same_card(left, card)}
        return slots.pop() if len(slots) == 1 else None

    def _misread_stock_that_left(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> int | None:
        """A card read surely (PASSING_BELOW or more) as no stock top of either player's, nor of its player's
        ranks, came from the one stock of its player's seen losing its top around its landing and not yet
        played: that stock was misread (seed 172's clip: a `JC` the opening layout read `KC`, its slot then
        counted full, and a stall called 0.9 s early); the card is as it landed. None otherwise."""
        card = sighting.card
        if sighting.player is None or card is None or sighting.confidence < PASSING_BELOW:
            return None
        top = state.pile_tops[sighting.pile]
        if top is not None and same_card(top, card):
            return None  # the card on top read again
        tops = [(player, stock.top) for player in PLAYERS for stock in state.players[player].stocks if stock.top is not None]
        if any(same_card(stock_top, card) or player == sighting.player and stock_top.rank == card.rank for player, stock_top in tops):
            return None
        # seen losing its top about as the card landed (an older departure is another card, or one taken back)
        left = self._unplayed_departures(sighting, sighting.player, state, coming, before=STOCK_AHEAD_SECONDS)
        return left[0] if len(left) == 1 else None

    def _unplayed_departures(self, sighting: Arrival | PileTouched, player: str, state: EngineState,
                             coming: Sequence[Sighting], *, nor_moved: bool = False,
                             before: float = STOCK_LEFT_SECONDS) -> list[int]:
        """The slots of `player` seen losing their top around `sighting` (`_departures`) whose card the
        engine still has there (not yet played) and no card landing later is read as; `nor_moved`: nor
        seen turning up in another of their slots; `before`: how long before the landing a departure counts."""
        stocks = state.players[player].stocks
        later = [seen.card for seen in coming if isinstance(seen, Arrival) and seen.card is not None]
        if nor_moved:
            later += [seen.reading.card for seen in coming
                      if isinstance(seen, StockSeen) and seen.player == player and seen.reading.card is not None]
        return sorted({slot for (who, slot), card in self._departures(sighting, coming, before)
                       if who == player and slot < len(stocks) and stocks[slot].top is not None
                       and same_card(stocks[slot].top, card) and not any(same_card(card, other) for other in later)})

    def _laid_about(self, sighting: Arrival | PileTouched, player: str, coming: Sequence[Sighting]) -> bool:
        """`player`'s hand laid a card (on either pile, ruled already or still to come) within
        STOCK_AHEAD_SECONDS of `sighting`."""
        laid = [t for t, who, _ in self._laid if who == player]
        laid += [seen.t for seen in coming if isinstance(seen, Arrival) and seen.player == player]
        return any(abs(t - sighting.t) <= STOCK_AHEAD_SECONDS for t in laid)

    def _laid_unseen(self, sighting: PileTouched, state: EngineState, coming: Sequence[Sighting]):
        """A hand touched a pile in play and the pile read as before: a card like the one on top laid
        square on it (or read as it: a blurred `KD` taken for the `Q?` there) when exactly one of that
        player's stock tops was seen leaving around the touch, and neither landed elsewhere nor turned up
        in another of their slots, and the same hand laid no card within STOCK_AHEAD_SECONDS of the touch
        nor touched the other pile next, within PASSING_SECONDS (an arm reaching over this pile to the other)."""
        player, stocks = sighting.player, state.players[sighting.player].stocks
        if self._laid_about(sighting, player, coming):
            return [], None  # the same hand laid a card just before or after: it touched this pile passing
        if sighting.went_on or any(isinstance(seen, PileTouched) and seen.player == player and seen.pile != sighting.pile
                                   and 0 < seen.t - sighting.t <= PASSING_SECONDS for seen in coming):
            # it went on to the other pile: an arm reaching across lays its card on the far one (where it may lie
            # under the other player's card, still to be named by the card that left this player's stock)
            return [], None
        left = self._unplayed_departures(sighting, player, state, coming, nor_moved=True)
        if len(left) != 1:
            return [], None
        slot = left[0]
        card = stocks[slot].top
        self._remember(player, slot)
        self._laid = self._laid[-7:] + [(sighting.t, player, sighting.pile)]  # as an arrival's touch is
        return [CardLanded(sighting.t, player, sighting.pile, card, stock=slot, frame=sighting.frame, error=sighting.error)], (
            f"{player}'s hand touched spit pile {sighting.pile} at t={sighting.t:.3f}s and the pile read as before, as "
            f"{card} left {player}'s stock {slot}: {card} taken as laid there")

    def _arm_passing(self, sighting: Arrival, state: EngineState, coming: Sequence[Sighting]) -> bool:
        """The card, read under PASSING_BELOW, landed as the same hand laid a card on the other pile
        (PASSING_SECONDS either way), and none of that player's stocks holding it was seen losing it."""
        if (state.phase is not GamePhase.PLAYING or sighting.player is None or sighting.card is None
                or sighting.confidence >= PASSING_BELOW):
            return False
        return self._passing_over(sighting, coming)

    def _passing_over(self, sighting: Arrival, coming: Sequence[Sighting]) -> bool:
        """The hand seen laying `sighting` laid a card on the other pile (PASSING_SECONDS either way), and none
        of its player's stocks holding a card like it was seen losing it: its arm passed over this pile."""
        if not self._laid_on_other_pile(sighting, coming):
            return False
        return not any(player == sighting.player and same_card(card, sighting.card)
                       for (player, _), card in self._departures(sighting, coming))

    def _laid_on_other_pile(self, sighting: Arrival, coming: Sequence[Sighting]) -> bool:
        """The same hand laid a card on the other pile within PASSING_SECONDS of `sighting`, either way."""
        laid = [(t, pile) for t, player, pile in self._laid if player == sighting.player]
        laid += [(seen.t, seen.pile) for seen in coming if isinstance(seen, Arrival) and seen.player == sighting.player]
        return any(pile != sighting.pile and abs(t - sighting.t) <= PASSING_SECONDS for t, pile in laid)

    def _top_read_again(self, sighting: Arrival, state: EngineState, shown, coming: Sequence[Sighting]) -> bool:
        """In play, a card of the top's rank read with another suit (`KS` on the `KC` there) on a pile whose
        picture did not change, as the same hand laid a card on the other pile (PASSING_SECONDS), that no
        stock top of either player is, nor likely is, and that no stock was seen losing: the top read again
        after the arm passed over it on its way, its suit read otherwise (clubs and spades, hearts and
        diamonds are a few pixels of one colour apart in a camera's view). Without the arm's errand on the
        other pile it is ruled a card laid: a 2H laid square on a 3D leaves the picture much as it was, and
        the 3D may have been missed; when spits are due, a 7S laid square on a 7D is a spit."""
        top, card = state.pile_tops[sighting.pile], sighting.card
        if (state.phase is not GamePhase.PLAYING or not sighting.unchanged or shown is not None or top is None
                or card.rank != top.rank or not self._laid_on_other_pile(sighting, coming)):
            return False
        stocks = [stock for player in PLAYERS for stock in state.players[player].stocks]
        return not any(stock.top is not None and same_card(stock.top, card) for stock in stocks) and not self._likely_owner(
            sighting, list(PLAYERS), state)

    @staticmethod
    def _likely_owner(sighting: Arrival, candidates: list[str], state: EngineState) -> list[tuple[str, int]]:
        """The stock top the arriving card most likely is, among the cards it could be (a blurred 5 read
        as a 6 when no 6 but a 5 lies on the player's stocks); empty when none is likely enough."""
        best, best_score = [], LIKELY_OWNER_FLOOR
        for player in candidates:
            for slot, stock in enumerate(state.players[player].stocks):
                if stock.top is None:
                    continue
                score = sum(p for card, p in sighting.alternatives if same_card(stock.top, card))
                if score > best_score:
                    best, best_score = [(player, slot)], score
        return best

    def _remember(self, player: str, slot: int) -> None:
        order = self._played_from[player]
        if slot in order:
            order.remove(slot)
        order.append(slot)

    def _face_down_slot(self, player: str, state: EngineState) -> int | None:
        stocks = state.players[player].stocks
        face_down = [slot for slot, stock in enumerate(stocks) if stock.count > 0 and stock.top is None]
        if not face_down:
            return None
        recent = [slot for slot in reversed(self._played_from[player]) if slot in face_down]
        return recent[0] if recent else face_down[0]

    def _left_bare(self, sighting: StockSeen, player: str, slot: int, state: EngineState) -> list[object]:
        """A stock whose top was moved away and that was seen bare as it left: nothing lay under it,
        whatever the engine counted (the bare slot was seen before the move was known)."""
        if (player, slot) in self._seen_empty and state.players[player].stocks[slot].count > 1:
            return [StockSeenEmpty(sighting.t, player, slot, frame=sighting.frame)]
        return []

    def _stock(self, sighting: StockSeen, state: EngineState):
        reading: Reading = sighting.reading
        if state.phase in (GamePhase.WAITING_FOR_LAYOUT, GamePhase.GAME_OVER):
            return [], None
        player, slot, card = sighting.player, sighting.slot, reading.card
        stocks = state.players[player].stocks
        here = stocks[slot] if slot < len(stocks) else None
        if _lost_its_top(sighting):
            self._left[(player, slot)] = (sighting.t, sighting.previous.card)
        if reading.empty:
            self._seen_empty.add((player, slot))
        else:
            self._seen_empty.discard((player, slot))
        if reading.empty and here is not None and here.count > 0 and here.top is None:
            # a slot counted with face-down cards is seen bare (its count was the deal's guess)
            return [StockSeenEmpty(sighting.t, player, slot, frame=sighting.frame)], None
        if reading.face_down and here is not None and (here.count == 0 or here.top is not None and here.count < 2):
            return [StockSeenFaceDown(sighting.t, player, slot, frame=sighting.frame)], None
        if card is None:
            return [], None
        self._reread.pop((player, slot), None)
        if here is not None and here.top is not None and same_card(here.top, card):
            return [], None
        taken_back = self._taken_back_to_stock(sighting, state)
        if taken_back is not None:
            return [taken_back], None
        sources = [index for index, stock in enumerate(stocks)
                   if index != slot and stock.top is not None and same_card(stock.top, card)]
        if here is None or here.count == 0:
            if sources:
                return [StockMoved(sighting.t, player, sources[0], slot, card, frame=sighting.frame)] + \
                    self._left_bare(sighting, player, sources[0], state), None
            vacated = [index for (who, index), (t, _) in self._left.items() if who == player and index != slot
                       and sighting.t - t <= MOVE_SECONDS and index < len(stocks) and stocks[index].top is not None]
            if len(vacated) == 1:
                # moved from the stock that just lost its top, which had been misread: put right, then moved
                return [StockTurnedUp(sighting.t, player, vacated[0], card, frame=sighting.frame),
                        StockMoved(sighting.t, player, vacated[0], slot, card, frame=sighting.frame)] + \
                    self._left_bare(sighting, player, vacated[0], state), None
            if slot >= 5:
                return [SixthStock(sighting.t, player, frame=sighting.frame)], None
        if here is not None and here.top is None:
            card = _one_in_the_deck(card, reading.alternatives, state)
            return [StockTurnedUp(sighting.t, player, slot, card, stalled_since=sighting.turned_at, frame=sighting.frame)], None
        if here is not None and here.top is not None:
            self._reread[(player, slot)] = (sighting.t, card)  # a misreading, or the top is on its way to a pile
            return [], None
        return [], None


def still_gives(sighting: Arrival, card: Card) -> bool:
    """The reading of `sighting` still gives `card` (a card with its suit) at least UNDER_DOUBT_FLOOR among
    its alternatives: it may be that card, though it names another (a club and a spade are a few pixels of
    black apart in a camera's view)."""
    return any(other == card and chance >= UNDER_DOUBT_FLOOR for other, chance in sighting.alternatives)


def _shows_again(under: Card, sighting: Arrival) -> bool:
    """The card landing is `under`, the card the top covers, seen again: read as it, or as its rank with the
    other suit of its colour while the reading still gives `under` (`still_gives`: a `QS` read `QC` as it
    landed, then `QS` when the `6D` laid on it was lifted back)."""
    card = sighting.card
    if same_card(under, card):
        return True
    return (under.suit is not None and card.suit is not None and card.rank == under.rank
            and (card.suit in "HD") == (under.suit in "HD") and still_gives(sighting, under))


def _lost_its_top(sighting: StockSeen) -> bool:
    """The stock seen no longer shows the card it showed: not when no hand came to it and the card is
    only read again with its suit lost or found (`QS`, then `Q?` as the light changed: the queen lying
    there still is no queen that left)."""
    before, now = sighting.previous.card, sighting.reading.card
    if before is None or now == before:
        return False
    return sighting.visited or now is None or not same_card(now, before)


def _slapped_deeper(sighting: PileTouched, coming: Sequence[Sighting]) -> PileTouched | None:
    """The same hand's touch of the other spit pile among the sightings to come, at the same moment (within
    their errors), or within GRAZE_SECONDS after `sighting` where that only grazed its pile (GRAZE_MM), and
    reaching deeper inside its outline, or None. Only a player's first slap counts, and a hand slapping one pile
    in parallax spreads its fingers over the other's edge in the same frame (seed 127's racing game: A's slap
    landing on B's hand on pile 1 grazed pile 0 by 2 mm, and went to pile 0), or a frame or two before."""
    for seen in coming:
        if not (isinstance(seen, PileTouched) and seen.player == sighting.player and seen.pile != sighting.pile
                and not seen.through_hand and seen.depth > sighting.depth):
            continue
        if abs(seen.t - sighting.t) <= seen.error + sighting.error or (
                sighting.depth <= GRAZE_MM and 0.0 <= seen.t - sighting.t <= GRAZE_SECONDS):
            return seen
    return None


def _slap(sighting: Arrival | PileTouched) -> Slap:
    """The hand of `sighting` slapping its pile, timed no surer than SLAP_ERROR_S (a card's arrival where
    its hand came to rest on the pile, as a slap lands flat)."""
    if isinstance(sighting, PileTouched) and sighting.on_hand is not None:
        t, frame, error = sighting.on_hand  # it came down on the other player's hand first: it slapped there
    else:
        rest = sighting.rest if isinstance(sighting, Arrival) else None
        t, frame, error = rest or (sighting.t, sighting.frame, sighting.error)
        t = max(t, sighting.t)
    return Slap(t, sighting.player, sighting.pile, frame=frame, error=max(error, SLAP_ERROR_S))


def _laid_with(sighting: Arrival, coming: Sequence[Sighting]) -> Arrival | None:
    """The other player's card laid together with `sighting` on the other pile, within JOINT_SECONDS after it
    (among the sightings still to come), or None."""
    return next((seen for seen in coming if isinstance(seen, Arrival) and seen.together and seen.pile != sighting.pile
                 and seen.player not in (None, sighting.player) and seen.t - sighting.t <= JOINT_SECONDS), None)


def _not_on_the_table(card: Card, alternatives: Sequence[tuple[Card, float]], state: EngineState) -> Card:
    """A spit card read as a card seen face up this round (on a stock or a pile: the deck has one of
    each, and a spit card comes from a pile no one has seen) is another of its rank: the likeliest other
    suit the reader gave it that has not been seen, else its rank alone. One read without its suit is the
    suit the reader gave most of its weight to (SPIT_SUIT_SHARE) among the cards of its rank not seen: no
    stock says which it is, as it does for a play, but a queen read half as a QS lying on a stock is the
    queen the reader thought next likeliest."""
    seen = _seen_this_round(state)
    if card.suit is None:
        return _suit_by_elimination(card, alternatives, seen)
    if card not in seen:
        return card
    return _likeliest_unseen(card.rank, alternatives, seen) or Card(card.rank, None)


def _one_in_the_deck(card: Card, alternatives: Sequence[tuple[Card, float]], state: EngineState) -> Card:
    """A stock card turned up and read as a card seen face up already this round (the deck has one of
    each: a dondorf `QS` read `QC` while A's `QC` lay on a stock) is the likeliest other card of its rank
    not seen that the reading gives at least UNDER_DOUBT_FLOOR; else as read (a sure reading: the earlier
    one was wrong, and the engine says so)."""
    if card.suit is None or card not in state.seen:
        return card
    return _likeliest_unseen(card.rank, alternatives, state.seen, UNDER_DOUBT_FLOOR) or card


def _seen_this_round(state: EngineState) -> frozenset[Card]:
    """The cards with their suits seen face up this round (`EngineState.seen`), and those showing now."""
    showing = [stock.top for player in PLAYERS for stock in state.players[player].stocks] + list(state.pile_tops)
    return state.seen | {card for card in showing if card is not None and card.suit is not None}


def _likeliest_unseen(rank: str, alternatives: Sequence[tuple[Card, float]], seen: frozenset[Card],
                      floor: float = 0.0) -> Card | None:
    """The card of `rank`, with its suit, not among `seen`, that the reading's alternatives give most (at
    least `floor`), or None."""
    others = [(chance, other) for other, chance in alternatives
              if other.rank == rank and other.suit is not None and other not in seen and chance >= floor]
    return max(others, key=lambda pair: pair[0])[1] if others else None


def _suit_by_elimination(card: Card, alternatives: Sequence[tuple[Card, float]], seen: frozenset[Card]) -> Card:
    """`card` (its rank alone) named with the suit holding SPIT_SUIT_SHARE of the weight the reader gave
    the cards of its rank that have not been seen; else as it was."""
    weights: dict[Card, float] = {}
    for other, weight in alternatives:
        if other.rank == card.rank and other.suit is not None and other not in seen:
            weights[other] = weights.get(other, 0.0) + weight
    total = sum(weights.values())
    if not weights or total <= 0:
        return card
    best = max(weights, key=weights.get)
    return best if weights[best] >= SPIT_SUIT_SHARE * total else card


def _one_of_its_rank(card: Card, candidates: list[str], state: EngineState) -> list[tuple[str, int]]:
    """The one stock top of the players' with the card's rank, when only one has it: a rank is read
    surely where a court card's suit can be read wrong (a deck whose jacks the models never saw), and a
    player lays only their stock tops; empty when none or several share the rank."""
    same_rank = [(player, slot) for player in candidates for slot, stock in enumerate(state.players[player].stocks)
                 if stock.top is not None and stock.top.rank == card.rank]
    return same_rank if len(same_rank) == 1 else []


def _of_its_rank_and_colour(card: Card, player: str, state: EngineState) -> bool:
    """A stock top of `player`'s has the card's rank, and its colour where both suits were read."""
    return any(stock.top is not None and stock.top.rank == card.rank
               and (stock.top.suit is None or card.suit is None or (stock.top.suit in RED) == (card.suit in RED))
               for stock in state.players[player].stocks)


def _of_rank(rank: str, alternatives: Sequence[tuple[Card, float]]) -> Card:
    """The card of `rank` a reading's alternatives believe in: its suit when that suit holds at least
    SUIT_BY_BOTH of what they give the rank, else the rank alone."""
    suits: dict[str, float] = {}
    for card, chance in alternatives:
        if card.rank == rank and card.suit is not None:
            suits[card.suit] = suits.get(card.suit, 0.0) + chance
    if suits:
        suit = max(suits, key=suits.get)
        if suits[suit] >= SUIT_BY_BOTH * sum(suits.values()):
            return Card(rank, suit)
    return Card(rank, None)
