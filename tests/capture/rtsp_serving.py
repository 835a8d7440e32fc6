"""A real RTSP server on 127.0.0.1 for tests, serving H.264 as IP cameras do: RTSP 1.0 (OPTIONS, DESCRIBE,
SETUP, PLAY, TEARDOWN) with RTP (RFC 3550) carrying H.264 (RFC 6184: single NAL units and FU-A
fragments), interleaved on the RTSP connection (RTP over TCP), one access unit every frame period.

The stream is encoded from a video by FFmpeg (the `imageio-ffmpeg` package of the test extra): baseline
profile, no B-frames, an access-unit delimiter before every picture, as a camera's encoder sends it.
"""

from __future__ import annotations

import base64
import contextlib
import pathlib
import socket
import struct
import subprocess
import tempfile
import threading
import time
from typing import Iterator, Sequence

from tests.capture.streaming import CameraTimeline

#: RTP clock of video (RFC 6184), dynamic payload type, largest RTP payload (under an Ethernet MTU)
CLOCK_HZ = 90_000
PAYLOAD_TYPE = 96
MAX_PAYLOAD = 1400


def h264_access_units(video: str | pathlib.Path, *, fps: float, limit: int | None = None) -> list[list[bytes]]:
    """The pictures of `video` encoded as a camera's H.264 stream: each an access unit, a list of NAL
    units (no start codes; parameter sets repeated before every key picture, one every second)."""
    import imageio_ffmpeg

    with tempfile.TemporaryDirectory() as scratch:
        stream = pathlib.Path(scratch) / "camera.h264"
        frames = ["-frames:v", str(limit)] if limit is not None else []
        subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", "-i", str(video), *frames,
                        "-c:v", "libx264", "-profile:v", "baseline", "-preset", "veryfast", "-tune", "zerolatency",
                        "-g", str(max(1, round(fps))), "-bf", "0", "-pix_fmt", "yuv420p",
                        "-x264-params", "aud=1:repeat-headers=1", "-f", "h264", str(stream)], check=True)
        data = stream.read_bytes()
    units: list[list[bytes]] = []
    for nal in _nal_units(data):
        if nal[0] & 0x1F == 9:  # access unit delimiter: a new picture
            units.append([])
        elif units:
            units[-1].append(nal)
    return [unit for unit in units if unit]


def _nal_units(data: bytes) -> Iterator[bytes]:
    """The NAL units of an Annex B byte stream, without their start codes."""
    starts = []
    at = data.find(b"\x00\x00\x01")
    while at >= 0:
        starts.append(at + 3)
        at = data.find(b"\x00\x00\x01", at + 3)
    for begin, end in zip(starts, starts[1:] + [len(data) + 3]):
        nal = data[begin:end - 3].rstrip(b"\x00")
        if nal:
            yield nal


def rtp_packets(unit: Sequence[bytes], *, sequence: int, timestamp: int, ssrc: int) -> list[bytes]:
    """One access unit as RTP packets: a NAL unit that fits whole in one, a larger one in FU-A fragments;
    the marker bit on the unit's last packet."""
    payloads: list[bytes] = []
    for nal in unit:
        if len(nal) <= MAX_PAYLOAD:
            payloads.append(nal)
            continue
        indicator = (nal[0] & 0xE0) | 28  # FU-A
        body = nal[1:]
        for offset in range(0, len(body), MAX_PAYLOAD - 2):
            start, end = offset == 0, offset + MAX_PAYLOAD - 2 >= len(body)
            header = (0x80 if start else 0) | (0x40 if end else 0) | (nal[0] & 0x1F)
            payloads.append(bytes([indicator, header]) + body[offset:offset + MAX_PAYLOAD - 2])
    packets = []
    for number, payload in enumerate(payloads):
        marker = 0x80 if number == len(payloads) - 1 else 0
        packets.append(struct.pack("!BBHII", 0x80, marker | PAYLOAD_TYPE, (sequence + number) & 0xFFFF,
                                   timestamp & 0xFFFFFFFF, ssrc) + payload)
    return packets


def _sdp(units: Sequence[Sequence[bytes]], url: str) -> bytes:
    sps = next(nal for unit in units for nal in unit if nal[0] & 0x1F == 7)
    pps = next(nal for unit in units for nal in unit if nal[0] & 0x1F == 8)
    sets = f"{base64.b64encode(sps).decode()},{base64.b64encode(pps).decode()}"
    return ("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=table camera\r\nc=IN IP4 0.0.0.0\r\nt=0 0\r\n"
            f"a=control:{url}\r\nm=video 0 RTP/AVP {PAYLOAD_TYPE}\r\n"
            f"a=rtpmap:{PAYLOAD_TYPE} H264/{CLOCK_HZ}\r\n"
            f"a=fmtp:{PAYLOAD_TYPE} packetization-mode=1;profile-level-id={sps[1:4].hex()};sprop-parameter-sets={sets}\r\n"
            f"a=control:{url}/track1\r\n").encode()


