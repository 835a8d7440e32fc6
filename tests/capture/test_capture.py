import json
import subprocess
import time

import cv2
import numpy as np
import pytest

from referee.capture import (
    Frame, FrameSource, GapDetector, KeepUp, MjpegHttpSource, MjpegParser, Recorder, VideoFileSource,
    open_live_source, open_source, sidecar_path,
)
from referee.errors import VideoError
from tests.capture.streaming import coded_images, coded_number, numbered_images, serve_mjpeg


def write_video(path, images, fps, fourcc="mp4v"):
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, (width, height))
    assert writer.isOpened()
    for image in images:
        writer.write(image)
    writer.release()
    return path


@pytest.mark.parametrize("fps", [30, 60, 25])
def test_video_file_gives_every_frame_with_container_times(tmp_path, fps):
    path = write_video(tmp_path / "clip.mp4", numbered_images(24), fps)
    source = VideoFileSource(path)
    assert isinstance(source, FrameSource)
    assert source.fps == pytest.approx(fps)
    frames = list(source.frames())
    assert [frame.index for frame in frames] == list(range(24))
    assert [frame.t for frame in frames] == pytest.approx([i / fps for i in range(24)], abs=1e-3)
    brightness = [int(round((frame.image.mean() - 20) / 7)) for frame in frames]
    assert brightness == list(range(24))
    assert source.notices == []


def test_a_video_file_is_decoded_on_one_thread_that_gives_way_to_the_tracking(tmp_path):
    # FFmpeg's own decoding threads would start at the referee's priority, beside the tracking (see
    # `video_file.DECODER_THREADS`); the one decoding thread is the reader's, which gives way
    path = write_video(tmp_path / "clip.mp4", numbered_images(4), 30)
    source = VideoFileSource(path)
    assert source._capture.get(cv2.CAP_PROP_N_THREADS) == 1
    assert len(list(source.frames())) == 4


def test_truncated_avi_ends_cleanly_with_one_warning(tmp_path):
    path = write_video(tmp_path / "clip.avi", [np.random.default_rng(i).integers(0, 255, (120, 160, 3), np.uint8)
                                               for i in range(40)], 30, "MJPG")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    warnings = []
    source = VideoFileSource(path, warn=warnings.append)
    frames = list(source.frames())
    assert 5 < len(frames) < 40
    assert len(warnings) == 1 and "truncated" in warnings[0]
    assert [notice.kind for notice in source.notices] == ["truncated"]


def _ffmpeg(*arguments):
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", *map(str, arguments)], check=True)


def test_a_clip_cut_from_a_phone_video_without_re_encoding_is_whole(tmp_path):
    """`ffmpeg -ss 2 -t 1.5 -c copy`: the clip starts on the key frame before the cut, with an edit list that
    hides the frames before it; OpenCV shows only the cut's frames but counts the hidden ones too."""
    sliding = [np.full((120, 160, 3), 40, np.uint8) for _ in range(120)]
    for index, image in enumerate(sliding):
        image[:, index:index + 30] = 230  # a bar sliding right, a pixel a frame
    original = write_video(tmp_path / "clip.mp4", sliding, 30)
    _ffmpeg("-i", original, "-c:v", "libx264", "-g", "60", "-bf", "3", "-pix_fmt", "yuv420p", tmp_path / "phone.mp4")
    _ffmpeg("-ss", 2.5, "-i", tmp_path / "phone.mp4", "-t", 1.5, "-c", "copy", tmp_path / "cut.mp4")
    warnings = []
    source = VideoFileSource(tmp_path / "cut.mp4", warn=warnings.append)
    frames = list(source.frames())
    assert source.seconds == pytest.approx(1.5, abs=0.1) and 40 <= len(frames) <= 48
    assert frames[0].t == 0.0 and not warnings
    assert "truncated" not in [notice.kind for notice in source.notices]


