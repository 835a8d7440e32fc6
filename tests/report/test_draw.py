from referee.report.draw import _from_the_moment
from referee.rules.events import Event, EventType


def test_a_frame_says_how_far_it_lies_from_the_touch_or_the_moment():
    laid = Event(EventType.PLAY, 9.376, 563, {"player": "A", "pile": 1, "card": "KC", "on": "QD", "legal": True})
    assert _from_the_moment(9.3667, laid) == "9 ms before the touch"
    assert _from_the_moment(9.3833, laid) == "7 ms after the touch"
    assert _from_the_moment(9.3762, laid) == "at the touch"
    taken_back = Event(EventType.VIOLATION, 3.0917, 221, {"player": "B", "kind": "take_back"})
    assert _from_the_moment(3.1, taken_back) == "8 ms after the moment"
