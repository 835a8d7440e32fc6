"""A classifier's ONNX export turned to 8-bit integers, for the referee's CPU.

The face classifier is read on every pile top the referee names, and its convolutions are most of that
read's model time. Quantised (weights int8 per output channel, activations uint8, calibrated on views
like the ones it was trained on), onnxruntime runs it with integer kernels: on the 2-core AMD host,
session 48, a pile top's median model time went 3.3 -> 2.5 ms with the same readings of the 898 views of
`benchmarks.pile_tops` (`models/card_face_classifier.md`). The graph keeps its input, output and
metadata, so the runtime (`referee.vision.onnx_models.FaceClassifier`) loads either file unchanged.

Needs onnx (the training extra) besides onnxruntime.
"""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np


def quantized(source: pathlib.Path, target: pathlib.Path, samples: np.ndarray) -> pathlib.Path:
    """`source` (a float ONNX classifier, one input) written to `target` in QDQ int8, its activations'
    ranges taken from `samples`: a float32 batch as the model takes it (N x 3 x H x W, 0-1 RGB)."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quant_pre_process, quantize_static

    import onnxruntime

    input_name = onnxruntime.InferenceSession(str(source), providers=["CPUExecutionProvider"]).get_inputs()[0].name

    class Samples(CalibrationDataReader):
        def __init__(self) -> None:
            self._batches = iter([{input_name: samples[i : i + 1]} for i in range(len(samples))])

        def get_next(self):
            return next(self._batches, None)

    with tempfile.TemporaryDirectory() as scratch:
        prepared = pathlib.Path(scratch) / "prepared.onnx"
        # shapes inferred and the graph folded first, as onnxruntime's quantiser asks
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        quantize_static(str(prepared), str(target), Samples(), quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, per_channel=True)
    return target


def model_input(images: np.ndarray) -> np.ndarray:
    """BGR crops (N x H x W x 3 uint8) as the classifiers take them: N x 3 x H x W float32 RGB in 0-1."""
    return np.ascontiguousarray(images[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32) / 255.0
