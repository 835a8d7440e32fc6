"""The turned-tops benchmark: its scenes lay the card turned as asked, where the hand reached, and the
tracker, stepped through the rendered frames, rules the card that arrived."""

import math

import numpy as np
import pytest

from benchmarks import turned_tops
from referee.piles.sightings import Arrival
from referee.rules.cards import Card
from referee.sim.script import Place, PlaceKind
from referee.table.layout import TableLayout

PILE_0 = Place(PlaceKind.SPIT_PILE, 0)


@pytest.mark.parametrize("angle", [0, 30, 90])
def test_the_card_laid_is_turned_from_the_card_beneath_by_the_angle(angle):
    layout = TableLayout()
    frames, beneath, laid = turned_tops.scenes(np.random.default_rng([1, angle]), layout, angle)
    first, last = frames[0].state(0).piles[PILE_0], frames[-1].state(0).piles[PILE_0]
    assert [card.card for card in first] == [beneath] and [card.card for card in last] == [beneath, laid]
    turn = (last[1].pose.angle - last[0].pose.angle + 180) % 360 - 180
    assert abs(abs(turn) - angle) < 1e-6
    assert math.dist((last[1].pose.x, last[1].pose.y), layout.spit_pile_centre(0)) < 20


def test_the_hand_comes_to_the_pile_as_the_card_appears_and_leaves_again():
    layout = TableLayout()
    frames, _, _ = turned_tops.scenes(np.random.default_rng(3), layout, 20)
    assert len(frames) == turned_tops.BEFORE_FRAMES + 2 * turned_tops.WAY_FRAMES + turned_tops.AFTER_FRAMES
    appears = next(index for index, scene in enumerate(frames) if len(scene.state(0).piles[PILE_0]) == 2)
    (hand,) = frames[appears].state(0).hands
    assert math.dist((hand.x, hand.y), layout.spit_pile_centre(0)) < 1e-6
    assert not frames[turned_tops.BEFORE_FRAMES - 1].state(0).hands and not frames[-1].state(0).hands


def test_what_arrived_is_scored_by_the_last_ruling():
    arrival = lambda card: Arrival(1.0, 30, 0, "A", None if card is None else Card.parse(card), 0.01)
    assert turned_tops.verdict([arrival("KD")], Card.parse("2S"), Card.parse("KD")) == "right"
    assert turned_tops.verdict([arrival("K?")], Card.parse("2S"), Card.parse("KD")) == "rank_only"
    assert turned_tops.verdict([arrival("2S")], Card.parse("2S"), Card.parse("KD")) == "wrong"
    assert turned_tops.verdict([arrival(None)], Card.parse("2S"), Card.parse("KD")) == "unnamed"
    assert turned_tops.verdict([], Card.parse("2S"), Card.parse("KD")) == "unnamed"


def test_the_tracker_rules_a_card_laid_turned_30_degrees_on_the_pile():
    """End to end: the rendered frames through the real tracker and the shipped models."""
    from referee.pipeline.run import load_namer
    from referee.synth.dataset import stills_renderer

    layout = TableLayout()
    frames, beneath, laid = turned_tops.scenes(np.random.default_rng([0, 30, 20261204]), layout, 30)
    renderer = stills_renderer(frames, seed=50_000, layout=layout)
    arrivals = turned_tops.referee_sees(renderer, len(frames), load_namer(None))
    assert [(arrival.player, arrival.card) for arrival in arrivals] == [("A", laid)]
