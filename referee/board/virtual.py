"""The virtual board: the firmware's behaviour in Python.

`VirtualBoard` mirrors hardware/firmware/src/core/board_core.c (same protocol,
same duplicate cache, countdown, heartbeat and safe state) so that `--board sim`
and the driver's tests need no compiler; tests/board/test_core.py checks that
both answer the same bytes with the same bytes. referee/board/servers.py puts it
on a pseudo-terminal or an in-memory line.
"""

from __future__ import annotations

import dataclasses
import struct
import time
from typing import Callable

from referee.board.framing import FrameReader, crc16_ccitt, encode_frame
from referee.board.protocol import (
    ACK_BIT, COUNTDOWN_MAX_STEP_MS, COUNTDOWN_MIN_STEP_MS, EVENT, HELLO, LIGHT_COUNT, MAGIC, NAK,
    PROTOCOL_MAJOR, PROTOCOL_MINOR, Command, EventKind, Frame, NakReason, Pattern, Status,
)

FIRMWARE_VERSION = (1, 0, 0)
HEARTBEAT_TIMEOUT_MS = 2000
SELF_TEST_STEP_MS = 120
BOOT_SELF_TEST_STEP_MS = 40
SELF_TEST_ALL_MS = 300
DUPLICATE_SLOTS = 4
NOTE_SLOTS = 8


@dataclasses.dataclass
class _Light:
    pattern: Pattern = Pattern.OFF
    since_ms: int = 0
    until_ms: int | None = None


