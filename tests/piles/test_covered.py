"""Cards covered before they could be read, named by the card that left their player's stock."""

import pytest

from referee.piles.covered import PASSING_SECONDS, RESOLVE_SECONDS, STOCK_WAIT_SECONDS, CoveredCards
from referee.piles.sightings import Arrival, PileTouched
from referee.rules.cards import Card, same_card

TEN, JACK, FIVE = Card.parse("10H"), Card.parse("JH"), Card.parse("5S")
CALM = dict(pile_tops=(None, None), piles_busy=set(), stocks_busy=set())


def covered_arrival(player: str = "B", t: float = 1.0, pile: int = 1, card: Card | None = None) -> Arrival:
    return Arrival(t, int(t * 30), pile, player, card, 0.005, 0.0)


def name(covered: CoveredCards, now: float, **table) -> tuple[list[Arrival], dict]:
    return covered.name(now, **{**CALM, **table})


@pytest.mark.parametrize("player, settled, came, named", [
    ("B", 1.5, 1.4, True),     # the stock settled without the card soon after it landed
    ("B", 0.85, 0.5, True),    # a moment before: the stock settled as the card was still sliding
    ("B", 2.5, 0.6, True),     # the hand stayed over the stock all along
    ("B", 2.5, 1.2, False),    # came to the stock after the card landed: its next card
    ("B", 0.5, 0.2, False),    # long before: an earlier card
    ("A", 1.5, 1.4, False),    # the other player's stock
])
def test_a_covered_card_is_named_by_the_card_that_left_its_players_stock_about_then(player, settled, came, named):
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0), now=1.2)
    covered.left_stock(player, settled, TEN, came)
    out, _ = name(covered, now=1.2 + RESOLVE_SECONDS)
    if named:
        assert [(a.player, a.card, a.confidence) for a in out] == [("B", TEN, 0.9)]
    else:  # given up at its deadline: what was seen is B's hand touching the pile
        assert out == [PileTouched(1.0, 30, 1, "B", 0.005)]
    assert not covered.busy


@pytest.mark.parametrize("departure, tops, named", [
    (None, (None, None), FIVE),    # no stock seen losing it: the hand's unsure last look names it
    (TEN, (None, None), TEN),      # a stock seen losing a card names it, whatever the last look read
    (None, (None, FIVE), None),    # the guess is the card on top now: another's, so only a touch was seen
])
def test_a_covered_card_no_stock_names_is_named_by_its_unsure_last_look(departure, tops, named):
    """`all_at_once` seed 301: B's `QD`, covered by A's `10H` 0.27 s later, its snapshot read `QD` at 0.42
    (too unsure to name it at once), B's stocks court cards the models could not name: its play was lost."""
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0), now=1.2, guess=(FIVE, 0.42))
    if departure is not None:
        covered.left_stock("B", 1.5, departure, 1.4)
    out, _ = name(covered, now=1.2 + RESOLVE_SECONDS, pile_tops=tops)
    if named is None:
        assert out == [PileTouched(1.0, 30, 1, "B", 0.005)]
    else:
        assert [(a.player, a.card) for a in out] == [("B", named)]
    assert not covered.busy


