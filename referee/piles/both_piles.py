"""Two spit piles judged together: one that settles while a hand is still over the other waits for it.

At the spit, and whenever both players lay a card at once, the two piles settle a frame or two apart.
Judged one at a time, each pile would see both hands and could give its card to either; judged
together, each hand is given one card (see `owners.joint_owners`).
"""

from __future__ import annotations

from referee.piles.places import PlaceChange
from referee.piles.zones import Place

#: Frames a settled spit pile waits for the other one while hands are still over it.
HOLD_FRAMES = 6


class HeldPiles:
    """Settled spit piles held back for the other pile to settle, with the frames each has waited."""

    def __init__(self) -> None:
        self._held: dict[Place, tuple[PlaceChange, int]] = {}

    def __contains__(self, place: Place) -> bool:
        return place in self._held

    def __bool__(self) -> bool:
        return bool(self._held)

    def changes(self) -> list[tuple[Place, PlaceChange]]:
        """The held piles' changes."""
        return [(place, change) for place, (change, _) in self._held.items()]

    def release(self) -> list[tuple[Place, PlaceChange]]:
        """The held piles' changes, no longer held (the video has ended: there is no other pile to wait for)."""
        changes = self.changes()
        self._held = {}
        return changes

    def touches(self) -> list[tuple[int, float]]:
        """(spit pile, touch time) of the touches on held piles (not ruled yet)."""
        return [(place.index, visit.touch.t) for place, change in self.changes()
                for visit in change.visits if visit.touch is not None]

    def judge_together(self, changes: list[tuple[Place, PlaceChange]], busy: set[Place]) -> list[tuple[Place, PlaceChange]]:
        """The changes to judge this frame: held piles whose other pile has settled now, is left alone
        (`busy`: piles a hand is over or that have not settled since) or has kept them waiting
        HOLD_FRAMES, or that a hand comes back to, then this frame's changes, less the spit piles that
        must wait for the other."""
        settling = {place for place, _ in changes if place.kind == "spit_pile"}
        out: list[tuple[Place, PlaceChange]] = []
        for place, (change, waited) in list(self._held.items()):
            other = Place("spit_pile", 1 - place.index)
            # a hand coming back to the held pile itself may be about to cover its card: it is read now
            if other in settling or other not in busy or place in busy or waited >= HOLD_FRAMES:
                out.append((place, change))
                del self._held[place]
            else:
                self._held[place] = (change, waited + 1)
        for place, change in changes:
            other = Place("spit_pile", 1 - place.index) if place.kind == "spit_pile" else None
            if other is not None and change.visits and other not in settling and other in busy:
                self._held[place] = (change, 0)
                continue
            out.append((place, change))
        return out
