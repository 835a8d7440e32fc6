"""Helper threads give way to the thread that referees: a lower priority for them, none taken from it."""

import os
import sys
import threading

import pytest

from referee.capture.priority import HELPER_NICENESS, give_way

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread has a niceness of its own on Linux")


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _on_a_thread(work):
    out = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]


@linux_only
def test_a_helper_that_gives_way_runs_lower_and_the_thread_that_started_it_does_not():
    before = _niceness()
    gave_way, helper = _on_a_thread(lambda: (give_way(), _niceness()))
    assert gave_way
    assert helper == min(19, before + HELPER_NICENESS)
    assert _niceness() == before


@linux_only
def test_giving_way_again_and_again_stops_at_the_lowest_priority():
    assert _on_a_thread(lambda: [give_way() for _ in range(20)] and _niceness()) == 19


def test_where_threads_have_no_priority_of_their_own_nothing_changes(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    before = _niceness() if sys.platform.startswith("linux") else None
    assert _on_a_thread(give_way) is False
    if before is not None:
        assert _niceness() == before


@linux_only
def test_a_video_file_is_decoded_at_a_lower_priority_than_the_referee_reading_it(tmp_path, monkeypatch):
    from referee.capture import VideoFileSource, video_file
    from tests.capture.streaming import numbered_images
    from tests.capture.test_capture import write_video

    decoded_at = []
    real = video_file.read_picture

    def reading(capture):
        decoded_at.append(_niceness())
        return real(capture)

    monkeypatch.setattr(video_file, "read_picture", reading)
    path = write_video(tmp_path / "clip.mp4", numbered_images(5), 30)
    mine = _niceness()
    assert len(list(VideoFileSource(path).frames())) == 5
    assert decoded_at and set(decoded_at) == {min(19, mine + HELPER_NICENESS)}
