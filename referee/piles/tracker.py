"""The table tracker: frames in, sightings about piles out.

Per frame: rectify to the top-down view, split foreground from the still table, split foreground
into each player's hand and loose cards, and step every place. A place that settles after a change
is read (recogniser for the top card; bare-table colour for "is anything there"), and the change
is turned into sightings: arrivals with sub-frame touch times and who made them, hand touches that
left no card (slaps), stock slots that show a new top, a table cleared, a new layout.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from referee.capture.frames import Frame
from referee.piles.background import BackgroundModel
from referee.piles.hands import PLAYERS, HandTracker
from referee.piles.places import APPROACH_MARGIN_MM, PlaceChange, PlaceTracker, Visit
from referee.piles.reading import Reading, TableColour, TopCardNamer, read_place
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, Sighting, StockSeen, TableCleared, TableQuiet
from referee.piles.table_view import RectMM, TableView
from referee.piles.zones import Place, all_places
from referee.rules.cards import Card
from referee.table.layout import TableLayout

#: Resolution of the crops handed to the recogniser (px per mm). Higher reads small indices better
#: and costs recognition time; the view for motion stays coarse.
READ_PX_PER_MM = 3.0
#: A pixel is card-coloured (a face or its border) when at least this bright and at most this saturated.
CARD_MIN_VALUE = 140
CARD_MAX_SATURATION = 70
#: Margin (mm) around a stock slot within which a hand keeps it "busy". Small: touches on stocks are not
#: timed, and a hand resting at its owner's edge must not keep the stock row from being read.
STOCK_MARGIN_MM = 8.0
#: Foreground still for this long (s) becomes part of the table model.
ABSORB_SECONDS = 0.5
#: Most of the view two arms can cover; more that stands out at once is a change of light or of camera.
ARMS_MAX_SHARE = 0.3
#: The opening layout is read once every place has been still, or after this long (s) regardless
#: (a hand resting over a stock would otherwise hold the start back).
START_WAIT_SECONDS = 1.0
#: the bare-table colour follows the light: each second, this share of it is learned afresh from the
#: never-covered strips, when less than TABLE_LIGHT_COVERED of them shows something moving
TABLE_LIGHT_BLEND = 0.1
TABLE_LIGHT_COVERED = 0.02
#: How long (s) after its touch an arrival covered by a later card waits for its player's stock to show
#: which card left (the stock row is seen again when the hand has gone back over it). Without one,
#: and with no card read as the hand left, it was a hand passing over the pile, not a play.
RESOLVE_SECONDS = 0.9
#: A covered arrival not yet named waits up to this much longer (s) while its player's stocks are
#: still being handled (a hand lingering over its stock row keeps the stock from being read).
STOCK_WAIT_SECONDS = 3.0
#: Seconds with no hand near any stock or spit pile (and nothing waiting to be read) that make the table
#: quiet: players who could still move a stock card would have begun to.
QUIET_SECONDS = 0.4
#: One hand cannot lay two cards on one pile this close (s): two touches are one card.
SAME_HAND_SECONDS = 0.3
#: Frames a settled spit pile waits for the other one while hands are still over it.
HOLD_FRAMES = 6
#: Times a pile whose new top could not be named is read again (each a few frames later) before the
#: card is left to be named by the stock it came from.
READ_RETRIES = 3
#: A hand touching one pile this close in time (s) to laying a card on the other was reaching across.
PASSING_SECONDS = 0.35
#: Both piles settling together with both hands' touches within this span (s) are two cards laid at
#: once, one by each player (a hand lays one card at a time).
JOINT_SECONDS = 0.3


class TableTracker:
    def __init__(self, view: TableView, namer: TopCardNamer, *, fps: float, layout: TableLayout | None = None) -> None:
        self.view = view
        self.namer = namer
        self.period = 1.0 / fps
        self.layout = layout or TableLayout(width=view.area_mm[0], height=view.area_mm[1])
        width, height = view.size
        self.shape = (height, width)
        self.places: dict[Place, PlaceTracker] = {}
        self.spots: dict[Place, RectMM] = {}
        for place, (zone, card) in all_places(self.layout).items():
            margin = APPROACH_MARGIN_MM if place.kind == "spit_pile" else STOCK_MARGIN_MM
            self.places[place] = PlaceTracker(place.key, zone, view.px_per_mm, self.shape, nominal_card=card, margin=margin)
            self.spots[place] = card
        self.readings: dict[Place, Reading] = {place: Reading(None) for place in self.places}
        self.background: BackgroundModel | None = None
        self.hands = HandTracker(self.shape)
        self.table_colour = TableColour()
        self.started = False     # the opening layout has been read
        self.cleared = False     # between rounds: the table is bare
        self._layout_pending = False
        self.last_masks = None
        self.last_view: np.ndarray | None = None
        # arrivals hidden under a later card, waiting to be named by the stock card that left
        self._frame_index = 0
        self._first_t: float | None = None
        self._unresolved: list[tuple[Arrival, float]] = []   # (arrival with a guessed card, deadline t)
        #: (player, settle t, card, t the hand came to the stock) of cards recently gone from a stock
        self._departures: list[tuple[str, float, Card, float]] = []
        #: a new top laid over cards still being named: it waits for them so that rulings keep touch order
        self._waiting_tops: list[Arrival] = []
        self._quiet_since: float | None = None   # when the table last went quiet
        self._quiet_told = False
        self._arrivals: list[tuple[str, int, float, Card | None]] = []  # (player, pile, touch t, card) of recent arrivals
        self._retries: dict[Place, tuple[list[Visit], int, str | None]] = {}  # new tops not read yet: visits, tries, owner
        self._held: dict[Place, tuple[PlaceChange, int]] = {}  # settled piles waiting for the other to settle

    # ---------------------------------------------------------------------------------------------
    def _bare_strips(self, view: np.ndarray) -> list[np.ndarray]:
        """Strips between the stock rows and the spit piles, and at the far left/right: never covered."""
        layout = self.layout
        low, high = layout.centre_band()
        strips = [RectMM(100, low + 3, layout.width - 100, low + 40),
                  RectMM(100, high - 40, layout.width - 100, high - 3),
                  RectMM(70, low, 160, high), RectMM(layout.width - 160, low, layout.width - 70, high)]
        out = []
        for strip in strips:
            rows, cols = strip.to_pixels(self.view.px_per_mm, self.shape)
            out.append(view[rows, cols])
        return out

    def _follow_the_light(self, view: np.ndarray, foreground: np.ndarray) -> None:
        """Once a second, the bare-table colour drifts a little towards the strips as they look now,
        unless something lies or moves over them."""
        strips = self._bare_strips(view)
        moving = self._bare_strips(foreground)
        covered = sum(int(np.count_nonzero(mask)) for mask in moving) / max(1, sum(mask.size for mask in moving))
        if covered < TABLE_LIGHT_COVERED:
            self.table_colour.learn(strips, blend=TABLE_LIGHT_BLEND)

    def pending_touch(self) -> float | None:
        times = [tracker.pending_touch() for place, tracker in self.places.items() if place.kind == "spit_pile"]
        times += [arrival.t for arrival, _ in self._unresolved]
        times += [arrival.t for arrival in self._waiting_tops]
        times += [visit.touch.t for visits, _, _ in self._retries.values() for visit in visits]
        times += [visit.touch.t for change, _ in self._held.values() for visit in change.visits if visit.touch is not None]
        times = [t for t in times if t is not None]
        return min(times) if times else None

    def step(self, frame: Frame) -> list[Sighting]:
        self._frame_index = frame.index
        view = self.view.rectify(frame.image)
        if self.background is None:
            self.background = BackgroundModel(view, absorb_frames=max(3, int(round(ABSORB_SECONDS / self.period))))
            self.table_colour.learn(self._bare_strips(view))
        foreground = self.background.foreground(view)
        if frame.index % max(1, int(round(1.0 / self.period))) == 0:
            self._follow_the_light(view, foreground)
        masks = self.hands.split(foreground)
        cardlike = card_coloured(view)
        carried = {player: cv2.bitwise_and(mask, cardlike) for player, mask in masks.owned.items()}
        self.last_masks, self.last_view = masks, view
        sightings: list[Sighting] = []
        changes: list[tuple[Place, PlaceChange]] = []
        for place, tracker in self.places.items():
            finished_before = len(tracker.finished)
            change = tracker.step(view, masks.owned, frame.index, frame.t, self.period, carried, cardlike)
            if place.kind == "spit_pile" and len(tracker.finished) > finished_before:
                crop = self.view.crop(frame.image, tracker.rect, READ_PX_PER_MM)
                for visit in tracker.finished[finished_before:]:
                    visit.snapshot = crop
            if change is not None:
                changes.append((place, change))
        self.background.update(view, foreground, _arms(masks))
        for place, change in changes:
            rows, cols = place_slices(self.places[place])
            self.background.absorb(view, rows, cols)
            if change.changed:
                self.places[place].set_footprint(change.footprint)
        if not self.started:
            if self._first_t is None:
                self._first_t = frame.t
            settled = all(tracker.settled_crop is not None for tracker in self.places.values())
            if settled or frame.t - self._first_t >= START_WAIT_SECONDS:
                self.started = True
                sightings.append(self._read_layout(frame, first=True))
            return sightings
        if self._layout_pending and any(place.kind == "spit_pile" and change.changed for place, change in changes):
            touches = [visit.touch.t for place, change in changes if place.kind == "spit_pile"
                       for visit in change.visits if visit.touch is not None]
            layout = self._read_layout(frame, first=False, piles_before=True)
            sightings.append(replace(layout, t=min([layout.t] + touches) - 0.001))  # ruled before the spits
        changes = self._wait_for_other_pile(changes)
        owners = self._joint_owners(changes)
        for place, change in changes:
            sightings.extend(self._interpret(place, change, frame, owners.get(place)))
        sightings.extend(self._resolve(frame.t))
        sightings.extend(self._table_state(frame))
        sightings.extend(self._quiet(frame))
        return sightings

    def _look_again_at_face_down_stocks(self, frame: Frame) -> list[Sighting]:
        """Stocks read as face down are read once more when the table goes quiet: a reading taken as a
        hand left (its shadow, the card still sliding) can outlast what the slot shows, and a stall
        waits for every face-down stock top to be turned up."""
        out: list[Sighting] = []
        for place, previous in list(self.readings.items()):
            if place.kind != "stock" or not previous.face_down or self.cleared:
                continue
            reading = self._read(place, frame.image)
            if reading != previous:
                self.readings[place] = reading
                out.append(StockSeen(self._quiet_since, frame.index, place.player, place.index, reading, previous, False))
        return out

    def _quiet(self, frame: Frame) -> list[Sighting]:
        busy = (any(tracker.visits or tracker.dirty for tracker in self.places.values())
                or self._unresolved or self._retries or self._held or self._waiting_tops)
        if busy:
            self._quiet_since, self._quiet_told = None, False
            return []
        if self._quiet_since is None:
            self._quiet_since = frame.t
        if self._quiet_told or frame.t - self._quiet_since < QUIET_SECONDS:
            return []
        self._quiet_told = True
        return self._look_again_at_face_down_stocks(frame) + [TableQuiet(self._quiet_since, frame.index)]

    def _resolve(self, now: float) -> list[Sighting]:
        """Names hidden arrivals by the card that left the same player's stock; gives up at the deadline."""
        out: list[Sighting] = []
        keep: list[tuple[Arrival, float]] = []
        on_piles = {self.readings[place].card for place in self.places if place.kind == "spit_pile"}
        # a card that left a player's stock and was seen landing from that player's hand is explained
        explained = {(player, card) for player, _, _, card in self._arrivals}
        self._departures = [d for d in self._departures if (d[0], d[2]) not in explained]
        for arrival, deadline in self._unresolved:
            if self._passing(arrival):
                continue
            if now < deadline and (self._busy(Place("spit_pile", 1 - arrival.pile)) or Place("spit_pile", 1 - arrival.pile) in self._held):
                keep.append((arrival, deadline))  # the other pile may yet show this hand laid its card there
                continue
            # the card left the stock about when it landed, or the hand stayed over the stock all along
            match = next((d for d in self._departures if d[0] == arrival.player and
                          (arrival.t - 0.2 <= d[1] <= arrival.t + RESOLVE_SECONDS or d[3] <= arrival.t <= d[1])), None)
            if match is not None:
                self._departures.remove(match)
                out.append(replace(arrival, card=match[2], confidence=0.9))
                pile = Place("spit_pile", arrival.pile)
                if self.readings[pile].card is None:  # the unreadable top is now known
                    self.readings[pile] = Reading(match[2], False, 0.9)
            elif now >= deadline and not (arrival.card is None and now < deadline + STOCK_WAIT_SECONDS
                                          and self._stocks_busy(arrival.player)):
                if arrival.card is not None and arrival.card not in on_piles:
                    out.append(arrival)  # named from the snapshot taken as the hand left (a card on top now is another's)
            else:
                keep.append((arrival, deadline))
        self._unresolved = keep
        self._departures = [d for d in self._departures if d[1] >= now - 3.0]
        return sorted(out + self._released_tops(), key=lambda arrival: arrival.t)

    def _stocks_busy(self, player: str) -> bool:
        """A hand is over one of the player's stocks, or one has not settled since it was last touched."""
        return any(tracker.dirty or tracker.visits for place, tracker in self.places.items()
                   if place.kind == "stock" and place.player == player)

    def _released_tops(self) -> list[Arrival]:
        """New tops whose covered cards are all named (or given up): ruled after them, in touch order."""
        released, waiting = [], []
        for top in self._waiting_tops:
            covered = any(arrival.pile == top.pile and arrival.t <= top.t for arrival, _ in self._unresolved)
            behind = any(other.pile == top.pile for other in waiting)
            (waiting if covered or behind else released).append(top)
        self._waiting_tops = waiting
        return released

    def _passing(self, arrival: Arrival) -> bool:
        """The same hand put a card on the other pile at about the same time: it was reaching across
        this pile (an arm over the left pile on its way to the right one), not laying a card here."""
        return any(player == arrival.player and pile != arrival.pile and abs(t - arrival.t) <= PASSING_SECONDS
                   for player, pile, t, _ in self._arrivals)

    # ---------------------------------------------------------------------------------------------
    def _read(self, place: Place, image: np.ndarray) -> Reading:
        tracker = self.places[place]
        crop = self.view.crop(image, tracker.rect, READ_PX_PER_MM)
        rows, cols = self.spots[place].to_pixels(self.view.px_per_mm, self.shape)
        spot = self.last_view[rows, cols] if self.last_view is not None else crop
        namer = self.namer
        if hasattr(namer, "name_top_card_in"):  # a namer that reads ground truth by frame and place
            namer = _AtPlace(namer, self._frame_index, tracker.rect)
        return read_place(namer, crop, spot, self.table_colour, READ_PX_PER_MM)

    def _read_layout(self, frame: Frame, *, first: bool, piles_before: bool = False) -> LayoutRead:
        """Reads every place now; `piles_before`: keep the spit piles as they were (a layout read just
        as the opening spit lands, which must come before it)."""
        self._layout_pending = False
        for place in self.places:
            if not (piles_before and place.kind == "spit_pile"):
                self.readings[place] = self._read(place, frame.image)
        stocks = {player: tuple(self.readings[Place("stock", index, player)] for index in range(6)) for player in PLAYERS}
        piles = (self.readings[Place("spit_pile", 0)], self.readings[Place("spit_pile", 1)])
        self.cleared = all(reading.empty for row in stocks.values() for reading in row) and all(p.empty for p in piles)
        return LayoutRead(frame.t, frame.index, stocks, piles, first)

    def _wait_for_other_pile(self, changes: list[tuple[Place, PlaceChange]]) -> list[tuple[Place, PlaceChange]]:
        """A spit pile that settles while hands are still over the other one waits for it (a few frames at
        most), so that two cards laid at once are judged together (see _joint_owners)."""
        settling = {place for place, _ in changes if place.kind == "spit_pile"}
        out: list[tuple[Place, PlaceChange]] = []
        for place, (change, waited) in list(self._held.items()):
            other = Place("spit_pile", 1 - place.index)
            if other in settling or not self._busy(other) or waited >= HOLD_FRAMES:
                out.append((place, change))
                del self._held[place]
            else:
                self._held[place] = (change, waited + 1)
        for place, change in changes:
            other = Place("spit_pile", 1 - place.index) if place.kind == "spit_pile" else None
            if other is not None and change.visits and other not in settling and self._busy(other):
                self._held[place] = (change, 0)
                continue
            out.append((place, change))
        return out

    def _busy(self, place: Place) -> bool:
        """A hand is over the place, or has been and the place has not settled since."""
        return bool(self.places[place].visits) or self.places[place].dirty

    def _joint_owners(self, changes: list[tuple[Place, PlaceChange]]) -> dict[Place, str]:
        """Who laid the card on each pile when both piles settle together after both hands were over
        both (the spits, two plays at once): one hand lays one card at a time, so the two cards are
        given to the two players so that each laid its card where it reached last (on rendered spits this
        was right in 8 of 8, where the fingers' distance to the cards was right in 5 and the frames each
        hand held each card in 3), then so that their fingers came closest to the cards."""
        piles = [(place, change) for place, change in changes if place.kind == "spit_pile" and change.visits]
        if len(piles) != 2:
            return {}
        touches = {place: {visit.player: visit for visit in change.visits if visit.touch is not None} for place, change in piles}
        (first, first_change), (second, second_change) = piles
        if any(set(touches[place]) != set(PLAYERS) for place in touches):
            return {}
        times = [visit.touch.t for place in touches for visit in touches[place].values()]
        if max(times) - min(times) > JOINT_SECONDS:
            return {}

        def reach(place: Place, change: PlaceChange, player: str) -> tuple[float, float]:
            """When the player's hand last reached the pile (a hand reaching across one pile to the other
            touches the near one first and lays its card on the far one), then how far its fingers stayed
            from the new card (mm)."""
            tracker, visit = self.places[place], touches[place][player]
            return -visit.touch.t, tracker.nearest_front(visit, change.footprint)

        def total(one: str, other: str) -> tuple[float, float]:
            (late_one, far_one), (late_other, far_other) = reach(first, first_change, one), reach(second, second_change, other)
            return late_one + late_other, far_one + far_other

        straight, crossed = total("A", "B"), total("B", "A")
        if straight == crossed:
            return {}
        return {first: "A", second: "B"} if straight < crossed else {first: "B", second: "A"}

    def _interpret(self, place: Place, change: PlaceChange, frame: Frame, owner: str | None = None) -> list[Sighting]:
        if place.kind == "spit_pile":
            return self._pile_change(place, change, frame, owner)
        if place.kind == "stock" and change.changed and not self._layout_pending:
            previous = self.readings[place]
            reading = self._read(place, frame.image)
            self.readings[place] = reading
            if previous.card is not None and reading.card != previous.card and change.visits:
                came = min([visit.samples[0][1] for visit in change.visits if visit.samples] or [change.t])
                self._departures.append((place.player, change.t, previous.card, came))
            if reading != previous and not self.cleared:  # on a bare table a new layout is read whole
                return [StockSeen(change.t, change.frame, place.player, place.index, reading, previous, bool(change.visits))]
        return []

    def _pile_change(self, place: Place, change: PlaceChange, frame: Frame, owner_player: str | None = None) -> list[Sighting]:
        visits = sorted((visit for visit in change.visits if visit.touch is not None), key=lambda visit: visit.touch.t)
        retry = self._retries.pop(place, None)
        if retry is not None:
            visits = sorted(retry[0] + visits, key=lambda visit: visit.touch.t)
            owner_player = owner_player or retry[2]
        visits = _one_per_hand(visits)
        previous = self.readings[place]
        # a card laid square on a like card (6C on 7S) changes few pixels: a hand that touched the pile is
        # reason enough to read it again
        touched = change.changed or retry is not None or any(visit.card_seen or visit.frames_in_contact for visit in change.visits)
        reading = self._read(place, frame.image) if touched else previous
        if reading.card is None and (change.changed or retry is not None):
            tries = retry[1] + 1 if retry is not None else 1
            if tries <= READ_RETRIES:
                # not named this time (a shadow, a blur, a glare): read again a few frames on, keeping who touched it
                self._retries[place] = (visits, tries, owner_player)
                self.places[place].read_again()
                return []
        self.readings[place] = reading
        new_card = reading.card is not None and reading.card != previous.card
        if not new_card:
            if reading.card is None and (change.changed or retry is not None):
                # something new lies there that could not be named: each hand that touched the pile may have
                # laid it; the card that left that player's stock names it (or nobody played)
                self._unresolved.extend((Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, None,
                                                 visit.touch.error, 0.0), frame.t + RESOLVE_SECONDS) for visit in visits)
            # a hand that laid nothing (a slap) is timed where it came to rest: it lands flat, and its outline
            # crosses the pile's well before the palm lands
            landed = [self.places[place].resting_touch(v, self.period) or v.touch for v in visits]
            return sorted((PileTouched(when.t, when.frame, place.index, v.player, when.error) for v, when in zip(visits, landed)),
                          key=lambda touched: touched.t)
        if not visits:
            # a card appeared with no hand seen (the hand hidden, or frames dropped): time it by the settle
            return [Arrival(change.t - 3 * self.period, change.frame, place.index, None, reading.card,
                            3 * self.period, reading.confidence, reading.alternatives)]
        out: list[Sighting] = []
        top: Arrival | None = None
        # the card now on top was put there by the hand that held it there: the one whose fingers lay over
        # the new card's outline longest (an arm passing over the pile on its way to the other one does not)
        place_tracker = self.places[place]
        # first of all, the hand whose stock the card was on top of, when only one of them had it
        holders = {place.player for place, read in self.readings.items()
                   if place.kind == "stock" and read.card is not None and read.card == reading.card}
        holders |= {player for player, _, card, _ in self._departures if card == reading.card}
        stock_owner = next(iter(holders)) if len(holders) == 1 else None
        # a hand's later card lies over its earlier one
        last_of_hand = {visit.player: number for number, visit in enumerate(visits)}
        owner = max(range(len(visits)), key=lambda number: (visits[number].player == stock_owner,
                                                            visits[number].player == owner_player,
                                                            last_of_hand[visits[number].player] == number,
                                                            place_tracker.frames_holding(visits[number], change.footprint),
                                                            visits[number].frames_in_contact, number))
        for number, visit in enumerate(visits):
            if number == owner:
                top = Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, reading.card,
                              visit.touch.error, reading.confidence, reading.alternatives, together=owner_player is not None)
                self._arrivals = [item for item in self._arrivals if item[2] >= visit.touch.t - 3.0]
                self._arrivals.append((visit.player, place.index, visit.touch.t, reading.card))
                continue
            # covered by a later card: the card is the one that left this player's stock
            card, confidence = self._snapshot_card(visit)
            if card == reading.card:  # its snapshot shows the top laid by the other hand: only its stock can tell
                card, confidence = None, 0.0
            guess = Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, card, visit.touch.error, confidence * 0.5)
            self._unresolved.append((guess, frame.t + RESOLVE_SECONDS))
        if top is not None:
            if any(arrival.pile == top.pile and arrival.t <= top.t for arrival, _ in self._unresolved) or \
                    any(other.pile == top.pile for other in self._waiting_tops):
                self._waiting_tops.append(top)  # ruled once the cards under it are named
            else:
                out.append(top)
        return out

    def _snapshot_card(self, visit: Visit):
        if visit.snapshot is None:
            return None, 0.0
        card, confidence = self.namer.name_top_card(visit.snapshot)
        return card, float(confidence)

    def _table_state(self, frame: Frame) -> list[Sighting]:
        stocks_empty = all(self.readings[place].empty for place in self.places if place.kind == "stock")
        piles_empty = all(self.readings[place].empty for place in self.places if place.kind == "spit_pile")
        if not self.cleared and stocks_empty and piles_empty:
            self.cleared = True
            return [TableCleared(frame.t, frame.index)]
        if self.cleared and not stocks_empty:
            self._layout_pending = True
        if self._layout_pending and not any(tracker.dirty for place, tracker in self.places.items() if place.kind == "stock"):
            return [self._read_layout(frame, first=False)]
        return []


