"""`referee classify IMAGE... --json`, run in-process as a user would."""

import json
import pathlib
import shutil
import struct

import cv2
import numpy as np
import pytest

from referee.cli.main import main
from referee.rules.cards import Card

VISION_ASSETS = pathlib.Path(__file__).resolve().parents[1] / "assets" / "vision"


def scene_path() -> pathlib.Path:
    return VISION_ASSETS / "scene_grid.jpg"


def classify(capsys, *arguments):
    code = main(["classify", *map(str, arguments), "--json"])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    return code, lines, captured.err


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an APP1 EXIF segment holding only an orientation tag."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_the_json_line_has_the_interface_schema(capsys):
    code, lines, err = classify(capsys, scene_path())
    assert code == 0, err
    assert len(lines) == 1
    line = lines[0]
    assert set(line) == {"image", "cards"} and line["image"] == str(scene_path())
    assert line["cards"], "the committed scene shows cards"
    for card in line["cards"]:
        assert set(card) == {"card", "confidence", "quad"}
        Card.parse(card["card"])
        assert 0.0 <= card["confidence"] <= 1.0
        assert len(card["quad"]) == 4 and all(len(point) == 2 for point in card["quad"])


def test_exif_orientation_is_honoured(capsys, tmp_path):
    image = cv2.imread(str(scene_path()))
    plain = tmp_path / "plain.jpg"
    turned = tmp_path / "turned.jpg"
    cv2.imwrite(str(plain), image, [cv2.IMWRITE_JPEG_QUALITY, 97])
    # stored turned a quarter round anticlockwise; orientation 6 tells viewers to turn it back clockwise
    ok, data = cv2.imencode(".jpg", np.ascontiguousarray(np.rot90(image, 1)), [cv2.IMWRITE_JPEG_QUALITY, 97])
    turned.write_bytes(with_exif_orientation(data.tobytes(), 6))
    assert cv2.imread(str(turned)).shape == image.shape
    code, lines, err = classify(capsys, plain, turned)
    assert code == 0, err
    first, second = lines[0]["cards"], lines[1]["cards"]
    assert sorted(c["card"] for c in first) == sorted(c["card"] for c in second)
    for card in first:
        twin = next(c for c in second if c["card"] == card["card"])
        assert np.abs(np.mean(card["quad"], axis=0) - np.mean(twin["quad"], axis=0)).max() < 6


def written(name: str, data: bytes):
    def make(folder: pathlib.Path) -> pathlib.Path:
        (folder / name).write_bytes(data)
        return folder / name

    return make


def huge_png(folder: pathlib.Path) -> pathlib.Path:
    cv2.imwrite(str(folder / "huge.png"), np.zeros((8, 13000, 3), np.uint8))  # a small file, a huge side
    return folder / "huge.png"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda folder: folder / "missing.jpg", "no such image file"),
        (written("empty.jpg", b""), "empty"),
        (written("text.jpg", b"not a picture"), "cannot decode"),
        (written("cut.jpg", (VISION_ASSETS / "scene_grid.jpg").read_bytes()[:200]), "cannot decode"),
        (lambda folder: folder, "no such image file"),
        (huge_png, "too large"),
    ],
)
def test_a_bad_image_gets_one_error_line_and_the_others_are_still_read(capsys, tmp_path, make, message):
    bad = make(tmp_path)
    code, lines, err = classify(capsys, scene_path(), bad, scene_path())
    assert code == 1
    assert [line["image"] for line in lines] == [str(scene_path()), str(scene_path())]
    error_lines = err.strip().splitlines()
    assert len(error_lines) == 1 and error_lines[0].startswith("error: ") and message in error_lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("damage", ["missing", "corrupt", "wrong_model"])
def test_a_missing_or_broken_model_is_one_error_line(capsys, tmp_path, damage):
    shipped = pathlib.Path(__file__).resolve().parents[2] / "models"
    for name in ("card_detector.onnx", "card_index_classifier.onnx"):
        shutil.copyfile(shipped / name, tmp_path / name)
    if damage == "missing":
        (tmp_path / "card_detector.onnx").unlink()
    elif damage == "corrupt":
        data = (tmp_path / "card_index_classifier.onnx").read_bytes()
        (tmp_path / "card_index_classifier.onnx").write_bytes(data[: len(data) // 3])
    else:  # the classifier file where the detector should be
        shutil.copyfile(shipped / "card_index_classifier.onnx", tmp_path / "card_detector.onnx")
        shutil.copyfile(shipped / "card_detector.onnx", tmp_path / "card_index_classifier.onnx")
    code = main(["classify", str(scene_path()), "--json", "--models", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ") and "Traceback" not in err


def test_classify_needs_an_image(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["classify", "--json"])
    assert exit_.value.code == 2


def test_thorough_also_searches_the_photo_turned_a_quarter(capsys, monkeypatch):
    from referee.vision import recogniser as recogniser_module

    shapes = []
    original = recogniser_module.CardDetector.detect_many

    def counted(detector, images, *arguments, **keywords):
        shapes.extend(image.shape[:2] for image in images)
        return original(detector, images, *arguments, **keywords)

    monkeypatch.setattr(recogniser_module.CardDetector, "detect_many", counted)
    height, width = cv2.imread(str(scene_path())).shape[:2]
    code, plain, err = classify(capsys, scene_path())
    assert code == 0, err
    assert (height, width) in shapes and (width, height) not in shapes  # the photo searched upright only
    code, thorough, err = classify(capsys, scene_path(), "--thorough")
    assert code == 0, err
    assert (width, height) in shapes  # the photo turned a quarter: its sides swapped
    assert {card["card"] for card in plain[0]["cards"]} <= {card["card"] for card in thorough[0]["cards"]}
