"""A card landing whose reading fits more than one stock top is named by the stock seen losing its top,
and the session holds its ruling until the stocks have been seen again."""

import numpy as np
import pytest

from referee.capture.frames import Frame
from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, StockSeen
from referee.pipeline.session import RefereeSession
from referee.pipeline.translate import STOCK_AHEAD_SECONDS, Translator
from referee.rules.cards import Card
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from tests.pipeline.test_translate_tolerance import BACK, EMPTY, ScriptedTracker, card, layout_read, plays, stocks

#: A's QD and KD both lie on A's stocks; the KD is read, the QD only the reader's last thought
OPENING = layout_read((card("4S"), card("JH")), a="QD QS AC KD 2S", b="JD KC 5D 4H 3C")


def misread_queen(t=1.0, player="A"):
    return Arrival(t, int(t * 30), 1, player, Card.parse("KD"), 0.01, confidence=0.39,
                   alternatives=((Card.parse("KD"), 0.39), (Card.parse("KH"), 0.25), (Card.parse("QD"), 0.06)))


def queen_left(t):
    return StockSeen(t, int(t * 30), "A", 0, BACK, card("QD"), True)


def referee_with_hindsight(sightings):
    """Each sighting ruled with the sightings after it at hand, as the session holds them."""
    engine = RulesEngine(RulesConfig().for_camera())
    translator = Translator()
    events = []
    for number, sighting in enumerate(sightings):
        found, _ = translator.translate(sighting, engine.state, sightings[number + 1:])
        for observation in found:
            events += [(e.type.value, e) for e in engine.observe(observation)]
    return events


@pytest.mark.parametrize("stock_seen, expected", [
    (None, ("A", 1, "KD", "JH", False)),   # nothing says otherwise: the card stands as read
    (1.3, ("A", 1, "QD", "JH", True)),     # the QD's stock seen bare just after: the QD was laid
    (0.7, ("A", 1, "QD", "JH", True)),     # ... or just before
    (1.0 + STOCK_AHEAD_SECONDS + 0.2, ("A", 1, "KD", "JH", False)),  # too late to be this card's
], ids=["unseen", "after", "before", "too_late"])
def test_a_card_read_as_one_stock_top_is_the_other_its_reader_allowed_when_that_one_left_its_stock(stock_seen, expected):
    sightings = [OPENING, misread_queen()]
    if stock_seen is not None:
        sightings.insert(1 if stock_seen < 1.0 else 2, queen_left(stock_seen))
    assert plays(referee_with_hindsight(sightings)) == [expected]


def test_the_stock_of_the_card_read_leaving_keeps_the_reading():
    # the KD's own stock is seen losing it: the reading stands even though the QD left too, earlier
    king_left = StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True)
    sightings = [OPENING, queen_left(0.2), misread_queen(), king_left]
    # the QD leaving at 0.2 s fits the reading less well (0.06 against 0.39)
    assert plays(referee_with_hindsight(sightings)) == [("A", 1, "KD", "JH", False)]


@pytest.mark.parametrize("seen_leaving, expected", [
    (False, ("A", 0, "AC", "4S", False)),  # no stock seen: A's ace, the only ace on a stock (as before)
    (True, ("B", 0, "3C", "4S", True)),    # B's 3C seen leaving: B's hand laid B's three
])
def test_a_card_read_without_its_suit_is_the_card_its_players_stock_was_seen_losing(seen_leaving, expected):
    blurred = Arrival(1.0, 30, 0, "B", Card.parse("A?"), 0.01, confidence=0.32,
                      alternatives=((Card.parse("3C"), 0.24), (Card.parse("AS"), 0.16), (Card.parse("AC"), 0.13)))
    sightings = [OPENING, blurred]
    if seen_leaving:
        sightings.append(StockSeen(1.2, 36, "B", 4, BACK, card("3C"), True))
    assert plays(referee_with_hindsight(sightings)) == [expected]


