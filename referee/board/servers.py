"""Serving the virtual board on a port: a pseudo-terminal, or an in-memory line.

`PtyBoardServer` serves it on a pseudo-terminal that pyserial opens like a real
port; like a real Uno it reboots when the port is opened, and it can be
unplugged and plugged back. `MemoryBoardServer` is the in-memory version, for
systems without pseudo-terminals and for fault-injection tests.
"""

from __future__ import annotations

import os
import select
import threading
import time
from typing import Callable

from referee.board.framing import decode_body
from referee.board.protocol import PROTOCOL_MAJOR, PROTOCOL_MINOR
from referee.board.virtual import VirtualBoard


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
    try:
        frame = decode_body(encoded)
    except ValueError:
        return False
    return frame.seq != 0