class VirtualBoard:
    """Protocol engine of the board: bytes in, bytes out, driven by a millisecond clock."""

    def __init__(self, *, boot_id: int = 1, protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.protocol = protocol
        self.boot(boot_id)

    # ---- lifecycle ----

    def boot(self, boot_id: int) -> None:
        """Power-up: everything forgotten, HELLO queued, quick self-test running."""
        self.boot_id = boot_id & 0xFFFF
        self.reader = FrameReader()
        self.lights = [_Light() for _ in range(LIGHT_COUNT)]
        self.notes: list[list[int]] = []  # [frequency, duration]
        self.note_started_ms = 0
        self.countdown_step_ms = 0
        self.countdown_next: int | None = None
        self.countdown_start_ms = 0
        self.session = False
        self.safe = False
        self.executed = 0
        self.duplicates = 0
        self.cache: list[tuple[int, int, bytes]] = []  # (seq, request crc, response bytes)
        self.events: list[tuple[EventKind, int, int]] = []  # what the board announced, for tests
        self.beeps_played: list[tuple[int, int]] = []
        self._out = bytearray()
        self.boot_ms = self.now_ms()
        self.last_frame_ms = self.boot_ms
        self.self_test_until = 0
        self._start_self_test(BOOT_SELF_TEST_STEP_MS, quick=True)
        self._send(0, HELLO, self._identity())

    def now_ms(self) -> int:
        return int(round(self._clock() * 1000))

    def receive(self, data: bytes) -> None:
        # one delimiter at a time, so counters read by a command are those of its own moment
        start = 0
        while start < len(data):
            end = data.find(b"\x00", start)
            end = len(data) if end < 0 else end + 1
            for frame in self.reader.feed(data[start:end]):
                self._handle(frame)
            start = end

    def take_output(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def tick(self) -> None:
        now = self.now_ms()
        if self.self_test_until and now >= self.self_test_until:
            self.self_test_until = 0
            self._event(EventKind.SELF_TEST_DONE, 0)
        while self.countdown_next is not None and now - self.countdown_start_ms >= self.countdown_next * self.countdown_step_ms:
            step = self.countdown_next
            self._play_now(880 if step < 3 else 1760, 120 if step < 3 else 400)
            self._event(EventKind.COUNTDOWN, 3 - step, at_ms=self.countdown_start_ms + step * self.countdown_step_ms)
            self.countdown_next = step + 1 if step < 3 else None
        while self.notes and now - self.note_started_ms >= self.notes[0][1]:
            self.note_started_ms += self.notes[0][1]
            self.notes.pop(0)
        for light in self.lights:
            if light.until_ms is not None and now >= light.until_ms:
                light.pattern, light.until_ms = Pattern.OFF, None
        if self.session and now - self.last_frame_ms > HEARTBEAT_TIMEOUT_MS:
            self._go_safe()

    def display(self) -> tuple[Pattern, ...]:
        now = self.now_ms()
        return tuple(Pattern.OFF if l.until_ms is not None and now >= l.until_ms else l.pattern for l in self.lights)

    # ---- internals ----

    def _identity(self) -> bytes:
        return MAGIC + bytes((*self.protocol, *FIRMWARE_VERSION)) + struct.pack(">HBH", self.boot_id, LIGHT_COUNT, 0)

    def _send(self, seq: int, command: int, payload: bytes) -> bytes:
        wire = encode_frame(Frame(seq, command, payload))
        self._out += wire
        return wire

    def _event(self, kind: EventKind, argument: int, *, at_ms: int | None = None) -> None:
        uptime = (self.now_ms() if at_ms is None else at_ms) - self.boot_ms
        self.events.append((kind, argument, uptime))
        self._send(0, EVENT, struct.pack(">BBI", kind, argument, uptime & 0xFFFFFFFF))

    def _start_self_test(self, step_ms: int, *, quick: bool) -> int:
        self.notes = []
        for note in ([(1047, 80)] if quick else [(523, 150), (659, 150), (784, 150), (1047, 150)]):
            self._add_note(*note)
        length = step_ms * LIGHT_COUNT + SELF_TEST_ALL_MS
        self.self_test_until = self.now_ms() + length
        return length

    def _add_note(self, frequency: int, duration: int) -> None:
        if len(self.notes) >= NOTE_SLOTS:
            return
        if not self.notes:
            self.note_started_ms = self.now_ms()
        self.notes.append([frequency, duration])
        self.beeps_played.append((frequency, duration))

    def _play_now(self, frequency: int, duration: int) -> None:
        self.notes = []
        self._add_note(frequency, duration)

    def _go_safe(self) -> None:
        for light in self.lights:
            light.pattern, light.until_ms = Pattern.OFF, None
        self.notes, self.countdown_next, self.self_test_until = [], None, 0
        self.session, self.safe = False, True
        self._event(EventKind.SAFE_STATE, 0)

    def _flags(self) -> int:
        return int((Status.SESSION if self.session else 0) | (Status.COUNTDOWN if self.countdown_next is not None else 0)
                   | (Status.SAFE if self.safe else 0) | (Status.SELF_TEST if self.self_test_until else 0)
                   | (Status.BUZZER if self.notes else 0))

    def _handle(self, frame: Frame) -> None:
        self.last_frame_ms = self.now_ms()
        if frame.seq == 0 or frame.command & ACK_BIT:
            return
        body = bytes((frame.seq, frame.command, len(frame.payload))) + frame.payload
        request_crc = crc16_ccitt(body)
        if frame.command == Command.IDENTIFY:
            self.cache = []
        else:
            for seq, crc, wire in self.cache:
                if seq == frame.seq and crc == request_crc:
                    self.duplicates += 1
                    self._out += wire
                    return
        command, payload = self._execute(frame)
        self.executed += 1
        wire = self._send(frame.seq, command, payload)
        self.cache = (self.cache + [(frame.seq, request_crc, wire)])[-DUPLICATE_SLOTS:]

    def _execute(self, frame: Frame) -> tuple[int, bytes]:
        command, p, now = frame.command, frame.payload, self.now_ms()

        def refuse(reason: NakReason) -> tuple[int, bytes]:
            return NAK, bytes((command, reason))

        ack = ACK_BIT | command
        known = {int(c) for c in Command}
        if command not in known:
            return refuse(NakReason.UNKNOWN_COMMAND)
        if command not in (Command.IDENTIFY, Command.PING) and not self.session:
            return refuse(NakReason.NO_SESSION)
        if command == Command.IDENTIFY:
            if len(p) != 2:
                return refuse(NakReason.BAD_LENGTH)
            if p[0] == self.protocol[0]:
                self.session, self.safe = True, False
            return ack, self._identity()
        if command == Command.PING:
            if p:
                return refuse(NakReason.BAD_LENGTH)
            return ack, struct.pack(">BIHH", self._flags(), (now - self.boot_ms) & 0xFFFFFFFF, self.boot_id,
                                    self.reader.errors & 0xFFFF)
        if command == Command.SET_LIGHTS:
            if not p or len(p) % 4 or len(p) // 4 > LIGHT_COUNT:
                return refuse(NakReason.BAD_LENGTH)
            entries = [struct.unpack(">BBH", p[i : i + 4]) for i in range(0, len(p), 4)]
            if any(light >= LIGHT_COUNT or pattern >= len(Pattern) for light, pattern, _ in entries):
                return refuse(NakReason.BAD_ARGUMENT)
            shown = self.display()
            for light, pattern, duration in entries:
                target = self.lights[light]
                if target.pattern != pattern or shown[light] != pattern:
                    target.since_ms = now
                target.pattern = Pattern(pattern)
                target.until_ms = now + duration if duration else None
            return ack, b""
        if command == Command.ALL_OFF:
            if p:
                return refuse(NakReason.BAD_LENGTH)
            for light in self.lights:
                light.pattern, light.until_ms = Pattern.OFF, None
            self.notes, self.countdown_next, self.self_test_until = [], None, 0
            return ack, b""
        if command == Command.BEEP:
            if not p or len(p) % 4 or len(p) // 4 > 4:
                return refuse(NakReason.BAD_LENGTH)
            notes = [struct.unpack(">HH", p[i : i + 4]) for i in range(0, len(p), 4)]
            if any((f and not 100 <= f <= 10000) or d > 5000 for f, d in notes):
                return refuse(NakReason.BAD_ARGUMENT)
            for note in notes:
                self._add_note(*note)
            return ack, b""
        if command == Command.COUNTDOWN:
            if len(p) != 2:
                return refuse(NakReason.BAD_LENGTH)
            (step,) = struct.unpack(">H", p)
            if step == 0:
                self.countdown_next = None
                return ack, b""
            if not COUNTDOWN_MIN_STEP_MS <= step <= COUNTDOWN_MAX_STEP_MS:
                return refuse(NakReason.BAD_ARGUMENT)
            self.countdown_step_ms, self.countdown_next, self.countdown_start_ms = step, 0, now
            return ack, struct.pack(">H", 3 * step)
        if command == Command.SELF_TEST:
            if p:
                return refuse(NakReason.BAD_LENGTH)
            return ack, struct.pack(">HH", self._start_self_test(SELF_TEST_STEP_MS, quick=False), 0)
        # GET_STATUS
        if p:
            return refuse(NakReason.BAD_LENGTH)
        countdown = 0xFF if self.countdown_next is None else 3 - self.countdown_next
        return ack, (struct.pack(">BI", self._flags(), (now - self.boot_ms) & 0xFFFFFFFF) + bytes(self.display())
                     + struct.pack(">BHHHH", countdown, self.reader.frames_ok & 0xFFFF, self.executed & 0xFFFF,
                                   self.duplicates & 0xFFFF, self.reader.errors & 0xFFFF))
