"""The unseen-deck racing benchmark's games: dealt only in the decks the face classifier never trained on,
on seeds of their own."""

from benchmarks import racing_unseen_decks, touch_order
from models.train import FACE_HELD_OUT_DESIGNS


def test_every_game_is_dealt_in_a_deck_the_face_classifier_never_trained_on():
    assert {design for *_, design in racing_unseen_decks.GAMES} == set(FACE_HELD_OUT_DESIGNS)


def test_the_games_cover_both_frame_rates_on_seeds_the_racing_benchmark_does_not_use():
    seeds = [seed for seed, *_ in racing_unseen_decks.GAMES]
    assert len(set(seeds)) == len(seeds)
    assert not set(seeds) & {seed for seed, *_ in touch_order.GAMES}
    assert {fps for _, fps, *_ in racing_unseen_decks.GAMES} == {30, 60}
