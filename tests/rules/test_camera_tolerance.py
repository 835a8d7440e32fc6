"""RulesConfig(camera_tolerant=True): bad or missing observations never lose rulings.

A camera referee rules the play that visibly happened, with a `notice` about what does not fit,
instead of ignoring it. Each row is also fed to a strict engine (the simulator's exact replay),
which must still refuse it.
"""

import pytest

from referee.errors import ObservationError
from referee.rules.cards import Card
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.observations import (
    CardLanded, CardTakenBack, LayoutSeen, RoundLaidOut, Slap, SpitTurned, StockInDoubt, StockSeenEmpty, StockSeenFaceDown,
    StocksSettled, StockTurnedUp,
)
from referee.rules.state import GamePhase

from tests.rules.tables import kinds, layout, of_type, table

CAMERA = RulesConfig(camera_tolerant=True)


def plays(events):
    return [(e["player"], e["pile"], str(e["card"]), None if e["on"] is None else str(e["on"]), e["legal"])
            for e in of_type(events, "play")]


def notices(events):
    return " | ".join(e["message"] for e in of_type(events, "notice"))


# ---- plays with no layout seen -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "landings, expected",
    [
        # the first card on a pile with an unknown top is taken as legal; later ones are judged on it
        ([("A", 0, "7H"), ("B", 0, "8C"), ("A", 0, "10D")],
         [("A", 0, "7H", None, True), ("B", 0, "8C", "7H", True), ("A", 0, "10D", "8C", False)]),
        ([("B", 1, "KS"), ("A", 0, "2D"), ("A", 1, "AH")],
         [("B", 1, "KS", None, True), ("A", 0, "2D", None, True), ("A", 1, "AH", "KS", True)]),
    ],
)
def test_plays_before_any_layout_are_ruled_from_a_round_taken_up_blind(landings, expected):
    engine = RulesEngine(CAMERA)
    events = []
    for t, (player, pile, card) in enumerate(landings, start=1):
        events += engine.observe(CardLanded(float(t), player, pile, card))
    assert plays(events) == expected
    assert of_type(events, "round_start")[0]["mid_round"] is True
    assert "no layout was seen" in notices(events)
    assert engine.state.phase is GamePhase.PLAYING
    # counts from the deal of 26 cards, less one per card played from a face-down stock
    assert sum(engine.state.players[p].stock_count for p in "AB") == 30 - len(landings)
    with pytest.raises(ObservationError, match="no layout has been seen"):
        RulesEngine().observe(CardLanded(1.0, *landings[0]))


def test_a_stock_turned_up_after_a_blind_start_is_adopted_and_played_from():
    engine = RulesEngine(CAMERA)
    engine.observe(CardLanded(1.0, "A", 0, "7H"))
    slot = next(i for i, s in enumerate(engine.state.players["B"].stocks) if s.count > 0)
    assert engine.observe(StockTurnedUp(1.5, "B", slot, "8S")) == []
    [event] = engine.observe(CardLanded(2.0, None, 0, "8S"))
    assert (event["player"], event["legal"], str(event["on"])) == ("B", True, "7H")


# ---- a card that fits no known stock top ---------------------------------------------------------------


