"""When the table has gone quiet: no hand near a stock or spit pile, and nothing waiting to be read.

A stall in Spit is ruled when neither player can move: once the table has been quiet a moment, players
who could still move a stock card would have begun to. `QuietTable` only keeps the time; what the
tracker does when the table goes quiet (look again at face-down stocks, say so) stays with the tracker.
"""

from __future__ import annotations

#: Seconds with no hand near any stock or spit pile (and nothing waiting to be read) that make the table
#: quiet: players who could still move a stock card would have begun to.
QUIET_SECONDS = 0.4
#: Seconds of the same spell after which a stock still read face down was not turned up: turning a
#: face-down top up is always a move, made at once, so it is a face-up card the camera cannot read.
UNTURNED_SECONDS = 0.8


class QuietTable:
    def __init__(self) -> None:
        self.since: float | None = None   # when the table last went quiet
        self._told = 0   # how many of the spell's two moments have been told

    def step(self, t: float, *, busy: bool) -> bool:
        """True once per quiet spell, QUIET_SECONDS after it began (`since`); any business ends the spell."""
        if busy:
            self.since, self._told = None, 0
            return False
        if self.since is None:
            self.since = t
        if self._told or t - self.since < QUIET_SECONDS:
            return False
        self._told = 1
        return True

    def unturned(self, t: float) -> bool:
        """True once per quiet spell, UNTURNED_SECONDS after it began (call after `step`)."""
        if self.since is None or self._told != 1 or t - self.since < UNTURNED_SECONDS:
            return False
        self._told = 2
        return True
