"""Exporting synthetic frames as ultralytics datasets."""

import importlib.util

import numpy as np
import pytest

from referee.synth.dataset import CLASS_NAMES, CROP_SIZE, export_yolo, still_samples, yolo_boxes


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("dataset")
    samples = list(still_samples(4, seed=3, size="480p", per_camera=4))
    summary = export_yolo(iter(samples), out, val_every=4)
    return out, summary, samples


def test_layout_and_counts(exported):
    out, summary, _ = exported
    detect = out / "detect"
    assert summary.images == 4
    assert len(list((detect / "images" / "train").glob("*.jpg"))) == 3
    assert len(list((detect / "images" / "val").glob("*.jpg"))) == 1
    assert summary.boxes > 0 and summary.crops > 0
    assert "nc: 52" in (detect / "data.yaml").read_text()


def test_label_rows_are_normalised_boxes_of_known_classes(exported):
    out, _, _ = exported
    rows = [line.split() for path in (out / "detect" / "labels").rglob("*.txt") for line in path.read_text().splitlines()]
    assert rows
    for row in rows:
        assert len(row) == 5
        assert 0 <= int(row[0]) < len(CLASS_NAMES)
        x, y, w, h = map(float, row[1:])
        assert 0 <= x - w / 2 + 1e-6 and x + w / 2 <= 1 + 1e-6 and 0 <= y - h / 2 + 1e-6 and y + h / 2 <= 1 + 1e-6


def test_crops_are_upright_index_images_in_class_folders(exported):
    out, _, _ = exported
    crops = list((out / "classify").rglob("*.png"))
    assert crops and all(path.parent.name in CLASS_NAMES for path in crops)
    import cv2
    image = cv2.imread(str(crops[0]))
    assert image.shape[:2] == (CROP_SIZE[1], CROP_SIZE[0])


@pytest.mark.parametrize("target", ["index", "card"])
def test_boxes_stay_inside_the_image(exported, target):
    _, _, samples = exported
    for image, labels in samples:
        for _, x, y, w, h in yolo_boxes(labels, image.shape[1], image.shape[0], target):
            assert w > 0 and h > 0 and 0 <= x <= 1 and 0 <= y <= 1


def test_stills_are_deterministic():
    first = next(iter(still_samples(1, seed=9, size="360p", per_camera=1)))
    again = next(iter(still_samples(1, seed=9, size="360p", per_camera=1)))
    assert np.array_equal(first[0], again[0]) and first[1] == again[1]


@pytest.mark.skipif(importlib.util.find_spec("ultralytics") is None,
                    reason="ultralytics is not installed here (it lives in the training venv, .venv-train)")
def test_ultralytics_accepts_the_detection_dataset(exported):
    from ultralytics.data.dataset import YOLODataset
    from ultralytics.data.utils import check_det_dataset

    out, summary, _ = exported
    data = check_det_dataset(str(out / "detect" / "data.yaml"))
    assert data["nc"] == 52
    dataset = YOLODataset(img_path=data["train"], data=data, task="detect", imgsz=320, augment=False)
    assert len(dataset) == 3
