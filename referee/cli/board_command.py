"""`referee board`: talk to the LED/buzzer board.

    referee board check --port /dev/ttyACM0   # or --port sim / auto
    referee board list                        # serial ports that look like an Uno/Nano

`check` runs the board's visible and audible self-test and prints every answer;
it exits 0 only if the board answered the handshake and every command.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, TextIO

from referee.errors import BoardCommandError, BoardError, BoardPortError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "board", help="Talk to the LED/buzzer board (self-test).",
        description="Talk to the LED/buzzer board: run its self-test, list candidate ports.",
    )
    actions = parser.add_subparsers(dest="board_action", metavar="ACTION")
    check = actions.add_parser(
        "check", help="Run the board's visible and audible self-test over a serial port.",
        description="Runs the board's self-test and prints what it answered; exits 0 only if it answered "
                    "the handshake and every command.",
    )
    check.add_argument("--port", required=True,
                       help="serial device (/dev/ttyACM0, COM3, a pseudo-terminal), 'sim' for the virtual board, "
                            "or 'auto' to find it by USB id")
    check.add_argument("--handshake-timeout", type=float, default=6.0, metavar="S",
                       help="seconds to wait for the board to answer after opening the port (it reboots on open; "
                            "default 6)")
    check.set_defaults(handler=run_check)
    listing = actions.add_parser("list", help="List serial ports with a known Uno/Nano USB id.")
    listing.set_defaults(handler=run_list)
    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def run(args: argparse.Namespace) -> int:
    return args.handler(args)


def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from referee.board import KNOWN_USB_IDS, find_board_ports

    ports = find_board_ports()
    for port in ports:
        print(port, file=out)
    if not ports:
        known = ", ".join(f"{vid:04x}:{pid:04x} {what}" for vid, pid, what in KNOWN_USB_IDS)
        print(f"no serial port with a known USB id ({known})", file=out)
    return 0


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from referee.board.open import _port_exists, find_board_ports
    from referee.board.servers import PtyBoardServer

    server = None
    port = args.port
    if port == "sim":
        server = PtyBoardServer()
        port = server.port
        print(f"virtual board on {port}", file=out)
    elif port == "auto":
        ports = find_board_ports()
        if not ports:
            raise BoardPortError("no serial port with a known Uno/Nano USB id; plug the board in or give --port PATH")
        port = ports[0]
    elif not _port_exists(port):
        raise BoardPortError(
            f"serial port {port} does not exist; expected a device path such as /dev/ttyACM0 or COM3, or 'sim': "
            f"plug the board in, or see `referee board list`"
        )
    try:
        return check_port(port, out=out, handshake_timeout=args.handshake_timeout)
    finally:
        if server is not None:
            server.close()


def check_port(port: str, *, out: TextIO, handshake_timeout: float = 6.0) -> int:
    from referee.board.link import AckTimeoutError, BoardLink, LinkTiming, NakError
    from referee.board.protocol import (
        BoardStatus, Command, EventKind, Heartbeat, Light, Pattern, beep_payload, countdown_payload,
        set_lights_payload,
    )
    from referee.board.transport import SerialTransport

    events = []
    transport = SerialTransport(port)
    link = BoardLink(transport, timing=LinkTiming(handshake_window=handshake_timeout), on_event=events.append)
    failures: list[str] = []
    try:
        started = time.monotonic()
        identity = link.handshake()
        failed = identity.failed_lights()
        print(f"handshake: referee board on {port}, firmware {identity.firmware_version}, protocol "
              f"{identity.protocol_version}, boot {identity.boot_id}, answered after {time.monotonic() - started:.2f} s",
              file=out)
        print(f"power-up pin check: {'all ' + str(identity.light_count) + ' lights fine' if not failed else 'FAILED ' + ', '.join(failed)}",
              file=out)

        def step(label: str, command: int, payload: bytes = b"", parse: Callable | None = None):
            try:
                answer = link.request(command, payload)
            except (NakError, AckTimeoutError) as error:
                failures.append(label)
                print(f"  FAIL {label}: {error}", file=out)
                return None
            detail = ""
            if parse is not None:
                detail = "  " + parse(answer.payload)
            print(f"  ok   {label} ({link.last_round_trip * 1000:.1f} ms){detail}", file=out)
            return answer

        def wait(seconds: float) -> None:
            """Lets the board show something, keeping the heartbeat going (the board blanks after 2 s of silence)."""
            deadline = time.monotonic() + seconds
            last_frame = time.monotonic()
            while time.monotonic() < deadline:
                link.pump(min(0.1, max(0.0, deadline - time.monotonic())))
                if time.monotonic() - last_frame > 0.5:
                    link.request(Command.PING)
                    last_frame = time.monotonic()

        answer = step("self-test: every light in turn, then all, with a rising scale", Command.SELF_TEST)
        if answer is not None:
            wait(int.from_bytes(answer.payload[:2], "big") / 1000 + 0.1)
        for light in Light:
            step(f"light {light.name} on", Command.SET_LIGHTS, set_lights_payload([(light, Pattern.ON, 250)]))
            wait(0.25)
        step("blink every light fast", Command.SET_LIGHTS,
             set_lights_payload([(light, Pattern.BLINK_FAST, 600) for light in Light]))
        wait(0.6)
        step("buzzer: 440 Hz, 880 Hz", Command.BEEP, beep_payload([(440, 150), (880, 150)]))
        wait(0.35)
        events.clear()
        step("countdown 3, 2, 1, spit (300 ms a count, timed on the board)", Command.COUNTDOWN, countdown_payload(300))
        wait(1.2)
        counts = [e.argument for e in events if e.kind == EventKind.COUNTDOWN]
        if counts == [3, 2, 1, 0]:
            print("  ok   countdown reported 3, 2, 1, spit", file=out)
        else:
            failures.append("countdown events")
            print(f"  FAIL countdown reported {counts}, expected [3, 2, 1, 0]", file=out)
        step("heartbeat", Command.PING, parse=lambda p: f"uptime {Heartbeat.parse(p).uptime_ms} ms, "
                                                         f"{Heartbeat.parse(p).receive_errors} receive errors")
        step("status", Command.GET_STATUS, parse=lambda p: _describe_status(BoardStatus.parse(p)))
        step("all off", Command.ALL_OFF)
    except BoardError:
        raise
    finally:
        transport.close()
    if failures:
        raise BoardCommandError(
            f"the board on {port} did not answer {len(failures)} command(s): {', '.join(failures)}; "
            f"check the cable and the firmware version"
        )
    print(f"board check passed: {link.sent} frames sent, {link.retransmissions} retransmitted", file=out)
    return 0


def _describe_status(status) -> str:
    return (f"{status.frames_received} frames received, {status.commands_executed} executed, "
            f"{status.duplicates} duplicates answered from cache, {status.receive_errors} receive errors")
