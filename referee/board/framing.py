"""Wire framing, pure: CRC-16/CCITT, COBS, and a frame reader fed with bytes.

A frame on the wire is 0x00, COBS(seq, command, length, payload, crc_hi, crc_lo), 0x00.
`FrameReader` is like pyserial's `Packetizer`: give it whatever bytes arrived, get
back the complete valid frames; it never needs a port or a thread.
"""

from __future__ import annotations

import dataclasses

from referee.board.protocol import DELIMITER, FRAME_OVERHEAD, MAX_PAYLOAD, Frame

MAX_DECODED = MAX_PAYLOAD + FRAME_OVERHEAD
MAX_ENCODED = MAX_DECODED + 2  # COBS adds one byte per 254 and one more


def crc16_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16_ccitt(b"123456789") == 0x29B1."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    out = bytearray(b"\x00")
    code_index, code = 0, 1
    for byte in data:
        if byte == 0:
            out[code_index] = code
            code_index, code = len(out), 1
            out.append(0)
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_index] = code
                code_index, code = len(out), 1
                out.append(0)
    out[code_index] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Raises ValueError if `data` is not valid COBS."""
    out = bytearray()
    index = 0
    while index < len(data):
        code = data[index]
        index += 1
        if code == 0 or index + code - 1 > len(data):
            raise ValueError("not COBS: zero code or run past the end")
        block = data[index : index + code - 1]
        if 0 in block:
            raise ValueError("not COBS: zero inside a run")
        out += block
        index += code - 1
        if code != 0xFF and index < len(data):
            out.append(0)
    return bytes(out)


def encode_frame(frame: Frame) -> bytes:
    body = bytes((frame.seq, frame.command, len(frame.payload))) + frame.payload
    crc = crc16_ccitt(body)
    return b"\x00" + cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_body(encoded: bytes) -> Frame:
    """Decode one frame's bytes between delimiters; ValueError when it is not a valid frame."""
    body = cobs_decode(encoded)
    if len(body) < FRAME_OVERHEAD or body[2] != len(body) - FRAME_OVERHEAD:
        raise ValueError("bad length")
    if crc16_ccitt(body[:-2]) != (body[-2] << 8 | body[-1]):
        raise ValueError("bad CRC")
    return Frame(body[0], body[1], bytes(body[3:-2]))


@dataclasses.dataclass
class FrameReader:
    """Collects bytes into frames; corrupt, truncated or oversized frames cost only themselves."""

    frames_ok: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    _buffer: bytearray = dataclasses.field(default_factory=bytearray)
    _overflowed: bool = False

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        for byte in data:
            if byte == DELIMITER:
                if self._overflowed:
                    self.framing_errors += 1
                elif self._buffer:
                    frame = self._finish(bytes(self._buffer))
                    if frame is not None:
                        frames.append(frame)
                self._buffer.clear()
                self._overflowed = False
            elif not self._overflowed:
                if len(self._buffer) >= MAX_ENCODED:
                    self._overflowed = True
                else:
                    self._buffer.append(byte)
        return frames

    def _finish(self, encoded: bytes) -> Frame | None:
        try:
            frame = decode_body(encoded)
        except ValueError as error:
            if "CRC" in str(error):
                self.crc_errors += 1
            else:
                self.framing_errors += 1
            return None
        self.frames_ok += 1
        return frame

    @property
    def errors(self) -> int:
        return self.crc_errors + self.framing_errors
