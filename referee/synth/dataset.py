"""Training data from the synthetic table, in ultralytics (YOLO) layouts.

Two sources of labelled images:
- frames of rendered games (`render_game` output folders: video.mp4 + labels.jsonl), and
- still scenes: many random cards scattered, fanned and overlapping on varied surfaces, seen by random
  cameras from close up to far away, with a hand or two over them now and then.

Two layouts:
- detection: images/{train,val}/*.jpg, labels/{train,val}/*.txt, data.yaml. A box per visible corner
  index (`target="index"`, classes = the 52 cards) or per card outline (`target="card"`).
- classification: {train,val}/<card>/*.png, upright crops of corner indices (rank over suit pip).

    python -m referee.synth.dataset --out data/synth --stills 400 --games 2 --size 720p
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import zlib
from dataclasses import dataclass
from typing import Iterable, Iterator

import cv2
import numpy as np

from referee.rules.cards import full_deck
from referee.sim.script import GameScript, Place, PlaceKind
from referee.synth.camera import CameraPose, image_size, make_camera
from referee.synth.frames import TableRenderer
from referee.synth.scene import HandPose, Pose, SceneState, TableCard
from referee.table.layout import TableLayout

#: class index -> card, in full_deck() order (spades, hearts, diamonds, clubs; 2 up to A)
CLASS_NAMES: tuple[str, ...] = tuple(str(card) for card in full_deck())
_CLASS_OF = {name: index for index, name in enumerate(CLASS_NAMES)}
#: a corner index is labelled only when at least this share of it is in sight (raising it drops
#: half-covered indices from the training set; lowering it teaches the model to guess from scraps)
MIN_INDEX_VISIBLE = 0.7
#: a card outline is labelled only when at most this share of it is covered
MAX_CARD_OCCLUSION = 0.6
#: size of an index crop for classification (width, height) px: rank above suit, as printed
CROP_SIZE = (48, 80)

Sample = tuple[np.ndarray, dict]


@dataclass(frozen=True)
class DatasetSummary:
    folder: pathlib.Path
    images: int
    boxes: int
    crops: int


# ---------------------------------------------------------------------- still scenes


class StillScene:
    """A fixed arrangement of cards (and maybe hands) on the table: `state(t)` ignores t."""

    def __init__(self, piles: dict[Place, list[TableCard]], hands: list[HandPose]) -> None:
        self._state = SceneState(0.0, piles, [], hands, (0, 0))

    def state(self, t: float) -> SceneState:
        return SceneState(t, {place: list(cards) for place, cards in self._state.piles.items()}, [], list(self._state.hands), (0, 0))


def random_still(rng: np.random.Generator, layout: TableLayout) -> StillScene:
    """Cards as they lie on a table after a game or during one: loose, in fanned groups, in messy piles."""
    deck = full_deck()
    order = rng.permutation(len(deck))
    cards = [deck[i] for i in order[: int(rng.integers(8, 40))]]
    piles: dict[Place, list[TableCard]] = {}
    position = 0
    group = 0
    while position < len(cards):
        size = int(rng.choice([1, 1, 2, 3, 4, 5, 7]))
        members = cards[position: position + size]
        position += size
        x, y = rng.uniform(40, layout.width - 40), rng.uniform(40, layout.height - 40)
        angle = rng.uniform(0, 360)
        style = rng.random()
        step = rng.uniform(12, 22)
        direction = rng.uniform(0, 2 * math.pi)
        pile = []
        for k, card in enumerate(members):
            if style < 0.45:  # fanned, indices showing as in a hand of cards
                pose = Pose(x + k * step * math.cos(direction), y + k * step * math.sin(direction), angle + k * rng.normal(6, 3))
            elif style < 0.75:  # a messy pile
                pose = Pose(x + rng.normal(0, 6), y + rng.normal(0, 6), angle + rng.normal(0, 15))
            else:  # scattered
                pose = Pose(x + rng.normal(0, 60), y + rng.normal(0, 60), rng.uniform(0, 360))
            pile.append(TableCard(card, bool(rng.random() < 0.88), pose))
        piles[Place(PlaceKind.SPIT_PILE, 100 + group)] = pile
        group += 1
    hands = []
    owners = [("A", "main"), ("A", "other"), ("B", "main"), ("B", "other")]
    for k in rng.permutation(len(owners))[: int(rng.choice([0, 0, 1, 2]))]:
        player, hand = owners[int(k)]  # one hand per owner: motion blur matches hands by owner
        hands.append(HandPose(player, hand, float(rng.uniform(100, layout.width - 100)), float(rng.uniform(80, layout.height - 80)),
                              float(rng.uniform(5, 60)), bool(rng.random() < 0.3), (0.0, 0.0)))
    return StillScene(piles, hands)


def still_camera(rng: np.random.Generator, size: str, layout: TableLayout):
    """A camera anywhere from a close-up (0.35 m) to most of the table (0.95 m), tilted up to 40 degrees."""
    width, _ = image_size(size)
    pose = CameraPose(height=float(rng.uniform(350, 950)), tilt=float(rng.uniform(0, 40)), heading=float(rng.uniform(0, 360)),
                      roll=float(rng.normal(0, 3)), target=(float(rng.uniform(150, layout.width - 150)), float(rng.uniform(120, layout.height - 120))),
                      k1=float(rng.uniform(-0.08, 0.05)), k2=0.0)
    horizontal_fov = math.radians(rng.uniform(50, 75))
    return make_camera(pose, size, focal=width / 2 / math.tan(horizontal_fov / 2))


def still_samples(count: int, *, seed: int = 0, size: str = "720p", per_camera: int = 4) -> Iterator[Sample]:
    """`count` labelled still images; each camera, table and deck design serves `per_camera` scenes."""
    layout = TableLayout()
    made = 0
    setup = 0
    while made < count:
        rng = np.random.default_rng(zlib.crc32(f"stills|{seed}|{setup}".encode()))
        scenes = [random_still(rng, layout) for _ in range(per_camera)]
        renderer = stills_renderer(scenes, seed=seed * 100003 + setup, layout=layout, size=size,
                                   camera=still_camera(rng, size, layout), max_px_per_mm=6.0,
                                   people=bool(rng.random() < 0.3), markers=bool(rng.random() < 0.3))
        for index in range(min(per_camera, count - made)):
            image, labels = renderer.render(index)
            yield image, labels
            made += 1
        setup += 1


def stills_renderer(scenes: list[StillScene], *, seed: int, layout: TableLayout, size: str = "720p", **options) -> TableRenderer:
    """The table's renderer showing `scenes[k]` in its frame k (`render(k)`); the camera, table, light and
    deck are drawn from `seed` as a game's are, unless given in `options` (`TableRenderer`'s)."""
    return TableRenderer(_EMPTY_SCRIPT, size=size, fps=1, seed=seed, layout=layout, scene=_SceneSwitcher(scenes), **options)


class _SceneSwitcher:
    """Shows scene k at frame k (fps 1)."""

    def __init__(self, scenes: list[StillScene]) -> None:
        self.scenes = scenes

    def state(self, t: float) -> SceneState:
        index = min(len(self.scenes) - 1, max(0, int(math.floor(t + 0.5 + 1e-9))))  # t - shutter still shows scene k
        state = self.scenes[index].state(t)
        return SceneState(t, state.piles, state.moving, state.hands, (index, 0))


_EMPTY_SCRIPT = GameScript(seed=0, rounds=[], truth=[], duration=0.0)


def game_samples(folder: pathlib.Path, *, every: int = 15) -> Iterator[Sample]:
    """Every `every`-th frame of a render_game output folder, with its labels."""
    folder = pathlib.Path(folder)
    labels = (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    video = cv2.VideoCapture(str(folder / "video.mp4"))
    index = 0
    try:
        while True:
            ok, image = video.read()
            if not ok or index >= len(labels):
                break
            if index % every == 0:
                yield image, json.loads(labels[index])
            index += 1
    finally:
        video.release()


# ---------------------------------------------------------------------- export


def yolo_boxes(labels: dict, width: int, height: int, target: str = "index") -> list[tuple[int, float, float, float, float]]:
    """(class, x centre, y centre, w, h) normalised, clipped to the image, for one frame's labels."""
    out = []
    for card in labels["cards"]:
        if not card.get("face_up") or card["card"] not in _CLASS_OF:
            continue
        if target == "index":
            boxes = [b["box"] for b in card.get("index_boxes", []) if b["visible"] >= MIN_INDEX_VISIBLE]
        elif target == "card":
            quad = np.array(card["quad"])
            boxes = [[quad[:, 0].min(), quad[:, 1].min(), quad[:, 0].max(), quad[:, 1].max()]] if card["occlusion"] <= MAX_CARD_OCCLUSION else []
        else:
            raise ValueError(f"unknown target {target!r}: expected 'index' or 'card'")
        for x0, y0, x1, y1 in boxes:
            cx0, cy0, cx1, cy1 = max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1)
            if cx1 - cx0 < 3 or cy1 - cy0 < 3 or (cx1 - cx0) * (cy1 - cy0) < 0.6 * (x1 - x0) * (y1 - y0):
                continue  # mostly outside the picture
            out.append((_CLASS_OF[card["card"]], (cx0 + cx1) / 2 / width, (cy0 + cy1) / 2 / height, (cx1 - cx0) / width, (cy1 - cy0) / height))
    return out


