"""Where things sit on the table, in the table frame of INTERFACE.md (millimetres).

Player A sits along y = 0, player B along y = H; x runs along A's edge from A's left.
Spit pile 0 is the one with the smaller x. Stock piles are numbered 0-4 from the owner's own left,
so B's stock 0 has the largest x. These are *nominal* places: the synthetic table scatters cards
around them as real players do, and the referee's zones are generous bands, not exact slots.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD_WIDTH_MM = 63.0
CARD_HEIGHT_MM = 88.0
MARKER_SIDE_MM = 60.0

PLAYERS = ("A", "B")


@dataclass(frozen=True, kw_only=True)
class TableLayout:
    """Nominal layout of a game on a play area of `width` x `height` mm."""

    width: float = 800.0
    height: float = 600.0
    #: centre-to-centre distance between neighbouring stock piles
    stock_pitch: float = 82.0
    #: distance of a stock row's centre line from its owner's edge
    stock_row_inset: float = 118.0
    #: distance of each spit pile's centre from the table's centre line x = W/2
    spit_offset: float = 70.0

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"play area must be positive, got {self.width} x {self.height} mm")

    def stock_centre(self, player: str, index: int) -> tuple[float, float]:
        """Centre of a player's stock pile `index` (0-4 from the owner's own left)."""
        if player not in PLAYERS or not 0 <= index <= 4:
            raise ValueError(f"no stock pile {player}{index}")
        offset = (index - 2) * self.stock_pitch
        if player == "A":
            return self.width / 2 + offset, self.stock_row_inset
        return self.width / 2 - offset, self.height - self.stock_row_inset

    def spare_slot_centre(self, player: str) -> tuple[float, float]:
        """Where a sixth stock pile would be laid: one pitch right of the owner's stock 4."""
        offset = 3 * self.stock_pitch
        if player == "A":
            return self.width / 2 + offset, self.stock_row_inset
        return self.width / 2 - offset, self.height - self.stock_row_inset

    def spit_stack_centre(self, player: str) -> tuple[float, float]:
        """Where a player keeps their face-down spit cards: to the left of their stock row."""
        offset = -3.3 * self.stock_pitch
        if player == "A":
            return self.width / 2 + offset, self.stock_row_inset - 10
        return self.width / 2 - offset, self.height - self.stock_row_inset + 10

    def spit_pile_centre(self, pile: int) -> tuple[float, float]:
        if pile not in (0, 1):
            raise ValueError(f"no spit pile {pile}")
        sign = -1 if pile == 0 else 1
        return self.width / 2 + sign * self.spit_offset, self.height / 2

    def rest_position(self, player: str) -> tuple[float, float]:
        """Where a player's hand waits, just off their edge of the play area."""
        if player == "A":
            return self.width / 2 + 60, -120.0
        return self.width / 2 - 60, self.height + 120.0

    def side_of(self, y: float) -> str:
        """Whose half of the table a point lies in."""
        return "A" if y < self.height / 2 else "B"

    def centre_band(self) -> tuple[float, float]:
        """The y range between the two stock rows where the spit piles live."""
        half_card = CARD_HEIGHT_MM / 2
        return self.stock_row_inset + half_card + 10, self.height - self.stock_row_inset - half_card - 10

    def marker_corners(self, marker_id: int) -> list[tuple[float, float]]:
        """Table coordinates of an ArUco marker's four corners, in OpenCV's order
        (top-left, top-right, bottom-right, bottom-left of the printed marker).

        Markers are printed upright as seen by player A: the marker's "top" edge is the one
        farther from A (larger y), its "left" edge the one with smaller x.
        """
        side = MARKER_SIDE_MM
        origins = {
            0: (0.0, 0.0),
            1: (self.width - side, 0.0),
            2: (self.width - side, self.height - side),
            3: (0.0, self.height - side),
        }
        if marker_id not in origins:
            raise ValueError(f"no marker {marker_id}: the play area uses ids 0-3")
        x0, y0 = origins[marker_id]
        return [(x0, y0 + side), (x0 + side, y0 + side), (x0 + side, y0), (x0, y0)]

    def corners(self) -> list[tuple[float, float]]:
        """Play-area corners in INTERFACE.md order: (0,0), (W,0), (W,H), (0,H)."""
        return [(0.0, 0.0), (self.width, 0.0), (self.width, self.height), (0.0, self.height)]
