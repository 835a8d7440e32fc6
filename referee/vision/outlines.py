"""Card outlines found without a model: bright, colourless, card-shaped regions.

A second source of candidate outlines next to the detector. It finds lone cards on most tables with
exact edges, and misses cards that touch or overlap (they merge into one region). Every candidate is
still read by the index classifier, which drops those that show no index.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Side the picture is shrunk to before the search, pixels. Smaller is faster and finds fewer small cards.
WORK_SIDE = 480
#: Accepted long/short side ratios of a candidate (a card is 88/63 = 1.40; perspective stretches it).
RATIO_RANGE = (1.2, 1.75)
#: Least fraction of its rotated rectangle a region must fill: lower accepts ragged blobs.
LEAST_FILL = 0.85
#: Colourfulness (Lab chroma) above which a pixel is not card paper.
PAPER_CHROMA = 25.0


def paper_outlines(image: np.ndarray) -> list[np.ndarray]:
    """Rotated-rectangle outlines (4x2 float32, image pixels) of card-like paper regions."""
    height, width = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(height, width))
    small = cv2.resize(image, (max(1, int(width * scale)), max(1, int(height * scale))), interpolation=cv2.INTER_AREA) if scale < 1 else image
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    lightness = lab[:, :, 0]
    chroma = np.hypot(lab[:, :, 1].astype(np.float32) - 128, lab[:, :, 2].astype(np.float32) - 128)
    paper = chroma < PAPER_CHROMA
    masks = [((lightness >= np.percentile(lightness, q)) & paper).astype(np.uint8) * 255 for q in (60, 75, 88)]
    edges = cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0), 40, 120)
    masks.append(255 - cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    picture_area = small.shape[0] * small.shape[1]
    found: list[np.ndarray] = []
    for mask in masks:
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < 0.004 * picture_area or area > 0.6 * picture_area:
                continue
            rectangle = cv2.minAreaRect(contour)
            short, long = sorted(rectangle[1])
            if short < 8 or not RATIO_RANGE[0] <= long / short <= RATIO_RANGE[1] or area / (short * long) < LEAST_FILL:
                continue
            quad = (cv2.boxPoints(rectangle) / scale).astype(np.float32)
            if all(_overlap(quad, other) < 0.7 for other in found):
                found.append(quad)
    return found


def _overlap(first: np.ndarray, second: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(first.reshape(-1, 1, 2), second.reshape(-1, 1, 2))
    union = cv2.contourArea(first.reshape(-1, 1, 2)) + cv2.contourArea(second.reshape(-1, 1, 2)) - area
    return float(area / union) if union > 0 else 0.0


def local_outline(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The card's own outline near a rough one (a detector's): the bright paper region under the rough
    outline's centre, as a rotated rectangle. None when that region is not card-shaped (cards touching,
    a white table), so the caller keeps the rough outline."""
    quad = np.asarray(quad, dtype=np.float32)
    height, width = image.shape[:2]
    size = float(np.linalg.norm(quad[2] - quad[0]))
    x0, y0 = np.floor(quad.min(axis=0) - 0.2 * size).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + 0.2 * size).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    patch = image[y0:y1, x0:x1]
    scale = min(1.0, 200.0 / max(patch.shape[:2]))
    if scale < 1.0:
        patch = cv2.resize(patch, (max(1, int(patch.shape[1] * scale)), max(1, int(patch.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    lightness = cv2.GaussianBlur(lab[:, :, 0], (5, 5), 0)
    chroma = np.hypot(lab[:, :, 1].astype(np.float32) - 128, lab[:, :, 2].astype(np.float32) - 128)
    _, bright = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # the card's face (pips, pictures) is part of the card: fill holes by closing, keep colour out of the paper seed
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    bright[(chroma > 60) & (bright == 0)] = 0
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre = tuple(float(v) for v in ((quad.mean(axis=0) - np.array([x0, y0])) * scale))
    rough_area = cv2.contourArea(quad.reshape(-1, 1, 2)) * scale * scale
    best = None
    for contour in contours:
        if cv2.pointPolygonTest(contour, centre, False) < 0:
            continue
        rectangle = cv2.minAreaRect(contour)
        short, long = sorted(rectangle[1])
        area = cv2.contourArea(contour)
        if short < 6 or not RATIO_RANGE[0] <= long / short <= RATIO_RANGE[1] or area / (short * long) < LEAST_FILL:
            continue
        if not 0.55 <= short * long / max(rough_area, 1.0) <= 1.6:
            continue
        best = rectangle
    if best is None:
        return None
    return (cv2.boxPoints(best) / scale + np.array([x0, y0], np.float32)).astype(np.float32)


def card_sized_outlines(image: np.ndarray, px_per_mm: float) -> list[np.ndarray]:
    """Outlines of a card of known size (a top-down pile view at `px_per_mm`) where the pile's top card
    may fill the view or lie on others that peek out: the card-sized rectangle turned and placed like the
    paper region at the centre, and the card-sized rectangle at the centre, upright. The recogniser reads
    each and keeps the outline it reads best."""
    from referee.vision.geometry import CARD_MM

    height, width = image.shape[:2]
    card = (CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm)
    centre = (width / 2.0, height / 2.0)
    found = [cv2.boxPoints((centre, card, 0.0)).astype(np.float32)]
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    lightness = cv2.GaussianBlur(lab[:, :, 0], (5, 5), 0)
    chroma = np.hypot(lab[:, :, 1].astype(np.float32) - 128, lab[:, :, 2].astype(np.float32) - 128)
    _, bright = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))  # pips and pictures are card too
    bright[(chroma > 60) & (bright == 0)] = 0
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(bright, connectivity=8)
    if count > 1:
        sizes = stats[1:, cv2.CC_STAT_AREA]
        label = 1 + int(np.argmax(sizes))
        if sizes[label - 1] >= 0.3 * card[0] * card[1]:
            contours, _ = cv2.findContours((labels == label).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            (cx, cy), (w, h), angle = cv2.minAreaRect(np.concatenate(contours))  # its outline: the same rectangle as all its pixels, far faster
            size = card if w <= h else card[::-1]
            found.append(cv2.boxPoints(((cx, cy), size, angle)).astype(np.float32))
            if 0.8 <= w * h / (card[0] * card[1]) <= 1.25:
                found.append(cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32))
    return found
