"""The pile-top benchmark's scoring: what counts as right, wrong and unnamed."""

import numpy as np

from benchmarks import pile_tops
from referee.rules.cards import Card
from referee.vision.recogniser import TopCardReading


class Scripted:
    """Reads each view as the card written in its first pixel's slot of `answers`."""

    def __init__(self, answers):
        self.answers = answers

    def read_top_card(self, view, px_per_mm=None, outline=None):
        answer = self.answers[int(view[0, 0, 0])]
        return TopCardReading(None if answer is None else Card.parse(answer), 0.9)


def views(truths):
    outline = np.zeros((4, 2), np.float32)
    return [(frame, np.full((4, 4, 3), frame, np.uint8), truth, outline if frame % 2 else None) for frame, truth in enumerate(truths)]


def test_readings_are_sorted_into_right_wrong_and_unnamed():
    truths = ["7H", "KD", "KD", "QS", "9C", None, None]
    answers = ["7H", "K?", "KH", None, "8C", "2S", None]
    counts, with_outline, without = pile_tops.score(Scripted(answers), views(truths))
    assert len(with_outline) == 3 and len(without) == 4
    assert counts["pip", "right"] == 1 and counts["pip", "wrong"] == 1 and counts["pip", "wrong_suit_only"] == 0
    assert counts["court", "right"] == 1 and counts["court", "rank_only"] == 1
    assert counts["court", "wrong"] == 1 and counts["court", "wrong_suit_only"] == 1
    assert counts["court", "unnamed"] == 1
    assert counts["empty", "views"] == 2 and counts["empty", "wrong"] == 1

    shares = pile_tops._shares(counts, ("pip", "court", "empty"))
    assert shares["views"] == 7 and shares["views_with_a_card"] == 5 and shares["with_outline"] == round(3 / 7, 4)
    assert shares["right"] == 0.4 and shares["unnamed"] == 0.2
    assert shares["wrong"] == round(3 / 7, 4)  # an empty view named counts against all views
