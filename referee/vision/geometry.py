"""Card geometry in image pixels: ordering an outline, cutting the corner indices out upright, letterboxing.

The shared truth between training (models/data_gen.py) and the runtime: the index crops the
classifier was trained on are cut here, so both sides see exactly the same pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

#: A standard poker card, millimetres (width, height).
CARD_MM: tuple[float, float] = (63.0, 88.0)

#: The corner region cut out around an index, millimetres from the card's corner (width, height).
#: Large enough to hold the rank and the suit pip below it on common decks, with a margin for an
#: outline a few millimetres off. Raising it tolerates worse outlines but shrinks the index in the crop.
INDEX_REGION_MM: tuple[float, float] = (20.0, 32.0)

#: Side of the square crop the index classifier reads, pixels.
INDEX_CROP_PX = 64

#: (width, height) in pixels of the whole-card crop the face classifier is trained on: about 1.35 px per
#: mm, what a 720p camera over an 800 x 600 mm play area sees of a card on the table (until session 36:
#: 56 x 80, 0.9 px per mm, which blurred a club's pip into a spade's). The runtime cuts the size the
#: shipped model was trained at (`FaceClassifier.size`, from its metadata).
FACE_SIZE: tuple[int, int] = (84, 120)

#: The suit classifier's view of a card: an index corner, SUIT_REGION_MM (width, height) of it, cut
#: upright from the card warped whole at SUIT_PX_PER_MM. The corner index's rank and suit, and on most
#: court cards the big suit sign in the corner of the picture's frame, lie there.
SUIT_PX_PER_MM = 2.0
SUIT_REGION_MM: tuple[float, float] = (32.0, 40.0)


def order_card_corners(quad: np.ndarray) -> np.ndarray:
    """Corners of a card outline clockwise (y down), starting at an end of a short edge.

    The first edge (corner 0 -> corner 1) is a short edge, so the card reads as portrait with
    corner 0 at its upper left. Which of the two short edges comes first is arbitrary: a card looks
    the same turned half round, and the recogniser reads both corners.
    """
    points = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    center = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - center[1], points[:, 0] - center[0])
    points = points[np.argsort(angles)]  # increasing angle is clockwise on screen (y down)
    first_edge = np.linalg.norm(points[1] - points[0]) + np.linalg.norm(points[3] - points[2])
    second_edge = np.linalg.norm(points[2] - points[1]) + np.linalg.norm(points[0] - points[3])
    if first_edge > second_edge:
        points = np.roll(points, -1, axis=0)
    # Of the two portrait orderings, start from the one whose corner 0 is higher in the image, so that
    # an upright card comes out upright.
    if points[2, 1] + points[3, 1] < points[0, 1] + points[1, 1]:
        points = np.roll(points, -2, axis=0)
    return points.astype(np.float32)


def turn_half_round(quad: np.ndarray) -> np.ndarray:
    """The same outline with its corners relabelled as if the card were turned 180 degrees."""
    return np.roll(np.asarray(quad, dtype=np.float32), -2, axis=0)


def card_to_image_homography(quad: np.ndarray) -> np.ndarray:
    """Homography from card millimetres (0..63, 0..88) to image pixels for an ordered outline."""
    width, height = CARD_MM
    card_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    return cv2.getPerspectiveTransform(card_corners, np.asarray(quad, dtype=np.float32))


def _warp_region(image: np.ndarray, region_px: np.ndarray, size: int | tuple[int, int]) -> np.ndarray:
    """Warp the image quadrilateral `region_px` (clockwise from upper left) onto a size x size square
    (or a (width, height) rectangle).

    Large regions are first shrunk with area averaging, so a crop from a 12-megapixel photo is not aliased.
    """
    out_width, out_height = (size, size) if isinstance(size, int) else size
    size = max(out_width, out_height)
    height, width = image.shape[:2]
    x0, y0 = np.floor(region_px.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(region_px.max(axis=0)).astype(int) + 3
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    target = np.array([[0, 0], [out_width, 0], [out_width, out_height], [0, out_height]], dtype=np.float32)
    if x1c - x0c < 2 or y1c - y0c < 2:
        return np.zeros((out_height, out_width, 3), dtype=np.uint8)
    patch = image[y0c:y1c, x0c:x1c]
    points = region_px - np.array([x0c, y0c], dtype=np.float32)
    extent = max(np.linalg.norm(region_px[1] - region_px[0]), np.linalg.norm(region_px[3] - region_px[0]))
    shrink = extent / (1.5 * size)
    if shrink > 1.0:
        new_size = (max(2, int(round(patch.shape[1] / shrink))), max(2, int(round(patch.shape[0] / shrink))))
        ratio = np.array([new_size[0] / patch.shape[1], new_size[1] / patch.shape[0]], dtype=np.float32)
        points = (points + 0.5) * ratio - 0.5  # resize maps pixel centres, not pixel corners
        patch = cv2.resize(patch, new_size, interpolation=cv2.INTER_AREA)
    matrix = cv2.getPerspectiveTransform(points.astype(np.float32), target)
    return cv2.warpPerspective(patch, matrix, (out_width, out_height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def face_crop(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """The whole card of an ordered outline warped upright to `size` (width, height), area-averaged."""
    return _warp_region(image, np.asarray(quad, dtype=np.float32), size)


def suit_corners(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two index corners of an upright card warped whole at SUIT_PX_PER_MM (`suit_crops`), the
    lower right turned half round, each SUIT_REGION_MM."""
    width, height = (int(round(v * SUIT_PX_PER_MM)) for v in SUIT_REGION_MM)
    return np.ascontiguousarray(face[:height, :width]), np.ascontiguousarray(face[::-1, ::-1][:height, :width])


