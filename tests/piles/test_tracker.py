"""The table tracker on drawn tables with known truth (white cards coded by colour, hands with arms)."""

import threading

import cv2
import numpy as np
import pytest

from referee.capture.frames import Frame
from referee.piles.places import SETTLE_FRAMES, PlaceChange, Visit
from referee.piles.quiet import QUIET_SECONDS, UNCOUNTED_SECONDS, UNTURNED_SECONDS
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, StockSeen, TableQuiet
from referee.piles.table_view import RectMM, TableView
from referee.piles.touch import TouchEstimate
from referee.piles.reading import Reading
from referee.piles.tracker import (
    LEFT_BEHIND_COVER, READ_PX_PER_MM, TURNING_DEPTH_MM, TableTracker, _fills_slot, _first_on_hand, _stocks_out, _unsure_guess,
    last_on_the_card,
)
from referee.piles.zones import Place
from referee.rules.cards import Card
from referee.table.layout import TableLayout
from referee.vision.recogniser import TopCardReading
from tests.piles.drawn_table import IMAGE_SIZE, SKIN_BGR, TABLE_BGR, ColourNamer, DrawnTable, PlainCalibration, card_colour

LAYOUT = TableLayout()
FPS = 30
PALE_WOOD_BGR = (200, 222, 232)
CREAM_BGR = (214, 228, 236)  # within 30 of a card's white in every channel: a card laid changes only its middle


def run(table: DrawnTable, seconds: float, fps: int = FPS, *, light_from: float | None = None, namer=None):
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, namer or ColourNamer(), fps=fps)
    rng = np.random.default_rng(1)
    sightings = []
    for index in range(int(seconds * fps)):
        t = index / fps
        table.light = 0.8 if light_from is not None and t >= light_from else 1.0
        sightings += tracker.step(Frame(index, t, table.frame(t, rng)))
    return sightings


def laid_out(a_row: tuple[str, ...] = ("6S", "KD", "2C", "JH", "8D")) -> DrawnTable:
    table = DrawnTable()
    table.lay(Card.parse("5H"), LAYOUT.spit_pile_centre(0))
    table.lay(Card.parse("9C"), LAYOUT.spit_pile_centre(1))
    for slot, card in enumerate(a_row):
        table.lay(Card.parse(card), LAYOUT.stock_centre("A", slot))
    for slot, card in enumerate(("4S", "QD", "3C", "10H", None)):
        table.lay(Card.parse(card) if card else None, LAYOUT.stock_centre("B", slot))
    return table


def test_the_first_frames_are_read_as_the_starting_layout_without_inventing_events():
    sightings = [s for s in run(laid_out(), 0.6) if not isinstance(s, TableQuiet)]
    assert len(sightings) == 1 and isinstance(sightings[0], LayoutRead)
    layout = sightings[0]
    assert [str(reading) for reading in layout.piles] == ["5H", "9C"]
    assert [str(reading) for reading in layout.stocks["A"][:5]] == ["6S", "KD", "2C", "JH", "8D"]
    assert [str(reading) for reading in layout.stocks["B"]] == ["4S", "QD", "3C", "10H", "back", "empty"]


@pytest.mark.parametrize("player, slot, pile, t_touch", [
    ("A", 0, 0, 1.013), ("A", 4, 1, 1.19), ("B", 0, 1, 1.09), ("B", 2, 0, 0.987), ("A", 2, 1, 1.0167),
])
def test_a_play_is_found_attributed_and_timed_below_a_third_of_a_frame(player, slot, pile, t_touch):
    # straight approaches come within a tenth of a frame; diagonal ones reach the outline's corner,
    # where the distance to it shrinks non-linearly, and come within about a quarter; a card first seen
    # barely over the pile (under SHALLOW_CONTACT_PX) is timed at that frame, up to a frame after its touch
    table = laid_out()
    card = {"A": ("6S", "KD", "2C", "JH", "8D"), "B": ("4S", "QD", "3C", "10H")}[player][slot]
    stock = LAYOUT.stock_centre(player, slot)
    table.play(player, Card.parse(card), stock, LAYOUT.spit_pile_centre(pile), t_touch=t_touch)
    sightings = run(table, 2.2)
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert len(arrivals) == 1
    arrival = arrivals[0]
    assert (arrival.player, arrival.pile, str(arrival.card)) == (player, pile, card)
    first_over = int(np.ceil(t_touch * FPS))
    assert abs(arrival.t - t_touch) < 1 / FPS / 3 or arrival.t == pytest.approx(first_over / FPS)
    assert arrival.frame == first_over
    departures = [s for s in sightings if isinstance(s, StockSeen)]
    assert [(s.player, s.slot, str(s.previous)) for s in departures] == [(player, slot, card)]


def test_two_cards_on_one_pile_a_frame_apart_are_both_found_in_order_and_named():
    table = laid_out()
    first = table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=1.0)
    table.play("A", Card.parse("JH"), LAYOUT.stock_centre("A", 3), first.final, t_touch=1.04)
    arrivals = [s for s in run(table, 2.5) if isinstance(s, Arrival)]
    assert [(a.player, str(a.card)) for a in sorted(arrivals, key=lambda a: a.t)] == [("B", "10H"), ("A", "JH")]
    # the second card is timed against the old top's outline while the first is still sliding into place:
    # good to about half a frame only
    assert all(abs(a.t - t) < 1 / FPS * 0.6 for a, t in zip(sorted(arrivals, key=lambda a: a.t), (1.0, 1.04)))


def test_a_change_of_light_is_not_a_play():
    sightings = run(laid_out(), 1.5, light_from=0.8)
    assert [type(s) for s in sightings if not isinstance(s, TableQuiet)] == [LayoutRead]


@pytest.mark.parametrize("rect, size", [(RectMM(300, 200, 360, 290), (180, 270)), (RectMM(0, 0, 800, 600), (400, 300))])
def test_crops_are_seen_from_above_with_a_at_the_bottom(rect, size):
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    image = np.zeros((IMAGE_SIZE[1], IMAGE_SIZE[0], 3), np.uint8)
    image[:, :, 2] = np.arange(IMAGE_SIZE[1])[:, None] // 3  # red grows towards B (y = H)
    scale = size[0] / (rect.x1 - rect.x0)
    crop = view.crop(image, rect, scale)
    assert crop.shape[:2] == (size[1], size[0])
    assert crop[0, :, 2].mean() > crop[-1, :, 2].mean()  # B's side on top, as seen from above


@pytest.mark.parametrize("wood", [TABLE_BGR, PALE_WOOD_BGR])
def test_a_table_cleared_and_laid_out_anew_with_no_hand_seen_is_read_as_a_new_layout(wood):
    # a video cut between rounds: the old cards vanish at 1.0 s, the next round's layout appears at 2.0 s;
    # on cream wood card paper tells nothing (the table is as pale and grey as the cards)
    table = DrawnTable(table=wood)
    old = [("5H", LAYOUT.spit_pile_centre(0)), ("9C", LAYOUT.spit_pile_centre(1))] + \
          [(card, LAYOUT.stock_centre("A", slot)) for slot, card in enumerate(("6S", "KD", "2C", "JH", "8D"))] + \
          [(card, LAYOUT.stock_centre("B", slot)) for slot, card in enumerate(("4S", "QD", "3C", "10H", "AS"))]
    for card, centre in old:
        table.lay(Card.parse(card), centre, t_until=1.0)
    new_a, new_b = ("7D", "QC", "3S", "9H", "2D"), ("KS", "5C", "JD", "4H", "10C")
    for slot in range(5):
        table.lay(Card.parse(new_a[slot]), LAYOUT.stock_centre("A", slot), t_from=2.0)
        table.lay(Card.parse(new_b[slot]), LAYOUT.stock_centre("B", slot), t_from=2.0)
    sightings = run(table, 3.0)
    kinds = [type(s).__name__ for s in sightings]
    assert kinds[0] == "LayoutRead" and "TableCleared" in kinds
    assert not [s for s in sightings if isinstance(s, StockSeen) and s.reading.card]  # the new cards are no turn-ups
    layouts = [s for s in sightings if isinstance(s, LayoutRead) and not s.first]
    assert len(layouts) == 1 and layouts[0].t >= 2.0
    assert [str(reading) for reading in layouts[0].stocks["A"][:5]] == list(new_a)
    assert [str(reading) for reading in layouts[0].stocks["B"][:5]] == list(new_b)
    assert [str(reading) for reading in layouts[0].piles] == ["empty", "empty"]


