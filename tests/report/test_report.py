import cv2
import pytest

from referee.report.compare import compare, side_by_side
from referee.report.page import PLAYER_BGR, ROWS, describe, timeline_image, write_report
from referee.rules.events import Event, EventType


def play(t, player, card, pile=0, legal=True, on="5H"):
    return Event(EventType.PLAY, t, int(t * 30), {"player": player, "pile": pile, "card": card, "on": on, "legal": legal})


TRUTH = [play(1.0, "A", "6S"), play(2.0, "B", "7D"), play(3.0, "A", "8C", legal=False)]


@pytest.mark.parametrize("found, recall, precision, right", [
    (TRUTH, 1.0, 1.0, 1.0),
    ([play(1.01, "A", "6S"), play(2.02, "B", "7D")], 2 / 3, 1.0, 1.0),
    ([play(1.0, "A", "6S"), play(2.0, "A", "7D"), play(3.0, "A", "8C", legal=False), play(4.0, "B", "9C")], 1.0, 0.75, 2 / 3),
    ([play(1.4, "A", "6S")], 0.0, 0.0, 1.0),
])
def test_rulings_are_scored_against_the_truth(found, recall, precision, right):
    result = compare(TRUTH, found)
    assert result.recall == pytest.approx(recall)
    assert result.precision == pytest.approx(precision)
    assert result.all_right == pytest.approx(right)


def stall(t):
    return Event(EventType.STALL, t, int(t * 30), {})


@pytest.mark.parametrize("found_at, called", [(5.3, True), (5.5, True), (5.6, False), (4.9, True)])
def test_a_stall_counts_when_called_within_half_a_second(found_at, called):
    result = compare([stall(5.0)], [stall(found_at)])
    assert (result.stall_pairs[0][1] is not None) is called
    assert len(result.false_stalls) == (0 if called else 1)


def test_side_by_side_marks_right_wrong_missed_and_extra():
    lines = side_by_side(TRUTH, [play(1.0, "A", "6S"), play(2.0, "A", "7D"), play(4.0, "B", "9C")])
    text = "\n".join(lines)
    assert "ok " in text and "XX " in text and "-- missed" in text and "++ " in text


def test_the_timeline_and_the_page_are_written(tmp_path):
    events = TRUTH + [Event(EventType.TOUCH_ORDER, 2.0, 60, {"pile": 0, "first": "A", "gap_ms": 12.5, "too_close": True,
                                                           "error_ms": 14.1})]
    image = timeline_image(events)
    assert image.shape[1] == 1200 and (image < 250).any()
    page = write_report(tmp_path / "r", events, [], video="game.mp4")
    html = page.read_text()
    assert "12.5 ms" in html and "too close to call" in html and "ILLEGAL" in html
    assert "12.5 ms (± 14.1)" in html
    assert cv2.imread(str(tmp_path / "r" / "timeline.png")) is not None


def test_describe_touch_order():
    event = Event(EventType.TOUCH_ORDER, 2.0, 60, {"pile": 1, "first": "B", "gap_ms": 40.0, "too_close": False})
    assert describe(event) == "pile 1: B touched first by 40.0 ms"


def test_describe_a_breach_in_words_with_its_kind():
    event = Event(EventType.VIOLATION, 4.95, 149, {"player": "A", "kind": "two_hands"})
    assert describe(event) == "A played with the other hand (two_hands)"
    unknown = Event(EventType.VIOLATION, 5.0, 150, {"player": "B", "kind": "something_new"})
    assert describe(unknown) == "B: something_new"


def test_an_illegal_play_on_the_timeline_is_marked_in_its_players_colour():
    image = timeline_image([play(1.0, "A", "6S"), play(9.0, "B", "8C", legal=False)])
    play_row = image[20 + ROWS.index("play") * 26: 20 + (ROWS.index("play") + 1) * 26]
    right_half = play_row[:, 700:]  # the illegal play at 9 s of 9 lies at the right end
    assert (right_half == PLAYER_BGR["B"]).all(axis=2).sum() > 10
    assert not (right_half == PLAYER_BGR["A"]).all(axis=2).any()


def test_a_contested_call_in_the_list_of_rulings_links_to_its_frames(tmp_path):
    from referee.report.collect import Call

    illegal = TRUTH[2]
    page = write_report(tmp_path / "r", TRUTH, [Call(illegal)], video="game.mp4")
    html = page.read_text()
    assert "id='call1'" in html and "<a href='#call1'>A plays 8C on 5H (pile 0): ILLEGAL</a>" in html
    assert html.count("href='#call") == 1  # the legal plays are not linked
