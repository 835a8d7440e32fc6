"""Work done ahead on a helper thread: order kept, failures raised where they happened, early stops."""

import os
import sys
import threading
import time

import pytest

from referee.capture.priority import HELPER_NICENESS
from referee.pipeline.ahead import ahead


def test_items_come_out_in_order_and_all_of_them():
    assert list(ahead(iter(range(50)), depth=3)) == list(range(50))


def test_items_are_made_on_another_thread_while_the_last_is_used():
    threads = []

    def made():
        for number in range(5):
            threads.append(threading.current_thread())
            yield number

    assert list(ahead(made())) == [0, 1, 2, 3, 4]
    assert threads and all(thread is not threading.current_thread() for thread in threads)


def test_a_failure_while_making_an_item_is_raised_in_its_place_after_the_items_before_it():
    def made():
        yield 1
        yield 2
        raise ValueError("video broke")

    got = []
    with pytest.raises(ValueError, match="video broke"):
        for item in ahead(made()):
            got.append(item)
    assert got == [1, 2]


def test_stopping_early_stops_the_helper():
    made_count = []

    def endless():
        number = 0
        while True:
            made_count.append(number)
            yield number
            number += 1

    items = ahead(endless(), depth=2)
    assert [next(items) for _ in range(3)] == [0, 1, 2]
    items.close()
    settled = len(made_count)
    time.sleep(0.3)
    assert len(made_count) == settled <= 3 + 2 + 2  # what was in hand and queued, no more


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread has a niceness of its own on Linux")
def test_items_are_made_at_a_lower_priority_than_the_thread_using_them():
    def niceness():
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    mine = niceness()
    made = list(ahead(niceness() for _ in range(3)))
    assert made == [min(19, mine + HELPER_NICENESS)] * 3
    assert niceness() == mine
