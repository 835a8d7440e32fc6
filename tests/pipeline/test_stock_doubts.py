from hypothesis import given
from hypothesis import strategies as st

from referee.piles.reading import Reading
from referee.piles.sightings import LayoutRead, StockSeen, TableQuiet
from referee.pipeline.stock_doubts import DOUBT_FLOOR, STOCK_DOUBT, StockDoubts, doubt_of
from referee.rules.cards import RANKS, SUITS, Card
from tests.pipeline.test_translate_tolerance import EMPTY, arrival, referee, stocks


def reading(card: str, confidence: float, *alternatives: tuple[str, float]) -> Reading:
    return Reading(Card.parse(card), confidence=confidence, alternatives=tuple((Card.parse(c), p) for c, p in alternatives))


# seed 302 of `all_at_once`: A's QS read JC on its stock
UNSURE_JACK = reading("JC", 0.39, ("JC", 0.337), ("QC", 0.107), ("JS", 0.076), ("QS", 0.039), ("KC", 0.026), ("3C", 0.0195))


def test_an_unsure_stock_reading_is_in_doubt_as_to_the_other_ranks_its_alternatives_give():
    assert doubt_of(UNSURE_JACK) == (Card.parse("JC"), frozenset({"Q"}))  # K and 3 are under DOUBT_FLOOR
    assert doubt_of(reading("JC", STOCK_DOUBT, ("JC", 0.5), ("QC", 0.3))) is None  # read surely enough
    assert doubt_of(reading("JC", 0.4, ("JC", 0.4), ("JS", 0.3))) is None  # a doubt of suit alone: the rank stands
    assert doubt_of(Reading(None, face_down=True)) is None


def test_the_engine_is_told_each_doubt_once_and_when_it_is_gone():
    doubts = StockDoubts()
    told = doubts.seen(1.0, 30, {("A", 0): UNSURE_JACK, ("B", 2): reading("5H", 0.95, ("5H", 0.95))})
    assert [(o.player, o.stock, str(o.card), o.could_be, o.t, o.frame) for o in told] == [("A", 0, "JC", frozenset({"Q"}), 1.0, 30)]
    assert doubts.seen(1.5, 45, {("A", 0): UNSURE_JACK}) == []  # the same doubt again: nothing new
    told = doubts.seen(2.0, 60, {("A", 0): reading("QS", 0.9, ("QS", 0.9))})
    assert [(o.player, o.stock, str(o.card), o.could_be) for o in told] == [("A", 0, "JC", frozenset())]
    assert doubts.seen(2.5, 75, {("A", 0): reading("QS", 0.9, ("QS", 0.9))}) == []


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))


@given(st.lists(st.tuples(cards, st.floats(0.3, 1.0), st.lists(st.tuples(cards, st.floats(0.0, 1.0)), max_size=6)), max_size=8))
def test_what_the_engine_was_told_is_always_the_doubt_of_the_last_reading_of_each_slot(readings):
    doubts, told = StockDoubts(), {}
    for number, (card, confidence, alternatives) in enumerate(readings):
        read = Reading(card, confidence=confidence, alternatives=tuple(alternatives))
        for said in doubts.seen(float(number), number, {("A", number % 2): read}):
            told[(said.player, said.stock)] = (said.card, said.could_be) if said.could_be else None
        doubt = doubt_of(read)
        assert told.get(("A", number % 2)) == doubt
        assert doubt is None or all(rank != card.rank for rank in doubt[1])
        assert doubt is None or confidence < STOCK_DOUBT and min(
            max(p for c, p in alternatives if c.rank == rank) for rank in doubt[1]) >= DOUBT_FLOOR


def _spat_on_a_stock_read_in_doubt(*after):
    """A round opens with A's first stock read `JC` in doubt (a queen, say its alternatives), and the spits
    turn up JD and JH: no stock top as read goes on a jack, but the queen would."""
    rows = stocks(a="JC 7S 7H 5H 5C", b="6H 4H 9C 6C 9S")
    rows["A"] = (UNSURE_JACK,) + rows["A"][1:]
    opening = LayoutRead(0.0, 0, rows, (EMPTY, EMPTY), first=True)
    events, _, _ = referee([opening, arrival(2.75, 1, "A", "JH"), arrival(2.78, 0, "B", "JD"), *after])
    return [kind for kind, _ in events], events


def test_spits_that_leave_only_a_stock_top_read_in_doubt_to_play_call_no_stall_until_the_lull_has_lasted():
    kinds, _ = _spat_on_a_stock_read_in_doubt(TableQuiet(2.8, 100))
    assert "stall" not in kinds
    kinds, events = _spat_on_a_stock_read_in_doubt(TableQuiet(2.8, 100), TableQuiet(2.8, 112, lasted=True))
    assert kinds[-2:] == ["stall", "notice"] and events[-2][1].t == 2.78
    assert "A0 JC, maybe Q" in events[-1][1]["message"]


def test_a_stock_top_read_in_doubt_and_then_surely_lets_the_stall_be_called():
    kinds, _ = _spat_on_a_stock_read_in_doubt(StockSeen(2.79, 84, "A", 0, reading("JC", 0.95, ("JC", 0.95)), UNSURE_JACK, False),
                                              TableQuiet(2.8, 100))
    assert kinds.count("stall") == 1 and "notice" not in kinds
