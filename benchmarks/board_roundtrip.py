"""Board command round trip and driver behaviour, over a pseudo-terminal.

    .venv/bin/python -m benchmarks.board_roundtrip [--count 300] [--json OUT.json]

Backends: the Python virtual board on a pty (what `--board sim` uses), and the real AVR image
running under simavr at real-time speed on a pty (built with `make -C hardware/firmware firmware sim`;
skipped if missing). For each: the command round trip (frame out, ack back) of PING, a one-light
SET_LIGHTS and a full nine-light SET_LIGHTS (median / 95th percentile / max); how long an
announcement call takes the caller (the driver queues it); how long a flood of 2000 announcements
takes to reach the board; and how long the driver needs to have the display back after a board
reset and after the port vanished and came back.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from referee.board import Light, Pattern, open_board  # noqa: E402
from referee.board.board import BoardTiming, ConnectionState  # noqa: E402
from referee.board.link import BoardLink, LinkTiming  # noqa: E402
from referee.board.protocol import Command, set_lights_payload  # noqa: E402
from referee.board.transport import SerialTransport  # noqa: E402
from referee.board.servers import PtyBoardServer  # noqa: E402

FIRMWARE = pathlib.Path(__file__).resolve().parents[1] / "hardware" / "firmware" / "build"


class Simavr:
    def __init__(self, link: pathlib.Path) -> None:
        self.link, self.port, self.process = link, str(link), None
        self.replug()

    def replug(self) -> None:
        self.process = subprocess.Popen([str(FIRMWARE / "sim" / "spit-board-sim"), str(FIRMWARE / "spit_board.elf"),
                                         "--link", self.port], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if not self.process.stdout.readline().startswith("pty: "):
            self.process.kill()
            raise SystemExit("spit-board-sim did not start; rebuild with `make -C hardware/firmware firmware sim`")

    def reset(self) -> None:
        self.process.send_signal(signal.SIGUSR1)

    def unplug(self) -> None:
        self.process.terminate()
        self.process.wait()

    def close(self) -> None:
        if self.process.poll() is None:
            self.unplug()


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2)}


def round_trips(port: str, count: int) -> dict:
    transport = SerialTransport(port)
    try:
        link = BoardLink(transport, timing=LinkTiming(ack_timeout=0.5))
        link.handshake()
        results = {}
        commands = {
            "PING": (Command.PING, b""),
            "SET_LIGHTS x1": (Command.SET_LIGHTS, set_lights_payload([(Light.CENTRE, Pattern.ON, 0)])),
            "SET_LIGHTS x9": (Command.SET_LIGHTS, set_lights_payload([(l, Pattern.BLINK_SLOW, 0) for l in Light])),
        }
        for name, (command, payload) in commands.items():
            samples = []
            for _ in range(count):
                started = time.perf_counter()
                link.request(command, payload)
                samples.append(time.perf_counter() - started)
            results[name] = percentiles(samples)
        results["retransmissions"] = link.retransmissions
        return results
    finally:
        transport.close()


def driver_figures(backend) -> dict:
    timing = BoardTiming(heartbeat_interval=0.3, reconnect_interval=0.1,
                         link=LinkTiming(ack_timeout=0.15, handshake_window=4.0))
    board = open_board(backend.port, timing=timing)
    figures = {}
    try:
        rng = random.Random(0)
        calls = []
        flood_started = time.perf_counter()
        for _ in range(2000):
            started = time.perf_counter()
            board.set_light(Light(rng.randrange(9)), Pattern(rng.randrange(4)))
            calls.append(time.perf_counter() - started)
        assert board.flush(30)
        figures["flood_2000_delivered_s"] = round(time.perf_counter() - flood_started, 3)
        figures["commands_sent_for_flood"] = board.counters.commands
        figures["announcement_call_us"] = {"median": round(statistics.median(calls) * 1e6, 1),
                                           "max": round(max(calls) * 1e6, 1)}
        figures["flood_display_right"] = board.board_status().lights == board.expected_display()

        resyncs = board.counters.resyncs
        started = time.perf_counter()
        backend.reset()
        while board.counters.resyncs == resyncs and time.perf_counter() - started < 10:
            time.sleep(0.005)
        figures["display_back_after_reset_s"] = round(time.perf_counter() - started, 3)

        backend.unplug()
        board.wait_for_state(ConnectionState.RECONNECTING, timeout=5)
        started = time.perf_counter()
        backend.replug()
        board.wait_for_state(ConnectionState.CONNECTED, timeout=10)
        figures["display_back_after_replug_s"] = round(time.perf_counter() - started, 3)
        figures["display_right_at_end"] = board.board_status().lights == board.expected_display()
    finally:
        board.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="round trips per command (default 300)")
    parser.add_argument("--json", type=pathlib.Path, help="also write the figures here")
    args = parser.parse_args(argv)
    report = {}
    with tempfile.TemporaryDirectory() as folder:
        backends = {"virtual (pty)": lambda: PtyBoardServer(link=pathlib.Path(folder) / "virtual")}
        if (FIRMWARE / "sim" / "spit-board-sim").exists() and (FIRMWARE / "spit_board.elf").exists():
            backends["AVR under simavr (pty)"] = lambda: Simavr(pathlib.Path(folder) / "simavr")
        else:
            print("simavr backend skipped: run `make -C hardware/firmware firmware sim` first")
        for name, make in backends.items():
            backend = make()
            try:
                report[name] = {"round_trip": round_trips(backend.port, args.count), "driver": driver_figures(backend)}
            finally:
                backend.close()
    for name, figures in report.items():
        print(f"\n{name}")
        for command, numbers in figures["round_trip"].items():
            print(f"  round trip {command:14s} {numbers}")
        for key, value in figures["driver"].items():
            print(f"  {key:28s} {value}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
