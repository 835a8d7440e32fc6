"""A clip's opening: what the first frame showed, and the cards laid before the layout is read.

A recording may begin mid-game, often with cards being laid: the layout is read once every place has
been still (or after a second), so the first frame's spit pile tops and stock tops are kept. A card seen
landing on a spit pile before the layout is read is a play on the top the first frame showed, and the
stock it came from is one whose top the first frame showed and the layout no longer does (it names a
card read unsurely, or covered at once by the next one). Touching a pile and laying nothing is not
judged then.

Where the first frame did not show a card on a pile (hands over it), or a hand was already at the pile
(the table model starts from the first frame, hands and all, and sees them only as they move off: that
touch is the hand moving, not the card landing timed), what was laid there before the layout is taken
as part of it, as a layout read later would; but a card a hand come afresh laid after that hand's card is
ruled, on that card, whether that card was seen settle or only named as the hand left, covered before the
pile settled (`under_later_cards`). A pile whose top card the first frame named surely, with its suit, though a hand was
there (beside it, or holding the card about to be laid) is not taken as it is: a card seen laid there is a
play on that top (on 90 clips of `all_at_once`, `other_decks` and `other_decks --public`, 6 plays more found,
none invented; a card that touched a few ms before the clip began is then ruled at its start, as in one clip of
`clip_openings`). A pile the first frame showed something on that could
not be named (a blurred pip card), seen lying still with no hand at it before the first card was laid
there, keeps its top unknown: that card is a play on it, which the rules take as legal, and say so.
A hand "already at the pile" is one first seen close to it: an arm reaching across to the other pile in
the first frames is not. When the first frame showed no stock card that could be
played, nor did a card seen laid by then fit the pile it was laid on, the table looked stalled (`LayoutRead.looked_stalled`): a
card laid before the layout that fits no top is then a spit (the rules take it so; one that fits is a
play of a card held as the clip began).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from referee.piles.covered import COVERED_CONFIDENCE
from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, Sighting
from referee.piles.zones import Place
from referee.rules.cards import Card, can_play_on

#: A touch on a spit pile within this many frames of the video's first is a hand that was there already ...
HAND_THERE_FRAMES = 3
#: ... or within this long (s) where that is more frames: the hand there is part of the table model until it
#: moves, and its touch is timed as it moves, which a faster camera sees no sooner (at 60 fps six frames; with
#: three, `all_at_once --after-touch` seed 194's clip from 3.01 s had B's hand there timed 75 ms in, its card
#: ruled a play).
HAND_THERE_SECONDS = 0.1
#: ... when that hand was first seen within this many mm of the pile's top card. One first seen further
#: off came in view of the camera: an arm reaching across to the other pile at the opening spits, or a hand
#: from afar laying its card, is timed as any other.
HAND_THERE_MM = 20.0
#: A card the first frame named at least this surely, with its suit, is taken to have lain there: a stock top the
#: layout no longer shows has left (see `_left_stocks`), and a spit pile's top card seen though a hand was at the
#: pile is what a card seen laid there later was played on (see `_seen_under_the_hand`), not part of the layout.
SURE_FIRST_LOOK = 0.6
#: A card the hand already at a pile as the video began laid, covered by a later card before the pile settled, is
#: taken as that pile's top as the video began when the hand's last look at the pile named it at least this surely
#: (with its suit): SURE_FIRST_LOOK of that look, a covered card's confidence being COVERED_CONFIDENCE of its look's
#: (see `under_later_cards`).
SURE_UNDER = SURE_FIRST_LOOK * COVERED_CONFIDENCE
#: A card laid before the layout was read, named less surely than this (or without its suit), takes the
#: name of the one card of its rank that left its player's stocks meanwhile.
NAMED_BY_ITS_STOCK_BELOW = 0.6


def hand_there_frames(period: float) -> int:
    """How many of the video's first frames a touch by a hand already at a pile may come in (see HAND_THERE_FRAMES)."""
    return max(HAND_THERE_FRAMES, int(round(HAND_THERE_SECONDS / period)))


