"""An RTSP camera: H.264 over RTP from a real RTSP server on loopback (`tests.capture.rtsp_serving`),
read through OpenCV's FFmpeg as `referee live --camera rtsp://...` reads it."""

import time

import pytest

from referee.capture import open_live_source
from referee.errors import VideoError
from tests.capture.rtsp_serving import h264_access_units, serve_rtsp
from tests.capture.streaming import coded_images, coded_number
from tests.capture.test_capture import write_video

FPS = 30


def camera_footage(folder, count):
    """`count` pictures whose colour gives their number, encoded as a camera's H.264 (a key picture a second)."""
    return h264_access_units(write_video(folder / "coded.avi", coded_images(count), FPS, fourcc="MJPG"), fps=FPS)


@pytest.fixture(scope="module")
def camera_stream(tmp_path_factory):
    return camera_footage(tmp_path_factory.mktemp("rtsp"), 45)


def numbers(frames):
    return [coded_number(frame.image) for frame in frames]


def received(units, *, reconnect=0, **serving):
    """(the frames `referee live` reads from a camera serving `units` as `serve_rtsp(**serving)` does, the source)."""
    with serve_rtsp(units, fps=FPS, **serving) as url:
        source = open_live_source(url, reconnect=reconnect)
        frames = list(source.frames())
        source.close()
    return frames, source


def test_an_rtsp_camera_s_pictures_come_in_order_at_real_time_pace(camera_stream):
    started = time.monotonic()
    frames, source = received(camera_stream)
    elapsed = time.monotonic() - started
    assert numbers(frames) == list(range(45))
    assert elapsed > 44 / FPS - 0.1  # served at the camera's pace, opening included (not all at once)
    assert [notice.kind for notice in source.notices] == ["ended"]


def test_an_rtsp_camera_is_asked_for_its_pictures_over_tcp(camera_stream):
    # over UDP a lossy Wi-Fi link loses packets and smears the pictures; the camera is asked for RTP on the
    # RTSP connection itself from the first SETUP
    requests = []
    received(camera_stream[:10], requests=requests)
    setups = [headers["transport"] for request, headers in requests if request.startswith("SETUP")]
    assert setups and "TCP" in setups[0] and "interleaved" in setups[0]


def test_pictures_arriving_in_bursts_are_timed_by_the_camera_s_clock(camera_stream):
    # a congested network hands them on five at once; stamped on arrival, five frames would lie a few
    # milliseconds apart where the camera took them 33 ms apart
    frames, source = received(camera_stream, bursts=5)
    assert numbers(frames) == list(range(45))
    gaps = [later.t - earlier.t for earlier, later in zip(frames, frames[1:])]
    assert gaps == pytest.approx([1 / FPS] * 44, abs=0.002)
    assert source.fps == pytest.approx(FPS, rel=0.05)
    assert not [notice for notice in source.notices if notice.kind in ("dropped", "stall")]


def test_an_rtsp_camera_that_drops_ends_with_what_it_sent(camera_stream):
    frames, source = received(camera_stream, drop_after=35)
    assert numbers(frames) == list(range(35))
    assert source.notices[-1].kind == "ended" and "after frame 34" in source.notices[-1].message


def test_an_unreachable_rtsp_camera_is_a_clear_error_that_keeps_its_password_to_itself():
    started = time.monotonic()
    with pytest.raises(VideoError, match="cannot open camera rtsp://") as refused:
        open_live_source("rtsp://admin:hunter2@127.0.0.1:9/table")
    assert time.monotonic() - started < 10
    assert "rtsp://admin:***@127.0.0.1:9/table" in str(refused.value) and "hunter2" not in str(refused.value)


def test_an_rtsp_camera_that_drops_is_opened_again_on_its_next_key_picture(tmp_path):
    units = camera_footage(tmp_path, 150)
    frames, source = received(units, reconnect=3, outage=(10, 0.3))
    seen = numbers(frames)
    back = seen[10]
    assert any(nal[0] & 0x1F == 5 for nal in units[back])  # a new session starts on a key picture
    assert back >= 10 + 0.3 * FPS and seen == list(range(10)) + list(range(back, 150))
    assert [frame.index for frame in frames] == list(range(len(frames)))
    assert frames[10].t - frames[9].t >= 0.3
    assert [frame.t for frame in frames[11:]] == pytest.approx([frames[10].t + number / FPS for number in range(1, 150 - back)], abs=0.002)
    assert [notice.kind for notice in source.notices] == ["reconnect", "ended"]