@pytest.mark.parametrize(
    "a_row, landing, expected_play, slot_counts, note",
    [
        # suit misread: the same rank shows on A's stock 1 -> taken from there
        ("2H 5S 9D JC KH", CardLanded(1.0, "A", 0, "5C"), ("A", 0, "5C", "4C", True), (1, 0, 1, 1, 1), "read as 5S"),
        # nothing fits and no face-down top: ruled, counts unchanged
        ("2H 6S 9D JC KH", CardLanded(1.0, "A", 0, "3D"), ("A", 0, "3D", "4C", True), (1, 1, 1, 1, 1), "counts unchanged"),
        # an illegal misfit is still called
        ("2H 6S 9D JC KH", CardLanded(1.0, "A", 1, "3D"), ("A", 1, "3D", "8H", False), (1, 1, 1, 1, 1), "not a face-up"),
        # a face-down top is the best guess at where it came from
        ("2H 6S # JC KH", CardLanded(1.0, "A", 1, "7D", stock=4), ("A", 1, "7D", "8H", True), (1, 1, 2, 1, 0), "from stock A4 (read as KH)"),
        # no hand seen: the player showing that rank
        ("2H 6S 9D JC KH", CardLanded(1.0, None, 1, "QD"), ("B", 1, "QD", "8H", False), None, "B's play"),
    ],
)
def test_a_card_that_is_no_known_stock_top_is_still_ruled_with_a_notice(a_row, landing, expected_play, slot_counts, note):
    engine = table(a=a_row, config=CAMERA)
    events = engine.observe(landing)
    assert plays(events) == [expected_play]
    assert note in notices(events)
    if slot_counts is not None:
        assert tuple(s.count for s in engine.state.players["A"].stocks) == slot_counts
    with pytest.raises(ObservationError, match="not a face-up stock top|already on the table"):
        table(a=a_row).observe(landing)


# ---- a card name seen twice ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "second",
    [
        CardLanded(2.0, "B", 0, "8C", stock=0),   # from B's face-down stock
        StockTurnedUp(2.0, "B", 0, "8C"),        # turned up on B's stock
        SpitTurned(2.0, "B", 1, "8C"),           # the same name from a spit
    ],
    ids=["landing", "turn_up", "spit"],
)
def test_a_card_name_already_seen_this_round_is_ruled_anyway_with_a_notice(second):
    engine = table(a="2H 8C 9D JC KH", b="# 3C 10S QS AH", piles="7C 8H", config=CAMERA)
    first = engine.observe(CardLanded(1.0, "A", 0, "8C"))
    events = engine.observe(second)
    assert plays(first) == [("A", 0, "8C", "7C", True)]
    assert "8C was already seen on the table this round; one of the two readings is wrong" in notices(events)
    if isinstance(second, CardLanded):
        assert plays(events) == [("B", 0, "8C", "8C", False)]
    if isinstance(second, SpitTurned):
        assert [str(e["card"]) for e in of_type(events, "spit")] == ["8C"]
    strict = table(a="2H 8C 9D JC KH", b="# 3C 10S QS AH", piles="7C 8H")
    strict.observe(CardLanded(1.0, "A", 0, "8C"))
    with pytest.raises(ObservationError, match="8C is already on the table this round"):
        strict.observe(second)


# ---- layouts that are read wrong -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, note",
    [
        (lambda: layout(a="2H 5S 9D JC KH", b="2H 6D 10S QS AH"), "2H shown in two places"),
        (lambda: layout(piles="5S 8H"), "5S shown in two places"),
        (lambda: RoundLaidOut(0.0, {"A": ["2H", "5S", "9D", "JC", "KH"], "B": ["2H", "6D", "10S", "QS", "AH"]}),
         "2H shown in two places"),
    ],
)
def test_a_layout_showing_a_card_twice_is_taken_as_seen_with_a_notice(make, note):
    engine = RulesEngine(CAMERA)
    events = engine.observe(make())
    assert "round_start" in kinds(events) and note in notices(events)
    with pytest.raises(ObservationError, match="shown in two places"):
        RulesEngine().observe(make())


def test_a_new_round_with_a_card_on_a_slot_its_count_leaves_empty_counts_it_with_a_notice():
    def laid_out():
        return RoundLaidOut(0.0, {"A": ["2H", "5S", "9D", "JC", "KH"], "B": ["3C", "6D", "10S", "QS", "AH"]},
                            stock_counts={"A": [1, 2, 3, 4, 0], "B": [1, 2, 3, 4, 5]}, spit_counts={"A": 11, "B": 11})
    engine = RulesEngine(CAMERA)
    events = engine.observe(laid_out())
    assert "stock A4 shows KH where the deal leaves it empty; counted 1 card" in notices(events)
    assert engine.state.players["A"].stocks[4].count == 1
    with pytest.raises(ObservationError, match="leave it empty"):
        RulesEngine().observe(laid_out())


