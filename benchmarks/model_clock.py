"""Time spent inside the recognition models: `with ModelClock(recogniser) as clock: ...`, then `clock.seconds`.

Issue 5's speed targets are in model time (a photo's cards named in 15 ms of model time, a pile's top in
3 ms): every onnxruntime call the recogniser makes, summed, apart from the Python and OpenCV around them.
"""

from __future__ import annotations

import time


class _TimedSession:
    """An onnxruntime session whose `run` calls add their seconds to `clock.seconds`."""

    def __init__(self, session, clock: "ModelClock") -> None:
        self._session, self._clock = session, clock

    def run(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self._session.run(*args, **kwargs)
        finally:
            self._clock.seconds += time.perf_counter() - started

    def __getattr__(self, name):
        return getattr(self._session, name)


class ModelClock:
    """While entered, every model of `recogniser` (detectors, classifiers) counts its run time here."""

    def __init__(self, recogniser) -> None:
        self.seconds = 0.0
        candidates = [getattr(recogniser, name, None) for name in ("detector", "photo_detector", "classifier", "face", "suit")]
        self._models = list({id(model): model for model in candidates if model is not None}.values())

    def __enter__(self) -> "ModelClock":
        for model in self._models:
            model.session = _TimedSession(model.session, self)
        return self

    def __exit__(self, *exc) -> None:
        for model in self._models:
            model.session = model.session._session
