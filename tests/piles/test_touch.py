import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.piles.touch import SHALLOW_CONTACT_PX, estimate_stop, estimate_touch, find_stop

PERIOD = 1 / 30


def approach(t_touch, speed_mm_s, fps=30, frames=8, start=0.0):
    """Signed distances of an edge moving at constant speed, touching at t_touch."""
    return [(i, start + i / fps, speed_mm_s * (t_touch - (start + i / fps))) for i in range(frames)]


@pytest.mark.parametrize("t_touch, speed", [(0.1234, 300.0), (0.1001, 150.0), (0.1332, 600.0), (0.05, 200.0)])
def test_edge_crossing_is_found_below_the_frame_period(t_touch, speed):
    samples = approach(t_touch, speed)
    contact = next(i for i, sample in enumerate(samples) if sample[2] <= 0)
    estimate = estimate_touch(samples[:contact + 1], PERIOD)
    assert abs(estimate.t - t_touch) < PERIOD / 20
    assert estimate.frame == samples[contact][0]
    assert estimate.error >= 0.15 * PERIOD


@pytest.mark.parametrize("t_touch, speed", [(0.1234, 300.0), (0.1001, 150.0), (0.1332, 600.0), (0.05, 200.0)])
def test_a_card_measured_in_pixels_barely_over_the_pile_is_timed_at_that_frame(t_touch, speed):
    # its edge found on 2 mm pixels, under SHALLOW_CONTACT_PX of them over the outline: it has not shown a
    # touch yet (on rendered games such a card touched at that frame or after it); the crossing bounds how
    # far off that may be
    samples = approach(t_touch, speed)
    contact = next(i for i, sample in enumerate(samples) if sample[2] <= 0)
    assert samples[contact][2] > -SHALLOW_CONTACT_PX * 2.0
    estimate = estimate_touch(samples[:contact + 1], PERIOD, pixel_mm=2.0)
    assert estimate.t == pytest.approx(samples[contact][1])
    assert estimate.error >= samples[contact][1] - t_touch - 1e-9


def test_a_card_barely_over_the_pile_after_a_frame_it_was_not_measured_in_is_timed_by_its_approach():
    # frame 4 lost (the hand not measured there): the crossing may lie a frame or more before frame 5
    samples = [sample for sample in approach(0.16, 300.0) if sample[0] != 4][:5]
    assert samples[-1][0] == 5 and samples[-1][2] > -SHALLOW_CONTACT_PX * 2.0
    estimate = estimate_touch(samples, PERIOD, pixel_mm=2.0)
    assert abs(estimate.t - 0.16) < PERIOD / 20


def test_a_fast_card_barely_over_the_pile_is_timed_by_its_approach():
    # 30 mm a frame (the racing games in parallax, seed 121's KD), its first contact 6 mm deep: its approach
    # places the crossing well; moved to that frame it was ordered after a card laid 35 ms after it
    samples = approach(0.16, 900.0)[:6]
    assert samples[-1][2] > -SHALLOW_CONTACT_PX * 2.0
    assert abs(estimate_touch(samples, PERIOD, pixel_mm=2.0).t - 0.16) < PERIOD / 20


@pytest.mark.parametrize("t_touch, speed", [(0.1234, 300.0), (0.1001, 150.0), (0.1332, 600.0), (0.0700, 900.0)])
def test_distances_that_run_ahead_of_the_gap_are_timed_where_the_gap_closes(t_touch, speed):
    # masks reach past the edges they outline: the gap measured is `lead` short of the true one, and closes
    # that much early; told the lead, the touch is timed where the true gap closes
    lead = 1.0
    measured = [(frame, t, distance - lead) for frame, t, distance in approach(t_touch, speed)]
    contact = next(i for i, sample in enumerate(measured) if sample[2] <= 0)
    early = estimate_touch(measured[:contact + 1], PERIOD)
    timed = estimate_touch(measured[:contact + 1], PERIOD, lead_mm=lead)
    assert early.t == pytest.approx(t_touch - lead / speed, abs=PERIOD / 20)
    assert abs(timed.t - t_touch) < PERIOD / 20


