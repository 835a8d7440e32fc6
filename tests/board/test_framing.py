"""The Python framer: CRC, COBS, FrameReader, including fuzzing of damaged streams."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board.framing import FrameReader, cobs_decode, cobs_encode, crc16_ccitt, encode_frame
from referee.board.protocol import MAX_PAYLOAD, Frame

frames = st.builds(Frame, seq=st.integers(0, 255), command=st.integers(0, 255),
                   payload=st.binary(max_size=MAX_PAYLOAD))


@pytest.mark.parametrize("data, crc", [
    (b"123456789", 0x29B1),  # the CRC-16/CCITT-FALSE check value
    (b"", 0xFFFF),
    (b"\x00", 0xE1F0),
])
def test_crc16_known_values(data, crc):
    assert crc16_ccitt(data) == crc


@pytest.mark.parametrize("data, encoded", [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
])
def test_cobs_known_encodings(data, encoded):
    assert cobs_encode(data) == encoded
    assert cobs_decode(encoded) == data


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data):
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x00", b"\x05\x01", b"\x03\x01\x00"])
def test_cobs_rejects_invalid(bad):
    with pytest.raises(ValueError):
        cobs_decode(bad)


def test_frame_layout_on_the_wire():
    wire = encode_frame(Frame(7, 0x10, b"\x08\x01\x00\x00"))
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert FrameReader().feed(wire) == [Frame(7, 0x10, b"\x08\x01\x00\x00")]


def test_frame_rejects_oversized_payload():
    with pytest.raises(ValueError, match="at most 40"):
        Frame(1, 1, bytes(41))


KINDS = ("none", "flip", "truncate", "duplicate", "garbage")


class _Tape:
    """Reads a fuzz plan out of raw bytes (zeros once they run out), libFuzzer style: one cheap
    binary draw per case keeps 10,000 Hypothesis cases within seconds, and still shrinks."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        self.at += 1
        return self.data[self.at - 1] if self.at <= len(self.data) else 0

    def take(self, n: int) -> bytes:
        return bytes(self.byte() for _ in range(n))


def damage_stream(tape: _Tape) -> tuple[bytes, list[Frame], list[Frame]]:
    """Builds 1-3 frames and damages each (bit flip, truncation, duplication, leading garbage);
    returns the stream, all frames sent, and the ones left intact."""
    stream, sent, intact = bytearray(), [], []
    for _ in range(1 + tape.byte() % 3):
        frame = Frame(tape.byte(), tape.byte(), tape.take(tape.byte() % (MAX_PAYLOAD + 1)))
        kind, where, bit = KINDS[tape.byte() % len(KINDS)], tape.byte() << 8 | tape.byte(), tape.byte() % 8
        wire = bytearray(encode_frame(frame))
        sent.append(frame)
        if kind == "flip":
            wire[1 + where % (len(wire) - 2)] ^= 1 << bit
        elif kind == "truncate":
            del wire[1 + where % (len(wire) - 2) : -1]  # the closing delimiter stays: the next frame must be found
        else:
            intact.append(frame)
            if kind == "duplicate":
                wire += bytes(wire)
            elif kind == "garbage":
                wire[:0] = tape.take(1 + where % 60)
        stream += wire
    return bytes(stream), sent, intact


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(plan=st.binary(min_size=4, max_size=400))
def test_damaged_streams_python_framer_and_firmware_parser_agree(c_parser_factory, plan):
    """Corrupted, truncated, duplicated and garbage-prefixed frames, cut anywhere: whatever comes
    out was sent, every intact frame comes out, and the firmware's C parser (host build, through
    ctypes) returns exactly the same frames as the Python reader."""
    tape = _Tape(plan)
    stream, sent, intact = damage_stream(tape)
    split = (tape.byte() << 8 | tape.byte()) % (len(stream) + 1)
    reader = FrameReader()
    received = reader.feed(stream[:split]) + reader.feed(stream[split:])
    assert all(frame in sent for frame in received)
    assert all(frame in received for frame in intact)
    if c_parser_factory is not None:
        assert c_parser_factory().feed(stream) == received


def test_oversized_garbage_is_skipped_then_the_next_frame_is_read():
    reader = FrameReader()
    good = Frame(3, 0x02)
    assert reader.feed(b"\x01" * 500 + encode_frame(good)) == [good]
    assert reader.framing_errors == 1
