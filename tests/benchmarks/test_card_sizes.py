"""The card-size benchmark deals `all_at_once`'s own games again, at another size."""

from benchmarks import all_at_once, card_sizes


def test_the_sized_games_are_all_at_once_deals_of_both_decks_and_frame_rates():
    assert card_sizes.SIZED_GAMES == all_at_once.GAMES[:len(card_sizes.SIZED_GAMES)]
    assert {fps for _, fps, *_ in card_sizes.SIZED_GAMES} == {30, 60}
    assert len({design for *_, design, _ in card_sizes.SIZED_GAMES}) == 2