def test_a_contact_the_lead_leaves_short_of_the_outline_is_timed_at_its_frame_at_the_latest():
    # the first frame over the outline by less than the lead: the true gap had not closed there yet as measured,
    # but a contact is what the frame shows; it is timed no later than that frame
    samples = [(0, 0.0, 12.0), (1, PERIOD, 6.0), (2, 2 * PERIOD, 2.0), (3, 3 * PERIOD, -0.5)]
    estimate = estimate_touch(samples, PERIOD, lead_mm=1.0)
    assert 2 * PERIOD < estimate.t <= 3 * PERIOD
    assert estimate.frame == 3
    assert estimate_touch(samples[:-1], PERIOD, lead_mm=1.0) is None


@pytest.mark.parametrize("t_touch, speed", [(0.1200, 1200.0), (0.0700, 900.0), (0.0400, 600.0)])
def test_a_card_measured_in_pixels_well_over_the_pile_is_timed_by_its_approach(t_touch, speed):
    samples = approach(t_touch, speed)
    contact = next(i for i, sample in enumerate(samples) if sample[2] <= 0)
    assert samples[contact][2] <= -SHALLOW_CONTACT_PX * 2.0
    assert abs(estimate_touch(samples[:contact + 1], PERIOD, pixel_mm=2.0).t - t_touch) < PERIOD / 20


@pytest.mark.parametrize("t_touch", [0.108, 0.112])
def test_a_fast_card_is_timed_by_its_approach_though_its_overlap_reads_short(t_touch):
    # 2400 mm/s (cards slapped down that fast were measured on rendered games): 80 mm a frame, and
    # the overlap cannot read deeper than the pile's half width (~32 mm)
    samples = [(frame, t, max(distance, -31.5)) for frame, t, distance in approach(t_touch, 2400.0)]
    contact = next(i for i, sample in enumerate(samples) if sample[2] <= 0)
    assert abs(estimate_touch(samples[:contact + 1], PERIOD, pixel_mm=2.0).t - t_touch) < PERIOD / 20


def test_a_card_that_sped_up_at_the_last_is_timed_between_the_crossing_and_the_frame_showing_it():
    # 20 mm a frame, a pause of 3, then a dash: at its speed before, it would have arrived well after
    # frame 3, which already shows it 22 mm over the pile
    samples = [(0, 0.0, 48.0), (1, PERIOD, 28.0), (2, 2 * PERIOD, 25.0), (3, 3 * PERIOD, -22.0)]
    interpolated = 2 * PERIOD + PERIOD * 25.0 / 47.0
    estimate = estimate_touch(samples, PERIOD, pixel_mm=2.0)
    assert estimate.t == pytest.approx((interpolated + 3 * PERIOD) / 2)
    assert estimate.error == pytest.approx(3 * PERIOD - interpolated)


def test_a_frame_that_measures_the_card_farther_away_than_the_one_before_is_no_part_of_its_approach():
    # 25 mm a frame, then the card's edge lost under the fingers for a frame (measured 56 mm away), then
    # over the pile: the touch is where the approach before that frame leads, 1.13 frames after frame 3
    samples = [(0, 0.0, 104.8), (1, PERIOD, 79.4), (2, 2 * PERIOD, 54.0), (3, 3 * PERIOD, 28.6),
               (4, 4 * PERIOD, 56.0), (5, 5 * PERIOD, -20.4)]
    estimate = estimate_touch(samples, PERIOD, pixel_mm=2.0)
    assert estimate.t == pytest.approx(3 * PERIOD + PERIOD * 28.6 / 25.4)
    assert estimate.frame == 5 and estimate.error == pytest.approx(PERIOD)  # two frames from the last apart to the touch