def test_a_stock_card_names_one_covered_card_only():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=0), now=1.2)
    covered.cover(covered_arrival("B", t=1.1, pile=1), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    out, _ = name(covered, now=1.3)
    assert [(a.pile, a.card) for a in out] == [(0, TEN)]
    assert [t for _, t in covered.touches()] == [1.1]


@pytest.mark.parametrize("guess, first, second", [
    (JACK, TEN, JACK),   # the card read on the later one's last look is its own: the earlier, unread, takes TEN
    (TEN, None, TEN),    # the later one was read as the card gone: it takes it, and the earlier is a touch
    (None, None, TEN),   # neither read: the first covered takes it (as before), the other is a touch
])
def test_a_card_gone_while_the_hand_hovered_over_its_stocks_goes_to_the_covered_card_it_fits_best(guess, first, second):
    """`all_at_once` seed 234's clip: A's hand stayed over its stocks from 0.03 to 4.4 s, and laid a `5D`
    covered at once (its last look read nothing) and a `KC` later (its last look read it). Both fit the
    `5D` gone in that time; the `KC` took it, and the `5D` was lost."""
    covered = CoveredCards()
    covered.cover(covered_arrival("A", t=3.0, pile=0, card=guess), now=4.0)
    covered.cover(covered_arrival("A", t=2.0, pile=1), now=4.0)
    covered.left_stock("A", 4.4, TEN, 0.03)
    out, _ = name(covered, now=4.0 + RESOLVE_SECONDS)
    named = {arrival.t: getattr(arrival, "card", None) for arrival in out}
    assert (named.get(2.0), named.get(3.0)) == (first, second)


@pytest.mark.parametrize("pile_tops, known", [((None, None), {1: TEN}), ((FIVE, JACK), {})])
def test_a_pile_whose_top_could_not_be_read_takes_the_name(pile_tops, known):
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    _, tops = name(covered, now=1.3, pile_tops=pile_tops)
    assert tops == known


def test_a_covered_card_waits_while_a_hand_is_over_the_other_pile_then_for_its_deadline_only():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    assert name(covered, now=1.3, piles_busy={0}) == ([], {})   # this hand may yet be seen laying on pile 0
    assert name(covered, now=1.3, piles_busy={1}) != ([], {})   # its own pile being busy does not hold it


def test_past_its_deadline_a_covered_card_is_named_even_with_the_other_pile_busy():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    out, _ = name(covered, now=1.2 + RESOLVE_SECONDS, piles_busy={0})
    assert [a.card for a in out] == [TEN]


@pytest.mark.parametrize("wait, stocks_busy, kept", [
    (0.5, {"B"}, True),                        # B's hand still over B's stocks: they may yet show it
    (0.5, {"A"}, False),                       # only the other player's stocks are busy
    (STOCK_WAIT_SECONDS + 0.1, {"B"}, False),  # waited long enough
])
def test_an_unnamed_covered_card_waits_for_its_players_busy_stocks_for_a_while(wait, stocks_busy, kept):
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0), now=1.2)
    name(covered, now=1.2 + RESOLVE_SECONDS + wait, stocks_busy=stocks_busy)
    assert covered.busy == kept


@pytest.mark.parametrize("pile_tops, ruled", [((FIVE, None), True), ((FIVE, JACK), False)])
def test_at_its_deadline_a_card_guessed_from_the_hands_last_look_is_ruled_unless_it_is_on_top_now(pile_tops, ruled):
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, card=JACK), now=1.2)
    assert name(covered, now=1.5, pile_tops=pile_tops)[0] == []   # before its deadline it waits for the stock
    out, _ = name(covered, now=1.2 + RESOLVE_SECONDS, pile_tops=pile_tops)
    # the jack on top now is another hand's: this hand is known only to have touched the pile
    assert out == ([covered_arrival("B", t=1.0, card=JACK)] if ruled else [PileTouched(1.0, 30, 1, "B", 0.005)])


@pytest.mark.parametrize("gap, passing", [(0.1, True), (PASSING_SECONDS - 0.01, True), (PASSING_SECONDS + 0.05, False)])
def test_a_hand_that_laid_a_card_on_the_other_pile_meanwhile_was_reaching_across(gap, passing):
    covered = CoveredCards()
    assert covered.top_laid(covered_arrival("B", t=1.0 + gap, pile=0, card=FIVE)) != []
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    out, _ = name(covered, now=1.3)
    assert [a.card for a in out] == ([] if passing else [TEN])