# ---- a card laid before the layout was seen -------------------------------------------------------------


@pytest.mark.parametrize("player, card, expected", [
    ("A", "5D", ("A", 0, "5D", "4C", True)),   # no stock top: no notice, no stock guessed at
    ("A", "5S", ("A", 0, "5S", "4C", True)),   # like A's stock top 5S (a misreading): that 5S stays on the stock
    ("B", "KC", ("B", 0, "KC", "4C", False)),
    (None, "3S", ("B", 0, "3S", "4C", True)),  # no hand seen: the player showing a card of its rank (3C)
])
def test_a_card_laid_before_the_layout_was_seen_is_ruled_on_the_top_and_changes_no_stock(player, card, expected):
    engine = table(config=CAMERA)
    stocks_before = {p: [(stock.top, stock.count) for stock in engine.state.players[p].stocks] for p in "AB"}
    events = engine.observe(CardLanded(0.5, player, 0, card, left_before_layout=True))
    assert plays(events) == [expected] and not of_type(events, "notice")
    assert {p: [(stock.top, stock.count) for stock in engine.state.players[p].stocks] for p in "AB"} == stocks_before
    assert engine.state.pile_tops[0] == Card.parse(card)


def test_spits_of_a_stall_called_before_the_layout_was_seen_rule_no_stall():
    # nothing fits 4C or 8H, but a card may yet be moved into an empty slot: no stall is ruled yet
    base = layout(a="JH QC 2D - -", b="6D 10S QS - -")
    engine = RulesEngine(CAMERA)
    events = engine.observe(LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, ["4C", "8H"],
                                       counts_at_least=True))
    assert kinds(events) == ["round_start"]
    # each is taken as it comes: the other player's spit may have come before the clip began, or unseen
    for t, player, pile, card in ((0.4, "A", 0, "5D"), (0.42, "B", 1, "3C")):
        events = engine.observe(SpitTurned(t, player, pile, card, stalled_before_layout=True))
        assert kinds(events) == ["spit"] and engine.state.phase is GamePhase.PLAYING


@pytest.mark.parametrize("doubt", [None, StockInDoubt(0.0, "A", 1, "5S", could_be=frozenset({"6"}))], ids=["sure", "in_doubt"])
def test_a_table_first_seen_stalled_stalled_before_the_video_began_the_stall_is_not_called(doubt):
    """A clip that opens while the players wait to re-spit (`all_at_once` seed 232's clip from 7.72 s: the
    stall came 3.8 s before it): every stock full, nothing fits 7C or 7D. The spits are due; no stall is
    called, neither now nor when they come. A stock top read in doubt (a 6 would fit) is taken as read: a
    first view has no lull to wait through."""
    base = layout(a="2H 5S 9D JC KH", b="3C 4D 10S QS AH")
    engine = RulesEngine(CAMERA)
    if doubt is not None:
        assert engine.observe(doubt) == []
    events = engine.observe(LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, ["7C", "7D"],
                                       counts_at_least=True))
    assert [kind for kind in kinds(events) if kind != "notice"] == ["round_start"] and engine.state.phase is GamePhase.STALLED
    assert any("stalled as first seen" in event["message"] for event in of_type(events, "notice"))
    assert kinds(engine.observe(SpitTurned(0.4, "A", 0, "8S"))) == ["spit"]
    assert kinds(engine.observe(SpitTurned(0.42, "B", 1, "5H"))) == ["spit"]  # 9D fits the 8S
    assert engine.state.phase is GamePhase.PLAYING
    # the strict engine, given the same position, calls the stall it shows
    strict = RulesEngine(RulesConfig())
    assert kinds(strict.observe(LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, ["7C", "7D"]))) == [
        "round_start", "stall"]