class BlinkingNamer(ColourNamer):
    """Cannot name `card` the first `misses` times it shows after the opening layout (a glare, a blur)."""

    def __init__(self, card: str, misses: int) -> None:
        super().__init__()
        self.card, self.misses, self.seen = Card.parse(card), misses, 0

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card:
            self.seen += 1
            if 1 < self.seen <= 1 + self.misses:  # the first sighting is the opening layout's
                return None, 0.0
        return card, confidence


@pytest.mark.parametrize("misses", [1, 2])
def test_a_new_top_not_named_at_first_is_still_found_with_its_touch_and_player(misses):
    # read again a few frames on, or else named by the card that left the stock: either way nothing is lost
    table = laid_out()
    table.play("A", Card.parse("6S"), LAYOUT.stock_centre("A", 0), LAYOUT.spit_pile_centre(0), t_touch=1.0)
    sightings = run(table, 2.4, namer=BlinkingNamer("6S", misses))
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card)) for a in arrivals] == [("A", 0, "6S")]
    assert abs(arrivals[0].t - 1.0) < 1 / FPS / 3


def test_a_card_covered_while_its_hand_lingers_over_the_stocks_is_ruled_before_the_card_over_it():
    # B lays 10H and its hand drifts back slowly over B's stocks (the stock is read late); A lays JH on it
    # 0.2 s later. The covered card is named by B's stock once it settles, and the two come out in touch
    # order, so the rules can say who touched first.
    table = laid_out()
    first = table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=1.0, back=2.2)
    table.play("A", Card.parse("JH"), LAYOUT.stock_centre("A", 3), first.final, t_touch=1.2)
    arrivals = [s for s in run(table, 4.5) if isinstance(s, Arrival)]
    assert [(a.player, str(a.card)) for a in arrivals] == [("B", "10H"), ("A", "JH")]
    assert abs(arrivals[0].t - 1.0) < 1 / FPS and abs(arrivals[1].t - 1.2) < 1 / FPS


def test_the_table_is_said_quiet_once_hands_have_left_the_stocks_and_piles_for_a_while():
    table = laid_out()
    move = table.play("A", Card.parse("6S"), LAYOUT.stock_centre("A", 0), LAYOUT.spit_pile_centre(0), t_touch=1.0)
    sightings = run(table, 3.6)
    quiet = [s for s in sightings if isinstance(s, TableQuiet) and not s.unturned and not s.uncounted]
    assert not [s for s in quiet if move.t_grab <= s.t < move.t_end]  # never while the hand is out
    assert len([s for s in quiet if s.t >= move.t_end]) == 1  # once after it, not every frame
    after = quiet[-1]
    assert after.t - move.t_end < 0.2 and after.frame / FPS >= after.t + QUIET_SECONDS
    # the face-down card left under the 6S is never turned up: said once more, later in the same spell
    unturned = [s for s in sightings if isinstance(s, TableQuiet) and s.unturned and not s.uncounted]
    assert [s.t for s in unturned] == [after.t] and unturned[0].frame / FPS >= after.t + UNTURNED_SECONDS
    # and once more, later still: stock counts known only as a least may be taken as they stand
    uncounted = [s for s in sightings if isinstance(s, TableQuiet) and s.uncounted]
    assert [(s.t, s.unturned) for s in uncounted] == [(after.t, True)] and uncounted[0].frame / FPS >= after.t + UNCOUNTED_SECONDS
    # the spell said to have lasted from UNTURNED_SECONDS on (stock tops read in doubt are then taken as read)
    assert not after.lasted and unturned[0].lasted and uncounted[0].lasted
    arrival = next(s for s in sightings if isinstance(s, Arrival))
    assert sightings.index(arrival) < sightings.index(after)


class FirstLookNamer(ColourNamer):
    """Cannot name `card` the first time it is read (a hand's shadow on it as the layout is read)."""

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card, self.seen = Card.parse(card), 0

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card:
            self.seen += 1
            if self.seen == 1:
                return None, 0.0
        return card, confidence


def test_a_stock_read_as_face_down_is_read_again_when_the_table_goes_quiet():
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, FirstLookNamer("JH"), fps=FPS)
    table, rng, sightings = laid_out(), np.random.default_rng(1), []
    for index in range(int(1.5 * FPS)):
        sightings += tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    layout = next(s for s in sightings if isinstance(s, LayoutRead))
    assert str(layout.stocks["A"][3]) == "back"
    seen = [s for s in sightings if isinstance(s, StockSeen)]
    assert [(s.player, s.slot, str(s.previous), str(s.reading), s.visited) for s in seen] == [("A", 3, "back", "JH", False)]
    quiet = next(s for s in sightings if isinstance(s, TableQuiet))
    assert seen[0].t == quiet.t and sightings.index(seen[0]) < sightings.index(quiet)


class DoubtfulFirstLookNamer(ColourNamer):
    """Names `card` as `first` (a doubtful, suitless reading, as a blurred court card gets) the first
    time, and rightly after that, unless `stays`."""

    def __init__(self, card: str, first: str, stays: bool = False) -> None:
        super().__init__()
        self.card, self.first, self.stays, self.seen = Card.parse(card), Card.parse(first), stays, 0

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card:
            self.seen += 1
            if self.seen == 1 or self.stays:
                return self.first, 0.45
        return card, confidence


@pytest.mark.parametrize("stays", [False, True])
def test_a_stock_named_doubtfully_is_read_again_when_the_table_goes_quiet(stays):
    """A queen read `K?` as the hand left it would let the referee see a play where there is none and
    hold a stall back; read again once the table is quiet, a surer reading replaces it (and a reading
    no surer than before leaves it be)."""
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, DoubtfulFirstLookNamer("JH", "K?", stays), fps=FPS)
    table, rng, sightings = laid_out(), np.random.default_rng(1), []
    for index in range(int(1.5 * FPS)):
        sightings += tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    layout = next(s for s in sightings if isinstance(s, LayoutRead))
    assert str(layout.stocks["A"][3]) == "K?"
    seen = [(s.player, s.slot, str(s.previous), str(s.reading)) for s in sightings if isinstance(s, StockSeen)]
    assert seen == ([] if stays else [("A", 3, "K?", "JH")])
    assert any(isinstance(s, TableQuiet) for s in sightings)


def test_places_follow_the_cards_where_the_players_laid_them_out():
    """Rows laid wide and deep, spit piles far apart: the tracker watches where the cards are, so the
    layout is read into the right slots and a play from an outer stock is found."""
    laid = TableLayout(stock_pitch=112, stock_row_inset=175, spit_offset=125)
    table = DrawnTable()
    table.lay(Card.parse("5H"), laid.spit_pile_centre(0))
    table.lay(Card.parse("9C"), laid.spit_pile_centre(1))
    for slot, card in enumerate(("6S", "KD", "2C", "JH", "8D")):
        table.lay(Card.parse(card), laid.stock_centre("A", slot))
    for slot, card in enumerate(("4S", "QD", "3C", "10H", "7C")):
        table.lay(Card.parse(card), laid.stock_centre("B", slot))
    table.play("B", Card.parse("10H"), laid.stock_centre("B", 3), laid.spit_pile_centre(1), t_touch=1.6)
    sightings = run(table, 2.6)
    layout = next(s for s in sightings if isinstance(s, LayoutRead))
    assert [str(reading) for reading in layout.stocks["A"][:5]] == ["6S", "KD", "2C", "JH", "8D"]
    assert [str(reading) for reading in layout.stocks["B"][:5]] == ["4S", "QD", "3C", "10H", "7C"]
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card)) for a in arrivals] == [("B", 1, "10H")]
    assert abs(arrivals[0].t - 1.6) < 0.5 / FPS


def test_a_pile_nudged_by_a_hand_is_no_play_and_the_next_card_is_timed_where_the_pile_now_lies():
    table = laid_out()
    pile = LAYOUT.spit_pile_centre(0)
    nudged = (pile[0] + 14.0, pile[1] - 9.0)
    top = next(lying for lying in table.lying if lying[1] == pile)
    top[3] = 1.0  # the 5H is pushed aside by A's hand at 1.0 s
    table.lay(Card.parse("5H"), nudged, t_from=1.0)
    table.play("A", Card.parse("AS"), LAYOUT.stock_centre("A", 2), pile, t_touch=1.0, slap=True)  # a hand, no card
    table.play("B", Card.parse("4S"), LAYOUT.stock_centre("B", 0), nudged, t_touch=2.2)
    sightings = run(table, 3.2)
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card)) for a in arrivals] == [("B", 0, "4S")]
    assert abs(arrivals[0].t - 2.2) < 1 / FPS / 3