@pytest.mark.parametrize("player, expected", [("A", ("A", 1, "KD", "JH", False)), ("B", ("B", 1, "KC", "JH", False))])
def test_a_rank_both_players_stocks_were_seen_losing_is_the_card_of_the_hand_seen_laying_it(player, expected):
    """A card covered at once by the other player's, named `K?` by the king that left its player's stock
    (as surely as it names the other player's king that left too): that player's king."""
    covered = Arrival(1.0, 30, 1, player, Card.parse("K?"), 0.01, confidence=0.9, under=True)
    sightings = [OPENING, covered, StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True),
                 StockSeen(1.25, 37, "B", 1, BACK, card("KC"), True)]
    assert plays(referee_with_hindsight(sightings)) == [expected]


def test_only_a_reading_that_fits_several_stock_tops_waits_for_the_stocks():
    engine = RulesEngine(RulesConfig().for_camera())
    translator = Translator()
    for observation in translator.translate(OPENING, engine.state)[0]:
        engine.observe(observation)
    sure = Arrival(1.0, 30, 1, "A", Card.parse("QD"), 0.01, confidence=0.97, alternatives=((Card.parse("QD"), 0.97),))
    assert translator.waits_for_stocks(misread_queen(), engine.state)
    assert not translator.waits_for_stocks(sure, engine.state)
    assert not translator.waits_for_stocks(queen_left(1.2), engine.state)


