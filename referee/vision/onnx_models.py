"""The shipped ONNX models behind small classes: the card detector, the index and the face classifiers.

Foreign formats stop here: callers get numpy outlines and probabilities, never model tensors.
"""

from __future__ import annotations

import ast
import os
import pathlib

import cv2
import numpy as np

from referee.errors import ModelError
from referee.vision.geometry import letterbox, order_card_corners

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

#: Threads per onnxruntime session. The referee shares a laptop with the camera and the board thread.
SESSION_THREADS = 2


def _load(path: pathlib.Path, *, default_size: int):
    """Opens a shipped model: (path, session, class names, its input, its square input size)."""
    path = pathlib.Path(path)
    session = open_session(path)
    metadata = _metadata(session, path)
    model_input = session.get_inputs()[0]
    return path, session, _class_names(metadata, path), model_input, _image_size(model_input.shape, metadata, default=default_size)


def open_session(path: pathlib.Path):
    """An onnxruntime session for `path`, or a ModelError saying what is wrong with the file."""
    import onnxruntime

    path = pathlib.Path(path)
    if not path.is_file():
        raise ModelError(f"model file {path} is missing: expected the shipped ONNX file there; restore it from the repository or retrain with `python -m models.train`")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = SESSION_THREADS
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # no busy-waiting between operators: on a laptop shared with the camera and the UI, spinning
    # threads only steal the cores the other work needs
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own untyped errors for a damaged file
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelError(f"model file {path} cannot be loaded ({first_line[:160]}): expected an ONNX model; restore it from the repository or retrain with `python -m models.train`") from None


def _metadata(session, path: pathlib.Path) -> dict[str, str]:
    return dict(session.get_modelmeta().custom_metadata_map)


def _class_names(metadata: dict[str, str], path: pathlib.Path) -> list[str]:
    try:
        names = ast.literal_eval(metadata["names"])
        return [names[index] for index in sorted(names)]
    except (KeyError, ValueError, SyntaxError, TypeError):
        raise ModelError(f"model file {path} has no class names in its metadata: expected an ultralytics ONNX export; retrain with `python -m models.train`") from None


def _image_size(shape, metadata: dict[str, str], default: int) -> int:
    """The square input side the model was trained at: fixed in the graph, or in its metadata."""
    if isinstance(shape[-1], int):
        return int(shape[-1])
    try:
        return int(ast.literal_eval(metadata["imgsz"])[0])
    except (KeyError, ValueError, SyntaxError, TypeError, IndexError):
        return default