class OutlineNamer(ColourNamer):
    """A colour namer that also takes the outline the tracker saw a card land in, and keeps it."""

    def __init__(self) -> None:
        super().__init__()
        self.outlines: list[tuple[np.ndarray, tuple[int, int]]] = []
        self.whole_card: list[bool] = []  # per outline: told a whole card lies there (a stock slot)

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        if outline is not None:
            self.outlines.append((np.asarray(outline), crop.shape[:2]))
            self.whole_card.append(whole_card)
        card, confidence = self.name_top_card(crop)
        return TopCardReading(card, confidence)


def test_the_namer_is_told_where_the_card_laid_on_a_pile_lies_in_its_crop():
    # laid on a bare place, the whole card is the change: its outline is known to the view's pixel
    table = laid_out()
    table.lying = [lying for lying in table.lying if lying[1] != LAYOUT.spit_pile_centre(1)]
    move = table.play("A", Card.parse("2C"), LAYOUT.stock_centre("A", 2), LAYOUT.spit_pile_centre(1), t_touch=1.0)
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    namer = OutlineNamer()
    tracker = TableTracker(view, namer, fps=FPS)
    rng = np.random.default_rng(1)
    for index in range(int(2.2 * FPS)):
        tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    pile = tracker.places[Place("spit_pile", 1)]
    where = TableView.in_crop(np.array([move.final]), pile.rect, READ_PX_PER_MM)[0]
    laid = [outline for outline, _ in namer.outlines if np.hypot(*(outline.mean(axis=0) - where)) < 1.5 * READ_PX_PER_MM]
    assert laid, f"no outline near the card's centre {where}: {[o.mean(axis=0) for o, _ in namer.outlines]}"
    # a pile's outline may be off its top card: it is not given as a whole card's (only a stock slot's is)
    assert not any(whole for (outline, _), whole in zip(namer.outlines, namer.whole_card)
                   if np.hypot(*(outline.mean(axis=0) - where)) < 1.5 * READ_PX_PER_MM)
    sides = sorted(float(np.hypot(*(laid[0][i] - laid[0][(i + 1) % 4]))) for i in range(4))
    assert abs(sides[0] / (63 * READ_PX_PER_MM) - 1) < 0.1 and abs(sides[-1] / (88 * READ_PX_PER_MM) - 1) < 0.1


class FindingNamer(ColourNamer):
    """A colour namer that says where it found the card: a card's outline around its coloured middle."""

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        card, confidence = self.name_top_card(crop)
        if card is None:
            return TopCardReading(None, 0.0)
        rows, cols = np.nonzero(np.all(np.abs(crop.astype(np.int32) - card_colour(card)) < 14, axis=2))
        x, y, half_w, half_h = cols.mean(), rows.mean(), 31.5 * px_per_mm, 44.0 * px_per_mm
        corners = np.array([[x - half_w, y - half_h], [x + half_w, y - half_h], [x + half_w, y + half_h], [x - half_w, y + half_h]])
        return TopCardReading(card, confidence, outline=corners.astype(np.float32))


def found_where_read(table: DrawnTable, seconds: float) -> tuple[TableTracker, list[Arrival]]:
    """The tracker after `seconds` of `table` with a namer that says where it found each card, and the cards seen laid."""
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, FindingNamer(), fps=FPS)
    rng = np.random.default_rng(1)
    arrivals = []
    for index in range(int(seconds * FPS)):
        arrivals += [s for s in tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng))) if isinstance(s, Arrival)]
    return tracker, arrivals


@pytest.mark.parametrize("off", [(16.0, 0.0), (-12.0, 10.0)])
def test_on_a_cream_cloth_a_pile_s_outline_is_its_top_card_where_the_recogniser_found_it(off):
    """A cream cloth is as pale and grey as card paper: the paper around a change outlines the whole table,
    and a card's size in its middle is only a guess (PAPER_PATCH_CARDS). The card read there is where the
    recogniser found it, and the next card's touch is timed against that."""
    table = DrawnTable(table=CREAM_BGR)
    table.lying = laid_out().lying
    pile = LAYOUT.spit_pile_centre(1)
    move = table.play("A", Card.parse("2C"), LAYOUT.stock_centre("A", 2), (pile[0] + off[0], pile[1] + off[1]), t_touch=1.0)
    tracker, arrivals = found_where_read(table, 2.2)
    assert [str(arrival.card) for arrival in arrivals] == ["2C"]
    place = tracker.places[Place("spit_pile", 1)]
    assert place.outlined
    corners = place.card_corners_mm(place.footprint)
    assert corners is not None
    assert np.hypot(*(corners.mean(axis=0) - move.final)) < 2.5  # a view pixel and a bit


def test_a_card_laid_nearly_square_on_a_like_card_is_outlined_where_the_recogniser_found_it():
    """An 8C laid 3 mm off the 9C on top, its face of a like colour: too few pixels change for the pile to
    have changed (CHANGED_FRACTION), yet the touch read a new card: the pile's outline is where that card
    was found, not the 9C's any more (90 kept replays: the 101 plays timed otherwise, 0.40 -> 0.33 frame)."""
    table = laid_out()
    pile = LAYOUT.spit_pile_centre(1)  # the 9C lies there
    table.lay(Card.parse("8C"), LAYOUT.stock_centre("A", 2))
    move = table.play("A", Card.parse("8C"), LAYOUT.stock_centre("A", 2), (pile[0], pile[1] + 4), t_touch=1.0)
    tracker, arrivals = found_where_read(table, 2.2)
    assert [str(arrival.card) for arrival in arrivals] == ["8C"]
    place = tracker.places[Place("spit_pile", 1)]
    corners = place.card_corners_mm(place.footprint)
    assert corners is not None
    centre = corners.mean(axis=0)
    assert np.hypot(*(centre - move.final)) < 1.5 < np.hypot(*(centre - pile))


def test_the_opening_layout_is_read_at_the_outlines_the_cards_settled_on():
    """A layout is read at the card outlines its places settled on, not searched for (a search of each of
    14 places held the layout's frame up for a third of a second); stock slots the cards fill as whole cards."""
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    namer = OutlineNamer()
    tracker = TableTracker(view, namer, fps=FPS)
    table, rng = laid_out(), np.random.default_rng(1)
    layouts = []
    for index in range(int(0.6 * FPS)):
        layouts += [s for s in tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng))) if isinstance(s, LayoutRead)]
    assert len(layouts) == 1 and [str(reading) for reading in layouts[0].piles] == ["5H", "9C"]
    centres = {place: TableView.in_crop(np.array([centre]), tracker.places[place].rect, READ_PX_PER_MM)[0]
               for place, centre in [(Place("stock", slot, "A"), LAYOUT.stock_centre("A", slot)) for slot in range(5)]
               + [(Place("spit_pile", pile), LAYOUT.spit_pile_centre(pile)) for pile in (0, 1)]}
    for place, centre in centres.items():
        assert any(np.hypot(*(outline.mean(axis=0) - centre)) < 2 * READ_PX_PER_MM for outline, _ in namer.outlines), place
    assert sum(namer.whole_card) >= 5  # A's five stock cards at least


@pytest.mark.parametrize("ends", [1.2, 1.3, 1.4])
def test_a_card_laid_as_the_video_ends_is_ruled_while_its_hand_draws_back(ends):
    # the card lies still from 1.1 s; the hand draws back over the next 0.35 s, near the pile all along
    table = laid_out()
    table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=1.0)
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, ColourNamer(), fps=FPS)
    rng = np.random.default_rng(1)
    sightings = []
    for index in range(int(ends * FPS)):
        sightings += tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    sightings += tracker.finish()
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card)) for a in arrivals] == [("B", 1, "10H")]
    assert abs(arrivals[0].t - 1.0) < 1 / FPS / 2


