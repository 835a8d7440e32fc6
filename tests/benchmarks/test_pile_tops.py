"""The pile-top benchmark's scoring: what counts as right, wrong and unnamed."""

import numpy as np

from benchmarks import pile_tops
from referee.rules.cards import RANKS, SUITS, Card
from referee.vision.recogniser import TopCardReading


class Scripted:
    """Reads each view as the card written in its first pixel's slot of `answers`."""

    def __init__(self, answers):
        self.answers = answers
        self.whole_cards = []  # the `whole_card` of each read, in order

    def read_top_card(self, view, px_per_mm=None, outline=None, whole_card=False):
        self.whole_cards.append(whole_card)
        answer = self.answers[int(view[0, 0, 0])]
        return TopCardReading(None if answer is None else Card.parse(answer), 0.9)

    def readings_by_reader(self, view, outline):
        """The corners and the suit classifier name the answer; the face its rank in the other suit of its colour."""
        card = Card.parse(self.answers[int(view[0, 0, 0])])
        rank, suit = RANKS.index(card.rank), SUITS.index(card.suit)
        other = SUITS.index({"S": "C", "C": "S", "H": "D", "D": "H"}[card.suit])
        corners, face, suits = np.zeros((13, 4)), np.zeros((13, 4)), np.zeros(4)
        corners[rank, suit], face[rank, other], suits[suit] = 0.9, 0.8, 0.7
        return {"corners": corners, "face": face, "suit": suits}


def views(truths):
    """Views of `truths`, the odd ones with an outline, every third one of those a stock slot's (a whole card)."""
    outline = np.zeros((4, 2), np.float32)
    return [(frame, np.full((4, 4, 3), frame, np.uint8), truth, outline if frame % 2 else None, frame % 6 == 1)
            for frame, truth in enumerate(truths)]


def test_readings_are_sorted_into_right_wrong_and_unnamed():
    truths = ["7H", "KD", "KD", "QS", "9C", None, None]
    answers = ["7H", "K?", "KH", None, "8C", "2S", None]
    recogniser = Scripted(answers)
    counts, with_outline, without = pile_tops.score(recogniser, views(truths))
    assert len(with_outline) == 3 and len(without) == 4
    assert recogniser.whole_cards == [False, True, False, False, False, False, False]  # as the tracker said
    assert counts["pip", "right"] == 1 and counts["pip", "wrong"] == 1 and counts["pip", "wrong_suit_only"] == 0
    assert counts["court", "right"] == 1 and counts["court", "rank_only"] == 1
    assert counts["court", "wrong"] == 1 and counts["court", "wrong_suit_only"] == 1
    assert counts["court", "unnamed"] == 1
    assert counts["empty", "views"] == 2 and counts["empty", "wrong"] == 1

    shares = pile_tops._shares(counts, ("pip", "court", "empty"))
    assert shares["views"] == 7 and shares["views_with_a_card"] == 5 and shares["with_outline"] == round(3 / 7, 4)
    assert shares["right"] == 0.4 and shares["unnamed"] == 0.2
    assert shares["wrong"] == round(3 / 7, 4)  # an empty view named counts against all views


def kept_render(folder, design, truths):
    """A kept render's folder whose pile views were recorded already (the cache `recorded_views` reads)."""
    import json
    import pickle

    folder.mkdir(parents=True)
    (folder / "render.json").write_text(json.dumps({"design": design}))
    with open(folder / pile_tops.VIEWS_FILE, "wb") as handle:
        pickle.dump(views(truths), handle)
    return folder


def test_kept_renders_of_other_benchmarks_score_apart_with_court_cards_split_by_held_out_decks(tmp_path):
    answers = ["KD", "QS", "JC", "7H"]
    hershey = kept_render(tmp_path / "hershey_game", "hershey", ["KD", "QC", "JC", "7H"])  # two courts right, one suit wrong
    classic = kept_render(tmp_path / "classic_game", "classic", ["KD", "QS", "JS", "7H"])
    result = pile_tops.score_replays(Scripted(answers), [hershey, classic])
    assert result["folders"] == 2 and result["all"]["views"] == 8
    assert result["court_cards_held_out_decks"]["views"] == 3 and result["court_cards_held_out_decks"]["right"] == round(2 / 3, 4)
    assert result["court_cards_held_out_decks"]["wrong_suit_only"] == round(1 / 3, 4)
    assert result["court_cards_other_decks"]["right"] == round(2 / 3, 4)
    assert set(result["by_design"]) == {"hershey", "classic"}
    # each reader alone on the court cards read on an outline (odd frames): hershey's QC, read QS by the
    # corners and the suit classifier, QC by the face; classic's QS, the other way round
    held_out, other = result["court_cards_by_reader"]["held_out_decks"]["black"], result["court_cards_by_reader"]["other_decks"]["black"]
    assert held_out["views"] == other["views"] == 1
    assert held_out["corners_rank"] == held_out["face_rank"] == 1.0
    assert (held_out["corners_suit"], held_out["face_suit"], held_out["suit_classifier_suit"]) == (0.0, 1.0, 0.0)
    assert (other["corners_suit"], other["face_suit"], other["suit_classifier_suit"]) == (1.0, 0.0, 1.0)
    assert result["court_cards_by_reader"]["held_out_decks"]["red"] == {"views": 0}


def test_a_clip_s_deck_is_that_of_the_game_it_was_cut_from(tmp_path):
    import json

    (tmp_path / "game" / "clip_3.2s").mkdir(parents=True)
    (tmp_path / "game" / "render.json").write_text(json.dumps({"design": "svg:dondorf"}))
    assert pile_tops.design_of(tmp_path / "game" / "clip_3.2s") == "svg:dondorf"
    assert pile_tops.design_of(tmp_path) is None


def test_a_kept_render_s_pile_views_are_recorded_once_and_leave_its_event_log_alone(tmp_path):
    from benchmarks.rendered import render_once

    folder = tmp_path / "game"
    render_once(folder, 14, 30, 4.0)
    (folder / "events.jsonl").write_text("another benchmark's log\n")
    recorded = pile_tops.recorded_views(folder)
    assert recorded and all(view.ndim == 3 for _, view, _, _, _ in recorded)
    assert {truth for _, _, truth, _, _ in recorded if truth is not None}, "the layout's cards are named by the labels"
    assert {whole_card for *_, whole_card in recorded} == {False, True}, "stock slots' views say a whole card lies there"
    assert (folder / "events.jsonl").read_text() == "another benchmark's log\n"
    assert (folder / pile_tops.VIEWS_FILE).exists()
    assert len(pile_tops.recorded_views(folder)) == len(recorded)  # read back, not replayed again
