"""End to end: a drawn mid-game clip refereed through a namer that misreads one card.

Before camera tolerance, each of these misreadings lost every ruling of the clip.
"""

import math

import cv2
import numpy as np
import pytest

from referee.pipeline.run import replay
from referee.rules.cards import Card
from referee.rules.events import EventType, read_event_log
from tests.piles.drawn_table import ColourNamer
from tests.pipeline.drawn_games import PLAYS, write_mid_game


class MisreadingNamer(ColourNamer):
    """The colour namer, but one card is always read as another (or not read: None)."""

    def __init__(self, card: str, read_as: str | None) -> None:
        super().__init__()
        self.card, self.read_as = Card.parse(card), read_as and Card.parse(read_as)

    def name_top_card(self, image):
        card, confidence = super().name_top_card(image)
        if card == self.card:
            return self.read_as, (confidence if self.read_as else 0.0)
        return card, confidence


class LightProofNamer(ColourNamer):
    """The colour namer on crops brought back to the drawn light by the card's white face: the drawn
    cards' names are colours, and what is tested here is the tracking, not the namer's eyes."""

    def name_top_card(self, image):
        pixels = image.reshape(-1, 3)
        white = pixels[pixels.min(axis=1) > 150]
        if len(white):
            image = cv2.convertScaleAbs(image, alpha=239.5 / float(np.median(white)))
        return super().name_top_card(image)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    return write_mid_game(tmp_path_factory.mktemp("misread_clip"))


@pytest.mark.parametrize(
    "card, read_as, notice",
    [
        ("5H", None, "could not be read"),          # spit pile 0's top unreadable at the start
        ("4S", "2C", "2C shown in two places"),     # a stock top misread as a card shown elsewhere
        ("10H", "JH", "JH shown in two places"),    # a card that is played read as another that is played
    ],
    ids=["pile_top_unreadable", "layout_duplicate", "duplicate_play"],
)
def test_one_misread_card_does_not_lose_the_clips_rulings(clip, tmp_path, card, read_as, notice):
    video, calibration = clip
    replay(video, calibration, tmp_path / "events.jsonl", namer=MisreadingNamer(card, read_as))
    events = read_event_log(str(tmp_path / "events.jsonl"))
    plays = [e for e in events if e.type is EventType.PLAY]
    renamed = {card: read_as} if read_as else {}
    assert [(e["player"], str(e["card"]), e["pile"]) for e in plays] == \
        [(player, renamed.get(name, name), pile) for player, name, _, pile, _, _ in PLAYS]
    assert all(abs(e.t - truth[4]) < 1 / 30 for e, truth in zip(plays, PLAYS))
    if card in ("5H", "4S"):  # the misreading changes no legality: every ruling is the truth's
        assert [e["legal"] for e in plays] == [truth[5] for truth in PLAYS]
    assert notice in " | ".join(e["message"] for e in events if e.type is EventType.NOTICE)


@pytest.mark.parametrize("light", [
    lambda t: 1.0 + 0.06 * math.sin(2 * math.pi * 100 * t),        # mains flicker, beating with the frames
    lambda t: 1.0 - 0.3 * min(max((t - 2.0) / 0.3, 0.0), 1.0),     # the room dims by 30 % mid-game
], ids=["flicker", "dimmed"])
def test_a_changing_light_loses_no_ruling(tmp_path, light):
    video, calibration = write_mid_game(tmp_path, light=light)
    replay(video, calibration, tmp_path / "events.jsonl", namer=LightProofNamer())
    plays = [e for e in read_event_log(str(tmp_path / "events.jsonl")) if e.type is EventType.PLAY]
    assert [(e["player"], str(e["card"]), e["pile"], e["legal"]) for e in plays] == \
        [(player, name, pile, legal) for player, name, _, pile, _, legal in PLAYS]
    assert all(abs(e.t - truth[4]) < 1 / 30 for e, truth in zip(plays, PLAYS))


def test_a_card_laid_just_before_the_video_ends_is_still_ruled(tmp_path):
    # the clip stops 0.4 s after the last card (A's KD) touched: the hand has gone, the pile not yet settled
    video, calibration = write_mid_game(tmp_path, seconds=4.9)
    replay(video, calibration, tmp_path / "events.jsonl", namer=ColourNamer())
    plays = [e for e in read_event_log(str(tmp_path / "events.jsonl")) if e.type is EventType.PLAY]
    assert [(e["player"], str(e["card"]), e["legal"]) for e in plays] == [(p, c, legal) for p, c, _, _, _, legal in PLAYS]