def test_a_table_first_seen_with_a_players_stocks_all_bare_is_a_round_over_and_its_slaps_are_ruled():
    """A clip that opens just after A laid its last stock card (`touch_order` seed 123, cut 0.8 s before the
    slaps): A's five slots bare, cards on both spit piles. The round was over before the layout was seen; the
    hands that come down on the piles are its slaps, and settle it."""
    base = layout(a="- - - - -", b="- QH - - 4H")
    engine = RulesEngine(CAMERA)
    events = engine.observe(LayoutSeen(0.43, base.stock_tops, base.stock_counts, {"A": 3, "B": 3}, ["5D", "KC"],
                                       counts_at_least=True, stocks_out="A"))
    assert [kind for kind in kinds(events) if kind != "notice"] == ["round_start", "round_over"]
    assert of_type(events, "round_over")[0]["reason"] == "stock_out" and of_type(events, "round_over")[0]["player"] == "A"
    assert "A had no stock cards left as the table was first seen" in notices(events)
    events = engine.observe(Slap(0.77, "B", 1)) + engine.observe(Slap(0.83, "A", 1))
    assert of_type(events, "round_end")[0]["takes"] == {"B": 1, "A": 0}
    # A's stocks bare, but A's last stock card seen laid in the clip before the layout was read (not said
    # stocks_out): play goes on as first seen, and that card, ruled, ends the round
    engine = RulesEngine(CAMERA)
    events = engine.observe(LayoutSeen(0.43, base.stock_tops, base.stock_counts, {"A": 3, "B": 3}, ["5D", "KC"],
                                       counts_at_least=True))
    assert [kind for kind in kinds(events) if kind != "notice"] == ["round_start"]
    with pytest.raises(ObservationError, match="stocks_out must be a player whose stock counts are all 0"):
        LayoutSeen(0.43, base.stock_tops, base.stock_counts, {"A": 3, "B": 3}, ["5D", "KC"], stocks_out="B")


# ---- a spit pile whose top is unknown -------------------------------------------------------------------


def _unknown_top(unknown=(0,), pile_tops=(None, "8H"), config=CAMERA):
    base = layout()
    seen = LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, list(pile_tops), unknown_piles=unknown)
    return RulesEngine(config), seen


@pytest.mark.parametrize("config", [CAMERA, RulesConfig()], ids=["camera", "strict"])
@pytest.mark.parametrize(
    "unknown, pile_tops, landings, expected",
    [
        ((0,), (None, "8H"), [("A", 0, "KH"), ("B", 0, "AH"), ("A", 0, "9D")],
         [("A", 0, "KH", None, True), ("B", 0, "AH", "KH", True), ("A", 0, "9D", "AH", False)]),
        ((0, 1), (None, None), [("B", 1, "3C"), ("A", 1, "2H")],
         [("B", 1, "3C", None, True), ("A", 1, "2H", "3C", True)]),
        ((1,), ("4C", None), [("A", 0, "5S"), ("B", 1, "QS")], [("A", 0, "5S", "4C", True), ("B", 1, "QS", None, True)]),
    ],
)
def test_a_layout_with_an_unknown_pile_top_takes_the_first_card_there_as_its_legal_top(config, unknown, pile_tops, landings, expected):
    engine, seen = _unknown_top(unknown, pile_tops, config)
    events = engine.observe(seen)
    assert engine.state.spit_piles_in_use == 2
    assert "could not be read" in notices(events)
    for t, (player, pile, card) in enumerate(landings, start=1):
        events += engine.observe(CardLanded(float(t), player, pile, card))
    assert plays(events) == expected
    assert "was not known" in notices(events)


def test_no_stall_is_ruled_while_a_pile_top_is_unknown():
    # no stock top fits 8H, but pile 0 could take anything; once QH lies there nothing fits
    base = layout(a="QH 5S 5D 5C 4H", b="3C 5H 2S 4S 4D")
    seen = LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, [None, "8H"], unknown_piles=[0])
    engine = RulesEngine(CAMERA)
    assert "stall" not in kinds(engine.observe(seen))
    events = engine.observe(CardLanded(1.0, "A", 0, "QH"))
    assert kinds(events)[-1] == "stall"  # now every top is known and nothing fits


