"""The table tracker: frames in, sightings about piles out.

Per frame: rectify to the top-down view, split foreground from the still table, split foreground
into each player's hand and loose cards, and step every place. A place that settles after a change
is read (recogniser for the top card; bare-table colour for "is anything there"), and the change
is turned into sightings: arrivals with sub-frame touch times and who made them, hand touches that
left no card (slaps), stock slots that show a new top, a table cleared, a new layout, a quiet table.

The tracker reads and hands out; the judgement it needs lives next to it, one job a module:
`both_piles` (a settled spit pile waits for the other, so that two cards laid at once are judged
together), `owners` (which hand laid the card on top), `covered` (cards hidden under a later card,
named by the stock card that left), `quiet` (when the table has gone quiet) and `bare_table` (the
never-covered strips whose colour tells an empty spot from a face-down card).
"""

from __future__ import annotations

import copy
import functools
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from referee.capture.frames import Frame
from referee.piles.arms import arm_offset
from referee.piles.background import BackgroundModel, grid_of
from referee.piles.bare_table import BareStrips
from referee.piles.both_piles import HeldPiles
from referee.piles.covered import COVERED_CONFIDENCE, RESOLVE_SECONDS, STOCK_WAIT_SECONDS, CoveredCards
from referee.piles.hands import PLAYERS, HandTracker
from referee.piles.layout_fit import MOVE_MM, fit_layout
from referee.piles.opening import SURE_FIRST_LOOK, Opening
from referee.piles.owners import joint_owners, one_per_hand, reaching_on, stock_holders, unseen_joint_owner, went_on, who_laid_top
from referee.piles.places import APPROACH_MARGIN_MM, SETTLE_FRAMES, PlaceChange, PlaceTracker, Visit
from referee.piles.quiet import QUIET_SECONDS, QuietTable
from referee.piles.reading import (CARD_MAX_SATURATION, MIN_CONFIDENCE, Reading, TableColour, TopCardNamer, card_coloured, card_gone,
                                   namer_at, paper_saturation, paper_saturation_limit, paper_within, read_place)
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, Sighting, StockSeen, TableCleared, TableQuiet
from referee.piles.table_view import RectMM, TableView
from referee.piles.zones import Place, all_places
from referee.rules.cards import Card, same_card
from referee.table.layout import TableLayout
from referee.vision.geometry import quad_iou

#: Resolution of the crops handed to the recogniser (px per mm). Higher reads small indices better
#: and costs recognition time; the view for motion stays coarse.
READ_PX_PER_MM = 3.0
#: Margin (mm) around a stock slot within which a hand keeps it "busy". Small: touches on stocks are not
#: timed, and a hand resting at its owner's edge must not keep the stock row from being read.
STOCK_MARGIN_MM = 8.0
#: A hand that turns up a stock card, or lays one on the slot, lies this deep (mm) or more over the slot's card
#: (the card it carries counted with it); a hand resting at its edge after (fingertips on the card) lies 8-16
#: mm over it. A stock's change is dated by the last frame a hand lay this deep (`last_on_the_card`), not the
#: last it was near: a stall comes when the last card is turned, not when the hand that turned it draws back.
#: Measured on the 181 kept replays (session 64): stalls called within 0.5 s 112 -> 114 of 118 (a turned-up
#: card's hand resting 14 mm over it for 0.5 s had dated the stall 0.65 s late), median lateness 0.108 ->
#: 0.093 s; no play changed.
TURNING_DEPTH_MM = 20.0
#: Foreground still for this long (s) becomes part of the table model.
ABSORB_SECONDS = 0.5
#: Most of the view two arms can cover; more that stands out at once is a change of light or of camera.
ARMS_MAX_SHARE = 0.3
#: A spit pile's top read again before the opening layout (`_look_again_at_the_piles`) names it, suit and all, when
#: read at least this surely (and more surely than before, unless that named its rank alone).
SUIT_SEEN_AGAIN = 0.4
#: The opening layout is read once every place has been still, or after this long (s) regardless
#: (a hand resting over a stock would otherwise hold the start back).
START_WAIT_SECONDS = 1.0
#: A pile read as another card, its picture unchanged, is the card read before when each reading gives the
#: other's card at least this (`read_again`): the models were torn between the two.
READ_EITHER_WAY = 0.2
#: Times a pile whose new top could not be named is read again (each a few frames later) before the
#: card is left to be named by the stock it came from.
READ_RETRIES = 3
#: When the video ends with a hand still near a spit pile, the card laid there is judged on the last
#: frame if no hand covers more than this share of the top card (the hand was drawing back; a clip cut
#: around a disputed play ends a few frames after it).
LEFT_BEHIND_COVER = 0.02
#: ... and one whose hand still lies on it is judged too (the card under the hand named by the card that
#: left that player's stock) when the hand has touched the pile in this many frames: a hand seen touching
#: in the last frame alone may be coming down with its card, or may not have let go of it (90 kept replays:
#: of two such, one invented a play, one named a card wrong).
STILL_LAYING_FRAMES = 2
#: ... and the visit there of a hand that covers more than this share of the other spit pile's top card
#: is forgotten: that hand is laying its card on the other pile, and its arm passed this one on its way.
OVER_THE_OTHER_PILE = 0.5
#: A card laid on a pile whose top then reads as the card under it is named by the reading's likeliest other
#: card, when the reading gives it at least this much; else the hand's touch is all that was seen.
LAID_DOUBT = 0.1
#: A hand that came to lay a card lets go of it within this long (s) of touching the pile: 95 % of the 298
#: cards seen laid in 24 racing games of `all_at_once` and `racing_unseen_decks` (session 45), where lifting
#: a card back held the pile 0.2-0.53 s (a hand that stays is lifting or squaring cards, not laying one).
LAYING_CONTACT_SECONDS = 0.2
#: A stock top named with less confidence than this (or without its suit) is read again when the table
#: goes quiet, as a face-down one is: it may have been read as the hand left it, in its shadow.
LOOK_AGAIN_BELOW = 0.6
#: Frames between tries at fitting the layout while hands are over places that would move.
FIT_EVERY = 5
#: Where a hand's arm comes from is measured in its first ARM_FRAMES frames within ARM_NEAR_MM of a
#: spit pile (its card touching or about to), while its arm still reaches back to its edge.
ARM_FRAMES = 3
ARM_NEAR_MM = 10.0
#: Places read side by side when many are read at once (a layout: 14 places, each a search of its view).
#: The models and OpenCV release the GIL, so two readers keep both cores busy; each reading depends on
#: its own crop alone, so the readings are the same as one after another.
LAYOUT_READERS = 2
#: A stock's card outline is taken as where a whole card lies (so that one showing no face is a card's
#: back, `recogniser.NO_FACE_BELOW`, and not searched for a face) only where it covers its slot's card area
#: this well (IoU; about 12 mm or 30 degrees off it, not both): a card just put down askew, or blurred in
#: motion, may be outlined off the card (a drawn-deck game's last frames: a jack outlined 30 degrees off,
#: half on the table, showed no face). At 0.8 (session 37) most outlines of the backs players leave a
#: centimetre from the slot's middle, IoU 0.6-0.8, were searched in vain: 21 ms each, 99 of the 1 170
#: pile and stock readings of 13 rendered games; 120 kept replays rule the same at 0.6, 5 % faster.
FILLS_SLOT = 0.6
#: How long (s) the touches of a spit pile judged are remembered, for telling an arm that reached across
#: the other pile (`owners.reaching_on`): a pile may settle a second or more after its first touch.
JUDGED_TOUCHES_SECONDS = 3.0
#: A covered hand's snapshot read less surely than this names no card: the card that left its stock does, or
#: it was a hand's touch (a hand lifting its own card back, its snapshot the pile in a blur: `Q?` at 0.31).
SNAPSHOT_NAMES = 0.5
#: the two spit piles, left (0) and right (1)
SPIT_PILES = (Place("spit_pile", 0), Place("spit_pile", 1))


