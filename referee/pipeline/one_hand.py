"""One hand per player: a play made with the other hand is a breach (RULES.md, "two hands").

Which hand laid a card is read from its arm (`referee.piles.arms`): the line of the arm, carried back
beyond the player's edge, falls on one side of their seat or the other. A player's hand is the side
most of their plays came from, once at least MIN_PLAYS plays were clear about it, counting one for the
right hand (most players'; the table frame's x runs from A's left to A's right, so A's right hand is
at +x and B's, facing A, at -x): a right-handed player's hand is known from their first clear play,
and a left-handed one's from their third, without a call before (a left-handed player is as welcome
as a right-handed one). A play clearly from the other side of a known hand is then called.
Only plays whose arm was seen, and far from the seat, count: an arm reaching straight ahead, or one
the camera lost, says nothing.
"""

from __future__ import annotations

from referee.rules.observations import TwoHandsUsed

#: An arm this far (mm) from the player's seat tells which side it came from.
SIDE_MM = 40.0
#: ... and one this far on the other side of the player's own hand is the other hand.
OTHER_HAND_MM = 50.0
#: Plays whose side was clear before a player's hand is known (the right hand's prior counted) ...
MIN_PLAYS = 2
#: ... and the share of them that must agree.
AGREEING_SHARE = 0.75


#: the side of each player's right hand along the table's x
RIGHT_HAND = {"A": 1, "B": -1}


class OneHand:
    def __init__(self) -> None:
        #: player -> sides (+1 / -1 along the table's x) of their plays that were clear about it, after
        #: one for their right hand
        self._sides: dict[str, list[int]] = {"A": [RIGHT_HAND["A"]], "B": [RIGHT_HAND["B"]]}

    def hand_of(self, player: str) -> int | None:
        """The side a player plays from (+1 or -1), once their plays agree on it; else None."""
        sides = self._sides[player]
        if len(sides) < MIN_PLAYS:
            return None
        right = sum(1 for side in sides if side > 0)
        for side, count in ((1, right), (-1, len(sides) - right)):
            if count >= AGREEING_SHARE * len(sides):
                return side
        return None

    def judge(self, t: float, player: str, arm: float | None, frame: int | None = None) -> TwoHandsUsed | None:
        """A play by `player` at `t` whose arm came from `arm` (mm from their seat; None: not seen): the
        breach when it was clearly their other hand."""
        if arm is None or abs(arm) < SIDE_MM:
            return None
        side = 1 if arm > 0 else -1
        hand = self.hand_of(player)
        self._sides[player].append(side)
        if hand is not None and side != hand and abs(arm) >= OTHER_HAND_MM:
            return TwoHandsUsed(t, player, frame=frame)
        return None