def _one_per_hand(visits: list[Visit]) -> list[Visit]:
    """A hand that touches a pile, lifts and touches again within SAME_HAND_SECONDS laid one card:
    its touches are one visit, timed by the first."""
    out: list[Visit] = []
    for visit in visits:
        last = out[-1] if out else None
        if last is not None and last.player == visit.player and visit.touch.t - last.touch.t < SAME_HAND_SECONDS:
            out[-1] = replace(last, frames_in_contact=last.frames_in_contact + visit.frames_in_contact,
                              fronts=last.fronts + visit.fronts, card_seen=last.card_seen or visit.card_seen,
                              snapshot=visit.snapshot if visit.snapshot is not None else last.snapshot)
            continue
        out.append(visit)
    return out


def place_slices(tracker: PlaceTracker) -> tuple[slice, slice]:
    """The place's own zone (not its approach margin) in view pixels."""
    rows, cols = tracker.inner
    return (slice(tracker.rows.start + rows.start, tracker.rows.start + rows.stop),
            slice(tracker.cols.start + cols.start, tracker.cols.start + cols.stop))


def _arms(masks) -> np.ndarray | None:
    """The players' hands and arms, kept out of the table model longer; None when they cover more of the
    view than two arms can (a change of light or a bumped camera made everything stand out)."""
    arms = masks.owned["A"] | masks.owned["B"]
    return arms if np.count_nonzero(arms) <= ARMS_MAX_SHARE * arms.size else None


def card_coloured(view: np.ndarray) -> np.ndarray:
    """uint8 mask of pale, unsaturated pixels: card faces and their white borders."""
    hsv = cv2.cvtColor(view, cv2.COLOR_BGR2HSV)
    return cv2.inRange(hsv, (0, 0, CARD_MIN_VALUE), (180, CARD_MAX_SATURATION, 255)) // 255


class _AtPlace:
    """Adapts a namer with `name_top_card_in(frame, rect, image)` to the one-argument door."""

    def __init__(self, namer, frame: int, rect: RectMM) -> None:
        self.namer, self.frame, self.rect = namer, frame, rect

    def name_top_card(self, image: np.ndarray):
        return self.namer.name_top_card_in(self.frame, self.rect, image)
