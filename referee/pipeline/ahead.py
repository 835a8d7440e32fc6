"""Work done a few frames ahead on a helper thread: what depends on a frame alone (decoding it, seeing
it from above) overlaps the tracking of the frames before it. OpenCV releases the GIL, so on two cores
the two run side by side; the items come out in order, exactly as the iterator gives them."""

from __future__ import annotations

import queue
import threading
from typing import Iterator, TypeVar

from referee.capture.priority import give_way

T = TypeVar("T")

#: Items made ahead of the one being used. Each holds a frame or two (a few MB at 720p). Deep enough to
#: carry the helpers through the frames whose tracking costs more (see `video_file.READ_AHEAD`).
DEPTH = 16

_END = object()


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def ahead(items: Iterator[T], depth: int = DEPTH) -> Iterator[T]:
    """`items`, produced on a helper thread up to `depth` ahead. An exception the iterator raises is
    raised here, in its place; closing this generator early stops the helper."""
    made: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                made.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        give_way()  # the consumer, working through the items made already, comes first (see `priority`)
        try:
            for item in items:
                if not put(item):
                    return
        except BaseException as error:  # handed to the consumer, which raises it
            put(_Failed(error))
            return
        put(_END)

    worker = threading.Thread(target=produce, name="frames-ahead", daemon=True)
    worker.start()
    try:
        while True:
            try:
                item = made.get(timeout=0.5)
            except queue.Empty:
                if not worker.is_alive() and made.empty():
                    return
                continue
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.error
            yield item
    finally:
        stop.set()
        worker.join(timeout=2.0)