def test_the_session_holds_an_unsure_card_until_its_players_stocks_are_seen_again():
    # the tracker reports the card at frame 32 and the stock, settled at 1.3 s, only at frame 45
    script = {0: [OPENING], 32: [misread_queen()], 45: [queen_left(1.3)]}
    session = RefereeSession(ScriptedTracker(script), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    played = [(e["player"], str(e["card"]), e["legal"]) for e in session.events if e.type.value == "play"]
    assert played == [("A", "QD", True)]
    ruled_at = next(processed for (frame, processed), e in zip(session.ruled_at, session.events) if e.type.value == "play")
    assert ruled_at >= 45


def ruled(script, frames=60, pending=None):
    session = RefereeSession(ScriptedTracker(script, pending), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(frames):
        session.process(Frame(index, index / 30, image))
    session.finish()
    return [(e["player"], str(e["card"]), e["legal"]) for e in session.events if e.type.value == "play"], \
        [(e["first"], e["too_close"]) for e in session.events if e.type.value == "touch_order"]


@pytest.mark.parametrize("gap_ms, cards, expected", [
    # 2 ms apart: A's QD fits neither on 9C nor on the 8H, B's 8H fits on 9C: B's touched first
    (2.0, ("QD", "8H"), [("B", "8H", True), ("A", "QD", False)]),
    # 50 ms apart the camera can tell: A's QD first, whatever it makes of the cards
    (50.0, ("QD", "8H"), [("A", "QD", False), ("B", "8H", False)]),
    # both fit on the 9C: the order seen stands
    (2.0, ("10D", "8H"), [("A", "10D", True), ("B", "8H", False)]),
], ids=["too_close", "apart", "both_fit"])
def test_two_cards_too_close_to_time_are_ruled_in_the_order_that_makes_sense_of_them(gap_ms, cards, expected):
    opening = layout_read((card("9C"), card("4D")), a=f"{cards[0]} 5S 2D JC KH", b=f"{cards[1]} 6D 10S QS AH")
    first = Arrival(1.0, 30, 0, "A", Card.parse(cards[0]), 0.005, confidence=0.97)
    second = Arrival(1.0 + gap_ms / 1000, 30, 0, "B", Card.parse(cards[1]), 0.005, confidence=0.97)
    plays, orders = ruled({0: [opening], 32: [first, second]})
    assert plays == expected
    assert orders == [(expected[0][0], gap_ms < 34.0)]


@pytest.mark.parametrize("gap_ms, under, expected", [
    # B's card seen under A's, timed 5 ms after it (within the 7 ms the two times may be off): it touched first
    (5.0, "B", [("B", "8H", True), ("A", "10D", False)]),
    # A's card seen under B's: the order timed stands
    (5.0, "A", [("A", "10D", True), ("B", "8H", False)]),
    # 12 ms apart, more than the two times may be off (7 ms): under half a frame, but the times stand
    (12.0, "B", [("A", "10D", True), ("B", "8H", False)]),
    # 50 ms apart the camera's times stand, whichever card was seen on top
    (50.0, "B", [("A", "10D", True), ("B", "8H", False)]),
], ids=["under_second", "under_first", "beyond_error", "apart"])
def test_of_two_cards_too_close_to_time_the_one_seen_under_the_other_touched_first(gap_ms, under, expected):
    opening = layout_read((card("9C"), card("4D")), a="10D 5S 2D JC KH", b="8H 6D 10S QS AH")
    first = Arrival(1.0, 30, 0, "A", Card.parse("10D"), 0.005, confidence=0.97, under=under == "A")
    second = Arrival(1.0 + gap_ms / 1000, 30, 0, "B", Card.parse("8H"), 0.005, confidence=0.97, under=under == "B")
    plays, orders = ruled({0: [opening], 32: [first, second]})
    assert plays == expected
    assert orders == [(expected[0][0], gap_ms < 34.0)]


def test_a_stock_seen_between_two_cards_too_close_to_time_does_not_part_them():
    # B's stock settles, showing its back, at the very instant B's card was timed (all_at_once seed 306):
    # held between the two cards, it is looked past, and B's card seen under A's still touched first
    opening = layout_read((card("9C"), card("4D")), a="10D 5S 2D JC KH", b="8H 6D 10S QS AH")
    first = Arrival(1.0, 30, 0, "A", Card.parse("10D"), 0.005, confidence=0.97)
    second = Arrival(1.005, 30, 0, "B", Card.parse("8H"), 0.005, confidence=0.97, under=True)
    stock = StockSeen(1.005, 30, "B", 0, BACK, card("8H"), True)
    plays, orders = ruled({0: [opening], 32: [first, stock, second]})
    assert plays == [("B", "8H", True), ("A", "10D", False)]
    assert orders == [("B", True)]


@pytest.mark.parametrize("seen_under_at", [32, 40], ids=["seen_with_it", "seen_later"])
def test_a_card_landing_waits_for_the_card_under_it_timed_just_after_it(seen_under_at):
    """B's card lies under A's and is named only once the pile has settled, a few frames after A's card is
    sighted; its touch, still to be judged meanwhile, is 3 ms after A's: A's card waits to be ruled with it
    (as a phone's out-of-order frames timed it; ruled alone, A's card was taken to touch first)."""
    opening = layout_read((card("9C"), card("4D")), a="10D 5S 2D JC KH", b="8H 6D 10S QS AH")
    top = Arrival(1.0, 30, 0, "A", Card.parse("10D"), 0.005, confidence=0.97)
    under = Arrival(1.003, 30, 0, "B", Card.parse("8H"), 0.005, confidence=0.9, under=True)
    script = {0: [opening], 32: [top]}
    script.setdefault(seen_under_at, []).append(under)
    plays, orders = ruled(script, pending=(32, seen_under_at - 1, {0: under.t}))
    assert plays == [("B", "8H", True), ("A", "10D", False)]
    assert orders == [("B", True)]


@pytest.mark.parametrize("doubt, expected", [
    # the top read KC alone: B's KS seen under it, 5 ms later by the times, touched first
    (0.0, [("B", "KS", True), ("A", "KC", False)]),
    # the top's reading gives the KS too (a club and a spade a few pixels of black apart): which lies on top
    # is not known, and the order timed stands
    (0.3, [("A", "KC", True), ("B", "KS", False)]),
], ids=["top_sure", "top_in_doubt"])
def test_a_card_seen_under_another_it_may_be_is_not_taken_to_have_touched_first(doubt, expected):
    opening = layout_read((card("QD"), card("4D")), a="KC 5S 2D JC 3H", b="KS 6D 10S QS AH")
    read = ((Card.parse("KC"), 0.55),) + (((Card.parse("KS"), doubt),) if doubt else ())
    first = Arrival(1.0, 30, 0, "A", Card.parse("KC"), 0.005, confidence=0.55, alternatives=read)
    second = Arrival(1.005, 30, 0, "B", Card.parse("KS"), 0.005, confidence=0.9, under=True)
    plays, orders = ruled({0: [opening], 32: [first, second]})
    assert plays == expected
    assert orders == [(expected[0][0], True)]


@pytest.mark.parametrize("confidence, ace_left, expected", [
    # read unsurely, the ace still on A's stock, A's hand laying its card on the other pile: an arm passing
    (0.36, False, [("A", 1, "QD", "JH", True)]),
    # the ace's stock seen losing it: A did lay it
    (0.36, True, [("A", 0, "AC", "4S", False), ("A", 1, "QD", "JH", True)]),
    # read surely: a play, whatever the other pile shows
    (0.95, False, [("A", 0, "AC", "4S", False), ("A", 1, "QD", "JH", True)]),
], ids=["passing", "ace_left", "sure"])
def test_a_card_read_unsurely_under_an_arm_on_its_way_to_the_other_pile_is_no_play(confidence, ace_left, expected):
    unsure = Arrival(1.0, 30, 0, "A", Card.parse("AC"), 0.01, confidence=confidence,
                     alternatives=((Card.parse("AC"), confidence), (Card.parse("AS"), 0.14)))
    queen = Arrival(1.075, 32, 1, "A", Card.parse("QD"), 0.01, confidence=0.97, alternatives=((Card.parse("QD"), 0.97),))
    sightings = [OPENING, unsure, queen, StockSeen(1.3, 39, "A", 0, BACK, card("QD"), True)]
    if ace_left:
        sightings.append(StockSeen(1.35, 40, "A", 2, BACK, card("AC"), True))
    assert plays(referee_with_hindsight(sightings)) == expected


#: A 4H blurred on landing, read as a two; nothing on A's stocks is a two
BLURRED_FOUR = dict(a="4H 9S AC KD 7S", b="JD KC 5D 4H 3C")


def blurred_four(t=1.0):
    return Arrival(t, int(t * 30), 1, "A", Card.parse("2?"), 0.01, confidence=0.39,
                   alternatives=((Card.parse("2H"), 0.18), (Card.parse("2D"), 0.13), (Card.parse("4D"), 0.04)))


@pytest.mark.parametrize("stocks_seen, expected", [
    ([("A", 0, "4H")], [("A", 1, "4H", "5C", True)]),                  # A's 4H left its stock: it was the 4H
    ([], []),                                                           # nothing left A's stocks: not ruled a play
    ([("A", 0, "4H"), ("A", 1, "9S")], []),                             # two left: which one is not known
    ([("B", 3, "4H")], []),                                             # the other player's stock says nothing
], ids=["one_left", "none_left", "two_left", "other_player"])
def test_a_card_read_as_none_of_its_players_tops_is_the_one_seen_leaving_their_stock(stocks_seen, expected):
    opening = layout_read((card("8D"), card("5C")), **BLURRED_FOUR)
    seen = [StockSeen(1.2, 36, player, slot, BACK, card(name), True) for player, slot, name in stocks_seen]
    played = [play for play in plays(referee_with_hindsight([opening, blurred_four()] + seen)) if play[2] != "2?"]
    assert played == expected


def test_a_stock_top_seen_leaving_is_not_taken_for_a_card_it_lands_as_later():
    # the unsure card on pile 1 is not A's 4H: the 4H is read surely landing on pile 0 just after
    opening = layout_read((card("5S"), card("5C")), **BLURRED_FOUR)
    four_lands = Arrival(1.1, 33, 0, "A", Card.parse("4H"), 0.01, confidence=0.95, alternatives=((Card.parse("4H"), 0.95),))
    sightings = [opening, blurred_four(), four_lands, StockSeen(1.2, 36, "A", 0, BACK, card("4H"), True)]
    assert [play for play in plays(referee_with_hindsight(sightings)) if play[2] != "2?"] == [("A", 0, "4H", "5S", True)]


def touched(t=1.0, pile=0, player="A", went_on=False):
    return PileTouched(t, int(t * 30), pile, player, 0.01, went_on=went_on)


@pytest.mark.parametrize("extra, expected", [
    # the pile read as before as A's hand touched it, and A's KD left its stock: the KD was laid there
    ([StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True)], [("A", 0, "KD", "QS", True)]),
    # nothing left A's stocks: a touch, no play
    ([], []),
    # the KD turned up in A's empty slot (moved there): no play
    ([StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True), StockSeen(1.4, 42, "A", 4, card("KD"), Reading(None), True)], []),
    # the same hand laid a card on the other pile just after: its arm passed over this one
    ([Arrival(1.3, 39, 1, "A", Card.parse("KD"), 0.01, confidence=0.3, alternatives=((Card.parse("KD"), 0.3),)),
      StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True)], [("A", 1, "KD", "JH", False)]),
], ids=["stock_left", "nothing_left", "moved", "laid_on_the_other_pile"])
def test_a_pile_touched_and_read_as_before_is_named_by_the_stock_its_player_lost(extra, expected):
    opening = layout_read((card("QS"), card("JH")), a="QD QC AC KD -", b="JD KC 5D 4H 3C")
    sightings = sorted([opening, touched()] + extra, key=lambda sighting: sighting.t)
    assert plays(referee_with_hindsight(sightings)) == expected


