"""The translator and a real camera-tolerant engine: bad or missing readings never lose rulings."""

from dataclasses import replace

import numpy as np
import pytest

from referee.capture.frames import Frame
from referee.piles.reading import Reading
from referee.piles.sightings import Arrival, LayoutRead, PileTouched, StockSeen, TableQuiet
from referee.pipeline.session import RefereeSession
from referee.pipeline.translate import SLAP_ERROR_S, Translator
from referee.rules.cards import Card
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import LayoutSeen
from referee.rules.state import GamePhase

BACK = Reading(None, face_down=True)
EMPTY = Reading(None)


def card(text):
    return Reading(Card.parse(text), confidence=0.9)


def stocks(a="2H 5S 9D JC KH", b="3C 6D 10S QS AH"):
    """Stock rows: a card, `-` for a bare slot, `#` for a face-down card."""
    def reading(text):
        return EMPTY if text == "-" else BACK if text == "#" else card(text)

    return {player: tuple(reading(t) for t in row.split()) + (EMPTY,) for player, row in (("A", a), ("B", b))}


def layout_read(piles, t=0.0, **rows):
    return LayoutRead(t, 0, stocks(**rows), piles, first=True)


def arrival(t, pile, player, text):
    return Arrival(t, int(t * 30), pile, player, Card.parse(text), 0.01)


def referee(sightings, config=None, *, ahead=False):
    """Each sighting through the translator into a real engine, as the session does; `ahead`: each with
    the sightings after it as those still to come (the session's queue holds them a moment)."""
    engine = RulesEngine((config or RulesConfig()).for_camera())
    translator = Translator()
    events, observations = [], []
    for number, sighting in enumerate(sightings):
        found, note = translator.translate(sighting, engine.state, sightings[number + 1:] if ahead else ())
        observations += found
        if note:
            events.append(("note", note))
        for observation in found:
            events += [(e.type.value, e) for e in engine.observe(observation)]
    return events, observations, engine


def plays(events):
    return [(e["player"], e["pile"], str(e["card"]), None if e["on"] is None else str(e["on"]), e["legal"])
            for kind, e in events if kind == "play"]


@pytest.mark.parametrize(
    "piles, unknown, landings, expected",
    [
        # pile 0 face down at the start: the first card there becomes its top, taken as legal
        ((BACK, card("8H")), (0,), [(1.0, 0, "A", "KH"), (2.0, 0, "B", "AH")],
         [("A", 0, "KH", None, True), ("B", 0, "AH", "KH", True)]),
        # pile 0 unreadable (a card there, its name not read), pile 1 read
        ((Reading(None, confidence=0.1), card("8H")), (0,), [(1.0, 1, "A", "9D"), (2.0, 0, "B", "3C")],
         [("A", 1, "9D", "8H", True), ("B", 0, "3C", None, True)]),
        # both piles face down
        ((BACK, BACK), (0, 1), [(1.0, 1, "B", "QS"), (2.0, 1, "A", "JC")],
         [("B", 1, "QS", None, True), ("A", 1, "JC", "QS", True)]),
    ],
    ids=["pile0_back", "pile0_unread", "both_back"],
)
def test_a_clip_starting_mid_game_with_an_unreadable_pile_top_is_refereed_from_the_start(piles, unknown, landings, expected):
    sightings = [layout_read(piles)] + [arrival(t, pile, player, text) for t, pile, player, text in landings]
    events, observations, _ = referee(sightings)
    assert isinstance(observations[0], LayoutSeen) and observations[0].unknown_piles == unknown
    assert any(kind == "note" and "could not be read" in note for kind, note in events)
    assert plays(events) == expected


def test_a_card_laid_before_the_opening_layout_was_read_is_no_stock_top_of_the_layout():
    # the layout is read at frame 30, once the places are still; a card seen landing at frame 9 had left
    # its stock by then: read as A's 5S (a misreading), it takes no card off A's stocks, and the 5S
    # laid later from A's stock is a play from there
    sightings = [LayoutRead(0.29, 30, stocks(), (card("4C"), card("8H")), first=True), arrival(0.3, 0, "A", "5S"),
                 arrival(2.0, 1, "A", "9D"), arrival(3.0, 0, "A", "5S")]
    events, observations, engine = referee(sightings)
    assert plays(events) == [("A", 0, "5S", "4C", True), ("A", 1, "9D", "8H", True), ("A", 0, "5S", "5S", False)]
    assert [getattr(obs, "left_before_layout", None) for obs in observations[1:]] == [True, False, False]
    assert [obs.stock for obs in observations[2:]] == [2, 1]


def test_cards_laid_as_a_clip_opens_on_a_table_that_looked_stalled_are_spits_unless_they_fit():
    # no stock top fits 4C or 8H in the first frame: 5D and 3C fit neither pile's top, they are the spits
    # after a stall called before the clip began; a card laid later that fits is a play
    rows = dict(a="JH QC 9D -  -", b="KS 6D 10S -  -")
    sightings = [LayoutRead(0.39, 30, stocks(**rows), (card("4C"), card("8H")), first=True, looked_stalled=True),
                 arrival(0.4, 0, "A", "6H"), arrival(0.42, 1, "B", "3C"), Arrival(0.6, 18, 0, "B", Card.parse("5S"), 0.01, 0.9)]
    events, _, engine = referee(sightings)
    assert [(kind, e["player"], str(e["card"])) for kind, e in events if kind in ("spit", "play")] == [
        ("spit", "A", "6H"), ("spit", "B", "3C"), ("play", "B", "5S")]
    assert not any(kind in ("violation", "stall") for kind, _ in events)  # the stall came before the clip
    assert engine.state.phase is GamePhase.PLAYING


def test_a_card_laid_as_a_clip_opens_that_fits_its_top_is_a_play_on_a_table_that_looked_stalled():
    rows = dict(a="JH QC 9D -  -", b="KS 6D 10S -  -")
    sightings = [LayoutRead(0.39, 30, stocks(**rows), (card("4C"), card("8H")), first=True, looked_stalled=True),
                 arrival(0.4, 0, "A", "5D")]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "5D", "4C", True)]



@pytest.mark.parametrize("together, gap, expected", [
    (True, 0.14, [("spit", "B", "AH"), ("spit", "A", "3S")]),   # the other half of the spits
    (False, 0.14, [("spit", "B", "AH"), ("play", "A", "3S")]),  # laid alone: a card held as the clip began
    (True, 0.5, [("spit", "B", "AH"), ("play", "A", "3S")]),    # too long after the other spit to be laid with it
])
def test_a_card_that_fits_laid_together_with_the_other_players_spit_as_a_clip_opens_is_a_spit_too(together, gap, expected):
    # racing seed 129's clip from 27.15 s: the clip opens on the spits, B's AH on pile 0, then A's 3S on the 2H
    rows = dict(a="-  -  -  -  -", b="-  QH -  -  -")
    sightings = [LayoutRead(0.01, 30, stocks(**rows), (card("7C"), card("2H")), first=True, looked_stalled=True),
                 Arrival(0.02, 1, 0, "B", Card.parse("AH"), 0.01, 0.9, together=True),
                 Arrival(0.02 + gap, 5, 1, "A", Card.parse("3S"), 0.01, 0.9, together=together)]
    events, _, _ = referee(sightings)
    assert [(kind, e["player"], str(e["card"])) for kind, e in events if kind in ("spit", "play")] == expected


def test_a_misread_layout_does_not_lose_the_plays_after_it():
    # the layout reads 2H twice (one of them misread) and pile 1 reads 5S, also shown on a stock
    sightings = [
        layout_read((card("4C"), card("5S")), a="2H 5S 9D JC KH", b="2H 6D 10S QS AH"),
        arrival(1.0, 0, "A", "5S"),
        # the stock settles as the hand leaves it, before the card lands: a card lay face down under the 6D
        StockSeen(1.8, 54, "B", 1, BACK, card("6D"), True),
        arrival(2.0, 1, "B", "6D"),
        arrival(3.0, 0, "B", "3H"),   # no one's stock top: from B1, its turn-up unseen
    ]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "5S", "4C", True), ("B", 1, "6D", "5S", True), ("B", 0, "3H", "5S", False)]
    messages = " | ".join(e["message"] for kind, e in events if kind == "notice")
    assert "layout: 2H, 5S shown in two places" in messages and "3H came from it" in messages


