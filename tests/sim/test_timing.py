"""One hand's timing: human ranges, and a hand hurrying to land a card at a given moment."""

import random

from referee.sim.config import SimConfig
from referee.sim.timing import HandTiming


def test_a_hurried_hand_gets_there_when_an_unhurried_one_could_not():
    config = SimConfig()
    timing = HandTiming(random.Random(3), config, speed=1.0)
    fastest = config.reach_s[0] + config.travel_s[0]
    start = 10.0
    touch = start + fastest + 0.005  # only just reachable, and only at full speed
    assert all(timing.move_touching_at(touch, earliest_start=start) is None for _ in range(20))
    times = timing.move_touching_at(touch, earliest_start=start, hurry=True)
    assert times is not None
    t_start, t_grab, t_touch, t_release, t_end = times
    assert t_touch == touch and start <= t_start < t_grab < t_touch < t_release < t_end
    assert timing.move_touching_at(start + 0.5 * fastest, earliest_start=start, hurry=True) is None  # faster than any hand
