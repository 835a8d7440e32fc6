"""Where the tracker looks: the places of a Spit table as rectangles in table millimetres.

Zones are generous (players scatter cards around the nominal spots of `TableLayout`) but do not
overlap: the two spit piles split the centre band at x = W/2, stock slots split their row at the
midpoints between neighbouring piles.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.piles.table_view import RectMM
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, TableLayout

PLAYERS = ("A", "B")
#: Half-size of a spit pile's zone across x and along y (mm). Wider zones tolerate messier piles
#: but also catch hands passing by on their way to the other pile.
SPIT_ZONE_HALF = (68.0, 78.0)
#: How far out (mm from its nominal centre) a spit pile's zone reaches until a card has been seen on it:
#: players spit where they like, and the first card must land inside the zone to be seen at all.
UNFOUND_SPIT_REACH = 120.0
#: Half-size of a stock slot's zone (mm). x is capped at half the pitch so neighbours do not overlap.
STOCK_ZONE_HALF = (40.0, 58.0)


@dataclass(frozen=True)
class Place:
    kind: str               # "spit_pile", "stock", "spit_stack"
    index: int
    player: str | None = None

    @property
    def key(self) -> tuple:
        return (self.kind, self.player, self.index)

    def __str__(self) -> str:
        return f"{self.kind}:{self.player or ''}{self.index}"


def spit_pile_zone(layout: TableLayout, pile: int) -> RectMM:
    """Around the pile, split from the other pile's zone halfway between them, and kept off the stock
    rows' zones."""
    x, y = layout.spit_pile_centre(pile)
    half_x, half_y = SPIT_ZONE_HALF
    outer = half_x if layout.spit_centres[pile] is not None else UNFOUND_SPIT_REACH
    split = layout.spit_split_x()
    low = max(y - half_y, layout.row("A").inset + STOCK_ZONE_HALF[1] + 1)
    high = min(y + half_y, layout.height - layout.row("B").inset - STOCK_ZONE_HALF[1] - 1)
    if high - low < CARD_HEIGHT_MM:  # stock rows laid close to the piles: the piles keep a card's height
        low, high = y - CARD_HEIGHT_MM / 2, y + CARD_HEIGHT_MM / 2
    if pile == 0:
        return RectMM(max(x - outer, 1.0), low, min(x + half_x, split - 1), high)
    return RectMM(max(x - half_x, split + 1), low, min(x + outer, layout.width - 1), high)


def stock_zone(layout: TableLayout, player: str, index: int) -> RectMM:
    if index == 5:
        centre = layout.spare_slot_centre(player)
    else:
        centre = layout.stock_centre(player, index)
    half_x = min(STOCK_ZONE_HALF[0], layout.row(player).pitch / 2 - 1)
    return RectMM.around(centre, 2 * half_x, 2 * STOCK_ZONE_HALF[1])


def spit_stack_zone(layout: TableLayout, player: str) -> RectMM:
    return RectMM.around(layout.spit_stack_centre(player), CARD_WIDTH_MM + 16, CARD_HEIGHT_MM + 16)


def nominal_card(centre: tuple[float, float]) -> RectMM:
    return RectMM.around(centre, CARD_WIDTH_MM, CARD_HEIGHT_MM)


def all_places(layout: TableLayout) -> dict[Place, tuple[RectMM, RectMM]]:
    """Every watched place -> (zone, nominal card rectangle)."""
    places: dict[Place, tuple[RectMM, RectMM]] = {}
    for pile in (0, 1):
        places[Place("spit_pile", pile)] = (spit_pile_zone(layout, pile), nominal_card(layout.spit_pile_centre(pile)))
    for player in PLAYERS:
        for index in range(6):
            zone = stock_zone(layout, player, index)
            places[Place("stock", index, player)] = (zone, nominal_card(zone.centre))
        zone = spit_stack_zone(layout, player)
        places[Place("spit_stack", 0, player)] = (zone, nominal_card(zone.centre))
    return places
