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


@dataclass(frozen=True)
class StockRow:
    """Where one player's stock piles lie: `pitch` mm centre to centre, `inset` mm from the owner's
    edge, the middle pile `shift` mm along x from the centre line x = W/2."""

    pitch: float
    inset: float
    shift: float = 0.0


@dataclass(frozen=True, kw_only=True)
class TableLayout:
    """Layout of a game on a play area of `width` x `height` mm: nominal, or where the players laid
    their cards (`rows` measured by referee.piles.layout_fit, `spit_centres` by the tracker)."""

    width: float = 800.0
    height: float = 600.0
    #: centre-to-centre distance between neighbouring stock piles
    stock_pitch: float = 82.0
    #: distance of a stock row's centre line from its owner's edge
    stock_row_inset: float = 118.0
    #: distance of each spit pile's centre from the table's centre line x = W/2
    spit_offset: float = 70.0
    #: A's and B's stock rows where they were measured (None: stock_pitch and stock_row_inset, centred)
    rows: tuple[StockRow | None, StockRow | None] = (None, None)
    #: the spit piles' centres where they were measured (None: spit_offset either side, mid-table)
    spit_centres: tuple[tuple[float, float] | None, tuple[float, float] | None] = (None, None)

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"play area must be positive, got {self.width} x {self.height} mm")

    def row(self, player: str) -> StockRow:
        """A player's stock row: as measured, else the nominal one."""
        if player not in PLAYERS:
            raise ValueError(f"no player {player}")
        return self.rows[PLAYERS.index(player)] or StockRow(self.stock_pitch, self.stock_row_inset)

    def _in_row(self, player: str, pitches: float, inset_extra: float = 0.0) -> tuple[float, float]:
        """The point `pitches` piles to the owner's right of their middle stock, `inset_extra` mm nearer them."""
        row = self.row(player)
        if player == "A":
            return self.width / 2 + row.shift + pitches * row.pitch, row.inset - inset_extra
        return self.width / 2 + row.shift - pitches * row.pitch, self.height - row.inset + inset_extra

    def stock_centre(self, player: str, index: int) -> tuple[float, float]:
        """Centre of a player's stock pile `index` (0-4 from the owner's own left)."""
        if player not in PLAYERS or not 0 <= index <= 4:
            raise ValueError(f"no stock pile {player}{index}")
        return self._in_row(player, index - 2)

    def spare_slot_centre(self, player: str) -> tuple[float, float]:
        """Where a sixth stock pile would be laid: one pitch right of the owner's stock 4."""
        return self._in_row(player, 3)

    def spit_stack_centre(self, player: str) -> tuple[float, float]:
        """Where a player keeps their face-down spit cards: to the left of their stock row."""
        return self._in_row(player, -3.3, 10)

    def spit_pile_centre(self, pile: int) -> tuple[float, float]:
        if pile not in (0, 1):
            raise ValueError(f"no spit pile {pile}")
        if self.spit_centres[pile] is not None:
            return self.spit_centres[pile]
        sign = -1 if pile == 0 else 1
        return self.width / 2 + sign * self.spit_offset, self.height / 2

    def spit_split_x(self) -> float:
        """The line x between the two spit piles' zones: halfway between their centres."""
        return (self.spit_pile_centre(0)[0] + self.spit_pile_centre(1)[0]) / 2

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
        low, high = self.row("A").inset + half_card + 10, self.height - self.row("B").inset - half_card - 10
        if high - low < 40:  # rows laid deep into the table: keep a band around the middle
            middle = (self.row("A").inset + self.height - self.row("B").inset) / 2
            low, high = middle - 20, middle + 20
        return low, high

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