@pytest.mark.parametrize("piles, laid_out", [
    ((BACK, BACK), True),            # both piles in a lamp's shade: read as covered, no card named
    ((BACK, EMPTY), True),
    ((card("4C"), BACK), False),     # a card named there: play had begun before the layout was seen
], ids=["both_shaded", "one_shaded", "a_card_there"])
def test_a_layout_after_a_bare_table_with_spit_piles_that_only_looked_covered_starts_the_round(piles, laid_out):
    # seed 205: a lamp leaning over the spit piles as the video opened; the layout read them as face-down cards,
    # was ignored as a round already in play, and the round was taken up from the first card seen landing
    bare = LayoutRead(0.0, 0, stocks(a="- - - - -", b="- - - - -"), (EMPTY, EMPTY), first=True)
    layout = LayoutRead(0.5, 15, stocks(), piles, first=False)
    spits = [Arrival(2.0, 60, 0, "A", Card.parse("4C"), 0.01, confidence=0.9, together=True),
             Arrival(2.05, 61, 1, "B", Card.parse("8H"), 0.01, confidence=0.9, together=True)]
    events, _, _ = referee([bare, layout] + spits)
    starts = [e for kind, e in events if kind == "round_start"]
    if laid_out:
        assert [(e.t, e.get("mid_round")) for e in starts] == [(0.5, None)]
        assert [(kind, e["player"]) for kind, e in events if kind in ("spit", "play")] == [("spit", "A"), ("spit", "B")]
    else:
        assert ("note", "new layout seen with cards already on the spit piles; ignored") in events
        assert all(e.t > 0.5 for e in starts)


def test_plays_seen_before_any_layout_are_ruled():
    events, _, engine = referee([arrival(1.0, 0, "A", "7H"), arrival(2.0, 0, "B", "8C"),
                                 StockSeen(2.5, 75, "A", 4, card("9S"), BACK, True), arrival(3.0, 0, None, "9S")])
    assert plays(events) == [("A", 0, "7H", None, True), ("B", 0, "8C", "7H", True), ("A", 0, "9S", "8C", True)]
    assert engine.state.players["A"].stocks[4].count == 4  # 5 dealt, one played


@pytest.mark.parametrize(
    "landing, expected, note",
    [
        # 8C was played a moment ago: a second 8C is a misreading, but the play happened
        (arrival(2.0, 1, "B", "8C"), ("B", 1, "8C", "8H", False), "8C was already seen on the table this round"),
        # no one's stock top while play goes on (a misread, or a missed stall): ruled, not dropped
        (arrival(2.0, 1, "B", "7S"), ("B", 1, "7S", "8H", True), "7S is not a face-up stock top of B"),
    ],
    ids=["duplicate_name", "no_stock_top"],
)
def test_a_card_that_does_not_fit_is_ruled_with_a_notice_not_dropped(landing, expected, note):
    sightings = [layout_read((card("7C"), card("8H")), a="2H 8C 9D JC KH", b="3C 6D 10S QS AH"),
                 arrival(1.0, 0, "A", "8C"), landing]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "8C", "7C", True), expected]
    assert note in " | ".join(e["message"] for kind, e in events if kind == "notice")


@pytest.mark.parametrize("unchanged, errand, ruled", [(True, True, False), (False, True, True), (True, False, True)])
def test_the_top_read_again_with_another_suit_on_an_unchanged_pile_is_no_play(unchanged, errand, ruled):
    # B's hand passed over pile 1 on its way to lay 9D on pile 0 (its `errand`); pile 1's KC, its picture
    # unchanged, is read again as KS, no one's stock top. Had the picture changed, or had B laid nothing on the
    # other pile, a card was laid there (a card laid square on a like one, a card under it missed): ruled,
    # with a notice, not dropped.
    sightings = [layout_read((card("7C"), card("KC")), a="2H 8C 5D JC 3H", b="3C 6D 10S QS 9D"),
                 arrival(1.0, 0, "A", "8C"), replace(arrival(2.0, 1, "B", "KS"), unchanged=unchanged, confidence=0.9)]
    sightings += [replace(arrival(2.1, 0, "B", "9D"), confidence=0.9)] if errand else []  # read surely: no arm passing
    events, _, _ = referee(sightings, ahead=True)
    assert [play for play in plays(events) if play[1] == 1] == ([("B", 1, "KS", "KC", False)] if ruled else [])
    notes = " | ".join(e for kind, e in events if kind == "note")
    assert ("the card on top read again with another suit" in notes) is not ruled


def test_a_spit_laid_square_on_a_card_of_its_rank_is_a_spit():
    # the layout is stalled (no stock top fits); B's 7S laid square on the 7D there leaves the pile's picture
    # much as it was: still a spit
    sightings = [layout_read((card("7D"), card("KC")), a="2H 4C 9D JC 3H", b="3C 5D 10S 10D 2S"),
                 replace(arrival(6.0, 0, "B", "7S"), unchanged=True), arrival(6.01, 1, "A", "4H")]
    events, _, _ = referee(sightings)
    assert [(e["player"], e["pile"], str(e["card"])) for kind, e in events if kind == "spit"] == [("B", 0, "7S"), ("A", 1, "4H")]


class ScriptedTracker:
    """Stands in for the table tracker: hands the session sightings at given frames."""

    period = 1 / 30

    def __init__(self, script, pending=None):
        """`pending`: (first frame, last frame, {pile: touch time}): touches not judged yet in those frames."""
        self.script = script
        self.pending = pending
        self.frame = -1

    def step(self, frame):
        self.frame = frame.index
        return self.script.get(frame.index, [])

    def pending_touches(self):
        if self.pending is None or not self.pending[0] <= self.frame <= self.pending[1]:
            return {}
        return dict(self.pending[2])

    def finish(self):
        return []


def test_a_fault_in_ruling_one_sighting_is_said_and_the_game_refereed_on(capsys):
    # a fault in the referee's own code, met on footage no test had (a stock slot the engine does not hold raised
    # IndexError and ended a replay at 12.3 s): the rulings before and after it stand, a notice says what was lost
    script = {0: [layout_read((BACK, card("8H")))], 30: [arrival(1.0, 0, "A", "KH")], 45: [arrival(1.5, 1, "B", "9H")],
              60: [arrival(2.0, 0, "B", "AH")]}
    session = RefereeSession(ScriptedTracker(script), RulesEngine(RulesConfig()), None)
    translate = session.translator.translate

    def faulty(sighting, state, coming=()):
        if getattr(sighting, "card", None) == Card.parse("9H"):
            raise IndexError("tuple index out of range")
        return translate(sighting, state, coming)

    session.translator.translate = faulty
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    played = [(e["player"], str(e["card"])) for e in session.events if e.type.value == "play"]
    assert played == [("A", "KH"), ("B", "AH")]
    faults = [e for e in session.events if e.type.value == "notice" and "could not rule" in e["message"]]
    assert len(faults) == 1 and "IndexError" in faults[0]["message"] and faults[0].t == pytest.approx(1.5)
    assert capsys.readouterr().err.count("could not rule") == 1