def played_until(ends: float, **move) -> tuple[TableTracker, list]:
    """B's 10H laid on spit pile 1 at 1 s, the video ending at `ends` s: the tracker and its sightings before `finish`."""
    table = laid_out()
    table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=1.0, **move)
    tracker = TableTracker(TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE), ColourNamer(), fps=FPS)
    rng = np.random.default_rng(1)
    sightings = []
    for index in range(int(ends * FPS)):
        sightings += tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    return tracker, sightings


@pytest.mark.parametrize("ends", [1.15, 1.2, 1.3])
def test_a_card_laid_as_the_video_ends_is_ruled_while_its_hand_still_lies_on_it(ends):
    # a clip cut a few frames after a play: the hand holds the card on the pile until 1.3 s; the card
    # cannot be read under it, and the card gone from B's stock names it
    tracker, sightings = played_until(ends, settle=0.3)
    place = tracker.places[Place("spit_pile", 1)]
    assert place.visits and place.covered_by(tracker.last_masks.owned["B"]) > LEFT_BEHIND_COVER
    sightings += tracker.finish()
    whole = [s for s in played_until(2.0, settle=0.3)[1] if isinstance(s, Arrival)]  # the video running on
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card), a.t) for a in arrivals] == [(a.player, a.pile, str(a.card), a.t) for a in whole]
    assert [(a.player, a.pile, str(a.card)) for a in whole] == [("B", 1, "10H")]
    assert not [s for s in sightings if isinstance(s, PileTouched)]


@pytest.mark.parametrize("t_touch, duration", [(0.3, 0.25), (0.5, 0.45)])
def test_a_card_laid_before_the_layout_is_read_is_a_play_on_the_top_the_first_frame_showed(t_touch, duration):
    # a clip cut mid-game, opening as a hand reaches for a pile: the layout is read once the places are
    # still, and the card laid before then is ruled after it, on the top the first frame showed
    table = laid_out()
    table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=t_touch, duration=duration)
    sightings = [s for s in run(table, 1.6) if not isinstance(s, TableQuiet)]
    assert [type(s) for s in sightings] == [LayoutRead, Arrival]
    layout, arrival = sightings
    assert [str(reading) for reading in layout.piles] == ["5H", "9C"]
    assert str(layout.stocks["B"][3]) == "empty"  # the card had left it by then
    assert (arrival.player, arrival.pile, str(arrival.card)) == ("B", 1, "10H")
    assert abs(arrival.t - t_touch) < 1 / FPS / 2
    assert layout.t < arrival.t and arrival.frame < layout.frame


def test_a_pile_only_touched_before_the_layout_is_read_is_no_play():
    table = laid_out()
    table.play("A", None, LAYOUT.stock_centre("A", 4), LAYOUT.spit_pile_centre(0), t_touch=0.4, duration=0.36, slap=True)
    sightings = [s for s in run(table, 1.6) if not isinstance(s, (TableQuiet, StockSeen))]
    assert [type(s) for s in sightings] == [LayoutRead]
    assert [str(reading) for reading in sightings[0].piles] == ["5H", "9C"]


@pytest.mark.parametrize("t_touch", [0.03, 0.07, 0.12, 0.2])
def test_a_card_laid_as_the_clip_begins_on_a_top_the_first_frame_named_is_a_play_on_it(t_touch):
    # the hand is in the first frame, part of the table model until it moves: a touch within HAND_THERE_FRAMES of
    # the first frame is that hand seen moving, not the card's landing timed; but the first frame named the 9C
    # under it surely, so the 10H laid there since is a play on it (`opening.SURE_FIRST_LOOK`)
    table = laid_out()
    table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=t_touch)
    sightings = [s for s in run(table, 1.6) if not isinstance(s, TableQuiet)]
    layout = sightings[0]
    assert isinstance(layout, LayoutRead)
    assert [str(reading) for reading in layout.piles] == ["5H", "9C"]
    assert [(s.player, str(s.card)) for s in sightings[1:]] == [("B", "10H")]


class BlindAtFirst(ColourNamer):
    """Names nothing in the first frame (its two spit piles, under the hands there as the clip opens)."""

    def name_top_card(self, image: np.ndarray):
        if self.calls < 2:
            self.calls += 1
            return None, 0.0
        return super().name_top_card(image)


def test_cards_laid_over_the_card_the_hand_there_laid_as_the_clip_began_are_played_on_it():
    # `all_at_once --after-touch`, seed 195's and 173's clips: B's hand was laying its card as the clip opened, the
    # first frame could not read the pile under it; A and B laid two more there before the pile settled. The card B's
    # hand left is the pile's top as the clip began, and the two later cards are plays on it
    table = laid_out()
    table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=0.03)
    table.play("A", Card.parse("JH"), LAYOUT.stock_centre("A", 3), LAYOUT.spit_pile_centre(1), t_touch=0.6)
    table.play("B", Card.parse("QD"), LAYOUT.stock_centre("B", 1), LAYOUT.spit_pile_centre(1), t_touch=0.75, duration=0.25)
    sightings = run(table, 2.2, namer=BlindAtFirst())
    sightings = [s for s in sightings if isinstance(s, (LayoutRead, Arrival, PileTouched))]
    layout = sightings[0]
    assert isinstance(layout, LayoutRead)
    assert [str(reading) for reading in layout.piles] == ["5H", "10H"]
    assert [(s.player, str(s.card)) for s in sightings[1:]] == [("A", "JH"), ("B", "QD")]


def laid_out_and_read(namer):
    """A laid-out table, its top-down view, and a tracker naming cards with `namer` that has read its layout."""
    table = laid_out()
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, namer, fps=FPS)
    rng = np.random.default_rng(1)
    for index in range(15):  # the layout is read
        tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    return table, view, tracker


def pile_one_read(namer):
    """`laid_out_and_read(namer)`'s table and tracker, its spit pile 1 and that pile's tracker; the pile read `9C`."""
    table, _, tracker = laid_out_and_read(namer)
    pile = Place("spit_pile", 1)
    assert str(tracker.readings[pile].card) == "9C"
    return table, tracker, pile, tracker.places[pile]


class SuitLosingNamer(ColourNamer):
    """Reads `card` without its suit (`9?`) while `blurred` says so."""

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card, self.blurred = Card.parse(card), True

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card and self.blurred:
            return Card(card.rank, None), confidence
        return card, confidence


class SuitSeenOnce(ColourNamer):
    """Names `card` by its rank alone (`9?`) but in the calls of `clear` (1 the first), suit and all."""

    def __init__(self, card: str, clear: range) -> None:
        super().__init__()
        self.card, self.clear = Card.parse(card), clear

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card and self.calls not in self.clear:
            return Card(card.rank, None), confidence
        return card, confidence


@pytest.mark.parametrize("clear, named", [(range(3, 5), "9C"), (range(0), "9?")])
def test_a_pile_top_named_by_its_rank_alone_is_named_as_a_look_before_the_layout_named_it(clear, named):
    # `all_at_once` seed 233's clip from 12.28 s: the first frame and the layout read pile 1 `Q?`, the frames between
    # `QS`; the play on it was ruled "on Q?". A pile no hand touched since the first frame is read again until the
    # layout while it is named by its rank alone (`_look_again_at_the_piles`)
    table = laid_out()
    table.play("A", Card.parse("10H"), LAYOUT.stock_centre("A", 1), LAYOUT.spit_pile_centre(1), t_touch=0.7)
    sightings = run(table, 1.6, namer=SuitSeenOnce("9C", clear))
    layout = next(s for s in sightings if isinstance(s, LayoutRead))
    assert [str(reading) for reading in layout.piles] == ["5H", named]
    assert [(s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)] == [("A", "10H")]


class SecondLookNamer(ColourNamer):
    """Once `armed`, names the first pile it is asked about surely (as it settles), and every later one as
    `second` (card, confidence) -> (card, confidence) has it: the snapshots of the hands that left it."""

    def __init__(self, second) -> None:
        super().__init__()
        self.second, self.armed, self.seen = second, False, 0

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if self.armed:
            self.seen += 1
            if self.seen > 1:
                return self.second(card, confidence)
        return card, confidence


