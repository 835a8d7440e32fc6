"""Which hand reached a pile: the arm's line, carried back beyond the player's edge, falls on its
shoulder's side of the seat."""

import cv2
import numpy as np
import pytest

from referee.piles.arms import arm_offset

PX_PER_MM = 0.5
SHAPE = (300, 500)              # a 1000 x 600 mm table: A's edge is row 0, B's the last row
SEAT_X_MM = 500.0               # both players sit at the middle of their side
PILE = (slice(120, 180), slice(200, 300))  # a spit pile's region, view pixels (rows, cols)
PILE_MM = (500.0, 300.0)        # its middle, table mm (x, y)


def arm(player: str, shoulder_x_mm: float, hand_mm=PILE_MM, *, behind_mm: float = 430.0, width_mm: float = 80.0) -> np.ndarray:
    """A straight arm from a shoulder `behind_mm` beyond the player's edge to the hand, as a mask."""
    height_mm = SHAPE[0] / PX_PER_MM
    shoulder_y = -behind_mm if player == "A" else height_mm + behind_mm
    mask = np.zeros(SHAPE, np.uint8)
    points = [(shoulder_x_mm, shoulder_y), hand_mm]
    (x0, y0), (x1, y1) = ((round(x * PX_PER_MM * 16), round(y * PX_PER_MM * 16)) for x, y in points)
    cv2.line(mask, (x0, y0), (x1, y1), 1, max(1, round(width_mm * PX_PER_MM)), shift=4)
    return mask


@pytest.mark.parametrize("player", ["A", "B"])
@pytest.mark.parametrize("pile_x", [380.0, 500.0, 620.0])
def test_each_shoulder_gives_its_own_side_whichever_pile_the_hand_reaches(player, pile_x):
    hand = (pile_x, PILE_MM[1] if player == "A" else 300.0)
    region = (slice(130, 170), slice(int(pile_x * PX_PER_MM) - 20, int(pile_x * PX_PER_MM) + 20))
    plus = arm_offset(arm(player, SEAT_X_MM + 190, hand), player, region, SEAT_X_MM, PX_PER_MM)
    minus = arm_offset(arm(player, SEAT_X_MM - 190, hand), player, region, SEAT_X_MM, PX_PER_MM)
    assert plus is not None and minus is not None
    assert plus > 40 and minus < -40


def test_the_seat_is_where_the_player_sits_not_the_tables_middle():
    # a player sitting 150 mm off the middle, reaching with the hand on the middle's side
    mask = arm("A", SEAT_X_MM + 150 - 190)
    offset = arm_offset(mask, "A", PILE, SEAT_X_MM + 150, PX_PER_MM)
    assert offset is not None and offset < -40


def test_no_arm_in_the_region_says_nothing():
    mask = arm("A", SEAT_X_MM + 190, hand_mm=(150.0, 200.0))  # reaching for a far stock instead
    assert arm_offset(mask, "A", PILE, SEAT_X_MM, PX_PER_MM) is None
    assert arm_offset(np.zeros(SHAPE, np.uint8), "A", PILE, SEAT_X_MM, PX_PER_MM) is None


def test_a_hand_whose_arm_is_not_seen_at_the_edge_says_nothing():
    mask = arm("A", SEAT_X_MM + 190)
    mask[:60] = 0  # a sleeve the table's colour: the hand floats
    assert arm_offset(mask, "A", PILE, SEAT_X_MM, PX_PER_MM) is None


def test_an_arm_coming_in_over_the_other_players_edge_is_not_measured_from_it():
    # B's arm over the pile, asked as if it were A's: it does not reach A's edge
    mask = arm("B", SEAT_X_MM + 190)
    assert arm_offset(mask, "A", PILE, SEAT_X_MM, PX_PER_MM) is None