def test_an_mp4_with_its_index_first_cut_short_is_said_truncated(tmp_path):
    original = write_video(tmp_path / "clip.mp4", [np.random.default_rng(i).integers(0, 255, (120, 160, 3), np.uint8)
                                                   for i in range(40)], 30)
    _ffmpeg("-i", original, "-c", "copy", "-movflags", "+faststart", tmp_path / "indexed.mp4")  # the index (moov) first
    data = (tmp_path / "indexed.mp4").read_bytes()
    (tmp_path / "indexed.mp4").write_bytes(data[: len(data) // 2])
    warnings = []
    source = VideoFileSource(tmp_path / "indexed.mp4", warn=warnings.append)
    frames = list(source.frames())
    assert source.seconds == pytest.approx(40 / 30, abs=0.01) and 5 < len(frames) < 40
    assert len(warnings) == 1 and "truncated" in warnings[0]


@pytest.mark.parametrize("content, expected", [
    (None, "not found"),
    (b"", "cannot open"),
    (b"this is not a video at all" * 100, "cannot open"),
])
def test_unreadable_video_is_a_clear_error(tmp_path, content, expected):
    path = tmp_path / "game.mp4"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(VideoError, match=expected):
        open_source(path)


def test_mp4_cut_before_its_index_is_a_clear_error(tmp_path):
    path = write_video(tmp_path / "clip.mp4", numbered_images(30), 30)
    path.write_bytes(path.read_bytes()[:-200])  # OpenCV's mp4 writer puts the index (moov) at the end
    try:
        frames = list(VideoFileSource(path, warn=lambda message: None).frames())
    except VideoError as error:
        assert "cannot open" in str(error)
    else:
        assert len(frames) <= 30


@pytest.mark.parametrize("times, expected", [
    ([0, 1 / 30, 2 / 30, 3 / 30], []),
    ([0, 1 / 30, 3 / 30, 4 / 30], [("dropped", 1, 1)]),
    ([0, 1 / 30, 1 / 30 + 0.049, 1 / 30 + 0.149], [("dropped", 2, 2)]),  # 49 ms < 1.5 periods; then 2 missing
    ([0, 1 / 30, 1.0], [("stall", 1, 28)]),
])
def test_gap_detector_reports_drops_and_stalls(times, expected):
    detector = GapDetector(30)
    found = [detector.check(index, t) for index, t in enumerate(times)]
    assert [(n.kind, n.frame, n.missing) for n in found if n is not None] == expected


def test_a_camera_slowing_down_is_said_once_not_as_a_drop_at_every_frame():
    # 30 fps, then 15 fps for a second (a webcam as the light dims, a phone's variable rate), then 30 again
    times = [index / 30 for index in range(10)]
    times += [times[-1] + step / 15 for step in range(1, 16)]
    times += [times[-1] + step / 30 for step in range(1, 16)]
    times += [times[-1] + 3 / 30]  # a frame really dropped at 30 fps again
    detector = GapDetector(30)
    found = [detector.check(index, t) for index, t in enumerate(times)]
    said = [(n.kind, n.frame) for n in found if n is not None]
    assert said == [("dropped", frame) for frame in range(9, 14)] + [("rate_changed", 14), ("rate_changed", 29), ("dropped", 39)]
    slowed, back = [n for n in found if n is not None and n.kind == "rate_changed"]
    assert "every 67 ms (15.0 fps)" in slowed.message and "every 33 ms (30.0 fps)" in back.message


def test_an_uneven_pace_is_still_said_as_drops():
    times, t = [0.0], 0.0
    for gap in [0.07, 0.12] * 4:  # no steady pace: frames lost, not a new rate
        t += gap
        times.append(t)
    detector = GapDetector(30)
    kinds = [n.kind for n in (detector.check(index, t) for index, t in enumerate(times)) if n is not None]
    assert kinds == ["dropped"] * 8


def test_mjpeg_parser_splits_chunked_stream():
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(5)]
    stream = b"".join(b"--x\r\nContent-Type: image/jpeg\r\n\r\n" + jpeg + b"\r\n" for jpeg in jpegs)
    parser = MjpegParser()
    got = []
    for start in range(0, len(stream), 97):  # odd chunk size: markers straddle chunks
        got += parser.feed(stream[start:start + 97])
    assert got == jpegs


@pytest.mark.parametrize("prefer_opencv", [True, False])
def test_mjpeg_stream_over_loopback_in_real_time(prefer_opencv):
    images = numbered_images(30)
    jpegs = [cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes() for image in images]
    with serve_mjpeg(jpegs, fps=30) as url:
        source = open_live_source(url, fps=30, prefer_opencv=prefer_opencv, reconnect=0)
        started = time.monotonic()
        frames = list(source.frames())
        elapsed = time.monotonic() - started
        source.close()
    assert len(frames) >= 28  # OpenCV may keep the very last part buffered
    brightness = [int(round((frame.image.mean() - 20) / 7)) for frame in frames]
    assert brightness == list(range(len(frames)))
    assert elapsed > 0.7  # served at real-time pace, not all at once
    assert frames[-1].t == pytest.approx(elapsed, abs=0.4)
    assert "ended" in [notice.kind for notice in source.notices]


@pytest.mark.parametrize("prefer_opencv", [True, False])
def test_a_live_stream_s_frame_rate_is_measured_not_taken_from_what_it_reports(prefer_opencv):
    # OpenCV reports 25 fps for any MJPEG stream (the pure-Python reader assumes 30); this one sends 15:
    # taken at its word, every frame would be reported as a dropped one
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(24)]
    with serve_mjpeg(jpegs, fps=15) as url:
        source = KeepUp(open_live_source(url, prefer_opencv=prefer_opencv, reconnect=0), warn=lambda message: None)
        frames = source.frames()
        next(frames)
        measured = source.settled_fps()
        rest = list(frames)
        source.close()
    assert measured == pytest.approx(15, rel=0.1) and source.fps == measured
    assert len(rest) >= 20
    assert not [notice for notice in source.notices if notice.kind in ("dropped", "stall")]