@pytest.mark.parametrize("snapshot, departure, expected", [
    # B's snapshot read A's JH in its first blur as `J?`: taken for B's own card, it was ruled as B laying a jack
    (lambda card, confidence: (Card(card.rank, None), confidence), None, []),
    # read as a `QD` at 0.35: too unsure to name a card no stock was seen to lose
    (lambda card, confidence: (Card.parse("QD"), 0.35), None, []),
    # the card that left B's stock names it
    (lambda card, confidence: (Card.parse("QD"), 0.35), "8D", [("B", "8D")]),
], ids=["new_top_by_rank", "unsure", "unsure_stock_lost_8D"])
def test_a_covered_hand_whose_snapshot_shows_the_new_top_by_its_rank_or_unsurely_is_left_to_its_stock(snapshot, departure, expected):
    # seed 171 of `all_at_once` and its clip from 15.37 s: B's hand lifted its 10C back as A laid JC; B's
    # snapshot, as its hand left, read the pile as `J?` (A's jack in a blur), or as `Q?` at 0.31
    namer = SecondLookNamer(snapshot)
    table, view, tracker = laid_out_and_read(namer)
    pile = Place("spit_pile", 1)
    place = tracker.places[pile]
    table.lay(Card.parse("JH"), LAYOUT.spit_pile_centre(1), t_from=1.0)
    after = table.frame(1.5)
    if departure:
        tracker.covered.left_stock("B", 0.9, Card.parse(departure), 0.4)
    namer.armed = True
    b_lifting = Visit("B", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=8,
                      snapshot=view.crop(after, place.rect, READ_PX_PER_MM))
    a_laying = Visit("A", 25, touch=TouchEstimate(0.98, 30, 0.01), frames_in_contact=4, brought_card=True,
                     snapshot=view.crop(after, place.rect, READ_PX_PER_MM))
    change = PlaceChange(place.place, 45, 1.5, True, (b_lifting, a_laying), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(45, 1.5, after))
    sightings += tracker._name_covered(3.0)
    assert namer.seen >= 2
    assert [(s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)] == expected + [("A", "JH")]
    assert [(s.player, s.pile) for s in sightings if isinstance(s, PileTouched)] == ([] if departure else [("B", 1)])


@pytest.mark.parametrize("by_rank_alone, expected", [
    (False, [("A", "JH")]),               # B's snapshot shows the 9C that lay there: B's arm passed over the pile
    (True, [("B", "8D"), ("A", "JH")]),   # it shows `9?` where `9?` lay: too little to say; B's stock lost an 8D
])
def test_a_hand_whose_snapshot_shows_the_top_it_found_laid_nothing_there_unless_read_by_rank_alone(by_rank_alone, expected):
    # racing: B's arm crossed pile 1 on its way to pile 0 and was gone before A laid JH on pile 1; the pile
    # settles once, with both hands' touches. B's snapshot, taken as its hand left, shows 9C still on top.
    # Read by its rank alone it proves nothing: seed 171 of `all_at_once`, B laid its AS, A's QH over it at
    # once, and B's snapshot read the QH in its first blur as `K?`, the spit `K?` there before
    namer = SuitLosingNamer("9C")
    namer.blurred = by_rank_alone
    table, view, tracker = laid_out_and_read(namer)
    pile = Place("spit_pile", 1)
    place = tracker.places[pile]
    before = view.crop(table.frame(0.5), place.rect, READ_PX_PER_MM)
    table.lay(Card.parse("JH"), LAYOUT.spit_pile_centre(1), t_from=1.0)
    after = table.frame(1.5)
    tracker.covered.left_stock("B", 0.9, Card.parse("8D"), 0.4)
    b_laying = Visit("B", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=3, snapshot=before)
    a_laying = Visit("A", 25, touch=TouchEstimate(0.98, 30, 0.01), frames_in_contact=4,
                     snapshot=view.crop(after, place.rect, READ_PX_PER_MM))
    change = PlaceChange(place.place, 45, 1.5, True, (b_laying, a_laying), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(45, 1.5, after))
    sightings += tracker._name_covered(3.0)
    assert [(s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)] == expected


@pytest.mark.parametrize("suit_first", [False, True])
def test_the_card_on_top_read_again_with_or_without_its_suit_is_a_touch_not_a_card_laid(suit_first):
    # pile 1's 9C read as `9?` (or as 9C, and `9?` under the hand's next visit): an arm passes over it (seen
    # in parallax, a real camera's view of a raised arm) and the unchanged pile is read again. Taken for a card
    # laid, it made that hand's touch of pile 0 a moment later look like an arm reaching across to pile 1,
    # and the card it laid on pile 0 went unruled.
    namer = SuitLosingNamer("9C")
    namer.blurred = not suit_first
    table, view, tracker = laid_out_and_read(namer)
    pile = Place("spit_pile", 1)
    place = tracker.places[pile]
    assert str(tracker.readings[pile].card) == ("9C" if suit_first else "9?")
    namer.blurred = suit_first
    passing = Visit("A", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=2)
    change = PlaceChange(place.place, 35, 1.2, False, (passing,), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(35, 1.2, table.frame(1.2)))
    assert [type(s) for s in sightings] == [PileTouched] and sightings[0].player == "A"
    assert not tracker.covered.laid  # no card laid here to make A's next touch elsewhere an arm passing over
    assert str(tracker.readings[pile].card) == "9C"  # the suit read is kept


class ReadAsNamer(ColourNamer):
    """Reads `card` as `reading` while `misread` says so."""

    def __init__(self, card: str, reading: str) -> None:
        super().__init__()
        self.card, self.reading, self.misread = Card.parse(card), Card.parse(reading), False

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card and self.misread:
            return self.reading, confidence * 0.5
        return card, confidence


@pytest.mark.parametrize("reading, laid", [("9?", False), ("9S", False), ("10C", True)])
def test_a_pile_no_hand_touched_read_with_its_rank_is_its_card_read_again(reading, laid):
    # seed 194 (a dimmed lamp): pile 0's picture changed with no hand near it, and its `QS` was read `QC` at
    # 0.42 (its `JS`, `J?`): each was ruled a card laid by nobody seen, on its own rank. A card is not laid
    # without a hand; another rank appearing so is still a card (the hand hidden, or its frames dropped).
    namer = ReadAsNamer("9C", reading)
    table, tracker, pile, place = pile_one_read(namer)
    namer.misread = True
    change = PlaceChange(place.place, 35, 1.2, True, (), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(35, 1.2, table.frame(1.2)))
    assert [str(s.card) for s in sightings if isinstance(s, Arrival)] == ([reading] if laid else [])
    assert str(tracker.readings[pile].card) == (reading if laid else "9C")


def test_a_pile_held_for_the_other_as_the_video_ends_is_judged_with_it():
    # `all_at_once` seed 232's clip: B's KS settled on pile 1 a frame before the video ended, held for pile 0,
    # where B's hand still lay; the video ended and the KS was never judged
    namer = ReadAsNamer("9C", "10C")
    table, tracker, pile, place = pile_one_read(namer)
    namer.misread = True
    laying = Visit("B", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=3, brought_card=True, card_seen=True)
    change = PlaceChange(place.place, 35, 1.2, True, (laying,), place.footprint.copy(), place.padded)
    assert tracker.held.judge_together([(pile, change)], busy={Place("spit_pile", 0)}) == [] and pile in tracker.held
    sightings = tracker.finish()
    assert [(s.player, s.pile, str(s.card)) for s in sightings if isinstance(s, Arrival)] == [("B", 1, "10C")]
    assert not tracker.held


class DoublingNamer(ColourNamer):
    """While `doubling`, reads the pile's `card` again, doubting it for `doubt` (card, chance) pairs."""

    def __init__(self, card: str, doubt: tuple) -> None:
        super().__init__()
        self.card, self.doubt, self.doubling = Card.parse(card), tuple((Card.parse(c), p) for c, p in doubt), False

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        card, confidence = self.name_top_card(crop)
        if card == self.card and self.doubling:
            return TopCardReading(card, 0.63, ((card, 0.63),) + self.doubt)
        return TopCardReading(card, confidence, ((card, confidence),) if card is not None else ())


