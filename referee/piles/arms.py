"""Which of a player's two hands reached a spit pile: the line of its arm, back towards the shoulder.

A seated player's arms come in over their own edge of the table from two shoulders, one each side of
where they sit (the middle of their stock row). Near the edge an arm runs nearly straight from its
shoulder, so the line of its first ARM_DEPTH_MM, carried on ARM_BEHIND_MM beyond the edge, falls on
the side of the shoulder it comes from, whichever pile the hand reaches for: on one side of the seat
for the right hand, on the other for the left. On 24 rendered games (shoulders 190 mm each side of
the seat, 430 mm behind the edge) the point lay on its hand's side for 292 of the 293 plays whose arm was
seen (the other 2 mm from the seat), 21 of them within 40 mm of it; the 15 plays made with the other
hand lay 70-208 mm on the other side.

The rules allow one hand (RULES.md); `referee.pipeline.one_hand` learns which one each player uses
and calls a play made with the other.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.piles.hands import EDGE_ROWS

#: How far into the table (mm from the player's edge) the arm's line is measured: the upper arm or
#: forearm, well short of any pile.
ARM_DEPTH_MM = 100.0
#: How far beyond the edge (mm) the arm's line is carried, towards the shoulder: a third of the way
#: to a seated player's shoulder, where an elbow bent outwards still leaves the line on its side.
ARM_BEHIND_MM = 140.0
#: Least arm (mm^2) seen within ARM_DEPTH_MM of the edge for its line to be drawn.
ARM_MIN_AREA_MM2 = 1500.0


def arm_offset(owned: np.ndarray, player: str, region: tuple[slice, slice], seat_x_mm: float,
               px_per_mm: float) -> float | None:
    """Where the arm that reaches into `region` (view rows, cols) comes from: mm along the table's width
    (+ towards the view's +x) from the player's seat to the arm's line ARM_BEHIND_MM beyond their edge.
    `owned`: the player's hands and arms (uint8 0/1, a HandMasks.owned mask); A's edge is the view's top,
    B's its bottom. None when no arm of theirs reaches the region over their own edge."""
    count, labels = cv2.connectedComponents(owned, connectivity=8)
    if count < 2:
        return None
    inside = np.bincount(labels[region].ravel(), minlength=count)
    inside[0] = 0
    arm = int(inside.argmax())
    if inside[arm] == 0:
        return None
    depth = max(EDGE_ROWS + 2, int(round(ARM_DEPTH_MM * px_per_mm)))
    band = labels[:depth] if player == "A" else labels[::-1][:depth]  # rows counted from the player's edge
    if not (band[:EDGE_ROWS] == arm).any():
        return None  # in over a side of the table, or an arm the camera does not see
    rows, cols = np.nonzero(band == arm)
    if rows.size < ARM_MIN_AREA_MM2 * px_per_mm * px_per_mm or np.ptp(rows) < depth // 2:
        return None
    slope, at_edge = np.polyfit(rows.astype(np.float64), cols.astype(np.float64), 1)
    behind = at_edge - slope * ARM_BEHIND_MM * px_per_mm
    return float((behind + 0.5) / px_per_mm - seat_x_mm)
