"""Where the players laid their stock rows: the table layout fitted to a top-down view of the table.

Players lay their stock rows where they like: nearer their edge or farther, the piles closer together
or wider apart, a little off to one side. The tracker watches the places of a `TableLayout`; this
finds, in a top-down view, the card-sized things lying in a row in front of each player and moves the
layout's stock places onto them. A row of fewer than MIN_ROW_CARDS cards stays where the layout had it.
(The spit piles are found by the tracker itself, from the first card it sees land on each.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from referee.piles.pixels import differs
from referee.piles.reading import card_coloured
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, MARKER_SIDE_MM, StockRow, TableLayout

CARD_AREA_MM2 = CARD_WIDTH_MM * CARD_HEIGHT_MM
#: A blob is a card (or a pile) when its area is within these multiples of one card's.
CARD_AREA_RANGE = (0.35, 2.6)
#: Longest side (mm) of a card blob's bounding box: a card turned 45 degrees, a pile a little spread.
MAX_BLOB_SIDE = 150.0
#: Stock piles of one row lie within this many mm of the row's line.
ROW_SPREAD = 30.0
#: Fewest stock piles seen in a row for the row to be fitted (else it keeps the layout's row).
MIN_ROW_CARDS = 3
#: Stock piles a row must show for its pitch and shift to be fitted (else only its depth is); they must
#: match it to a score of one less (each counts 1 at its slot, less a share of MATCH_MM it lies off).
MIN_PITCH_CARDS = 5
#: ... and only when that row explains at least this many more of them than the layout's own row.
BETTER_BY = 1.5
#: Pitches (mm, centre to centre) a fitted row may have: from cards nearly touching to wide apart.
PITCH_RANGE = (66.0, 140.0)
#: A stock pile within this many mm of where the row puts one counts as lying there.
MATCH_MM = 25.0
#: A row or pile is moved only when found this many mm from where the layout has it: players lay cards
#: a little off their spots, and the zones allow for that.
MOVE_MM = 15.0
#: The table's own look at a point is the median over a square this wide (mm): much wider than a card,
#: so a row of cards does not pass for table, narrow enough to follow a lamp's light across it.
TABLE_SPAN_MM = 240.0
SHRINK = 4
#: A pixel differing from the table around it by more than this (0-255, any channel) lies on it.
CONTRAST = 25
#: A blob standing out from the table is a card only when at least this share of it is card paper (a
#: face, or a back's white border): the squares of a checked tablecloth stand out as much as cards, and
#: lie in rows too (one had moved a stock row 99 mm, onto a row of squares).
MIN_PAPER_SHARE = 0.1


class CardSeen(NamedTuple):
    """The centre (table mm) of a card-sized thing lying on the table."""

    x: float
    y: float


def card_centres(view: np.ndarray, px_per_mm: float) -> list[CardSeen]:
    """Centres (table mm) of card-sized things lying in a top-down view: cards face up or down and piles,
    found by how they stand out from the table around them (its colour smoothed over a span much wider
    than a card, so a lamp's bright spot or a pale table is still table). Arms reaching off the view
    and the corner markers are left out."""
    # the median is taken on a view shrunk SHRINK times (the same look of the table, a sixteenth of the work)
    small = cv2.resize(view, (max(1, view.shape[1] // SHRINK), max(1, view.shape[0] // SHRINK)), interpolation=cv2.INTER_AREA)
    span = int(round(TABLE_SPAN_MM * px_per_mm / SHRINK)) | 1
    table = cv2.resize(cv2.medianBlur(small, min(span, 255)), view.shape[1::-1], interpolation=cv2.INTER_LINEAR)
    mask = differs(view, table, CONTRAST)
    close = max(3, int(round(4 * px_per_mm)) | 1)  # joins a card's print, not cards laid a few mm apart
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    paper = card_coloured(view)
    found = _card_blobs(mask, paper, px_per_mm, paper_share=MIN_PAPER_SHARE)
    # cards on a patterned cloth may join the pattern in the mask above and be left out as too big:
    # their paper alone finds them
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    found += [card for card in _card_blobs(paper, paper, px_per_mm, paper_share=0.0)
              if all(np.hypot(card.x - other.x, card.y - other.y) > CARD_WIDTH_MM / 2 for other in found)]
    return found


def _card_blobs(mask: np.ndarray, paper: np.ndarray, px_per_mm: float, *, paper_share: float) -> list[CardSeen]:
    """Centres (table mm) of `mask`'s card-sized blobs at least `paper_share` card paper, away from the
    view's edges (arms reaching off it) and the corner markers."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    papery = np.bincount(labels.ravel(), weights=(paper > 0).ravel(), minlength=count)
    height, width = mask.shape
    area_mm = (width / px_per_mm, height / px_per_mm)
    found = []
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        if x == 0 or y == 0 or x + w >= width or y + h >= height:
            continue  # reaches off the view: an arm, or something beyond the play area
        area2 = area / px_per_mm ** 2
        if not CARD_AREA_RANGE[0] * CARD_AREA_MM2 <= area2 <= CARD_AREA_RANGE[1] * CARD_AREA_MM2:
            continue
        if max(w, h) / px_per_mm > MAX_BLOB_SIDE or papery[label] < paper_share * area:
            continue
        cx, cy = (float(v) / px_per_mm for v in centroids[label])
        near_x = min(cx, area_mm[0] - cx) < MARKER_SIDE_MM + 40
        near_y = min(cy, area_mm[1] - cy) < MARKER_SIDE_MM + 40
        if near_x and near_y:
            continue  # a corner marker
        found.append(CardSeen(cx, cy))
    return found


def fit_row(centres: list[CardSeen], player: str, layout: TableLayout) -> StockRow | None:
    """The stock row in front of `player` that the centres show, or None when fewer than MIN_ROW_CARDS
    lie in a row there. Five piles at a common pitch; ties go to the row nearest the layout's."""
    nominal = layout.row(player)
    depth = [(c.x, c.y if player == "A" else layout.height - c.y) for c in centres]
    depth = [(x, d) for x, d in depth if 25.0 <= d <= layout.height / 2 - 45.0]  # the spit piles lie mid-table
    if len(depth) < MIN_ROW_CARDS:
        return None
    depths = np.array([d for _, d in depth])
    count, _, line = max((int(np.sum(np.abs(depths - d) <= ROW_SPREAD)), -abs(d - nominal.inset), d) for d in depths)
    if count < MIN_ROW_CARDS:
        return None
    in_row = [(x, d) for x, d in depth if abs(d - line) <= ROW_SPREAD]
    members = np.array([x for x, _ in in_row])
    inset = float(np.median([d for _, d in in_row]))
    depth_only = StockRow(nominal.pitch, inset, nominal.shift)
    sign = 1.0 if player == "A" else -1.0
    slots = np.arange(-2, 3, dtype=np.float64)
    expected = layout.width / 2 + nominal.shift + sign * slots * nominal.pitch
    as_laid = float(np.clip(1.0 - np.abs(members[:, None] - expected[None, :]).min(axis=1) / MATCH_MM, 0.0, None).sum())
    if len(members) < MIN_PITCH_CARDS - 1 or len(members) - as_laid < BETTER_BY:
        return depth_only  # a pile scores at most 1: no row can beat the layout's own by BETTER_BY (below)
    pitches = np.arange(PITCH_RANGE[0], PITCH_RANGE[1] + 0.5, 1.0)
    reach = 2 * np.floor((layout.width / 2 - CARD_WIDTH_MM / 2 - 2 * PITCH_RANGE[0]) / 2)  # shifted further, a row leaves the table
    shifts = np.arange(-reach, reach + 0.5, 2.0)
    # predicted x of each slot for every (pitch, shift): (P, S, 5)
    predicted = layout.width / 2 + shifts[None, :, None] + sign * slots[None, None, :] * pitches[:, None, None]
    distance = np.abs(members[None, None, None, :] - predicted[..., None]).min(axis=2)  # (P, S, members)
    score = np.clip(1.0 - distance / MATCH_MM, 0.0, None).sum(axis=2)
    inside = (predicted.min(axis=2) >= CARD_WIDTH_MM / 2) & (predicted.max(axis=2) <= layout.width - CARD_WIDTH_MM / 2)
    score[~inside] = -1.0
    best = float(score.max())
    if best < MIN_PITCH_CARDS - 1.0 or best - as_laid < BETTER_BY:
        # too few piles to tell a pitch, or the layout's own row explains them nearly as well (a hand, a
        # card in flight or the spit cards lying by the row must not move it): only the depth is fitted
        return depth_only
    # a few piles fit several rows (three piles 82 apart also fit 164 apart with gaps): of the rows that
    # explain them about as well as the best, the one nearest the layout's own
    near = np.abs(pitches[:, None] - nominal.pitch) / 10.0 + np.abs(shifts[None, :] - nominal.shift) / 20.0
    near[score < best - 0.3] = np.inf
    p, s = np.unravel_index(int(np.argmin(near)), near.shape)
    return StockRow(float(pitches[p]), inset, float(shifts[s]))


def fit_layout(view: np.ndarray, px_per_mm: float, layout: TableLayout) -> TableLayout:
    """`layout` with its stock rows moved to where the view shows them."""
    centres = card_centres(view, px_per_mm)
    rows = []
    for number, player in enumerate(("A", "B")):
        row, before = fit_row(centres, player, layout), layout.row(player)
        moved = row is not None and (abs(row.inset - before.inset) > MOVE_MM or abs(row.pitch - before.pitch) > 2 or abs(row.shift - before.shift) > MOVE_MM)
        rows.append(row if moved else layout.rows[number])
    return replace(layout, rows=tuple(rows))