@pytest.mark.parametrize("brought, changed, doubt, contact, expected", [
    (True, True, (("10C", 0.18), ("8C", 0.06)), 3, ["10C"]),  # laid over its double: the likeliest other card
    (True, True, (("10C", 0.06),), 3, []),                     # no other card believed in: the hand's touch alone
    (False, True, (("10C", 0.18),), 3, []),                    # no card in the hand: a nudge, not a card laid
    (True, False, (("10C", 0.18),), 3, []),                    # the picture did not change: nothing laid
    (True, True, (("10C", 0.18),), 12, []),                    # held the pile 0.4 s: lifting its own card back
])
def test_a_card_laid_that_reads_as_the_card_under_it_is_the_reading_s_next_likeliest(brought, changed, doubt, contact, expected):
    # `all_at_once` seed 303: A's hand brought its `KH` to the `QH` on pile 0, and the new top read `QH` again
    # (0.63, `KH` 0.18): ruled a touch, the play was lost and the next card judged on the `QH`
    namer = DoublingNamer("9C", doubt)
    table, tracker, pile, place = pile_one_read(namer)
    namer.doubling = True
    laying = Visit("A", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=contact, brought_card=brought, card_seen=brought)
    change = PlaceChange(place.place, 35, 1.2, changed, (laying,), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(35, 1.2, table.frame(1.2)))
    assert [(s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)] == [("A", card) for card in expected]
    if not expected:
        assert [type(s) for s in sightings] == [PileTouched]
    assert str(tracker.readings[pile].card) == "9C"  # the pile stays read as it is: the same picture is no new card


class RankOnlyDoublingNamer(DoublingNamer):
    """`DoublingNamer`, reading its card by the rank alone (`9?`) while `doubling`."""

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        read = super().read_top_card(crop, px_per_mm, outline, whole_card)
        if read.card == self.card and self.doubling:
            return TopCardReading(Card(self.card.rank, None), 0.45, read.alternatives[1:])
        return read


@pytest.mark.parametrize("brought, expected", [(True, ["10C"]), (False, [])])
def test_a_card_laid_on_a_top_read_by_its_rank_alone_that_reads_the_same_is_the_reading_s_next_likeliest(brought, expected):
    # `all_at_once` seed 171: B's re-spit `KD`, read `Q?`, lay under A's `QH`, which read `Q?` again (`QD` 0.16,
    # `KD` 0.14, `QH` 0.12): the same reading, so no card was laid, and B's `AS` under it and the `QH` were lost
    namer = RankOnlyDoublingNamer("9C", (("10C", 0.18), ("8C", 0.06)))
    table, tracker, pile, place = pile_one_read(namer)
    namer.doubling = True
    tracker.readings[pile] = Reading(Card("9", None), False, 0.45)
    laying = Visit("A", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=3, brought_card=brought, card_seen=brought)
    change = PlaceChange(place.place, 35, 1.2, True, (laying,), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(35, 1.2, table.frame(1.2)))
    assert [(s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)] == [("A", card) for card in expected]
    assert str(tracker.readings[pile].card) == "9?"


class TornNamer(ColourNamer):
    """Reads the pile's `card` torn between it and `other` (0.46 and `first_doubt`); once `flipped`, as `other`
    (0.40), giving `card` `then_doubt`."""

    def __init__(self, card: str, other: str, first_doubt: float, then_doubt: float) -> None:
        super().__init__()
        self.card, self.other, self.flipped = Card.parse(card), Card.parse(other), False
        self.first_doubt, self.then_doubt = first_doubt, then_doubt

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        card, confidence = self.name_top_card(crop)
        if card != self.card:
            return TopCardReading(card, confidence, ((card, confidence),) if card is not None else ())
        if self.flipped:
            return TopCardReading(self.other, 0.40, ((self.other, 0.40), (card, self.then_doubt)))
        return TopCardReading(card, 0.46, ((card, 0.46), (self.other, self.first_doubt)))


@pytest.mark.parametrize("first_doubt, then_doubt, changed, laid", [
    (0.31, 0.32, False, False),  # torn between the two both times: the same card read the other way
    (0.31, 0.32, True, True),    # ... but the picture changed: a card was laid
    (0.02, 0.32, False, True),   # read surely before: another card now
    (0.31, 0.02, False, True),   # read surely now: another card
])
def test_a_pile_read_the_other_way_between_two_cards_under_a_passing_hand_is_its_card_read_again(first_doubt, then_doubt, changed, laid):
    # a `dondorf` spit `JH` read `QH` (0.46, `JH` 0.31); B's hand, laying on the other pile, grazed this one,
    # and its unchanged picture read `JH` (0.40, `QH` 0.32): taken for a `JH` laid, the card B laid on the
    # other pile was named by it and the plays after judged on the wrong tops
    namer = TornNamer("9C", "10C", first_doubt, then_doubt)
    table, tracker, pile, place = pile_one_read(namer)
    namer.flipped = True
    passing = Visit("B", 20, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=1, brought_card=True, card_seen=True)
    change = PlaceChange(place.place, 35, 1.2, changed, (passing,), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(35, 1.2, table.frame(1.2)))
    assert [str(s.card) for s in sightings if isinstance(s, Arrival)] == (["10C"] if laid else [])
    assert str(tracker.readings[pile].card) == ("10C" if laid else "9C")


@pytest.mark.parametrize("card, confidence, paper_before, contact, expected", [
    ("QD", 0.42, True, 3, True),    # read unsurely, by a hand that came with card paper: kept to name it
    ("QD", 0.42, False, 3, False),  # card paper only after the touch: a hand lifting its own card back
    ("QD", 0.42, True, 12, False),  # held the pile 0.4 s: lifting a card back, whatever it brought
    ("Q?", 0.42, True, 3, False),   # by its rank alone
    ("QD", 0.2, True, 3, False),    # too unsure to be a card at all
    ("JH", 0.42, True, 3, False),   # the card the hand found there
    ("10H", 0.42, True, 3, False),  # the card on top now: the other hand's
])
def test_an_unsure_snapshot_is_kept_as_a_guess_only_for_a_hand_that_came_to_lay_a_card(card, confidence, paper_before, contact, expected):
    paper = np.ones((4, 4), np.uint8)
    cards = [(20, 0.66, paper), (22, 0.73, paper)] if paper_before else [(24, 0.80, paper)]
    visit = Visit("B", 18, touch=TouchEstimate(0.70, 21, 0.01), frames_in_contact=contact, cards=cards)
    guess = _unsure_guess(Card.parse(card), confidence, visit, Reading(Card.parse("JH")), Reading(Card.parse("10H")), 1 / 30)
    assert guess == ((Card.parse(card), confidence) if expected else None)


def test_a_hand_whose_card_the_layout_read_as_the_top_did_lay_it():
    # a clip opening as A lays JH on pile 1: the first frame showed no card there, so the layout, read after
    # A's touch, took JH as pile 1's top; B's QS covered it before it settled. A's snapshot shows JH, the
    # top the layout read: A's own card, not a top A's arm passed over
    table, view, tracker = laid_out_and_read(ColourNamer())
    pile = Place("spit_pile", 1)
    place = tracker.places[pile]
    table.lay(Card.parse("JH"), LAYOUT.spit_pile_centre(1), t_from=0.8)
    laid = table.frame(1.3)
    tracker._read_layout(Frame(39, 1.3, laid), first=False, keep_piles={0})
    table.lay(Card.parse("QS"), LAYOUT.spit_pile_centre(1), t_from=1.6)
    after = table.frame(2.0)
    a_laying = Visit("A", 20, touch=TouchEstimate(0.8, 24, 0.01), frames_in_contact=3,
                     snapshot=view.crop(laid, place.rect, READ_PX_PER_MM))
    b_laying = Visit("B", 44, touch=TouchEstimate(1.6, 48, 0.01), frames_in_contact=4,
                     snapshot=view.crop(after, place.rect, READ_PX_PER_MM))
    change = PlaceChange(place.place, 60, 2.0, True, (a_laying, b_laying), place.footprint.copy(), place.padded)
    sightings = tracker._judge([(pile, change)], Frame(60, 2.0, after))
    sightings += tracker._name_covered(4.0)
    assert sorted((s.player, str(s.card)) for s in sightings if isinstance(s, Arrival)) == [("A", "JH"), ("B", "QS")]


@pytest.mark.parametrize("turned, shift, fills", [(0.0, (0.0, 0.0), True), (4.0, (3.0, -2.0), True),
                                                  (0.0, (12.0, 0.0), True), (30.0, (0.0, 0.0), True),
                                                  (30.0, (20.0, 0.0), False), (0.0, (20.0, 0.0), False)])
