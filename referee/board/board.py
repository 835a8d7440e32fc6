"""The board driver the referee talks to: non-blocking, own thread, reconnects by itself.

Every announcement method only puts an intent on a queue and returns at once, so the
referee's frame loop never waits for a serial port. The worker thread owns the port:
it opens it, shakes hands, sends what the queue holds (merging a flood into a few
frames), sends heartbeats, notices resets (HELLO, a refused command, a heartbeat
without a session) and lost ports, reconnects, and then re-sends the whole display.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import enum
import queue
import threading
import time
from typing import Callable, Mapping

from referee.board import display as announce
from referee.board.display import AllOff, Beep, Countdown, Display, Intent, SetLight
from referee.board.link import AckTimeoutError, BoardLink, LinkTiming, NakError
from referee.board.protocol import (
    BoardEvent, BoardStatus, Command, Heartbeat, Identity, Light, NakReason, Pattern, Status,
    beep_payload, countdown_payload, set_lights_payload,
)
from referee.board.transport import Connector, Transport
from referee.errors import BoardClosedError, BoardError, BoardProtocolError


# Beeps waiting to be sent beyond this many are dropped (oldest first): the board's own note queue
# holds 8 notes, and a burst of stale beeps would only confuse the players.
MAX_QUEUED_BEEPS = 2


class ConnectionState(enum.Enum):
    CONNECTING = "connecting"  # opening the port, waiting for the handshake
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"  # lost the board; retrying, the display is kept and re-sent on return
    INCOMPATIBLE = "incompatible"  # the board answered with another protocol: no more tries
    CLOSED = "closed"


@dataclasses.dataclass(frozen=True, kw_only=True)
class BoardTiming:
    """Timing knobs of the driver.

    heartbeat_interval: idle time before a PING; must stay well under the board's 2 s
      heartbeat timeout, after which it blanks its lights (safe state).
    reconnect_interval: pause between attempts to reopen a lost port; lower finds a re-plugged
      board sooner and costs a failed open() each time.
    action_max_age: a beep or countdown that waited longer than this (the board was away)
      is dropped rather than played late.
    """

    heartbeat_interval: float = 0.5
    reconnect_interval: float = 0.5
    action_max_age: float = 1.0
    link: LinkTiming = dataclasses.field(default_factory=LinkTiming)


@dataclasses.dataclass
class BoardCounters:
    commands: int = 0
    retransmissions: int = 0
    reconnects: int = 0
    resyncs: int = 0
    dropped_actions: int = 0


class _Query:
    def __init__(self) -> None:
        self.future: concurrent.futures.Future = concurrent.futures.Future()


class _Barrier(_Query):
    pass


class Board:
    """A board behind a connector (a serial port, a pseudo-terminal, an in-memory fake)."""

    def __init__(self, connector: Connector, *, name: str, timing: BoardTiming | None = None,
                 on_close: Callable[[], None] | None = None) -> None:
        self.name = name
        self.timing = timing or BoardTiming()
        self._connector = connector
        self._on_close = on_close
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._state = ConnectionState.CONNECTING
        self._state_changed = threading.Condition(self._lock)
        self._display = Display()
        self._identity: Identity | None = None
        self._last_error: BoardError | None = None
        self._closing = False
        self.counters = BoardCounters()
        self.events: collections.deque[BoardEvent] = collections.deque(maxlen=256)  # countdown steps etc.
        self._thread = threading.Thread(target=self._run, name=f"board {name}", daemon=True)
        self._thread.start()

    # ---- announcements (contract for the pipeline): never block ----

    def legal_play(self, player: str, pile: int) -> None:
        self._submit(announce.legal_play(player, pile))

    def illegal_play(self, player: str, pile: int) -> None:
        self._submit(announce.illegal_play(player, pile))

    def touch_first(self, pile: int, player: str) -> None:
        self._submit(announce.touch_first(pile, player))

    def stall(self) -> None:
        self._submit(announce.stall())

    def respit_countdown(self, step_ms: int = announce.COUNTDOWN_STEP_MS) -> None:
        countdown_payload(step_ms)  # validates
        self._submit(announce.respit_countdown(step_ms))

    def slap_result(self, takes: Mapping[str, int | None]) -> None:
        self._submit(announce.slap_result(takes))

    def round_end(self) -> None:
        self._submit(announce.round_end())

    def game_end(self, winner: str) -> None:
        self._submit(announce.game_end(winner))

    def camera_lost(self) -> None:
        self._submit(announce.camera_lost())

    def camera_back(self) -> None:
        self._submit(announce.camera_back())

    # ---- lower level ----

    def set_light(self, light: Light, pattern: Pattern, duration_ms: int = 0) -> None:
        self._submit([SetLight(Light(light), Pattern(pattern), int(duration_ms))])

    def beep(self, notes: list[tuple[int, int]]) -> None:
        beep_payload(notes)  # validates
        self._submit([Beep(tuple(notes))])

    def all_off(self) -> None:
        self._submit([AllOff()])

    def _submit(self, intents: list[Intent]) -> None:
        if self._closing:
            raise BoardClosedError(f"board {self.name} is closed; open a new one with open_board()")
        stamp = time.monotonic()
        for intent in intents:
            self._queue.put((stamp, intent))

    # ---- state ----

    @property
    def state(self) -> ConnectionState:
        with self._lock:
            return self._state

    @property
    def identity(self) -> Identity | None:
        return self._identity

    @property
    def last_error(self) -> BoardError | None:
        return self._last_error

    def expected_display(self) -> tuple[Pattern, ...]:
        """What the board should show now, by the host's model."""
        with self._lock:
            return self._display.shown()

    def wait_for_state(self, *states: ConnectionState, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._state_changed:
            while self._state not in states:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._state_changed.wait(remaining)
            return True

    def flush(self, timeout: float = 5.0) -> bool:
        """Waits until everything queued so far has reached the board (True) or timeout (False)."""
        barrier = _Barrier()
        self._queue.put((time.monotonic(), barrier))
        try:
            return bool(barrier.future.result(timeout))
        except (concurrent.futures.TimeoutError, BoardError):
            return False  # not delivered: the board is away (the display will be re-sent when it is back)

    def board_status(self, timeout: float = 5.0) -> BoardStatus:
        """Asks the board what it shows (blocks up to `timeout`; for checks and tests, not the frame loop)."""
        query = _Query()
        self._queue.put((time.monotonic(), query))
        try:
            return query.future.result(timeout)
        except concurrent.futures.TimeoutError:
            raise BoardError(f"board {self.name} did not report its status within {timeout:.1f} s ({self.status()})") from None

    def status(self) -> str:
        with self._lock:
            state, identity, error, c = self._state, self._identity, self._last_error, self.counters
        numbers = f"{c.commands} commands, {c.retransmissions} retransmissions, {c.reconnects} reconnects"
        if state is ConnectionState.CONNECTED and identity is not None:
            return (f"board on {self.name}: connected, firmware {identity.firmware_version}, "
                    f"protocol {identity.protocol_version}; {numbers}")
        if state is ConnectionState.INCOMPATIBLE:
            return f"board on {self.name}: not used: {error}; the referee goes on without the board"
        if state is ConnectionState.CLOSED:
            return f"board on {self.name}: closed; {numbers}"
        reason = f" ({error})" if error else ""
        return (f"board on {self.name}: {state.value}{reason}; the referee goes on without the board "
                f"and keeps trying; {numbers}")

    def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._queue.put((time.monotonic(), None))
        self._thread.join(timeout=3)
        if self._on_close is not None:
            self._on_close()

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---- worker thread ----

    def _set_state(self, state: ConnectionState, error: BoardError | None = None) -> None:
        with self._state_changed:
            self._state = state
            if error is not None:
                self._last_error = error
            elif state is ConnectionState.CONNECTED:
                self._last_error = None
            self._state_changed.notify_all()

    def _run(self) -> None:
        transport: Transport | None = None
        link: BoardLink | None = None
        in_session = False
        ever_connected = False
        pending_actions: list[tuple[float, Intent]] = []
        while not self._closing:
            if link is None:
                try:
                    transport = self._connector()
                except BoardError as error:
                    self._set_state(ConnectionState.RECONNECTING if ever_connected else ConnectionState.CONNECTING, error)
                    self._idle_through(self.timing.reconnect_interval, pending_actions)
                    continue
                link = BoardLink(transport, timing=self.timing.link, on_event=self.events.append)
                in_session = False
            if not in_session:
                try:
                    identity = link.handshake()
                    self._identity = identity
                    with self._lock:
                        everything = self._display.entries()
                    self._send(link, Command.SET_LIGHTS, set_lights_payload(everything))
                except BoardProtocolError as error:
                    self._set_state(ConnectionState.INCOMPATIBLE, error)
                    transport.close()
                    self._drain_forever()
                    return
                except BoardError as error:  # no answer, port gone: reopen the port and try again
                    transport.close()
                    link = None
                    self._set_state(ConnectionState.RECONNECTING if ever_connected else ConnectionState.CONNECTING, error)
                    self._idle_through(self.timing.reconnect_interval, pending_actions)
                    continue
                if ever_connected:
                    self.counters.resyncs += 1
                ever_connected = True
                in_session = True
                self._set_state(ConnectionState.CONNECTED)
            try:
                in_session = self._serve(link, pending_actions)
            except BoardError as error:
                transport.close()
                link = None
                self.counters.reconnects += 1
                self._set_state(ConnectionState.RECONNECTING, error)
                continue
            if not in_session:
                self._set_state(ConnectionState.RECONNECTING, self._last_error)
        if transport is not None:
            transport.close()
        self._fail_queries(BoardClosedError(f"board {self.name} closed"))
        self._set_state(ConnectionState.CLOSED)

    def _send(self, link: BoardLink, command: int, payload: bytes = b""):
        before = link.retransmissions
        try:
            return link.request(command, payload)
        finally:
            self.counters.commands += 1
            self.counters.retransmissions += link.retransmissions - before

    def _serve(self, link: BoardLink, pending_actions: list[tuple[float, Intent]]) -> bool:
        """Sends queued work and heartbeats while the session lasts; False when it is lost."""
        while not self._closing:
            if link.hello_seen:  # the board rebooted behind our back
                self._last_error = BoardError(f"the board on {link.port} restarted")
                return False
            batch = self._take_batch(self.timing.heartbeat_interval)
            if batch is None:
                return True
            try:
                if not batch and not pending_actions:
                    beat = Heartbeat.parse(self._send(link, Command.PING).payload)
                    if not beat.status & Status.SESSION:
                        self._last_error = BoardError(f"the board on {link.port} lost its session (reset or heartbeat loss)")
                        return False
                    continue
                self._process(link, batch, pending_actions)
            except NakError as error:
                if error.reason == NakReason.NO_SESSION:
                    self._last_error = error
                    return False
                raise
            except AckTimeoutError as error:
                self._last_error = error
                return False
        return True

    def _take_batch(self, timeout: float) -> list | None:
        """Everything queued now (waiting up to `timeout` for the first item); None on close."""
        try:
            items = [self._queue.get(timeout=timeout)]
        except queue.Empty:
            return []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if any(item is None for _, item in items):
            return None
        return items

    def _process(self, link: BoardLink, batch: list, pending_actions: list[tuple[float, Intent]]) -> None:
        """Merges a batch: light changes become one SET_LIGHTS; beeps and countdowns follow in order."""
        changed: set[Light] = set()
        all_off = False
        queries: list[_Query] = []
        with self._lock:
            for stamp, item in batch:
                if isinstance(item, _Query):
                    queries.append(item)
                elif isinstance(item, (SetLight, AllOff)):
                    if isinstance(item, AllOff):
                        all_off = True
                        changed.clear()
                        pending_actions.clear()
                    changed.update(self._display.apply(item))
                else:
                    pending_actions.append((stamp, item))
            entries = self._display.entries(changed) if changed else []
        try:
            self._deliver(link, all_off, entries, pending_actions, queries)
        except BoardError:
            for query in queries:  # answered after the board is back (or failed when it is given up)
                if not query.future.done():
                    self._queue.put((time.monotonic(), query))
            raise

    def _deliver(self, link: BoardLink, all_off: bool, entries: list, pending_actions: list[tuple[float, Intent]],
                 queries: list[_Query]) -> None:
        if all_off:
            self._send(link, Command.ALL_OFF)
        if entries:
            self._send(link, Command.SET_LIGHTS, set_lights_payload(entries))
        now = time.monotonic()
        self._thin_out(pending_actions)
        while pending_actions:
            stamp, action = pending_actions[0]
            if now - stamp > self.timing.action_max_age:
                self.counters.dropped_actions += 1  # the moment has passed: a late beep would mislead
            elif isinstance(action, Beep):
                self._send(link, Command.BEEP, beep_payload(list(action.notes)))
            elif isinstance(action, Countdown):
                self._send(link, Command.COUNTDOWN, countdown_payload(action.step_ms))
            pending_actions.pop(0)
        for query in queries:
            if query.future.done():
                continue
            if isinstance(query, _Barrier):
                query.future.set_result(True)
            else:
                query.future.set_result(BoardStatus.parse(self._send(link, Command.GET_STATUS).payload))

    def _thin_out(self, pending_actions: list[tuple[float, Intent]]) -> None:
        """A flood of beeps is noise, not information: keep the last MAX_QUEUED_BEEPS, and only the latest countdown."""
        beeps = [i for i, (_, action) in enumerate(pending_actions) if isinstance(action, Beep)]
        countdowns = [i for i, (_, action) in enumerate(pending_actions) if isinstance(action, Countdown)]
        dropped = set(beeps[:-MAX_QUEUED_BEEPS]) | set(countdowns[:-1])
        if dropped:
            self.counters.dropped_actions += len(dropped)
            pending_actions[:] = [item for i, item in enumerate(pending_actions) if i not in dropped]

    def _idle_through(self, seconds: float, pending_actions: list[tuple[float, Intent]]) -> None:
        """While the board is away: keep the display model current, let old actions expire."""
        deadline = time.monotonic() + seconds
        while not self._closing and time.monotonic() < deadline:
            batch = self._take_batch(max(0.0, deadline - time.monotonic()))
            if batch is None:
                self._closing = True
                return
            with self._lock:
                for stamp, item in batch:
                    if isinstance(item, (SetLight, AllOff)):
                        self._display.apply(item)
                    elif isinstance(item, _Query) and not item.future.done():
                        item.future.set_exception(BoardError(f"board {self.name} is not connected: {self._last_error}"))
                    else:
                        pending_actions.append((stamp, item))
            now = time.monotonic()
            kept = [(s, a) for s, a in pending_actions if now - s <= self.timing.action_max_age]
            self.counters.dropped_actions += len(pending_actions) - len(kept)
            pending_actions[:] = kept

    def _drain_forever(self) -> None:
        while True:
            batch = self._take_batch(1.0)
            if batch is None:
                break
            for _, item in batch:
                if isinstance(item, _Query) and not item.future.done():
                    item.future.set_exception(self._last_error or BoardError("board not usable"))
        self._set_state(ConnectionState.CLOSED, self._last_error)

    def _fail_queries(self, error: BoardError) -> None:
        while True:
            try:
                _, item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Query) and not item.future.done():
                item.future.set_exception(error)


class NullBoard:
    """`--board none`: every announcement is accepted and ignored."""

    name = "none"
    state = ConnectionState.CLOSED
    identity = None

    def __getattr__(self, method: str):
        if method in ("legal_play", "illegal_play", "touch_first", "stall", "respit_countdown", "slap_result",
                      "round_end", "game_end", "camera_lost", "camera_back", "set_light", "beep", "all_off", "close"):
            return lambda *args, **kwargs: None
        raise AttributeError(method)

    def flush(self, timeout: float = 0.0) -> bool:
        return True

    def status(self) -> str:
        return "no board (--board none): announcements are not shown"

    def __enter__(self) -> "NullBoard":
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass
