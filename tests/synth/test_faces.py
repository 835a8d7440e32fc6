import numpy as np
import pytest

from referee.rules.cards import Card, full_deck
from referee.synth import faces

PX_PER_MM = 3.0
#: The decks only the recognition models train on (none where gnome-cards-data is not installed).
TRAINING_ONLY = [design for design in faces.SUIT_DESIGNS if design not in faces.DESIGNS]


@pytest.mark.parametrize("design", faces.DESIGNS + tuple(TRAINING_ONLY) + faces.OTHER_DESIGNS + faces.PUBLIC_DESIGNS)
def test_every_card_of_every_design_is_a_distinct_card_sized_image(design):
    width, height = faces.card_size_px(PX_PER_MM)
    seen = set()
    for card in full_deck():
        image = faces.card_face(card, design, PX_PER_MM)
        assert image.shape == (height, width, 3) and image.dtype == np.uint8
        seen.add(image.tobytes())
    assert len(seen) == 52


@pytest.mark.parametrize("design", faces.TRAINING_DESIGNS + faces.OTHER_DESIGNS + faces.PUBLIC_DESIGNS)
def test_index_box_lies_in_the_top_left_corner_and_holds_ink(design):
    x0, y0, x1, y1 = faces.index_box_mm(design)
    assert 0 <= x0 < x1 <= 20 and 0 <= y0 < y1 <= 32
    image = faces.card_face(Card("Q", "H"), design, 10)
    corner = image[int(y0 * 10): int(y1 * 10), int(x0 * 10): int(x1 * 10)]
    assert (corner.min(axis=2) < 140).mean() > 0.05  # the rank and pip are in it


@pytest.mark.parametrize("design", faces.back_designs())
def test_backs(design):
    back = faces.card_back(design, PX_PER_MM)
    assert back.shape == faces.card_face(Card("2", "S"), "classic", PX_PER_MM).shape


def test_faces_are_deterministic_and_copies():
    first = faces.card_face(Card("10", "D"), "classic", 4)
    first[:] = 0  # callers may scribble on what they get
    assert np.array_equal(faces.card_face(Card("10", "D"), "classic", 4), faces.card_face(Card("10", "D"), "classic", 4))
    assert faces.card_face(Card("10", "D"), "classic", 4).any()


def test_mask_has_rounded_corners():
    mask = faces.card_mask(10)
    assert mask.shape == (880, 630)
    assert mask[0, 0] == 0 and mask[440, 315] == 255 and mask[0, 315] == 255


@pytest.mark.parametrize("design, card", [("no-such-deck", Card("2", "S")), ("classic", Card("2", None))])
def test_bad_requests_raise(design, card):
    with pytest.raises(ValueError):
        faces.card_face(card, design, 3)


@pytest.mark.parametrize("design", ["classic"] + TRAINING_ONLY + list(faces.OTHER_DESIGNS + faces.PUBLIC_DESIGNS))
def test_red_suits_are_drawn_red_and_black_suits_black(design):
    red = faces.card_face(Card("5", "H"), design, 5).reshape(-1, 3).astype(int)
    black = faces.card_face(Card("5", "S"), design, 5).reshape(-1, 3).astype(int)
    assert ((red[:, 2] - red[:, 0]) > 100).sum() > 500
    assert ((black[:, 2] - black[:, 0]) > 100).sum() == 0


def test_the_games_draw_none_of_the_decks_only_the_models_train_on():
    # the games' designs come first and unchanged, so a seed renders the same deck as before they were added
    assert faces.TRAINING_DESIGNS[:len(faces.DESIGNS)] == faces.DESIGNS
    assert faces.SUIT_DESIGNS[:len(faces.TRAINING_DESIGNS)] == faces.TRAINING_DESIGNS
    assert not set(TRAINING_ONLY) & set(faces.DESIGNS)
    assert len(set(faces.SUIT_DESIGNS)) == len(faces.SUIT_DESIGNS)


def test_no_model_trains_on_the_other_decks_and_no_game_draws_them_unasked():
    from models.face_data import _backs as training_backs
    from models.train import training_designs

    others = set(faces.OTHER_DESIGNS + faces.PUBLIC_DESIGNS)
    assert not others & set(faces.SUIT_DESIGNS) and not others & set(training_designs())
    assert not others & set(faces.back_designs()) and not others & set(training_backs())
    assert not others & set(faces.DESIGNS)


@pytest.mark.parametrize("design", faces.OTHER_DESIGNS + faces.PUBLIC_DESIGNS)
def test_an_other_deck_is_dealt_with_its_own_back_where_it_has_one_else_a_drawn_one(design):
    back = faces.card_back(design, PX_PER_MM)
    assert back.shape == faces.card_face(full_deck()[0], design, PX_PER_MM).shape
    drawn = [faces.card_back(name, PX_PER_MM) for name in faces.BACK_DESIGNS]
    assert any(np.array_equal(back, other) for other in drawn) != faces.own_back(design)


def test_the_svg_decks_can_be_left_out_to_render_as_a_machine_without_them_does(monkeypatch):
    from referee.synth import svg_decks

    svg_decks.available_decks.cache_clear()
    monkeypatch.setenv("REFEREE_SVG_DECKS", "0")
    try:
        assert svg_decks.available_decks() == ()
    finally:
        svg_decks.available_decks.cache_clear()   # the next caller sees what is installed again