def test_a_front_that_stalls_a_frame_short_of_the_pile_then_leaps_over_it_widens_the_error_not_the_time():
    # 21 and 41 mm a frame, then 2, then 36 into the pile: the stalled frame may have measured another part
    # of the hand (the card's edge under the other player's hand, or smeared by a video codec); seed 121's
    # KD in H.264 was timed 1.45 frames late on it and ordered after a card that touched a frame later
    samples = [(0, 0.0, 96.1), (1, PERIOD, 75.3), (2, 2 * PERIOD, 34.0), (3, 3 * PERIOD, 12.0),
               (4, 4 * PERIOD, 10.0), (5, 5 * PERIOD, -26.0)]
    seen = estimate_touch(samples, PERIOD, pixel_mm=2.0)
    without = estimate_touch(samples[:4] + samples[5:], PERIOD, pixel_mm=2.0)
    assert seen.t > 4 * PERIOD and without.t < 4 * PERIOD  # the two readings of the approach a frame apart
    assert seen.error == pytest.approx(seen.t - without.t)
    # a steady approach is timed as before, its error its own
    steady = [(0, 0.0, 96.0), (1, PERIOD, 74.0), (2, 2 * PERIOD, 52.0), (3, 3 * PERIOD, 30.0),
              (4, 4 * PERIOD, 8.0), (5, 5 * PERIOD, -14.0)]
    assert estimate_touch(steady, PERIOD, pixel_mm=2.0).error < PERIOD / 4


def test_already_touching_when_first_seen_is_half_a_frame_uncertain():
    estimate = estimate_touch([(5, 5 / 30, -3.0)], PERIOD)
    assert estimate.t == pytest.approx(5 / 30 - PERIOD / 2)
    assert estimate.error == pytest.approx(PERIOD / 2)


def test_no_contact_no_estimate():
    assert estimate_touch(approach(1.0, 100.0, frames=4), PERIOD) is None


def test_dropped_frames_around_a_touch_widen_the_error():
    samples = [(0, 0.0, 20.0), (1, 1 / 30, 10.0), (4, 4 / 30, -20.0)]
    assert estimate_touch(samples, PERIOD).error >= 1.5 * PERIOD / 2


def eased(t_touch, fps=30, frames=14, reach=150.0, slide=40.0, carry=0.4, settle=0.12):
    """Path length of a hand that eases into the pile (smoothstep) and then eases through a slide."""
    def smooth(s):
        s = min(1.0, max(0.0, s))
        return s * s * (3 - 2 * s)
    out = []
    for i in range(frames):
        t = i / fps
        if t < t_touch:
            p = reach * smooth((t - (t_touch - carry)) / carry)
        else:
            p = reach + slide * smooth((t - t_touch) / settle)
        out.append((i, t, p))
    return out


def test_the_end_of_an_eased_approach_is_timed_to_about_a_quarter_frame():
    errors = []
    for t_touch in np.arange(0.25, 0.30, 0.004):
        for carry, settle in ((0.3, 0.08), (0.45, 0.15), (0.4, 0.12), (0.35, 0.1)):
            track = eased(t_touch, carry=carry, settle=settle)
            stop = find_stop(track)
            assert stop is not None
            errors.append(abs(estimate_stop(track, stop, PERIOD).t - t_touch) / PERIOD)
    assert np.median(errors) < 0.3
    assert max(errors) < 1.2


def test_steady_motion_has_no_stop():
    track = [(i, i / 30, 10.0 * i + (0.3 if i % 2 else 0.0)) for i in range(12)]
    assert find_stop(track) is None


def test_a_hand_that_stays_still_stops_where_it_halted():
    track = [(i, i / 30, min(i, 5) * 12.0) for i in range(10)]
    stop = find_stop(track)
    assert stop is not None and track[stop][2] == 60.0


@settings(max_examples=60, deadline=None)
@given(start=st.floats(0.0, 3600.0), moved=st.floats(2.0, 40.0))
def test_a_stop_the_frames_cannot_place_is_timed_in_the_middle_of_where_it_may_be_whenever_it_happens(start, moved):
    """A hand that moved in one frame gap and was still the next stopped somewhere in the first: every
    instant there fits the two gaps exactly. It is timed in the middle of them, the same at any point of
    a game (not by which instant rounding happens to favour)."""
    track = [(0, start, 0.0), (1, start + PERIOD, moved), (2, start + 2 * PERIOD, moved)]
    stop = estimate_stop(track, 1, PERIOD)
    assert abs((stop.t - start) - PERIOD / 2) <= 0.05 * PERIOD
    later = estimate_stop([(frame, t + 1000.0, d) for frame, t, d in track], 1, PERIOD)
    assert later.t - 1000.0 == pytest.approx(stop.t, abs=1e-6)
