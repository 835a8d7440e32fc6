"""The SVG decks' rasteriser, on KDE's decks (the benchmarks' other decks) where they are installed, and on the
decks kept in the repository, one file a card."""

import numpy as np
import pytest

from referee.rules.cards import full_deck
from referee.synth import svg_decks

OTHER = svg_decks.available_decks(svg_decks.OTHER_DECKS)
needs_other = pytest.mark.skipif(not OTHER, reason="KDE's card decks (kdegames-card-data-kf5) are not installed")
needs_librsvg = pytest.mark.skipif(svg_decks._libraries() is None, reason="librsvg and cairo are not installed")


@pytest.mark.parametrize("card", full_deck()[::5])
def test_elements_are_named_as_each_family_of_decks_names_them(card):
    rank = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}.get(card.rank, card.rank)
    suit = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}[card.suit]
    assert svg_decks.element_id(card) == svg_decks.element_id(card, "anglo") == f"{suit}_{rank}"
    assert svg_decks.element_id(card, "kde-standard") == f"{rank}_{suit}"


@needs_other
@pytest.mark.parametrize("deck", OTHER)
def test_each_card_of_an_other_deck_is_cut_out_whole_at_a_cards_proportions(deck):
    # librsvg's own boxes for these decks' elements gave slivers of their grid slots (nested transforms)
    for card in full_deck():
        _, _, width, height = svg_decks._box_on_its_page(deck, svg_decks.element_id(card, deck))
        assert abs(height / width - 88 / 63) < 0.08, (card, width, height)
        face = svg_decks.render_element(deck, svg_decks.element_id(card, deck), 63, 88)
        assert (face[..., 3] > 128).all(axis=0).mean() > 0.8 and (face[..., 3] > 128).all(axis=1).mean() > 0.8  # it fills the picture


@needs_other
def test_a_card_an_other_deck_lacks_is_a_key_error():
    with pytest.raises(KeyError):
        svg_decks.render_element(OTHER[0], "no_such_card", 63, 88)


def test_the_repositorys_own_decks_hold_every_card_and_nothing_else():
    for deck in svg_decks.FILE_DECKS:
        folder = svg_decks.FILE_DECK_FOLDER / deck
        names = {path.name for path in folder.glob("*.svgz")}
        expected = {f"{'T' if card.rank == '10' else card.rank}{card.suit}.svgz" for card in full_deck()}
        assert names == expected and svg_decks.deck_path(deck) == folder


@needs_librsvg
@pytest.mark.parametrize("deck", svg_decks.FILE_DECKS)
def test_a_card_of_a_file_deck_fills_the_picture_with_its_ink_where_its_suit_is(deck):
    ten = svg_decks.render_element(deck, "club_10", 126, 176)
    assert ten.shape == (176, 126, 4) and (ten[..., 3] > 128).mean() > 0.9  # the card, drawn whole
    heart = svg_decks.render_element(deck, "heart_10", 126, 176)
    red = lambda image: ((image[..., 2].astype(int) - image[..., 0]) > 100) & (image[..., 3] > 128)
    assert red(heart).sum() > 300 and red(ten).sum() == 0
    assert not np.array_equal(svg_decks.render_element(deck, "club_king", 126, 176), svg_decks.render_element(deck, "club_queen", 126, 176))


@needs_librsvg
@pytest.mark.parametrize("element", ["back", "club_knight", "no_such_card"])
def test_a_card_a_file_deck_lacks_is_a_key_error(element):
    with pytest.raises(KeyError):
        svg_decks.render_element(svg_decks.FILE_DECKS[0], element, 63, 88)