class TableTracker:
    def __init__(self, view: TableView, namer: TopCardNamer, *, fps: float, layout: TableLayout | None = None,
                 read_ahead: bool = False) -> None:
        """`read_ahead`: a place beginning to settle is read at once on a reader, and the snapshots of the
        hands that touched a spit pile the other player touched too are named then as well, so that the frame
        that rules need not wait for them (a live referee's choice). Otherwise each is read when the ruling
        needs it, on the same frame's picture, and only those needed (less work for a replay, whose frames
        need not wait). The rulings are the same either way."""
        self.view = view
        self.read_ahead = read_ahead
        self.namer = namer
        self.period = 1.0 / fps
        width, height = view.size
        self.shape = (height, width)
        self.places: dict[Place, PlaceTracker] = {}
        self.spots: dict[Place, RectMM] = {}
        self.bare_strips: BareStrips | None = None
        self._lay_out(layout or TableLayout(width=view.area_mm[0], height=view.area_mm[1]))
        self.readings: dict[Place, Reading] = {place: Reading(None) for place in self.places}
        self.background: BackgroundModel | None = None
        self.hands = HandTracker(self.shape, frame_period=self.period)
        self.table_colour = TableColour()
        self.last_cardlike: np.ndarray | None = None
        #: the most saturated card paper may be (`reading.paper_saturation_limit`), from the first layout's cards
        self.paper_most = CARD_MAX_SATURATION
        self._paper_seen = False  # the paper of a layout's cards was measured
        self._rows_to_fit = False  # layout_fit still to do once the hands are off the rows ...
        self._piles_to_fit: set[int] = set()  # ... and the spit piles still to find, each once it has a card
        self.started = False     # the opening layout has been read
        self.cleared = False     # between rounds: the table is bare
        self._layout_pending = False
        self.last_masks = None
        self.last_view: np.ndarray | None = None
        self._frame_index = 0
        self.opening: Opening | None = None  # the first frames, until the opening layout is read
        self._touched_since_first: set[Place] = set()  # spit piles a hand touched since the first frame (`_look_again_at_the_piles`)
        self._first_look: tuple[np.ndarray, np.ndarray] | None = None  # the first frame and its view, until then
        self.covered = CoveredCards()   # arrivals hidden under a later card, waiting to be named by the stock card that left
        self.quiet = QuietTable()
        self._retries: dict[Place, tuple[list[Visit], int, str | None]] = {}  # new tops not read yet: visits, tries, owner
        self._judged_touches: list[tuple[int, str, float]] = []  # (spit pile, player, t) of the touches judged lately
        self._judging: list[tuple[Place, PlaceChange]] = []  # the spit piles being judged this frame
        self._last_frame: Frame | None = None
        self.held = HeldPiles()   # settled spit piles waiting for the other to settle
        self._layout_read_at: dict[Place, int] = {}  # the frame each place was last read in with a layout
        self._read_under_hand: set[Place] = set()  # stocks the last layout read with a hand over them
        self._readers: ThreadPoolExecutor | None = None  # made when a layout is first read, or a place first settles
        self._foreseen: dict[Place, Foreseen] = {}  # places settling, read ahead on a reader (`_foresee`)
        self._quiet_foreseen: tuple[float, dict[Place, Foreseen]] | None = None  # stocks to look at again, and the spell

    def _lay_out(self, layout: TableLayout) -> set[Place]:
        """Watch the places of `layout`; returns the places that moved (new watchers, nothing seen yet)."""
        self.layout = layout
        moved = set()
        for place, (zone, card) in all_places(layout).items():
            if place in self.places and self.places[place].rect == zone:
                continue
            margin = APPROACH_MARGIN_MM if place.kind == "spit_pile" else STOCK_MARGIN_MM
            self.places[place] = PlaceTracker(place.key, zone, self.view.px_per_mm, self.shape, nominal_card=card, margin=margin)
            self.spots[place] = card
            moved.add(place)
        self.bare_strips = BareStrips(layout, self.view.px_per_mm, self.shape, None if self.bare_strips is None else self.bare_strips.light)
        return moved

    def _fit_layout(self, frame: Frame, *, rows: bool = True, piles: tuple[int, ...] = ()) -> bool:
        """Move the watched places onto the stock rows (`rows`) and the spit piles (`piles`) the table
        shows now (layout_fit), unless a hand is over a place that would move; False then. Moved places
        start settled on what lies there now; the bare table's colour is learned again from strips clear
        of the new rows."""
        if self.last_view is None or self.last_cardlike is None:
            return False
        fitted = fit_layout(self.last_view, self.view.px_per_mm, self.layout) if rows else self.layout
        centres = list(self.layout.spit_centres)
        for pile in piles:  # where its top card lies; a pile found near its place is marked found there
            found, here = self._top_card_centre(SPIT_PILES[pile]), self.layout.spit_pile_centre(pile)
            if found is not None:
                centres[pile] = found if np.hypot(found[0] - here[0], found[1] - here[1]) > MOVE_MM else here
        fitted = replace(fitted, spit_centres=tuple(centres))
        if fitted == self.layout:
            return True
        zones = all_places(fitted)
        if any(self.places[place].visits or self._busy(place) for place, (zone, _) in zones.items() if self.places[place].rect != zone):
            return False  # a hand is over a place that would move: the layout is fitted again next time
        before = dict(self.places)
        for place in self._lay_out(fitted):
            tracker = self.places[place]
            tracker.start_settled(self.last_view, frame.index, frame.t, self.last_cardlike)
            if not tracker.outlined and place in before and before[place].outlined:
                # what lies there could not be outlined afresh (PAPER_PATCH_CARDS): the outline seen before stays
                corners = before[place].card_corners_mm(before[place].footprint)
                footprint = None if corners is None else tracker.card_at(corners)
                if footprint is not None:
                    tracker.set_footprint(footprint)
        self.bare_strips.see(self.table_colour, self.last_view)
        return True

    def _top_card_centre(self, place: Place) -> tuple[float, float] | None:
        """Table mm of the middle of the card last seen landing on a place (its footprint)."""
        tracker = self.places[place]
        rows, cols = np.nonzero(tracker.footprint)
        if not len(rows):
            return None
        px = self.view.px_per_mm
        return float((cols.mean() + tracker.cols.start + 0.5) / px), float((rows.mean() + tracker.rows.start + 0.5) / px)

    def pending_touches(self) -> dict[int, float]:
        """Per spit pile, its earliest touch not ruled yet: a hand still over it or its card not settled,
        a card covered and not named, a top not read yet, a pile held for the other."""
        touches = [(place.index, self.places[place].pending_touch()) for place in SPIT_PILES] + self.covered.touches() + [
            (place.index, visit.touch.t) for place, (visits, _, _) in self._retries.items() for visit in visits] + self.held.touches()
        earliest: dict[int, float] = {}
        for pile, t in touches:
            if t is not None:
                earliest[pile] = min(t, earliest.get(pile, t))
        return earliest

    def look(self, image: np.ndarray) -> TableLook:
        """A frame seen from above and its card paper: the frame's alone, so it may be worked out ahead,
        on another thread, and handed to `step`."""
        view = self.view.rectify(image)
        return TableLook(view, paper_saturation(view), grid_of(view))

    def step(self, frame: Frame, look: TableLook | None = None) -> list[Sighting]:
        """What this frame shows happening; `look`: `self.look(frame.image)` when worked out already."""
        self._frame_index = frame.index
        self._last_frame = frame
        look = look if look is not None else self.look(frame.image)
        view = look.view
        cardlike = paper_within(look.paper, self.paper_most)
        if self.background is None:
            self.background = BackgroundModel(view, absorb_frames=max(3, int(round(ABSORB_SECONDS / self.period))),
                                              period=self.period)
            self.bare_strips.see(self.table_colour, view)
        view = self.background.steady(view, look.grid)
        first_light = self.bare_strips.in_first_light(view)
        if first_light is not None:  # card paper told in the light the game began in
            cardlike = card_coloured(first_light, self.paper_most)
        elif self.background.in_shadow is not None:  # card paper in a shadow is told in its light
            cardlike = card_coloured(view, self.paper_most)
        foreground = self.background.foreground(view)
        if frame.index % max(1, int(round(1.0 / self.period))) == 0:
            self.bare_strips.follow_the_light(self.table_colour, view, foreground)
        moving = self.background.moving(view)
        masks = self.hands.split(foreground, cardlike, moving, view, faint=functools.partial(self.background.faint, view))
        carried = {player: cv2.bitwise_and(mask, cardlike) for player, mask in masks.owned.items()}
        shaded = functools.partial(self.background.shaded, view)
        self.last_masks, self.last_view, self.last_cardlike = masks, view, cardlike
        sightings: list[Sighting] = []
        changes: list[tuple[Place, PlaceChange]] = []
        snapshots: list[Visit] = []
        for place, tracker in self.places.items():
            finished_before = len(tracker.finished)
            change = tracker.step(view, masks.owned, frame.index, frame.t, self.period, carried, cardlike, masks.boxes, shaded)
            if place.kind == "spit_pile" and len(tracker.finished) > finished_before:
                crop = self.view.crop(frame.image, tracker.rect, READ_PX_PER_MM)
                outline = self._top_outline(tracker, view, cardlike)
                for visit in tracker.finished[finished_before:]:
                    visit.snapshot, visit.snapshot_outline = crop, outline
                snapshots += self._snapshots_to_name(tracker)
            if change is not None:
                changes.append((place, change))
            elif tracker.settling:
                snapshots += self._foresee(place, frame)
        self._name_snapshots(snapshots)
        self._measure_arms(frame, masks)
        self.background.update(view, foreground, _arms(masks), moving, looks_bare=self._looks_bare, likeness=self._table_likeness)
        for place, change in changes:
            rows, cols = place_slices(self.places[place])
            self.background.absorb(view, rows, cols)
            if change.changed:
                self.places[place].set_footprint(change.footprint, change.outlined)
        if not self.started:
            return self._opening(frame, changes)
        if self._layout_pending and any(place.kind == "spit_pile" and change.changed for place, change in changes):
            touches = [visit.touch.t for place, change in changes if place.kind == "spit_pile"
                       for visit in change.visits if visit.touch is not None]
            layout = self._read_layout(frame, first=False, keep_piles={0, 1})
            sightings.append(replace(layout, t=min([layout.t] + touches) - 0.001))  # ruled before the spits
        sightings.extend(self._judge(changes, frame))
        sightings.extend(self._name_covered(frame.t))
        if self.cleared and not self._layout_pending and frame.index % FIT_EVERY == 0:
            # a bare table: cards laid out away from the places watched would never show there
            before = self.layout
            self._layout_pending = self._fit_layout(frame) and self.layout != before
        if self._rows_to_fit and frame.index % FIT_EVERY == 0:  # a hand was over a stock row when the layout was read
            self._rows_to_fit = not self._fit_layout(frame)
        ready = tuple(pile.index for pile in SPIT_PILES if pile.index in self._piles_to_fit and self.readings[pile].card is not None
                      and not self._busy(pile) and pile not in self.held)
        if ready and frame.index % FIT_EVERY == 0 and self._fit_layout(frame, rows=False, piles=ready):
            self._piles_to_fit -= set(ready)
        sightings.extend(self._table_state(frame))
        sightings.extend(self._quiet_table(frame))
        return self.opening.keep(sightings)

    def _judge(self, changes: list[tuple[Place, PlaceChange]], frame: Frame) -> list[Sighting]:
        """What the places that settled this frame show (spit piles judged together, see `HeldPiles`)."""
        changes = self.held.judge_together(changes, {place for place in SPIT_PILES if self._busy(place)})
        owners = joint_owners(changes, self.places)
        self._judging = [(place, change) for place, change in changes if place.kind == "spit_pile"]
        return [sighting for place, change in changes for sighting in self._interpret(place, change, frame, owners.get(place))]

    def _opening(self, frame: Frame, changes: list[tuple[Place, PlaceChange]]) -> list[Sighting]:
        """The first frames, until every place has been still (or START_WAIT_SECONDS): the layout is read
        then, and the cards seen laid on the spit piles before it are ruled after it (see `opening`)."""
        if self.opening is None:
            first = self._read_all(SPIT_PILES, frame.image)
            self._outline_the_piles(first)
            self.opening = Opening(frame.t, self.period, first, frame.index)
            self.readings.update(self.opening.first)
            self._first_look = (frame.image, self.last_view)  # its stocks are read if cards are laid before the layout
        else:
            self._look_again_at_the_piles(frame, changes)
        laid = [(place, change) for place, change in changes
                if place.kind == "spit_pile" and any(visit.touch is not None for visit in change.visits)]
        for place, change in changes:
            if place.kind == "spit_pile":
                self.opening.saw_settle(place.index, bool(change.visits))
        for place in SPIT_PILES:
            for visit in self.places[place].visits.values():
                if visit.first_frame == frame.index and visit.samples:
                    self.opening.saw_hand(place.index, frame.index, visit.samples[0][2])
        judged = self._judge(laid, frame)
        self.opening.early.extend(sighting for sighting in judged if isinstance(sighting, Arrival))
        self.opening.touched_early.extend(sighting for sighting in judged if isinstance(sighting, PileTouched))
        settled = all(tracker.settled_crop is not None for tracker in self.places.values())
        if not settled and frame.t - self.opening.t < START_WAIT_SECONDS:
            return []
        self.started = True
        self._take_the_hand_theres_cards()
        touched = self.pending_touches()  # piles touched already, their cards not judged yet
        if self.opening.early or touched:
            image, view = self._first_look
            self.opening.first.update(self._read_all([place for place in self.places if place.kind == "stock"], image, view=view))
        self._first_look = None
        laid_on = self.opening.laid_on(touched)
        laid = self._laid_before_the_layout()
        layout = self._with_the_suits_seen(self._read_layout(frame, first=True, keep_piles=laid_on))
        layout, early, left = self.opening.read(layout, touched)
        for player, cards in left.items():  # they name the covered cards laid before the layout
            for card in cards:
                self.covered.left_stock(player, frame.t, card, self.opening.t)
        layout, slaps = self._round_over_as_it_opened(layout, laid)
        return [layout] + early + slaps

    def _laid_before_the_layout(self) -> list[tuple[str, int, float]]:
        """The cards laid on the spit piles before the opening layout: judged already, covered by a later card and
        waiting to be named, or not judged yet; (player, pile, touch time)."""
        judged = [(arrival.player, arrival.pile, arrival.t) for arrival in [*self.opening.early, *self.covered.waiting()]
                  if arrival.player is not None]
        retried = {place: visits for place, (visits, _, _) in self._retries.items()}
        return judged + [(visit.player, place.index, visit.touch.t) for place in SPIT_PILES
                         for visit in [*self.places[place].finished, *self.places[place].visits.values(), *retried.get(place, [])]
                         if visit.touch is not None and visit.brought_card]

    def _round_over_as_it_opened(self, layout: LayoutRead, laid: list[tuple[str, int, float]]) -> tuple[LayoutRead, list[PileTouched]]:
        """The opening layout, saying whose stocks were out (`LayoutRead.stocks_out`: `laid`, the cards laid before
        it, tell who laid one still to be ruled after it, on a pile the layout does not take as it is), and the slaps
        to rule after it: where one player's stocks were out, the round was over as the video began, and the hands
        that touched the piles meanwhile were its slaps (the layout dated before them). Not a hand there already as
        the video began, nor one that laid a card later (laying the round's last card, taken into the layout: its
        fingers over the other pile)."""
        out = _stocks_out(layout, {player for player, pile, _ in laid if pile not in self.opening.forgotten})
        if out is None:
            return layout, []
        last_laid = {player: max(t for who, _, t in laid if who == player) for player in {who for who, _, _ in laid}}
        slaps = sorted((touch for touch in self.opening.touched_early if not self.opening.hand_there(touch.t, touch.pile)
                        and touch.t > last_laid.get(touch.player, float("-inf"))), key=lambda touch: touch.t)
        return replace(layout, stocks_out=out, t=min([layout.t] + [slap.t - 0.001 for slap in slaps])), slaps

    def _outline_the_piles(self, readings: dict[Place, Reading]) -> None:
        """A video that opens on cards lying on the spit piles (a clip cut mid-game): each pile's top card
        outline, where the recogniser found it in the first frame, is what a touch is timed against until
        the pile first settles, instead of the card's nominal place (a pile lies up to a few centimetres
        off it, and a clip's first touches come before its piles ever settle)."""
        for place, reading in readings.items():
            if self.places[place].settled_crop is None:
                self._take_outline(place, reading)

    def _take_outline(self, place: Place, reading: Reading) -> None:
        """The card a reading of `place` named, where the recogniser found it, as the place's footprint.
        The recogniser's outline is loose (it may take in the pile's lower cards): a card's size, placed
        and turned as it lies."""
        if reading.card is None or reading.outline is None:
            return
        tracker = self.places[place]
        footprint = tracker.card_at(TableView.from_crop(reading.outline, tracker.rect, READ_PX_PER_MM))
        if footprint is not None:
            tracker.set_footprint(footprint)

    def _measure_arms(self, frame: Frame, masks) -> None:
        """Where the arm of each hand at a spit pile comes from (`arms.arm_offset`), in its first frames
        there: which of the player's hands laid a card."""
        for place in SPIT_PILES:
            tracker = self.places[place]
            for player, visit in tracker.visits.items():
                if len(visit.arms) >= ARM_FRAMES or not visit.samples:
                    continue
                at, _, distance = visit.samples[-1]
                if at != frame.index or distance > ARM_NEAR_MM:
                    continue
                offset = arm_offset(masks.owned[player], player, (tracker.rows, tracker.cols),
                                    self.layout.stock_centre(player, 2)[0], self.view.px_per_mm)
                if offset is not None:
                    visit.arms.append(offset)

    def finish(self) -> list[Sighting]:
        """The video has ended: a spit pile still waiting to settle, or to be read again, is judged on the
        last frame (a card laid in the last quarter second is still ruled, also while the hand that laid it
        is drawing back, clear of it, or still lies on it (`still_laying`); one that cannot be read is named by
        the card that left its player's stock), with a pile that settled and was held for it (`HeldPiles`);
        covered cards are named by what is known, and a lull it ends in takes the stock counts known only as
        a least as they stand (`QuietTable.cut_short`)."""
        frame, sightings = self._last_frame, []
        if frame is None or self.last_view is None or not self.started:
            return []
        owned = self.last_masks.owned if self.last_masks is not None else {}
        ending = self.held.release()  # settled, and held for the other pile: judged with it now
        laying_at: dict[Place, list[Visit]] = {}
        for place in SPIT_PILES:
            tracker = self.places[place]
            if any(place == held for held, _ in ending):
                continue
            laying: list[Visit] = []
            if tracker.visits and owned:
                # a hand lying on the other pile now is laying its card there, and only passed this one on its way
                passing = frozenset(player for player, mask in owned.items()
                                    if any(self.places[other].covered_by(mask) > OVER_THE_OTHER_PILE for other in SPIT_PILES if other != place))
                if all(tracker.covered_by(mask) <= LEFT_BEHIND_COVER for mask in owned.values()):
                    tracker.let_go(self.period, passing)  # hands drawing back, clear of the card they laid
                else:
                    laying = still_laying(tracker.visits.values(), passing)
                    if laying:
                        tracker.let_go(self.period, passing)
            waiting = place in self._retries or any(visit.touch is not None or visit.frames_in_contact for visit in tracker.finished)
            if tracker.visits or not waiting:
                continue
            if place in self._retries:
                visits, _, owner = self._retries[place]
                self._retries[place] = (visits, READ_RETRIES, owner)  # no more tries: the video is over
            ending.append((place, tracker.settle_now(self.last_view, frame.index, frame.t, self.last_cardlike)))
            laying_at[place] = laying
        owners = joint_owners(ending, self.places)
        self._judging = ending
        for place, change in sorted(ending, key=lambda ended: ended[0].index):
            seen = self._interpret(place, change, frame, owners.get(place))
            sightings.extend(self._under_the_hand(place, laying_at.get(place, []), seen, frame.t))
        sightings.extend(self._name_covered(frame.t + RESOLVE_SECONDS + STOCK_WAIT_SECONDS))
        sightings.extend(self._lull_ended(frame))  # the video ends in a lull
        return self.opening.keep(sightings)

    def afresh(self) -> "TableTracker":
        """A tracker for the same table that knows nothing of it yet, to take it up again as a clip's first
        frames are (the camera was blind for a while: what changed meanwhile was not seen); this one's
        readers are let go."""
        if self._readers is not None:
            self._readers.shutdown(wait=False)
        return TableTracker(self.view, self.namer, fps=1.0 / self.period, read_ahead=self.read_ahead)

    def _under_the_hand(self, place: Place, laying: list[Visit], seen: list[Sighting], now: float) -> list[Sighting]:
        """What spit pile `place` shows as the video ends (`seen`), with the cards of the `laying` hands it does
        not name (each still lying on the card it laid: a clip cut a few frames after a play) left to be named
        by the card that left that player's stock, as a covered card is; their bare touches dropped."""
        named = {sighting.player for sighting in seen if isinstance(sighting, Arrival) and sighting.pile == place.index}
        named |= {covered.arrival.player for covered in self.covered.unnamed if covered.arrival.pile == place.index}
        hidden = {visit.player: visit for visit in laying if visit.player not in named}
        for visit in hidden.values():
            self.covered.cover(Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, None, visit.touch.error, 0.0), now)
        return [sighting for sighting in seen if not (isinstance(sighting, PileTouched) and sighting.player in hidden)]

    def _lull_ended(self, frame: Frame) -> list[Sighting]:
        """A quiet spell that ended before UNCOUNTED_SECONDS with no stock card moved: the video ends in it,
        or the hands went from it to their spit cards (a stall; an arm reaching for them passes over the
        stocks). The stocks stood as they were, and their counts known only as a least are taken as they
        stand (`QuietTable.cut_short`)."""
        since = self.quiet.cut_short()
        if since is None:
            return []
        return [TableQuiet(since, frame.index, unturned=self._a_stock_face_down(), uncounted=True)]

    def _a_stock_face_down(self) -> bool:
        return any(place.kind == "stock" and reading.face_down for place, reading in self.readings.items())

    def _look_again_at_face_down_stocks(self, frame: Frame) -> list[Sighting]:
        """Stocks read as face down are read once more when the table goes quiet: a reading taken as a
        hand left (its shadow, the card still sliding) can outlast what the slot shows, and a stall
        waits for every face-down stock top to be turned up."""
        out: list[Sighting] = []
        foreseen = self._quiet_foreseen[1] if self._quiet_foreseen and self._quiet_foreseen[0] == self.quiet.since else {}
        self._quiet_foreseen = (self.quiet.since, {})  # looked at: nothing more to read ahead this spell
        for place, previous in list(self.readings.items()):
            if not self._looked_at_again(place):
                continue
            reading = foreseen[place].result() if place in foreseen else self._read(place, frame.image)
            if _doubtful(previous) and reading.card is not None and reading.confidence <= previous.confidence:
                continue  # no surer now: a doubtful name stays rather than flip between two
            if reading != previous:
                self.readings[place] = reading
                out.append(StockSeen(self.quiet.since, frame.index, place.player, place.index, reading, previous, False))
        return out

    def _looked_at_again(self, place: Place) -> bool:
        """A stock read face down, or named doubtfully, is read again when the table goes quiet."""
        previous = self.readings[place]
        return place.kind == "stock" and (previous.face_down or _doubtful(previous)) and not self.cleared

    def _foresee_quiet(self, frame: Frame) -> None:
        """The table goes quiet within SETTLE_FRAMES - 1 frames if no hand comes: the stocks it will look at
        again are read from this frame's picture (live, on a reader), as a place settling is (`_foresee`);
        the quiet moment takes those readings if the spell has lasted (nothing moved meanwhile)."""
        since = self.quiet.since
        if since is None or frame.t + (SETTLE_FRAMES - 1) * self.period < since + QUIET_SECONDS or (
                self._quiet_foreseen is not None and self._quiet_foreseen[0] == since):
            return
        self._quiet_foreseen = (since, {place: self._foreseen_reading(place, frame) for place in self.readings if self._looked_at_again(place)})

    def _foreseen_reading(self, place: Place, frame: Frame, footprint: np.ndarray | None = None) -> Foreseen:
        """`place` read from this frame's picture ahead of when it is needed: at once on a reader when reading
        ahead (live), else made ready to be read when needed."""
        read = self._reader(place, frame.image, footprint)
        return Foreseen(frame.index, self.places[place].rect, self._reader_pool().submit(read) if self.read_ahead else read)

    def _reader_pool(self) -> ThreadPoolExecutor:
        """The readers (LAYOUT_READERS threads), made when first needed."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(LAYOUT_READERS, thread_name_prefix="layout-read")
        return self._readers

    def _quiet_table(self, frame: Frame) -> list[Sighting]:
        busy = (any(tracker.visits or tracker.dirty for tracker in self.places.values())
                or self.covered.busy or self._retries or self.held)
        if self.quiet.step(frame.t, busy=bool(busy)):
            return self._look_again_at_face_down_stocks(frame) + [TableQuiet(self.quiet.since, frame.index)]
        if not busy:
            self._foresee_quiet(frame)
        elif any(place.kind == "spit_stack" and tracker.visits for place, tracker in self.places.items()):
            return self._lull_ended(frame)  # the hands went from a lull to their spit cards
        if self.quiet.unturned(frame.t):
            return [TableQuiet(self.quiet.since, frame.index, unturned=self._a_stock_face_down(), lasted=True)]
        if self.quiet.uncounted(frame.t):
            return [TableQuiet(self.quiet.since, frame.index, unturned=self._a_stock_face_down(), uncounted=True, lasted=True)]
        return []

    def _name_covered(self, now: float) -> list[Sighting]:
        """Covered cards named by the stock card that left (see CoveredCards.name); a pile whose top
        could not be read takes the name too."""
        named, tops = self.covered.name(
            now, pile_tops=(self.readings[SPIT_PILES[0]].card, self.readings[SPIT_PILES[1]].card),
            piles_busy={pile.index for pile in SPIT_PILES if self._busy(pile) or pile in self.held},
            stocks_busy={place.player for place, tracker in self.places.items()
                         if place.kind == "stock" and (tracker.dirty or tracker.visits)})
        for pile, card in tops.items():
            self.readings[SPIT_PILES[pile]] = Reading(card, False, 0.9)
        return named

    # ---------------------------------------------------------------------------------------------
    def _read(self, place: Place, image: np.ndarray, footprint: np.ndarray | None = None, *,
              view: np.ndarray | None = None) -> Reading:
        """What lies on `place` in `image` (now, unless `view`: the tracking view of that image); `footprint`:
        where the change seen there settled (the namer reads a whole card's outline first)."""
        return self._reader(place, image, footprint, view=view)()

    def _reader(self, place: Place, image: np.ndarray, footprint: np.ndarray | None = None, *,
                view: np.ndarray | None = None) -> Callable[[], Reading]:
        """`_read`, made ready to be done on any thread: what it needs of the tracker is taken now."""
        tracker = self.places[place]
        rect = tracker.rect
        rows, cols = self.spots[place].to_pixels(self.view.px_per_mm, self.shape)
        view = view if view is not None else self.last_view
        spot = None if view is None else self.bare_strips.as_first(view[rows, cols]).copy()
        corners = None if footprint is None else tracker.card_corners_mm(footprint)
        outline = None if corners is None else TableView.in_crop(corners, rect, READ_PX_PER_MM).astype(np.float32)
        whole_card = place.kind == "stock" and corners is not None and _fills_slot(corners, self.spots[place])
        namer, table = namer_at(self.namer, self._frame_index, rect), copy.copy(self.table_colour)

        def read() -> Reading:
            crop = self.view.crop(image, rect, READ_PX_PER_MM)
            return read_place(namer, crop, crop if spot is None else spot, table, READ_PX_PER_MM, outline, whole_card=whole_card)
        return read

    def _looks_bare(self, pixels: np.ndarray) -> np.ndarray:
        """Per pixel of a view (bool): of the bare table's colour, told in the first view's light."""
        return self.table_colour.looks_bare(self.bare_strips.as_first(pixels))

    def _table_likeness(self, pixels: np.ndarray) -> np.ndarray:
        """Per pixel of a view: how typical of the bare table its colour is, told in the first view's light."""
        return self.table_colour.table_likeness(self.bare_strips.as_first(pixels))

    def _foresee(self, place: Place, frame: Frame) -> list[Visit]:
        """A place has had its first still frame since hands left it: it settles SETTLE_FRAMES - 1 frames on,
        on what it shows now, if it stays still. It is read now, on a reader, on this frame's picture, while
        the frames between are tracked; its settling takes that reading (`_read_settled`). Each reading
        depends on this frame alone and is waited for, so the rulings do not depend on the threads' pace.
        Returns the visits whose snapshots its ruling may need named (`_name_snapshots`)."""
        earlier = self._foreseen.pop(place, None)
        if earlier is not None:
            earlier.cancel()
        tracker = self.places[place]
        if not self.started or place.kind == "spit_stack" or (place.kind == "stock" and self._layout_pending):
            return []  # not read as it settles (the opening's places are read with its layout)
        changed, footprint = tracker.foresee(self.last_view, self.last_cardlike)
        touched = place.kind == "spit_pile" and (place in self._retries or any(visit.card_seen or visit.frames_in_contact
                                                                               for visit in tracker.finished))
        if not (changed or touched):
            return []  # read only if it changed after all (`_read_settled` reads it then)
        self._foreseen[place] = self._foreseen_reading(place, frame, footprint)
        if place.kind == "spit_pile":
            return self._snapshots_to_name(tracker, self._retries[place][0] if place in self._retries else [])
        return []

    def _snapshots_to_name(self, tracker: PlaceTracker, retried: list[Visit] = ()) -> list[Visit]:
        """Read ahead (live): the hands that touched a spit pile, their snapshots not named yet, once another
        player's hand has touched it too or is there now (the one whose card lies under the other's will be
        named by its snapshot): as each hand leaves, the sooner to be ready when the pile settles."""
        if not self.read_ahead:
            return []
        visits = [visit for visit in list(tracker.finished) + list(retried) if visit.touch is not None]
        if len({visit.player for visit in visits} | set(tracker.visits)) < 2:
            return []
        return [visit for visit in visits if visit.snapshot is not None and visit.snapshot_named is None]

    def _name_snapshots(self, visits: list[Visit]) -> None:
        """Each visit's snapshot named on a reader (`_snapshot_card` takes the naming), after this frame's
        places, which the rulings wait for first."""
        for visit in visits:  # each once: a visit named already is left
            if visit.snapshot_named is None:
                visit.snapshot_named = self._reader_pool().submit(self._name_snapshot, visit.snapshot, visit.snapshot_outline)

    def _read_settled(self, place: Place, change: PlaceChange, frame: Frame) -> Reading:
        """`_read` of a place that settled: the reading made when it began to settle (`_foresee`), where it
        stayed still from then until it settled (the same card lying still, read on the first of those frames
        and on the outline it showed then; also when judged a few frames after it settled, held for the other
        pile, with no hand over it yet as there may be by then); else read now."""
        foreseen = self._foreseen.pop(place, None)
        if foreseen is not None:
            if change.frame == foreseen.frame + SETTLE_FRAMES - 1 and foreseen.rect == self.places[place].rect:
                return foreseen.result()
            foreseen.cancel()
        return self._read(place, frame.image, change.footprint if change.outlined else None)

    def _read_all(self, places, image: np.ndarray, *, view: np.ndarray | None = None, where_settled: bool = False) -> dict[Place, Reading]:
        """`_read` of each of `places`, LAYOUT_READERS at a time; in the order given. `where_settled`: a
        place that has settled and is not busy is read first at the card outline it settled on (as a card
        seen landing is), not searched for: `image` must then be the frame now."""
        places = list(places)
        footprints = {place: self.places[place].footprint if where_settled and self._settled_and_still(place) and self.places[place].outlined
                      else None for place in places}
        if len(places) < 2:
            return {place: self._read(place, image, footprints[place], view=view) for place in places}
        readings = self._reader_pool().map(lambda place: self._read(place, image, footprints[place], view=view), places)
        return dict(zip(places, readings))

    def _settled_and_still(self, place: Place) -> bool:
        """The place has settled on what lies there, and no hand has been over it since."""
        return self.places[place].settled_crop is not None and not self._busy(place)

    def _look_again_at_the_piles(self, frame: Frame, changes: list[tuple[Place, PlaceChange]]) -> None:
        """Before the opening layout is read: a spit pile the first frame did not name surely with its suit (a
        blurred frame, the suit too small to tell), no hand near it now and none touched it since, is read again,
        and a reading with its suit surer than the first frame's takes its place: the top the cards laid before
        the layout are played on (on 90 kept clips cut before a play, 4 plays of the first second were ruled on a
        top named by its rank alone, `Q?` for the `QS` lying there; none now)."""
        for place in SPIT_PILES:
            tracker = self.places[place]
            if tracker.pending_touch() is not None or any(changed == place and change.visits for changed, change in changes):
                self._touched_since_first.add(place)
            before = self.opening.first[place]
            if place in self._touched_since_first or tracker.visits or before.named_surely(SURE_FIRST_LOOK):
                continue
            reading = self._read_all([place], frame.image)[place]
            if reading.named_surely(SUIT_SEEN_AGAIN) and (
                    before.card is None or before.card.suit is None or reading.confidence > before.confidence):
                self.opening.first[place] = reading
                self.readings[place] = reading

    def _with_the_suits_seen(self, layout: LayoutRead) -> LayoutRead:
        """The opening layout with each spit pile no hand touched since the first frame that it names by its rank
        alone named as a look before named it, suit and all, surely (`_look_again_at_the_piles`)."""
        piles = list(layout.piles)
        for index, place in enumerate(SPIT_PILES):
            seen, now = self.opening.first[place], piles[index]
            if (place not in self._touched_since_first and now.card is not None and now.card.suit is None
                    and seen.named_surely(SUIT_SEEN_AGAIN) and seen.card.rank == now.card.rank):
                piles[index] = self.readings[place] = seen
        return replace(layout, piles=tuple(piles))

    def _take_the_hand_theres_cards(self) -> None:
        """As the opening layout is read: a card the hand already at a spit pile as the video began laid there, and
        hands come afresh laid cards over since (`Opening.under_later_cards`), is that pile's first top and is not
        ruled: waiting to be named (covered before its pile settled), or not judged yet (the pile not settled since)."""
        unjudged: list[tuple[Visit, Arrival]] = []
        for place in SPIT_PILES:
            if place.index not in self.opening.hands_at:
                continue  # no hand there as the video began: nothing to take
            tracker = self.places[place]
            for visit in tracker.finished:
                if visit.touch is not None:
                    card, confidence = self._snapshot_card(visit)
                    unjudged.append((visit, Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, card,
                                                    visit.touch.error, confidence * COVERED_CONFIDENCE)))
            unjudged += [(visit, Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, None, visit.touch.error))
                         for visit in tracker.visits.values() if visit.touch is not None]  # hands there still
        taken = self.opening.under_later_cards(self.covered.waiting() + [arrival for _, arrival in unjudged])
        self.covered.withdraw(taken)
        for visit, arrival in unjudged:
            finished = self.places[SPIT_PILES[arrival.pile]].finished
            if visit in finished and any(arrival is card for card in taken):
                finished.remove(visit)

    def _read_layout(self, frame: Frame, *, first: bool, keep_piles: set[int] = frozenset()) -> LayoutRead:
        """Reads every place now but the spit piles of `keep_piles`, kept as they were (both: a layout
        read just as the opening spit lands, which must come before it; some: cards seen landing there
        before the opening layout was read)."""
        self._layout_pending = False
        if first or keep_piles != {0, 1}:
            self._rows_to_fit = not self._fit_layout(frame)
            self._piles_to_fit = {0, 1}  # a spit pile is found once a card lies on it
        read = self._read_all([place for place in self.places if not (place.kind == "spit_pile" and place.index in keep_piles)], frame.image,
                              where_settled=True)
        view = self.bare_strips.as_first(self.last_view)
        faces = [self.places[place].crop(view)[self.places[place].footprint] for place, reading in read.items() if reading.card is not None]
        hid = self.table_colour.hides_faces()
        self.table_colour.faces_seen(faces)
        if self.table_colour.hides_faces() and not hid:
            # the faces named look like the table (a grey cloth under a dimmed lamp): a place read bare may hold
            # a face that looks like it too, and is read again by the recogniser (`all_at_once` seed 175's clips)
            read |= self._read_all([place for place, reading in read.items() if reading.empty], frame.image, where_settled=True)
        for place, reading in read.items():
            self.readings[place] = reading
            self._layout_read_at[place] = frame.index
            if place.kind == "spit_pile":
                # the pile's card where the recogniser found it, not where what changed there settled: on a pale
                # table an arm leaving in the first frames settles a card-sized patch of table (`all_at_once`
                # seed 306's clip from 2.88 s: pile 0 outlined 80 mm off its `AS`, then moved there, the re-spit
                # landing at its edge, read bare)
                self._take_outline(place, reading)
        if not self._paper_seen:  # the paper of the first cards laid out, in the light the game began in
            most = paper_saturation_limit(faces)
            self._paper_seen = most is not None
            self.paper_most = CARD_MAX_SATURATION if most is None else most
        # a stock read with a hand over it is read again when the hand has gone, whether or not the place
        # then looks other than when it last settled (a hand hovering over a card read as a bare slot)
        self._read_under_hand = {place for place in read if place.kind == "stock" and self._busy(place)}
        stocks = {player: tuple(self.readings[Place("stock", index, player)] for index in range(6)) for player in PLAYERS}
        piles = (self.readings[Place("spit_pile", 0)], self.readings[Place("spit_pile", 1)])
        self.cleared = all(reading.empty for row in stocks.values() for reading in row) and all(p.empty for p in piles)
        return LayoutRead(frame.t, frame.index, stocks, piles, first)

    def _busy(self, place: Place) -> bool:
        """A hand is over the place, or has been and the place has not settled since."""
        return bool(self.places[place].visits) or self.places[place].dirty

    def _interpret(self, place: Place, change: PlaceChange, frame: Frame, owner: str | None = None) -> list[Sighting]:
        if place.kind == "spit_pile":
            return self._pile_change(place, change, frame, owner)
        if place.kind == "stock" and (change.changed or place in self._read_under_hand) and not self._layout_pending:
            self._read_under_hand.discard(place)
            previous = self.readings[place]
            reading = self._read_settled(place, change, frame)
            self.readings[place] = reading
            if change.visits and card_gone(previous, reading):
                came = min([visit.samples[0][1] for visit in change.visits if visit.samples] or [change.t])
                self.covered.left_stock(place.player, change.t, previous.card, came)
            if reading != previous and not self.cleared:  # on a bare table a new layout is read whole
                last_there = last_on_the_card(change.visits)
                reached = min((visit.touch.t if visit.touch is not None else visit.samples[0][1]
                               for visit in change.visits if visit.samples), default=None)
                return [StockSeen(change.t, change.frame, place.player, place.index, reading, previous, bool(change.visits),
                                  turned_at=None if last_there is None else min(last_there, change.t),
                                  reached_at=None if reached is None else min(reached, change.t))]
        return []

    def _pile_change(self, place: Place, change: PlaceChange, frame: Frame, owner_player: str | None = None) -> list[Sighting]:
        visits = sorted((visit for visit in change.visits if visit.touch is not None), key=lambda visit: visit.touch.t)
        retry = self._retries.pop(place, None)
        if retry is not None:
            visits = sorted(retry[0] + visits, key=lambda visit: visit.touch.t)
            owner_player = owner_player or retry[2]
        visits = one_per_hand(visits)
        self._judged_touches = [touch for touch in self._judged_touches if touch[2] >= frame.t - JUDGED_TOUCHES_SECONDS] + [
            (place.index, visit.player, visit.touch.t) for visit in visits]
        previous = self.readings[place]
        # a card laid square on a like card (6C on 7S) changes few pixels: a hand that touched the pile is
        # reason enough to read it again
        touched = change.changed or retry is not None or any(visit.card_seen or visit.frames_in_contact for visit in change.visits)
        reading = self._read_settled(place, change, frame) if touched else previous
        # a top named before, a card seen there now and not named, a hand having touched it: something was laid
        # there too like the card under it for the picture to count as changed (`all_at_once` seed 194: a
        # `dondorf` `QC` laid on its `JS` at 0.5 px per mm, its face read as no card's). Not a pile read empty:
        # taken by a slap, or a reader blind in dim light (seed 175's), which three more looks would not cure
        unnamed_now = reading.face_down and previous.card is not None and bool(visits)
        if reading.card is None and (change.changed or retry is not None or unnamed_now):
            tries = retry[1] + 1 if retry is not None else 1
            if tries <= READ_RETRIES:
                # not named this time (a shadow, a blur, a glare): read again a few frames on, keeping who touched it
                self._retries[place] = (visits, tries, owner_player)
                self.places[place].read_again()
                return []
        again = read_again(previous, reading, changed=change.changed or retry is not None, hand_touched=bool(visits))
        if again and (reading.card.suit is None or not visits and previous.card.suit is not None
                      or not same_card(previous.card, reading.card)):
            reading = previous  # the suit read before is kept, and the card the spit or play was ruled as
        self.readings[place] = reading
        new_card = reading.card is not None and reading.card != previous.card and not again
        if reading is not previous and (new_card or not self.places[place].outlined):
            # the top card is where the recogniser found it, in the sharper cut it reads (3 px per mm, its edges
            # snapped) rather than in the tracking view's 2 mm pixels: a new card, one laid so square on a like
            # card that too few pixels changed to outline it (in dim light), or where the card paper spans the
            # table (PAPER_PATCH_CARDS) and the outline was a guess
            self._take_outline(place, reading)
        laid = reading
        if not new_card and _laid_over_its_double(previous, reading, changed=change.changed, visits=visits, period=self.period):
            # a hand brought a card and the picture changed, yet the top reads as the card under it: the deck has
            # one of each, so the card laid is the one the reading doubts most after it (`all_at_once` seed 303:
            # A's `KH` laid on its `QH`, read `QH` 0.63, `KH` 0.18). The reading of the pile itself stays as read,
            # so a later look at the same picture is not taken for another card
            laid = _next_likeliest(reading, previous.card)
            new_card = laid is not None
        if not new_card:
            if reading.card is None and (change.changed or retry is not None):
                # something new lies there that could not be named: each hand that touched the pile may have
                # laid it; the card that left that player's stock names it (or nobody played)
                for visit in visits:
                    self.covered.cover(Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, None,
                                               visit.touch.error, 0.0), frame.t)
            # a hand that laid nothing (a slap) is timed where it came to rest: it lands flat, and its outline
            # crosses the pile's well before the palm lands
            landed = [self.places[place].resting_touch(v, self.period) or v.touch for v in visits]
            other_pile = self._touches_at(1 - place.index)
            touched = [PileTouched(when.t, when.frame, place.index, v.player, when.error, on_hand=_first_on_hand(v, when),
                                   went_on=went_on(v, other_pile), depth=-min((sample[2] for sample in v.samples), default=0.0))
                       for v, when in zip(visits, landed)]
            hands = {v.player for v in visits}
            touched += [PileTouched(v.through_hand.t, v.through_hand.frame, place.index, v.player, v.through_hand.error, through_hand=True)
                        for v in change.visits if v.touch is None and v.through_hand is not None and v.player not in hands]
            return sorted(touched, key=lambda touch: touch.t)
        if not visits:
            # a card appeared with no hand seen (the hand hidden, or frames dropped): time it by the settle
            return [Arrival(change.t - 3 * self.period, change.frame, place.index, None, reading.card,
                            3 * self.period, reading.confidence, reading.alternatives)]
        holders = stock_holders(laid.card, [(slot.player, read.card) for slot, read in self.readings.items()
                                            if slot.kind == "stock" and read.card is not None], self.covered.left_stock_by)
        holding = [self.places[place].frames_holding(visit, change.footprint) for visit in visits]
        passing = reaching_on(visits, self._touches_at(1 - place.index))
        owner = who_laid_top(visits, holding, holders=holders, joint_owner=owner_player, sure=laid.confidence, reached_on=passing)
        unseen_owner = unseen_joint_owner(visits, owner_player, holders=holders, sure=laid.confidence)  # its card, timed by the touches seen here
        for number, visit in enumerate(visits):
            if number == owner:
                # on a bare place the card touches nothing until it lies there: timed where it came to rest
                when = self.places[place].laid_on_bare(visit, change.footprint, self.period) if previous.empty else visit.touch
                rest = None if unseen_owner is not None else self.places[place].resting_touch(visit, self.period)
                top = Arrival(when.t, when.frame, place.index, unseen_owner or visit.player, laid.card,
                              when.error, laid.confidence, laid.alternatives, together=owner_player is not None,
                              arm=None if unseen_owner is not None else _arm_offset(visit),
                              rest=None if rest is None else (rest.t, rest.frame, rest.error), unchanged=not change.changed)
                continue
            # covered by a later card: the card is the one that left this player's stock. A hand that went on to
            # the other pile (an arm reaching across) laid its card there, unless it laid none there (a hand laying
            # here, its fingers grazing the other pile): covered too, named by its stock alone (`reaching`)
            named = (None, 0.0, None) if passing[number] else self._covered_card(place, visit, previous, reading)
            if named is None:
                continue
            card, confidence, guess = named
            self.covered.cover(Arrival(visit.touch.t, visit.touch.frame, place.index, visit.player, card,
                                       visit.touch.error, confidence * COVERED_CONFIDENCE, arm=_arm_offset(visit), under=True), frame.t,
                               reaching=passing[number], guess=guess)
        return self.covered.top_laid(top)

    def _covered_card(self, place: Place, visit: Visit, previous: Reading, reading: Reading) -> tuple | None:
        """(card, confidence, guess) the snapshot taken as the hand of `visit` left names for the card it laid,
        now under the one `reading` shows (None, 0.0: its stock is to name it; `guess`: then the snapshot's own
        unsure (card, confidence), should no stock name it, see `_unsure_guess`); None: the hand laid nothing
        here."""
        card, confidence = self._snapshot_card(visit)
        if (card is not None and card == previous.card and confidence >= MIN_CONFIDENCE
                and self._layout_read_at.get(place, -1) < visit.touch.frame):
            if card.suit is not None:
                # its snapshot shows the top the pile had before: the hand laid nothing here (an arm passing
                # over on its way to the other pile), and the card its stock lost lies elsewhere (unless that
                # top was read with the layout after the hand's touch: then it may be the hand's own card)
                return None
            # named by its rank alone it says too little (a `K?` before and a `K?` now may be a red king
            # and the red queen the other hand laid over this hand's card, read in its first blur): only
            # its stock can tell
            return None, 0.0, None
        if card is not None and (confidence < SNAPSHOT_NAMES or reading.card is not None and same_card(card, reading.card)):
            # its snapshot shows the top laid by the other hand (a `J?` read in its first blur for the `JC`
            # now on top), or is read too unsurely to name a card no stock was seen to lose: only its stock
            # can tell
            return None, 0.0, _unsure_guess(card, confidence, visit, previous, reading, self.period)
        return card, confidence, None

    def _touches_at(self, pile: int) -> list[tuple[str, float]]:
        """(player, t) of the touches of spit pile `pile` lately: hands over it, gone and not judged yet, held,
        being judged this frame, or judged within JUDGED_TOUCHES_SECONDS."""
        tracker = self.places[SPIT_PILES[pile]]
        held = [visit for place, change in self.held.changes() + self._judging if place.index == pile for visit in change.visits]
        seen = [(visit.player, visit.touch.t) for visit in list(tracker.visits.values()) + tracker.finished + held
                if visit.touch is not None]
        return seen + [(player, t) for index, player, t in self._judged_touches if index == pile]

    def _snapshot_card(self, visit: Visit):
        if visit.snapshot is None:
            return None, 0.0
        card, confidence = (visit.snapshot_named.result() if visit.snapshot_named is not None
                            else self._name_snapshot(visit.snapshot, visit.snapshot_outline))
        return card, float(confidence)

    def _name_snapshot(self, snapshot: np.ndarray, outline: np.ndarray | None = None) -> tuple:
        """The card on top in a hand's snapshot of a pile: a pile view at READ_PX_PER_MM, read first where
        the tracker saw the top card lie (`outline`), else searched."""
        if hasattr(self.namer, "read_top_card"):
            read = self.namer.read_top_card(snapshot, px_per_mm=READ_PX_PER_MM, outline=outline)
            return read.card, read.confidence
        return self.namer.name_top_card(snapshot)

    @staticmethod
    def _top_outline(tracker: PlaceTracker, view: np.ndarray, cardlike: np.ndarray) -> np.ndarray | None:
        """Where the card on top of a place lies as it would settle on `view` now, in the pixels of its cut
        at READ_PX_PER_MM; None when what changed there is not card-shaped, or its outline only a guess."""
        _, footprint = tracker.foresee(view, cardlike)
        corners = None if footprint is None else tracker.card_corners_mm(footprint)
        return None if corners is None else TableView.in_crop(corners, tracker.rect, READ_PX_PER_MM).astype(np.float32)

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


