"""Train the card models from scratch on rendered scenes, offline, on CPU; export them to ONNX.

    python -m models.train                 # data, index classifier, card detector, ONNX into models/
    python -m models.train --quick         # tiny data, 1 epoch each, exports into models/runs/quick/ (CI)
    python -m models.train --resume        # carry on from the last checkpoints under models/runs/
    python -m models.train --stage detector --hours 0.5
    python -m models.train --stage compact-scenes --scenes 7000 [--first-scene 7000]   # small detector data to carry to a GPU (fresh seeds from --first-scene), then there:
    python -m models.train --stage detector --device 0 --workers 14 --batch 32 --data models/data/full/detector-compact/cards.yaml
    python -m models.train --stage face-mix    # the shipped face classifier: the weighted mean of checkpoints
                                             # (`--mix CHECKPOINT:HxW:WEIGHT ...`); `all` and `face-classifier`
                                             # export a single face model

Needs the training extra (`pip install -e '.[train]'`): ultralytics, torch, onnx. Nothing is downloaded:
models start from their YAML definitions, fonts and settings stay inside models/runs/.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pathlib
import shutil
import sys
import time

import cv2
import numpy as np

MODELS_DIR = pathlib.Path(__file__).resolve().parent
RUNS_DIR = MODELS_DIR / "runs"
DATA_DIR = MODELS_DIR / "data"
DETECTOR_ONNX = "card_detector.onnx"
CLASSIFIER_ONNX = "card_index_classifier.onnx"
FACE_ONNX = "card_face_classifier.onnx"
SUIT_ONNX = "card_suit_classifier.onnx"
#: The shipped face classifier is the mean of two of these (`--stage face-mix`): the one fine-tuned in
#: session 32 from session 3's on the decks only the models train on, reading 56 x 80 px crops, and one
#: fine-tuned from it in session 36 on 84 x 120 px crops (`models/card_face_classifier.md`).
FACE_CHECKPOINT = MODELS_DIR / "checkpoints" / "card_face_classifier.pt"
FACE_CHECKPOINT_B = MODELS_DIR / "checkpoints" / "card_face_classifier_b.pt"
FACE_CHECKPOINT_84 = MODELS_DIR / "checkpoints" / "card_face_classifier_84.pt"
FACE_MIX = (f"{FACE_CHECKPOINT_B}:80x56:0.5", f"{FACE_CHECKPOINT_84}:120x84:0.5")
#: Deck designs the face classifier never trains on: its validation is on decks it has not seen, as the
#: referee's will be on the players' own decks.
FACE_HELD_OUT_DESIGNS = ("hershey", "svg:dondorf")
#: Seeds of training scenes start here, validation scenes at VAL_SEED, benchmark scenes at
#: benchmarks.vision_rendered.BENCHMARK_SEED (never trained on).
TRAIN_SEED = 0
VAL_SEED = 1_000_000


def offline_environment() -> None:
    """Keep ultralytics off the network: no hub, no telemetry, no font download."""
    config = RUNS_DIR / ".yolo-config"
    (config / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_CONFIG_DIR"] = str(config)
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    font_target = config / "Ultralytics" / "Arial.ttf"
    if not font_target.exists():
        for candidate in _font_candidates():
            if candidate.is_file():
                shutil.copyfile(candidate, font_target)
                shutil.copyfile(candidate, config / "Ultralytics" / "Arial.Unicode.ttf")
                break


def _font_candidates() -> list[pathlib.Path]:
    found = [pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    try:
        import matplotlib

        found.append(pathlib.Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf")
    except ImportError:
        pass
    return found


def import_ultralytics(threads: int = 2):
    offline_environment()
    import torch
    import ultralytics
    from ultralytics.utils import SETTINGS, torch_utils

    SETTINGS.update({"sync": False})
    torch_utils.NUM_THREADS = threads  # ultralytics trains on one core unless told
    torch.set_num_threads(threads)
    _without_polars()
    return ultralytics


def _without_polars() -> None:
    """Where polars is missing (a borrowed GPU machine whose packages came as wheels; polars' runtime is
    170 MB), checkpoints are saved without their table of per-epoch results rather than the run failing
    at its first save."""
    try:
        import polars  # noqa: F401
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer

        BaseTrainer.read_results_csv = lambda self: {}


# ------------------------------------------------------------------------------------------ data
def training_designs() -> tuple[str, ...]:
    """The deck designs every model's training data draws from: the rendered games' and the decks only
    the models train on (`faces.TRAINING_DESIGNS`, session 32). The benchmarks' scenes and games keep
    drawing `faces.DESIGNS`, so that a benchmark seed shows what it always showed."""
    from referee.synth import faces

    return faces.TRAINING_DESIGNS


def _write_detector_scene(scene, folder: pathlib.Path, split: str, seed: int, detector_side: int, suffix: str, params: list[int]) -> list[str]:
    """`scene`'s picture shrunk to `detector_side` on its long side into `folder`/images/`split`, its OBB
    labels into `folder`/labels/`split`; returns the labels."""
    from models import data_gen

    lines = data_gen.obb_label_lines(scene)
    scale = detector_side / max(scene.image.shape[:2])
    size = (int(round(scene.image.shape[1] * scale)), int(round(scene.image.shape[0] * scale)))
    small = cv2.resize(scene.image, size, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(folder / "images" / split / f"{seed}{suffix}"), small, params)
    (folder / "labels" / split / f"{seed}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return lines


def _scene_job(job: tuple[int, str, int, str]) -> tuple[int, int]:
    seed, split, detector_side, root = job
    from models import data_gen

    root_path = pathlib.Path(root)
    scene = data_gen.render_scene(seed, designs=training_designs())
    lines = _write_detector_scene(scene, root_path / "detector", split, seed, detector_side, ".jpg", [cv2.IMWRITE_JPEG_QUALITY, 92])
    rng = np.random.default_rng(seed + 7_000_000)
    samples = data_gen.index_samples(scene, rng)
    for number, (crop, label) in enumerate(samples):
        folder = root_path / "index" / split / label
        cv2.imwrite(str(folder / f"{seed}_{number}.png"), crop)
    return len(lines), len(samples)


def _card_job(job: tuple[int, str, str]) -> int:
    seed, split, root = job
    from models import data_gen

    samples = data_gen.card_samples(seed, designs=training_designs())
    for number, (crop, label) in enumerate(samples):
        cv2.imwrite(str(pathlib.Path(root) / split / label / f"card{seed}_{number}.png"), crop)
    return len(samples)


def generate_card_crops(root: pathlib.Path, *, train_cards: int, workers: int = 2) -> int:
    """Index crops from single cards seen close up (models/data_gen.card_samples), added to `root`/{train,val}."""
    from models import data_gen

    for name in data_gen.class_names():
        (root / "train" / name).mkdir(parents=True, exist_ok=True)
    jobs = [(20_000_000 + k, "train", str(root)) for k in range(train_cards)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            counts = pool.map(_card_job, jobs, chunksize=16)
    else:
        counts = [_card_job(job) for job in jobs]
    print(f"card crops: {sum(counts)}", flush=True)
    return sum(counts)


def _face_chunk(job: tuple[int, int, bool, str]) -> tuple[np.ndarray, list[str]]:
    from models import face_data
    from referee.synth import faces

    first, count, held_out, kind = job
    pool = faces.SUIT_DESIGNS if kind == "suits" else training_designs()
    designs = FACE_HELD_OUT_DESIGNS if held_out else tuple(d for d in pool if d not in FACE_HELD_OUT_DESIGNS)
    samples = face_data.suit_view_samples if kind == "suits" else face_data.pile_view_samples
    return samples(first, count, designs)


def generate_face_views(root: pathlib.Path, *, train_views: int, val_views: int, workers: int = 2, kind: str = "faces") -> None:
    """Pile views for the face classifier (models/face_data.py) into `root`/{train,val}.npz; with kind
    "suits", the index corners of other pile views for the suit classifier."""
    root.mkdir(parents=True, exist_ok=True)
    seeds = {"faces": (30_000_000, 31_000_000), "suits": (32_000_000, 33_000_000)}[kind]
    for split, count, first, held_out in (("train", train_views, seeds[0], False), ("val", val_views, seeds[1], True)):
        chunk = 250
        jobs = [(first + start, min(chunk, count - start), held_out, kind) for start in range(0, count, chunk)]
        if workers > 1:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.map(_face_chunk, jobs, chunksize=1)
        else:
            parts = [_face_chunk(job) for job in jobs]
        images = np.concatenate([part[0] for part in parts])
        labels = [label for part in parts for label in part[1]]
        np.savez(root / f"{split}.npz", images=images, labels=np.array(labels))
        print(f"{kind} views: {len(labels)} {split}", flush=True)


def _train_view_classifier(root: pathlib.Path, target: pathlib.Path, *, names: list[str], net, label: str, what: str, name: str,
                           epochs: int, threads: int, start_from: pathlib.Path | None, lr: float | None, mix=None) -> pathlib.Path:
    """A classifier of pile views (`net`: a module with `build` and `export`) trained on `root`/{train,val}.npz
    (validation on decks never trained on); its ONNX export goes to `target`."""
    from models import index_net

    index = {label: number for number, label in enumerate(names)}

    def load(split: str):
        data = np.load(root / f"{split}.npz")
        images = data["images"][:, :, :, ::-1].transpose(0, 3, 1, 2).copy()  # BGR NHWC -> RGB NCHW
        return images, np.array([index[str(label)] for label in data["labels"]], dtype=np.int64)

    train_data, val_data = load("train"), load("val")
    print(f"{what}: {len(train_data[0])} train, {len(val_data[0])} validation (decks never trained on)", flush=True)
    run = _run_dir(name)
    model = net.build(len(names))
    if start_from is not None and start_from.exists():
        import torch

        model.load_state_dict(torch.load(start_from, map_location="cpu"))
    result = index_net.train(train_data, val_data, names, epochs=epochs, out=run, threads=threads, model=model, label=label,
                             learning_rate=lr or 3e-3, log=lambda message: print(message, flush=True), mix=mix)
    net.export(result["model"], names, target)
    print(f"exported {run / 'last.pt'} -> {target}", flush=True)
    return run / "last.pt"


def train_face_classifier(root: pathlib.Path, target: pathlib.Path, *, name: str, epochs: int, threads: int,
                          start_from: pathlib.Path | None = None, lr: float | None = None) -> pathlib.Path:
    """FaceNet on the pile views; its ONNX export goes to `target`."""
    from models import data_gen, face_net

    names = data_gen.class_names()
    courts = [number for number, label in enumerate(names) if label[:-1] in ("J", "Q", "K")]
    return _train_view_classifier(root, target, names=names, net=face_net, label="face-net", what="face views", name=name, epochs=epochs,
                                  threads=threads, start_from=start_from, lr=lr, mix=face_net.court_picture_swap(courts))


def export_face_mix(members: list[str], target: pathlib.Path) -> pathlib.Path:
    """The face classifier shipped as the weighted mean of checkpoints' readings (`face_net.export_mean`),
    each member `CHECKPOINT:HEIGHTxWIDTH:WEIGHT` (the crop size it was trained at)."""
    import torch

    from models import data_gen, face_net

    names = data_gen.class_names()
    mix = []
    for member in members:
        path, shape, weight = member.rsplit(":", 2)
        model = face_net.build(len(names))
        model.load_state_dict(torch.load(path, map_location="cpu"))
        mix.append((model.eval(), tuple(int(v) for v in shape.split("x")), float(weight)))
    face_net.export_mean(mix, names, target)
    print(f"exported the weighted mean of {', '.join(members)} -> {target}", flush=True)
    return target


def train_suit_classifier(root: pathlib.Path, target: pathlib.Path, *, name: str, epochs: int, threads: int,
                          start_from: pathlib.Path | None = None, lr: float | None = None) -> pathlib.Path:
    """SuitNet on the index corners of pile views; its ONNX export goes to `target`."""
    from models import face_data, suit_net

    return _train_view_classifier(root, target, names=list(face_data.SUIT_CLASSES), net=suit_net, label="suit-net", what="suit corners",
                                  name=name, epochs=epochs, threads=threads, start_from=start_from, lr=lr)


def _write_dataset_yaml(folder: pathlib.Path) -> pathlib.Path:
    """The ultralytics dataset YAML of a detector folder holding images/ and labels/ of train and val."""
    yaml = folder / "cards.yaml"
    yaml.write_text(f"path: {folder.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: card\n")
    return yaml


def _render_scenes(job, root: pathlib.Path, *, train_scenes: int, val_scenes: int, detector_side: int, workers: int, chunksize: int,
                   first: int = 0) -> list:
    """`job((seed, split, detector_side, root))` for the training seeds (from TRAIN_SEED + `first`), then the
    validation ones."""
    jobs = [(TRAIN_SEED + first + k, "train", detector_side, str(root)) for k in range(train_scenes)]
    jobs += [(VAL_SEED + k, "val", detector_side, str(root)) for k in range(val_scenes)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(job, jobs, chunksize=chunksize)
    return [job(one) for one in jobs]


def generate_data(root: pathlib.Path, *, train_scenes: int, val_scenes: int, detector_side: int, workers: int = 2, face_crops_per_card: int = 4) -> dict:
    from models import data_gen

    started = time.time()
    if root.exists():
        shutil.rmtree(root)
    for split in ("train", "val"):
        (root / "detector" / "images" / split).mkdir(parents=True)
        (root / "detector" / "labels" / split).mkdir(parents=True)
        for name in data_gen.class_names():
            (root / "index" / split / name).mkdir(parents=True)
    _write_dataset_yaml(root / "detector")
    counts = _render_scenes(_scene_job, root, train_scenes=train_scenes, val_scenes=val_scenes, detector_side=detector_side,
                            workers=workers, chunksize=8)
    # a few crops of every card flat on a plain ground, so every class exists even in a tiny run
    for split, base in (("train", TRAIN_SEED), ("val", VAL_SEED)):
        for number, card in enumerate(data_gen.ALL_CARDS):
            for repeat in range(face_crops_per_card):
                seed = base + 9_000_000 + number * 100 + repeat
                for side, (crop, label) in enumerate(data_gen.face_samples(seed, card, designs=training_designs())):
                    cv2.imwrite(str(root / "index" / split / label / f"face{seed}_{side}.png"), crop)
        for repeat in range(face_crops_per_card):
            scene = data_gen.render_scene(base + 9_500_000 + repeat, designs=training_designs())
            rng = np.random.default_rng(repeat)
            for quad in scene.backs[:1] or [np.array([[0, 0], [40, 0], [40, 56], [0, 56]], np.float32)]:
                from referee.vision.geometry import index_crops, order_card_corners

                crop = index_crops(scene.image, order_card_corners(data_gen.imperfect_outline(rng, quad)))[0]
                cv2.imwrite(str(root / "index" / split / data_gen.NONE_CLASS / f"face{base}_{repeat}.png"), crop)
    summary = {
        "train_scenes": train_scenes,
        "val_scenes": val_scenes,
        "detector_boxes": int(sum(c[0] for c in counts)),
        "index_crops": int(sum(c[1] for c in counts)),
        "seconds": round(time.time() - started, 1),
    }
    (root / "summary.json").write_text(json.dumps(summary, indent=2))
    print(f"data: {summary}", flush=True)
    return summary


def add_scenes(root: pathlib.Path, *, first: int, count: int, detector_side: int, workers: int = 2, split: str = "train") -> dict:
    """Render `count` more scenes (seeds from `first`) into an existing data folder, keeping what is
    there (a scene already there is drawn again): fresh scenes for fine-tuning after the scene
    generator learns something new."""
    if not (root / "detector" / "cards.yaml").exists():
        raise SystemExit(f"no training data in {root}: run `python -m models.train --stage data` first")
    jobs = [(first + k, split, detector_side, str(root)) for k in range(count)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        counts = pool.map(_scene_job, jobs, chunksize=8)
    summary = {"added_scenes": count, "split": split, "first_seed": first, "detector_boxes": int(sum(c[0] for c in counts)), "index_crops": int(sum(c[1] for c in counts))}
    print(f"data: {summary}", flush=True)
    return summary


def _compact_scene_job(job: tuple[int, str, int, str]) -> int:
    seed, split, detector_side, root = job
    from models import data_gen

    lines = _write_detector_scene(data_gen.render_scene(seed, designs=training_designs()), pathlib.Path(root), split, seed, detector_side, ".webp",
                                  [cv2.IMWRITE_WEBP_QUALITY, COMPACT_WEBP_QUALITY])
    return len(lines)


#: WebP quality of the compact detector scenes: about 7 KB a 256 px scene, so that 7 000 of them fit the
#: 64 MiB a borrowed GPU machine is sent (JPEG at quality 92: 14 KB).
COMPACT_WEBP_QUALITY = 85


def generate_compact_scenes(root: pathlib.Path, *, train_scenes: int, val_scenes: int, detector_side: int, workers: int = 2,
                            first: int = 0) -> dict:
    """The detector's scenes alone (no index crops), at the detector's own side as WebP, with their
    dataset YAML: small enough to carry to a GPU machine (`--stage detector --data ROOT/cards.yaml`).
    Training seeds start at TRAIN_SEED + `first` (fresh scenes for a further fine-tune)."""
    if root.exists():
        shutil.rmtree(root)
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
    yaml = _write_dataset_yaml(root)
    boxes = _render_scenes(_compact_scene_job, root, train_scenes=train_scenes, val_scenes=val_scenes, detector_side=detector_side,
                           workers=workers, chunksize=16, first=first)
    summary = {"train_scenes": train_scenes, "first_seed": TRAIN_SEED + first, "val_scenes": val_scenes, "detector_boxes": int(sum(boxes)), "yaml": str(yaml)}
    print(f"compact scenes: {summary}", flush=True)
    return summary


# ------------------------------------------------------------------------------------------ training
def _run_dir(name: str) -> pathlib.Path:
    return RUNS_DIR / name


def load_index_crops(data_root: pathlib.Path, names: list[str], *, hold_out: float = 0.05) -> tuple[tuple, tuple]:
    """Train and validation crops: scene crops (index/train, index/val) and close-up card crops (index-cards).

    Scene crops of cards too washed out to read (almost flat grey) or cut outside the picture are
    dropped: their labels would only teach guessing."""
    from models import index_net

    def readable(folder: pathlib.Path) -> tuple[np.ndarray, np.ndarray]:
        images, labels = index_net.load_folder(folder, names)
        if len(images) == 0:
            return images, labels
        grey = images.mean(axis=1)
        keep = ((grey.std(axis=(1, 2)) > 18) | (labels == names.index("none"))) & (grey.mean(axis=(1, 2)) > 12)
        return images[keep], labels[keep]

    train_parts = [readable(data_root / "index" / "train")]
    val_parts = [readable(data_root / "index" / "val")]
    cards = index_net.load_folder(data_root / "index-cards" / "train", names)
    held = np.random.default_rng(0).random(len(cards[0])) < hold_out
    train_parts.append((cards[0][~held], cards[1][~held]))
    val_parts.append((cards[0][held], cards[1][held]))
    join = lambda parts: (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
    return join(train_parts), join(val_parts)


def train_classifier(data_root: pathlib.Path, target: pathlib.Path, *, name: str, epochs: int, threads: int,
                     start_from: pathlib.Path | None = None, lr: float | None = None) -> pathlib.Path:
    """IndexNet on the index crops; its ONNX export goes to `target`."""
    from models import data_gen, index_net

    names = data_gen.class_names()
    train_data, val_data = load_index_crops(data_root, names)
    print(f"index crops: {len(train_data[0])} train, {len(val_data[0])} validation", flush=True)
    run = _run_dir(name)
    result = index_net.train(train_data, val_data, names, epochs=epochs, out=run, threads=threads, start_from=start_from,
                             learning_rate=lr or 3e-3, log=lambda message: print(message, flush=True))
    index_net.export(result["model"], names, target)
    print(f"exported {run / 'last.pt'} -> {target}", flush=True)
    return run / "last.pt"


def train_detector(data_yaml: pathlib.Path, *, name: str, epochs: int, image_size: int, resume: bool, hours: float | None, threads: int,
                   start_from: pathlib.Path | None = None, lr: float | None = None, device: str = "cpu", workers: int = 1,
                   batch: int = 16) -> pathlib.Path:
    ultralytics = import_ultralytics(threads)
    last = _run_dir(name) / "weights" / "last.pt"
    if resume and last.exists():
        model = ultralytics.YOLO(str(last))
        model.train(resume=True)
    else:
        model = ultralytics.YOLO(str(start_from) if start_from else "yolo11n-obb.yaml")
        arguments = dict(
            data=str(data_yaml), epochs=epochs, imgsz=image_size, batch=batch, workers=workers, device=device, pretrained=False,
            project=str(RUNS_DIR), name=name, exist_ok=True, plots=False, amp=False,
            # scenes are already turned, tilted and lit at random; mirroring would teach mirrored indices
            fliplr=0.0, flipud=0.0, degrees=0.0, mosaic=0.3, close_mosaic=2, scale=0.3, translate=0.1, mixup=0.0,
            hsv_h=0.015, hsv_s=0.5, hsv_v=0.4, lr0=0.01, cos_lr=False, warmup_epochs=1, patience=100, seed=0, deterministic=False,
        )
        if hours:
            arguments["time"] = hours
        if lr:
            arguments.update(lr0=lr, optimizer="AdamW", warmup_epochs=0)
        if start_from:
            arguments["pretrained"] = True  # keep the loaded weights (pretrained=False would start afresh)
        model.train(**arguments)
    return _run_dir(name) / "weights" / "best.pt"


def export_onnx(weights: pathlib.Path, target: pathlib.Path, *, image_size: int, dynamic: bool) -> pathlib.Path:
    ultralytics = import_ultralytics()
    model = ultralytics.YOLO(str(weights))
    exported = pathlib.Path(model.export(format="onnx", imgsz=image_size, opset=17, simplify=True, dynamic=dynamic, device="cpu"))
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(exported, target)
    print(f"exported {weights} -> {target}", flush=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny data and one epoch each, exported to models/runs/quick/ (CI smoke run)")
    parser.add_argument("--resume", action="store_true", help="continue from models/runs/<stage>/weights/last.pt")
    parser.add_argument("--stage", choices=("all", "data", "more-scenes", "scenes", "compact-scenes", "crops", "classifier", "faces", "face-classifier", "suits", "suit-classifier", "face-mix", "detector", "export"), default="all")
    parser.add_argument("--cards", type=int, default=10000, help="close-up single cards rendered for index crops")
    parser.add_argument("--scenes", type=int, default=3000, help="training scenes to render (validation: a tenth)")
    parser.add_argument("--first-scene", type=int, default=None, help="first seed of --stage more-scenes (default: after the scenes already there) or compact-scenes (default: 0)")
    parser.add_argument("--detector-epochs", type=int, default=30)
    parser.add_argument("--classifier-epochs", type=int, default=5)
    parser.add_argument("--face-views", type=int, default=40000, help="pile views rendered for the face classifier")
    parser.add_argument("--face-epochs", type=int, default=10)
    parser.add_argument("--suit-views", type=int, default=14000, help="pile views whose index corners train the suit classifier")
    parser.add_argument("--suit-epochs", type=int, default=8)
    parser.add_argument("--mix", nargs="+", default=list(FACE_MIX), metavar="CHECKPOINT:HxW:WEIGHT",
                        help="--stage face-mix: the face classifiers whose weighted mean reading is exported, each with the "
                             "crop size (height x width) it was trained at (default: the shipped two)")
    parser.add_argument("--hours", type=float, default=None, help="time budget of the detector (ultralytics `time`)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--start-from", type=pathlib.Path, default=None,
                        help="weights (.pt) to fine-tune instead of starting from scratch, e.g. models/checkpoints/card_detector.pt")
    parser.add_argument("--name", default=None, help="run name under models/runs/ (default: the stage name)")
    parser.add_argument("--lr", type=float, default=None, help="initial learning rate (lower it when fine-tuning)")
    parser.add_argument("--detector-size", type=int, default=256, help="detector input side, pixels (multiple of 32)")
    parser.add_argument("--device", default="cpu", help="where the detector trains: cpu, or a CUDA device number when a GPU is at hand")
    parser.add_argument("--workers", type=int, default=1, help="the detector's data-loading processes")
    parser.add_argument("--batch", type=int, default=16, help="the detector's batch size")
    parser.add_argument("--data", type=pathlib.Path, default=None, help="the detector's dataset YAML (default: models/data/full/detector/cards.yaml)")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="where the ONNX files go (default models/, or models/runs/quick/ with --quick)")
    args = parser.parse_args(argv)

    quick = args.quick
    data_root = DATA_DIR / ("quick" if quick else "full")
    out = args.out or (RUNS_DIR / "quick" if quick else MODELS_DIR)
    detector_size = args.detector_size
    suffix = "-quick" if quick else ""
    started = time.time()
    if args.stage in ("all", "data"):
        scenes = 12 if quick else args.scenes
        generate_data(data_root, train_scenes=scenes, val_scenes=max(4, scenes // 20), detector_side=max(320, detector_size), workers=1 if quick else 2,
                      face_crops_per_card=1 if quick else 6)
    if args.stage == "more-scenes":
        there = len(list((data_root / "detector" / "images" / "train").glob("*.jpg")))
        add_scenes(data_root, first=TRAIN_SEED + (args.first_scene if args.first_scene is not None else there), count=args.scenes,
                   detector_side=max(320, detector_size), workers=1 if quick else 2)
    if args.stage == "scenes":  # the detector's scenes drawn again (the generator changed), the same seeds
        for split, base in (("train", TRAIN_SEED), ("val", VAL_SEED)):
            there = len(list((data_root / "detector" / "images" / split).glob("*.jpg")))
            add_scenes(data_root, first=base, count=there, detector_side=max(320, detector_size), workers=1 if quick else 2, split=split)
    if args.stage == "compact-scenes":  # the detector's data for a GPU machine (models/card_detector.md, session 31)
        scenes = 12 if quick else args.scenes
        generate_compact_scenes(data_root / "detector-compact", train_scenes=scenes, val_scenes=max(4, scenes // 35),
                                detector_side=detector_size, workers=1 if quick else 2, first=args.first_scene or 0)
    if args.stage in ("all", "data", "crops"):
        generate_card_crops(data_root / "index-cards", train_cards=60 if quick else args.cards,
                            workers=1 if quick else 2)
    if args.stage in ("all", "classifier"):
        name = (args.name or "classifier") + suffix
        start_from = args.start_from or (_run_dir(name) / "last.pt" if args.resume else None)
        train_classifier(data_root, out / CLASSIFIER_ONNX, name=name, start_from=start_from, lr=args.lr,
                         epochs=1 if quick else args.classifier_epochs, threads=args.threads)
    if args.stage in ("all", "data", "faces"):
        generate_face_views(data_root / "faces", train_views=200 if quick else args.face_views,
                            val_views=60 if quick else max(500, args.face_views // 20), workers=1 if quick else 2)
    if args.stage in ("all", "face-classifier"):
        name = (args.name or "face-classifier") + suffix
        start_from = args.start_from or (_run_dir(name) / "last.pt" if args.resume else None)
        train_face_classifier(data_root / "faces", out / FACE_ONNX, name=name, start_from=start_from, lr=args.lr,
                              epochs=1 if quick else args.face_epochs, threads=args.threads)
    if args.stage == "face-mix":
        export_face_mix(args.mix, out / FACE_ONNX)
    if args.stage in ("all", "data", "suits"):
        generate_face_views(data_root / "suits", train_views=100 if quick else args.suit_views,
                            val_views=30 if quick else max(500, args.suit_views // 14), workers=1 if quick else 2, kind="suits")
    if args.stage in ("all", "suit-classifier"):
        name = (args.name or "suit-classifier") + suffix
        start_from = args.start_from or (_run_dir(name) / "last.pt" if args.resume else None)
        train_suit_classifier(data_root / "suits", out / SUIT_ONNX, name=name, start_from=start_from, lr=args.lr,
                              epochs=1 if quick else args.suit_epochs, threads=args.threads)
    if args.stage in ("all", "detector"):
        weights = train_detector(args.data or data_root / "detector" / "cards.yaml", name=(args.name or "detector") + suffix, start_from=args.start_from, lr=args.lr,
                                 epochs=1 if quick else args.detector_epochs, image_size=detector_size, resume=args.resume, hours=args.hours,
                                 threads=args.threads, device=args.device, workers=args.workers, batch=args.batch)
        export_onnx(weights, out / DETECTOR_ONNX, image_size=detector_size, dynamic=True)
    if args.stage == "export":
        export_onnx(_run_dir("detector" + suffix) / "weights" / "best.pt", out / DETECTOR_ONNX, image_size=detector_size, dynamic=True)
    print(f"done in {time.time() - started:.0f} s; models in {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
