"""Card recognition: find and name cards in images with the shipped ONNX models (no torch).

`load_recogniser()` gives a `CardRecogniser`; `find_cards(image)` returns `CardDetection`s.
"""

from referee.vision.detection import CardDetection
from referee.vision.recogniser import CardRecogniser, OnnxCardRecogniser, default_models_dir, load_recogniser

__all__ = ["CardDetection", "CardRecogniser", "OnnxCardRecogniser", "default_models_dir", "load_recogniser"]
