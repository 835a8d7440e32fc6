"""`open_board(spec)`: a device path, "auto" (find it by USB VID:PID), "sim" or "none"."""

from __future__ import annotations

import os
import sys
from typing import Callable, Union

from referee.board.board import Board, BoardTiming, ConnectionState, NullBoard
from referee.board.transport import SerialTransport
from referee.errors import BoardError, BoardNotRecognisedError, BoardPortError, BoardProtocolError

# USB bridges found on Uno/Nano-class boards: (VID, PID, what)
KNOWN_USB_IDS = (
    (0x2341, 0x0043, "Arduino Uno R3 (ATmega16U2)"),
    (0x2341, 0x0001, "Arduino Uno (ATmega8U2)"),
    (0x2341, 0x0243, "Arduino Uno R3"),
    (0x2A03, 0x0043, "Arduino.org Uno"),
    (0x1A86, 0x7523, "CH340 (Nano clones)"),
    (0x0403, 0x6001, "FTDI FT232R (Nano, Duemilanove)"),
    (0x10C4, 0xEA60, "CP2102"),
)

AnyBoard = Union[Board, NullBoard]


def find_board_ports() -> list[str]:
    """Serial ports whose USB VID:PID is one of KNOWN_USB_IDS, best first."""
    from serial.tools import list_ports

    known = {(vid, pid) for vid, pid, _ in KNOWN_USB_IDS}
    return [port.device for port in sorted(list_ports.comports(), key=lambda p: p.device)
            if (port.vid, port.pid) in known]


def open_board(spec: str, *, wait: float = 6.0, timing: BoardTiming | None = None) -> AnyBoard:
    """Opens the board named by `spec` and waits up to `wait` s for its handshake.

    Returns a running Board (its thread keeps reconnecting if the board goes away later).
    Raises BoardPortError for a port that does not exist, BoardNotRecognisedError when
    the device does not answer as our board within `wait`, BoardProtocolError for an
    incompatible protocol. `wait=0` returns at once and connects in the background.
    """
    spec = (spec or "none").strip()
    if spec == "none":
        return NullBoard()
    if spec == "sim":
        return _open_sim(wait, timing)
    if spec == "auto":
        ports = find_board_ports()
        if not ports:
            raise BoardPortError(
                "no board found: no serial port with a known Uno/Nano USB id "
                f"({', '.join(f'{v:04x}:{p:04x}' for v, p, _ in KNOWN_USB_IDS)}); plug it in or give --board PORT"
            )
        errors = []
        for port in ports:
            try:
                return open_board(port, wait=wait, timing=timing)
            except BoardError as error:
                errors.append(str(error))
        raise BoardNotRecognisedError(f"no referee board among {', '.join(ports)}: " + "; ".join(errors))
    if not spec.startswith(("socket://", "rfc2217://", "loop://")) and not _port_exists(spec):
        raise BoardPortError(
            f"serial port {spec} does not exist; expected a device path such as /dev/ttyACM0 or COM3, "
            f"or 'sim' / 'none' / 'auto': plug the board in, or check `python -m serial.tools.list_ports`"
        )
    board = Board(lambda: SerialTransport(spec), name=spec, timing=timing)
    return _await_handshake(board, wait)


def open_board_or_null(spec: str, *, warn: Callable[[str], None] | None = None, **options) -> AnyBoard:
    """Like open_board, but a board that cannot be used is reported through `warn` and replaced by a
    NullBoard, so the referee goes on without it (what `referee live --board ...` wants)."""
    try:
        return open_board(spec, **options)
    except BoardError as error:
        (warn or _warn_on_stderr)(f"board not used: {error}; the referee goes on without the board")
        return NullBoard()


def _warn_on_stderr(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _port_exists(spec: str) -> bool:
    if sys.platform.startswith("win"):
        from serial.tools import list_ports

        return spec.upper() in {p.device.upper() for p in list_ports.comports()}
    return os.path.exists(spec)


def _await_handshake(board: Board, wait: float) -> Board:
    if wait <= 0:
        return board
    board.wait_for_state(ConnectionState.CONNECTED, ConnectionState.INCOMPATIBLE, timeout=wait)
    state, error = board.state, board.last_error
    if state is ConnectionState.CONNECTED:
        return board
    board.close()
    if isinstance(error, (BoardProtocolError, BoardNotRecognisedError, BoardPortError)):
        raise error
    raise BoardNotRecognisedError(
        f"the board on {board.name} did not complete the identify handshake within {wait:.1f} s"
        + (f" ({error})" if error else "") + "; check the port and the firmware"
    )


def _open_sim(wait: float, timing: BoardTiming | None) -> Board:
    """The virtual board: on a pseudo-terminal where the OS has them, in memory otherwise."""
    try:
        from referee.board.servers import PtyBoardServer

        server = PtyBoardServer()
    except (OSError, ImportError, AttributeError):
        return _open_sim_in_memory(wait, timing)
    board = Board(lambda: SerialTransport(server.port), name=f"sim ({server.port})", timing=timing, on_close=server.close)
    return _await_handshake(board, wait)


def _open_sim_in_memory(wait: float, timing: BoardTiming | None) -> Board:
    from referee.board.servers import MemoryBoardServer

    server = MemoryBoardServer()
    board = Board(server.connect, name="sim (in memory)", timing=timing, on_close=server.close)
    return _await_handshake(board, wait)