@dataclass(frozen=True)
class Foreseen:
    """A place read as it began to settle (`TableTracker._foresee`): in frame `frame`, at `rect`; `reading`
    is being read on a reader (a Future), or is to be read when needed (the reading made ready)."""

    frame: int
    rect: RectMM
    reading: Future | Callable[[], Reading]

    def result(self) -> Reading:
        return self.reading.result() if isinstance(self.reading, Future) else self.reading()

    def cancel(self) -> None:
        if isinstance(self.reading, Future):
            self.reading.cancel()


@dataclass(frozen=True)
class TableLook:
    """One frame seen from above (`TableTracker.look`): the tracking view and its pale pixels' saturation."""

    view: np.ndarray
    paper: np.ndarray  # `reading.paper_saturation(view)`: which pixels are card-coloured, once the paper is known
    grid: np.ndarray | None = None  # `background.grid_of(view)`, where the light is measured


def last_on_the_card(visits: list[Visit]) -> float | None:
    """When the hands that changed a stock slot were last there to change it: the last frame one lay
    TURNING_DEPTH_MM or more over the slot's card (turning it up, or laying one there), or failing that
    the last frame one was near it at all; None without a hand seen there."""
    over = [sample[1] for visit in visits for sample in visit.samples if sample[2] <= -TURNING_DEPTH_MM]
    near = [sample[1] for visit in visits for sample in visit.samples]
    return max(over or near, default=None)


