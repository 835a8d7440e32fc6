"""The LED/buzzer board: protocol, framing, transports, the virtual board and the driver.

    board = open_board("/dev/ttyACM0")   # or "auto", "sim", "none"
    board.legal_play("A", 0)             # never blocks: queued for the board's own thread
    print(board.status())
    board.close()

Wire protocol: hardware/PROTOCOL.md. Firmware: hardware/firmware.
"""

from referee.board.board import Board, BoardTiming, ConnectionState, NullBoard
from referee.board.framing import FrameReader, cobs_decode, cobs_encode, crc16_ccitt, encode_frame
from referee.board.link import BoardLink, LinkTiming
from referee.board.open import KNOWN_USB_IDS, find_board_ports, open_board, open_board_or_null
from referee.board.protocol import BoardStatus, Frame, Identity, Light, Pattern
from referee.board.transport import MemoryTransport, SerialTransport, Transport, memory_pair
from referee.board.servers import MemoryBoardServer, PtyBoardServer
from referee.board.virtual import VirtualBoard

__all__ = [
    "Board",
    "BoardLink",
    "BoardStatus",
    "BoardTiming",
    "ConnectionState",
    "Frame",
    "FrameReader",
    "Identity",
    "KNOWN_USB_IDS",
    "LinkTiming",
    "Light",
    "MemoryBoardServer",
    "MemoryTransport",
    "NullBoard",
    "Pattern",
    "PtyBoardServer",
    "SerialTransport",
    "Transport",
    "VirtualBoard",
    "cobs_decode",
    "cobs_encode",
    "crc16_ccitt",
    "encode_frame",
    "find_board_ports",
    "memory_pair",
    "open_board",
    "open_board_or_null",
]
