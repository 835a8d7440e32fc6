import base64

import pytest

from referee.capture.addresses import basic_login, shown


@pytest.mark.parametrize("spec, expected", [
    ("rtsp://admin:hunter2@192.168.1.20:554/stream1", "rtsp://admin:***@192.168.1.20:554/stream1"),
    ("http://me:p%40ss@10.0.0.5:8080/video", "http://me:***@10.0.0.5:8080/video"),
    ("rtsp://192.168.1.20/stream1", "rtsp://192.168.1.20/stream1"),
    ("http://viewer@cam.local/video", "http://viewer@cam.local/video"),  # a user without a password
    ("0", "0"),
    ("/dev/video2", "/dev/video2"),
    (1, "1"),
])
def test_a_camera_address_is_shown_without_its_password(spec, expected):
    assert shown(spec) == expected


def test_an_address_with_a_login_gives_the_basic_authorization_apart():
    address, login = basic_login("http://me:p%40ss@10.0.0.5:8080/video?fps=30")
    assert address == "http://10.0.0.5:8080/video?fps=30"
    assert login == "Basic " + base64.b64encode(b"me:p@ss").decode()
    assert basic_login("http://10.0.0.5:8080/video") == ("http://10.0.0.5:8080/video", None)