def still_laying(visits, passing: frozenset[str]) -> list[Visit]:
    """Of the hands near a spit pile as the video ends, those that came with a card and touched the pile
    (`Visit.brought_card`) in STILL_LAYING_FRAMES frames or more, not passing on to the other pile: each lies
    on the card it laid."""
    return [visit for visit in visits if visit.touch is not None and visit.brought_card
            and visit.frames_in_contact >= STILL_LAYING_FRAMES and visit.player not in passing]


def _fills_slot(corners_mm: np.ndarray, slot: RectMM) -> bool:
    """Whether a card outline (table mm) covers the slot's card area at least FILLS_SLOT (IoU)."""
    area = np.array([[slot.x0, slot.y0], [slot.x1, slot.y0], [slot.x1, slot.y1], [slot.x0, slot.y1]])
    return quad_iou(np.asarray(corners_mm, np.float64).reshape(4, 2), area) >= FILLS_SLOT


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


def read_again(previous: Reading, reading: Reading, *, changed: bool, hand_touched: bool = True) -> bool:
    """The card on top read again, not a card laid:
    - a pile whose picture did not change, read as the card read before with its suit now read, or no
      longer read (`Q?`, then `QH`), under a hand that touched the pile. (Taken for a card laid, it made
      that hand's touch of the other pile a moment later look like an arm reaching across, and the card it
      laid there went unruled.)
    - a pile whose picture did not change, under a hand that touched it, read as another card each of the two
      readings gave at least READ_EITHER_WAY: the card the models were torn between, read the other way this
      time (a `dondorf` spit `JH` read `QH` 0.46 / `JH` 0.31, then `JH` 0.40 / `QH` 0.32 after a hand on its
      way to the other pile grazed it, was taken for a `JH` laid there).
    - a pile no hand touched, read with the rank read before (`QS`, then `QC` at 0.42 as the light dimmed,
      or `J?` for the `JS`): a card is not laid without a hand, and one laid unseen on its own rank would be
      a breach besides."""
    if previous.card is None or reading.card is None or reading.card == previous.card:
        return False
    if not hand_touched:
        return reading.card.rank == previous.card.rank
    return not changed and (same_card(previous.card, reading.card) or _torn_between(previous, reading))


