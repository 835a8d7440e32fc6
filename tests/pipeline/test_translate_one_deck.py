"""A deck holds each card once: a card read as one already seen face up this round is the other card of
its rank its reading allows, where the reading is in doubt."""

import pytest

from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, StockSeen
from referee.rules.cards import Card
from tests.pipeline.test_translate_tolerance import BACK, card, layout_read, plays, referee


def doubtful(text, *alternatives):
    return Reading(Card.parse(text), confidence=0.5, alternatives=tuple((Card.parse(c), p) for c, p in alternatives))


@pytest.mark.parametrize("reading, turned_up", [
    # a court card of a deck the models never saw: its club and spade a few pixels apart; A's QC lies on a stock
    (doubtful("QC", ("QS", 0.27), ("QC", 0.22), ("JS", 0.09)), "QS"),
    # read surely: the earlier reading is the wrong one, and the card stands as read
    (doubtful("QC", ("QC", 0.86), ("QS", 0.02)), "QC"),
    # no other queen in the reading: as read
    (doubtful("QC", ("QC", 0.4), ("JC", 0.2)), "QC"),
], ids=["in_doubt", "sure", "no_other_of_its_rank"])
def test_a_stock_card_turned_up_as_a_card_already_on_the_table_is_the_other_its_reading_allows(reading, turned_up):
    opening = layout_read((card("KD"), card("2D")), a="2H 5S 9D QC KH", b="3C # 10S 6S AH")
    turn_up = StockSeen(1.0, 30, "B", 1, reading, BACK, True, turned_at=0.9)
    laid = Arrival(2.0, 60, 0, "B", Card.parse("Q?"), 0.01, confidence=0.8)  # B lays it on the KD
    events, observations, engine = referee([opening, turn_up, laid])
    assert [str(o.card) for o in observations if type(o).__name__ == "StockTurnedUp"] == [turned_up]
    assert plays(events) == [("B", 0, turned_up, "KD", True)]
    twice = [e for kind, e in events if kind == "notice" and "already seen" in e["message"]]
    assert bool(twice) == (turned_up == "QC")


def test_a_spit_read_as_a_card_covered_on_a_pile_this_round_is_another_of_its_rank():
    # the 3S opened pile 0 and lies under B's 3D; a stall, and A's next spit, on pile 1, is read 3S: the 3C
    opening = layout_read((card("3S"), card("9C")), a="QS JS KD 6H QH", b="AD JH JD 6C 5D")
    first = [Arrival(2.0, 60, 1, "A", Card.parse("9D"), 0.01, together=True),
             Arrival(2.02, 61, 0, "B", Card.parse("3D"), 0.01, together=True)]
    again = [Arrival(5.0, 150, 1, "A", Card.parse("3S"), 0.01, confidence=0.4, together=True,
                     alternatives=((Card.parse("3S"), 0.4), (Card.parse("3C"), 0.2))),
             Arrival(5.02, 151, 0, "B", Card.parse("3H"), 0.01, together=True)]
    events, _, _ = referee([opening] + first + again)
    assert [(e["player"], str(e["card"])) for kind, e in events if kind == "spit"] == [
        ("A", "9D"), ("B", "3D"), ("A", "3C"), ("B", "3H")]
