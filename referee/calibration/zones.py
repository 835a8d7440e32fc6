"""Named regions of the play area (table mm), derived from the nominal `TableLayout`.

Zones are generous bands, not exact slots: players drop cards a little off the nominal places.
- `spit_band`: the whole-width band between the two stock rows where the spit piles live.
- `stock_rows[player]`: the band across the player's stock row (spit stack to spare slot).
- `stock_slots[player][i]`: one box per stock pile, numbered 0-4 from the owner's own left.
- `spit_piles[pile]`: a box around each spit pile (pile 0 has the smaller x).
- `edges[player]`: the player's edge of the play area as a segment (A: y = 0, B: y = H).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, PLAYERS, TableLayout

#: slack around a card's nominal place inside a zone (mm); raise it if players are sloppy,
#: lower it if neighbouring zones start to catch each other's cards.
ZONE_SLACK_MM = 10.0

Point = tuple[float, float]


@dataclass(frozen=True)
class Zone:
    name: str
    polygon_mm: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        """Point-in-polygon (even-odd rule); edges count as inside."""
        x, y = point
        inside = False
        points = self.polygon_mm
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
            if min(y0, y1) <= y <= max(y0, y1) and min(x0, x1) <= x <= max(x0, x1):
                cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
                if abs(cross) < 1e-9:
                    return True
            if (y0 > y) != (y1 > y):
                x_at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                if x < x_at:
                    inside = not inside
        return inside

    def to_list(self) -> list[list[float]]:
        return [[round(x, 1), round(y, 1)] for x, y in self.polygon_mm]


def _box(name: str, x_min: float, y_min: float, x_max: float, y_max: float) -> Zone:
    return Zone(name, ((x_min, y_min), (x_max, y_min), (x_max, y_max), (x_min, y_max)))


def _centred_box(name: str, centre: Point, half_width: float, half_height: float) -> Zone:
    x, y = centre
    return _box(name, x - half_width, y - half_height, x + half_width, y + half_height)


@dataclass(frozen=True)
class Zones:
    spit_band: Zone
    stock_rows: dict[str, Zone]
    stock_slots: dict[str, tuple[Zone, ...]]
    spit_piles: tuple[Zone, Zone]
    edges: dict[str, tuple[Point, Point]]

    @classmethod
    def from_layout(cls, layout: TableLayout) -> "Zones":
        width, height = layout.width, layout.height
        band_low, band_high = layout.centre_band()
        row_half_height = CARD_HEIGHT_MM / 2 + ZONE_SLACK_MM
        slot_half_width = layout.stock_pitch / 2
        stock_rows: dict[str, Zone] = {}
        stock_slots: dict[str, tuple[Zone, ...]] = {}
        for player in PLAYERS:
            centres = [layout.stock_centre(player, index) for index in range(5)]
            xs = [x for x, _ in centres] + [layout.spit_stack_centre(player)[0], layout.spare_slot_centre(player)[0]]
            y_row = centres[0][1]
            stock_rows[player] = _box(
                f"stock_row_{player}",
                max(0.0, min(xs) - CARD_WIDTH_MM / 2 - ZONE_SLACK_MM),
                max(0.0, y_row - row_half_height),
                min(width, max(xs) + CARD_WIDTH_MM / 2 + ZONE_SLACK_MM),
                min(height, y_row + row_half_height),
            )
            stock_slots[player] = tuple(
                _centred_box(f"stock_{player}{index}", centre, slot_half_width, row_half_height) for index, centre in enumerate(centres)
            )
        spit_half_width = min(layout.spit_offset, CARD_WIDTH_MM / 2 + 2 * ZONE_SLACK_MM)
        spit_half_height = min((band_high - band_low) / 2, CARD_HEIGHT_MM / 2 + 2 * ZONE_SLACK_MM)
        spit_piles = tuple(_centred_box(f"spit_pile_{pile}", layout.spit_pile_centre(pile), spit_half_width, spit_half_height) for pile in (0, 1))
        return cls(
            spit_band=_box("spit_band", 0.0, band_low, width, band_high),
            stock_rows=stock_rows,
            stock_slots=stock_slots,
            spit_piles=spit_piles,  # type: ignore[arg-type]
            edges={"A": ((0.0, 0.0), (width, 0.0)), "B": ((width, height), (0.0, height))},
        )

    def all_zones(self) -> list[Zone]:
        zones = [self.spit_band, *self.spit_piles]
        for player in PLAYERS:
            zones += [self.stock_rows[player], *self.stock_slots[player]]
        return zones

    def zone_names_at(self, point: Point) -> list[str]:
        """Names of every zone containing the point (the band and a pile box can overlap)."""
        return [zone.name for zone in self.all_zones() if zone.contains(point)]

    def to_dict(self) -> dict:
        return {
            "spit_band": self.spit_band.to_list(),
            "spit_piles": {pile: zone.to_list() for pile, zone in enumerate(self.spit_piles)},
            "stock_rows": {player: zone.to_list() for player, zone in self.stock_rows.items()},
            "stock_slots": {player: [zone.to_list() for zone in zones] for player, zones in self.stock_slots.items()},
            "edges": {player: [list(point) for point in segment] for player, segment in self.edges.items()},
        }
