"""The model clock counts the time a real recogniser spends inside its ONNX models, and nothing after."""

import time

from benchmarks.model_clock import ModelClock
from benchmarks.vision_speed import pile_view
from referee.vision import load_recogniser


def test_the_clock_counts_model_time_within_a_read_and_lets_go_of_the_models_after():
    recogniser = load_recogniser()
    sessions = [recogniser.detector.session, recogniser.classifier.session]
    view = pile_view()
    with ModelClock(recogniser) as clock:
        started = time.perf_counter()
        card, confidence = recogniser.name_top_card(view)
        wall = time.perf_counter() - started
    assert card is not None
    assert 0 < clock.seconds < wall
    assert [recogniser.detector.session, recogniser.classifier.session] == sessions  # the real sessions again
    counted = clock.seconds
    recogniser.name_top_card(view)
    assert clock.seconds == counted  # not counting once left