def test_a_stock_outline_is_a_whole_card_s_only_where_it_covers_its_slot(turned, shift, fills):
    """A card just put down askew, or outlined in motion, may be outlined off the card: its outline showing
    no face says nothing of a card's back there (recogniser.NO_FACE_BELOW). A card left a centimetre from
    the slot's middle, or turned in it, is still where a whole card lies."""
    slot = RectMM.around((200.0, 60.0), 63.0, 88.0)
    centre = (200.0 + shift[0], 60.0 + shift[1])
    corners = cv2.boxPoints((centre, (63.0, 88.0), turned))
    assert _fills_slot(corners, slot) is fills


class AskedNamer(ColourNamer):
    """Notes, for each card it names, the frame and place it was asked about and the thread that asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[int | None, object, str, str]] = []

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        self.asked.append((None, None, threading.current_thread().name, str(card)))
        return card, confidence

    def name_top_card_in(self, frame, rect, image, outline=None, whole_card=False):
        card, confidence = super().name_top_card(image)
        self.asked.append((frame, rect, threading.current_thread().name, str(card)))
        return card, confidence


@pytest.mark.parametrize("ahead", [False, True])
def test_a_settling_pile_is_read_from_its_first_still_frame_ahead_on_a_reader_when_live(ahead):
    """Live, the card laid is read on a reader from the pile's first still frame, while the frames up to its
    settling are tracked, and the frame that rules only takes the reading; a replay reads the same frame's
    picture when it rules, on its own thread."""
    table = laid_out()
    table.play("A", Card.parse("6S"), LAYOUT.stock_centre("A", 0), LAYOUT.spit_pile_centre(0), t_touch=1.013)
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    namer = AskedNamer()
    tracker = TableTracker(view, namer, fps=FPS, read_ahead=ahead)
    rng = np.random.default_rng(1)
    ruled_in = None
    for index in range(int(2.2 * FPS)):
        sightings = tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
        if any(isinstance(s, Arrival) for s in sightings):
            ruled_in = index
    pile = tracker.places[Place("spit_pile", 0)].rect
    asked = [(frame, thread) for frame, rect, thread, card in namer.asked if rect == pile and card == "6S"]
    assert ruled_in is not None and len(asked) == 1
    frame, thread = asked[0]
    assert frame == ruled_in - (SETTLE_FRAMES - 1)
    assert (thread != threading.main_thread().name) == ahead


def two_hands_on_one_pile(namer, read_ahead: bool):
    """B lays 10H on spit pile 1 and A lays JH on it 40 ms later, before it settles: (the arrivals seen,
    the tracker, B's move)."""
    table = laid_out()
    first = table.play("B", Card.parse("10H"), LAYOUT.stock_centre("B", 3), LAYOUT.spit_pile_centre(1), t_touch=1.0)
    table.play("A", Card.parse("JH"), LAYOUT.stock_centre("A", 3), first.final, t_touch=1.04)
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, namer, fps=FPS, read_ahead=read_ahead)
    rng = np.random.default_rng(1)
    found = []
    for index in range(int(2.5 * FPS)):
        found += [s for s in tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng))) if isinstance(s, Arrival)]
    return found, tracker, first


@pytest.mark.parametrize("ahead", [False, True])
def test_a_live_tracker_names_the_snapshots_of_two_hands_on_one_pile_ahead_with_the_same_rulings(ahead):
    """Two hands on one pile: the hand whose card was covered is named by its snapshot. Live, every such
    snapshot is named on a reader as the pile begins to settle; the rulings are those of a replay."""
    def arrivals(read_ahead):
        namer = AskedNamer()
        found, _, _ = two_hands_on_one_pile(namer, read_ahead)
        snapshot_threads = [thread for frame, rect, thread, card in namer.asked if frame is None]
        return [(a.player, str(a.card), a.t, a.frame) for a in found], snapshot_threads

    found, threads = arrivals(ahead)
    assert found == arrivals(not ahead)[0]
    assert [(player, card) for player, card, _, _ in sorted(found, key=lambda a: a[2])] == [("B", "10H"), ("A", "JH")]
    assert threads, "the covered hand is named by its snapshot"
    on_main = [thread == threading.main_thread().name for thread in threads]
    assert not any(on_main) if ahead else all(on_main)


class SnapshotNamer(ColourNamer):
    """A namer that reads a pile view where it is told the top card lies (as the shipped recogniser reads
    a known outline first); notes each snapshot's outline (asked with no frame) and what it named."""

    def __init__(self) -> None:
        super().__init__()
        self.snapshots: list[tuple[np.ndarray | None, str]] = []

    def read_top_card(self, image, px_per_mm=None, outline=None, whole_card=False):
        card, confidence = self.name_top_card(image)
        self.snapshots.append((outline, str(card)))
        return TopCardReading(card, confidence, ((card, confidence),) if card is not None else ())

    def name_top_card_in(self, frame, rect, image, outline=None, whole_card=False):
        return self.name_top_card(image)


@pytest.mark.parametrize("ahead", [False, True])
def test_a_hand_s_snapshot_is_read_where_the_card_it_laid_lay_as_it_left(ahead):
    """The snapshot of a hand whose card was covered comes with the outline the tracker saw its card in as
    the hand left, so that it is read there (a few ms) rather than searched (30-40 ms, while the ruling
    of the spits waits for it)."""
    namer = SnapshotNamer()
    found, tracker, first = two_hands_on_one_pile(namer, ahead)
    assert sorted((a.player, str(a.card)) for a in found) == [("A", "JH"), ("B", "10H")]
    pile = tracker.places[Place("spit_pile", 1)].rect
    centre = TableView.in_crop(np.array([first.final]), pile, READ_PX_PER_MM)[0]
    outlines = [outline for outline, card in namer.snapshots if outline is not None]
    assert outlines, "a snapshot was read with the outline of the card on top as its hand left"
    for outline in outlines:
        sides = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1) / READ_PX_PER_MM
        assert sorted(sides.round()) == pytest.approx([63, 63, 88, 88], abs=8)  # a whole card, mm
        assert np.linalg.norm(outline.mean(axis=0) - centre) < 10 * READ_PX_PER_MM  # on the pile where it was laid


@pytest.mark.parametrize("ahead", [False, True])
def test_the_stocks_looked_at_again_as_the_table_goes_quiet_are_read_before_it_ahead_on_a_reader_when_live(ahead):
    """B's fifth stock lies face down: read again as the table goes quiet, from a frame just before the
    quiet moment (nothing moved since: the spell lasted), so the frame that calls it only takes the reading."""
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    namer = AskedNamer()
    tracker = TableTracker(view, namer, fps=FPS, read_ahead=ahead)
    table, rng, quiet_in = laid_out(), np.random.default_rng(1), None
    for index in range(int(1.5 * FPS)):
        sightings = tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
        if quiet_in is None and any(isinstance(s, TableQuiet) for s in sightings):
            quiet_in = index
    slot = tracker.places[Place("stock", 4, "B")].rect
    asked = [(frame, thread) for frame, rect, thread, card in namer.asked if rect == slot]
    assert quiet_in is not None and len(asked) == 2  # with the layout, and again as the table went quiet
    frame, thread = asked[1]
    assert quiet_in - (SETTLE_FRAMES - 1) <= frame < quiet_in
    assert (thread != threading.main_thread().name) == ahead


@pytest.mark.parametrize("on_hand_at, expected", [(2.15, (2.15, 64, 0.01)), (2.5, None), (None, None)])
def test_a_hand_that_came_down_on_the_other_hand_before_touching_the_pile_first_landed_there(on_hand_at, expected):
    visit = Visit("B", 60, touch=TouchEstimate(2.4, 72, 0.005))
    if on_hand_at is not None:
        visit.through_hand = TouchEstimate(on_hand_at, 64, 0.01)
    assert _first_on_hand(visit, visit.touch) == expected



def _visit(player: str, depths: list[float], start: float = 3.0, period: float = 1 / 30) -> Visit:
    """A hand near a stock slot, one sample a frame: `depths` its signed distance to the slot's card (mm)."""
    first = int(round(start / period))
    return Visit(player, first, samples=[(first + k, start + k * period, d) for k, d in enumerate(depths)])


