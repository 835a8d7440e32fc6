"""The virtual board: the firmware's behaviour in Python, on a pseudo-terminal or in memory.

`VirtualBoard` mirrors hardware/firmware/src/core/board_core.c (same protocol,
same duplicate cache, countdown, heartbeat and safe state) so that `--board sim`
and the driver's tests need no compiler. `PtyBoardServer` serves it on a
pseudo-terminal that pyserial opens like a real port; like a real Uno it
reboots when the port is opened, and it can be unplugged and plugged back.
"""

from __future__ import annotations

import dataclasses
import os
import select
import struct
import threading
import time
from typing import Callable

from referee.board.framing import FrameReader, encode_frame
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
            self._event(EventKind.COUNTDOWN, 3 - step)
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

    def _event(self, kind: EventKind, argument: int) -> None:
        uptime = self.now_ms() - self.boot_ms
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
        from referee.board.framing import crc16_ccitt

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


class MemoryBoardServer:
    """Serves a VirtualBoard over in-memory transports (where there are no pseudo-terminals, and
    for fault-injection tests). Each `connect()` is a fresh cable to the same board, which
    reboots as on a port open; `intercept` may rewrite the host's outgoing bytes (noise)."""

    def __init__(self, *, protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR),
                 intercept: Callable[[bytes], bytes] | None = None) -> None:
        self.board = VirtualBoard(protocol=protocol)
        self.intercept = intercept
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._boots = 1

    def connect(self):
        from referee.board.transport import memory_pair
        from referee.errors import BoardError

        host, device = memory_pair("memory board")
        host.intercept = self.intercept
        with self._lock:
            self._boots += 1
            self.board.boot(self._boots)

        def serve() -> None:
            while not self._stop.is_set() and not device.unplugged:
                try:
                    data = device.read(0.002)
                except BoardError:
                    return
                with self._lock:
                    self.board.receive(data)
                    self.board.tick()
                    out = self.board.take_output()
                if out:
                    try:
                        device.write(out)
                    except BoardError:
                        return

        threading.Thread(target=serve, name="memory-board", daemon=True).start()
        return host

    def close(self) -> None:
        self._stop.set()


class PtyBoardServer:
    """Serves a VirtualBoard on a pseudo-terminal, in its own thread.

    `port` is the path to open with pyserial: `link` (a symlink kept across
    unplug/replug) when given, else the pty's own /dev/pts/N. Opening the port
    reboots the board, as DTR does on an Uno. Fault injection for tests:
    `drop_acks(n)` loses the next n responses, `reset()` reboots the board,
    `unplug()` / `replug()` make the port vanish and come back.
    """

    def __init__(self, *, link: str | os.PathLike | None = None, reset_on_open: bool = True,
                 protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR)) -> None:
        self._link = os.fspath(link) if link is not None else None
        self._reset_on_open = reset_on_open
        self._lock = threading.RLock()
        self._boot_count = 0
        self._drop_acks = 0
        self.board = VirtualBoard(boot_id=self._next_boot_id(), protocol=protocol)
        self._master: int | None = None
        self._port_open = False
        self._stopping = False
        self._plug_in()
        self._thread = threading.Thread(target=self._serve, name="virtual-board", daemon=True)
        self._thread.start()

    @property
    def port(self) -> str:
        return self._link or self._pty_name

    def _next_boot_id(self) -> int:
        self._boot_count += 1
        return (int(time.monotonic() * 1000) + self._boot_count) & 0xFFFF or 1

    def _plug_in(self) -> None:
        import tty

        master, slave = os.openpty()
        tty.setraw(slave)
        self._pty_name = os.ttyname(slave)
        os.close(slave)  # from now on POLLHUP on the master means "nobody has the port open"
        os.set_blocking(master, False)
        if self._link:
            temporary = f"{self._link}.{os.getpid()}"
            if os.path.lexists(temporary):
                os.unlink(temporary)
            os.symlink(self._pty_name, temporary)
            os.replace(temporary, self._link)
        self._port_open = False
        self._master = master

    def reset(self) -> None:
        with self._lock:
            self.board.boot(self._next_boot_id())

    def drop_acks(self, count: int) -> None:
        with self._lock:
            self._drop_acks += count

    def unplug(self) -> None:
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None
            if self._link and os.path.lexists(self._link):
                os.unlink(self._link)

    def replug(self) -> None:
        """The cable goes back in: the board powers up again on a new pseudo-terminal."""
        with self._lock:
            if self._master is None:
                self.board.boot(self._next_boot_id())
                self._plug_in()

    def close(self) -> None:
        self._stopping = True
        self._thread.join(timeout=2)
        self.unplug()

    def __enter__(self) -> "PtyBoardServer":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _serve(self) -> None:
        poller_events = select.POLLIN
        while not self._stopping:
            with self._lock:
                master = self._master
            if master is None:
                time.sleep(0.005)
                continue
            try:
                ready = select.poll()
                ready.register(master, poller_events)
                result = ready.poll(2)
            except (OSError, ValueError):
                continue
            with self._lock:
                if master != self._master:
                    continue
                hung_up = any(event & select.POLLHUP for _, event in result)
                if not hung_up and not self._port_open:
                    self._port_open = True
                    if self._reset_on_open:
                        self.board.boot(self._next_boot_id())
                elif hung_up:
                    self._port_open = False
                if self._port_open and any(event & select.POLLIN for _, event in result):
                    try:
                        data = os.read(master, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    self.board.receive(data)
                self.board.tick()
                out = self.board.take_output()
                if out and self._port_open:
                    out = self._filter(out)
                    try:
                        os.write(master, out)
                    except OSError:
                        pass
            if hung_up:
                time.sleep(0.002)  # POLLHUP is level-triggered: do not spin while nobody listens

    def _filter(self, out: bytes) -> bytes:
        if not self._drop_acks:
            return out
        kept = bytearray()
        for chunk in out.split(b"\x00"):
            if not chunk:
                continue
            if self._drop_acks and chunk and _is_response(chunk):
                self._drop_acks -= 1
                continue
            kept += b"\x00" + chunk + b"\x00"
        return bytes(kept)


def _is_response(encoded: bytes) -> bool:
    from referee.board.framing import decode_body

    try:
        frame = decode_body(encoded)
    except ValueError:
        return False
    return frame.seq != 0
