"""IndexNet: a small CNN naming a card from one upright corner-index crop (52 cards + `none`).

Plain torch, trained from crops held in memory: on a shared 2-core CPU it converges in minutes, where
a YOLO classifier from scratch needs many epochs. Exported to ONNX with ultralytics-style metadata
(`names`, `imgsz`), so referee.vision.onnx_models.IndexClassifier loads either.
"""

from __future__ import annotations

import json
import pathlib
import time

import cv2
import numpy as np

IMAGE_SIZE = 48


def build(classes: int):
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True)]

    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),  # 24
        *block(16, 32), nn.MaxPool2d(2),  # 12
        *block(32, 64), nn.MaxPool2d(2),  # 6
        *block(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.1), nn.Linear(128, classes),
    )


def load_folder(root: pathlib.Path, names: list[str], image_size: int = IMAGE_SIZE, limit_per_class: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Crops of an image-folder tree (root/<class>/*.png) as uint8 NCHW RGB and class indices."""
    images, labels = [], []
    for index, name in enumerate(names):
        files = sorted((root / name).glob("*.png"))
        if limit_per_class:
            files = files[:limit_per_class]
        for file in files:
            crop = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if crop is None:
                continue
            if crop.shape[:2] != (image_size, image_size):
                crop = cv2.resize(crop, (image_size, image_size), interpolation=cv2.INTER_AREA)
            images.append(cv2.cvtColor(crop, cv2.COLOR_BGR2RGB).transpose(2, 0, 1))
            labels.append(index)
    if not images:
        return np.zeros((0, 3, image_size, image_size), np.uint8), np.zeros((0,), np.int64)
    return np.stack(images), np.array(labels, dtype=np.int64)


def _augment(batch, generator):
    """Light, brightness, contrast and a shift of up to 2 pixels, on a float batch in [0, 1]."""
    import torch

    size = batch.shape[0]
    gain = torch.empty(size, 1, 1, 1).uniform_(0.6, 1.3, generator=generator)
    colour = torch.empty(size, 3, 1, 1).uniform_(0.9, 1.1, generator=generator)
    mean = batch.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.empty(size, 1, 1, 1).uniform_(0.6, 1.2, generator=generator)
    batch = ((batch - mean) * contrast + mean) * gain * colour
    shift_x, shift_y = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
    batch = torch.roll(batch, shifts=(shift_y, shift_x), dims=(2, 3))
    return batch.clamp(0, 1)


def train(train_data: tuple[np.ndarray, np.ndarray], val_data: tuple[np.ndarray, np.ndarray], names: list[str], *, epochs: int, out: pathlib.Path,
          threads: int = 2, batch_size: int = 128, learning_rate: float = 3e-3, start_from: pathlib.Path | None = None, log=print,
          model=None, label: str = "index-net", mix=None) -> dict:
    """Trains `model` (default: a fresh IndexNet) on uint8 NCHW images; `label` names it in the log.
    `mix(batch, labels, generator)`: an extra augmentation of each float batch, before the usual one."""
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = model if model is not None else build(len(names))
    if start_from is not None and start_from.exists():
        model.load_state_dict(torch.load(start_from, map_location="cpu"))
    images, labels = torch.from_numpy(train_data[0]), torch.from_numpy(train_data[1])
    val_images, val_labels = torch.from_numpy(val_data[0]).float() / 255, torch.from_numpy(val_data[1])
    optimiser = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=1e-4)
    steps = epochs * ((len(images) + batch_size - 1) // batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=learning_rate, total_steps=max(steps, 1), pct_start=0.15)
    loss_function = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    history = []
    started = time.time()
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(images), generator=generator)
        total, seen = 0.0, 0
        for first in range(0, len(images), batch_size):
            pick = order[first:first + batch_size]
            batch = images[pick].float() / 255
            if mix is not None:
                batch = mix(batch, labels[pick], generator)
            batch = _augment(batch, generator)
            loss = loss_function(model(batch), labels[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(pick)
            seen += len(pick)
        accuracy = evaluate(model, val_images, val_labels)
        history.append({"epoch": epoch + 1, "train_loss": total / max(seen, 1), "val_top1": accuracy, "seconds": round(time.time() - started, 1)})
        log(f"{label} epoch {epoch + 1}/{epochs}: loss {total / max(seen, 1):.3f} val top-1 {accuracy:.4f} ({time.time() - started:.0f} s)")
        out.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), out / "last.pt")
    (out / "history.json").write_text(json.dumps(history, indent=1))
    return {"history": history, "model": model}


def evaluate(model, images, labels) -> float:
    import torch

    model.eval()
    right = 0
    with torch.no_grad():
        for first in range(0, len(images), 512):
            right += int((model(images[first:first + 512]).argmax(dim=1) == labels[first:first + 512]).sum())
    return right / max(len(images), 1)


def export(model, names: list[str], target: pathlib.Path, image_size: int | tuple[int, int] = IMAGE_SIZE,
           description: str = "IndexNet: card corner-index classifier (52 cards + none), referee models/index_net.py") -> pathlib.Path:
    """ONNX with a softmax output and ultralytics-style metadata (`imgsz` as [height, width]); dynamic batch."""
    import onnx
    import torch

    height, width = (image_size, image_size) if isinstance(image_size, int) else image_size
    wrapped = torch.nn.Sequential(model, torch.nn.Softmax(dim=1)).eval()
    target.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, height, width)
    torch.onnx.export(wrapped, dummy, str(target), input_names=["images"], output_names=["output0"], opset_version=17,
                      dynamic_axes={"images": {0: "batch"}, "output0": {0: "batch"}}, dynamo=False)
    graph = onnx.load(str(target))
    for key, value in (("names", repr(dict(enumerate(names)))), ("imgsz", repr([height, width])), ("task", "classify"),
                       ("description", description)):
        entry = graph.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(graph, str(target))
    return target