def test_a_fault_in_tracking_frames_is_said_once_and_the_frames_after_them_tracked(capsys):
    script = {0: [layout_read((BACK, card("8H")))], 30: [arrival(1.0, 0, "A", "KH")], 60: [arrival(2.0, 0, "B", "AH")]}

    class FaultyTracker(ScriptedTracker):
        def step(self, frame):
            if 40 <= frame.index < 50:
                raise ValueError("a tracking fault")
            return super().step(frame)

    session = RefereeSession(FaultyTracker(script), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    assert [(e["player"], str(e["card"])) for e in session.events if e.type.value == "play"] == [("A", "KH"), ("B", "AH")]
    faults = [e for e in session.events if e.type.value == "notice" and "could not track" in e["message"]]
    assert len(faults) == 1 and faults[0].frame == 40 and "ValueError" in faults[0]["message"]
    assert capsys.readouterr().err.count("could not track") == 1


def test_the_session_rules_camera_input_with_a_camera_tolerant_engine():
    script = {0: [layout_read((BACK, card("8H")))], 30: [arrival(1.0, 0, "A", "KH")], 60: [arrival(2.0, 0, "B", "AH")]}
    engine = RulesEngine(RulesConfig())
    session = RefereeSession(ScriptedTracker(script), engine, None)
    assert engine.config.camera_tolerant and engine.config.resync_misread_cards
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    played = [(e["player"], str(e["card"]), e["legal"]) for e in session.events if e.type.value == "play"]
    assert played == [("A", "KH", True), ("B", "AH", True)]
    strict = RulesEngine(RulesConfig())
    RefereeSession(ScriptedTracker({}), strict, None, camera=False)
    assert not strict.config.camera_tolerant


def test_a_pile_showing_again_the_card_under_its_top_is_a_take_back_not_a_play():
    # A plays 9D on 8H (legal), then 5S on 9D (illegal), lifts 5S off: the pile shows 9D again
    sightings = [layout_read((card("8H"), card("KC"))),
                 arrival(1.0, 0, "A", "9D"), arrival(2.0, 0, "A", "5S"), arrival(2.6, 0, "A", "9D")]
    events, observations, engine = referee(sightings)
    assert plays(events) == [("A", 0, "9D", "8H", True), ("A", 0, "5S", "9D", False)]
    violations = [(e["player"], e["kind"]) for kind, e in events if kind == "violation"]
    assert violations == [("A", "take_back")]
    assert engine.state.pile_tops[0] == Card.parse("9D")
    assert Card.parse("5S") in [stock.top for stock in engine.state.players["A"].stocks]


@pytest.mark.parametrize("shown_again, doubt, taken_back", [
    ("QS", 0.10, True),   # the queen under, read again with the other black suit, the one it landed as in doubt
    ("QS", 0.0, False),   # ... the one it landed as not in doubt at all: another card
    ("QD", 0.10, False),  # ... read red: another card, whatever the doubts
])
def test_the_card_under_shown_again_with_the_other_suit_of_its_colour_is_a_take_back(shown_again, doubt, taken_back):
    # seed 152 (a deck no model trained on): B's QS was read QC on its stock and as it landed; A laid a 6D
    # on it and lifted it back, and the pile read QS: it had been taken for a card from A's stock whose
    # turn-up was not seen
    sightings = [layout_read((card("JS"), card("3D")), a="2S 4D 10D JC 6D", b="QC 8C 3H 9H AD"),
                 arrival(1.0, 0, "B", "QC"), arrival(2.0, 0, "A", "6D"),
                 Arrival(2.4, 72, 0, "A", Card.parse(shown_again), 0.01, 0.59,
                         ((Card.parse(shown_again), 0.77),) + (((Card.parse("QC"), doubt),) if doubt else ()))]
    events, _, engine = referee(sightings)
    violations = [(e["player"], e["kind"]) for kind, e in events if kind == "violation"]
    assert (violations == [("A", "take_back")]) is taken_back
    assert (len(plays(events)) == 2) is taken_back
    if taken_back:
        assert engine.state.pile_tops[0] == Card.parse("QC")
        assert Card.parse("6D") in [stock.top for stock in engine.state.players["A"].stocks]


@pytest.mark.parametrize("hand, taken_back", [("B", True), ("A", False), (None, True)])
def test_only_the_hand_that_laid_the_top_lifts_it_back(hand, taken_back):
    # B lays 10S on the JS; then the pile reads J?: B's hand lifted the 10S off; A's laid a jack from a stock
    # whose turn-up was not seen (seed 219, a clip: A's JD read J? had been taken for the JS shown again)
    sightings = [layout_read((card("3H"), card("JS")), a="9S # QC 2H KD", b="8D QS 7C QD 10S"),
                 arrival(1.0, 1, "B", "10S"), Arrival(2.0, 60, 1, hand, Card.parse("J?"), 0.01)]
    events, _, engine = referee(sightings)
    violations = [(e["player"], e["kind"]) for kind, e in events if kind == "violation"]
    assert (violations == [("B", "take_back")]) is taken_back
    assert (plays(events)[-1] == ("A", 1, "J?", "10S", True)) is (not taken_back)


@pytest.mark.parametrize("second_thought, taken_back", [
    (0.02, True),   # read surely as the AD under the 3S: that AD, shown again; the A? on A's stock is another ace
    (0.30, False),  # ... the reader thought it may well be the AH: the ace on A's stock, laid on the 3S
])
def test_the_card_under_shown_again_is_no_stock_card_known_by_its_rank_alone(second_thought, taken_back):
    # other_decks seed 401 (KDE's jolly-royal): B lays AD on 2D, A lays 3S on it and lifts it back; the AD shown
    # again had been taken for the ace on A's stock, read without its suit, laid on the 3S
    sightings = [layout_read((card("2D"), card("KC")), a="A? 3S 9D JC KH", b="3C 6D 10S QS AD"),
                 arrival(1.0, 0, "B", "AD"), arrival(2.0, 0, "A", "3S"),
                 Arrival(2.6, 78, 0, "A", Card.parse("AD"), 0.01, 1.0 - second_thought,
                         ((Card.parse("AD"), 1.0 - second_thought), (Card.parse("AH"), second_thought)))]
    events, _, engine = referee(sightings)
    violations = [(e["player"], e["kind"]) for kind, e in events if kind == "violation"]
    assert (violations == [("A", "take_back")]) is taken_back
    assert (len(plays(events)) == 2) is taken_back
    assert (engine.state.pile_tops[0] == Card.parse("AD")) is taken_back


def test_a_card_under_the_other_pile_is_not_taken_for_a_take_back():
    sightings = [layout_read((card("8H"), card("KC"))), arrival(1.0, 0, "A", "9D"), arrival(2.0, 1, "B", "8H")]
    events, _, _ = referee(sightings)
    assert not [e for kind, e in events if kind == "violation"]


def test_two_cards_laid_together_from_the_hands_are_a_re_spit_after_a_stall_the_camera_missed():
    # the engine still sees a play (5S on 6?); the players, who know better, spit together
    sightings = [layout_read((card("6H"), card("KC"))), arrival(1.0, 0, "A", "5S"),
                 Arrival(3.0, 90, 0, "B", Card.parse("8D"), 0.01, together=True),
                 Arrival(3.02, 90, 1, "A", Card.parse("QH"), 0.01, together=True)]
    events, observations, engine = referee(sightings)
    kinds = [kind for kind, _ in events]
    assert kinds.count("stall") == 1 and kinds.index("stall") < kinds.index("spit")
    assert [(e["player"], e["pile"], str(e["card"])) for kind, e in events if kind == "spit"] == [("B", 0, "8D"), ("A", 1, "QH")]
    assert not [e for kind, e in events if kind == "violation"]



def test_a_card_of_no_known_stock_laid_together_with_the_other_players_stock_top_is_a_play_not_a_spit():
    # racing seed 130's clip from 19.27 s: A's queen, on a stock the clip's layout could not read, and B's last
    # stock card 2H laid at once: two plays, B's ending the round, not the spits after a stall
    rows = dict(a="-  -  5S -  -", b="-  -  -  -  2H")
    sightings = [LayoutRead(0.2, 14, stocks(**rows), (card("JD"), card("AD")), first=True),
                 Arrival(0.55, 33, 0, "A", Card.parse("QC"), 0.01, 0.9, together=True),
                 Arrival(0.56, 34, 1, "B", Card.parse("2H"), 0.01, 0.9, together=True)]
    events, _, engine = referee(sightings, ahead=True)
    assert plays(events) == [("A", 0, "QC", "JD", True), ("B", 1, "2H", "AD", True)]
    assert not [kind for kind, _ in events if kind in ("stall", "spit")]
    assert engine.state.phase is GamePhase.ROUND_OVER


def test_the_top_card_seen_landing_again_is_no_new_play():
    sightings = [layout_read((card("8H"), card("KC"))), arrival(1.0, 0, "A", "9D"), arrival(1.1, 0, "B", "9D")]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "9D", "8H", True)]


def test_spits_that_leave_play_stalled_are_followed_by_spits_not_plays():
    # no stock card (2s, 3s, 9s) goes on a 6: the re-spit stalls again, and the next cards from the hands
    # are spits too
    opening = LayoutRead(0.0, 0, stocks(a="2H 2S 2D 9C 9H", b="2C 9D 9S 3S 3D"), (EMPTY, EMPTY), first=True)
    sightings = [opening, arrival(1.0, 0, "A", "6H"), arrival(1.05, 1, "B", "6S"),
                 arrival(3.0, 0, "B", "6D"), arrival(3.05, 1, "A", "6C"),
                 arrival(5.0, 0, "A", "4C"), arrival(5.05, 1, "B", "8C")]
    events, _, _ = referee(sightings)
    kinds = [kind for kind, _ in events]
    assert kinds.count("spit") == 6 and kinds.count("stall") == 2 and "play" not in kinds
    assert not [e for kind, e in events if kind == "violation"]


@pytest.mark.parametrize("left_behind, stalled", [(EMPTY, True), (BACK, False)])
def test_a_clip_begun_mid_game_calls_the_stall_once_the_stocks_are_left_alone(left_behind, stalled):
    # how many cards lie under each stock top is not seen: while a player might still move a card into the
    # empty slot the referee waits, through a short lull too (a player may think a second before moving it);
    # once the table has been quiet UNCOUNTED_SECONDS it calls the stall the stocks as seen allow, dated when
    # the table last changed
    opening = layout_read((card("9H"), card("4D")), a="KS JS QC 6S 3C", b="AD JH 7D 6C KC")
    sightings = [opening, StockSeen(0.8, 24, "A", 4, left_behind, card("3C"), True), arrival(1.0, 1, "A", "3C")]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 1, "3C", "4D", True)] and "stall" not in [kind for kind, _ in events]
    events, _, _ = referee(sightings + [TableQuiet(1.3, 51)])
    assert "stall" not in [kind for kind, _ in events]
    events, _, _ = referee(sightings + [TableQuiet(1.3, 51), TableQuiet(1.3, 99, uncounted=True)])
    assert [e.t for kind, e in events if kind == "stall"] == ([1.0] if stalled else [])


