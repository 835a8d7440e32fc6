"""The AVR glue drives the pins of the wiring table: the real firmware under simavr, its ports traced."""

from __future__ import annotations

import statistics
import time

import pytest

from referee.board.link import BoardLink
from referee.board.protocol import Command, Light, Pattern, beep_payload, set_lights_payload
from referee.board.transport import SerialTransport

# hardware/README.md, wiring table: light -> (port, bit)
WIRING = {
    Light.A_LEGAL: ("D", 2), Light.A_ILLEGAL: ("D", 3), Light.B_LEGAL: ("D", 4), Light.B_ILLEGAL: ("D", 5),
    Light.PILE0_A: ("D", 6), Light.PILE0_B: ("D", 7), Light.PILE1_A: ("B", 0), Light.PILE1_B: ("B", 2),
    Light.CENTRE: ("B", 3),
}
BUZZER_BIT = 1  # PB1, D9
LINK_BIT = 5  # PB5, D13
LIGHT_MASK = {"D": 0b1111_1100, "B": 0b0000_1101}


def trace(path) -> list[tuple[int, str, int]]:
    rows = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:
            rows.append((int(parts[0]), parts[1], int(parts[2], 16)))
    return rows


def latest(rows, port: str) -> int:
    return next(value for _, p, value in reversed(rows) if p == port)


@pytest.mark.hardware
def test_each_light_drives_its_pin_and_the_buzzer_sounds_its_note(simavr_board_with_pins):
    board = simavr_board_with_pins
    transport = SerialTransport(board.port)
    try:
        link = BoardLink(transport)
        link.handshake()
        time.sleep(0.8)  # the power-up sweep is over
        assert latest(trace(board.pins), "B") & (1 << LINK_BIT)  # the L LED shows the open session
        for light, (port, bit) in WIRING.items():
            link.request(Command.SET_LIGHTS, set_lights_payload(
                [(other, Pattern.ON if other == light else Pattern.OFF, 0) for other in Light]))
            time.sleep(0.03)
            rows = trace(board.pins)
            shown = {p: latest(rows, p) & LIGHT_MASK[p] for p in "DB"}
            expected = {p: (1 << bit if p == port else 0) for p in "DB"}
            assert shown == expected, light.name
        link.request(Command.ALL_OFF)
        started = len(trace(board.pins))
        link.request(Command.BEEP, beep_payload([(440, 200)]))
        time.sleep(0.4)
        port_b = [(t, v) for t, p, v in trace(board.pins)[started:] if p == "B"]
        toggles = [t for (t, v), (_, before) in zip(port_b[1:], port_b) if (v ^ before) & (1 << BUZZER_BIT)]
        periods = [b - a for a, b in zip(toggles, toggles[1:])]
        assert 150 <= len(toggles) <= 200  # 2 x 440 Hz x 0.2 s = 176 edges
        assert abs(statistics.median(periods) - 1e6 / 880) < 15  # half a 440 Hz period, in microseconds
    finally:
        transport.close()
