"""A clip's opening: which piles keep the first frame's top, which cards are ruled after the layout, and
the stock cards that name them."""


import pytest

from referee.piles.opening import HAND_THERE_FRAMES, HAND_THERE_MM, HAND_THERE_SECONDS, Opening, hand_there_frames
from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead, PileTouched
from referee.piles.zones import Place
from referee.rules.cards import Card

PERIOD = 1 / 30
EMPTY = Reading(None)


def sure(text, confidence=0.9):
    return Reading(Card.parse(text), confidence=confidence)


def arrival(t, pile, player, text, confidence=0.9):
    return Arrival(t, int(t * 30), pile, player, Card.parse(text), 0.01, confidence)


def opening(pile0=sure("4C"), pile1=sure("8H"), **stocks):
    """The first frame: B4 shows 3D (a play on 4C: the table is not stalled) unless `b4` says otherwise."""
    first = {Place("spit_pile", 0): pile0, Place("spit_pile", 1): pile1}
    stocks.setdefault("b4", "3D")
    for name, text in stocks.items():  # a3="QD": stock A3 showed QD in the first frame
        first[Place("stock", int(name[1]), name[0].upper())] = sure(text) if text else EMPTY
    return Opening(0.0, PERIOD, first)


def layout(frame=30, piles=(sure("5S"), sure("9C")), a3=EMPTY, b1=EMPTY):
    row = [EMPTY] * 6
    a, b = list(row), list(row)
    a[3], b[1], b[4] = a3, b1, sure("3D")
    return LayoutRead(frame / 30, frame, {"A": tuple(a), "B": tuple(b)}, piles, True)


def test_a_card_laid_before_the_layout_is_ruled_after_it_on_the_first_frame_s_top():
    start = opening(a3="5S")
    start.early.append(arrival(0.4, 0, "A", "5S"))
    assert start.laid_on({}) == {0}
    read, early, left = start.read(layout(), {})
    assert [str(pile) for pile in read.piles] == ["4C", "9C"]   # pile 1, untouched, as the layout reads it
    assert read.t < 0.4 and read.frame == 30
    assert [(a.player, str(a.card)) for a in early] == [("A", "5S")]
    assert left == {"A": []}  # the 5S that left A3 named the card, and names nothing else


@pytest.mark.parametrize("first_frame, first_mm", [(HAND_THERE_FRAMES - 1, 0.0), (HAND_THERE_FRAMES, 0.0),
                                                    (HAND_THERE_FRAMES - 1, HAND_THERE_MM + 10)])
def test_a_touch_in_the_first_frames_is_a_hand_already_there_and_its_card_part_of_the_layout(first_frame, first_mm):
    """... when the hand was at the pile as the video began, over the card there (the first frame named it
    unsurely); one first seen further off (an arm reaching across to the other pile at the opening spits) came in
    view, and its touch is timed as any other."""
    start = opening(pile1=sure("8H", confidence=0.5))
    start.saw_hand(1, 1, first_mm)        # B's hand, first seen in the second frame
    start.saw_hand(0, HAND_THERE_FRAMES, 0.0)  # A's hand, seen at its pile only once the video was under way
    start.early.append(arrival(first_frame * PERIOD + 0.001, 1, "B", "9C"))
    start.early.append(arrival(0.5, 0, "A", "5S"))
    laid_on = start.laid_on({})
    read, early, _ = start.read(layout(), {})
    hand_there = first_frame < HAND_THERE_FRAMES and first_mm <= HAND_THERE_MM
    assert laid_on == ({0} if hand_there else {0, 1})
    assert [str(pile) for pile in read.piles] == ["4C", "9C" if hand_there else "8H"]
    assert [str(a.card) for a in early] == (["5S"] if hand_there else ["9C", "5S"])
    # what a hand still there laid on the pile taken as it was is not ruled later
    later = [Arrival(0.05, 1, 1, "B", Card.parse("9C"), 0.01), PileTouched(0.06, 1, 1, "B", 0.01), arrival(1.5, 1, "B", "10D")]
    assert start.keep(later) == (later[2:] if hand_there else later)


@pytest.mark.parametrize("fps, frames", [(25, HAND_THERE_FRAMES), (30, HAND_THERE_FRAMES), (60, round(HAND_THERE_SECONDS * 60))])
def test_a_hand_there_as_the_video_began_may_touch_in_its_first_frames_or_its_first_tenth_of_a_second(fps, frames):
    # at 60 fps the hand there is seen moving no sooner: `all_at_once --after-touch` seed 194's clip, B's hand timed 75 ms in
    assert hand_there_frames(1 / fps) == frames
    start = Opening(0.0, 1 / fps, {Place("spit_pile", 0): EMPTY, Place("spit_pile", 1): EMPTY})
    start.saw_hand(0, frames - 1, 0.0)
    start.saw_hand(1, frames, 0.0)
    assert start.hands_at == {0}
    assert start.hand_there((frames - 0.5) / fps, 0) and not start.hand_there((frames + 0.01) / fps, 0)


