"""A card is read twice: on the stock it left, lying still, and on the pile it landed on. A stock top
with a suit names the card; one named by rank only takes the suit both readings believe in together."""

import pytest

from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead
from referee.rules.cards import Card
from tests.pipeline.test_translate_tolerance import card, plays, referee, stocks


def doubtful(text, *alternatives):
    """A reading of `text` with its doubts, ("JS", 0.5), ... best first."""
    doubts = tuple((Card.parse(name), chance) for name, chance in alternatives)
    return Reading(Card.parse(text), confidence=doubts[0][1], alternatives=doubts)


def opening(first_stock: Reading) -> LayoutRead:
    rows = stocks(a="2H 5S 9D 4C KH", b="3C 6D 10S QS AH")
    rows["A"] = (first_stock,) + rows["A"][1:]
    return LayoutRead(0.0, 0, rows, (card("10D"), card("8H")), first=True)


def landing(*alternatives, text=None):
    doubts = tuple((Card.parse(name), chance) for name, chance in alternatives)
    return Arrival(1.0, 30, 0, "A", Card.parse(text or alternatives[0][0]), 0.01, confidence=doubts[0][1],
                   alternatives=doubts)


@pytest.mark.parametrize("stock, laid, named", [
    # both readings lean the same way: the suit is named
    (doubtful("J?", ("JS", 0.50), ("JC", 0.30), ("QS", 0.05)), landing(("JS", 0.55), ("JC", 0.25), text="J?"), "JS"),
    # they pull apart: not sure enough of either suit, the card stays as read
    (doubtful("J?", ("JS", 0.45), ("JC", 0.40)), landing(("JC", 0.50), ("JS", 0.40), text="J?"), "J?"),
    # what both believe in most is another rank: the rank read on the stock stands, the card as read
    (doubtful("J?", ("QS", 0.60), ("JS", 0.20), ("JC", 0.20)), landing(("QS", 0.70), ("JC", 0.20), text="J?"), "J?"),
    # a stock top with a suit names the card, whatever the glimpse of it landing said
    (doubtful("JH", ("JH", 0.55), ("JD", 0.35)), landing(("JD", 0.70), ("JH", 0.25)), "JH"),
], ids=["agree", "apart", "other_rank", "suit_on_stock"])
def test_a_card_is_named_from_its_stock_reading_and_its_landing(stock, laid, named):
    events, _, _ = referee([opening(stock), laid])
    assert plays(events) == [("A", 0, named, "10D", True)]


def test_without_the_stock_readings_doubts_the_landing_card_stands():
    events, _, _ = referee([opening(card("J?")), landing(("JS", 0.55), ("JC", 0.25), text="J?")])
    assert plays(events) == [("A", 0, "J?", "10D", True)]


def test_a_suit_read_on_the_card_landing_is_kept_when_its_stock_gave_none():
    stock = doubtful("K?", ("KS", 0.55), ("KC", 0.30))
    events, _, _ = referee([opening(stock), landing(("KC", 0.62), ("KS", 0.30))])
    assert plays(events)[0][2] == "KC"


@pytest.mark.parametrize("alternatives, named", [
    # the jack among the landing reading's doubts, its suit clear: that jack
    ((("QD", 0.285), ("QH", 0.208), ("JD", 0.089), ("JH", 0.052)), "JD"),
    # the jack's suits as likely as each other: the jack, by rank
    ((("QD", 0.30), ("JD", 0.08), ("JH", 0.07)), "J?"),
], ids=["suit_clear", "suit_torn"])
def test_a_card_matched_to_a_rank_only_stock_top_through_its_doubts_takes_that_stock_s_rank(alternatives, named):
    """A stock read `J?` seen losing its card, which lands read `QD` (a jack of a deck the models never saw):
    the stock's rank, read while it lay still, names the card; the landing reading gives its suit."""
    events, _, _ = referee([opening(card("J?")), landing(*alternatives)])
    assert plays(events) == [("A", 0, named, "10D", True)]