#: A's QS stock seen again before A's card lands: bare, or the queen lying there read without its suit
#: with no hand near it (the light changed), or with A's hand there
_QS_LEFT = StockSeen(1.8, 54, "A", 0, BACK, card("QS"), True)
_QS_READ_AGAIN = StockSeen(1.8, 54, "A", 0, Reading(Card.parse("Q?"), confidence=0.6), card("QS"), False)


@pytest.mark.parametrize("stock_seen, expected", [
    # QS still lies on A's stock: A's spit card, misread; a queen, but not that one
    (None, [("spit", "A", "Q?"), ("spit", "B", "8C")]),
    (_QS_LEFT, [("play", "A", "QS"), ("spit", "B", "8C")]),   # A's stock was seen losing its QS: a (bad) play
    (_QS_READ_AGAIN, [("spit", "A", "Q?"), ("spit", "B", "8C")]),  # the QS still there (seed 8's clip from 11.3 s)
    (replace(_QS_READ_AGAIN, visited=True), [("play", "A", "QS"), ("spit", "B", "8C")]),
], ids=["unseen", "left", "read_again", "read_again_under_a_hand"])
def test_in_a_stall_a_card_laid_with_the_other_players_like_a_stock_top_still_on_the_stock_is_a_spit(stock_seen, expected):
    # nothing fits 3S or 9C: the opening layout is a stall, both players owe a spit
    opening = layout_read((card("3S"), card("9C")), a="QS JS KD 6H QH", b="AD JH JD 6C 5D")
    sightings = [opening]
    if stock_seen is not None:
        sightings.append(stock_seen)
    sightings += [Arrival(2.0, 60, 1, "A", Card.parse("QS"), 0.01, together=True),
                  Arrival(2.02, 61, 0, "B", Card.parse("8C"), 0.01, together=True)]
    events, _, _ = referee(sightings)
    assert [(kind, e["player"], str(e["card"])) for kind, e in events if kind in ("spit", "play")] == expected


def test_a_stock_card_laid_on_a_card_read_without_its_suit_is_a_play_not_a_take_back():
    # A's spit card is read as a queen of unknown suit; A then lays KD on it, and the QS from A's stock on
    # the KD: the pile shows a queen again, but the QS was on A's stock, so nothing was taken back
    opening = LayoutRead(0.0, 0, stocks(a="QS KD 9D JC 2H"), (EMPTY, EMPTY), first=True)
    sightings = [opening, Arrival(1.0, 30, 1, "A", Card.parse("Q?"), 0.01, together=True),
                 Arrival(1.05, 31, 0, "B", Card.parse("4C"), 0.01, together=True),
                 arrival(2.0, 1, "A", "KD"), arrival(3.0, 1, "A", "QS")]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 1, "KD", "Q?", True), ("A", 1, "QS", "KD", True)]
    assert not [e for kind, e in events if kind == "violation"]


def test_in_a_stall_a_stock_card_laid_alone_is_a_play_even_before_its_stock_is_seen_again():
    # the hand lingers over the stock row, so the stock is read late; no other card lands with it
    opening = layout_read((card("3S"), card("9C")), a="QS JS KD 6H QH", b="AD JH JD 6C 5D")
    events, _, _ = referee([opening, arrival(2.0, 1, "A", "QS")])
    assert plays(events) == [("A", 1, "QS", "9C", False)]


def test_a_stock_seen_again_showing_another_card_puts_the_misreading_right_and_the_stall_follows():
    # A4 was read as 10D at the start (it would fit 9H); it is 4D. Nothing fits 9H or 9C once the misreading
    # is put right
    opening = layout_read((card("9H"), card("9C")), a="2H 5S QD KC 10D", b="3C 6D 2S QS AH")
    sightings = [opening, StockSeen(2.0, 60, "A", 4, card("4D"), card("10D"), True), TableQuiet(3.0, 90)]
    events, _, engine = referee(sightings)
    assert "stall" not in [kind for kind, _ in referee(sightings[:1])[0]]
    assert "stock A4 was read as 10D; it shows 4D" in " | ".join(e["message"] for kind, e in events if kind == "notice")
    assert str(engine.state.players["A"].stocks[4].top) == "4D"
    assert "stall" in [kind for kind, _ in events]


def test_a_stock_showing_its_next_card_before_its_old_top_is_seen_landing_is_a_turn_up_after_the_play():
    # the hand turned the next card up before the pile it played on settled: JC is no misreading of 10C
    opening = layout_read((card("9H"), card("4D")), a="2H 5S QD 10C KH", b="3C 6D 2S QS AH")
    sightings = [opening, StockSeen(1.2, 36, "A", 3, card("JC"), card("10C"), True), arrival(1.0, 0, "A", "10C")]
    events, _, engine = referee(sightings)
    assert plays(events) == [("A", 0, "10C", "9H", True)]
    assert str(engine.state.players["A"].stocks[3].top) == "JC"
    assert "read as" not in " | ".join(e["message"] for kind, e in events if kind == "notice")


def test_a_misread_stock_top_moved_into_an_empty_slot_is_a_move_of_that_card():
    # A4 was read as JD; A moves its top (QS) into the empty A0 and a face-down card shows on A4
    opening = layout_read((card("9H"), card("4C")), a="- 5S 7D KC JD", b="3C 6D 2S QS AH")
    sightings = [opening, StockSeen(1.0, 30, "A", 4, BACK, card("JD"), True),
                 StockSeen(1.2, 36, "A", 0, card("QH"), EMPTY, True)]
    events, _, engine = referee(sightings)
    stocks = engine.state.players["A"].stocks
    assert str(stocks[0].top) == "QH" and stocks[0].count == 1
    assert stocks[4].top is None and stocks[4].count >= 1  # a face-down card to turn up: no stall yet
    assert "stall" not in [kind for kind, _ in events]


def test_a_stock_seen_bare_before_its_card_is_seen_moved_is_empty_after_the_move():
    # a card is seen face down under A4's 3H, so A4 counts 2; then A4 shows bare and the 3H shows on the
    # empty A0 (the stock settled before the slot the card went to): nothing is left on A4 to turn up
    opening = layout_read((card("9H"), card("9C")), a="- 5S QD KC 3H", b="2C 6D 2S QS AH")
    sightings = [opening, StockSeen(0.9, 27, "A", 4, BACK, card("3H"), True),   # a card seen under the 3H
                 StockSeen(1.0, 30, "A", 4, EMPTY, BACK, True),                 # ... then the slot bare
                 StockSeen(1.1, 33, "A", 0, card("3H"), EMPTY, True)]
    events, _, engine = referee(sightings)
    assert engine.state.players["A"].stocks[4].count == 0 and str(engine.state.players["A"].stocks[0].top) == "3H"


@pytest.mark.parametrize("apart, grazed_first", [(0.0, True), (0.0, False), (0.004, True)])
def test_a_slap_that_grazes_the_other_pile_in_the_same_frame_is_the_slap_of_the_pile_it_lay_on(apart, grazed_first):
    """Only a player's first slap counts: a hand slapping pile 1 in parallax spreads its fingers over pile 0's
    edge in the same frame; the slap is the pile the hand reached deeper into, whichever is ruled first."""
    from referee.rules.observations import CardLanded, Slap
    from tests.rules.tables import table

    engine = table(a="- 5S - - -", b="3C 5H 10S QS AH", piles="4C 8H", config=RulesConfig().for_camera())
    engine.observe(CardLanded(1.0, "A", 0, Card.parse("5S"), frame=30))
    grazed = PileTouched(2.0, 60, 0, "A", 0.005, depth=2.0)
    slapped = PileTouched(2.0 + apart, 60, 1, "A", 0.005, depth=33.0)
    first, second = (grazed, slapped) if grazed_first else (slapped, grazed)
    translator = Translator()
    found, note = translator.translate(first, engine.state, [second])
    slaps = [observation for observation in found if isinstance(observation, Slap)]
    if grazed_first:
        assert slaps == [] and "pile 1" in note
        found, _ = translator.translate(second, engine.state, [])
        slaps = [observation for observation in found if isinstance(observation, Slap)]
    assert [(slap.player, slap.pile) for slap in slaps] == [("A", 1)]