@pytest.mark.parametrize("first, ruled", [(sure("8H", confidence=0.6), True), (sure("8H", confidence=0.59), False),
                                          (Reading(Card.parse("8?"), confidence=0.9), False), (EMPTY, False)])
def test_a_card_laid_by_the_hand_there_as_the_video_began_is_ruled_on_the_top_the_first_frame_named_surely_under_it(first, ruled):
    # `all_at_once` seed 306's clip from 10.2 s: B's hand, at pile 0 as the clip opened, laid a 5H on the 4H the
    # first frame named under it; taken as part of the layout, the play was lost
    start = opening(pile0=first)
    start.saw_hand(0, 0, 5.0)
    touched = {0: 0.07}  # the hand there and its card: one touch, still to be judged when the layout is read
    assert start.laid_on(touched) == ({0} if ruled else set())
    read, _, _ = start.read(layout(piles=(sure("5H"), sure("9C"))), touched)
    assert str(read.piles[0]) == ("8H" if ruled else "5H")
    touch = PileTouched(0.07, 2, 0, "B", 0.01)
    assert start.keep([touch]) == ([touch] if ruled else [])


@pytest.mark.parametrize("later", ["arrival", "touch"], ids=["seen_landing", "still_to_be_judged"])
def test_a_card_laid_after_the_hand_there_as_the_video_began_left_is_ruled_on_the_card_that_hand_laid(later):
    # `referee_unseen` seed 216's clip from 4.44 s: A's hand laid a 2H on pile 1 in the first frames, left, and
    # came back with an AH; the layout, read as the pile settled, had taken the AH in, unruled
    start = opening()
    start.saw_hand(1, 0, 0.0)
    start.early.append(arrival(0.02, 1, "A", "2H"))
    touched = {}
    if later == "arrival":
        start.early.append(arrival(0.71, 1, "A", "AH"))
    else:
        touched = {1: 0.71}
    assert start.laid_on(touched) == {1}
    read, early, _ = start.read(layout(piles=(sure("4C"), sure("AH"))), touched)
    assert [str(pile) for pile in read.piles] == ["4C", "2H"] and read.t < 0.71
    assert [str(a.card) for a in early] == (["AH"] if later == "arrival" else [])
    assert start.keep([arrival(0.02, 1, "A", "2H")]) == [arrival(0.02, 1, "A", "2H")]  # nothing forgotten there


@pytest.mark.parametrize("under, later_t, taken", [
    (arrival(0.05, 0, "B", "6C", confidence=0.45), 0.53, True),
    (arrival(0.05, 0, "B", "6C", confidence=0.29), 0.53, False),    # its hand's last look too unsure
    (arrival(0.05, 0, "B", "6?", confidence=0.45), 0.53, False),    # named without its suit
    (arrival(0.12, 0, "B", "6C", confidence=0.45), 0.53, False),    # a hand come afresh: a play like the others
    (arrival(0.05, 0, "B", "6C", confidence=0.45), None, False),    # no card laid over it: the layout takes it
], ids=["taken", "unsure", "no_suit", "not_there", "alone"])
def test_a_covered_card_the_hand_there_as_the_video_began_laid_is_the_pile_s_top_the_later_cards_are_played_on(under, later_t, taken):
    # `all_at_once --after-touch`, seed 195's clip from 3.69 s: B's hand was laying the 6C as the clip opened, left,
    # and B's 5H and A's 5C landed before the pile settled; all three waited for their stocks to name them
    start = opening(pile0=EMPTY)  # the first frame could not read pile 0 under the hand
    start.saw_hand(0, 1, 0.0)
    waiting = [under] + ([arrival(later_t, 0, "A", "5C", confidence=0.0)] if later_t is not None else [])
    assert start.under_later_cards(waiting) == ([under] if taken else [])
    touched = {0: later_t if taken else under.t}  # what the tracker then has pending there
    assert start.laid_on(touched) == ({0} if taken else set())
    read, _, _ = start.read(layout(piles=(sure("5C"), sure("9C"))), touched)
    assert str(read.piles[0]) == ("6C" if taken else "5C")
    if taken:
        assert read.t < later_t


def test_a_pile_the_first_frame_showed_no_card_on_is_read_as_the_layout_finds_it():
    start = opening(pile0=EMPTY)  # a hand over it in the first frame
    start.early.append(arrival(0.4, 0, "A", "5S"))
    assert start.laid_on({1: 0.6}) == {1}
    read, early, _ = start.read(layout(), {1: 0.6})
    assert [str(pile) for pile in read.piles] == ["5S", "8H"] and early == []
    assert read.t == pytest.approx(0.599)
    # a card there still to be judged is ruled on what the layout read
    still = [arrival(0.5, 0, "B", "6D")]
    assert start.keep(still) == still