def test_a_stock_turned_up_is_dated_when_the_hand_last_lay_over_its_card_not_when_it_drew_back():
    # seed 513 of `all_at_once --seeds`: the hand turns the card (34 mm over it: the card in hand covers the
    # slot), then rests 14 mm over its edge for half a second before leaving
    turning, resting = [-34.0] * 4 + [-26.0], [-14.0] * 15 + [-2.0, 16.0]
    visit = _visit("A", turning + resting)
    assert last_on_the_card([visit]) == pytest.approx(3.0 + 4 / 30)
    # never that deep (a card slid in from the side, a hand squaring the pile): the last frame it was near
    shallow = _visit("A", [-12.0, -TURNING_DEPTH_MM + 1, -8.0, 12.0])
    assert last_on_the_card([shallow]) == pytest.approx(3.0 + 3 / 30)
    # two hands there: the later of the two
    assert last_on_the_card([visit, _visit("A", [-30.0, -30.0, 5.0], start=3.5)]) == pytest.approx(3.5 + 1 / 30)
    assert last_on_the_card([Visit("A", 90)]) is None


class BlindUnderAHand(ColourNamer):
    """Names nothing in a crop a hand shows in (as a card mostly under a hand is read as a bare slot)."""

    def name_top_card(self, image):
        skin = np.abs(image.astype(int) - SKIN_BGR).max(axis=-1) < 25
        return (None, 0.0) if skin.mean() > 0.02 else super().name_top_card(image)


def test_a_stock_read_in_the_layout_with_a_hand_over_it_is_read_again_once_the_hand_has_gone():
    """A hand hovering over a stock as the opening layout is read (here while B's first card settles on a
    spit pile) hides its card; once the hand has gone the stock looks as it did before the hand came, so
    nothing changed there, and the layout's reading would have stood for good (seed 217's clip: a KC read
    as a bare slot, and the KC A laid later named as the one king A's stocks showed)."""
    table = laid_out()
    table.play("A", Card.parse("AS"), (LAYOUT.stock_centre("A", 3)[0], -60.0), LAYOUT.stock_centre("A", 3),
               t_touch=0.3, duration=0.15, settle=1.0, back=0.3, slap=True)  # over the stock from 0.3 s to 1.3 s
    table.play("B", Card.parse("7S"), LAYOUT.stock_centre("B", 4), LAYOUT.spit_pile_centre(0), t_touch=0.4)
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, BlindUnderAHand(), fps=FPS)
    rng, sightings = np.random.default_rng(1), []
    for index in range(int(2.5 * FPS)):
        sightings += tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng)))
    layout = next(s for s in sightings if isinstance(s, LayoutRead))
    under_the_hand = str(layout.stocks["A"][3])
    assert under_the_hand in ("empty", "back")
    seen = [(s.player, s.slot, str(s.previous), str(s.reading)) for s in sightings if isinstance(s, StockSeen)]
    assert seen == [("A", 3, under_the_hand, "JH")]


class PaleBlobNamer(ColourNamer):
    """Names a pile top by colour, and says where it found it: the pile crop's largest pale blob."""

    def read_top_card(self, crop, px_per_mm=None, outline=None, whole_card=False):
        card, confidence = self.name_top_card(crop)
        pale = (crop.min(axis=2) >= 200).astype(np.uint8)
        contours, _ = cv2.findContours(pale, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if card is None or not contours:
            return TopCardReading(None, 0.0)
        quad = cv2.boxPoints(cv2.minAreaRect(max(contours, key=cv2.contourArea)))
        return TopCardReading(card, confidence, ((card, confidence),), outline=quad)


def test_a_video_opening_on_cards_on_the_spit_piles_times_touches_against_where_they_lie():
    """A clip cut mid-game: until a pile first settles (its first touches may come before), a touch is
    timed against its top card's outline where the recogniser found it in the first frame, not against
    the card's nominal place (a pile lies up to a few centimetres off it)."""
    table = laid_out()
    nominal = LAYOUT.spit_pile_centre(0)
    moved = (nominal[0] + 18.0, nominal[1] - 12.0)
    table.lying = [[card, moved if centre == nominal else centre, *times] for card, centre, *times in table.lying]
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, PaleBlobNamer(), fps=FPS)
    tracker.step(Frame(0, 0.0, table.frame(0.0, np.random.default_rng(1))))
    pile = tracker.places[Place("spit_pile", 0)]
    assert pile.settled_crop is None and not np.array_equal(pile.footprint, pile.nominal)
    corners = pile.card_corners_mm(pile.footprint)
    assert corners is not None and np.hypot(*(corners.mean(axis=0) - moved)) < 3.0, corners.mean(axis=0)


@pytest.mark.parametrize("misses", [1, 5])
def test_a_card_laid_so_like_the_top_that_the_pile_seems_unchanged_is_read_again_when_not_named(misses):
    # `all_at_once` seed 194's clip from 3.85 s: a `dondorf` `QC` laid on its `JS` at 0.5 px per mm changed too
    # little of the pile to count as a new picture, and was not named: the pile was taken as touched and left
    # as it was, and B's `QC`, gone from its stock, was ruled laid on the other pile B's hand had passed over.
    # A top named before and not named now, a hand having touched it, is read again, and then named by the
    # card that left the stock
    table = laid_out(a_row=("6H", "KD", "2C", "JH", "8D"))  # the 6H laid on the 5H changes too little to count
    table.play("A", Card.parse("6H"), LAYOUT.stock_centre("A", 0), LAYOUT.spit_pile_centre(0), t_touch=1.0)
    sightings = run(table, 2.6, namer=BlinkingNamer("6H", misses))
    arrivals = [s for s in sightings if isinstance(s, Arrival)]
    assert [(a.player, a.pile, str(a.card)) for a in arrivals] == [("A", 0, "6H")]
    assert abs(arrivals[0].t - 1.0) < 1 / FPS / 3


@pytest.mark.parametrize("off", [(40.0, 0.0), (-30.0, 20.0)])
def test_a_clip_s_layout_outlines_each_spit_pile_where_the_recogniser_found_its_card(off):
    # `all_at_once` seed 306's clip from 2.88 s, on a pale cloth: pile 0 settled in the first frames on a
    # card-sized patch of table an arm had left, 80 mm off its `AS`; the pile was then fitted there, and the
    # re-spit laid on the `AS` was read at the view's edge, as bare. A layout takes each pile where its card was
    # read, whatever the pile settled on before
    table = DrawnTable(table=CREAM_BGR)
    table.lying = laid_out().lying
    view = TableView(PlainCalibration(), (800, 600), 0.5, IMAGE_SIZE)
    tracker = TableTracker(view, FindingNamer(), fps=FPS)
    rng = np.random.default_rng(1)
    place = tracker.places[Place("spit_pile", 1)]
    pile = np.array(LAYOUT.spit_pile_centre(1))
    layouts = []
    for index in range(int(0.6 * FPS)):
        layouts += [s for s in tracker.step(Frame(index, index / FPS, table.frame(index / FPS, rng))) if isinstance(s, LayoutRead)]
        if index == 2:  # settled off the card, as on an arm's ghost
            corners = np.array([[-31.5, -44.0], [31.5, -44.0], [31.5, 44.0], [-31.5, 44.0]]) + pile + off
            place.set_footprint(place.card_at(corners))
    assert len(layouts) == 1 and str(layouts[0].piles[1]) == "9C"
    corners = place.card_corners_mm(place.footprint)
    assert corners is not None and np.hypot(*(corners.mean(axis=0) - pile)) < 2.5


@pytest.mark.parametrize("a_row, b_row, laid_by, out", [
    ("- - - - -", "QH - 4H - -", set(), "A"),         # A's stocks bare: A played the last stock card before the video
    ("- - - - -", "QH - 4H - -", {"A"}, None),        # ... unless A laid a card the referee has still to rule: that one
    ("- - - - -", "- - - - -", set(), None),          # both bare: no telling whose round it was
    ("- 7S - - -", "QH - 4H - -", set(), None),       # a stock card left on each side: play goes on
    ("- - - - -", "QH - 4H - -", {"B"}, "A"),         # B's cards still to be ruled say nothing of A's stocks
])
def test_the_player_whose_stocks_were_out_as_a_clip_opened(a_row, b_row, laid_by, out):
    def row(text):
        return tuple(Reading(None) if slot == "-" else Reading(Card.parse(slot), confidence=0.9) for slot in text.split()) + (Reading(None),)

    layout = LayoutRead(0.4, 12, {"A": row(a_row), "B": row(b_row)}, (Reading(Card.parse("5D")), Reading(Card.parse("KC"))), first=True)
    assert _stocks_out(layout, laid_by) == out
