import pytest

from referee.report.collect import RecentFrames


@pytest.mark.parametrize("fps", [30.0, 60.0, 25.0])
def test_the_same_seconds_of_footage_are_kept_at_any_frame_rate(fps):
    recent = RecentFrames(seconds=4.0)
    for index in range(int(10 * fps)):
        recent.add(index, index / fps, f"frame {index}")
    last = int(10 * fps) - 1
    # a ruling made now can still draw the frames of a touch 3.9 s back, not those of 4.1 s back
    assert recent.get(last - int(3.9 * fps)) == ((last - int(3.9 * fps)) / fps, f"frame {last - int(3.9 * fps)}")
    assert recent.get(last - int(4.1 * fps)) is None
    assert len(recent) == pytest.approx(4.0 * fps + 1, abs=1)


def test_a_gap_in_the_footage_keeps_only_what_lies_within_the_seconds():
    recent = RecentFrames(seconds=4.0)
    for index in range(30):
        recent.add(index, index / 30, index)
    recent.add(30, 10.0, 30)  # the camera was blind for 9 s
    assert len(recent) == 1 and recent.get(30) == (10.0, 30) and recent.get(29) is None


def test_a_frame_never_seen_is_not_found():
    recent = RecentFrames()
    recent.add(5, 0.2, "five")
    assert recent.get(4) is None and recent.get(6) is None


def test_the_frame_of_a_moment_is_the_first_taken_at_it_or_after():
    recent = RecentFrames(seconds=4.0)
    for index in range(60):
        recent.add(index, index / 30, index)
    assert recent.first_at(1.0) == 30  # taken at 1.0 s exactly (to the microsecond)
    assert recent.first_at(1.01) == 31  # a touch between two frames: the first frame that shows it
    assert recent.first_at(5.0) is None  # not seen yet
