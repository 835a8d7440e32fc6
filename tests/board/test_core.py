"""The firmware's plain-C core (host build through ctypes), and the Python virtual board
checked byte for byte against it."""

from __future__ import annotations

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board.framing import FrameReader, encode_frame
from referee.board.protocol import (
    ACK_BIT, EVENT, HELLO, NAK, BoardStatus, Command, EventKind, Frame,
    Identity, Light, NakReason, Pattern, Status, beep_payload, countdown_payload, set_lights_payload,
)
from referee.board.virtual import VirtualBoard
from tests.board.core_ctypes import CCore


class Clock:
    def __init__(self) -> None:
        self.ms = 1000

    def __call__(self) -> float:
        return self.ms / 1000


def request(core, seq: int, command: int, payload: bytes = b"") -> list[Frame]:
    """Sends one command; returns the answers, keeps the board's own frames in core.board_frames."""
    core.receive(encode_frame(Frame(seq, command, payload)))
    return split(core, core.take_output())


def split(core, data: bytes) -> list[Frame]:
    frames = FrameReader().feed(data)
    core.board_frames = getattr(core, "board_frames", []) + [f for f in frames if f.seq == 0]
    return [f for f in frames if f.seq != 0]


@pytest.fixture
def core(core_library):
    board = CCore(core_library, boot_id=7, now_ms=1000)
    board.take_output()
    return board


def open_session(core) -> None:
    [answer] = request(core, 1, Command.IDENTIFY, b"\x01\x00")
    assert answer.command == ACK_BIT | Command.IDENTIFY


def test_boot_says_hello_with_versions(core_library):
    board = CCore(core_library, boot_id=0x1234, now_ms=5)
    [hello] = FrameReader().feed(board.take_output())
    assert (hello.seq, hello.command) == (0, HELLO)
    identity = Identity.parse(hello.payload)
    assert identity.protocol == (1, 0) and identity.firmware == (1, 0, 0)
    assert identity.boot_id == 0x1234 and identity.light_count == 9


@pytest.mark.parametrize("command, payload", [
    (Command.SET_LIGHTS, set_lights_payload([(Light.A_LEGAL, Pattern.ON, 0)])),
    (Command.BEEP, beep_payload([(440, 100)])),
    (Command.COUNTDOWN, countdown_payload(1000)),
    (Command.ALL_OFF, b""),
    (Command.GET_STATUS, b""),
    (Command.SELF_TEST, b""),
])
def test_commands_are_refused_before_the_identify_handshake(core, command, payload):
    [answer] = request(core, 5, command, payload)
    assert answer.command == NAK and answer.payload == bytes((command, NakReason.NO_SESSION))


@pytest.mark.parametrize("command, payload, reason", [
    (0x7E, b"", NakReason.UNKNOWN_COMMAND),
    (Command.SET_LIGHTS, b"\x00\x01\x00", NakReason.BAD_LENGTH),
    (Command.SET_LIGHTS, b"\x09\x01\x00\x00", NakReason.BAD_ARGUMENT),
    (Command.SET_LIGHTS, b"\x00\x04\x00\x00", NakReason.BAD_ARGUMENT),
    (Command.BEEP, struct.pack(">HH", 50, 100), NakReason.BAD_ARGUMENT),
    (Command.BEEP, bytes(20), NakReason.BAD_LENGTH),
    (Command.COUNTDOWN, struct.pack(">H", 100), NakReason.BAD_ARGUMENT),
    (Command.PING, b"\x00", NakReason.BAD_LENGTH),
])
def test_bad_commands_are_refused_and_change_nothing(core, command, payload, reason):
    open_session(core)
    [answer] = request(core, 9, command, payload)
    assert answer.command == NAK and answer.payload == bytes((command, reason))
    assert [core.pattern(light) for light in Light] == [0] * 9