def test_a_frame_rate_given_is_kept_and_frames_slower_than_it_are_reported():
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(15)]
    with serve_mjpeg(jpegs, fps=15) as url:
        source = MjpegHttpSource(url, fps=30, reconnect=0)  # `referee live --fps 30`
        list(source.frames())
    assert source.fps == 30 and source.rate_settled.is_set()
    # the first slow frames said as drops, then once as the rate it really sends at
    kinds = [notice.kind for notice in source.notices]
    assert kinds.count("dropped") >= 3 and kinds.count("rate_changed") == 1


def test_stream_that_stalls_and_drops_is_reported_not_merged():
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(30)]
    with serve_mjpeg(jpegs, fps=30, stall=(10, 0.6), drop_after=20) as url:
        source = MjpegHttpSource(url, fps=30, reconnect=0)
        frames = list(source.frames())
    assert len(frames) == 20
    kinds = [notice.kind for notice in source.notices]
    assert "stall" in kinds and kinds[-1] == "ended"
    stall = next(notice for notice in source.notices if notice.kind == "stall")
    assert stall.frame == 9


@pytest.mark.parametrize("prefer_opencv", [True, False])
def test_a_stream_that_drops_is_opened_again_and_its_frames_go_on(prefer_opencv):
    # the camera's connection is cut at picture 20 and it cannot be reached for 0.8 s; then it serves on
    # live, from the picture due by then
    jpegs = [cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes() for image in coded_images(150)]
    with serve_mjpeg(jpegs, fps=30, outage=(20, 0.8)) as url:
        source = open_live_source(url, fps=30, prefer_opencv=prefer_opencv, reconnect=3)
        frames = list(source.frames())
        source.close()
    numbers = [coded_number(frame.image) for frame in frames]
    assert numbers[:20] == list(range(20))
    back = numbers[20]
    assert back >= 20 + 0.8 * 30 and numbers[20:] == list(range(back, 150))
    assert [frame.index for frame in frames] == list(range(len(frames)))  # numbered on, nothing merged
    assert frames[20].t - frames[19].t >= 0.8
    assert frames[20].t - frames[19].t == pytest.approx((back - 19) / 30, abs=0.35)  # timed on by the outage
    kinds = [notice.kind for notice in source.notices]
    assert kinds.count("reconnect") == 1 and kinds[-1] == "ended" and "stall" not in kinds
    reconnect = next(notice for notice in source.notices if notice.kind == "reconnect")
    assert reconnect.frame == 19 and reconnect.t == frames[19].t and "not seen" in reconnect.message


def test_a_stream_whose_pictures_change_size_is_stopped_there():
    # (a phone's camera app come back in another orientation): the calibration is for the first size; a view
    # of the table cut from the new pictures by it would be wrong without a word
    pictures = numbered_images(10) + numbered_images(10, size=(320, 240))
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in pictures]
    with serve_mjpeg(jpegs, fps=30) as url:
        source = MjpegHttpSource(url, fps=30, reconnect=0)
        frames = list(source.frames())
    assert len(frames) == 10 and all(frame.image.shape == (120, 160, 3) for frame in frames)
    ended = source.notices[-1]
    assert ended.kind == "ended" and "now sends 320x240 pictures, not the 160x120" in ended.message


def test_a_stream_that_stays_gone_ends_once_its_time_to_reconnect_is_up():
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(20)]
    with serve_mjpeg(jpegs, fps=30, drop_after=10) as url:
        source = MjpegHttpSource(url, fps=30, reconnect=1.0)
        started = time.monotonic()
        frames = list(source.frames())
        waited = time.monotonic() - started
    assert len(frames) == 10 and 0.9 <= waited - 10 / 30 < 3.0
    assert [notice.kind for notice in source.notices] == ["ended"]


@pytest.mark.parametrize("prefer_opencv", [True, False])
def test_a_stream_behind_a_login_is_read_and_its_password_never_shown(prefer_opencv):
    jpegs = [cv2.imencode(".jpg", image)[1].tobytes() for image in numbered_images(15)]
    with serve_mjpeg(jpegs, fps=30, login=("ref", "s3cret")) as url:
        address = url.replace("http://", "http://ref:s3cret@")
        source = open_live_source(address, fps=30, prefer_opencv=prefer_opencv, reconnect=0)
        frames = list(source.frames())
        with pytest.raises(VideoError) as refused:
            open_live_source(url.replace("http://", "http://ref:wrong@"), prefer_opencv=False, reconnect=0)
    assert len(frames) >= 13
    said = [notice.message for notice in source.notices] + [source.description, str(refused.value)]
    assert not [message for message in said if "s3cret" in message or "wrong" in message]
    assert "ref:***@" in source.notices[-1].message