@pytest.mark.parametrize("depth, then, slapped", [
    (25.0, 2.1, 0),   # a slap (deep inside the outline), then the other pile: the first slap counts, as the rules say
    (2.0, 2.067, 1),  # a graze two frames before the slap (racing seed 127's clip from 20.25 s): the slap counts
    (2.0, 2.3, 0),    # a graze, then the other pile much later: the first touch is the slap
])
def test_a_hand_slapping_one_pile_and_then_the_other_slaps_the_first_unless_it_only_grazed_it(depth, then, slapped):
    from referee.rules.observations import CardLanded, Slap
    from tests.rules.tables import table

    engine = table(a="- 5S - - -", b="3C 5H 10S QS AH", piles="4C 8H", config=RulesConfig().for_camera())
    engine.observe(CardLanded(1.0, "A", 0, Card.parse("5S"), frame=30))
    translator = Translator()
    first, second = PileTouched(2.0, 60, 0, "A", 0.005, depth=depth), PileTouched(then, 62, 1, "A", 0.005, depth=33.0)
    assert translator.waits_for_stocks(first, engine.state) is (depth <= 4.0)  # a graze waits for what the hand does next
    found, _ = translator.translate(first, engine.state, [second])
    if slapped == 1:
        assert not [o for o in found if isinstance(o, Slap)]
        found, _ = translator.translate(second, engine.state, [])
    assert [(o.player, o.pile) for o in found if isinstance(o, Slap)] == [("A", slapped)]


@pytest.mark.parametrize("read_again", ["5?", "5S"])
def test_after_the_round_s_end_the_top_card_read_again_is_the_hand_s_slap(read_again):
    # A plays the last stock card; then B's slap over pile 0 makes it be read again, the suit unread or
    # read (and B has a five on a stock: still no late play)
    from referee.rules.observations import CardLanded, Slap
    from tests.rules.tables import table

    engine = table(a="- 5S - - -", b="3C 5H 10S QS AH", piles="4C 8H", config=RulesConfig().for_camera())
    engine.observe(CardLanded(1.0, "A", 0, Card.parse("5S"), frame=30))
    translator = Translator()
    found, note = translator.translate(arrival(2.0, 0, "B", read_again), engine.state)
    assert found == [Slap(2.0, "B", 0, frame=60, error=SLAP_ERROR_S)] and note  # the slap as timed as the touch, as unsure as a slap
    events = [event for observation in found for event in engine.observe(observation)]
    assert "play" not in [event.type.value for event in events]


def test_a_stock_card_misread_as_the_card_under_the_pile_is_a_play_when_the_reader_thought_it_may_be_that_stock_card():
    # B plays JD on 10C, A plays 10D on the JD; A then lays the JS from A's stock, read as JD (the card
    # under the pile) with JS its second thought
    opening = layout_read((card("10C"), card("KC")), a="JS 9D 10D 2H 3C", b="JD 6D 10S QS AH")
    misread = Arrival(3.0, 90, 0, "A", Card.parse("JD"), 0.01, confidence=0.6,
                      alternatives=((Card.parse("JD"), 0.6), (Card.parse("JS"), 0.26)))
    events, _, _ = referee([opening, arrival(1.0, 0, "B", "JD"), arrival(2.0, 0, "A", "10D"), misread])
    assert plays(events)[-1] == ("A", 0, "JS", "10D", True)
    assert not [e for kind, e in events if kind == "violation"]


@pytest.mark.parametrize(
    "rows, expected",
    [
        # A's only king is KH: a KC landing from A's hand is the KH read with the wrong suit
        (dict(a="2H 5S 9D JC KH"), ("A", 0, "KH", "QS", True)),
        # two kings on A's stocks, neither the one read: which one was laid cannot be told, so the card stands as read
        (dict(a="2H KS 9D JC KH"), ("A", 0, "KC", "QS", True)),
    ],
    ids=["one_king", "two_kings"],
)
def test_a_court_card_read_with_another_suit_is_the_players_one_stock_top_of_its_rank(rows, expected):
    opening = layout_read((card("QS"), card("8H")), b="3C 6D 10S QS AH", **rows)
    events, observations, _ = referee([opening, arrival(1.0, 0, "A", "KC")])
    assert plays(events) == [expected]


def test_a_stall_seen_once_the_stocks_are_left_alone_is_dated_when_play_stopped():
    # A's 3C on the 4D leaves nothing to play; the referee knows only once the stocks are left alone long
    # enough (A could still move a card into the slot the 3C left), but the stall came with the 3C
    opening = layout_read((card("9H"), card("4D")), a="KS JS QC 6S 3C", b="AD JH 7D 6C KC")
    sightings = [opening, StockSeen(0.8, 24, "A", 4, EMPTY, card("3C"), True), arrival(1.0, 1, "A", "3C"),
                 TableQuiet(1.3, 39), TableQuiet(1.3, 99, uncounted=True)]
    events, _, _ = referee(sightings)
    (stall,) = [e for kind, e in events if kind == "stall"]
    assert stall.t == 1.0 and stall.frame == 99
    assert [e.t for _, e in events if hasattr(e, "t")] == sorted(e.t for _, e in events if hasattr(e, "t"))


def _racing_take_back(visited: bool, b_stocks: str = "3C 6S 10S QS AH"):
    # A lays 5D on 5S (illegal) from stock 1 and lifts it straight back; B's 6S lands on the pile at once,
    # so the pile never shows the 5S again; A's stock 1 shows the 5D back where A's hand just was
    sightings = [layout_read((card("5S"), card("KC")), a="2H 5D 9D JC KH", b=b_stocks),
                 arrival(1.0, 0, "A", "5D"),
                 StockSeen(1.2, 36, "A", 1, BACK, card("5D"), True, turned_at=1.1),
                 arrival(1.3, 0, "B", "6S"),
                 StockSeen(1.7, 51, "A", 1, card("5D"), BACK, visited, turned_at=1.5, reached_at=1.35)]
    return referee(sightings)


@pytest.mark.parametrize("b_stocks", ["3C 6S 10S QS AH", "3C 6S 10S QS 5?"])
def test_a_card_seen_back_on_its_players_stock_was_taken_back_though_the_pile_never_showed_the_card_under_it(b_stocks):
    # "5?": a five of B's read without its suit is no reason to doubt it: B's cards are not A's (seed 121's
    # racing game drawn in parallax, a `J?` on A's stock and B's JC)
    events, _, engine = _racing_take_back(visited=True, b_stocks=b_stocks)
    assert plays(events)[:2] == [("A", 0, "5D", "5S", False), ("B", 0, "6S", "5D", True)]
    violations = [(e["player"], e["kind"], e.t) for kind, e in events if kind == "violation"]
    assert violations == [("A", "take_back", 1.35)]  # when the hand brought it back to the stock
    assert engine.state.pile_tops[0] == Card.parse("6S") and engine.state.pile_counts[0] == 2
    assert engine.state.players["A"].stocks[1].top == Card.parse("5D")
    assert not [e for kind, e in events if kind == "notice" and "already seen" in e["message"]]