def test_set_lights_is_absolute_and_timed(core):
    open_session(core)
    request(core, 2, Command.SET_LIGHTS, set_lights_payload([(Light.B_ILLEGAL, Pattern.BLINK_FAST, 500),
                                                             (Light.CENTRE, Pattern.ON, 0)]))
    request(core, 3, Command.SET_LIGHTS, set_lights_payload([(Light.CENTRE, Pattern.ON, 0)]))  # again: still on
    assert core.pattern(Light.B_ILLEGAL) == Pattern.BLINK_FAST and core.pattern(Light.CENTRE) == Pattern.ON
    core.tick(1499)
    assert core.pattern(Light.B_ILLEGAL) == Pattern.BLINK_FAST
    core.tick(1500)
    assert core.pattern(Light.B_ILLEGAL) == Pattern.OFF and core.pattern(Light.CENTRE) == Pattern.ON


def test_a_retransmitted_frame_is_answered_from_the_cache_not_executed_twice(core):
    open_session(core)
    beep = encode_frame(Frame(42, Command.BEEP, beep_payload([(440, 100)])))
    core.receive(beep)
    first = core.take_output()
    core.receive(beep)  # the ack was lost: the host sends the very same bytes again
    assert core.take_output() == first
    [status] = request(core, 43, Command.GET_STATUS)
    parsed = BoardStatus.parse(status.payload)
    assert parsed.duplicates == 1 and parsed.commands_executed == 2  # identify + beep, once each


def test_same_sequence_number_with_other_content_is_a_new_command(core):
    open_session(core)
    request(core, 10, Command.SET_LIGHTS, set_lights_payload([(Light.A_LEGAL, Pattern.ON, 0)]))
    request(core, 10, Command.SET_LIGHTS, set_lights_payload([(Light.A_LEGAL, Pattern.OFF, 0)]))
    assert core.pattern(Light.A_LEGAL) == Pattern.OFF


