"""Broad soft shadows over the table: a person leaning in, someone walking past the lamp, a cloud's edge.

Such a shadow darkens a large part of the table by a share that is the same in every colour channel and
changes only slowly from place to place, fading out at its edge. Against the still table it would stand
out as foreground, reach both players' edges and be taken for their arms; and the table model would learn
the shadowed table, so that the table stood out again as the shadow left.

`shade_of` finds such shadows cell by cell (CELL_PX view pixels square), each cell's brightness against
the model, and keeps a region of cells only where all of this holds:
- each cell is darker than the model by the same share in every channel, evenly over the cell
  (a hand or an arm over the table changes the channels by different shares, or unevenly: its edge, its
  fingers, the table's grain around it);
- the region is large (MIN_CELLS), and fades out where it meets the table in the lamp's light (EDGE_FADE):
  a shadow's edge is soft over centimetres, where a grey sleeve or a dark hand on a table of its own
  colour ends within a cell or two. (Where it meets a hand, the hand's edge tells nothing.)

The light of those regions is spread smoothly over the cells in them that are not plain shadow (a hand in
the shadow, a card's edge), and the view is divided by it: the table looks as it did before the shadow,
and a hand in the shadow still stands out. Anywhere else the view is left as it is, to the bit: a game
without such a shadow is refereed exactly as before.

Only a darker table is a shadow. Where the model holds one (a clip that opened in it) and it has gone,
`shadow_gone` tells the table lit again by the same tests with the two swapped, and the model takes it in
at once: dividing it out instead kept the table in the shadow's light for good.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Cell size (view pixels; 8 at the tracking view's 0.5 px/mm is 16 mm), and the blocks (view pixels) within
#: a cell over which it must be evenly lit.
CELL_PX = 8
BLOCK_PX = 2
#: A cell in a shadow: darker than the model by at least this share (6 %: a white card's
#: 245 grey levels darkened by 15, just under what counts as foreground, FOREGROUND_THRESHOLD).
LIGHT_CHANGE = 0.06
#: ... by the same share in every channel: its three channels' ratios to the model within this share of
#: their mean of each other
SAME_IN_EVERY_CHANNEL = 0.08
#: ... and evenly over the cell: the spread (standard deviation) of its pixels' brightness ratios at most
#: this share of their mean
EVEN_OVER_CELL = 0.06
#: The darkest a shadow is taken to make the table. Only darker: a table lighter than the model (a clip
#: that opened in a shadow, which then left) is taken into the model (`shadow_gone`). Kept in the
#: shadow's light for good, the table stood out wherever the correction faltered: a clip that opened in a
#: leaning person's shadow, which then left, lost 7 of its 22 plays (none without).
DARKEST_SHADE = 0.4
#: A cell of the model darker than this (0-255, the mean of its channels) tells too little by its ratios.
DARKEST_MODEL = 30.0
#: Grey levels of noise (compression, the sensor) a cell's mean may be off by in each channel: in a dark
#: channel (a red felt's blue and green) they are a large share.
NOISE_LEVELS = 3.0
#: A shadow covers at least this many cells (60 cells of 16 mm: 150 cm^2, larger than a hand).
MIN_CELLS = 60
#: ... and fades out at its edge: the median of its outermost cells near the table at the model's light
#: (TABLE_NEAR) differs from that light by at most this share. A sharp-edged dark region (a sleeve)
#: differs there by its full darkness.
EDGE_FADE = 0.14
#: How near (cells) to the table at the model's light a shadow's outermost cells are told by (EDGE_FADE).
TABLE_NEAR = 2
#: How far (cells) the light of a shadow is spread around it, over the cells that are not plain shadow (a
#: card's edge, the fringe of a hand); over those it encloses (a hand lying in it) always.
SPREAD_CELLS = 2


def shade_of(view: np.ndarray, model: np.ndarray) -> np.ndarray | None:
    """Per pixel of `view`, its light against `model` (the still table; both uint8 BGR) where a broad soft
    shadow lies (see the module docstring), 1 elsewhere: float32 H x W; None where there is no such
    shadow."""
    found = _shadow_cells(view, model)
    if found is None:
        return None
    regions, shade, plain, changed = found
    height, width = view.shape[:2]
    rows, cols = regions.shape
    # the light over the regions and around them: the shadow's cells as they are, spread smoothly over
    # the cells among them that are not plain shadow; the table around them at the model's light
    known = (regions | (plain & ~changed)).astype(np.float32)
    value = np.where(regions, shade, 1.0).astype(np.float32)
    reach = cv2.dilate(_holes_filled(regions).astype(np.uint8), np.ones((2 * SPREAD_CELLS + 1,) * 2, np.uint8)) > 0
    light = np.ones((rows, cols), np.float32)
    for sigma in (1.0, 3.0):
        weight = cv2.GaussianBlur(known, (0, 0), sigma)
        spread_light = cv2.GaussianBlur(value * known, (0, 0), sigma)
        fill = reach & (weight > 0.05) & (light == 1.0)
        light[fill] = spread_light[fill] / weight[fill]
    full = np.ones((height, width), np.float32)
    full[:rows * CELL_PX, :cols * CELL_PX] = cv2.resize(light, (cols * CELL_PX, rows * CELL_PX), interpolation=cv2.INTER_LINEAR)
    return full


def shadow_gone(view: np.ndarray, model: np.ndarray) -> np.ndarray | None:
    """Bool mask of `view`'s pixels where the table is lit again after a shadow the model holds (a clip
    that opened in one): the cells of a broad soft region the model is darker than `view` by the same share
    in every channel, evenly, as a shadow (`shade_of` with the two swapped); None where there is none."""
    found = _shadow_cells(model, view)
    if found is None:
        return None
    regions = found[0]
    rows, cols = regions.shape
    mask = np.zeros(view.shape[:2], bool)
    mask[:rows * CELL_PX, :cols * CELL_PX] = cv2.resize(regions.astype(np.uint8), (cols * CELL_PX, rows * CELL_PX),
                                                        interpolation=cv2.INTER_NEAREST) > 0
    return mask


def _shadow_cells(view: np.ndarray, model: np.ndarray):
    """(the cells of broad soft shadows, each cell's light, the plain cells, the cells darker alike) of
    `view` against `model`, cell by cell; None where there is no such shadow."""
    height, width = view.shape[:2]
    rows, cols = height // CELL_PX, width // CELL_PX
    if rows < 3 or cols < 3:
        return None
    # first, cheaply, a pixel in the middle of each cell, judged leniently (a pixel is noisier than a
    # cell): too few darker alike in every channel, no shadow (hands and arms over the table are
    # most often told so)
    middle = (slice(CELL_PX // 2, rows * CELL_PX, CELL_PX), slice(CELL_PX // 2, cols * CELL_PX, CELL_PX))
    if np.count_nonzero(_lit_alike(view[middle].astype(np.float32) + 1.0, model[middle].astype(np.float32) + 1.0,
                                   noise=2 * NOISE_LEVELS, change=LIGHT_CHANGE / 2)[1]) < MIN_CELLS:
        return None
    # the view and the model in blocks of BLOCK_PX, then in cells of blocks
    size = (cols * CELL_PX, rows * CELL_PX)
    blocks, cells = (size[0] // BLOCK_PX, size[1] // BLOCK_PX), (cols, rows)
    seen = cv2.resize(view[:size[1], :size[0]], blocks, interpolation=cv2.INTER_AREA)
    still = cv2.resize(model[:size[1], :size[0]], blocks, interpolation=cv2.INTER_AREA)
    seen_cells = cv2.resize(seen, cells, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0
    still_cells = cv2.resize(still, cells, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0
    shade, changed, alike = _lit_alike(seen_cells, still_cells, noise=NOISE_LEVELS, change=LIGHT_CHANGE)
    if np.count_nonzero(changed) < MIN_CELLS:
        return None
    ratio = cv2.divide(cv2.cvtColor(seen, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0,
                       cv2.cvtColor(still, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0)  # each block's light
    mean = cv2.resize(ratio, cells, interpolation=cv2.INTER_AREA)
    spread = np.sqrt(np.maximum(cv2.resize(ratio * ratio, cells, interpolation=cv2.INTER_AREA) - mean * mean, 0.0))
    plain = alike & (spread <= EVEN_OVER_CELL * mean)
    changed &= plain
    if np.count_nonzero(changed) < MIN_CELLS:
        return None
    regions = _soft_regions(changed, shade, plain & ~changed)
    if not regions.any():
        return None
    return regions, shade, plain, changed


def _lit_alike(seen: np.ndarray, still: np.ndarray, *, noise: float, change: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of each pixel of `seen` against `still` (float32 BGR, each plus one): its light (the mean of its
    channels' ratios); whether it is darker (by `change`, down to DARKEST_SHADE) alike in every channel;
    whether it is lit alike in every channel (SAME_IN_EVERY_CHANNEL, less what `noise` grey levels make of
    a dark channel) where the model is bright enough to tell (DARKEST_MODEL)."""
    third = np.full((1, 3), 1 / 3, np.float32)
    channels = cv2.divide(seen, still)
    shade = cv2.transform(channels, third)
    brightness = cv2.transform(still, third)
    off = np.abs(channels - shade[..., None]) - noise / still
    most_off = np.maximum(np.maximum(off[..., 0], off[..., 1]), off[..., 2])  # (numpy's max over a short last axis is slow)
    alike = (most_off <= SAME_IN_EVERY_CHANNEL / 2 * shade) & (brightness >= DARKEST_MODEL + 1.0)
    changed = alike & (shade <= 1.0 - change) & (shade >= DARKEST_SHADE)
    return shade, changed, alike


def in_its_light(view: np.ndarray, shade: np.ndarray) -> np.ndarray:
    """`view` (uint8 BGR) as it would look without the shadows of `shade` (`shade_of`)."""
    return np.clip(view.astype(np.float32) / shade[..., None] + 0.5, 0, 255).astype(np.uint8)


def _soft_regions(changed: np.ndarray, shade: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The connected regions of `changed` cells that are large and fade out where they meet the table at
    the model's light (`table` cells, within TABLE_NEAR cells: a cell or two of the edge of a sharp shadow
    or a sleeve are mixed). Where a region meets a hand, or the view's edge, nothing is told."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    kept = np.zeros(changed.shape, bool)
    near_table = cv2.dilate(table.astype(np.uint8), np.ones((2 * TABLE_NEAR + 1,) * 2, np.uint8)) > 0
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < MIN_CELLS:
            continue
        region = labels == label
        edge = region & ~cv2.erode(region.astype(np.uint8), np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE).astype(bool)
        edge &= near_table
        if edge.any() and float(np.median(np.abs(shade[edge] - 1.0))) > EDGE_FADE:
            continue
        kept |= region
    return kept


def _holes_filled(region: np.ndarray) -> np.ndarray:
    """`region` with the cells it encloses (a hand lying in a shadow) added."""
    _, outside = cv2.connectedComponents((~region).astype(np.uint8), connectivity=4)
    border = np.unique(np.concatenate([outside[0], outside[-1], outside[:, 0], outside[:, -1]]))
    enclosed = ~region & ~np.isin(outside, border)
    return region | enclosed
