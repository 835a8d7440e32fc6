"""The real ultralytics training and ONNX export path, end to end on tiny data (CI smoke run).

Needs the training extra (ultralytics, torch); skipped with a reason where it is not installed.
"""

import importlib.util
import pathlib
import subprocess
import sys

import numpy as np
import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
HAS_ULTRALYTICS = importlib.util.find_spec("ultralytics") is not None and importlib.util.find_spec("torch") is not None
needs_ultralytics = pytest.mark.skipif(not HAS_ULTRALYTICS, reason="ultralytics/torch not installed (pip install -e '.[train]')")


def train_quick(out: pathlib.Path, *arguments: str, timeout: int = 900) -> pathlib.Path:
    """`python -m models.train --quick` with `arguments`, its models exported to `out`."""
    result = subprocess.run([sys.executable, "-m", "models.train", "--quick", *arguments, "--out", str(out)], cwd=REPOSITORY,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def quick_models(tmp_path_factory):
    return train_quick(tmp_path_factory.mktemp("quick-models"))


@pytest.mark.slow
@needs_ultralytics
def test_quick_training_exports_models_the_runtime_loads(quick_models):
    from models import data_gen
    from referee.vision import load_recogniser

    recogniser = load_recogniser(quick_models)
    scene = data_gen.render_scene(5_200_000)
    detections = recogniser.find_cards(scene.image)  # one epoch names nothing reliably; it must run
    assert isinstance(detections, list)
    assert len(recogniser.classifier.names) == 53
    assert recogniser.face is not None and recogniser.suit is not None  # every shipped model is trained


def _detector_model(weights: pathlib.Path):
    from models.train import import_ultralytics

    ultralytics = import_ultralytics(threads=2)
    return ultralytics.YOLO(str(weights)).model.float().eval()


def _classifier_model(weights: pathlib.Path, classes: int):
    import torch

    from models import index_net

    model = index_net.build(classes)
    model.load_state_dict(torch.load(weights, map_location="cpu"))
    return torch.nn.Sequential(model, torch.nn.Softmax(dim=1)).eval()


@pytest.mark.slow
@needs_ultralytics
@pytest.mark.parametrize("kind", ["detector", "classifier"])
def test_onnx_agrees_with_the_trained_model(quick_models, kind):
    """The exported graph computes what the trained torch model computes, on the runtime's own input."""
    import torch

    from models import data_gen
    from referee.vision.geometry import index_crops, order_card_corners
    from referee.vision.onnx_models import CardDetector, IndexClassifier

    scene = data_gen.render_scene(5_200_001)
    if kind == "detector":
        onnx_model = CardDetector(quick_models / "card_detector.onnx")
        tensor, _, _ = onnx_model.prepare(scene.image)
        onnx_output = onnx_model.raw(tensor)
        torch_model = _detector_model(REPOSITORY / "models" / "runs" / "detector-quick" / "weights" / "best.pt")
    else:
        onnx_model = IndexClassifier(quick_models / "card_index_classifier.onnx")
        quads = [order_card_corners(card.quad) for card in scene.cards] or [np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)]
        crops = [crop for quad in quads for crop in index_crops(scene.image, quad, onnx_model.image_size)]
        tensor = onnx_model.prepare(crops)
        onnx_output = onnx_model.probabilities(crops)
        torch_model = _classifier_model(REPOSITORY / "models" / "runs" / "classifier-quick" / "last.pt", len(onnx_model.names))
    with torch.no_grad():
        torch_output = torch_model(torch.from_numpy(tensor))
    torch_output = (torch_output[0] if isinstance(torch_output, (tuple, list)) else torch_output).numpy()
    if kind == "detector":
        torch_output = torch_output[0].T
    scale = max(1.0, float(np.abs(torch_output).max()))
    assert onnx_output.shape == torch_output.shape
    assert np.abs(onnx_output - torch_output).max() <= 1e-3 * scale


@pytest.mark.slow
@needs_ultralytics
def test_the_face_classifier_onnx_agrees_with_the_trained_model(quick_models):
    """Its adaptive pooling is spelled out cell by cell for ONNX: the export must still compute the same."""
    import torch

    from models import face_data, face_net
    from referee.vision.onnx_models import FaceClassifier

    onnx_model = FaceClassifier(quick_models / "card_face_classifier.onnx")
    crops = [face_data.pile_view_sample(seed)[0] for seed in (1, 2, 3)]
    model = face_net.build(len(onnx_model.names))
    model.load_state_dict(torch.load(REPOSITORY / "models" / "runs" / "face-classifier-quick" / "last.pt", map_location="cpu"))
    tensor = np.stack([crop[:, :, ::-1].transpose(2, 0, 1) for crop in crops]).astype(np.float32) / 255
    with torch.no_grad():
        torch_output = torch.softmax(model.eval()(torch.from_numpy(tensor)), dim=1).numpy()
    onnx_output = onnx_model.probabilities(crops)
    assert onnx_output.shape == torch_output.shape == (3, 53)
    assert np.abs(onnx_output - torch_output).max() <= 1e-4