def _requests(connection: socket.socket) -> Iterator[tuple[str, dict[str, str]]]:
    """(request line, headers) of each RTSP request the client sends; RTCP the client interleaves is skipped."""
    buffer = b""
    while True:
        while buffer.startswith(b"$"):  # an interleaved packet from the client (its receiver reports)
            if len(buffer) < 4 or len(buffer) < 4 + struct.unpack("!H", buffer[2:4])[0]:
                break
            buffer = buffer[4 + struct.unpack("!H", buffer[2:4])[0]:]
        if b"\r\n\r\n" in buffer and not buffer.startswith(b"$"):
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            while len(buffer) < length:
                more = connection.recv(65536)
                if not more:
                    return
                buffer += more
            buffer = buffer[length:]
            yield lines[0], headers
            continue
        more = connection.recv(65536)
        if not more:
            return
        buffer += more


@contextlib.contextmanager
def serve_rtsp(units: Sequence[Sequence[bytes]], *, fps: float, drop_after: int | None = None,
               outage: tuple[int, float] | None = None, bursts: int = 1,
               requests: list[tuple[str, dict[str, str]]] | None = None) -> Iterator[str]:
    """Serves the access units over RTSP at `fps` as a live camera (`CameraTimeline`: a client connecting
    again is sent the pictures from the first key picture due then), RTP interleaved on the RTSP connection
    (a client asking for RTP over UDP is told 461 Unsupported Transport, as a camera behind a firewall
    answers); yields the URL. A connection while the camera cannot be reached, or after its footage, is
    closed at once. `drop_after`: the camera is gone after that many pictures (a camera that drops);
    `outage`: (picture, seconds) the connection cut there and the camera unreachable that long; `bursts`:
    send the pictures that many at once, when the last of them is due (a congested network), each stamped
    with its own capture time all the same. `requests`: each request (line, headers) sent is added here."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    url = f"rtsp://127.0.0.1:{listener.getsockname()[1]}/table"
    stop = threading.Event()
    timeline = CameraTimeline(len(units), fps, drop_after=drop_after, outage=outage)
    keys = [index for index, unit in enumerate(units) if any(nal[0] & 0x1F == 5 for nal in unit)]

    def send_pictures(connection: socket.socket, channel: int, sending: threading.Lock) -> None:
        sequence, ssrc = 1, 0x5EED5EED
        due = timeline.begin()
        index = next((key for key in keys if key >= due), len(units))  # a new session starts on a key picture
        first = index
        while not stop.is_set():
            if not timeline.wait_for(index, until=first + ((index - first) // bursts + 1) * bursts - 1):
                break  # (sent when the last of its burst is captured)
            unit = units[index]
            packets = rtp_packets(unit, sequence=sequence, timestamp=round(index * CLOCK_HZ / fps), ssrc=ssrc)
            sequence += len(packets)
            with sending:
                try:
                    connection.sendall(b"".join(b"$" + bytes([channel]) + struct.pack("!H", len(p)) + p for p in packets))
                except OSError:  # the client hung up
                    return
            index += 1
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)

    def session(connection: socket.socket) -> None:
        channel, sender, sending = 0, None, threading.Lock()
        try:
            for request, headers in _requests(connection):
                if requests is not None:
                    requests.append((request, headers))
                method = request.split(" ", 1)[0]
                reply = {"CSeq": headers.get("cseq", "0")}
                body = b""
                status = "200 OK"
                if method == "OPTIONS":
                    reply["Public"] = "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN"
                elif method == "DESCRIBE":
                    body = _sdp(units, url)
                    reply.update({"Content-Base": url + "/", "Content-Type": "application/sdp"})
                elif method == "SETUP":
                    transport = headers.get("transport", "")
                    if "interleaved=" not in transport and "/TCP" not in transport:
                        status = "461 Unsupported Transport"
                    else:
                        if "interleaved=" in transport:
                            channel = int(transport.split("interleaved=")[1].split("-")[0].split(";")[0])
                        reply.update({"Transport": f"RTP/AVP/TCP;unicast;interleaved={channel}-{channel + 1}",
                                      "Session": "5eed;timeout=60"})
                elif method == "PLAY":
                    reply.update({"Session": "5eed", "Range": "npt=0.000-"})
                elif method == "TEARDOWN":
                    reply["Session"] = "5eed"
                else:
                    status = "405 Method Not Allowed"
                head = f"RTSP/1.0 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in reply.items())
                head += f"Content-Length: {len(body)}\r\n\r\n" if body else "\r\n"
                with sending:
                    connection.sendall(head.encode() + body)
                if method == "PLAY" and sender is None:
                    sender = threading.Thread(target=send_pictures, args=(connection, channel, sending), daemon=True)
                    sender.start()
                if method == "TEARDOWN":
                    break
        except OSError:
            pass
        finally:
            if sender is not None:
                sender.join(timeout=5)
            connection.close()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            if not timeline.reachable():
                connection.close()
                continue
            threading.Thread(target=session, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield url
    finally:
        stop.set()
        listener.close()