def _torn_between(previous: Reading, reading: Reading) -> bool:
    """Each reading gives the card the other names at least READ_EITHER_WAY."""
    def gives(one: Reading, card: Card) -> bool:
        return any(other == card and chance >= READ_EITHER_WAY for other, chance in one.alternatives)
    return gives(previous, reading.card) and gives(reading, previous.card)


def _laid_over_its_double(previous: Reading, reading: Reading, *, changed: bool, visits: list[Visit], period: float) -> bool:
    """The pile reads as the very card it read before, though its picture changed under a hand that came to
    lay a card (`_came_to_lay`) and was seen holding it the frame before it touched (`brought_card`: card
    paper glimpsed earlier in its reach is not enough here, where nothing else says a card was laid): a card
    was laid, and one of the two readings is wrong (the deck has one of each). Read by its rank alone both times
    too (`all_at_once` seed 171: B's re-spit `KD` read `Q?`, then A's `QH` laid over it and B's `AS` read `Q?` again:
    ruled the pile touched, both plays were lost)."""
    return (previous.card is not None and reading.card == previous.card and changed
            and any(visit.brought_card and _came_to_lay(visit, period) for visit in visits))


def _unsure_guess(card: Card, confidence: float, visit: Visit, previous: Reading, reading: Reading,
                  period: float) -> tuple[Card, float] | None:
    """A covered card's snapshot read too unsurely to name it at once, kept to name it should no stock be
    seen losing it (its player's stocks hidden under a hovering hand, or read as unreadable court cards):
    (card, confidence) when read with its suit, at least MIN_CONFIDENCE sure, of a hand that came to lay a
    card (`_came_to_lay`; not one lifting its own card back, whose snapshot is the pile in a blur), and neither
    the card it found there nor the one now on top (`all_at_once` seed 301: B's `QD`, covered by A's `10H`
    0.27 s later, its snapshot read `QD` at 0.42, B's stocks court cards read by no name; its play was lost)."""
    if card.suit is None or confidence < MIN_CONFIDENCE or not _came_to_lay(visit, period):
        return None
    if any(other.card is not None and same_card(card, other.card) for other in (previous, reading)):
        return None
    return card, confidence