def _plays_and_breaches(script: dict) -> tuple[list[tuple], RefereeSession]:
    """A scripted tracker refereed for 3 s at 30 fps: the plays and breaches ruled (kind, player, card, on, legal)."""
    session = RefereeSession(ScriptedTracker(script), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    ruled = [(e.type.value, e.get("player"), e.get("card") and str(e["card"]), e.get("on") and str(e["on"]), e.get("legal"))
             for e in session.events if e.type.value in ("play", "violation")]
    return ruled, session


@pytest.mark.parametrize("after, expected", [
    # B's 6H laid at once: judged on the 5S
    (("B", "6H"), [("play", "A", "9D", "5S", False), ("violation", "A", None, None, None), ("play", "B", "6H", "5S", True)]),
    # the 9D itself read under A's hand lifting it: no card laid (seed 123's racing game on H.264)
    (("A", "9D"), [("play", "A", "9D", "5S", False), ("violation", "A", None, None, None)]),
])
def test_a_take_back_seen_on_the_stock_after_the_next_card_landed_is_ruled_before_it(after, expected):
    # A lays 9D on 5S (illegal) and lifts it back; B's 6H lands at once. A's stock settles showing the 9D
    # back before B's card is ruled (the pile waited for the hands): the take-back goes first, and the 6H
    # lands on the 5S (`all_at_once` seed 173: A's 6H ruled illegal on B's 9H, lifted back before it)
    script = {0: [layout_read((card("5S"), card("KC")), a="2H 9D 5D JC KH", b="3C 6H 10S QS AH")],
              30: [arrival(1.0, 0, "A", "9D")], 36: [StockSeen(1.2, 36, "A", 1, BACK, card("9D"), True, turned_at=1.1)],
              51: [StockSeen(1.7, 51, "A", 1, card("9D"), BACK, True, turned_at=1.5, reached_at=1.35)],
              52: [arrival(1.5, 0, *after)]}
    ruled, session = _plays_and_breaches(script)
    assert ruled == expected


@pytest.mark.parametrize("came_back, expected", [
    # A's hand came back to pile 0 for its 9D before B's 6H landed: the 9D was lifted then, and the 6H lands on the 5S
    ("A", [("play", "A", "9D", "5S", False), ("violation", "A", None, None, None), ("play", "B", "6H", "5S", True)]),
    # B's own hand at the pile is no sign A lifted its card: A's hand reached its stock after the 6H landed
    ("B", [("play", "A", "9D", "5S", False), ("play", "B", "6H", "9D", False), ("violation", "A", None, None, None)]),
])
def test_a_take_back_is_dated_when_the_hand_came_back_to_the_pile_for_the_card(came_back, expected):
    # A lays 9D on 5S (illegal), its hand comes back to the pile (a touch that lays nothing) and lifts the card;
    # B's 6H lands before A's hand reaches its stock with the 9D (`other_decks` seed 405)
    script = {0: [layout_read((card("5S"), card("KC")), a="2H 9D 5D JC KH", b="3C 6H 10S QS AH")],
              30: [arrival(1.0, 0, "A", "9D")], 36: [StockSeen(1.2, 36, "A", 1, BACK, card("9D"), True, turned_at=1.1)],
              42: [PileTouched(1.4, 42, 0, came_back, 0.003)],
              45: [arrival(1.5, 0, "B", "6H")],
              57: [StockSeen(1.9, 57, "A", 1, card("9D"), BACK, True, turned_at=1.8, reached_at=1.6)]}
    ruled, session = _plays_and_breaches(script)
    assert ruled == expected
    (take_back,) = [e for e in session.events if e.type.value == "violation"]
    assert take_back.t == (1.4 if came_back == "A" else 1.6)


def test_a_card_seen_on_a_stock_no_hand_went_to_is_no_take_back():
    events, _, _ = _racing_take_back(visited=False)
    assert not [e for kind, e in events if kind == "violation"]


def test_a_card_seen_back_on_its_stock_after_the_next_card_ended_the_round_was_taken_back():
    # A lifts the 5D straight back as B's 6S, B's last card, lands and ends the round; A's stock, left
    # bare by the 5D, shows a five, read by its rank alone, only after that (seed 123's racing game: the
    # take-back went uncalled)
    five = Reading(Card.parse("5?"), confidence=0.9)
    sightings = [layout_read((card("5S"), card("KC")), a="2H 5D 9D JC KH", b="- - - - 6S"),
                 arrival(1.0, 0, "A", "5D"),
                 StockSeen(1.2, 36, "A", 1, EMPTY, card("5D"), True, turned_at=1.1),
                 arrival(1.3, 0, "B", "6S"),
                 StockSeen(1.7, 51, "A", 1, five, EMPTY, True, turned_at=1.5, reached_at=1.35)]
    events, _, engine = referee(sightings)
    assert [kind for kind, _ in events].index("round_over") < [kind for kind, _ in events].index("violation")
    assert [(e["player"], e["kind"], e.t) for kind, e in events if kind == "violation"] == [("A", "take_back", 1.35)]
    assert engine.state.phase is GamePhase.ROUND_OVER


def test_a_card_read_by_its_rank_alone_where_a_face_down_card_lay_is_no_take_back():
    # A lays the JD from stock 2 and turns up the card under it, another jack read `J?` (seed 27's game):
    # by its rank alone it cannot be told from the JD brought back
    jack = Reading(Card.parse("J?"), confidence=0.9)
    sightings = [layout_read((card("10S"), card("AS")), a="2H 5D JD 3C KH"),
                 StockSeen(0.9, 27, "A", 2, BACK, card("JD"), True, turned_at=0.85),
                 arrival(1.0, 0, "A", "JD"),
                 StockSeen(1.7, 51, "A", 2, jack, BACK, True, turned_at=1.5, reached_at=1.35)]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "JD", "10S", True)]
    assert not [e for kind, e in events if kind == "violation"]


def test_a_card_read_by_its_rank_alone_is_no_take_back_when_the_player_laid_two_of_that_rank():
    five = Reading(Card.parse("5?"), confidence=0.9)
    sightings = [layout_read((card("5S"), card("4C")), a="2H 5D 9D 5H KH"),
                 StockSeen(0.4, 12, "A", 3, EMPTY, card("5H"), True, turned_at=0.35),
                 arrival(0.5, 1, "A", "5H"),
                 StockSeen(0.9, 27, "A", 1, EMPTY, card("5D"), True, turned_at=0.85),
                 arrival(1.0, 0, "A", "5D"),
                 StockSeen(1.7, 51, "A", 1, five, EMPTY, True, turned_at=1.5, reached_at=1.35)]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 1, "5H", "4C", True), ("A", 0, "5D", "5S", False)]
    assert not [e for kind, e in events if kind == "violation" and e["kind"] == "take_back"]


def test_a_card_laid_unseen_and_seen_back_on_its_stock_was_taken_back():
    # A lays JD on 7H (illegal) and snatches it back before the pile settles: the pile reads as before,
    # the JD seen leaving A's stock 2 is taken as laid there, and then A's stock 2 shows the JD again
    # where A's hand just was (seed 215, session 21: the JD had stayed the top, B's 6C judged on it)
    sightings = [layout_read((card("7H"), card("6S")), a="2H 9D JD KC 4S", b="3C 5D 10S 6C AH"),
                 StockSeen(1.0, 30, "A", 2, BACK, card("JD"), True, turned_at=0.95),
                 PileTouched(1.1, 33, 0, "A", 0.01),
                 StockSeen(1.9, 57, "A", 2, card("JD"), BACK, True, turned_at=1.8, reached_at=1.7),
                 arrival(2.5, 0, "B", "6C")]
    events, _, engine = referee(sightings)
    assert plays(events) == [("A", 0, "JD", "7H", False), ("B", 0, "6C", "7H", True)]
    assert [(e["player"], e["kind"]) for kind, e in events if kind == "violation"] == [("A", "take_back")]
    assert engine.state.players["A"].stocks[2].top == Card.parse("JD")
    assert not [e for kind, e in events if kind == "notice" and "already seen" in e["message"]]


@pytest.mark.parametrize("through_hand, laid", [(False, [("B", 0, "10S", "9D", True)]), (True, [])])
def test_a_hand_come_down_on_the_other_players_hand_in_play_is_no_card_laid_unseen(through_hand, laid):
    # B's 10S left B's stock; B's hand touching the pile laid it there unseen; B's hand resting on A's
    # over the pile touched nothing (in play it waits its turn; after the round's end it slapped)
    sightings = [layout_read((card("8H"), card("KC"))), arrival(1.0, 0, "A", "9D"),
                 StockSeen(1.15, 34, "B", 2, BACK, card("10S"), True),
                 PileTouched(1.2, 36, 0, "B", 0.01, through_hand=through_hand)]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 0, "9D", "8H", True)] + laid


def before_a_s_last_card(b="3C 6H 10S QS AH", piles="4C 8H"):
    """An engine in play where A's one stock card left is a 5S, playable on pile 0."""
    from tests.rules.tables import table

    return table(a="- 5S - - -", b=b, piles=piles, config=RulesConfig().for_camera())


def after_a_s_last_card(b="3C 6H 10S QS AH", piles="4C 8H"):
    """An engine whose round is over: A has just played A's last stock card, a 5S on pile 0."""
    from referee.rules.observations import CardLanded

    engine = before_a_s_last_card(b, piles)
    engine.observe(CardLanded(1.0, "A", 0, Card.parse("5S"), frame=30))
    return engine


def ruled_after_the_round(sightings, engine=None):
    """The events of `sightings` translated and ruled one by one once the round is over."""
    engine = engine or after_a_s_last_card()
    translator = Translator()
    events = []
    for sighting in sightings:
        found, _ = translator.translate(sighting, engine.state)
        events += [event for observation in found for event in engine.observe(observation)]
    return events


def test_two_slaps_on_one_pile_closer_than_slaps_can_be_timed_are_called_too_close():
    # the fits claim 5 ms each; a slap's time is never surer than SLAP_ERROR_S (its last move is straight down)
    events = ruled_after_the_round([PileTouched(2.0, 60, 1, "B", 0.005), PileTouched(2.06, 62, 1, "A", 0.005, through_hand=True)])
    (order,) = [event for event in events if event.type.value == "touch_order"]
    assert order["first"] == "B" and order["too_close"] and order["error_ms"] > 60.0
    assert [event["takes"] for event in events if event.type.value == "round_end"] == [{"B": 1, "A": 0}]


