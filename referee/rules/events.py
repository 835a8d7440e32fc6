"""Rulings in the event-log schema of INTERFACE.md (JSON Lines, one object per line, in order of `t`)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Iterator, Mapping

from referee.errors import InputFileError

PLAYERS = ("A", "B")


class EventType(str, Enum):
    SPIT = "spit"
    PLAY = "play"
    TOUCH_ORDER = "touch_order"
    STALL = "stall"
    SLAP = "slap"
    ROUND_END = "round_end"
    VIOLATION = "violation"
    GAME_END = "game_end"
    # Additions to INTERFACE.md (allowed: "add to it freely").
    ROUND_START = "round_start"
    NOTICE = "notice"
    #: the moment a round-end condition is met on the table (before the slaps settle `round_end`)
    ROUND_OVER = "round_over"


#: Keys each type must carry besides type, t and frame.
REQUIRED_KEYS: dict[EventType, tuple[str, ...]] = {
    EventType.SPIT: ("player", "pile", "card"),
    EventType.PLAY: ("player", "pile", "card", "on", "legal"),
    EventType.TOUCH_ORDER: ("pile", "first", "gap_ms", "too_close"),
    EventType.STALL: (),
    EventType.SLAP: ("player", "pile"),
    EventType.ROUND_END: ("reason", "takes"),
    EventType.VIOLATION: ("player", "kind"),
    EventType.GAME_END: ("winner",),
    EventType.ROUND_START: (),
    EventType.NOTICE: ("message",),
    EventType.ROUND_OVER: ("reason",),
}


@dataclass(frozen=True)
class Event:
    """One ruling. `t` is when it happened on the table; `frame` the first frame it was seen in."""

    type: EventType
    t: float
    frame: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", EventType(self.type))
        if not isinstance(self.t, (int, float)) or not math.isfinite(self.t):
            raise ValueError(f"event t must be a finite number of seconds, got {self.t!r}")
        missing = [key for key in REQUIRED_KEYS[self.type] if key not in self.details]
        if missing:
            raise ValueError(f"{self.type.value} event needs {', '.join(missing)}; got {sorted(self.details)}")
        for key in ("player", "first", "winner"):
            if key in self.details and self.details[key] not in PLAYERS:
                raise ValueError(f"{self.type.value} event: {key} must be 'A' or 'B', got {self.details[key]!r}")
        if "pile" in self.details and self.details["pile"] not in (0, 1):
            raise ValueError(f"{self.type.value} event: pile must be 0 or 1, got {self.details['pile']!r}")

    def __getitem__(self, key: str) -> Any:
        return self.details[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.details.get(key, default)

    def with_frame(self, frame: int) -> "Event":
        return Event(self.type, self.t, frame, dict(self.details))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value, "t": round(float(self.t), 6), "frame": self.frame}
        for key, value in self.details.items():
            out[key] = str(value) if hasattr(value, "rank") else value
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        data = dict(data)
        try:
            kind = data.pop("type")
            t = data.pop("t")
        except KeyError as missing:
            raise ValueError(f"event needs {missing.args[0]!r}: {data}") from None
        frame = data.pop("frame", None)
        return cls(EventType(kind), float(t), frame, data)


def place_notes(events: list[Event], notes: list[Event]) -> None:
    """Puts `notes` (all of one time) into `events` (in order of t) before the first event dated at or
    after them: a note explains the rulings of its moment, and one dated earlier (a stall seen in
    hindsight, dated when play stopped) goes first, so the log stays in order of t."""
    if notes:
        at = next((number for number, event in enumerate(events) if event.t >= notes[0].t), len(events))
        events[at:at] = notes


def read_event_log(path: str) -> list[Event]:
    """Reads a JSON Lines event log. A half-written last line (a crash mid-write) is skipped, not fatal."""
    events: list[Event] = []
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise InputFileError(f"cannot read event log {path}: {error.strerror or error}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append(Event.from_dict(json.loads(line)))
        except (json.JSONDecodeError, ValueError) as error:
            if number == len(lines):
                break  # the writer died mid-line; everything before it stands
            raise InputFileError(f"{path} line {number}: not an event ({error})") from None
    return events


class EventLogWriter:
    """Appends events to a JSON Lines file, flushed and fsynced one by one, so a crash loses nothing ruled."""

    def __init__(self, path: str) -> None:
        try:
            self._handle = open(path, "w", encoding="utf-8")
        except OSError as error:
            raise InputFileError(f"cannot write event log {path}: {error.strerror or error}") from None
        self.path = path
        self.count = 0

    def write(self, event: Event) -> None:
        self._handle.write(event.to_json() + "\n")
        self._handle.flush()
        self.count += 1

    def write_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.write(event)

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.flush()
            self._handle.close()

    def __enter__(self) -> "EventLogWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def iter_json_lines(events: Iterable[Event]) -> Iterator[str]:
    for event in events:
        yield event.to_json()