@pytest.mark.parametrize("last_look, laid_here", [
    (TEN, True),        # its last look named the 10H, the 10H left its stock, nothing like the 5S: laid here
    (None, False),      # no last look to tell by: reaching across
    (JACK, False),      # its last look named a JH, which did not leave its stock: reaching across
])
def test_a_hand_that_touched_the_other_pile_laid_its_card_here_when_its_stock_says_so(last_look, laid_here):
    # `all_at_once --after-touch` seed 176's clip from 3.15 s: B's hand over pile 0 (its 5D read there again) on its
    # way to lay the 2S on pile 1, which A's KS covered; the 2S was dropped as B's arm reaching across
    covered = CoveredCards()
    covered.top_laid(covered_arrival("B", t=1.1, pile=0, card=FIVE))
    covered.cover(covered_arrival("B", t=1.0, pile=1, card=last_look), now=1.2)
    covered.left_stock("B", 1.3, TEN, 1.2)
    out, _ = name(covered, now=1.4)
    assert [a.card for a in out] == ([TEN] if laid_here else [])


def test_a_covered_card_is_named_by_the_card_gone_that_its_last_look_named_of_those_that_fit():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, card=TEN), now=1.2)
    covered.left_stock("B", 1.2, JACK, 0.9)
    covered.left_stock("B", 1.3, TEN, 1.1)
    out, _ = name(covered, now=1.4)
    assert [a.card for a in out] == [TEN]


def test_a_card_laid_over_a_covered_one_is_ruled_after_it_in_touch_order():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.25)
    top = covered_arrival("A", t=1.2, pile=1, card=JACK)
    assert covered.top_laid(top) == []   # waits for the card under it
    assert covered.busy and [t for _, t in covered.touches()] == [1.0, 1.2]
    assert name(covered, now=1.3) == ([], {})   # nothing named yet: the top still waits
    covered.left_stock("B", 1.4, TEN, 1.1)
    out, _ = name(covered, now=1.4)
    assert [(a.player, a.card) for a in out] == [("B", TEN), ("A", JACK)]
    assert not covered.busy


def test_a_covered_card_withdrawn_is_not_ruled_and_the_top_over_it_no_longer_waits():
    # the opening takes a card the hand there as the clip began laid as the pile's first top (`Opening.under_later_cards`)
    covered = CoveredCards()
    under = covered_arrival("B", t=0.05, pile=0, card=Card.parse("6C"))
    covered.cover(under, now=0.8)
    top = Arrival(0.53, 16, 0, "A", Card.parse("5C"), 0.005, 0.9)
    assert covered.top_laid(top) == []
    assert covered.waiting() == [under, top]
    covered.withdraw([under])
    assert covered.waiting() == [top]
    assert name(covered, now=0.8) == ([top], {}) and not covered.busy


def test_a_card_laid_on_another_pile_does_not_wait():
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=1), now=1.25)
    top = covered_arrival("A", t=1.2, pile=0, card=JACK)
    assert covered.top_laid(top) == [top]


def test_a_card_seen_landing_from_its_players_hand_names_no_covered_card():
    covered = CoveredCards()
    covered.left_stock("B", 1.3, TEN, 0.9)
    covered.top_laid(covered_arrival("B", t=1.0, pile=0, card=TEN))
    name(covered, now=1.3)   # the departure is explained by the card seen laid
    covered.cover(covered_arrival("B", t=2.0, pile=1), now=2.1)
    assert covered.left_stock_by(TEN) == set()
    out, _ = name(covered, now=2.1 + RESOLVE_SECONDS)
    assert out == [PileTouched(2.0, 60, 1, "B", 0.005)]   # no card named: only the hand's touch is known


@pytest.mark.parametrize("laid_at, explained", [
    (1.0, True),    # laid after the hand came to the stock (0.9): that card
    (0.85, True),   # a touch timed a little before the hand's first sample there (REACHED_AFTER_LANDING_S)
    (0.5, False),   # laid before the hand came for it: another card of that name (a spit `K?`, then a stock's `K?`)
])
def test_a_card_laid_before_the_hand_came_to_the_stock_explains_no_departure(laid_at, explained):
    king = Card.parse("K?")
    covered = CoveredCards()
    covered.top_laid(covered_arrival("A", t=laid_at, pile=1, card=king))
    covered.left_stock("A", 1.3, king, 0.9)
    name(covered, now=1.3)
    assert covered.left_stock_by(king) == (set() if explained else {"A"})