class Opening:
    """The first frame's readings, and the cards seen laid until the opening layout is read."""

    def __init__(self, t: float, period: float, first: dict[Place, Reading], first_frame: int = 0) -> None:
        self.t = t                    # the first frame's time
        self.first_frame = first_frame
        self.period = period
        self.first = first            # every place as the first frame showed it
        self.early: list[Arrival] = []
        self.touched_early: list[PileTouched] = []  # hands that touched a spit pile and laid nothing (slaps, if over)
        self.frame = 0                # the frame the layout was read in
        self.laid_over: set[int] = set()  # spit piles the layout takes as they are, what was laid before included
        self.forgotten: set[int] = set()  # ... and of those, the ones whose cards laid before are not ruled later
        self.kept: set[int] = set()       # spit piles the layout keeps as the first frame showed them
        self.untouched: set[int] = set()  # spit piles seen lying still before any hand touched them
        self.hands_at: set[int] = set()   # spit piles a hand was at as the video began
        self._touched: set[int] = set()

    def saw_settle(self, pile: int, touched: bool) -> None:
        """Spit pile `pile` settled, after a hand touched it or not."""
        if touched:
            self._touched.add(pile)
        elif pile not in self._touched:
            self.untouched.add(pile)

    def saw_hand(self, pile: int, frame: int, distance_mm: float) -> None:
        """A hand first seen near spit pile `pile` in `frame`, `distance_mm` from its top card."""
        if frame - self.first_frame < hand_there_frames(self.period) and distance_mm <= HAND_THERE_MM:
            self.hands_at.add(pile)

    def hand_there(self, t: float, pile: int) -> bool:
        """A touch of `pile` at `t` is a hand that was there already as the video began."""
        return pile in self.hands_at and t < self.t + hand_there_frames(self.period) * self.period

    def laid_on(self, touched: dict[int, float]) -> set[int]:
        """The spit piles cards were laid on before the layout is read, to be ruled after it (the layout
        keeps what the tracker knows of them; the rest, `laid_over`, are read as they are now).
        `touched`: per spit pile, the first touch not judged yet (a hand still there, a card covered)."""
        self._laid_on_by_the_hand_there(touched)
        laid_on = {arrival.pile for arrival in self.early} | set(touched)
        self.forgotten = ({index for index, t in touched.items() if self.hand_there(t, index)} | {
            arrival.pile for arrival in self.early if self.hand_there(arrival.t, arrival.pile)}) - self._seen_under_the_hand()
        self.laid_over = {index for index in laid_on if self.first[Place("spit_pile", index)].card is None
                          and not self._unnamed_untouched(index)} | self.forgotten
        self.kept = laid_on - self.laid_over
        return self.kept

    def _seen_under_the_hand(self) -> set[int]:
        """Spit piles a hand was at as the video began whose top card the first frame named surely all the same."""
        return {index for index in self.hands_at if self.first[Place("spit_pile", index)].named_surely(SURE_FIRST_LOOK)}

    def _laid_on_by_the_hand_there(self, touched: dict[int, float]) -> None:
        """A card the hand already at a pile as the video began was seen laying, with cards laid there after it
        by hands come afresh: the pile starts with that card on top, as the first frame would have shown it
        without the hand, and the later cards are played on it (the clip of `referee_unseen` seed 216 from
        4.44 s: A's hand laid a `2H` in the first frames, left, and came back with an `AH`, which the layout
        then took in, unruled). `touched`: as `laid_on`'s."""
        for pile in (0, 1):
            there = [arrival for arrival in self.early if arrival.pile == pile and self.hand_there(arrival.t, pile)]
            later = [arrival.t for arrival in self.early if arrival.pile == pile and not self.hand_there(arrival.t, pile)]
            if pile in touched and not self.hand_there(touched[pile], pile):
                later.append(touched[pile])  # a touch not judged yet (the layout is read as that pile settles)
            if there and later and there[-1].card is not None and min(later) > there[-1].t:
                self.first[Place("spit_pile", pile)] = Reading(there[-1].card, confidence=there[-1].confidence)
                self.early = [arrival for arrival in self.early if arrival not in there]

    def under_later_cards(self, waiting: list[Arrival]) -> list[Arrival]:
        """Of the cards laid before the layout and still `waiting` to be ruled (covered by a later card before
        their pile settled, and the tops laid over them), those the hand already at a pile as the video began
        laid, named surely as it left, under cards hands come afresh laid there since: the pile starts with that
        card on top, as `_laid_on_by_the_hand_there` takes such a card seen laid, and the later cards are played
        on it (`all_at_once --after-touch`, seed 195's clip from 3.69 s: B's hand was laying the 6C on pile 0 as
        the clip opened, left, and B and A laid a 5H and a 5C there half a second on, before the pile settled;
        the layout took them in, unruled). `waiting` may hold cards not judged yet (their pile not settled since) and
        hands there still (their card unknown), in any order. Returns those cards, which are not to be ruled."""
        taken: list[Arrival] = []
        for pile in (0, 1):
            there = sorted((arrival for arrival in waiting if arrival.pile == pile and self.hand_there(arrival.t, pile)),
                           key=lambda arrival: arrival.t)
            later = [arrival.t for arrival in waiting if arrival.pile == pile and not self.hand_there(arrival.t, pile)]
            if not there or not later or min(later) <= there[-1].t:
                continue
            card = there[-1].card
            if card is not None and card.suit is not None and there[-1].confidence >= SURE_UNDER:
                self.first[Place("spit_pile", pile)] = Reading(card, confidence=there[-1].confidence)
                taken += there
        return taken

    def _unnamed_untouched(self, pile: int) -> bool:
        """The first frame showed something on `pile` it could not name, and it lay still, untouched, after."""
        return self.first[Place("spit_pile", pile)].face_down and pile in self.untouched

    def stalled(self) -> bool:
        """No stock top the first frame showed could be played on a spit pile top it showed (the stocks
        once read in the first frame), and no card seen laid fits the pile it was laid on (a player may hold a
        card picked up before the clip began)."""
        tops = [self.first[Place("spit_pile", index)].card for index in (0, 1)]
        stocks = [reading.card for place, reading in self.first.items() if place.kind == "stock" and reading.card is not None]
        # a card laid says the table was not stalled only on a pile it fits: one held that could be played would
        # have been played where it fits (a spit card laid at the re-spit may happen to fit the other pile)
        laid = [arrival for arrival in self.early if arrival.card is not None and not self.hand_there(arrival.t, arrival.pile)]
        return all(top is not None for top in tops) and not any(
            can_play_on(card, top) for card in stocks for top in tops) and not any(
            can_play_on(arrival.card, tops[arrival.pile]) for arrival in laid)

    def read(self, layout: LayoutRead, touched: dict[int, float]) -> tuple[LayoutRead, list[Arrival], dict[str, list[Card]]]:
        """The opening layout, its spit piles as the first frame showed them where cards were laid on
        them since (`kept` by `laid_on`, called first with the same `touched`), dated before the first
        touch on them; the cards laid before it, to rule after it; and per player the cards that left
        their stocks meanwhile, not naming one of those."""
        self.frame = layout.frame
        stalled = self.stalled()
        early = [arrival for arrival in self.early if arrival.pile in self.kept]
        self.early = []
        left = self._left_stocks(layout)
        early = [self._named(arrival, left) for arrival in early]
        if not self.kept:
            return layout, early, left
        first_touch = min([arrival.t for arrival in early] + [touched[index] for index in self.kept if index in touched])
        tops = tuple(self.first[Place("spit_pile", index)] if index in self.kept else layout.piles[index] for index in (0, 1))
        return replace(layout, t=max(self.t, first_touch - 0.001), piles=tops, looked_stalled=stalled), early, left

    def keep(self, sightings: Iterable[Sighting]) -> list[Sighting]:
        """`sightings` without what was laid before the layout on a pile a hand was at as the clip began:
        the layout took it (see the module). On a pile the first frame showed no card on, a card still to
        be judged then is ruled on what the layout read there."""
        return [sighting for sighting in sightings if not (
            isinstance(sighting, (Arrival, PileTouched)) and sighting.pile in self.forgotten and sighting.frame < self.frame)]

    def _left_stocks(self, layout: LayoutRead) -> dict[str, list[Card]]:
        """Per player, the stock tops the first frame showed surely and the layout shows nowhere (one moved
        to an empty slot has not left)."""
        left: dict[str, list[Card]] = {}
        for player, row in layout.stocks.items():
            showing = {reading.card for reading in row}
            for slot in range(len(row)):
                before = self.first.get(Place("stock", slot, player))
                if before is not None and before.named_surely(SURE_FIRST_LOOK) and before.card not in showing:
                    left.setdefault(player, []).append(before.card)
        return left

    @staticmethod
    def _named(arrival: Arrival, left: dict[str, list[Card]]) -> Arrival:
        """An unsure card named by the one card of its rank that left its player's stocks (which then
        names nothing else)."""
        if arrival.player is None or arrival.card is None:
            return arrival
        unsure = arrival.card.suit is None or arrival.confidence < NAMED_BY_ITS_STOCK_BELOW
        same_rank = [card for card in left.get(arrival.player, []) if card.rank == arrival.card.rank]
        if len(same_rank) != 1 or not (unsure or same_rank[0] == arrival.card):
            return arrival
        left[arrival.player].remove(same_rank[0])
        return replace(arrival, card=same_rank[0], confidence=max(arrival.confidence, 0.9))
