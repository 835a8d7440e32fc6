"""Human-like timing of one hand's movements, drawn from a seeded random generator."""

from __future__ import annotations

import math
import random

from referee.sim.config import Range, SimConfig

Times = tuple[float, float, float, float, float]


class HandTiming:
    """Draws (t_start, t_grab, t_touch, t_release, t_end) for a player's movements."""

    def __init__(self, rng: random.Random, config: SimConfig, speed: float) -> None:
        self.rng = rng
        self.config = config
        self.speed = speed

    def draw(self, span: Range) -> float:
        return self.rng.uniform(*span) * self.speed

    def think(self) -> float:
        low, high = self.config.think_range_s
        value = self.rng.lognormvariate(math.log(self.config.think_median_s), 0.6)
        return min(high, max(low, value)) * self.speed

    def move(self, start: float, *, reach: Range | None = None, travel: Range | None = None) -> Times:
        """A card carried from a source to a target, starting at rest at `start`."""
        config = self.config
        t_start = start
        t_grab = t_start + self.draw(reach or config.reach_s)
        t_touch = t_grab + self.draw(travel or config.travel_s)
        t_release = t_touch + self.draw(config.hold_s)
        return t_start, t_grab, t_touch, t_release, t_release + self.draw(config.return_s)

    def move_touching_at(self, touch: float, *, earliest_start: float, hurry: bool = False) -> Times | None:
        """A card carried so that it touches at `touch`; None when the hand could not get there in time.
        `hurry`: as fast as this player reaches and carries (racing the other hand for a pile)."""
        if hurry:
            reach, travel = self.config.reach_s[0] * self.speed, self.config.travel_s[0] * self.speed
        else:
            reach, travel = self.draw(self.config.reach_s), self.draw(self.config.travel_s)
        t_start = touch - travel - reach
        if t_start < earliest_start:
            return None
        t_release = touch + self.draw(self.config.hold_s)
        return t_start, t_start + reach, touch, t_release, t_release + self.draw(self.config.return_s)

    def flip(self, start: float) -> Times:
        """A face-down stock top turned up in place."""
        t_grab = start + self.draw(self.config.reach_s)
        t_touch = t_grab + self.draw(self.config.flip_s)
        t_release = t_touch + self.draw(self.config.hold_s)
        return start, t_grab, t_touch, t_release, t_release + self.draw(self.config.return_s)

    def slap(self, start: float) -> Times:
        t_touch = start + self.draw(self.config.travel_s)
        t_release = t_touch + self.draw((0.15, 0.3))
        return start, start, t_touch, t_release, t_release + self.draw(self.config.return_s)