def test_a_card_left_a_stock_read_by_its_rank_alone_is_found_loosely_only():
    covered = CoveredCards()
    covered.left_stock("A", 1.3, Card.parse("K?"), 0.9)
    assert covered.left_stock_by(Card.parse("KC")) == set()
    assert covered.left_stock_by(Card.parse("KC"), same_card) == {"A"}
    assert covered.left_stock_by(Card.parse("QC"), same_card) == set()


@pytest.mark.parametrize("there, named", [
    (None, True),        # the hand laid nothing on the other pile (its fingers grazed it): its card lies here
    ("top", False),      # its card was seen laid on top of the other pile: it reached across this one
    ("covered", False),  # its card lies under another on the other pile, waiting to be named there
])
def test_a_hand_that_touched_the_other_pile_next_laid_its_card_here_only_if_it_laid_none_there(there, named):
    # seed 193's clip: A laid its AH on pile 0 under B's AD, A's fingers grazing pile 1 a moment later; the AH
    # was taken as laid on pile 1 and the AD judged on the 2S
    covered = CoveredCards()
    covered.cover(covered_arrival("A", t=1.0, pile=0), now=1.3, reaching=True)
    if there == "top":
        covered.top_laid(Arrival(1.1, 33, 1, "A", JACK, 0.005, 0.9))
    elif there == "covered":
        covered.cover(covered_arrival("A", t=1.1, pile=1), now=1.3)
    covered.left_stock("A", 1.4, TEN, 1.2)
    out, _ = name(covered, now=1.4)
    assert [(a.pile, a.card) for a in out if isinstance(a, Arrival) and a.pile == 0] == ([(0, TEN)] if named else [])


def test_a_hand_that_touched_the_other_pile_next_with_no_card_gone_from_its_stock_touched_nothing_here():
    covered = CoveredCards()
    covered.cover(covered_arrival("A", t=1.0, pile=0), now=1.3, reaching=True)
    out, _ = name(covered, now=1.3 + RESOLVE_SECONDS + STOCK_WAIT_SECONDS)
    assert out == [] and not covered.busy


@pytest.mark.parametrize("a_gone", [True, False])
def test_a_top_that_left_the_covered_hand_s_stock_was_that_hand_s_card(a_gone):
    """`all_at_once` seed 171's clip: A's `QC` and B's `AS` on one pile 17.6 ms apart, B's touch timed
    first, so the `AS` on top went to A's later touch and B's covered card was named `AS` by B's stock too;
    A's `QC` was lost. The top is B's; A's card lies under it, named by A's stock. Without A's stock seen
    losing another card, nothing says the readings were not wrong instead (a 10H gone read as the JH on top,
    `tests/pipeline/test_replay_tolerance.py`): they stand as they were."""
    covered = CoveredCards()
    covered.cover(covered_arrival("B", t=1.0, pile=0), now=1.3)
    top = Arrival(1.005, 30, 0, "A", Card.parse("AS"), 0.005, 0.9)
    assert covered.top_laid(top) == []  # it waits for the card under it
    covered.left_stock("B", 1.4, Card.parse("AS"), 0.9)
    if a_gone:
        covered.left_stock("A", 1.45, Card.parse("QC"), 0.8)
    out, _ = name(covered, now=1.3 + RESOLVE_SECONDS)
    ruled = [(type(a).__name__, a.player, round(a.t, 3), getattr(a, "card", None)) for a in out]
    if a_gone:
        assert ruled == [("Arrival", "A", 1.0, Card.parse("QC")), ("Arrival", "B", 1.005, Card.parse("AS"))]
    else:
        assert ruled == [("Arrival", "B", 1.0, Card.parse("AS")), ("Arrival", "A", 1.005, Card.parse("AS"))]
