"""Short drawn games with known truth, shared by the pipeline and CLI tests."""

from __future__ import annotations

import json

from referee.rules.cards import Card
from referee.table.layout import TableLayout
from tests.piles.drawn_table import IMAGE_SIZE, OFFSET, SCALE, DrawnTable, write_video

LAYOUT = TableLayout()
PILES = ("5H", "9C")
STOCKS = {"A": ("6S", "KD", "2C", "JH", "8D"), "B": ("4S", "QD", "3C", "10H", "7D")}
#: (player, card, from stock, pile, true touch t, legal)
PLAYS = (
    ("A", "6S", 0, 0, 1.513, True),
    ("B", "10H", 3, 1, 2.720, True),
    ("A", "JH", 3, 1, 2.745, True),
    ("B", "7D", 4, 0, 3.600, True),
    ("A", "KD", 1, 0, 4.500, False),
)
SECONDS = 5.6


def mid_game_table() -> DrawnTable:
    table = DrawnTable()
    for pile, card in enumerate(PILES):
        table.lay(Card.parse(card), LAYOUT.spit_pile_centre(pile))
    for player, cards in STOCKS.items():
        for slot, card in enumerate(cards):
            table.lay(Card.parse(card), LAYOUT.stock_centre(player, slot))
    tops = {pile: LAYOUT.spit_pile_centre(pile) for pile in (0, 1)}
    for player, card, slot, pile, t_touch, _ in PLAYS:
        move = table.play(player, Card.parse(card), LAYOUT.stock_centre(player, slot), tops[pile], t_touch=t_touch)
        tops[pile] = move.final
    return table


def write_mid_game(folder, *, fps: int = 30, seconds: float = SECONDS, light=None) -> tuple:
    video = folder / "video.mp4"
    write_video(mid_game_table(), video, fps=fps, seconds=seconds, light=light)
    corners = [[OFFSET[0] + SCALE * x, OFFSET[1] + SCALE * y] for x, y in LAYOUT.corners()]
    calibration = folder / "corners.json"
    calibration.write_text(json.dumps({"play_area_corners_px": corners}))
    return video, calibration


__all__ = ["IMAGE_SIZE", "PLAYS", "write_mid_game", "mid_game_table"]