def _came_to_lay(visit: Visit, period: float) -> bool:
    """The hand of `visit` came to lay a card: card paper was seen in it before it touched the place
    (`brought_card`, or card paper carried into the place's reach before the touch: a court card's colourful
    face may show little), and it let go within LAYING_CONTACT_SECONDS (lifting a card back takes a grip)."""
    if visit.touch is None or visit.frames_in_contact * period > LAYING_CONTACT_SECONDS:
        return False
    return visit.brought_card or any(t < visit.touch.t and carried.any() for _, t, carried in visit.cards)


def _next_likeliest(reading: Reading, not_this: Card) -> Reading | None:
    """`reading` as the likeliest other card it gives at least LAID_DOUBT (its alternatives kept), or None."""
    others = [(card, chance) for card, chance in reading.alternatives if card != not_this and chance >= LAID_DOUBT]
    if not others:
        return None
    card, chance = max(others, key=lambda pair: pair[1])
    return replace(reading, card=card, confidence=chance)


def _first_on_hand(visit: Visit, landed) -> tuple[float, int, float] | None:
    """When the hand of `visit` came down on the other player's hand lying on the pile, before it `landed`
    on the pile itself (the other hand gone): the second of two slaps on one pile lands there."""
    first = visit.through_hand
    return None if first is None or first.t >= landed.t else (first.t, first.frame, first.error)


def _doubtful(reading: Reading) -> bool:
    """A card named without its suit, or under LOOK_AGAIN_BELOW sure."""
    return reading.card is not None and (reading.card.suit is None or reading.confidence < LOOK_AGAIN_BELOW)


def _arm_offset(visit: Visit) -> float | None:
    """Where the hand's arm came from as it reached the pile: the middle of its first measures."""
    return float(np.median(visit.arms)) if visit.arms else None


def _stocks_out(layout: LayoutRead, laid_by: set[str]) -> str | None:
    """`LayoutRead.stocks_out` of a clip's opening layout: the one player whose five stock slots read bare and
    who laid no card before it that is still to be ruled (`laid_by`), or None."""
    out = [player for player, row in layout.stocks.items() if all(reading.empty for reading in row[:5]) and player not in laid_by]
    return out[0] if len(out) == 1 else None
