import pytest
from hypothesis import given, strategies as st

from referee.rules.deal import spit_cards, spit_piles_in_use, stock_sizes


@pytest.mark.parametrize(
    "cards, sizes, spit",
    [
        (26, (1, 2, 3, 4, 5), 11),
        (15, (1, 2, 3, 4, 5), 0),
        (14, (1, 2, 3, 4, 4), 0),
        (7, (1, 2, 3, 1, 0), 0),     # [reading] pile 1 gets 1, pile 2 gets 2 ... until the cards run out
        (3, (1, 2, 0, 0, 0), 0),
        (1, (1, 0, 0, 0, 0), 0),
        (0, (0, 0, 0, 0, 0), 0),
        (45, (1, 2, 3, 4, 5), 30),
    ],
)
def test_a_player_lays_out_five_stock_piles_of_1_to_5_cards_as_far_as_the_cards_go(cards, sizes, spit):
    assert stock_sizes(cards) == sizes and spit_cards(cards) == spit


@pytest.mark.parametrize("spit, piles", [({"A": 11, "B": 11}, 2), ({"A": 0, "B": 37}, 1), ({"A": 1, "B": 0}, 1)])
def test_a_player_with_no_spit_cards_cannot_spit_so_the_round_uses_one_spit_pile(spit, piles):
    assert spit_piles_in_use(spit) == piles


@given(st.integers(0, 52))
def test_every_card_is_dealt_somewhere(cards):
    assert sum(stock_sizes(cards)) + spit_cards(cards) == cards and max(stock_sizes(cards)) <= 5


def test_a_negative_number_of_cards_is_an_error():
    with pytest.raises(ValueError):
        stock_sizes(-1)
