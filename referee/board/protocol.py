"""The board's wire protocol: numbers and payload layouts (hardware/PROTOCOL.md).

Keep in step with hardware/firmware/src/core/protocol.h; tests/board/test_protocol.py
reads that header and checks every constant here against it.
"""

from __future__ import annotations

import dataclasses
import enum
import struct

from referee.errors import BoardNotRecognisedError, BoardProtocolError

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0
MAGIC = b"SPIT"
BAUD_RATE = 115200

MAX_PAYLOAD = 40
FRAME_OVERHEAD = 5  # seq, command, length, crc (2)
DELIMITER = 0x00

HEARTBEAT_TIMEOUT_S = 2.0  # the board goes to its safe state after this long without a frame
COUNTDOWN_MIN_STEP_MS = 200
COUNTDOWN_MAX_STEP_MS = 3000
MAX_NOTES = 4


class Command(enum.IntEnum):
    IDENTIFY = 0x01
    PING = 0x02
    SET_LIGHTS = 0x10
    ALL_OFF = 0x11
    BEEP = 0x12
    COUNTDOWN = 0x13
    SELF_TEST = 0x14
    GET_STATUS = 0x15


ACK_BIT = 0x80
NAK = 0xFF
HELLO = 0xC0
EVENT = 0xC1


class NakReason(enum.IntEnum):
    UNKNOWN_COMMAND = 1
    BAD_LENGTH = 2
    BAD_ARGUMENT = 3
    NO_SESSION = 4
    INCOMPATIBLE = 5


class EventKind(enum.IntEnum):
    COUNTDOWN = 1  # argument 3, 2, 1, then 0 for "spit"
    SAFE_STATE = 2
    SELF_TEST_DONE = 3


class Light(enum.IntEnum):
    A_LEGAL = 0
    A_ILLEGAL = 1
    B_LEGAL = 2
    B_ILLEGAL = 3
    PILE0_A = 4
    PILE0_B = 5
    PILE1_A = 6
    PILE1_B = 7
    CENTRE = 8

    @classmethod
    def legal(cls, player: str) -> "Light":
        return cls[f"{_player(player)}_LEGAL"]

    @classmethod
    def illegal(cls, player: str) -> "Light":
        return cls[f"{_player(player)}_ILLEGAL"]

    @classmethod
    def pile(cls, pile: int, player: str) -> "Light":
        if pile not in (0, 1):
            raise ValueError(f"expected spit pile 0 or 1, got {pile!r}")
        return cls[f"PILE{pile}_{_player(player)}"]


LIGHT_COUNT = len(Light)


class Pattern(enum.IntEnum):
    OFF = 0
    ON = 1
    BLINK_SLOW = 2  # 2 Hz
    BLINK_FAST = 3  # 8 Hz


class Status(enum.IntFlag):
    SESSION = 0x01
    COUNTDOWN = 0x02
    SAFE = 0x04
    SELF_TEST = 0x08
    BUZZER = 0x10


def _player(player: str) -> str:
    if player not in ("A", "B"):
        raise ValueError(f"expected player 'A' or 'B', got {player!r}")
    return player


