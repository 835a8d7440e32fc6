"""How the simulated players behave: timing distributions, error rates, the win rule, the game's length cap.

Times are seconds. A range `(low, high)` is drawn uniformly; reaction times are log-normal (most
are quick, a few are slow) and clipped to their range, as measured human reaction times are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.errors import ConfigError
from referee.rules.config import RulesConfig

Range = tuple[float, float]


@dataclass(frozen=True, kw_only=True)
class SimConfig:
    #: "standard" or "scoring" (RULES.md 'Winning'); `target_points` for the scoring variant.
    win_rule: Literal["standard", "scoring"] = "standard"
    target_points: int = 100
    #: The game stops at the first round end after this many seconds (then the referee decides it on the
    #: cards held: a GameStopped observation). Real standard games can go on for a long time.
    max_seconds: float = 600.0

    # ---- one hand's movement (a play takes about 0.35-0.9 s from rest to rest) ----
    #: median and clip range of the pause before a hand moves (log-normal)
    think_median_s: float = 0.15
    think_range_s: Range = (0.04, 0.6)
    #: from rest to the card, from the card to its target, holding it there, back to rest
    reach_s: Range = (0.08, 0.18)
    travel_s: Range = (0.15, 0.40)
    hold_s: Range = (0.02, 0.05)
    return_s: Range = (0.08, 0.18)
    #: turning a face-down stock top up in place
    flip_s: Range = (0.12, 0.25)
    #: each player's speed factor for the whole game (1 = as above; higher = slower)
    player_speed: Range = (0.85, 1.2)
    #: how long an idle player takes to notice that the table changed
    notice_s: Range = (0.12, 0.35)

    # ---- stalls, spits, slaps, rounds ----
    #: the pause before the opening spit of a round
    opening_spit_s: Range = (1.0, 2.2)
    #: noticing a stall: usually within `stall_notice_s`, with probability `slow_stall_rate` only after
    #: `slow_stall_s` (the players stare at the table before one says "spit")
    stall_notice_s: Range = (0.6, 1.8)
    slow_stall_rate: float = 0.15
    slow_stall_s: Range = (2.5, 6.0)
    #: the two spits of one "spit!" land this far apart at most
    spit_spread_s: Range = (0.0, 0.15)
    #: reaction to the end of a round before slapping
    slap_reaction_s: Range = (0.2, 0.6)
    #: chance a player slaps the smaller spit pile (else the other)
    slap_smaller_rate: float = 0.85
    #: collecting, shuffling and laying out between rounds
    round_gap_s: Range = (3.0, 6.0)

    # ---- errors ----
    #: chance that a play is a wrong card (not adjacent to the pile it is put on)
    illegal_play_rate: float = 0.02
    #: chance that a player lifts their own illegal card back off the pile (a take_back violation)
    take_back_rate: float = 0.25
    #: chance that a play is timed to land close to the other player's card on the same pile
    near_simultaneous_rate: float = 0.06
    #: of those, the share landing less than one 60 fps frame (16.7 ms) apart ...
    within_frame_share: float = 0.3
    #: ... and how far apart those land (seconds)
    close_gap_s: Range = (0.001, 0.0165)
    #: chance that a player who may time a play close to the other's (above) and can play on the pile the
    #: other hand is heading for races for that pile (0 by default; benchmarks of touch order raise it)
    race_rate: float = 0.0
    #: chance that a play is made with the other hand (a two_hands violation)
    two_hands_rate: float = 0.004
    #: chance, when a player has no empty slot, of laying a face-up stock card out as a sixth pile
    sixth_stock_rate: float = 0.002

    # ---- referee timing used for the true event log ----
    touch_window_ms: float = 300.0
    touch_too_close_ms: float = 34.0

    def __post_init__(self) -> None:
        if self.win_rule not in ("standard", "scoring"):
            raise ConfigError(f"win_rule must be 'standard' or 'scoring', got {self.win_rule!r}")
        if self.max_seconds <= 0:
            raise ConfigError(f"max_seconds must be positive, got {self.max_seconds!r}")
        for name in ("slow_stall_rate", "slap_smaller_rate", "illegal_play_rate", "take_back_rate",
                     "near_simultaneous_rate", "within_frame_share", "race_rate", "two_hands_rate", "sixth_stock_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ConfigError(f"{name} is a probability between 0 and 1, got {value!r}")
        for name in ("think_range_s", "reach_s", "travel_s", "hold_s", "return_s", "flip_s", "player_speed",
                     "notice_s", "opening_spit_s", "stall_notice_s", "slow_stall_s", "spit_spread_s",
                     "slap_reaction_s", "round_gap_s", "close_gap_s"):
            low, high = getattr(self, name)
            if not 0.0 <= low <= high:
                raise ConfigError(f"{name} must be a range (low, high) with 0 <= low <= high, got {(low, high)!r}")

    def rules_config(self) -> RulesConfig:
        """The rules the simulated game is played (and its truth written) under."""
        return RulesConfig(
            win_rule=self.win_rule,
            target_points=self.target_points,
            touch_window_ms=self.touch_window_ms,
            touch_too_close_ms=self.touch_too_close_ms,
        )
