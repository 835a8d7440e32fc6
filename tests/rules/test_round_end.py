import pytest

from referee.rules.config import RulesConfig
from referee.rules.round_end import RoundFacts, settle, stopped_winner, takes_from_slaps


def facts(**changes):
    base = dict(
        reason="stock_out", ender="A", spit_piles_in_use=2, no_spit_player=None,
        stock_counts={"A": 0, "B": 6}, spit_counts={"A": 4, "B": 5}, pile_counts=(10, 27),
        slaps={"A": (1.0, 0), "B": (1.2, 1)},
    )
    base.update(changes)
    return RoundFacts(**base)


@pytest.mark.parametrize(
    "slaps, takes, notes",
    [
        ({"A": (1.0, 0), "B": (1.1, 1)}, {"A": 0, "B": 1}, 0),
        ({"A": (1.0, 1), "B": (1.1, 1)}, {"A": 1, "B": 0}, 0),
        ({"A": (1.2, 1), "B": (1.1, 1)}, {"A": 0, "B": 1}, 0),
        ({"B": (1.1, 1), "A": (1.1, 1)}, {"A": 0, "B": 1}, 0),  # timed alike: the slap told first
        ({"A": (1.1, 1), "B": (1.1, 1)}, {"A": 1, "B": 0}, 0),
        ({"B": (1.1, 0)}, {"A": 1, "B": 0}, 1),      # a player who did not slap takes the pile left over
        ({}, {"A": 0, "B": 1}, 1),
    ],
)
def test_slaps_decide_who_takes_which_pile(slaps, takes, notes):
    result, said = takes_from_slaps(slaps)
    assert result == takes and len(said) == notes


def test_each_player_adds_their_remaining_stock_and_spit_cards_to_the_pile_they_took():
    result = settle(facts(), {"A": 0, "B": 0}, RulesConfig())
    assert result.takes == {"A": 0, "B": 1}
    assert result.cards == {"A": 4 + 10, "B": 11 + 27} and sum(result.cards.values()) == 52
    assert result.winner is None


@pytest.mark.parametrize(
    "scores, winner",
    [({"A": 0, "B": 0}, None), ({"A": 96, "B": 10}, "B"), ({"A": 10, "B": 89}, "A"), ({"A": 96, "B": 89}, None)],
)
def test_scoring_variant_the_game_ends_at_100_points_and_the_lowest_total_wins(scores, winner):
    result = settle(facts(), scores, RulesConfig(win_rule="scoring"))
    assert result.points == {"A": 4, "B": 11}
    assert result.scores == {"A": scores["A"] + 4, "B": scores["B"] + 11}
    assert result.winner == winner


@pytest.mark.parametrize(
    "cards, scores, rule, winner",
    [
        ({"A": 20, "B": 32}, {"A": 0, "B": 0}, "standard", "A"),
        ({"A": 26, "B": 26}, {"A": 0, "B": 0}, "standard", None),
        ({"A": 30, "B": 22}, {"A": 40, "B": 60}, "scoring", "A"),
        ({"A": 30, "B": 22}, {"A": 50, "B": 50}, "scoring", "B"),
    ],
)
def test_a_stopped_game_goes_to_the_lower_score_or_the_fewer_cards(cards, scores, rule, winner):
    assert stopped_winner(cards, scores, RulesConfig(win_rule=rule)) == winner