def suit_crops(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The suit classifier's two crops of the card of an ordered outline: corner 0's and corner 2's."""
    size = tuple(int(round(v * SUIT_PX_PER_MM)) for v in CARD_MM)
    return suit_corners(face_crop(image, quad, size))


def index_crops(image: np.ndarray, quad: np.ndarray, size: int = INDEX_CROP_PX) -> tuple[np.ndarray, np.ndarray]:
    """The two corner-index crops of an ordered card outline, each turned upright.

    First the crop at corner 0 (upper left), then the crop at corner 2 turned half round, which is
    where a standard card prints its second index.
    """
    homography = card_to_image_homography(quad)
    width, height = CARD_MM
    region_width, region_height = INDEX_REGION_MM
    upper_left = np.array([[0, 0], [region_width, 0], [region_width, region_height], [0, region_height]], dtype=np.float32)
    lower_right = np.array([width, height], dtype=np.float32) - upper_left  # turned half round
    crops = []
    for region_mm in (upper_left, lower_right):
        region_px = cv2.perspectiveTransform(region_mm.reshape(-1, 1, 2), homography).reshape(4, 2)
        crops.append(_warp_region(image, region_px, size))
    return crops[0], crops[1]


def rectify_card(image: np.ndarray, quad: np.ndarray, px_per_mm: float = 4.0) -> np.ndarray:
    """The card of an ordered outline warped to an upright rectangle (63 x 88 mm at px_per_mm)."""
    width, height = CARD_MM
    size = (int(round(width * px_per_mm)), int(round(height * px_per_mm)))
    target = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32), target)
    return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def letterbox(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad with grey 114, centred (as ultralytics does): to size x
    size, or with `stride`, only up to the next multiple of it each way (a 16:9 picture at 256 becomes
    256 x 160, not 256 x 256 of which 40 % is grey).

    Returns the padded image, the scale applied and the (x, y) padding; a point p in the padded image
    is (p - padding) / scale in the original.
    """
    height, width = image.shape[:2]
    scale = min(size / height, size / width)
    new_width, new_height = int(round(width * scale)), int(round(height * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (new_width, new_height), interpolation=interpolation) if (new_width, new_height) != (width, height) else image
    padded_width, padded_height = (size, size) if stride is None else (-(-new_width // stride) * stride, -(-new_height // stride) * stride)
    pad_x, pad_y = (padded_width - new_width) / 2, (padded_height - new_height) / 2
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    bottom, right = padded_height - new_height - top, padded_width - new_width - left
    padded = cv2.copyMakeBorder(resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return padded, scale, (float(left), float(top))


def quad_iou(first: np.ndarray, second: np.ndarray) -> float:
    """Intersection over union of two convex outlines."""
    first = np.asarray(first, dtype=np.float32).reshape(-1, 1, 2)
    second = np.asarray(second, dtype=np.float32).reshape(-1, 1, 2)
    area, _ = cv2.intersectConvexConvex(first, second)
    union = cv2.contourArea(first) + cv2.contourArea(second) - area
    return float(area / union) if union > 0 else 0.0


def refine_outline(gray: np.ndarray, quad: np.ndarray, *, search: float = 0.06, samples: int = 14,
                   turn_degrees: float = 0.0) -> np.ndarray:
    """Snap each side of an ordered card outline to the strongest nearby edge, then re-intersect the sides.

    The detector's outline is a rotated rectangle from a small input; the card's own edges in the full
    image are sharper and follow perspective. A side is moved only where most of its samples agree on
    an edge (a side hidden under another card keeps the detector's line). `search` is how far to look
    either side, as a fraction of the card's width: raising it corrects worse outlines and risks
    jumping to a neighbouring card's edge. `turn_degrees`: how far a side may also turn from the rough
    one (a detector's outline a few degrees off): the samples then must agree on a line, not a shift.
    """
    quad = np.asarray(quad, dtype=np.float32)
    height, width = gray.shape[:2]
    card_width = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    reach = max(3.0, search * card_width)
    x0, y0 = np.floor(quad.min(axis=0) - reach - 2).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + reach + 3).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return quad
    patch = cv2.GaussianBlur(gray[y0:y1, x0:x1].astype(np.float32), (0, 0), max(0.8, card_width / 150))
    gradient_x = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gradient_y = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    local = quad - np.array([x0, y0], np.float32)
    center = local.mean(axis=0)
    offsets = np.linspace(-reach, reach, int(2 * reach) + 1, dtype=np.float32)
    lines = []
    for side in range(4):
        start, end = local[side], local[(side + 1) % 4]
        direction = (end - start) / max(np.linalg.norm(end - start), 1e-6)
        normal = np.array([-direction[1], direction[0]], np.float32)
        if np.dot((start + end) / 2 - center, normal) < 0:
            normal = -normal  # pointing out of the card
        along = np.linspace(0.15, 0.85, samples, dtype=np.float32)
        base = start[None, :] + (end - start)[None, :] * along[:, None]
        points = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
        map_x, map_y = points[..., 0].astype(np.float32), points[..., 1].astype(np.float32)
        across = (cv2.remap(gradient_x, map_x, map_y, cv2.INTER_LINEAR) * normal[0] + cv2.remap(gradient_y, map_x, map_y, cv2.INTER_LINEAR) * normal[1])
        strength = np.abs(across)
        best = strength.argmax(axis=1)
        peak = strength[np.arange(samples), best]
        typical = np.median(strength, axis=1) + 1e-3
        agreed = peak > 3 * typical
        found = base + offsets[best][:, None] * normal[None, :]
        if agreed.sum() >= samples * 0.6:
            shift = offsets[best][agreed]
            keep = np.abs(shift - _agreed_line(along[agreed] * float(np.linalg.norm(end - start)), shift, turn_degrees)) <= max(1.5, 0.02 * card_width)
            if keep.sum() >= samples * 0.5:
                chosen = found[agreed][keep]
                vx, vy, px, py = cv2.fitLine(chosen.reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
                lines.append((np.array([px, py], np.float32), np.array([vx, vy], np.float32)))
                continue
        lines.append((start, direction))
    refined = []
    for side in range(4):
        (p1, d1), (p2, d2) = lines[side - 1], lines[side]
        matrix = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(np.linalg.det(matrix)) < 1e-4:
            return quad
        t = np.linalg.solve(matrix, p2 - p1)
        refined.append(p1 + t[0] * d1)
    refined = np.array(refined, np.float32)
    if np.abs(refined - local).max() > 2.5 * reach:
        return quad
    return refined + np.array([x0, y0], np.float32)


def _agreed_line(positions: np.ndarray, shifts: np.ndarray, turn_degrees: float) -> np.ndarray:
    """The edge's shift at each sample on the line most samples agree on: their median shift when the
    side may not turn, else the Theil-Sen line through (position, shift) with its slope held within
    `turn_degrees` (a robust fit: a pip or a neighbour's edge caught by a few samples does not tilt it)."""
    if turn_degrees <= 0 or len(shifts) < 3:
        return np.full_like(shifts, np.median(shifts))
    first, second = np.triu_indices(len(shifts), 1)
    run = positions[second] - positions[first]
    slope = float(np.median((shifts[second] - shifts[first])[run > 0] / run[run > 0]))
    limit = float(np.tan(np.radians(turn_degrees)))
    slope = min(max(slope, -limit), limit)
    return slope * positions + float(np.median(shifts - slope * positions))