@pytest.mark.parametrize("on_hand, slapped_at", [(None, 2.4), ((2.15, 64, 0.01), 2.15)])
def test_a_second_slap_that_came_down_on_the_first_hand_is_timed_there(on_hand, slapped_at):
    # B's hand landed on A's, lying on the pile, at 2.15; it touched the pile itself once A's had gone (2.4)
    events = ruled_after_the_round([PileTouched(2.0, 60, 1, "A", 0.005), PileTouched(2.4, 72, 1, "B", 0.005, on_hand=on_hand)])
    assert [(event["player"], event.t) for event in events if event.type.value == "slap"] == [("A", 2.0), ("B", slapped_at)]


def ruled_from_a_s_last_card(sightings):
    """A lays A's last stock card (a 5S on pile 0, touching at 1.0) and then `sightings`, each through the
    translator into a real engine, an observation timed before the last ruled at that time (as the session
    rules them)."""
    engine = before_a_s_last_card()
    translator = Translator()
    events, notes, last_t = [], [], 0.0
    for sighting in [arrival(1.0, 0, "A", "5S")] + sightings:
        found, note = translator.translate(sighting, engine.state)
        notes += [note] if note else []
        for observation in found:
            observation = replace(observation, t=max(observation.t, last_t))
            last_t = observation.t
            events += engine.observe(observation)
    return events, notes


@pytest.mark.parametrize("player, t, slaps", [
    ("A", 0.97, []),             # A's fingers over pile 1 as A laid the last card: laying it, not a slap
    ("A", 1.0, []),              # touched together with it (pile 1 read again as that hand settles)
    ("A", 1.2, [("A", 1)]),      # after it: a slap
    ("B", 0.97, [("B", 1)]),     # the other player's hand, a slap however close to the round's end it was timed
])
def test_the_hand_that_laid_the_round_s_last_card_slaps_only_after_it(player, t, slaps):
    events, notes = ruled_from_a_s_last_card([PileTouched(t, int(t * 30), 1, player, 0.005)])
    assert [(event["player"], event["pile"]) for event in events if event.type.value == "slap"] == slaps
    assert any("laying it, not a slap" in note for note in notes) is (not slaps)


def test_a_slap_after_the_last_card_s_hand_passed_over_the_other_pile_is_ordered_against_the_other_player_s():
    # parallax racing seed 123: A's hand, reaching for pile 0 with the last card, was seen over pile 1 just
    # before; taken for A's slap there, it stood as A's only slap, and A's real one, onto B's hand on pile
    # 0 after B's, went unruled, with the slaps' order
    events, _ = ruled_from_a_s_last_card([PileTouched(0.97, 29, 1, "A", 0.005), PileTouched(1.7, 51, 0, "B", 0.005),
                                          PileTouched(1.84, 55, 0, "A", 0.005, through_hand=True)])
    (order,) = [event for event in events if event.type.value == "touch_order"]
    assert order["first"] == "B" and order["pile"] == 0
    assert [event["takes"] for event in events if event.type.value == "round_end"] == [{"B": 0, "A": 1}]


@pytest.mark.parametrize("read_as, rest, expected", [
    ("KC", None, ("slap", 2.0)),          # none of B's stock tops: the top under the slapping hand misread
    ("KC", (2.2, 66, 0.01), ("slap", 2.2)),  # timed where the hand came to rest, as a slap lands flat
    ("QS", None, ("play", 2.0)),          # B's stock top: a late play, a breach
    ("QD", None, ("play", 2.0)),          # of the rank of B's stock top, its suit misread: a late play too
])
def test_after_the_round_s_end_a_card_none_of_the_players_stock_tops_is_the_top_misread_under_a_slap(read_as, rest, expected):
    engine = after_a_s_last_card(b="3C 5H 10S QS AH", piles="4C KH")
    events = ruled_after_the_round([replace(arrival(2.0, 1, "B", read_as), rest=rest)], engine)
    kind, t = expected
    assert [(e.type.value, e.t) for e in events if e.type.value in ("slap", "play")] == [(kind, t)]
    assert ("violation" in [e.type.value for e in events]) is (kind == "play")


@pytest.mark.parametrize("unturned, stalled", [(False, False), (True, True)])
def test_a_stock_read_face_down_that_nobody_turns_up_through_a_long_lull_holds_no_stall_back(unturned, stalled):
    # A's third stock reads face down from the layout on (a face-up card the reader cannot name): players
    # turn a face-down top up at once, so a lull that goes on without it shows the table stalled; nothing has
    # changed since the clip's first view of it, so it was stalled then, and the stall (before the video) is not
    # called: the spits are due
    opening = layout_read((card("9H"), card("4D")), a="KS JS # 6S 2C", b="AD JH 7D 6C KC")
    sightings = [opening, TableQuiet(0.5, 27)] + ([TableQuiet(0.5, 39, unturned=True)] if unturned else [])
    events, _, engine = referee(sightings)
    notes = [e["message"] for kind, e in events if kind == "notice"]
    assert "stall" not in [kind for kind, _ in events]
    assert (engine.state.phase is GamePhase.STALLED) is stalled and (engine.state.spits_due == {"A", "B"}) is stalled
    assert any("A2 seen face down and not turned up" in note for note in notes) is stalled
    assert any("the stall came before the video began" in note for note in notes) is stalled


def test_a_hand_that_touched_both_piles_and_left_both_reading_as_before_laid_its_stock_card_on_the_far_one():
    # B's arm crossed pile 0 to lay QD on pile 1's KD, misread there as the KD still: both piles read as
    # before. The QD seen leaving B's stock went on the pile B reached last, not the one it passed over
    opening = layout_read((card("4C"), card("KD")), b="3C 6D 10S 2S QD")
    left = StockSeen(1.04, 31, "B", 4, BACK, card("QD"), True)
    script = {0: [opening], 45: [PileTouched(1.0, 30, 0, "B", 0.005), left, PileTouched(1.06, 32, 1, "B", 0.005)]}
    session = RefereeSession(ScriptedTracker(script), RulesEngine(RulesConfig()), None)
    image = np.zeros((4, 4, 3), np.uint8)
    for index in range(90):
        session.process(Frame(index, index / 30, image))
    session.finish()
    played = [(e["player"], e["pile"], str(e["card"]), e["legal"]) for e in session.events if e.type.value == "play"]
    assert played == [("B", 1, "QD", True)]


def test_a_card_the_lingering_hand_did_not_lay_is_timed_by_its_own_players_touch_seen_under_it():
    # A's hand came to pile 1 first (lifting a card back) and lingered; B laid QC there 0.36 s later. The
    # pile settled once, QC on top, credited to A's hand: QC is B's stock top, so B laid it, at B's touch
    opening = layout_read((card("4C"), card("JH")), b="3C 6D 10S QC AH")
    seen_by_a = Arrival(14.668, 440, 1, "A", Card.parse("QC"), 0.0025, 0.77)
    b_under = Arrival(15.028, 451, 1, "B", Card.parse("Q?"), 0.008, 0.9, under=True)
    translator, engine = Translator(), RulesEngine(RulesConfig().for_camera())
    engine.observe(translator.translate(opening, engine.state)[0][0])
    found, _ = translator.translate(seen_by_a, engine.state, [b_under])
    assert [(o.player, o.pile, str(o.card), o.t, o.frame) for o in found] == [("B", 1, "QC", 15.028, 451)]


@pytest.mark.parametrize("alternatives, expected", [
    # half of the reading on the QS still lying on A's stock: of the queens not showing, the QC
    ((("QS", 0.33), ("QC", 0.22), ("KS", 0.08), ("QD", 0.06)), "QC"),
    ((("KS", 0.66), ("KC", 0.21), ("QS", 0.04)), "KS"),   # a king: most of the weight on the KS
    ((("QC", 0.3), ("QD", 0.25)), "Q?"),                  # no suit the reader nearly settled on: a queen
    ((), "Q?"),
], ids=["the_likeliest_lies_on_a_stock", "a_suit_twice_as_likely", "no_suit_clear", "no_alternatives"])
def test_a_spit_read_without_its_suit_is_named_by_the_suit_its_reader_favoured_among_cards_not_showing(alternatives, expected):
    opening = layout_read((card("3S"), card("9C")), a="QS JS KD 6H QH", b="AD JH JD 6C 5D")  # a stall: spits due
    rank = expected[0]
    spit = Arrival(2.0, 60, 1, "A", Card.parse(f"{rank}?"), 0.01, confidence=0.8, together=True,
                   alternatives=tuple((Card.parse(text), p) for text, p in alternatives))
    events, _, _ = referee([opening, spit, Arrival(2.02, 61, 0, "B", Card.parse("8C"), 0.01, together=True)])
    assert [(kind, e["player"], str(e["card"])) for kind, e in events if kind in ("spit", "play")] == [
        ("spit", "A", expected), ("spit", "B", "8C")]