@pytest.mark.parametrize(
    "unknown, pile_tops, message",
    [
        ((0,), ("4C", None), "listed in unknown_piles but shows 4C"),
        ((), (None, "8H"), "list it in unknown_piles"),
        ((2,), ("4C", None), "unknown_piles must list"),
        ("0", ("4C", None), "unknown_piles must list"),
    ],
)
def test_unknown_piles_are_checked(unknown, pile_tops, message):
    base = layout()
    with pytest.raises(ObservationError, match=message):
        LayoutSeen(0.0, base.stock_tops, base.stock_counts, base.spit_counts, list(pile_tops), unknown_piles=unknown)


# ---- the switch ----------------------------------------------------------------------------------------


def test_camera_tolerance_is_off_by_default_and_for_camera_turns_on_every_camera_switch():
    assert RulesConfig().camera_tolerant is False
    camera = RulesConfig(touch_too_close_ms=17.0).for_camera()
    assert (camera.camera_tolerant, camera.resync_misread_cards, camera.on_impossible) == (True, True, "notice")
    assert camera.touch_too_close_ms == 17.0
    with pytest.raises(Exception, match="camera_tolerant must be true or false"):
        RulesConfig(camera_tolerant="yes")


def test_a_new_layout_in_the_middle_of_a_round_starts_the_next_round_with_counts_as_best_known():
    def laid_out():
        return RoundLaidOut(5.0, {"A": ["2H", "5S", "9D", "JC", "KH"], "B": ["3C", "6D", "10S", "QS", "AH"]})
    engine = table(a="2H 5S 9D JC KH", b="3C 6D 10S QS AH", piles="4C 8H", config=CAMERA)
    engine.observe(CardLanded(1.0, "A", 0, "5S"))
    events = engine.observe(laid_out())
    assert "the end of round 1 was not seen" in notices(events)
    assert of_type(events, "round_start")[0]["round"] == 2 and engine.state.phase is GamePhase.LAID_OUT
    # A kept 4 stock + 10 spit cards and is given pile 0 (2 cards); B kept 5 + 10 and pile 1 (1 card)
    assert {p: engine.state.players[p].cards for p in "AB"} == {"A": 16, "B": 16}
    strict = table(a="2H 5S 9D JC KH", b="3C 6D 10S QS AH", piles="4C 8H")
    strict.observe(CardLanded(1.0, "A", 0, "5S"))
    with pytest.raises(ObservationError, match="still being played"):
        strict.observe(laid_out())


def test_a_spit_seen_from_a_player_counted_out_of_spit_cards_is_ruled_with_a_notice():
    stalled = dict(a="2H 5S 5D 5C 4H", b="3C 5H 2S 4S 4D", piles="QH 8H")
    engine = table(**stalled, spit=(0, 3), config=CAMERA)
    events = engine.observe(SpitTurned(1.0, "A", 0, "7S"))
    assert [str(e["card"]) for e in of_type(events, "spit")] == ["7S"]
    assert "A had no spit cards left by the engine's count" in notices(events)
    assert engine.state.players["A"].spit_count == 0
    with pytest.raises(ObservationError, match="no spit cards left"):
        table(**stalled, spit=(0, 3)).observe(SpitTurned(1.0, "A", 0, "7S"))


# ---- stock slots as the camera sees them ------------------------------------------------------------------


def test_a_slot_counted_with_a_face_down_card_and_seen_bare_is_emptied_with_a_notice():
    engine = table(config=CAMERA, a_counts=[1, 2, 1, 1, 1])
    engine.observe(CardLanded(1.0, "A", 0, "5S", stock=1))  # 5S on 4C; a card is counted under it
    assert engine.state.players["A"].stocks[1].count == 1
    events = engine.observe(StockSeenEmpty(1.5, "A", 1))
    assert "stock A1 was counted 1 card; it is seen empty" in notices(events)
    assert engine.state.players["A"].stocks[1].count == 0