def test_countdown_is_timed_on_the_board(core):
    open_session(core)
    core.tick(2000)  # after the power-up self-test, which owns the lights for its 0.66 s
    core.now_ms = 2000
    [ack] = request(core, 2, Command.COUNTDOWN, countdown_payload(1000))
    assert struct.unpack(">H", ack.payload) == (3000,)
    seen = []
    for ms in range(2000, 5101, 1):
        if ms % 500 == 0:
            request(core, 3 + ms // 500, Command.PING)  # the host's heartbeat
        core.tick(ms)
        core.board_frames = []
        split(core, core.take_output())
        for frame in core.board_frames:
            if frame.command == EVENT and frame.payload[0] == EventKind.COUNTDOWN:
                seen.append((frame.payload[1], ms))
        lights, tone = core.outputs()
        if ms in (2010, 3010, 4010, 5010):
            assert lights & (1 << Light.CENTRE) and tone in (880, 1760)
        if ms in (2600, 3600, 4600):
            assert not lights & (1 << Light.CENTRE)
    assert seen == [(3, 2000), (2, 3000), (1, 4000), (0, 5000)]


def test_heartbeat_loss_blanks_the_board_and_closes_the_session(core):
    open_session(core)
    request(core, 2, Command.SET_LIGHTS, set_lights_payload([(Light.A_LEGAL, Pattern.ON, 0)]))
    core.tick(2999)
    assert core.pattern(Light.A_LEGAL) == Pattern.ON
    core.tick(3001)
    assert core.pattern(Light.A_LEGAL) == Pattern.OFF
    events = [f for f in FrameReader().feed(core.take_output()) if f.command == EVENT]
    assert EventKind.SAFE_STATE in [event.payload[0] for event in events]
    [ping] = request(core, 3, Command.PING)
    assert not ping.payload[0] & Status.SESSION and ping.payload[0] & Status.SAFE
    [refused] = request(core, 4, Command.ALL_OFF)
    assert refused.command == NAK and refused.payload[1] == NakReason.NO_SESSION


def test_identify_with_another_protocol_major_answers_but_opens_no_session(core):
    [answer] = request(core, 1, Command.IDENTIFY, b"\x02\x00")
    assert answer.command == ACK_BIT | Command.IDENTIFY
    [ping] = request(core, 2, Command.PING)
    assert not ping.payload[0] & Status.SESSION


@pytest.mark.parametrize("pattern, lit_at, dark_at", [
    (Pattern.ON, [0, 300, 900], []),
    (Pattern.BLINK_SLOW, [0, 255, 512], [256, 511]),
    (Pattern.BLINK_FAST, [0, 63, 128], [64, 127]),
])
def test_blink_patterns_start_lit(core, pattern, lit_at, dark_at):
    open_session(core)
    core.tick(2000)  # after the boot self-test
    request(core, 2, Command.SET_LIGHTS, set_lights_payload([(Light.PILE1_B, pattern, 0)]))
    for offset, lit in [(t, True) for t in lit_at] + [(t, False) for t in dark_at]:
        core.tick(2000 + offset)
        assert bool(core.outputs()[0] & (1 << Light.PILE1_B)) == lit, offset


def test_board_without_host_blinks_the_centre_light_briefly(core):
    core.tick(3000)
    lit = []
    for ms in range(3000, 7100, 16):
        core.tick(ms)
        lit.append(bool(core.outputs()[0] & (1 << Light.CENTRE)))
    assert 0 < sum(lit) < len(lit) / 10


def test_transmit_queue_never_splits_a_frame_under_a_flood(core):
    open_session(core)
    for seq in range(1, 200):  # nobody drains the queue: whole frames are dropped, never halves
        core.receive(encode_frame(Frame(seq, Command.GET_STATUS)))
    reader = FrameReader()
    frames = reader.feed(core.take_output())
    assert frames and reader.errors == 0


# ---- the virtual board is the firmware's twin ----

COMMANDS = [
    (Command.IDENTIFY, b"\x01\x00"), (Command.PING, b""), (Command.GET_STATUS, b""), (Command.ALL_OFF, b""),
    (Command.SELF_TEST, b""), (Command.COUNTDOWN, countdown_payload(200)), (Command.COUNTDOWN, b"\x00\x00"),
    (Command.BEEP, beep_payload([(440, 30), (0, 20)])), (Command.BEEP, b"\x00"), (0x33, b""),
    (Command.SET_LIGHTS, set_lights_payload([(Light.CENTRE, Pattern.BLINK_SLOW, 0), (Light.A_LEGAL, Pattern.ON, 150)])),
    (Command.SET_LIGHTS, set_lights_payload([(light, Pattern.ON, 40) for light in Light])),
    (Command.SET_LIGHTS, b"\x0a\x01\x00\x00"),
]


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(st.tuples(st.integers(0, len(COMMANDS) - 1), st.integers(1, 4), st.integers(0, 700),
                                st.booleans()), max_size=12))
def test_virtual_board_answers_byte_for_byte_like_the_firmware(core_library, steps):
    """Same bytes in at the same (simulated) times: the Python virtual board and the C core send
    exactly the same bytes back, including retransmissions, events, countdowns and safe state."""
    clock = Clock()
    firmware = CCore(core_library, boot_id=99, now_ms=clock.ms)
    virtual = VirtualBoard(boot_id=99, clock=clock)
    assert firmware.take_output() == virtual.take_output()
    for index, seq, wait_ms, repeat in steps:
        command, payload = COMMANDS[index]
        wire = encode_frame(Frame(seq, command, payload)) * (2 if repeat else 1)
        firmware.receive(wire)
        virtual.receive(wire)
        assert firmware.take_output() == virtual.take_output()
        for _ in range(wait_ms // 10):
            clock.ms += 10
            firmware.tick(clock.ms)
            virtual.tick()
        assert firmware.take_output() == virtual.take_output()
        assert [firmware.pattern(light) for light in Light] == list(virtual.display())
