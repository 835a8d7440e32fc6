"""Telling a bare spot from one with a card on it, by the colour of the bare table."""

import pathlib

import cv2
import numpy as np
import pytest

from referee.piles.reading import (CARD_MAX_SATURATION, Reading, TableColour, card_coloured, card_gone, namer_at, paper_saturation_limit,
                                   read_place)
from referee.vision.recogniser import TopCardReading
from referee.piles.table_view import RectMM
from referee.rules.cards import Card

DATA = pathlib.Path(__file__).parent / "data"


def _felt(bgr: tuple[int, int, int], *, noise: float = 0.6, seed: int = 0, size: int = 60) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.array(bgr, np.float32) + rng.normal(0.0, noise, (size, size, 3))
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shift", [(-3, 0, 3), (-2, 0, 1), (-3, -2, 2)])
def test_a_green_felt_on_a_hue_bin_edge_stays_bare_when_the_light_shifts_a_little(shift):
    # a green felt with blue a shade above red sits just over hue 60, where two hue bins meet; a
    # white balance that moves blue below red puts it in the other bin
    felt = (28, 82, 26)
    table = TableColour()
    table.learn([_felt(felt, seed=1)])
    shifted = tuple(int(c + d) for c, d in zip(felt, shift))
    assert not table.something_there(_felt(shifted, seed=2))


@pytest.mark.parametrize("thing", [(235, 238, 240), (140, 60, 30), (30, 30, 200)])
def test_paper_a_blue_back_or_a_red_back_on_green_felt_is_something(thing):
    table = TableColour()
    table.learn([_felt((27, 82, 27), seed=1)])
    assert table.something_there(_felt(thing, seed=3))


def test_a_pink_back_on_a_beige_table_is_something_though_its_colour_is_near_the_tables():
    # cut from a rendered game (2 mm a pixel): the bare strips of a beige table, and a stock slot where a
    # red-patterned back, blurred to pink, lies one colour bin off the table's
    strips = cv2.imread(str(DATA / "beige_table_strips.png"))
    back = cv2.imread(str(DATA / "pink_back_on_beige.png"))
    table = TableColour()
    table.learn([strips])
    assert table.something_there(back)
    assert not table.something_there(strips[:, 100:132])
    assert not table.something_there(cv2.convertScaleAbs(strips[:, 200:232], alpha=1.03))  # a little more light


def test_the_table_colour_follows_a_slow_change_of_light():
    table = TableColour()
    table.learn([_felt((40, 90, 140), seed=1)])  # warm wood under a lamp
    daylight = _felt((90, 100, 120), seed=2)
    assert table.something_there(daylight)
    for step in range(30):
        table.learn([_felt((90, 100, 120), seed=10 + step)], blend=0.1)
    assert not table.something_there(daylight)


class _PlainNamer:
    def name_top_card(self, image):
        return Card.parse("7C"), 0.8


class _TruthNamer(_PlainNamer):
    """Knows what lies where and when (ground-truth labels), given frame and place."""

    def name_top_card_in(self, frame, rect, image):
        return (Card.parse("QS"), 1.0) if (frame, rect) == (12, RectMM(0, 0, 63, 88)) else (None, 0.0)


def test_a_namer_that_knows_the_frame_and_place_is_asked_with_them():
    image = np.zeros((10, 10, 3), np.uint8)
    assert namer_at(_TruthNamer(), 12, RectMM(0, 0, 63, 88)).name_top_card(image) == (Card.parse("QS"), 1.0)
    assert namer_at(_TruthNamer(), 13, RectMM(0, 0, 63, 88)).name_top_card(image) == (None, 0.0)
    plain = _PlainNamer()
    assert namer_at(plain, 12, RectMM(0, 0, 63, 88)) is plain


@pytest.mark.parametrize("before, now, gone", [
    ("JS", "JS", False),
    ("J?", "JD", False),   # the same jack, its suit read this time
    ("JS", "J?", False),   # ... or not
    ("JS", "JD", True),    # another jack
    ("JS", "QS", True),
    ("JS", None, True),    # nothing or a back there now
    (None, "JS", False),   # nothing was read there before
])
def test_a_card_is_gone_from_a_place_only_when_what_lies_there_now_cannot_be_it(before, now, gone):
    def reading(text):
        return Reading(None if text is None else Card.parse(text), face_down=text is None)

    assert card_gone(reading(before), reading(now)) is gone