@pytest.mark.slow
@needs_ultralytics
def test_the_suit_classifier_onnx_agrees_with_the_trained_model(quick_models):
    import torch

    from models import face_data, suit_net
    from referee.vision.onnx_models import SuitClassifier

    onnx_model = SuitClassifier(quick_models / "card_suit_classifier.onnx")
    crops, _ = face_data.suit_view_samples(1, 2)
    model = suit_net.build(len(onnx_model.names))
    model.load_state_dict(torch.load(REPOSITORY / "models" / "runs" / "suit-classifier-quick" / "last.pt", map_location="cpu"))
    tensor = np.stack([crop[:, :, ::-1].transpose(2, 0, 1) for crop in crops]).astype(np.float32) / 255
    with torch.no_grad():
        torch_output = torch.softmax(model.eval()(torch.from_numpy(tensor)), dim=1).numpy()
    onnx_output = onnx_model.probabilities(list(crops))
    assert onnx_output.shape == torch_output.shape == (4, 5)
    assert onnx_model.names == ["C", "D", "H", "S", "none"]
    assert np.abs(onnx_output - torch_output).max() <= 1e-4


@needs_ultralytics
def test_training_saves_its_checkpoints_where_polars_is_missing(monkeypatch, tmp_path):
    from ultralytics.engine.trainer import BaseTrainer

    from models import train

    original = BaseTrainer.read_results_csv
    monkeypatch.setattr(BaseTrainer, "read_results_csv", original)  # restored after the test
    monkeypatch.setitem(sys.modules, "polars", None)  # `import polars` raises ImportError, as on a machine without it
    trainer = BaseTrainer.__new__(BaseTrainer)
    trainer.csv = tmp_path / "results.csv"
    trainer.csv.write_text("epoch,loss\n1,0.5\n")
    with pytest.raises(ImportError):
        original(trainer)  # what the first checkpoint save met
    train._without_polars()
    assert trainer.read_results_csv() == {}


@needs_ultralytics
def test_the_face_mix_reads_the_weighted_mean_of_its_models_each_at_its_own_crop_size(tmp_path):
    """The shipped face classifier is several FaceNets in one ONNX file (`face_net.export_mean`): the
    runtime loads it as one model of FACE_SIZE and gets the weighted mean of the readings; a member trained
    on smaller crops reads the crop shrunk as OpenCV's INTER_AREA shrinks it."""
    import cv2
    import torch

    from models import data_gen, face_data, face_net
    from referee.vision.onnx_models import FaceClassifier

    names = data_gen.class_names()
    torch.manual_seed(0)
    large, small = face_net.build(len(names)).eval(), face_net.build(len(names)).eval()
    target = face_net.export_mean([(large, face_net.INPUT_SHAPE, 3.0), (small, (80, 56), 1.0)], names, tmp_path / "mix.onnx")
    crops = [face_data.pile_view_sample(seed)[0] for seed in (4, 5)]
    assert crops[0].shape[:2] == face_net.INPUT_SHAPE

    def tensor(images):
        return torch.from_numpy(np.stack([image[:, :, ::-1].transpose(2, 0, 1) for image in images]).astype(np.float32) / 255)

    shrunk = [cv2.resize(crop.astype(np.float32), (56, 80), interpolation=cv2.INTER_AREA) for crop in crops]
    with torch.no_grad():
        readings = [torch.softmax(large(tensor(crops)), dim=1).numpy(), torch.softmax(small(tensor(shrunk)), dim=1).numpy()]
    onnx_output = FaceClassifier(target).probabilities(crops)
    assert onnx_output.shape == (2, 53)
    assert np.abs(onnx_output - (0.75 * readings[0] + 0.25 * readings[1])).max() <= 1e-4
    assert np.abs(readings[0] - readings[1]).max() > 1e-3  # two different models, so the mean is not either one


def test_an_area_matrix_shrinks_as_opencv_does():
    import cv2

    from models import face_net

    image = np.random.default_rng(0).uniform(0, 1, (120, 84)).astype(np.float32)
    shrunk = face_net.area_matrix(120, 80) @ image @ face_net.area_matrix(84, 56).T
    assert np.abs(shrunk - cv2.resize(image, (56, 80), interpolation=cv2.INTER_AREA)).max() < 1e-5
