"""Camera addresses as they may be shown: without the password an IP camera's or phone app's URL carries.

`rtsp://admin:hunter2@192.168.1.20/stream1` is what a user types for most IP cameras. The address turns
up in the event log (a camera that stopped sending, came back...), in a calibration file's `source`, and
on the terminal; the log and the calibration are things players pass around after a dispute. So every
place that shows a camera's address shows it with the password masked; the address itself, password and
all, is only handed to the reader that opens it.
"""

from __future__ import annotations

import base64
import urllib.parse


def shown(spec: str | int) -> str:
    """`spec` (a camera index, a device path or a URL) with any password in it masked: `user:***@host`."""
    text = str(spec)
    if "://" not in text:
        return text
    parts = urllib.parse.urlsplit(text)
    if parts.password is None:
        return text
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def basic_login(url: str) -> tuple[str, str | None]:
    """(`url` without its `user:password@`, the `Authorization` header's value for HTTP Basic, or None
    where the URL carries no user)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None:
        return url, None
    host = parts.netloc.rsplit("@", 1)[1]
    login = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
    return urllib.parse.urlunsplit(parts._replace(netloc=host)), "Basic " + base64.b64encode(login.encode()).decode()
