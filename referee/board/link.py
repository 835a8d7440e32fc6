"""The protocol session over one transport: handshake, sequence numbers, acks, retries.

Synchronous and single-threaded on purpose: the driver's worker thread owns one
`BoardLink`; `referee board check` uses one directly.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Callable

from referee.board.framing import FrameReader, encode_frame
from referee.board.protocol import (
    EVENT, HELLO, BoardEvent, Command, Frame, Identity, NakReason, identify_payload,
)
from referee.board.transport import Transport
from referee.errors import BoardCommandError, BoardNotRecognisedError


@dataclasses.dataclass(frozen=True, kw_only=True)
class LinkTiming:
    """Timing knobs of the link.

    ack_timeout: how long to wait for an answer before sending the frame again. Lower reacts
      faster to a lost frame but retransmits needlessly on a slow USB adapter; a round trip is
      a few ms on a real Uno, so 0.25 s leaves a wide margin.
    retries: retransmissions before the command (and the session) count as lost.
    handshake_window: how long to keep asking a freshly opened board who it is. A real Uno
      spends about 1.5 s in its bootloader after the port opens (DTR reset), then ~0.7 s in its
      power-up self-test; raising this tolerates slower boards, lowering it reports a wrong
      port sooner.
    identify_interval: pause between identify attempts during the handshake.
    """

    ack_timeout: float = 0.25
    retries: int = 4
    handshake_window: float = 4.0
    identify_interval: float = 0.3


class NakError(BoardCommandError):
    """The board refused a command (NAK)."""

    def __init__(self, command: int, reason: int, port: str) -> None:
        self.command, self.reason = command, reason
        try:
            reason_name = NakReason(reason).name.lower()
        except ValueError:
            reason_name = f"reason {reason}"
        try:
            command_name = Command(command).name
        except ValueError:
            command_name = f"0x{command:02x}"
        super().__init__(f"the board on {port} refused {command_name} ({reason_name})")


class AckTimeoutError(BoardCommandError):
    """No answer after every retry."""


class BoardLink:
    def __init__(self, transport: Transport, *, timing: LinkTiming | None = None,
                 on_event: Callable[[BoardEvent], None] | None = None,
                 on_hello: Callable[[Identity], None] | None = None) -> None:
        self.transport = transport
        self.timing = timing or LinkTiming()
        self.reader = FrameReader()
        self._on_event = on_event
        self._on_hello = on_hello
        self._seq = random.randrange(1, 256)  # a fresh start: never meet the board's cached answers
        self.identity: Identity | None = None
        self.hello_seen = False  # the board (re)booted since this was last cleared
        self.sent = 0
        self.retransmissions = 0
        self.bytes_received = 0
        self.last_round_trip = 0.0

    @property
    def port(self) -> str:
        return self.transport.name

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1  # 1..255; 0 is the board's own
        return self._seq

    def _dispatch(self, frame: Frame) -> None:
        if frame.command == HELLO:
            self.hello_seen = True
            if self._on_hello is not None:
                try:
                    self._on_hello(Identity.parse(frame.payload, port=self.port))
                except BoardNotRecognisedError:
                    pass
        elif frame.command == EVENT and self._on_event is not None:
            try:
                self._on_event(BoardEvent.parse(frame.payload))
            except Exception:  # a malformed event is not worth a crash
                pass

    def pump(self, timeout: float) -> list[Frame]:
        """Reads what arrives within `timeout`, dispatches board-initiated frames, returns the rest."""
        data = self.transport.read(timeout)
        self.bytes_received += len(data)
        answers = []
        for frame in self.reader.feed(data):
            if frame.seq == 0:
                self._dispatch(frame)
            else:
                answers.append(frame)
        return answers

    def request(self, command: int, payload: bytes = b"", *, retries: int | None = None) -> Frame:
        """Sends a command, retransmitting until acknowledged; returns the ack frame.

        A retransmission carries the same sequence number and bytes, so a board that
        executed it but whose ack was lost answers again from its cache without
        executing it twice. Raises NakError when refused, AckTimeoutError after every retry.
        """
        seq = self._next_seq()
        wire = encode_frame(Frame(seq, int(command), payload))
        attempts = 1 + (self.timing.retries if retries is None else retries)
        for attempt in range(attempts):
            if attempt:
                self.retransmissions += 1
            started = time.monotonic()
            self.transport.write(wire)
            self.sent += 1
            deadline = started + self.timing.ack_timeout
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                for frame in self.pump(remaining):
                    if frame.seq != seq:
                        continue  # a late answer to an earlier command: already settled
                    if frame.is_nak and frame.payload[:1] == bytes((int(command),)):
                        raise NakError(int(command), frame.payload[1] if len(frame.payload) > 1 else 0, self.port)
                    if frame.command == (0x80 | int(command)):
                        self.last_round_trip = time.monotonic() - started
                        return frame
        raise AckTimeoutError(
            f"the board on {self.port} did not acknowledge {Command(command).name if command in Command._value2member_map_ else command} "
            f"after {attempts} tries {self.timing.ack_timeout:.2f} s apart; check the cable"
        )

    def handshake(self, window: float | None = None) -> Identity:
        """Asks the board who it is until it answers (it may still be booting after a reset)."""
        window = self.timing.handshake_window if window is None else window
        deadline = time.monotonic() + window
        received_before = self.bytes_received
        frames_before = self.reader.frames_ok
        while True:
            self.hello_seen = False
            try:
                answer = self.request(Command.IDENTIFY, identify_payload(), retries=0)
            except AckTimeoutError:
                if time.monotonic() >= deadline:
                    break
                if not self.hello_seen:
                    self.pump(min(self.timing.identify_interval, max(0.0, deadline - time.monotonic())))
                continue
            identity = Identity.parse(answer.payload, port=self.port)
            identity.check_compatible(self.port)
            self.identity = identity
            self.hello_seen = False
            return identity
        received = self.bytes_received - received_before
        if received and self.reader.frames_ok == frames_before:
            what = f"{received} bytes that are not the board's protocol (another device or baud rate?)"
        elif received:
            what = "frames, but no answer to identify"
        else:
            what = "nothing"
        raise BoardNotRecognisedError(
            f"no answer to the identify handshake from {self.port} within {window:.1f} s (received {what}); "
            f"expected the spit referee board (hardware/firmware): check the port, or flash the firmware"
        )