def test_unreachable_stream_is_a_clear_error():
    with pytest.raises(VideoError, match="cannot open"):
        open_live_source("http://127.0.0.1:9/none.mjpg", prefer_opencv=False)


def test_a_stream_address_that_answers_garbage_is_a_clear_error():
    # not a web server at all (a camera's other port, a typo in the port number): http.client's own error
    # (BadStatusLine) said as the stream's
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def answer() -> None:
        connection, _ = listener.accept()
        connection.recv(1024)
        connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
        connection.close()

    threading.Thread(target=answer, daemon=True).start()
    with pytest.raises(VideoError, match="cannot open stream"):
        open_live_source(f"http://127.0.0.1:{listener.getsockname()[1]}/video", prefer_opencv=False)
    listener.close()


def test_missing_camera_is_a_clear_error():
    with pytest.raises(VideoError, match="cannot open camera"):
        open_live_source("/dev/video-does-not-exist")


class SlowSource:
    fps = 100.0

    def __init__(self):
        self.notices = []

    def frames(self):
        for index in range(60):
            time.sleep(0.01)
            self.latest = index
            yield Frame(index, index / 100, np.zeros((4, 4, 3), np.uint8))

    def close(self):
        pass


def test_keep_up_skips_frames_when_the_referee_is_slow_and_says_so():
    # a referee three and a half times slower than the camera, allowed to lag 50 ms behind it
    source = KeepUp(SlowSource(), warn=lambda message: None, max_lag=0.05)
    seen = []
    for frame in source.frames():
        seen.append(frame.index)
        time.sleep(0.035)
    assert seen == sorted(seen) and len(seen) < 40
    assert source.skipped_total == sum(n.missing for n in source.notices if n.kind == "skipped") > 0
    assert len(seen) + source.skipped_total == 60


def test_keep_up_catches_up_after_a_slow_moment_without_skipping():
    # one ruling frame takes 0.2 s (a pile read), the rest are quick: every frame is refereed, in order
    source = KeepUp(SlowSource(), warn=lambda message: None, max_lag=0.5)
    seen = []
    for frame in source.frames():
        seen.append(frame.index)
        if frame.index == 10:
            time.sleep(0.2)
    assert seen == list(range(60)) and source.skipped_total == 0


def test_keep_up_never_lags_more_than_allowed():
    camera = SlowSource()
    source = KeepUp(camera, warn=lambda message: None, max_lag=0.1)
    behind = []
    for frame in source.frames():
        behind.append(camera.latest - frame.index)  # frames the camera has given since this one
        time.sleep(0.02)  # twice as slow as the camera
    assert source.skipped_total > 0
    assert max(behind) <= 10 + 1  # 0.1 s of a 100 fps camera, and the one arriving meanwhile


def test_keep_up_hands_every_camera_frame_to_the_recorder_and_survives_a_failing_one():
    recorded, warnings = [], []

    def record(frame):
        if frame.index == 40:
            raise OSError("No space left on device")
        recorded.append(frame.index)

    source = KeepUp(SlowSource(), warn=warnings.append, max_lag=0.02, on_frame=record)
    seen = [frame.index for frame in source.frames() if time.sleep(0.03) is None]
    assert recorded == list(range(40))  # every frame up to the failure, those skipped too
    assert source.skipped_total > 0 and len(seen) + source.skipped_total == 60  # refereeing went on
    assert len(warnings) == 1 and "recording stopped at frame 40" in warnings[0]


def test_recorder_keeps_video_and_true_times_and_replay_uses_them(tmp_path):
    path = tmp_path / "live.avi"
    times = [0.0, 0.033, 0.066, 0.2, 0.233]  # a drop after the third frame
    with Recorder(path, fps=30) as recorder:
        for index, (t, image) in enumerate(zip(times, numbered_images(5))):
            recorder.write(Frame(index, t, image))
    lines = [json.loads(line) for line in sidecar_path(path).read_text().splitlines()]
    assert [line["t"] for line in lines] == times
    source = VideoFileSource(path)
    frames = list(source.frames())
    assert [frame.t for frame in frames] == pytest.approx(times)
    assert [(n.kind, n.frame) for n in source.notices] == [("dropped", 2)]


def test_a_recording_to_a_file_type_it_cannot_write_is_refused_before_the_game(tmp_path):
    with pytest.raises(VideoError, match="use a .mp4 or .avi file name"):
        Recorder(tmp_path / "game.webm", fps=30)