@pytest.mark.parametrize("a_counts, slot, counted, note", [
    ([1, 1, 1, 1, 0], 4, 1, "stock A4 was counted empty; a face-down card lies there"),
    ([1, 1, 1, 1, 1], 1, 2, ""),   # under the 5S, which is leaving: counted when the 5S lands
    ([1, 3, 1, 1, 1], 1, 3, ""),
])
def test_a_face_down_card_seen_on_a_stock_is_counted(a_counts, slot, counted, note):
    engine = table(a="2H 5S 9D JC " + ("KH" if a_counts[4] else "-"), config=CAMERA, a_counts=a_counts)
    events = engine.observe(StockSeenFaceDown(0.5, "A", slot))
    assert notices(events) == note
    assert engine.state.players["A"].stocks[slot].count == counted


# ---- a stall seen only in hindsight --------------------------------------------------------------------


@pytest.mark.parametrize("since, last_seen, stall_at", [
    (None, 1.0, 3.0),   # no time given: the stall is ruled when the spit is seen
    (2.2, 1.0, 2.2),    # the table last changed at 2.2 s: the stall came then
    (0.5, 1.0, 1.0),    # never before what the engine last ruled
])
def test_a_spit_in_open_play_dates_the_stall_it_implies_when_the_table_last_changed(since, last_seen, stall_at):
    engine = table(config=CAMERA)  # the 8H on pile 1 takes A's 9D: play is open
    engine.observe(StockSeenFaceDown(last_seen, "B", 0))
    events = engine.observe(SpitTurned(3.0, "A", 0, "7S", stalled_since=since))
    assert kinds(events) == (["stall", "notice", "spit"] if stall_at < 3.0 else ["notice", "stall", "spit"])
    assert of_type(events, "stall")[0].t == stall_at
    assert [e.t for e in events] == sorted(e.t for e in events)
    assert engine.state.phase is GamePhase.STALLED


def test_a_spit_in_open_play_with_nothing_changed_since_the_table_was_first_seen_calls_no_stall():
    """A clip that opens as the players wait to re-spit, a stock top misread as one that could be played (racing
    seed 125's clip from 30.14 s): the spit says the table was stalled when it last changed, which was before
    the video's first view of it; the stall came before the video began and is not called."""
    engine = table(config=CAMERA)  # the 8H on pile 1 takes A's 9D: play is open, as far as the engine knows
    events = engine.observe(SpitTurned(0.6, "A", 0, "7S", stalled_since=0.0))
    assert kinds(events) == ["notice", "spit"] and "the stall came before the video began" in notices(events)
    assert engine.state.phase is GamePhase.STALLED and engine.state.spits_due == frozenset({"B"})
    assert kinds(engine.observe(SpitTurned(0.65, "B", 1, "5H"))) == ["spit"]


@pytest.mark.parametrize("make", [lambda: SpitTurned(3.0, "A", 0, "7S", stalled_since=3.5),
                                  lambda: StocksSettled(3.0, stalled_since=3.5),
                                  lambda: StocksSettled(3.0, stalled_since=float("nan")),
                                  lambda: StockTurnedUp(3.0, "A", 1, "7D", stalled_since=3.5)])
def test_a_stall_dated_after_what_shows_it_is_refused(make):
    with pytest.raises(ObservationError, match="stalled_since"):
        make()


@pytest.mark.parametrize("since, stall_at", [(None, 2.0), (1.6, 1.6)])
def test_a_stall_left_by_a_card_turned_up_is_dated_when_it_was_turned(since, stall_at):
    # nothing on the stocks goes on a 7; A's last face-down top is turned up a king: play has stopped
    engine = table(a="2H 5S 9D JC #", b="3C 4D 10S QS AH", piles="7C 7D")
    assert not kinds(engine.events[1:])  # waiting for A's face-down card
    events = engine.observe(StockTurnedUp(2.0, "A", 4, "KH", stalled_since=since))
    assert kinds(events) == ["stall"] and events[0].t == stall_at



# ---- stock tops read in doubt --------------------------------------------------------------------------


