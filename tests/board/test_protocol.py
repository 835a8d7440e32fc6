"""The Python constants agree with the firmware's protocol.h, and payload helpers validate."""

import pathlib
import re

import pytest

from referee.board import protocol
from referee.board.protocol import Command, Light, NakReason, Pattern

HEADER = pathlib.Path(__file__).resolve().parents[2] / "hardware" / "firmware" / "src" / "core" / "protocol.h"


def header_defines() -> dict[str, int]:
    defines = {}
    for name, value in re.findall(r"^#define (\w+) (0x[0-9A-Fa-f]+|\d+)u?\b", HEADER.read_text(), re.M):
        defines[name] = int(value, 0)
    return defines


def python_names() -> dict[str, int]:
    names = {"PROTOCOL_MAJOR": protocol.PROTOCOL_MAJOR, "PROTOCOL_MINOR": protocol.PROTOCOL_MINOR,
             "FRAME_MAX_PAYLOAD": protocol.MAX_PAYLOAD, "FRAME_OVERHEAD": protocol.FRAME_OVERHEAD,
             "RESPONSE_ACK_BIT": protocol.ACK_BIT, "RESPONSE_NAK": protocol.NAK, "BOARD_HELLO": protocol.HELLO,
             "BOARD_EVENT": protocol.EVENT, "LIGHT_COUNT": protocol.LIGHT_COUNT,
             "COUNTDOWN_MIN_STEP_MS": protocol.COUNTDOWN_MIN_STEP_MS,
             "COUNTDOWN_MAX_STEP_MS": protocol.COUNTDOWN_MAX_STEP_MS,
             "HEARTBEAT_TIMEOUT_MS": int(protocol.HEARTBEAT_TIMEOUT_S * 1000)}
    names.update({f"CMD_{c.name}": c.value for c in Command})
    names.update({f"NAK_{r.name}": r.value for r in NakReason})
    names.update({f"LIGHT_{l.name}": l.value for l in Light})
    names.update({f"PATTERN_{p.name}": p.value for p in Pattern})
    names.update({f"EVENT_{e.name}": e.value for e in protocol.EventKind})
    names.update({f"STATUS_{s.name}": s.value for s in protocol.Status})
    return names


@pytest.mark.parametrize("name, value", sorted(python_names().items()))
def test_python_constant_matches_firmware_header(name, value):
    assert header_defines()[name] == value


@pytest.mark.parametrize("call, message", [
    (lambda: protocol.beep_payload([]), "1..4 notes"),
    (lambda: protocol.beep_payload([(50, 100)]), "100..10000 Hz"),
    (lambda: protocol.beep_payload([(440, 6000)]), "0..5000 ms"),
    (lambda: protocol.countdown_payload(100), "200..3000 ms"),
    (lambda: protocol.set_lights_payload([]), "1..9 light entries"),
    (lambda: Light.pile(2, "A"), "spit pile 0 or 1"),
    (lambda: Light.legal("C"), "player 'A' or 'B'"),
])
def test_payload_helpers_reject_bad_values(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_identity_refuses_a_device_that_is_not_our_board():
    from referee.errors import BoardNotRecognisedError

    with pytest.raises(BoardNotRecognisedError, match="expected the referee board"):
        protocol.Identity.parse(b"HELLOWORLD1234", port="/dev/x")


def test_identity_refuses_another_protocol_major():
    from referee.errors import BoardProtocolError

    identity = protocol.Identity.parse(b"SPIT" + bytes((2, 0, 2, 0, 0, 0, 1, 9, 0, 0)))
    with pytest.raises(BoardProtocolError, match="protocol 2.0"):
        identity.check_compatible("/dev/x")
