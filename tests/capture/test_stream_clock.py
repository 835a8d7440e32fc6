import pytest
from hypothesis import given, strategies as st

from referee.capture.stream_clock import MOST_AHEAD_SECONDS, StreamClock

PERIOD = 1 / 30


def timed(stamps, arrivals, fps=30):
    clock = StreamClock(fps)
    return [clock.time(stamp, arrival) for stamp, arrival in zip(stamps, arrivals)], clock


def test_frames_arriving_in_bursts_are_timed_by_the_camera_s_stamps():
    stamps = [index * PERIOD for index in range(20)]
    arrivals = [1.0 + (index // 5) * 5 * PERIOD + 0.001 * (index % 5) for index in range(20)]  # five at once
    times, clock = timed(stamps, arrivals)
    assert times == pytest.approx(stamps)
    assert clock.taken_up_again == 0


def test_the_first_two_pictures_stamped_alike_are_a_period_apart():
    # OpenCV gives an RTSP stream's first two pictures the same time; the rest are a period apart
    stamps = [0.0, 0.0] + [index * PERIOD for index in range(1, 10)]
    times, clock = timed(stamps, [0.9 + 0.002 * index for index in range(11)])
    assert times == pytest.approx([index * PERIOD for index in range(11)])
    assert clock.taken_up_again == 1


@pytest.mark.parametrize("jump", [-5.0, 3600.0])
def test_a_camera_clock_that_jumps_is_taken_up_again_a_period_on(jump):
    stamps = [index * PERIOD for index in range(5)] + [jump + index * PERIOD for index in range(5)]
    arrivals = [index * PERIOD for index in range(10)]
    times, clock = timed(stamps, arrivals)
    assert times == pytest.approx([index * PERIOD for index in range(10)])
    assert clock.taken_up_again == 1


def test_frames_that_never_came_leave_their_gap():
    stamps = [0.0, PERIOD, 2 * PERIOD] + [2.0 + index * PERIOD for index in range(3)]
    arrivals = [0.1, 0.13, 0.17, 2.3, 2.31, 2.32]  # the network gave up on 2 s of pictures
    times, _ = timed(stamps, arrivals)
    assert times[3] - times[2] == pytest.approx(2.0 - 2 * PERIOD)


def test_a_stamp_running_further_ahead_of_arrival_than_allowed_is_a_jump():
    times, clock = timed([0.0, MOST_AHEAD_SECONDS + 0.5], [0.0, 0.1])
    assert times == pytest.approx([0.0, PERIOD]) and clock.taken_up_again == 1


def test_pictures_without_stamps_are_a_period_apart():
    times, _ = timed([None] * 4, [0.0, 0.0, 0.0, 0.5])
    assert times == pytest.approx([0.0, PERIOD, 2 * PERIOD, 3 * PERIOD])


@given(st.lists(st.tuples(st.one_of(st.none(), st.floats(-1e4, 1e4)), st.floats(0, 0.2)), min_size=1, max_size=60))
def test_frame_times_always_move_on_whatever_the_stamps(steps):
    clock, arrival, times = StreamClock(30), 0.0, []
    for stamp, waited in steps:
        arrival += waited
        times.append(clock.time(stamp, arrival))
    assert times[0] == 0.0
    assert all(later > earlier for earlier, later in zip(times, times[1:]))
