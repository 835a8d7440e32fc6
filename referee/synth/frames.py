"""Turns the scene at one instant into a camera frame and its labels.

Speed comes from working in the table plane: the table with its settled cards is composed once per
change of the piles (a "settled" canvas); each frame only the cards in the air and the hands are drawn
onto a working copy (and wiped again next frame), and one precomputed remap warps the whole canvas
through the camera, lens distortion included.
"""

from __future__ import annotations

import math
import os
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from referee.rules.cards import Card
from referee.sim.script import GameScript
from referee.synth import faces
from referee.synth.camera import Camera, random_camera
from referee.synth.canvas import POKER, CanvasGeometry, blend_into, card_affine, card_outline, darken, draw_card, draw_markers, fill_polygon
from referee.synth.effects import apply_look, make_look, motion_blur
from referee.synth.hands import ArmStyle, HandShape, draw_body, draw_hand_patch, hand_shape, random_style, shoulder_point
from referee.sim.script import Place
from referee.synth.scene import HandPose, MovingCard, Pose, Scene, SceneState, TableCard, all_table_cards, visible_pile_cards
from referee.synth.surfaces import table_surface
from referee.table.layout import TableLayout

#: table area (mm) the working canvas may cover at most, around the play area
MAX_MARGIN_MM = 950.0
#: the working canvas's resolution is lowered until it has at most this many pixels
MAX_CANVAS_PIXELS = 9_000_000
#: the table texture is generated with at most this many pixels, then scaled to the canvas
TEXTURE_PIXELS = 3_000_000
#: id of the hands in the occlusion buffer
_HAND_ID = 65535
#: A hand as the camera sees it (`TableRenderer._hand_heights`): its palm this far (mm) over its `lift`;
#: its fingertips FINGERTIP_MM under its lift (at least 2 mm up), FINGER_REACH_MM beyond the palm's
#: centre; its arm rising ARM_RISE mm a mm behind the palm, to ARM_HIGHEST mm.
HAND_OUTLINE_MM = 5.0
FINGERTIP_MM = 20.0
FINGER_REACH_MM = 80.0
ARM_RISE = 0.35
ARM_HIGHEST = 250.0
#: exposure time as a fraction of the frame interval (for motion blur)
SHUTTER = 0.5
#: the settled canvas is redrawn whole at every multiple of this frame index (see _sync_settled);
#: frames are handed to parallel workers in chunks aligned to it
REBUILD_EVERY = 32
#: spacing (image px) of the grid on which the camera's pixel-to-table mapping is solved exactly
MAP_STEP = 8
#: how far a card's shadow reaches beyond its outline (mm)
SHADOW_PAD_MM = 12.0


@dataclass
class Layer:
    """Something laid over the table: its colour and alpha in `box`, its shadow in `extent` (canvas px)."""

    box: tuple[int, int, int, int]
    colour: np.ndarray
    alpha: np.ndarray
    extent: tuple[int, int, int, int]
    shadow: np.ndarray

    @property
    def reach(self) -> tuple[int, int, int, int]:
        """The canvas box that holds both the thing and its shadow (apart when it is seen from above)."""
        return (min(self.box[0], self.extent[0]), min(self.box[1], self.extent[1]),
                max(self.box[2], self.extent[2]), max(self.box[3], self.extent[3]))

    def apply(self, target: np.ndarray, origin: tuple[int, int]) -> None:
        """Darkens the shadow, then blends the colour, into `target`, whose pixel (0, 0) is canvas `origin`."""
        for box, apply in ((self.extent, self._shadow), (self.box, self._colour)):
            x0, y0, x1, y1 = box
            tx0, ty0 = max(x0 - origin[0], 0), max(y0 - origin[1], 0)
            tx1, ty1 = min(x1 - origin[0], target.shape[1]), min(y1 - origin[1], target.shape[0])
            if tx1 <= tx0 or ty1 <= ty0:
                continue
            source = (slice(ty0 + origin[1] - y0, ty1 + origin[1] - y0), slice(tx0 + origin[0] - x0, tx1 + origin[0] - x0))
            apply(target, (tx0, ty0, tx1, ty1), source)

    def _shadow(self, target: np.ndarray, box: tuple[int, int, int, int], source: tuple[slice, slice]) -> None:
        darken(target, box, self.shadow[source])

    def _colour(self, target: np.ndarray, box: tuple[int, int, int, int], source: tuple[slice, slice]) -> None:
        blend_into(target, box, self.colour[source], self.alpha[source])


def _seed(*parts: object) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