def index_crops(image: np.ndarray, labels: dict) -> Iterator[tuple[str, np.ndarray]]:
    """Upright crops of every well-visible corner index: (card, BGR image of CROP_SIZE)."""
    width, height = CROP_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    for card in labels["cards"]:
        if not card.get("face_up"):
            continue
        for box in card.get("index_boxes", []):
            if box["visible"] < MIN_INDEX_VISIBLE or "quad" not in box:
                continue
            quad = np.array(box["quad"], np.float32)
            if quad[:, 0].min() < 0 or quad[:, 1].min() < 0 or quad[:, 0].max() >= image.shape[1] or quad[:, 1].max() >= image.shape[0]:
                continue
            if np.linalg.norm(quad[1] - quad[0]) < 4:
                continue  # too small to read
            matrix = cv2.getPerspectiveTransform(quad, target)
            yield card["card"], cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_LINEAR)


def export_yolo(samples: Iterable[Sample], out_dir: pathlib.Path, *, target: str = "index", val_every: int = 7,
                crops: bool = True, prefix: str = "synth") -> DatasetSummary:
    """Writes a detection dataset (and index crops for classification) from labelled samples.

    Every `val_every`-th image goes to the validation split."""
    out_dir = pathlib.Path(out_dir)
    detect, classify = out_dir / "detect", out_dir / "classify"
    for split in ("train", "val"):
        (detect / "images" / split).mkdir(parents=True, exist_ok=True)
        (detect / "labels" / split).mkdir(parents=True, exist_ok=True)
    images = boxes = crop_count = 0
    for number, (image, labels) in enumerate(samples):
        split = "val" if number % val_every == val_every - 1 else "train"
        name = f"{prefix}_{number:06d}"
        height, width = image.shape[:2]
        rows = yolo_boxes(labels, width, height, target)
        cv2.imwrite(str(detect / "images" / split / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (detect / "labels" / split / f"{name}.txt").write_text(
            "".join(f"{c} {x:.6f} {y:.6f} {w:.6f} {h:.6f}\n" for c, x, y, w, h in rows), encoding="utf-8")
        images += 1
        boxes += len(rows)
        if crops:
            for k, (card, crop) in enumerate(index_crops(image, labels)):
                folder = classify / split / card
                folder.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(folder / f"{name}_{k}.png"), crop)
                crop_count += 1
    names = "\n".join(f"  {index}: {name}" for index, name in enumerate(CLASS_NAMES))
    (detect / "data.yaml").write_text(
        f"# synthetic cards from referee.synth ({target} boxes)\npath: {detect.resolve()}\ntrain: images/train\nval: images/val\n"
        f"nc: {len(CLASS_NAMES)}\nnames:\n{names}\n", encoding="utf-8")
    if crops:  # every class folder exists in both splits, so a classifier sees all 52 names
        for split in ("train", "val"):
            for name in CLASS_NAMES:
                (classify / split / name).mkdir(parents=True, exist_ok=True)
    return DatasetSummary(out_dir, images, boxes, crop_count)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.synth.dataset", description="Export synthetic card data as YOLO datasets.")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--stills", type=int, default=200, help="still scenes of scattered cards")
    parser.add_argument("--games", type=int, default=0, help="simulated games to render and sample")
    parser.add_argument("--game-seconds", type=float, default=30.0)
    parser.add_argument("--every", type=int, default=15, help="take every N-th frame of a rendered game")
    parser.add_argument("--size", default="720p")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", choices=("index", "card"), default="index")
    args = parser.parse_args(argv)

    def samples() -> Iterator[Sample]:
        yield from still_samples(args.stills, seed=args.seed, size=args.size)
        if args.games:
            from referee.sim.game import simulate_game
            from referee.synth.render import render_game
            for game in range(args.games):
                folder = args.out / "games" / f"game_{args.seed + game}"
                render_game(simulate_game(args.seed + game), folder, size=args.size, seconds=args.game_seconds, seed=args.seed + game)
                yield from game_samples(folder, every=args.every)

    summary = export_yolo(samples(), args.out, target=args.target)
    print(f"{summary.folder}: {summary.images} images, {summary.boxes} boxes, {summary.crops} index crops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