def _turned_up_in_doubt(could_be, config=CAMERA, doubted="KH"):
    """Nothing on the stocks goes on a 7; A's last face-down top is turned up and read KH, in doubt (`doubted`:
    the card the doubt is about) as to the ranks `could_be`. The engine and what the turning up ruled."""
    engine = table(a="2H 5S 9D JC #", b="3C 4D 10S QS AH", piles="7C 7D", config=config)
    assert engine.observe(StockInDoubt(1.9, "A", 4, doubted, could_be=frozenset(could_be))) == []
    return engine, engine.observe(StockTurnedUp(2.0, "A", 4, "KH", stalled_since=1.6))


def test_a_stock_top_read_in_doubt_that_may_be_a_card_that_plays_holds_the_stall_back_until_a_long_lull():
    engine, events = _turned_up_in_doubt({"8", "Q"})  # an 8 would go on a 7
    assert kinds(events) == [] and engine.state.phase is GamePhase.PLAYING
    assert kinds(engine.observe(StocksSettled(2.4, stalled_since=2.0))) == []  # a short lull: still held back
    events = engine.observe(StocksSettled(2.8, stalled_since=2.0, doubts_taken=True))
    assert kinds(events) == ["stall", "notice"] and of_type(events, "stall")[0].t == 2.0  # dated when play stopped
    assert "stock top read in doubt (A4 KH, maybe 8) taken as read" in notices(events)
    assert engine.state.phase is GamePhase.STALLED


def test_a_spit_rules_the_stall_a_doubt_held_back():
    engine, _ = _turned_up_in_doubt({"8"})
    events = engine.observe(SpitTurned(2.9, "A", 0, "7S", stalled_since=2.0))
    assert kinds(events) == ["stall", "notice", "spit"] and of_type(events, "stall")[0].t == 2.0


@pytest.mark.parametrize("could_be, doubted", [({"Q", "J"}, "KH"), ({"8"}, "KS")], ids=["no_rank_plays", "another_card"])
def test_a_doubt_of_no_rank_that_plays_or_about_another_card_holds_nothing_back(could_be, doubted):
    _, events = _turned_up_in_doubt(could_be, doubted=doubted)
    assert kinds(events) == ["stall"] and events[0].t == 1.6


def test_a_doubt_cleared_holds_nothing_back_and_a_strict_engine_takes_no_doubts():
    engine, _ = _turned_up_in_doubt({"8"})
    assert engine.observe(StockInDoubt(2.0, "A", 4, "KH")) == []  # read again surely
    assert kinds(engine.observe(StocksSettled(2.4, stalled_since=2.0))) == ["stall"]
    _, events = _turned_up_in_doubt({"8"}, config=RulesConfig())
    assert kinds(events) == ["stall"]


@pytest.mark.parametrize("could_be", ["8", {"8", "X"}, None])
def test_what_a_stock_top_in_doubt_could_be_is_checked(could_be):
    with pytest.raises(ObservationError, match="could_be must be a set of ranks"):
        StockInDoubt(1.0, "A", 4, "KH", could_be=could_be)


def test_a_card_lifted_from_under_the_next_one_is_a_take_back_for_the_camera_and_impossible_otherwise():
    # A's 5S lands on 4C (legal), B's 6D on it at once; the camera sees A's 5S lifted only after the 6D lay
    # on it (the 6D landed as it left): the 5S goes back to A's stock from under the 6D
    observations = [CardLanded(1.0, "A", 0, "5S"), CardLanded(1.05, "B", 0, "6D"), CardTakenBack(1.4, "A", 0, "5S", to_stock=1)]
    camera = table(config=RulesConfig().for_camera(), a_counts=(1, 2, 1, 1, 1))
    events = [event for observation in observations for event in camera.observe(observation)]
    assert [(e.type.value, e.get("player"), e.get("kind")) for e in events][-1] == ("violation", "A", "take_back")
    assert camera.state.pile_tops[0] == Card.parse("6D") and camera.state.players["A"].stocks[1].top == Card.parse("5S")
    strict = table(a_counts=(1, 2, 1, 1, 1))
    for observation in observations[:2]:
        strict.observe(observation)
    with pytest.raises(ObservationError, match="not the top of spit pile 0"):
        strict.observe(observations[2])