@dataclasses.dataclass(frozen=True)
class Frame:
    """One decoded frame: sequence number, command byte, payload."""

    seq: int
    command: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.seq <= 255:
            raise ValueError(f"expected seq 0..255, got {self.seq}")
        if not 0 <= self.command <= 255:
            raise ValueError(f"expected command 0..255, got {self.command}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"expected at most {MAX_PAYLOAD} payload bytes, got {len(self.payload)}")

    @property
    def is_ack(self) -> bool:
        return self.seq != 0 and self.command != NAK and bool(self.command & ACK_BIT)

    @property
    def is_nak(self) -> bool:
        return self.command == NAK

    @property
    def is_unsolicited(self) -> bool:
        return self.seq == 0 and self.command in (HELLO, EVENT)


# ---- payloads ----


@dataclasses.dataclass(frozen=True)
class Identity:
    """What the board says about itself in HELLO and in the identify answer."""

    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    boot_id: int
    light_count: int
    self_test_failures: int  # bit i: light i failed the power-up pin check

    @property
    def firmware_version(self) -> str:
        return ".".join(map(str, self.firmware))

    @property
    def protocol_version(self) -> str:
        return f"{self.protocol[0]}.{self.protocol[1]}"

    def failed_lights(self) -> list[str]:
        return [light.name for light in Light if self.self_test_failures & (1 << light)]

    @classmethod
    def parse(cls, payload: bytes, *, port: str = "the port") -> "Identity":
        if len(payload) < 14 or payload[:4] != MAGIC:
            raise BoardNotRecognisedError(
                f"the device on {port} answered the identify handshake with {payload[:16].hex() or 'nothing'}, "
                f"expected the referee board's {MAGIC.decode()} answer; flash hardware/firmware (`make firmware flash`)"
            )
        major, minor, fw_major, fw_minor, fw_patch = payload[4:9]
        boot_id, light_count, failures = struct.unpack(">HBH", payload[9:14])
        return cls((major, minor), (fw_major, fw_minor, fw_patch), boot_id, light_count, failures)

    def check_compatible(self, port: str = "the port") -> None:
        if self.protocol[0] != PROTOCOL_MAJOR:
            raise BoardProtocolError(
                f"the board on {port} speaks protocol {self.protocol_version} (firmware {self.firmware_version}), "
                f"this referee speaks {PROTOCOL_MAJOR}.x; reflash the board from hardware/firmware "
                f"(`make firmware` then `make -C hardware/firmware flash PORT=...`) or update the referee"
            )
        if self.light_count != LIGHT_COUNT:
            raise BoardProtocolError(
                f"the board on {port} drives {self.light_count} lights, expected {LIGHT_COUNT}; reflash it from hardware/firmware"
            )


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    status: Status
    uptime_ms: int
    boot_id: int
    receive_errors: int

    @classmethod
    def parse(cls, payload: bytes) -> "Heartbeat":
        flags, uptime, boot_id, errors = struct.unpack(">BIHH", payload[:9])
        return cls(Status(flags), uptime, boot_id, errors)


@dataclasses.dataclass(frozen=True)
class BoardStatus:
    """The board's own account of what it shows (GET_STATUS)."""

    status: Status
    uptime_ms: int
    lights: tuple[Pattern, ...]
    countdown: int | None  # next count to show (3, 2, 1, 0 = spit) or None when idle
    frames_received: int
    commands_executed: int
    duplicates: int
    receive_errors: int

    @classmethod
    def parse(cls, payload: bytes) -> "BoardStatus":
        flags, uptime = struct.unpack(">BI", payload[:5])
        lights = tuple(Pattern(p) for p in payload[5 : 5 + LIGHT_COUNT])
        countdown = payload[5 + LIGHT_COUNT]
        frames, executed, duplicates, errors = struct.unpack(">HHHH", payload[6 + LIGHT_COUNT : 14 + LIGHT_COUNT])
        return cls(Status(flags), uptime, lights, None if countdown == 0xFF else countdown, frames, executed, duplicates, errors)


@dataclasses.dataclass(frozen=True)
class BoardEvent:
    kind: EventKind | int
    argument: int
    uptime_ms: int

    @classmethod
    def parse(cls, payload: bytes) -> "BoardEvent":
        kind, argument, uptime = struct.unpack(">BBI", payload[:6])
        try:
            kind = EventKind(kind)
        except ValueError:
            pass
        return cls(kind, argument, uptime)


def identify_payload() -> bytes:
    return bytes((PROTOCOL_MAJOR, PROTOCOL_MINOR))


def set_lights_payload(entries: list[tuple[Light, Pattern, int]]) -> bytes:
    """(light, pattern, duration_ms) entries; duration 0 = until changed."""
    if not 1 <= len(entries) <= LIGHT_COUNT:
        raise ValueError(f"expected 1..{LIGHT_COUNT} light entries, got {len(entries)}")
    out = bytearray()
    for light, pattern, duration_ms in entries:
        out += struct.pack(">BBH", Light(light), Pattern(pattern), _clamp_ms(duration_ms))
    return bytes(out)


def beep_payload(notes: list[tuple[int, int]]) -> bytes:
    """(frequency_hz, duration_ms) notes, frequency 0 = rest; 100..10000 Hz, at most 5 s each."""
    if not 1 <= len(notes) <= MAX_NOTES:
        raise ValueError(f"expected 1..{MAX_NOTES} notes, got {len(notes)}")
    out = bytearray()
    for frequency, duration in notes:
        if frequency and not 100 <= frequency <= 10000:
            raise ValueError(f"expected a note of 100..10000 Hz (or 0 for a rest), got {frequency}")
        if not 0 <= duration <= 5000:
            raise ValueError(f"expected a note of 0..5000 ms, got {duration}")
        out += struct.pack(">HH", frequency, duration)
    return bytes(out)


def countdown_payload(step_ms: int) -> bytes:
    if step_ms and not COUNTDOWN_MIN_STEP_MS <= step_ms <= COUNTDOWN_MAX_STEP_MS:
        raise ValueError(f"expected a countdown step of {COUNTDOWN_MIN_STEP_MS}..{COUNTDOWN_MAX_STEP_MS} ms, got {step_ms}")
    return struct.pack(">H", step_ms)


def _clamp_ms(duration_ms: float) -> int:
    return max(0, min(0xFFFF, int(round(duration_ms))))
