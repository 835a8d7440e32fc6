"""The shipped face classifier in 8-bit integers (`models.quantize`, `train.export_face_mix`): needs the
training extra (torch for the checkpoints, onnx for the quantiser)."""

import pathlib

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

from models import face_data, train  # noqa: E402
from models.quantize import model_input  # noqa: E402
from referee.vision.onnx_models import FaceClassifier  # noqa: E402

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def face_mixes(tmp_path_factory):
    """(the shipped mix in 32-bit floats, the same in 8-bit integers), made afresh from the checkpoints."""
    folder = tmp_path_factory.mktemp("face-mix")
    full = train.export_face_mix(list(train.FACE_MIX), folder / "float.onnx", quantize=False)
    return full, train.export_face_mix(list(train.FACE_MIX), folder / "int8.onnx")


@pytest.mark.slow
def test_the_integer_face_classifier_names_the_cards_the_float_one_names_on_decks_it_never_saw(face_mixes):
    import onnx

    full, int8 = (FaceClassifier(path) for path in face_mixes)
    assert int8.names == full.names and int8.size == full.size
    assert any(node.op_type == "QuantizeLinear" for node in onnx.load(str(face_mixes[1])).graph.node)
    crops, labels = face_data.pile_view_samples(31_000_000, 120, train.FACE_HELD_OUT_DESIGNS)
    floats, integers = full.probabilities(list(crops)), int8.probabilities(list(crops))
    named_float = np.array([full.names[i] for i in floats.argmax(axis=1)])
    named_int8 = np.array([int8.names[i] for i in integers.argmax(axis=1)])
    assert (named_int8 == named_float).mean() >= 0.97
    assert (named_int8 == np.array(labels)).mean() >= (named_float == np.array(labels)).mean() - 0.02
    assert np.abs(integers - floats).max() < 0.2


@pytest.mark.slow
def test_the_shipped_face_classifier_is_what_the_training_pipeline_makes(face_mixes):
    """`python -m models.train --stage face-mix` makes models/' file: the same readings (its bytes are the
    same on one machine; another CPU may set the 8-bit ranges a rounding apart)."""
    crops, _ = face_data.pile_view_samples(31_000_500, 40)
    made, shipped = (FaceClassifier(path).probabilities(list(crops)) for path in (face_mixes[1], REPOSITORY / "models" / train.FACE_ONNX))
    assert np.abs(made - shipped).max() < 0.02
    assert (made.argmax(axis=1) == shipped.argmax(axis=1)).all()


def test_crops_go_to_the_classifiers_as_rgb_planes_in_zero_to_one():
    crop = np.zeros((1, 2, 3, 3), np.uint8)
    crop[..., 0] = 255  # blue, in OpenCV's order
    tensor = model_input(crop)
    assert tensor.shape == (1, 3, 2, 3) and tensor.dtype == np.float32
    assert tensor[0, 2].min() == 1.0 and tensor[0, :2].max() == 0.0