@pytest.mark.parametrize("gap_s, after_the_end", [
    (0.002, False),   # 2 ms after B's last stock card, each time good to 10 ms: it may have touched first
    (0.2, True),      # 200 ms after: played once the round was over
])
def test_a_card_landing_as_the_last_stock_card_ends_the_round_is_a_play_unless_surely_after(gap_s, after_the_end):
    # B lays its last stock card, the AH, on the KD of pile 1 and the round is over; A lays its 5S on pile 0 at about the same moment
    observations = [CardLanded(1.0, "B", 1, "AH", error=0.01), CardLanded(1.0 + gap_s, "A", 0, "5S", error=0.01)]
    camera = table(b="- - - - AH", piles="4C KD", config=RulesConfig().for_camera())
    events = [event for observation in observations for event in camera.observe(observation)]
    assert kinds(events).count("round_over") == 1
    assert [(e["player"], e["kind"]) for e in of_type(events, "violation")] == ([("A", "play_after_round_end")] if after_the_end else [])
    assert plays(events)[-1] == ("A", 0, "5S", "4C", not after_the_end)
    assert camera.state.pile_tops[0] == Card.parse("4C" if after_the_end else "5S")
    strict = table(b="- - - - AH", piles="4C KD")
    strict_events = [event for observation in observations for event in strict.observe(observation)]
    assert [e["kind"] for e in of_type(strict_events, "violation")] == ["play_after_round_end"]


def test_a_card_of_unknown_origin_lifted_back_leaves_the_pile_for_a_stock_seen_later_for_the_camera():
    # a clip opens as B lays AS on the QC (its stock never seen): lifted back, it leaves the pile; which stock
    # it went to shows when that stock settles (`all_at_once` seed 171's clip: the take-back was refused, the
    # AS stayed on the pile, and the stall after it was called a second late)
    observations = [CardLanded(1.0, "B", 0, "AS"), CardTakenBack(1.4, None, 0, "AS")]
    camera = table(b="3C 6D 10S QS -", piles="QC 8H", config=RulesConfig().for_camera())
    events = [event for observation in observations for event in camera.observe(observation)]
    assert [(e.type.value, e.get("player"), e.get("kind")) for e in events if e.type.value != "notice"] == [
        ("play", "B", None), ("violation", "B", "take_back")]
    assert camera.state.pile_tops[0] == Card.parse("QC") and Card.parse("AS") not in camera.state.seen
    assert [stock.top for stock in camera.state.players["B"].stocks][:4] == [Card.parse(c) for c in ("3C", "6D", "10S", "QS")]
    strict = table(b="3C 6D 10S QS -", piles="QC 8H")
    with pytest.raises(ObservationError):
        for observation in observations:
            strict.observe(observation)


def test_a_layout_s_top_lifted_back_leaves_the_card_seen_under_it_on_top_for_the_camera():
    # a clip's layout showed the 6S on pile 1, just laid by A, who lifted it back: the 8H shows under it
    observation = CardTakenBack(1.4, "A", 1, "6S", to_stock=0, revealed="8H")
    camera = table(a="6S - - - -", piles="4C 6S", config=RulesConfig().for_camera())
    count = camera.state.players["A"].stocks[0].count
    events = camera.observe(observation)
    assert [(e.type.value, e.get("player"), e.get("kind")) for e in events if e.type.value != "notice"] == [
        ("violation", "A", "take_back")]
    assert camera.state.pile_tops[1] == Card.parse("8H")
    assert camera.state.players["A"].stocks[0].top == Card.parse("6S") and camera.state.players["A"].stocks[0].count == count
    events = camera.observe(CardLanded(2.0, "B", 1, "9D"))
    assert plays(events) == [("B", 1, "9D", "8H", True)]
