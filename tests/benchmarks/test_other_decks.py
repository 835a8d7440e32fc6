"""The other decks' benchmark: games dealt in decks no model trained on, on seeds of their own."""

import sys

import pytest

from benchmarks import all_at_once, other_decks, racing_unseen_decks, referee_light, referee_steep, referee_unseen, touch_order
from benchmarks.referee_accuracy import SUITE
from referee.synth import faces


@pytest.mark.skipif(not faces.OTHER_DESIGNS, reason="KDE's card decks (kdegames-card-data-kf5) are not installed")
def test_each_deck_deals_as_many_games_in_turn_on_seeds_no_other_benchmark_uses():
    games = all_at_once.fresh_games(other_decks.SEEDS, faces.OTHER_DESIGNS)
    others = ([seed for seed, *_ in all_at_once.GAMES] + [seed for seed, *_ in touch_order.GAMES]
              + [seed for seed, *_ in racing_unseen_decks.GAMES] + [seed for seed, *_ in referee_steep.GAMES]
              + [seed for seed, *_ in referee_unseen.GAMES] + [seed for seed, *_ in SUITE] + [seed for seed, *_ in referee_light.GAMES])
    assert not set(other_decks.SEEDS) & set(others) and len(set(other_decks.SEEDS)) == len(other_decks.SEEDS)
    decks = [design for *_, design, _ in games]
    assert all(decks.count(design) == len(games) // len(faces.OTHER_DESIGNS) for design in faces.OTHER_DESIGNS)
    assert set(decks) == set(faces.OTHER_DESIGNS)
    assert {fps for _, fps, *_ in games} == {30, 60}
    assert not set(other_decks.PUBLIC_SEEDS) & set(others + other_decks.SEEDS)


def test_without_the_decks_it_says_what_to_install_and_fails(monkeypatch, capsys):
    monkeypatch.setattr(faces, "OTHER_DESIGNS", ())
    monkeypatch.setattr(sys, "argv", ["other_decks", "--quick"])
    assert other_decks.main() == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "kdegames-card-data-kf5" in error and error.count("\n") == 1


def test_where_the_repositorys_decks_cannot_be_drawn_public_says_why_and_fails(monkeypatch, capsys):
    monkeypatch.setattr(faces, "PUBLIC_DESIGNS", ())
    monkeypatch.setattr(sys, "argv", ["other_decks", "--public", "--quick"])
    assert other_decks.main() == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "librsvg" in error and error.count("\n") == 1
