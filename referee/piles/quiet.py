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
#: Seconds of the same spell after which stock counts known only as a least (a clip begun mid-round shows
#: the tops, not what lies under them) are taken as they stand: a player with an empty slot and a card to
#: move into it may think a second before moving it (session 37: a steep game's clip opened 4 s in called
#: a stall 0.4 s into a lull that ended 1.4 s in, with the player moving a card into the empty slot).
UNCOUNTED_SECONDS = 2.0


class QuietTable:
    def __init__(self) -> None:
        self.since: float | None = None   # when the table last went quiet
        self._told: set[str] = set()   # which of the spell's moments have been told
        self._unresolved: float | None = None  # a spell told quiet that ended before `uncounted`: when it began

    def step(self, t: float, *, busy: bool) -> bool:
        """True once per quiet spell, QUIET_SECONDS after it began (`since`); any business ends the spell."""
        if busy:
            if self.since is not None and "quiet" in self._told and "uncounted" not in self._told:
                self._unresolved = self.since
            self.since, self._told = None, set()
            return False
        if self.since is None:
            self.since, self._unresolved = t, None
        return self._tell("quiet", t, QUIET_SECONDS)

    def unturned(self, t: float) -> bool:
        """True once per quiet spell, UNTURNED_SECONDS after it began (call after `step`)."""
        return "quiet" in self._told and self._tell("unturned", t, UNTURNED_SECONDS)

    def uncounted(self, t: float) -> bool:
        """True once per quiet spell, UNCOUNTED_SECONDS after it began (call after `step`)."""
        return "quiet" in self._told and self._tell("uncounted", t, UNCOUNTED_SECONDS)

    def cut_short(self) -> float | None:
        """When the quiet spell that is, or the last one (since the table went busy again), began, if it was
        told quiet but not `uncounted`: once, for a lull that ended with no stock card moved (the recording
        ends in it, or the hands went from it to their spit cards). Stock counts known only as a least are
        then taken as they stand. None otherwise."""
        if self.since is not None and "quiet" in self._told and "uncounted" not in self._told:
            self._told.add("uncounted")
            return self.since
        since, self._unresolved = self._unresolved, None
        return since

    def _tell(self, moment: str, t: float, after: float) -> bool:
        if self.since is None or moment in self._told or t - self.since < after:
            return False
        self._told.add(moment)
        return True
