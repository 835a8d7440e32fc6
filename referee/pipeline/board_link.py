"""Driving the LED/buzzer board from rulings (engineer B's board behind a Protocol)."""

from __future__ import annotations

import sys
from typing import Protocol

from referee.rules.events import Event, EventType


class Announcer(Protocol):
    """The announcements the referee makes; `referee.board.open_board(...)` returns one, tests use
    RecordingBoard."""

    def legal_play(self, player: str, pile: int) -> None: ...
    def illegal_play(self, player: str, pile: int) -> None: ...
    def touch_first(self, pile: int, player: str) -> None: ...
    def stall(self) -> None: ...
    def respit_countdown(self) -> None: ...
    def slap_result(self, takes: dict) -> None: ...
    def round_end(self) -> None: ...
    def game_end(self, winner: str) -> None: ...
    def camera_lost(self) -> None: ...
    def camera_back(self) -> None: ...
    def close(self) -> None: ...


def announce(board: Announcer, event: Event) -> None:
    """One ruling -> the board command(s) that show it. Non-blocking: the board queues them."""
    kind = event.type
    if kind is EventType.PLAY:
        (board.legal_play if event["legal"] else board.illegal_play)(event["player"], event["pile"])
    elif kind is EventType.TOUCH_ORDER:
        board.touch_first(event["pile"], event["first"])
    elif kind is EventType.STALL:
        board.stall()
        board.respit_countdown()
    elif kind is EventType.ROUND_END:
        board.slap_result(dict(event["takes"]))
        board.round_end()
    elif kind is EventType.GAME_END:
        board.game_end(event["winner"])


class RecordingBoard:
    """An in-memory board that remembers every command (tests, and `--board none`)."""

    def __init__(self) -> None:
        self.commands: list[tuple] = []

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def command(*args: object) -> None:
            self.commands.append((name, *args))
        return command

    def close(self) -> None:
        self.commands.append(("close",))


def open_board_link(spec: str) -> Announcer:
    """`--board PORT|sim|none|auto`: the board of referee.board (a NullBoard for "none").

    A port that does not exist is a typo to fix before the game: BoardPortError propagates (one-line
    error, non-zero exit). A port that exists but holds no usable board (not ours, an incompatible
    protocol version, silent) is reported on stderr and the referee goes on without the board.
    """
    from referee.board import open_board  # imported late: replay and the demo never need it
    from referee.board.open import NullBoard
    from referee.errors import BoardError, BoardPortError

    try:
        return open_board(spec)
    except BoardPortError:
        raise
    except BoardError as error:
        print(f"warning: board not used: {error}; the referee goes on without the board", file=sys.stderr)
        return NullBoard()
