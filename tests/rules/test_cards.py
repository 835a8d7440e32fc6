import pytest
from hypothesis import given, strategies as st

from referee.errors import CardNotationError
from referee.rules.cards import RANKS, Card, full_deck, ranks_adjacent


@pytest.mark.parametrize(
    "text, rank, suit",
    [("10H", "10", "H"), ("AS", "A", "S"), ("QC", "Q", "C"), ("7?", "7", None), ("th", "10", "H"), (" 2d ", "2", "D")],
)
def test_a_card_is_written_rank_then_suit(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "H", "1H", "11S", "10X", "AS!", "KK", None, 7])
def test_unknown_card_strings_are_refused_with_a_clear_message(text):
    with pytest.raises(CardNotationError, match="card|rank|suit"):
        Card.parse(text)


@pytest.mark.parametrize(
    "first, second, adjacent",
    [
        ("A", "K", True),   # A is next to K
        ("A", "2", True),   # ... and to 2
        ("K", "2", False),  # K and 2 are not adjacent
        ("5", "6", True),
        ("6", "5", True),
        ("5", "7", False),
        ("5", "5", False),
        ("10", "J", True),
        ("9", "10", True),
    ],
)
def test_adjacency_wraps_through_the_ace_but_k_and_2_are_not_adjacent(first, second, adjacent):
    assert ranks_adjacent(first, second) is adjacent


def test_the_deck_has_52_different_cards():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52


@given(st.sampled_from(full_deck()))
def test_card_notation_round_trips(card):
    assert Card.parse(str(card)) == card


@given(st.sampled_from(RANKS))
def test_every_rank_has_exactly_two_neighbours(rank):
    assert sum(ranks_adjacent(rank, other) for other in RANKS) == 2