class AskedNamer:
    """Names nothing; keeps what each `read_top_card` was asked with."""

    def __init__(self) -> None:
        self.asked: list[dict] = []

    def read_top_card(self, crop, px_per_mm=None, **by_outline):
        self.asked.append(by_outline)
        return TopCardReading(None, 0.0)


@pytest.mark.parametrize("whole_card", [False, True])
def test_a_stock_slot_s_outline_goes_to_the_namer_as_a_whole_card_s(whole_card):
    """Where a whole card lies for sure when anything does (a stock slot), the namer may take an outline
    showing no face for that card's back; a pile's outline goes without it (it may be off the top card)."""
    table = TableColour()
    table.learn([_felt((27, 82, 27), seed=1)])
    namer = AskedNamer()
    outline = np.array([[10, 10], [50, 10], [50, 55], [10, 55]], np.float32)
    reading = read_place(namer, np.zeros((60, 60, 3), np.uint8), _felt((140, 60, 30), seed=3), table, 3.0, outline,
                         whole_card=whole_card)
    assert reading == Reading(None, True, 0.0)  # a face-down card
    assert namer.asked[0].get("whole_card", False) is whole_card and namer.asked[0]["outline"] is outline
    # a spot mostly bare (a fifth of it unlike the felt): the card the outline was of is gone, and nothing
    # is read by it
    mostly_bare = _felt((27, 82, 27), seed=4)
    mostly_bare[:12] = (140, 60, 30)
    read_place(namer, np.zeros((60, 60, 3), np.uint8), mostly_bare, table, 3.0, outline, whole_card=whole_card)
    assert namer.asked[1] == {}


@pytest.mark.parametrize("whole_card", [False, True])
def test_on_a_pale_table_the_outline_goes_to_the_namer_though_the_spot_looks_bare(whole_card):
    """On a white cloth a card's face looks like the table: whether anything lies there only the namer can
    tell, and it reads the outline the tracker saw the card land in first (else every card laid on a pale
    table is searched for, three times the model time)."""
    pale = TableColour()
    pale.learn([_felt((226, 228, 230), seed=1)])
    assert pale.hides_faces()
    namer = AskedNamer()
    outline = np.array([[10, 10], [50, 10], [50, 55], [10, 55]], np.float32)
    reading = read_place(namer, np.zeros((60, 60, 3), np.uint8), _felt((226, 228, 230), seed=4), pale, 3.0, outline,
                         whole_card=whole_card)
    assert reading == Reading(None, False, 0.0)
    assert namer.asked[0]["outline"] is outline and namer.asked[0].get("whole_card", False) is whole_card


class CountingNamer:
    """Names a seven of clubs; counts how often it is asked."""

    def __init__(self) -> None:
        self.asked = 0

    def name_top_card(self, image):
        self.asked += 1
        return Card.parse("7C"), 0.8


@pytest.mark.parametrize("outline", [None, np.array([[10, 10], [50, 10], [50, 55], [10, 55]], np.float32)])
def test_a_plainly_bare_spot_on_a_table_unlike_paper_is_not_read(outline):
    """The recogniser's time is spent only where something may lie: a spot of green felt is empty."""
    table = TableColour()
    table.learn([_felt((27, 82, 27), seed=1)])
    namer = CountingNamer()
    assert read_place(namer, np.zeros((60, 60, 3), np.uint8), _felt((27, 82, 27), seed=4), table, 3.0, outline) == Reading(None)
    assert namer.asked == 0
    assert read_place(namer, np.zeros((60, 60, 3), np.uint8), _felt((235, 238, 240), seed=3), table, 3.0, outline).card == Card.parse("7C")
    assert namer.asked == 1


def test_on_a_white_cloth_a_spot_that_looks_like_the_table_is_still_read():
    """A card's white face on a white tablecloth looks like the table: only the recogniser can see it."""
    table = TableColour()
    table.learn([_felt((226, 228, 230), seed=1)])
    face = _felt((226, 228, 230), seed=5)
    face[20:26, 20:26] = (20, 20, 20)  # a little printing, a few per cent of the spot
    namer = CountingNamer()
    assert not table.plainly_bare(table.unlike_share(face)) and not table.something_there(face)
    assert read_place(namer, np.zeros((60, 60, 3), np.uint8), face, table, 3.0).card == Card.parse("7C")
    assert namer.asked == 1