class CardDetector:
    """Finds card outlines (oriented boxes) in a BGR image with the ONNX card detector.

    `confidence_threshold`: lowest detector score kept; lowering it finds more partly hidden cards
    and more false ones. `overlap_threshold`: two outlines overlapping more than this (IoU) are one card;
    raising it keeps more of a fanned hand's cards apart, and more duplicates.
    """

    def __init__(self, path: pathlib.Path, *, confidence_threshold: float = 0.35, overlap_threshold: float = 0.5,
                 stride: int | None = None) -> None:
        self.path, self.session, self.names, model_input, self.image_size = _load(path, default_size=320)
        self.input_name = model_input.name
        #: None: inputs padded square, as trained; a number (32, the model's coarsest stride): padded only
        #: to a multiple of it (the graph takes any input size), so a wide picture costs less to search
        self.stride = stride
        self.confidence_threshold = confidence_threshold
        self.overlap_threshold = overlap_threshold

    def prepare(self, image: np.ndarray, image_size: int | None = None) -> tuple[np.ndarray, float, tuple[float, float]]:
        padded, scale, padding = letterbox(image, image_size or self.image_size, self.stride)
        tensor = cv2.cvtColor(padded, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        return tensor, scale, padding

    def raw(self, tensor: np.ndarray) -> np.ndarray:
        """The model's output for a prepared tensor: (candidates, 4 box + classes + angle)."""
        return self.session.run(None, {self.input_name: tensor})[0][0].T

    def detect(self, image: np.ndarray, image_size: int | None = None) -> list[tuple[np.ndarray, float]]:
        """Ordered card outlines in image pixels, with detector scores, best first."""
        return self.detect_many([image], image_size)[0]

    def detect_many(self, images: list[np.ndarray], image_size: int | None = None) -> list[list[tuple[np.ndarray, float]]]:
        """`detect` for each of `images`, in one run of the model per input shape: a batch of two 256 px
        inputs takes about two thirds of the time of two runs, three 160 px ones about as much as two
        (2 cores)."""
        if not images:
            return []
        prepared = [self.prepare(image, image_size) for image in images]
        found: list = [None] * len(images)
        for shape in dict.fromkeys(tensor.shape for tensor, _, _ in prepared):  # one run per input shape
            numbers = [number for number, (tensor, _, _) in enumerate(prepared) if tensor.shape == shape]
            outputs = self.session.run(None, {self.input_name: np.concatenate([prepared[number][0] for number in numbers])})[0]
            for number, output in zip(numbers, outputs):
                found[number] = self._outlines(output.T, *prepared[number][1:])
        return found

    def _outlines(self, output: np.ndarray, scale: float, padding: tuple[float, float]) -> list[tuple[np.ndarray, float]]:
        """One input's outlines (image pixels) and scores, best first, from its rows of the model's output."""
        pad_x, pad_y = padding
        scores = output[:, 4:-1].max(axis=1)
        keep = scores >= self.confidence_threshold
        output, scores = output[keep], scores[keep]
        if len(output) == 0:
            return []
        rotated = [((float(x), float(y)), (float(w), float(h)), float(np.degrees(angle))) for x, y, w, h, angle in output[:, [0, 1, 2, 3, -1]]]
        kept = cv2.dnn.NMSBoxesRotated(rotated, scores.astype(float).tolist(), self.confidence_threshold, self.overlap_threshold)
        results = []
        for index in np.asarray(kept, dtype=int).reshape(-1):
            corners = cv2.boxPoints(rotated[index])
            corners = (corners - np.array([pad_x, pad_y], dtype=np.float32)) / scale
            results.append((order_card_corners(corners), float(scores[index])))
        results.sort(key=lambda item: -item[1])
        return results


class IndexClassifier:
    """Names a card from its upright corner-index crops with the ONNX index classifier.

    Classes are the 52 cards (`AS`, `10H`, ...) and `none` (a corner with no readable index: covered,
    a card back, not a card at all).
    """

    NONE = "none"

    def __init__(self, path: pathlib.Path) -> None:
        self.path, self.session, self.names, model_input, self.image_size = _load(path, default_size=64)
        self.input_name = model_input.name
        self.fixed_batch = model_input.shape[0] if isinstance(model_input.shape[0], int) else None

    def prepare(self, crops: list[np.ndarray]) -> np.ndarray:
        batch = []
        for crop in crops:
            if crop.shape[:2] != (self.image_size, self.image_size):
                crop = cv2.resize(crop, (self.image_size, self.image_size), interpolation=cv2.INTER_AREA)
            batch.append(cv2.cvtColor(crop, cv2.COLOR_BGR2RGB).transpose(2, 0, 1))
        return np.stack(batch).astype(np.float32) / 255.0

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities, one row per crop, columns in `self.names` order."""
        if not crops:
            return np.zeros((0, len(self.names)), dtype=np.float32)
        tensor = self.prepare(crops)
        if self.fixed_batch is not None and self.fixed_batch != len(crops):
            rows = [self.session.run(None, {self.input_name: tensor[i : i + 1]})[0] for i in range(len(crops))]
            return np.concatenate(rows, axis=0)
        return self.session.run(None, {self.input_name: tensor})[0]


class FaceClassifier:
    """Names a card from its whole face cut upright along its outline (`geometry.face_crop`), with the
    ONNX face classifier: the reader for blurred pile views, where pips and pictures outlast the index.
    Classes as IndexClassifier's (52 cards and `none`)."""

    NONE = "none"

    def __init__(self, path: pathlib.Path) -> None:
        self.path, self.session, self.names, model_input, _ = _load(path, default_size=80)
        self.input_name = model_input.name
        metadata = _metadata(self.session, self.path)
        try:
            height, width = (int(v) for v in ast.literal_eval(metadata["imgsz"]))
        except (KeyError, ValueError, SyntaxError, TypeError):
            raise ModelError(f"model file {path} has no input size in its metadata: retrain with `python -m models.train --stage face-classifier`") from None
        self.size = (width, height)

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities, one row per face crop, columns in `self.names` order."""
        if not crops:
            return np.zeros((0, len(self.names)), dtype=np.float32)
        batch = [cv2.cvtColor(crop if crop.shape[1::-1] == self.size else cv2.resize(crop, self.size, interpolation=cv2.INTER_AREA),
                              cv2.COLOR_BGR2RGB).transpose(2, 0, 1) for crop in crops]
        return self.session.run(None, {self.input_name: np.stack(batch).astype(np.float32) / 255.0})[0]


class SuitClassifier(FaceClassifier):
    """Names the suit of a card from one index corner (`geometry.suit_crops`), with the ONNX suit
    classifier: classes `C`, `D`, `H`, `S` and `none`. Reads what the face classifier's small view
    blurs: a heart from a diamond, a club from a spade, on court cards above all."""

    SUITS = ("C", "D", "H", "S")

    def __init__(self, path: pathlib.Path) -> None:
        super().__init__(path)
        if any(suit not in self.names for suit in self.SUITS):
            raise ModelError(f"model file {path} does not name the four suits: expected classes C, D, H, S and none, got {self.names}")