class TableRenderer:
    """Renders frames of one game, seen by one camera, in one look (designs, table, light) drawn from `seed`."""

    def __init__(self, script: GameScript, *, size: str = "720p", fps: int = 30, seed: int = 0,
                 layout: TableLayout | None = None, camera: Camera | None = None, design: str | None = None,
                 scene: object | None = None, max_px_per_mm: float = 2.75, people: bool = True, markers: bool = True,
                 parallax: bool | None = None, card_mm: tuple[float, float] = POKER) -> None:
        """`scene` replaces the game's timeline with any object with a `state(t) -> SceneState` (still
        scenes for datasets); `max_px_per_mm` caps the working canvas's resolution (close-up cameras
        want more); `people` and `markers` switch off the players' bodies and the ArUco sheets.
        `parallax`: hands and cards in the air are drawn where the camera sees them, displaced from the
        table point beneath them by their height (see `_seen_from_above`); their shadows stay on the table.
        Default: the environment's REFEREE_PARALLAX (1 or 0), else off (the renders benchmarks measured).
        `card_mm`: the cards' size on the table (`canvas.CARD_SIZES`), each face drawn at the poker size and
        stretched to it."""
        self.layout = layout or TableLayout()
        self.card_mm = card_mm
        self.fps = fps
        self.seed = seed
        self.max_px_per_mm = max_px_per_mm
        self.people, self.markers = people, markers
        self.parallax = os.environ.get("REFEREE_PARALLAX", "0") == "1" if parallax is None else parallax
        rng = np.random.default_rng(_seed("render", seed))
        self.scene = scene if scene is not None else Scene(script, self.layout, seed=seed)
        self.camera = camera or random_camera(np.random.default_rng(_seed("camera", seed)), size, self.layout)
        drawn_design = faces.DESIGNS[int(rng.integers(len(faces.DESIGNS)))]  # drawn even when given, so what follows is the same
        self.design = design or drawn_design
        backs = faces.back_designs()
        own_back = self.design if faces.own_back(self.design) else None
        self.back_design = own_back if own_back and rng.random() < 0.7 else backs[int(rng.integers(len(backs)))]
        self.styles: dict[str, ArmStyle] = {player: random_style(rng) for player in ("A", "B")}
        self.light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)]) * rng.uniform(0.15, 0.45)  # shadow offset per mm of height
        self.geometry = self._canvas_geometry()
        self.card_px_per_mm = self.geometry.px_per_mm
        self.static = self._static_canvas(rng)
        self.settled = self.static.copy()
        self.work = self.static.copy()
        self._signature: dict | None = None
        self._piles: dict = {}
        self._resting_cache: dict = {}
        self._resting: tuple = ()
        self._dirty: list[tuple[int, int, int, int]] = []
        self._card_cache: dict[tuple[str, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._shade_cache: dict[str, np.ndarray] = {}
        self.map_fixed, self.map_fraction = self._maps()
        self.look = make_look(np.random.default_rng(_seed("look", seed)), self.camera.width, self.camera.height)
        self.floor = tuple(int(v) for v in rng.uniform(20, 70, 3))
        self._label_geometry = CanvasGeometry((-100.0, -100.0), 1.0, int(self.layout.width + 200), int(self.layout.height + 200))

    # ------------------------------------------------------------------ set-up

    def _canvas_geometry(self) -> CanvasGeometry:
        camera, layout = self.camera, self.layout
        w, h = camera.width, camera.height
        border = np.array([(x, y) for x in np.linspace(0, w - 1, 17) for y in (0, h - 1)] +
                          [(x, y) for y in np.linspace(0, h - 1, 11) for x in (0, w - 1)], np.float64)
        seen = camera.unproject(border)
        # the densest part of the view (nearest the lens) sets the resolution, capped
        inside = [tuple(p) for p in seen if -MAX_MARGIN_MM < p[0] < layout.width + MAX_MARGIN_MM and -MAX_MARGIN_MM < p[1] < layout.height + MAX_MARGIN_MM]
        density = max(camera.px_per_mm_at(point) for point in list(layout.corners()) + inside)
        px_per_mm = float(min(self.max_px_per_mm, max(1.25, round(density * 1.4 * 4) / 4)))
        low = np.maximum(seen.min(axis=0) - 20, [-MAX_MARGIN_MM, -MAX_MARGIN_MM])
        high = np.minimum(seen.max(axis=0) + 20, [layout.width + MAX_MARGIN_MM, layout.height + MAX_MARGIN_MM])
        while (high - low).prod() * px_per_mm ** 2 > MAX_CANVAS_PIXELS and px_per_mm > 1.0:
            px_per_mm = max(1.0, px_per_mm - 0.25)
        size = np.ceil((high - low) * px_per_mm).astype(int)
        return CanvasGeometry((float(low[0]), float(low[1])), px_per_mm, int(size[0]), int(size[1]))

    def _static_canvas(self, rng: np.random.Generator) -> np.ndarray:
        g = self.geometry
        # a big canvas (a close-up camera) gets its texture made smaller and scaled up: same look, less time
        shrink = min(1.0, math.sqrt(TEXTURE_PIXELS / (g.width * g.height)))
        canvas = table_surface(rng, max(2, int(g.width * shrink)), max(2, int(g.height * shrink)))
        if shrink < 1.0:
            canvas = cv2.resize(canvas, (g.width, g.height), interpolation=cv2.INTER_LINEAR)
        # the table's own edges, somewhere beyond the play area, and the floor past them
        margins = rng.uniform(120, 450, 4)
        table = np.array([[-margins[0], -margins[1]], [self.layout.width + margins[2], -margins[1]],
                          [self.layout.width + margins[2], self.layout.height + margins[3]], [-margins[0], self.layout.height + margins[3]]])
        floor_colour = rng.uniform(25, 80, 3)
        floor = np.clip(floor_colour * (1 + 0.1 * rng.normal(0, 1, (g.height // 8 + 1, g.width // 8 + 1, 1))), 0, 255).astype(np.uint8)
        floor = cv2.resize(floor, (g.width, g.height), interpolation=cv2.INTER_LINEAR)
        inside = np.zeros((g.height, g.width), np.uint8)
        fill_polygon(inside, g, table, 255)
        inside = inside.astype(np.float32)[..., None] / 255.0
        canvas = (canvas * inside + floor * (1 - inside)).astype(np.uint8)
        if self.markers:
            draw_markers(canvas, g, self.layout, rng)
        for player, edge_y in (("A", 0.0), ("B", self.layout.height)) if self.people else ():
            draw_body(canvas, g, player, self.layout.width / 2, edge_y, self.styles[player], np.random.default_rng(_seed("body", self.seed, player)))
        return canvas

    def _maps(self) -> tuple[np.ndarray, np.ndarray]:
        """Image pixel -> canvas pixel. The mapping is smooth, so it is solved exactly on a grid every
        MAP_STEP pixels and interpolated between (error far below 0.01 px)."""
        camera, g = self.camera, self.geometry
        step = MAP_STEP
        grid_x = np.arange(0, camera.width + step, step, dtype=np.float64)
        grid_y = np.arange(0, camera.height + step, step, dtype=np.float64)
        xs, ys = np.meshgrid(grid_x, grid_y)
        canvas = g.to_px(camera.unproject(np.column_stack([xs.ravel(), ys.ravel()]))).reshape(len(grid_y), len(grid_x), 2)
        # bilinear interpolation of the grid at every pixel (pixel p lies at grid coordinate p / step)
        column, row = np.arange(camera.width) / step, np.arange(camera.height) / step
        c0, r0 = np.floor(column).astype(int), np.floor(row).astype(int)
        cw, rw = (column - c0)[None, :, None], (row - r0)[:, None, None]
        top = canvas[r0][:, c0] * (1 - cw) + canvas[r0][:, c0 + 1] * cw
        bottom = canvas[r0 + 1][:, c0] * (1 - cw) + canvas[r0 + 1][:, c0 + 1] * cw
        full = (top * (1 - rw) + bottom * rw).astype(np.float32)
        maps = [np.ascontiguousarray(full[..., 0]), np.ascontiguousarray(full[..., 1])]
        return cv2.convertMaps(maps[0], maps[1], cv2.CV_16SC2)

    # ------------------------------------------------------------------ cards

    def card_images(self, card: Card, face_up: bool) -> tuple[np.ndarray, np.ndarray]:
        key = (str(card), face_up)
        if key not in self._card_cache:
            image = faces.card_face(card, self.design, self.card_px_per_mm) if face_up else faces.card_back(self.back_design, self.card_px_per_mm)
            self._card_cache[key] = (image, faces.card_mask(self.card_px_per_mm))
        return self._card_cache[key]

    def card_shade(self, card: Card) -> np.ndarray:
        """This physical card's wear: a slight bend (light falling off across it), dirt, now and then glare."""
        key = str(card)
        if key not in self._shade_cache:
            rng = np.random.default_rng(_seed("wear", self.seed, key))
            width, height = faces.card_size_px(self.card_px_per_mm)
            ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
            u, v = xs / width - 0.5, ys / height - 0.5
            angle = rng.uniform(0, math.pi)
            along = u * math.cos(angle) + v * math.sin(angle)
            shade = 1.0 + rng.uniform(-0.08, 0.08) * along + rng.uniform(-0.06, 0.02) * (along ** 2) * 4
            shade *= rng.uniform(0.93, 1.03)
            for _ in range(int(rng.integers(0, 3))):  # smudges
                cx, cy, r = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.05, 0.2)
                shade *= 1 - rng.uniform(0.02, 0.06) * np.exp(-((u - cx) ** 2 + (v - cy) ** 2) / (r * r))
            if rng.random() < 0.12:  # glare from the lamp on a glossy card
                offset = rng.uniform(-0.4, 0.4)
                shade += rng.uniform(0.15, 0.4) * np.exp(-((along - offset) ** 2) / 0.01)
            self._shade_cache[key] = shade.astype(np.float32)
        return self._shade_cache[key]

    def _outline(self, pose: Pose, flip: float = 1.0) -> np.ndarray:
        """A card's four corners on the table at this renderer's card size (`canvas.card_outline`)."""
        return card_outline(pose, flip, self.card_mm)

    def _draw_table_card(self, canvas: np.ndarray, table_card: TableCard) -> None:
        image, mask = self.card_images(table_card.card, table_card.face_up)
        draw_card(canvas, self.geometry, image, mask, self.card_px_per_mm, table_card.pose, shade=self.card_shade(table_card.card),
                  card_mm=self.card_mm)

    def _pile_cards(self, state: SceneState) -> dict[Place, tuple[TableCard, ...]]:
        return {place: tuple(visible_pile_cards(cards)) for place, cards in state.piles.items() if cards}

    def _sync_settled(self, state: SceneState, frame_index: int) -> None:
        """Brings the settled canvas (table, cards lying still, hands waiting at the edges) up to `state`,
        redrawing only the boxes where something changed. Every REBUILD_EVERY frames it is redrawn whole,
        so a frame's pixels depend only on its index, never on which frames a worker rendered before it."""
        piles = self._pile_cards(state)
        resting = tuple(h for h in state.hands if h.resting)
        signature = {place: tuple((str(c.card), c.face_up, c.pose) for c in cards) for place, cards in piles.items()}
        signature.update({("hand", h.player, h.hand): (h.x, h.y) for h in resting})
        if self._signature is None or frame_index % REBUILD_EVERY == 0:
            self.settled = self.static.copy()
            self._redraw((0, 0, self.geometry.width, self.geometry.height), piles, resting)
            self.work = self.settled.copy()
        else:
            # sorted: set order follows Python's per-process string hashing, and the output must not
            changed = sorted((key for key in set(signature) | set(self._signature) if signature.get(key) != self._signature.get(key)), key=str)
            if not changed:
                return
            boxes = []
            outlines = [self._outline(c.pose) for key in changed if isinstance(key, Place) for c in self._piles.get(key, ()) + piles.get(key, ())]
            if outlines:
                boxes.append(self.geometry.box(np.concatenate(outlines), pad_mm=SHADOW_PAD_MM))
            for hand in self._resting + resting:
                if ("hand", hand.player, hand.hand) in changed:
                    boxes.append(self._resting_layer(hand).reach)
            for box in boxes:
                if box is not None:
                    self._redraw(box, piles, resting)
                    x0, y0, x1, y1 = box  # the working copy equals the settled one outside these boxes
                    self.work[y0:y1, x0:x1] = self.settled[y0:y1, x0:x1]
        self._signature, self._piles, self._resting = signature, piles, resting

    def _redraw(self, box: tuple[int, int, int, int], piles: dict[Place, tuple[TableCard, ...]], resting: tuple[HandPose, ...]) -> None:
        """Redraws one box of the settled canvas from the bare table: shadows, cards bottom to top, waiting hands."""
        g = self.geometry
        x0, y0, x1, y1 = box
        region = self.static[y0:y1, x0:x1].copy()
        sub = CanvasGeometry((g.origin[0] + x0 / g.px_per_mm, g.origin[1] + y0 / g.px_per_mm), g.px_per_mm, x1 - x0, y1 - y0)
        cards = []
        for place in sorted(piles, key=str):
            for card in piles[place]:
                if sub.box(self._outline(card.pose), pad_mm=SHADOW_PAD_MM) is not None:
                    cards.append(card)
        if cards:
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            shift = self.light * 2.0  # cards lie 1-2 mm proud of the table, with their own thickness
            for card in cards:
                fill_polygon(mask, sub, self._outline(card.pose) + shift, 255)
            shadow = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), max(0.8, 1.5 * g.px_per_mm)) * np.float32(0.35)
            darken(region, (0, 0, x1 - x0, y1 - y0), shadow)
            for card in cards:
                image, card_mask = self.card_images(card.card, card.face_up)
                draw_card(region, sub, image, card_mask, self.card_px_per_mm, card.pose, shade=self.card_shade(card.card),
                          card_mm=self.card_mm)
        for hand in resting:
            self._resting_layer(hand).apply(region, (x0, y0))
        self.settled[y0:y1, x0:x1] = region

    def _resting_layer(self, hand: HandPose) -> "Layer":
        key = (hand.player, hand.hand, hand.x, hand.y)
        if key not in self._resting_cache:
            self._resting_cache[key] = self._hand_layer(hand, (0.0, 0.0))
        return self._resting_cache[key]

    # ------------------------------------------------------------------ moving things

    def _card_patch(self, moving: MovingCard) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None:
        g = self.geometry
        box = g.box(self._outline(moving.pose, max(moving.flip, 0.02)), pad_mm=3.0)
        if box is None:
            return None
        x0, y0, x1, y1 = box
        image, mask = self.card_images(moving.card, moving.face_up)
        shade = self.card_shade(moving.card) * np.float32(1.0 + 0.002 * moving.lift)
        source = np.clip(image.astype(np.float32) * shade[..., None], 0, 255)
        matrix = card_affine(moving.pose, self.card_px_per_mm, g, (x0, y0), max(moving.flip, 0.02), self.card_mm)
        size = (x1 - x0, y1 - y0)
        colour = cv2.warpAffine(source, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        alpha = cv2.warpAffine(mask.astype(np.float32) / 255.0, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        return box, colour, alpha

    def _layer(self, patch: tuple[tuple[int, int, int, int], np.ndarray, np.ndarray], lift: float, velocity_mm: tuple[float, float],
               seen_at=None) -> "Layer":
        """Motion blur and shadow of one patch, ready to lay on any canvas. `lift`: the height its shadow is
        cast from; `seen_at`: the height (mm, or a function, see `_seen_from_above`) at which the camera
        sees it (default `lift`)."""
        g = self.geometry
        box, colour, alpha = patch
        x0, y0, x1, y1 = box
        scale = alpha.shape[1] / (x1 - x0)  # patches may come at a lower resolution than the canvas
        displacement = (velocity_mm[0] * SHUTTER / self.fps * g.px_per_mm * scale, velocity_mm[1] * SHUTTER / self.fps * g.px_per_mm * scale)
        colour, alpha = motion_blur(colour, alpha, displacement)
        if alpha.shape != (y1 - y0, x1 - x0):
            colour = cv2.resize(colour, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
            alpha = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        # shadow: the patch's alpha, moved away from the light by its height and softened by it
        shift = self.light * max(lift, 1.0) * g.px_per_mm
        sigma = max(1.0, (0.6 + 0.05 * lift) * g.px_per_mm)
        pad = int(abs(shift).max() + 3 * sigma) + 1
        sx0, sy0 = max(0, x0 - pad), max(0, y0 - pad)
        sx1, sy1 = min(g.width, x1 + pad), min(g.height, y1 + pad)
        matrix = np.array([[1, 0, x0 - sx0 + shift[0]], [0, 1, y0 - sy0 + shift[1]]], np.float32)
        shadow = cv2.warpAffine(alpha, matrix, (sx1 - sx0, sy1 - sy0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        strength = np.float32(max(0.12, 0.4 - 0.003 * lift))
        if sigma > 2.5:  # a wide blur is as good at half size, and four times cheaper
            small = cv2.resize(shadow, ((sx1 - sx0 + 1) // 2, (sy1 - sy0 + 1) // 2), interpolation=cv2.INTER_AREA)
            shadow = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 2), (sx1 - sx0, sy1 - sy0), interpolation=cv2.INTER_LINEAR) * strength
        else:
            shadow = cv2.GaussianBlur(shadow, (0, 0), sigma) * strength
        if self.parallax:
            box, colour, alpha = self._seen_from_above(box, colour, alpha, lift if seen_at is None else seen_at)
        return Layer(box, colour, alpha, (sx0, sy0, sx1, sy1), shadow)

    def _seen_from_above(self, box: tuple[int, int, int, int], colour: np.ndarray, alpha: np.ndarray, height):
        """A patch drawn flat at the table point beneath it, moved to where the camera sees it above the
        table. The canvas is the table plane, remapped to the image, and a point at height h lies on the
        camera's ray through the table point c + (p - c) H / (H - h), c beneath the lens, H its height: a
        hand 30 mm up, 600 mm from beneath a camera 1 m up, is drawn 19 mm further out. `height`: mm, or a
        function of canvas pixel indices (x, y arrays) giving each point's height (a hand: fingertips low
        on the card they hold, the arm rising behind the palm)."""
        g = self.geometry
        lens = self.camera.position
        top = float(lens[2])
        x0, y0, x1, y1 = box
        # the point beneath the lens, in canvas pixel indices (pixel centres at whole numbers, as `to_px`)
        cx, cy = (lens[0] - g.origin[0]) * g.px_per_mm - 0.5, (lens[1] - g.origin[1]) * g.px_per_mm - 0.5

        def ratio(h):
            return top / np.maximum(top - np.clip(h, 0.0, top - 1.0), 1.0)

        if callable(height):
            heights = height(np.linspace(x0, x1, 9)[None, :].repeat(9, 0), np.linspace(y0, y1, 9)[:, None].repeat(9, 1))
            lowest, highest = float(heights.min()), float(heights.max())
        else:
            lowest = highest = float(height)
        if highest <= 1e-6:
            return box, colour, alpha
        reach = [(cx + (x - cx) * r, cy + (y - cy) * r) for x in (x0, x1) for y in (y0, y1) for r in (ratio(lowest), ratio(highest))]
        nx0, ny0 = (int(np.floor(min(p[i] for p in reach))) for i in (0, 1))
        nx1, ny1 = (int(np.ceil(max(p[i] for p in reach))) + 1 for i in (0, 1))
        # what is moved off the canvas is out of the camera's view
        nx0, ny0, nx1, ny1 = max(nx0, 0), max(ny0, 0), min(nx1, g.width), min(ny1, g.height)
        if nx1 <= nx0 or ny1 <= ny0:
            return (0, 0, 1, 1), colour[:1, :1] * 0, alpha[:1, :1] * 0
        xs, ys = np.meshgrid(np.arange(nx0, nx1, dtype=np.float32), np.arange(ny0, ny1, dtype=np.float32))
        # each pixel drawn shows the point of the patch whose ray reaches it: p = c + (p' - c) (H - h(p)) / H,
        # solved by a few steps from h at p' (heights change slowly across a patch)
        sx, sy = xs, ys
        for _ in range(3 if callable(height) else 1):
            h = height(sx, sy) if callable(height) else height
            shrink = 1.0 / ratio(h)
            sx, sy = cx + (xs - cx) * shrink, cy + (ys - cy) * shrink
        map_x, map_y = (sx - x0).astype(np.float32), (sy - y0).astype(np.float32)
        colour = cv2.remap(colour, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        alpha = cv2.remap(alpha, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        return (nx0, ny0, nx1, ny1), colour, alpha

    def _hand_heights(self, hand: HandPose):
        """Heights (mm) over a hand's patch, as a function of canvas pixel indices: the palm at its lift
        (plus HAND_OUTLINE_MM), the fingers coming down to FINGERTIP_MM under it where they pinch a card, the
        arm rising behind the palm towards the shoulder (ARM_RISE mm a mm, up to ARM_HIGHEST)."""
        g = self.geometry
        shoulder = shoulder_point(self.layout, hand.player, hand.hand)
        palm = np.array([hand.x, hand.y])
        direction = (palm - shoulder) / max(1e-6, float(np.linalg.norm(palm - shoulder)))
        palm_height = hand.lift + HAND_OUTLINE_MM
        tip_height = max(2.0, hand.lift - FINGERTIP_MM)
        origin = np.array(g.origin, np.float64)

        def heights(x, y):
            along = ((np.asarray(x) + 0.5) / g.px_per_mm + origin[0] - palm[0]) * direction[0] + \
                    ((np.asarray(y) + 0.5) / g.px_per_mm + origin[1] - palm[1]) * direction[1]
            fingers = palm_height + (tip_height - palm_height) * np.clip(along / FINGER_REACH_MM, 0.0, 1.0)
            arm = np.minimum(palm_height + ARM_RISE * np.maximum(-along, 0.0), max(ARM_HIGHEST, palm_height))
            return np.where(along > 0, fingers, arm).astype(np.float32)
        return heights

    def _lay(self, patch: tuple[tuple[int, int, int, int], np.ndarray, np.ndarray], lift: float, velocity_mm: tuple[float, float]) -> None:
        layer = self._layer(patch, lift, velocity_mm)
        layer.apply(self.work, (0, 0))
        self._dirty.append(layer.reach)

    def _hand_layer(self, hand: HandPose, velocity: tuple[float, float]) -> "Layer | None":
        patch = draw_hand_patch(self.geometry, self._hand_shape(hand), self.styles[hand.player], _seed("hand", self.seed, hand.player, hand.hand))
        # its shadow is cast from the back of the hand; its outline, seen from above, is the fingers' and the
        # palm's edges, lower down (a hand carrying a card pinches it a few mm over the table)
        return None if patch is None else self._layer(patch, hand.lift + 20, velocity, seen_at=self._hand_heights(hand))

    def _lay_hand(self, hand: HandPose, velocity: tuple[float, float]) -> None:
        layer = self._hand_layer(hand, velocity)
        if layer is not None:
            layer.apply(self.work, (0, 0))
            self._dirty.append(layer.reach)

    def _hand_shape(self, hand) -> HandShape:
        return hand_shape(hand, shoulder_point(self.layout, hand.player, hand.hand), self.styles[hand.player])

    # ------------------------------------------------------------------ frames

    def state(self, frame_index: int) -> SceneState:
        return self.scene.state(frame_index / self.fps)

    def render(self, frame_index: int) -> tuple[np.ndarray, dict]:
        """The camera image (BGR uint8) of frame `frame_index` and its labels."""
        t = frame_index / self.fps
        state = self.scene.state(t)
        earlier = self.scene.state(t - SHUTTER / self.fps)
        for x0, y0, x1, y1 in self._dirty:
            self.work[y0:y1, x0:x1] = self.settled[y0:y1, x0:x1]
        self._dirty = []
        self._sync_settled(state, frame_index)
        before_cards = {str(m.card): m.pose for m in earlier.moving}
        for moving in sorted(state.moving, key=lambda m: m.lift):
            patch = self._card_patch(moving)
            if patch is None:
                continue
            previous = before_cards.get(str(moving.card), moving.pose)
            velocity = ((moving.pose.x - previous.x) * self.fps / SHUTTER, (moving.pose.y - previous.y) * self.fps / SHUTTER)
            self._lay(patch, moving.lift, velocity)
        before_hands = {(h.player, h.hand): h for h in earlier.hands}
        shapes = []
        for hand in state.hands:
            shapes.append((hand, self._hand_shape(hand)))
            if hand.resting:
                continue
            previous = before_hands.get((hand.player, hand.hand), hand)
            velocity = ((hand.x - previous.x) * self.fps / SHUTTER, (hand.y - previous.y) * self.fps / SHUTTER)
            self._lay_hand(hand, velocity)
        view = cv2.remap(self.work, self.map_fixed, self.map_fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=self.floor)
        image = apply_look(view, self.look, t, frame_index)
        return image, self.labels(state, shapes, frame_index)

    # ------------------------------------------------------------------ labels

    def labels(self, state: SceneState, shapes: list[tuple[object, HandShape]], frame_index: int) -> dict:
        """Every card drawn this frame (outline, corner-index boxes, identity, occlusion) and every hand."""
        lg = self._label_geometry
        ids = np.zeros((lg.height, lg.width), np.uint16)
        drawn = all_table_cards(state)
        flips = [max(getattr(card, "flip", 1.0), 0.02) for _, card in drawn]
        outlines = [self._outline(card.pose, flip) for (_, card), flip in zip(drawn, flips)]
        for k, outline in enumerate(outlines, start=1):
            cv2.fillConvexPoly(ids, lg.to_fixed(outline), k, cv2.LINE_8, 4)
        hulls = []
        for _, shape in shapes:
            for start, end, width in shape.arm + shape.fingers:
                direction = (end - start) / max(1e-6, np.linalg.norm(end - start))
                normal = np.array([-direction[1], direction[0]]) * width / 2
                quad = np.array([start + normal, end + normal, end - normal, start - normal])
                cv2.fillConvexPoly(ids, lg.to_fixed(quad), _HAND_ID, cv2.LINE_8, 4)
            hull = cv2.convexHull(shape.outline_points().astype(np.float32)).reshape(-1, 2).astype(np.float64)
            cv2.fillConvexPoly(ids, lg.to_fixed(hull), _HAND_ID, cv2.LINE_8, 4)
            hulls.append(hull)
        counts = np.bincount(ids.ravel(), minlength=len(drawn) + 1)
        face_up = [bool(card.face_up) and flip > 0.5 for (_, card), flip in zip(drawn, flips)]
        boxes = [self._index_box_corners(card.pose, flip) for (_, card), flip, up in zip(drawn, flips, face_up) if up]
        # one projection for every point of the frame, each at the height it is drawn at (with parallax: a
        # card in the air at its lift, a hand as `_hand_heights` has it; else all on the table)
        pieces = outlines + [corners for pair in boxes for corners in pair] + hulls
        card_heights = [float(card.lift) if self.parallax and place is None else 0.0 for place, card in drawn]
        heights = [np.full(4, h) for h in card_heights] + [np.full(4, h) for h, up in zip(card_heights, face_up) if up for _ in range(2)] + [
            self._hand_heights(hand)(*self.geometry.to_px(hull).T).astype(np.float64) if self.parallax else np.zeros(len(hull))
            for (hand, _), hull in zip(shapes, hulls)]
        projected = self.camera.project(np.concatenate(pieces), np.concatenate(heights)) if pieces else np.zeros((0, 2))
        cursor = 0
        quads = []
        for _ in outlines:
            quads.append(projected[cursor: cursor + 4])
            cursor += 4
        index_px = []
        for _ in boxes:
            index_px.append((projected[cursor: cursor + 4], projected[cursor + 4: cursor + 8]))
            cursor += 8
        hull_px = []
        for hull in hulls:
            hull_px.append(projected[cursor: cursor + len(hull)])
            cursor += len(hull)
        cards_out = []
        box_number = 0
        for k, ((place, card), outline, quad, up) in enumerate(zip(drawn, outlines, quads, face_up), start=1):
            d1, d2 = outline[2] - outline[0], outline[3] - outline[1]
            area = abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2  # mm^2 = px at 1 px/mm
            visible = float(counts[k]) / max(area, 1.0)
            if visible < 0.002 and place is not None:  # buried in its pile: nothing of it can be seen
                if up:
                    box_number += 1
                continue
            entry = {
                "card": str(card.card),
                "face_up": up,
                "place": str(place) if place is not None else "moving",
                "quad": np.round(quad, 1).tolist(),
                "occlusion": round(float(min(1.0, max(0.0, 1.0 - visible))), 3),
            }
            if up:
                entry["index_boxes"] = [
                    {"box": _bounds(px), "quad": np.round(px, 1).tolist(), "visible": _visible_fraction(ids, lg, table, k)}
                    for table, px in zip(boxes[box_number], index_px[box_number])
                ]
                box_number += 1
            cards_out.append(entry)
        hands_out = [{"player": hand.player, "hand": hand.hand, "box": _bounds(px), "polygon": np.round(px, 1).tolist()}
                     for (hand, _), px in zip(shapes, hull_px)]
        return {"frame": frame_index, "t": round(frame_index / self.fps, 6), "cards": cards_out, "hands": hands_out}

    def _index_box_corners(self, pose: Pose, flip: float) -> tuple[np.ndarray, np.ndarray]:
        """The two corner-index boxes of a face-up card, as quads in the table frame."""
        x0, y0, x1, y1 = faces.index_box_mm(self.design)  # on the poker-size face, stretched to the card's size
        w, h = faces.CARD_WIDTH_MM, faces.CARD_HEIGHT_MM
        a = math.radians(pose.angle)
        right = np.array([math.cos(a), math.sin(a)]) * flip * (self.card_mm[0] / w)
        down = np.array([math.sin(a), -math.cos(a)]) * (self.card_mm[1] / h)
        centre = np.array([pose.x, pose.y])
        out = []
        for corners in (((x0, y0), (x1, y0), (x1, y1), (x0, y1)), ((w - x1, h - y1), (w - x0, h - y1), (w - x0, h - y0), (w - x1, h - y0))):
            uv = np.array(corners) - np.array([w / 2, h / 2])
            out.append(centre + uv[:, :1] * right + uv[:, 1:] * down)
        return out[0], out[1]


_GRID = np.linspace(0.1, 0.9, 5)
_GRID_I, _GRID_J = [a.ravel() for a in np.meshgrid(_GRID, _GRID)]


def _bounds(px: np.ndarray) -> list[float]:
    return [round(float(px[:, 0].min()), 1), round(float(px[:, 1].min()), 1), round(float(px[:, 0].max()), 1), round(float(px[:, 1].max()), 1)]


def _visible_fraction(ids: np.ndarray, geometry: CanvasGeometry, quad: np.ndarray, k: int) -> float:
    """Share of a 5x5 grid of points inside `quad` (table mm) where card k is on top in the id buffer."""
    grid = quad[0] + np.outer(_GRID_I, quad[1] - quad[0]) + np.outer(_GRID_J, quad[3] - quad[0])
    cells = np.round(geometry.to_px(grid)).astype(int)
    inside = (cells[:, 0] >= 0) & (cells[:, 0] < geometry.width) & (cells[:, 1] >= 0) & (cells[:, 1] < geometry.height)
    seen = np.zeros(len(cells), bool)
    seen[inside] = ids[cells[inside, 1], cells[inside, 0]] == k
    return round(float(seen.mean()), 2)
