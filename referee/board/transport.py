"""Byte transports under the board link: a serial port, and an in-memory fake.

`Transport` is the one door: tests and the `sim` board plug the fake in, a real
board plugs in a serial port. A `Connector` opens a fresh transport each time the
driver (re)connects, so a board that was unplugged can be opened again.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Protocol

from referee.board.protocol import BAUD_RATE
from referee.errors import BoardPortError


class Transport(Protocol):
    name: str

    def write(self, data: bytes) -> None: ...

    def read(self, timeout: float) -> bytes:
        """Bytes that arrived, waiting up to `timeout` seconds for the first one; b"" if none."""
        ...

    def close(self) -> None: ...


Connector = Callable[[], Transport]


class SerialTransport:
    """A serial port through pyserial (a USB board, or a pseudo-terminal)."""

    def __init__(self, port: str, *, baudrate: int = BAUD_RATE) -> None:
        import serial

        self.name = port
        self._serial_exception = serial.SerialException
        try:
            self._serial = serial.Serial(port, baudrate, timeout=0.05, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as error:
            raise BoardPortError(
                f"cannot open serial port {port} ({_reason(error)}); expected the board's USB port, "
                f"e.g. /dev/ttyACM0 or COM3: check the cable, or use --board sim or none"
            ) from None
        self._timeout = 0.05

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except (self._serial_exception, OSError) as error:
            raise BoardPortError(f"serial port {self.name} failed while writing ({_reason(error)}); was it unplugged?") from None

    def read(self, timeout: float) -> bytes:
        try:
            waiting = self._serial.in_waiting
            if waiting:
                return self._serial.read(waiting)
            timeout = max(0.0, timeout)
            if abs(timeout - self._timeout) > 1e-4:
                self._serial.timeout = timeout
                self._timeout = timeout
            first = self._serial.read(1)
            if first and self._serial.in_waiting:
                first += self._serial.read(self._serial.in_waiting)
            return first
        except (self._serial_exception, OSError, TypeError) as error:
            raise BoardPortError(f"serial port {self.name} failed while reading ({_reason(error)}); was it unplugged?") from None

    def close(self) -> None:
        try:
            self._serial.close()
        except Exception:  # closing a vanished port may fail; it is gone either way
            pass


def _reason(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


class _Pipe:
    """One direction of an in-memory link."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._condition = threading.Condition()
        self.closed = False

    def put(self, data: bytes) -> None:
        with self._condition:
            self._data += data
            self._condition.notify_all()

    def get(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        with self._condition:
            while not self._data and not self.closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return b""
                self._condition.wait(remaining)
            data = bytes(self._data)
            self._data.clear()
            return data

    def close(self) -> None:
        with self._condition:
            self.closed = True
            self._condition.notify_all()


class MemoryTransport:
    """One end of an in-memory serial line; `memory_pair()` makes both ends.

    `unplug()` makes both ends fail like a pulled cable; `intercept` (host end)
    may rewrite or drop outgoing bytes, for fault-injection tests.
    """

    def __init__(self, name: str, outgoing: _Pipe, incoming: _Pipe) -> None:
        self.name = name
        self._outgoing = outgoing
        self._incoming = incoming
        self.intercept: Callable[[bytes], bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._outgoing.closed:
            raise BoardPortError(f"in-memory port {self.name} is unplugged")
        if self.intercept is not None:
            data = self.intercept(data)
        self._outgoing.put(data)

    def read(self, timeout: float) -> bytes:
        data = self._incoming.get(timeout)
        if not data and self._incoming.closed:
            raise BoardPortError(f"in-memory port {self.name} is unplugged")
        return data

    def close(self) -> None:
        self.unplug()

    def unplug(self) -> None:
        self._outgoing.close()
        self._incoming.close()

    @property
    def unplugged(self) -> bool:
        return self._outgoing.closed


def memory_pair(name: str = "memory") -> tuple[MemoryTransport, MemoryTransport]:
    """(host end, device end) of a fresh in-memory serial line."""
    to_device, to_host = _Pipe(), _Pipe()
    return MemoryTransport(name, to_device, to_host), MemoryTransport(name, to_host, to_device)
