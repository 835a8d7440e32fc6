"""The SVG decks' rasteriser, on KDE's decks (the benchmarks' other decks) where they are installed."""

import pytest

from referee.rules.cards import full_deck
from referee.synth import svg_decks

OTHER = svg_decks.available_decks(svg_decks.OTHER_DECKS)
needs_other = pytest.mark.skipif(not OTHER, reason="KDE's card decks (kdegames-card-data-kf5) are not installed")


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
