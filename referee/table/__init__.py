"""The table frame of INTERFACE.md in millimetres: play area, players' edges, pile places and zones."""

from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, TableLayout

__all__ = ["CARD_HEIGHT_MM", "CARD_WIDTH_MM", "TableLayout"]
