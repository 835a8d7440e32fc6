"""ctypes view of the firmware's plain-C core (hardware/firmware/src/core), host build."""

from __future__ import annotations

import ctypes

from referee.board.protocol import Frame

MAX_PAYLOAD = 40


class FrameStruct(ctypes.Structure):
    _fields_ = [("seq", ctypes.c_uint8), ("command", ctypes.c_uint8), ("length", ctypes.c_uint8),
                ("payload", ctypes.c_uint8 * MAX_PAYLOAD), ("crc", ctypes.c_uint16)]


class Outputs(ctypes.Structure):
    _fields_ = [("lights", ctypes.c_uint16), ("tone_hz", ctypes.c_uint16)]


def bind(lib: ctypes.CDLL) -> ctypes.CDLL:
    u8, u16, u32, p = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_void_p
    signatures = {
        "core_sizeof": ([], u16),
        "core_init": ([p, u16, u16, u32], None),
        "core_rx_byte": ([p, u8, u32], None),
        "core_tick": ([p, u32], None),
        "core_tx_take": ([p, ctypes.c_char_p, u16], u16),
        "core_outputs": ([p, u32, ctypes.POINTER(Outputs)], None),
        "core_light_pattern": ([p, u8, u32], u8),
        "core_start_self_test": ([p, u32, u16, u8], u16),
        "frame_parser_init": ([p], None),
        "frame_parser_feed": ([p, u8, ctypes.POINTER(FrameStruct)], u8),
        "crc16_ccitt": ([u16, ctypes.c_char_p, u16], u16),
        "cobs_encode": ([ctypes.c_char_p, u16, ctypes.c_char_p], u16),
        "cobs_decode": ([ctypes.c_char_p, u16, ctypes.c_char_p, u16], ctypes.c_int16),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = arguments, result
    return lib


class CParser:
    """The firmware's frame parser, fed from Python."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self._lib = bind(lib)
        self._state = ctypes.create_string_buffer(256)
        self._frame = FrameStruct()
        lib.frame_parser_init(self._state)

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        feed, state, frame = self._lib.frame_parser_feed, self._state, ctypes.byref(self._frame)
        for byte in data:
            if feed(state, byte, frame):
                f = self._frame
                frames.append(Frame(f.seq, f.command, bytes(f.payload[: f.length])))
        return frames


class CCore:
    """The firmware's board core, driven by an explicit millisecond clock."""

    def __init__(self, lib: ctypes.CDLL, *, boot_id: int = 1, now_ms: int = 0, boot_self_test: bool = True) -> None:
        self._lib = bind(lib)
        self._state = ctypes.create_string_buffer(lib.core_sizeof())
        self.now_ms = now_ms
        lib.core_init(self._state, boot_id, 0, now_ms)
        if boot_self_test:
            lib.core_start_self_test(self._state, now_ms, 40, 1)

    def receive(self, data: bytes) -> None:
        for byte in data:
            self._lib.core_rx_byte(self._state, byte, self.now_ms)

    def tick(self, now_ms: int | None = None) -> None:
        if now_ms is not None:
            self.now_ms = now_ms
        self._lib.core_tick(self._state, self.now_ms)

    def take_output(self) -> bytes:
        buffer = ctypes.create_string_buffer(4096)
        n = self._lib.core_tx_take(self._state, buffer, 4096)
        return buffer.raw[:n]

    def outputs(self) -> tuple[int, int]:
        out = Outputs()
        self._lib.core_outputs(self._state, self.now_ms, ctypes.byref(out))
        return out.lights, out.tone_hz

    def pattern(self, light: int) -> int:
        return self._lib.core_light_pattern(self._state, light, self.now_ms)