def test_a_pile_touched_by_a_hand_that_went_on_to_the_other_pile_is_not_named_by_the_stock_it_lost():
    # the tracker saw A's hand touch the other pile just after (its card there lies under B's, still to be
    # named by the same KD that left A's stock): the arm passed over this pile
    opening = layout_read((card("QS"), card("JH")), a="QD QC AC KD -", b="JD KC 5D 4H 3C")
    sightings = [opening, touched(went_on=True), StockSeen(1.2, 36, "A", 3, BACK, card("KD"), True)]
    assert plays(referee_with_hindsight(sightings)) == []


def test_the_session_holds_a_pile_touched_in_play_until_the_stocks_are_seen_again():
    opening = layout_read((card("QS"), card("JH")), a="QD QC AC KD -", b="JD KC 5D 4H 3C")
    script = {0: [opening], 32: [touched(1.0)], 45: [StockSeen(1.3, 39, "A", 3, BACK, card("KD"), True)]}
    session = RefereeSession(ScriptedTracker(script), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    assert [(e["player"], str(e["card"])) for e in session.events if e.type.value == "play"] == [("A", "KD")]


#: B's KH turned up at 0.6 s and read QD: on the JD, play looks open; nothing else fits JD or 3H
STALLED_UNSEEN = dict(a="5S 9D KD 7S 6D", b="JC 9C 7H 5D #")


def spits_together(first=2.0):
    """A's 5C read 5S (A's stock top) and B's JH laid at once on the other pile."""
    return [Arrival(first, int(first * 30), 1, "A", Card.parse("5S"), 0.01, confidence=0.5, together=True,
                    alternatives=((Card.parse("5S"), 0.5), (Card.parse("5C"), 0.3))),
            Arrival(first + 0.08, int(first * 30) + 2, 0, "B", Card.parse("JH"), 0.01, confidence=0.44, together=True,
                    alternatives=((Card.parse("JH"), 0.44), (Card.parse("JC"), 0.12)))]


@pytest.mark.parametrize("extra, expected", [
    # nothing left a stock, none laid for over a second: the spits after a stall the reader hid
    ([], [("stall", None, None), ("spit", "A", "5C"), ("spit", "B", "JH")]),
    # A's 5S was seen leaving its stock: plays, not spits (the JH B's JC, which the reader allowed)
    ([StockSeen(2.3, 69, "A", 0, BACK, card("5S"), True)], [("play", "A", "5S"), ("play", "B", "JC")]),
    # ... but A's hand came to that stock only after the card landed: its next card, fetched after the spit
    ([StockSeen(2.3, 69, "A", 0, BACK, card("5S"), True, reached_at=2.15)],
     [("stall", None, None), ("spit", "A", "5C"), ("spit", "B", "JH")]),
    # a card laid half a second before: no lull, no stall to infer
    ([Arrival(1.5, 45, 0, "B", Card.parse("QD"), 0.01, confidence=0.95, alternatives=((Card.parse("QD"), 0.95),))],
     [("play", "B", "QD"), ("play", "A", "5S"), ("play", "B", "JC")]),
], ids=["no_stock_left", "stock_left", "stock_left_after", "no_lull"])
def test_two_cards_laid_at_once_after_a_lull_that_left_no_stock_are_the_spits_after_a_stall_the_reader_missed(extra, expected):
    opening = layout_read((card("JD"), card("3H")), **STALLED_UNSEEN)
    turned_up = StockSeen(0.6, 18, "B", 4, card("QD"), BACK, True)
    sightings = sorted([opening, turned_up] + spits_together() + extra, key=lambda sighting: sighting.t)
    events = referee_with_hindsight(sightings)
    ruled = [(kind, e.details.get("player"), None if "card" not in e.details else str(e["card"]))
             for kind, e in events if kind in ("stall", "spit", "play")]
    assert ruled == expected
    stalls = [e for kind, e in events if kind == "stall"]
    assert [e.t for e in stalls] == ([0.6] if expected[0][0] == "stall" else [])   # dated when B's card turned up


@pytest.mark.parametrize("gap, expected", [
    # B's hand seen at both piles 0.04 s apart: B laid the card it reached last, A's arm went unseen
    (0.04, [("A", 1, "8C"), ("B", 0, "QD")]),
    # half a second apart: B spat first, the later card under B's passing hand is A's
    (0.5, [("B", 1, "8C"), ("A", 0, "QD")]),
], ids=["at_once", "apart"])
def test_one_hand_seen_laying_both_spit_cards_at_once_laid_the_one_it_reached_last(gap, expected):
    opening = LayoutRead(0.0, 0, stocks(a="7S 10D 2H 5H 9H", b="KC 3S 4D JH 6D"), (EMPTY, EMPTY), first=True)
    sightings = [opening, Arrival(2.55, 76, 1, "B", Card.parse("8C"), 0.01, confidence=0.95),
                 Arrival(2.55 + gap, 77, 0, "B", Card.parse("QD"), 0.01, confidence=0.95)]
    events = referee_with_hindsight(sightings)
    assert [(e["player"], e["pile"], str(e["card"])) for kind, e in events if kind == "spit"] == expected


@pytest.mark.parametrize("left_at, expected_stock_b1", [(None, "K?"), (1.1, "empty"), (0.1, "K?")],
                         ids=["no_stock_seen", "its_stock_seen_bare", "an_older_departure"])
def test_a_card_read_surely_as_none_of_the_stock_tops_came_from_the_stock_seen_losing_its_top_then(left_at, expected_stock_b1):
    # seed 172's clip: the opening layout read B's `JC` as `KC`; B laid the `JC` (read surely) and its slot was
    # seen bare; the slot stayed full in the engine's count, and a stall came 0.9 s early
    opening = layout_read((card("QD"), card("8H")), a="2H 5S 9D 4C 7H", b="3C KC 6D 10S AH")
    jack = Arrival(1.0, 30, 0, "B", Card.parse("JC"), 0.01, confidence=0.89,
                   alternatives=((Card.parse("JC"), 0.66), (Card.parse("JS"), 0.22)))
    sightings = [opening, jack]
    if left_at is not None:
        sightings.insert(1 if left_at < 1.0 else 2, StockSeen(left_at, int(left_at * 30), "B", 1, EMPTY, card("KC"), True))
    engine = RulesEngine(RulesConfig().for_camera())
    translator, events = Translator(), []
    for number, sighting in enumerate(sightings):
        found, _ = translator.translate(sighting, engine.state, sightings[number + 1:])
        for observation in found:
            events += [(e.type.value, e) for e in engine.observe(observation)]
    assert plays(events) == [("B", 0, "JC", "QD", True)]
    slot = engine.state.players["B"].stocks[1]
    assert ("empty" if slot.count == 0 else "K?") == expected_stock_b1


@pytest.mark.parametrize("departure, expected", [(True, ("A", 0, "KC", "QD", True)), (False, ("A", 0, "JC", "QD", True))],
                         ids=["its_stock_seen_losing_it", "no_departure"])
def test_a_card_read_as_the_card_a_stock_was_seen_losing_came_from_it_though_the_engine_had_another_there(departure, expected):
    # seed 203: a `K?` seen turned up on A's stock counted empty was taken for A's other king moved there, and
    # that king's play left the engine nothing there; A then laid the `KC` still lying there, read KC with a
    # jack of clubs among the reader's doubts, and the stock was seen losing its `K?`
    opening = layout_read((card("8D"), card("8H")), a="KS 5S JC - 7H", b="3C 2C 6D 10S AH")
    king_seen = StockSeen(0.5, 15, "A", 3, Reading(Card.parse("K?"), confidence=0.6), EMPTY, True)
    king_played = Arrival(0.8, 24, 0, "A", Card.parse("KS"), 0.01, confidence=0.9)
    queen = Arrival(0.9, 27, 0, "B", Card.parse("QD"), 0.01, confidence=0.9)
    king = Arrival(1.0, 30, 0, "A", Card.parse("KC"), 0.01, confidence=0.5,
                   alternatives=((Card.parse("KS"), 0.30), (Card.parse("KC"), 0.26), (Card.parse("QC"), 0.11), (Card.parse("JC"), 0.07)))
    sightings = [opening, king_seen, king_played, queen, king]
    if departure:
        sightings.append(StockSeen(1.2, 36, "A", 3, EMPTY, Reading(Card.parse("K?"), confidence=0.6), True))
    assert plays(referee_with_hindsight(sightings))[-1] == expected


def test_a_card_seen_leaving_a_slot_the_engine_holds_no_stock_in_is_ruled_as_read():
    # a render whose players rest their hands in front of their stocks: a card seen in the spare slot beside B's row
    # (slot 5, where the engine holds no stock) and seen leaving it as B laid that card; taking that slot for the
    # card's stock raised, and the replay ended there
    opening = layout_read((card("8D"), card("8H")), a="KS 5S JC 4D 7H", b="3C 2C 6D 10S AH")
    seen = StockSeen(0.5, 15, "B", 5, card("9S"), EMPTY, True)
    nine = Arrival(1.0, 30, 0, "B", Card.parse("9S"), 0.01, confidence=0.9)
    left = StockSeen(1.2, 36, "B", 5, EMPTY, card("9S"), True)
    assert plays(referee_with_hindsight([opening, seen, nine, left]))[-1] == ("B", 0, "9S", "8D", True)


def test_a_stock_seen_losing_a_card_of_its_tops_rank_read_with_another_suit_lost_its_top():
    # seed 204: three jacks on B's stocks; B laid the `JD`, read `J?` (hearts and diamonds its likeliest), and
    # its stock, whose `JD` the tracker had lately read `JH`, was seen losing a `JH`
    opening = layout_read((card("3H"), card("7D")), a="2H 5S 9D 4C 7H", b="7S JC JD JH 6S")
    jack = Arrival(1.0, 30, 1, "B", Card.parse("J?"), 0.01, confidence=0.3,
                   alternatives=((Card.parse("JH"), 0.14), (Card.parse("QH"), 0.11), (Card.parse("JD"), 0.10)))
    left = StockSeen(1.2, 36, "B", 2, BACK, card("JH"), True)
    assert plays(referee_with_hindsight([opening, jack, left])) == [("B", 1, "JD", "7D", False)]


@pytest.mark.parametrize("landing, confidence, expected", [
    ("8S", 0.92, "8S"),   # read surely in the other colour: another card of the rank, as it landed
    ("8S", 0.6, "8H"),    # read unsurely: the stock top, read while it lay still, names it
    ("8D", 0.95, "8H"),   # the same colour: a suit misread, and the stock top names it
], ids=["other_colour_sure", "other_colour_unsure", "same_colour"])
def test_a_card_read_surely_in_the_other_colour_than_the_stock_top_of_its_rank_is_as_it_landed(landing, confidence, expected):
    # seed 201's clip: A laid an `8S` held since before the clip began (read 0.92), an `8H` on A's stock
    opening = layout_read((card("4C"), card("9S")), a="2H 8H QS 4D 7D", b="5C JC 6D 3H 9C")
    eight = Arrival(1.0, 30, 1, "A", Card.parse(landing), 0.01, confidence=confidence, alternatives=((Card.parse(landing), confidence),))
    assert [ruled[2] for ruled in plays(referee_with_hindsight([opening, eight]))] == [expected]


@pytest.mark.parametrize("extra, expected", [
    # A's stock lost its 6C as A's hand laid the card the pile now shows, B's 8S: A's 6C lies under it
    ([StockSeen(4.67, 140, "A", 4, BACK, card("6C"), True), StockSeen(4.73, 142, "B", 3, BACK, card("8S"), True)],
     [("A", 1, "6C", "7C", True), ("B", 1, "8S", "6C", False)]),
    # A's stocks lost nothing: A's hand was there and B laid the 8S
    ([StockSeen(4.73, 142, "B", 3, BACK, card("8S"), True)], [("B", 1, "8S", "7C", True)]),
    # the 6C A's stock lost went onto the other pile: A's arm passed over this one on its way
    ([StockSeen(4.67, 140, "A", 4, BACK, card("6C"), True), StockSeen(4.73, 142, "B", 3, BACK, card("8S"), True),
      Arrival(4.8, 144, 0, "A", Card.parse("6C"), 0.01, confidence=0.9, alternatives=((Card.parse("6C"), 0.9),))],
     [("B", 1, "8S", "7C", True), ("A", 0, "6C", "7D", True)]),
    # A's stock lost its 6C long before (a card A has held since): not this touch's
    ([StockSeen(3.5, 105, "A", 4, BACK, card("6C"), True), StockSeen(4.73, 142, "B", 3, BACK, card("8S"), True)],
     [("B", 1, "8S", "7C", True)]),
], ids=["own_stock_left", "nothing_left", "laid_elsewhere", "left_long_before"])
def test_a_hand_seen_laying_the_other_players_card_laid_its_own_under_it_when_its_stock_lost_one_then(extra, expected):
    # A's and B's hands reached pile 1 within a frame; only A's was seen touching it, and the pile, read once
    # both had gone, showed B's 8S on top (fresh seed 514: A's 6C lost, B's 8S ruled laid on the 7C)
    opening = layout_read((card("7D"), card("7C")), a="2H 5S 9D JC 6C", b="3C 6D 10S 8S AH")
    laying = Arrival(4.49, 135, 1, "A", Card.parse("8S"), 0.02, confidence=0.94, alternatives=((Card.parse("8S"), 0.94),))
    sightings = sorted([opening, laying] + extra, key=lambda sighting: sighting.t)
    assert plays(referee_with_hindsight(sightings)) == expected