@pytest.mark.parametrize("face_grey, hides", [(125, True), (200, False)])
def test_on_a_grey_cloth_under_a_dimmed_lamp_the_faces_seen_there_say_faces_look_like_the_table(face_grey, hides):
    """`all_at_once` seed 175's clips: a pale grey cloth, dimmed, is too dark to count as card-coloured, and so are
    the faces on it: a spot with a card looked plainly bare and was never read. Where the faces named in a layout
    look like the table, the table hides faces; where they stand out, it does not."""
    table = TableColour()
    table.learn([_felt((118, 119, 130), seed=1)])
    face = _felt((face_grey, face_grey, face_grey + 11), seed=5)
    face[20:26, 20:26] = (20, 20, 20)  # a little printing
    namer = CountingNamer()
    assert not table.hides_faces()
    table.faces_seen([face.reshape(-1, 3), _felt((face_grey, face_grey, face_grey + 11), seed=6).reshape(-1, 3)])
    assert table.hides_faces() == hides
    read = read_place(namer, np.zeros((60, 60, 3), np.uint8), _felt((face_grey, face_grey, face_grey + 11), seed=7), table, 3.0)
    assert read.card == Card.parse("7C") and namer.asked == 1  # looking like the table, or standing out from it


def test_the_faces_are_not_judged_on_fewer_than_two_cards():
    table = TableColour()
    table.learn([_felt((118, 119, 130), seed=1)])
    table.faces_seen([_felt((125, 125, 136), seed=5).reshape(-1, 3)])
    assert not table.hides_faces()


def _card_pixels(paper_bgr: tuple[int, int, int], seed: int) -> np.ndarray:
    """A card's pixels (N x 3): its paper, and a fifth of them printed in red or black ink."""
    chance = np.random.default_rng(seed)
    pixels = np.clip(np.array(paper_bgr, np.float32) + chance.normal(0.0, 2.0, (2000, 3)), 0, 255).astype(np.uint8)
    pixels[:200] = (40, 30, 190)
    pixels[200:400] = (30, 30, 30)
    return pixels


def _saturation(bgr: tuple[int, int, int]) -> int:
    return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 1])


@pytest.mark.parametrize("paper, skin", [
    ((244, 247, 248), (120, 150, 200)),   # white paper in daylight: the usual limit
    ((150, 180, 210), (90, 140, 215)),    # cream paper under a warm lamp: paper it is, skin it is not
    ((120, 175, 235), (60, 120, 230)),    # the warm lamp stronger still
])
def test_card_paper_is_told_by_the_paper_the_layout_shows(paper, skin):
    most = paper_saturation_limit([_card_pixels(paper, seed) for seed in range(5)])
    assert most >= CARD_MAX_SATURATION
    assert card_coloured(np.uint8([[paper]]), most)[0, 0] == 1
    assert card_coloured(np.uint8([[skin]]), most)[0, 0] == 0
    if _saturation(paper) + 25 <= CARD_MAX_SATURATION:
        assert most == CARD_MAX_SATURATION  # no change where the paper is white


def test_the_paper_is_not_judged_on_fewer_than_two_cards():
    assert paper_saturation_limit([_card_pixels((150, 180, 210), 1)]) is None
    assert paper_saturation_limit([]) is None


def test_card_coloured_at_the_usual_limit_is_bright_and_unsaturated():
    pixels = np.uint8([[(244, 247, 248), (200, 200, 200), (139, 139, 139), (60, 120, 230), (150, 180, 210)]])
    np.testing.assert_array_equal(card_coloured(pixels)[0], [1, 1, 0, 0, 1 if _saturation((150, 180, 210)) <= 70 else 0])


@pytest.mark.parametrize("card, confidence, named", [("QS", 0.6, True), ("QS", 0.59, False), ("Q?", 0.9, False), (None, 0.9, False)])
def test_a_reading_names_a_card_surely_only_with_its_suit_and_at_the_confidence_asked(card, confidence, named):
    reading = Reading(Card.parse(card) if card else None, confidence=confidence)
    assert reading.named_surely(0.6) == named