UNNAMED = Reading(None, face_down=True)  # a card the first frame showed and could not name (a blurred 3D)


@pytest.mark.parametrize("settled_untouched", [True, False])
def test_a_pile_the_first_frame_could_not_name_keeps_its_top_unknown_once_seen_lying_untouched(settled_untouched):
    start = opening(pile0=UNNAMED)
    if settled_untouched:
        start.saw_settle(0, touched=False)  # it lay still with no hand at it ...
    start.saw_settle(0, touched=True)       # ... before the 5S was laid on it
    start.saw_settle(0, touched=False)      # (lying still after a touch says nothing of the first frame)
    start.early.append(arrival(0.4, 0, "A", "5S"))
    assert start.laid_on({}) == ({0} if settled_untouched else set())
    read, early, _ = start.read(layout(), {})
    if settled_untouched:  # the 5S is a play on a top nobody could name
        assert read.piles[0] == UNNAMED and [str(a.card) for a in early] == ["5S"]
    else:  # a hand may have been over it in the first frame: the layout takes what was laid
        assert str(read.piles[0]) == "5S" and early == []


@pytest.mark.parametrize("laid, confidence, named", [
    ("5?", 0.3, "5S"),    # rank only: the one 5 that left A's stocks
    ("5C", 0.4, "5S"),    # unsure
    ("5C", 0.9, "5C"),    # sure of another suit: stands
    ("6S", 0.3, "6S"),    # no card of its rank left
])
def test_an_unsure_card_laid_before_the_layout_is_named_by_the_one_of_its_rank_that_left_its_stocks(laid, confidence, named):
    start = opening(a3="5S", b1="5D")
    early_card = Arrival(0.4, 12, 0, "A", Card.parse(laid), 0.01, confidence)
    start.early.append(early_card)
    start.laid_on({})
    _, early, left = start.read(layout(a3=sure("KH")), {})
    assert str(early[0].card) == named
    assert left["B"] == [Card.parse("5D")]  # B's card is not A's to take


@pytest.mark.parametrize("first_slot", [1, 0])
def test_a_stock_top_unsurely_seen_in_the_first_frame_still_there_or_moved_has_not_left(first_slot):
    # A's 5S read unsurely; B's JD still on B1, or moved there from B0
    start = Opening(0.0, PERIOD, {Place("spit_pile", 0): sure("4C"), Place("spit_pile", 1): sure("8H"),
                                  Place("stock", 3, "A"): sure("5S", 0.4), Place("stock", first_slot, "B"): sure("JD")})
    start.early.append(arrival(0.4, 0, "A", "5?", 0.3))
    start.laid_on({})
    _, early, left = start.read(layout(b1=sure("JD")), {})
    assert str(early[0].card) == "5?" and left == {}


@pytest.mark.parametrize("b4, stalled", [("3D", False), ("QS", True), (None, True)])
def test_a_table_the_first_frame_showed_no_play_on_looked_stalled_and_its_cards_are_still_ruled(b4, stalled):
    # no stock top fits 4C or 8H (nor does the card laid): the rules take a card that fits no top as a spit
    start = opening(b4=b4)
    start.early.append(arrival(0.4, 0, "A", "10C"))
    assert start.stalled() == stalled
    assert start.laid_on({1: 0.5}) == {0, 1}
    read, early, _ = start.read(layout(), {1: 0.5})
    assert read.looked_stalled == stalled and [str(pile) for pile in read.piles] == ["4C", "8H"]
    assert [str(a.card) for a in early] == ["10C"]


def test_a_card_laid_that_fits_a_top_of_a_table_the_first_frame_showed_no_play_on_is_a_play():
    # the player held it as the clip began (picked up before): the table was not stalled
    start = opening(b4="QS")
    start.early.append(arrival(0.4, 0, "A", "5D"))
    assert not start.stalled() and start.laid_on({}) == {0}
    read, early, _ = start.read(layout(), {})
    assert not read.looked_stalled and [(a.player, str(a.card)) for a in early] == [("A", "5D")]


def test_a_card_laid_on_a_pile_it_does_not_fit_though_it_fits_the_other_does_not_say_the_table_was_not_stalled():
    """A clip opening on the spits after a stall: B's spit card (5D) happens to fit the other pile's top (4C)
    as the first frame showed it. A card a player held that could be played would have been played there."""
    start = opening(b4="QS")
    start.early.append(arrival(0.3, 1, "B", "5D"))
    assert start.stalled() and start.laid_on({}) == {1}
    read, early, _ = start.read(layout(), {})
    assert read.looked_stalled and [(a.player, str(a.card)) for a in early] == [("B", "5D")]