@pytest.mark.parametrize("stock_left, expected", [
    (False, [("A", 1, "JS"), ("B", 0, "5H")]),   # B's arm passed over A's JS on its way to pile 0
    (True, [("A", 1, "JS"), ("B", 1, "J?"), ("B", 0, "5H")]),   # B's JC seen leaving its stock: a card B laid, ruled
], ids=["arm_passing", "jack_left_its_stock"])
def test_the_top_read_again_under_a_hand_on_its_way_to_the_other_pile_is_no_card_though_a_stock_shows_its_rank(
        stock_left, expected):
    """The opening spits: A's JS lands on pile 1; B's hand, spitting its 5H on pile 0 19 ms later, passes over
    it and the pile is read `J?` as B's. B has a JC on a stock, so a J from B could be a card laid: unless
    that stock is seen losing it, it is the JS read again."""
    opening = layout_read((EMPTY, EMPTY), a="2H 5S 9D QC KH", b="3C JC 10S QS AH")
    spit_a = Arrival(2.63, 79, 1, "A", Card.parse("JS"), 0.006, confidence=0.9, together=True)
    over = Arrival(2.769, 83, 1, "B", Card.parse("J?"), 0.003, confidence=0.94, together=True,
                   alternatives=((Card.parse("JC"), 0.58), (Card.parse("JS"), 0.36)))
    spit_b = Arrival(2.788, 84, 0, "B", Card.parse("5H"), 0.008, confidence=0.97, together=True)
    sightings = [opening, spit_a, over, spit_b]
    if stock_left:
        sightings.insert(3, StockSeen(2.78, 83, "B", 1, BACK, card("JC"), True))
    events, _, _ = referee(sightings, ahead=True)
    assert [(e["player"], e["pile"], str(e["card"])) for kind, e in events if kind in ("spit", "play")] == expected


@pytest.mark.parametrize("b_stocks, expected", [
    ("3C 6D 10S KS AH", ("B", 0, "KS", "QD", True)),   # B's black king: the suit misread, not the hand's side
    ("3C 6D 10S KH AH", ("A", 0, "KC", "QD", True)),   # B's king is red: the hand seen was not the one that laid it
    ("3C 6D 10S 4S AH", ("A", 0, "KC", "QD", True)),   # B has no king
], ids=["black_king", "red_king", "no_king"])
def test_a_card_like_the_other_players_stock_top_is_the_hand_s_own_where_its_stocks_hold_its_rank_and_colour(b_stocks, expected):
    # seed 194's clip: the opening layout read A's `KS` as `KC`; B turned up a `KC`, and laid it: the `KC` was
    # given to A, the hand seen laying it (B's, its arm from B's side) taken for a mistake
    sightings = [layout_read((card("QD"), card("8H")), a="2H 5S 9D KC 7H", b=b_stocks), arrival(1.0, 0, "B", "KC")]
    events, _, _ = referee(sightings)
    assert plays(events) == [expected]


@pytest.mark.parametrize("pile_top, expected", [("KC", "KS"), ("QD", "KC")], ids=["kc_on_the_table", "kc_not_seen"])
def test_a_card_read_as_one_already_on_the_table_from_a_stock_named_by_rank_alone_is_the_other_of_its_rank(pile_top, expected):
    # seed 194: A's `KS` (its stock read `K?`) read `KC` at 0.42, `KS` 0.38, as it landed, B's `KC` already on a pile
    kings = ((Card.parse("KC"), 0.42), (Card.parse("KS"), 0.38), (Card.parse("KD"), 0.04))
    sightings = [layout_read((card(pile_top), card("AH")), a="2H 5S 9D K? 7H"),
                 Arrival(1.0, 30, 1, "A", Card.parse("KC"), 0.01, 0.8, kings)]
    events, _, _ = referee(sightings)
    assert plays(events) == [("A", 1, expected, "AH", True)]


@pytest.mark.parametrize("a_stocks, showing, taken_back", [
    ("2H 6S 5D JC KH", "8H", True),    # the 6S the layout showed on pile 1 lies on A's stock: A lifted it back
    ("2H 5S 5D JC KH", "8H", False),   # ... it lies nowhere: the 8H is A's card, laid on it
    ("2H 6S 8H JC KH", "8H", False),   # ... the card now showing lies on A's stock too: it is being played, the top misread
    ("2H 6S 5D JC KH", "7H", False),   # ... it fits the 6S: laid on it (a stock card and the top misread alike)
])
def test_the_top_a_clip_s_layout_showed_seen_back_on_the_player_s_stock_was_lifted_back(a_stocks, showing, taken_back):
    # `all_at_once --after-touch` seed 172's clip from 3 s: the clip opens as A lays a 6S on the 8H, and the
    # layout is read once A has lifted it back onto its stock; the 8H showing again was ruled A's card laid on it
    sightings = [layout_read((card("JH"), card("6S")), a=a_stocks, b="3C 9D 10S QS AH"), arrival(0.4, 1, "A", showing),
                 arrival(1.3, 1, "B", "9D")]
    events, _, engine = referee(sightings)
    assert_lifted_back_to_a1(events, engine, taken_back, lifted="6S", next_play=("B", 1, "9D", "8H", True), else_play=("A", 1, showing))


def assert_lifted_back_to_a1(events, engine, taken_back, *, lifted, next_play, else_play):
    """A's take-back called (or not), the card `lifted` back on A's stock 1, counted once, and B's next card laid
    on the card under it (`next_play`); else A's first play begins as `else_play`."""
    violations = [(e["player"], e["kind"]) for kind, e in events if kind == "violation"]
    assert (violations == [("A", "take_back")]) is taken_back
    if taken_back:
        assert plays(events) == [next_play]
        assert engine.state.players["A"].stocks[1].top == Card.parse(lifted) and engine.state.players["A"].stocks[1].count == 1
    else:
        assert plays(events)[0][:len(else_play)] == else_play


@pytest.mark.parametrize("back_after, taken_back", [(0.6, True), (3.5, False)])
def test_the_top_a_clip_s_layout_showed_seen_back_on_the_stock_a_moment_after_the_card_under_it_is_lifted_back(back_after, taken_back):
    # `all_at_once --after-touch` seed 175's clip from 3 s: the clip opens as A lays a 2H on the 4D and lifts it
    # back; the layout showed the 2H on the pile and A's stock bare under A's hand, and the stock settled with the
    # 2H only after the pile had settled with the 4D: the 4D was ruled A's card laid on it
    sightings = [layout_read((card("JH"), card("2H")), a="QC - 2C 10S KH", b="3C 9D 10S QS AH"), arrival(0.54, 1, "A", "4D"),
                 StockSeen(0.54 + back_after, int((0.54 + back_after) * 30), "A", 1, card("2H"), EMPTY, True),
                 arrival(1.1 + back_after, 1, "B", "3C")]
    events, _, engine = referee(sightings, ahead=True)
    assert_lifted_back_to_a1(events, engine, taken_back, lifted="2H", next_play=("B", 1, "3C", "4D", True), else_play=("A", 1, "4D", "2H"))


@pytest.mark.parametrize("stocks_out", ["A", None])
def test_a_clip_that_opens_on_a_round_already_over_rules_its_slaps(stocks_out):
    """`clip_slaps`: racing seed 123 cut 0.8 s before the slaps, as A's last stock card lands. The round was
    taken as going on, and the two hands that came down on pile 1 as mere touches: no slap, no round's end.
    The tracker says whose stocks were out (`LayoutRead.stocks_out`); where it does not (A's last card seen
    laid, to be ruled after the layout: racing seed 129's clip from 27.15 s), play goes on as first seen."""
    opening = replace(LayoutRead(0.43, 13, stocks(a="- - - - -", b="- QH - - 4H"), (card("5D"), card("KC")), first=True),
                      stocks_out=stocks_out)
    events, observations, engine = referee([opening, PileTouched(0.77, 24, 1, "B", 0.005), PileTouched(0.83, 25, 1, "A", 0.005)])
    assert observations[0].stocks_out == stocks_out
    slaps = [(event["player"], event["pile"]) for kind, event in events if kind == "slap"]
    assert slaps == ([("B", 1), ("A", 1)] if stocks_out else [])
    assert [event["takes"] for kind, event in events if kind == "round_end"] == ([{"B": 1, "A": 0}] if stocks_out else [])


