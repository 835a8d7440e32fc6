"""The driver against a board on a serial port: the Python virtual board on a pseudo-terminal,
the real AVR image under simavr (marked `hardware`), and a real board when SPIT_BOARD_PORT is set.

Each scenario ends by asking the board what it shows and comparing with what the referee meant:
the display must end right whatever happened on the way.
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from referee.board import Light, Pattern, open_board
from referee.board.board import BoardTiming, ConnectionState, NullBoard
from referee.board.link import BoardLink, LinkTiming
from referee.board.protocol import Command, Status, set_lights_payload
from referee.board.transport import SerialTransport
from referee.board.servers import PtyBoardServer
from referee.errors import BoardClosedError, BoardNotRecognisedError, BoardPortError, BoardProtocolError
from tests.board.conftest import wait_until

FAST = BoardTiming(heartbeat_interval=0.3, reconnect_interval=0.2,
                   link=LinkTiming(ack_timeout=0.15, retries=4, handshake_window=4.0))


class RealBoard:
    def __init__(self, port: str) -> None:
        self.port = port

    def reset(self) -> None:
        pytest.skip("a real board cannot be reset from the test")

    unplug = replug = reset


@pytest.fixture(params=["virtual", pytest.param("simavr", marks=pytest.mark.hardware),
                        pytest.param("real", marks=pytest.mark.hardware)])
def backend(request, tmp_path):
    if request.param == "virtual":
        server = PtyBoardServer(link=tmp_path / "virtual-board")
        yield server
        server.close()
    elif request.param == "simavr":
        yield request.getfixturevalue("simavr_board")
    else:
        yield RealBoard(request.getfixturevalue("real_board_port"))


@pytest.fixture
def driver(backend):
    board = open_board(backend.port, timing=FAST)
    yield board
    board.close()


def shows_what_was_meant(board, timeout: float = 8.0) -> bool:
    """The board's own report of its lights equals the referee's model."""
    def same():
        if board.state is not ConnectionState.CONNECTED or not board.flush(2.0):
            return False
        try:
            return board.board_status(2.0).lights == board.expected_display()
        except Exception:
            return False
    return wait_until(same, timeout, interval=0.1)


def paint(board, rng: random.Random, count: int) -> None:
    for _ in range(count):
        board.set_light(Light(rng.randrange(9)), Pattern(rng.randrange(4)))


def test_handshake_then_every_announcement_reaches_the_board(driver):
    assert driver.state is ConnectionState.CONNECTED
    assert "connected, firmware 1.0.0, protocol 1.0" in driver.status()
    driver.legal_play("A", 0)
    driver.illegal_play("B", 1)
    driver.touch_first(1, "A")
    driver.stall()
    driver.slap_result({"A": 1, "B": 0})
    driver.round_end()
    driver.game_end("B")
    driver.set_light(Light.CENTRE, Pattern.BLINK_SLOW)
    assert driver.flush(5.0)
    status = driver.board_status()
    assert status.lights[Light.CENTRE] == Pattern.BLINK_SLOW
    assert status.lights[Light.B_LEGAL] == Pattern.BLINK_SLOW  # the winner's light
    assert shows_what_was_meant(driver)


def test_the_camera_lost_and_back_reach_the_board(driver):
    driver.legal_play("A", 0)
    driver.touch_first(1, "B")
    driver.camera_lost()  # the verdicts cleared, both red lights blinking slowly while the referee is blind
    assert driver.flush(5.0)
    lights = driver.board_status().lights
    assert lights[Light.A_ILLEGAL] == lights[Light.B_ILLEGAL] == Pattern.BLINK_SLOW
    assert all(pattern == Pattern.OFF for light, pattern in enumerate(lights) if light not in (Light.A_ILLEGAL, Light.B_ILLEGAL))
    driver.camera_back()
    assert driver.flush(5.0)
    assert all(pattern == Pattern.OFF for pattern in driver.board_status().lights)
    assert shows_what_was_meant(driver)


def test_countdown_is_timed_by_the_board(driver):
    driver.respit_countdown(300)
    assert wait_until(lambda: [e.argument for e in driver.events if e.kind == 1] == [3, 2, 1, 0], 4.0)
    times = [e.uptime_ms for e in driver.events if e.kind == 1]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(295 <= gap <= 310 for gap in gaps), gaps  # board time: no serial latency in the gaps


def test_heartbeat_keeps_the_session_through_idle_time(driver):
    driver.set_light(Light.A_LEGAL, Pattern.ON)
    time.sleep(2.6)  # longer than the board's 2 s heartbeat timeout
    status = driver.board_status()
    assert status.status & Status.SESSION and not status.status & Status.SAFE
    assert status.lights[Light.A_LEGAL] == Pattern.ON


def test_board_reset_mid_game_gets_the_whole_display_back(driver, backend):
    rng = random.Random(1)
    paint(driver, rng, 30)
    assert shows_what_was_meant(driver)
    resyncs = driver.counters.resyncs
    backend.reset()
    assert wait_until(lambda: driver.counters.resyncs > resyncs, 6.0), driver.status()
    assert shows_what_was_meant(driver)


def test_port_vanishes_and_comes_back(driver, backend):
    rng = random.Random(2)
    paint(driver, rng, 20)
    assert shows_what_was_meant(driver)
    backend.unplug()
    assert driver.wait_for_state(ConnectionState.RECONNECTING, timeout=5.0), driver.status()
    started = time.perf_counter()
    paint(driver, rng, 200)  # the game goes on while the cable is out
    assert time.perf_counter() - started < 0.5  # never blocks the caller
    assert "goes on without the board" in driver.status()
    assert driver.flush(0.5) is False  # nothing can be delivered now, and flush says so
    backend.replug()
    assert driver.wait_for_state(ConnectionState.CONNECTED, timeout=8.0), driver.status()
    assert shows_what_was_meant(driver)
    assert driver.counters.reconnects >= 1


def test_a_flood_of_commands_ends_with_the_right_display(driver):
    rng = random.Random(3)
    started = time.perf_counter()
    for index in range(3000):
        if index % 7 == 0:
            driver.legal_play(rng.choice("AB"), rng.randrange(2))
        elif index % 11 == 0:
            driver.beep([(rng.randrange(200, 2000), 20)])
        else:
            paint(driver, rng, 1)
    assert time.perf_counter() - started < 2.0  # 3000 calls, queued, none waits for the port
    assert driver.flush(20.0)
    assert shows_what_was_meant(driver)


def test_lost_acks_are_retried_and_executed_once(tmp_path):
    with PtyBoardServer(link=tmp_path / "board") as server:
        board = open_board(server.port, timing=FAST)
        try:
            executed = server.board.executed
            server.drop_acks(3)
            board.beep([(440, 50)])
            assert board.flush(5.0)
            assert board.counters.retransmissions >= 3
            assert server.board.executed == executed + 1  # one beep: the retransmissions hit the cache
            assert server.board.duplicates >= 3
            assert shows_what_was_meant(board)
        finally:
            board.close()


def test_noise_on_the_line_is_retried_until_the_display_is_right():
    from referee.board.board import Board
    from referee.board.servers import MemoryBoardServer

    rng = random.Random(5)

    def noise(data: bytes) -> bytes:  # a third of the host's writes get one bit flipped
        if rng.random() < 0.33:
            damaged = bytearray(data)
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            return bytes(damaged)
        return data

    server = MemoryBoardServer(intercept=noise)
    board = Board(server.connect, name="noisy line", timing=FAST)
    try:
        assert board.wait_for_state(ConnectionState.CONNECTED, timeout=10)
        paint(board, random.Random(6), 300)
        for _ in range(40):
            board.beep([(440, 10)])
            paint(board, rng, 3)
            time.sleep(0.005)
        assert board.flush(20)
        assert board.counters.retransmissions > 0
        assert shows_what_was_meant(board, timeout=15)
        assert server.board.reader.errors > 0  # the noise did reach the board
    finally:
        board.close()
        server.close()


@pytest.mark.hardware
def test_firmware_under_simavr_goes_safe_when_the_heartbeat_stops(simavr_board):
    transport = SerialTransport(simavr_board.port)
    try:
        link = BoardLink(transport)
        link.handshake()
        link.request(Command.SET_LIGHTS, set_lights_payload([(Light.A_LEGAL, Pattern.ON, 0)]))
        time.sleep(2.4)
        flags = link.request(Command.PING).payload[0]
        assert flags & Status.SAFE and not flags & Status.SESSION
        link.handshake()
        lights = link.request(Command.GET_STATUS).payload[5:14]
        assert lights == bytes(9)  # blanked: no stale verdict stays lit
    finally:
        transport.close()


@pytest.mark.hardware
def test_firmware_under_simavr_answers_a_duplicate_from_its_cache(simavr_board):
    from referee.board.framing import encode_frame
    from referee.board.protocol import BoardStatus, Frame, beep_payload

    transport = SerialTransport(simavr_board.port)
    try:
        link = BoardLink(transport)
        link.handshake()
        wire = encode_frame(Frame(77, Command.BEEP, beep_payload([(440, 30)])))
        transport.write(wire)
        transport.write(wire)
        answers = []
        wait_until(lambda: answers.extend(f for f in link.pump(0.05) if f.seq == 77) or len(answers) >= 2, 2.0)
        assert len(answers) == 2 and answers[0] == answers[1]
        status = BoardStatus.parse(link.request(Command.GET_STATUS).payload)
        assert status.duplicates == 1
    finally:
        transport.close()


# ---- opening boards, bad input ----

def test_open_none_gives_a_board_that_ignores_everything():
    board = open_board("none")
    assert isinstance(board, NullBoard)
    board.legal_play("A", 0)
    board.close()
    assert "no board" in board.status()


def test_open_sim_runs_the_virtual_board():
    board = open_board("sim", timing=FAST)
    try:
        assert board.state is ConnectionState.CONNECTED
        board.touch_first(0, "B")
        assert shows_what_was_meant(board)
    finally:
        board.close()
    assert board.state is ConnectionState.CLOSED
    with pytest.raises(BoardClosedError, match="closed"):
        board.stall()


def test_a_port_that_does_not_exist_is_one_clear_error(tmp_path):
    with pytest.raises(BoardPortError, match="does not exist"):
        open_board(str(tmp_path / "ttyNOTHING"))


def test_open_board_or_null_goes_on_without_a_missing_board(tmp_path):
    from referee.board import open_board_or_null

    warnings = []
    board = open_board_or_null(str(tmp_path / "ttyGONE"), warn=warnings.append)
    assert isinstance(board, NullBoard)
    assert len(warnings) == 1 and "does not exist" in warnings[0] and "goes on without the board" in warnings[0]


def test_an_incompatible_protocol_is_refused(tmp_path):
    with PtyBoardServer(link=tmp_path / "board", protocol=(2, 0)) as server:
        with pytest.raises(BoardProtocolError, match="speaks protocol 2.0"):
            open_board(server.port, timing=FAST)


def test_a_device_that_is_not_our_board_is_refused(tmp_path):
    master, slave = os.openpty()
    stop = threading.Event()

    def chatter():  # a device that prints text lines, as a GPS or another sketch would
        while not stop.is_set():
            try:
                os.write(master, b"$GPGGA,123519,4807.038,N\r\n")
            except OSError:
                return
            time.sleep(0.05)

    thread = threading.Thread(target=chatter, daemon=True)
    thread.start()
    try:
        with pytest.raises(BoardNotRecognisedError, match="not the board's protocol"):
            open_board(os.ttyname(slave), wait=2.5, timing=BoardTiming(link=LinkTiming(handshake_window=1.0)))
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)


def test_auto_finds_the_board_by_usb_id(monkeypatch, tmp_path):
    from serial.tools import list_ports_common

    with PtyBoardServer(link=tmp_path / "board") as server:
        arduino = list_ports_common.ListPortInfo(server.port, skip_link_detection=True)
        arduino.vid, arduino.pid = 0x2341, 0x0043
        other = list_ports_common.ListPortInfo("/dev/ttyS0", skip_link_detection=True)
        monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [other, arduino])
        board = open_board("auto", timing=FAST)
        try:
            assert board.name == server.port and board.state is ConnectionState.CONNECTED
        finally:
            board.close()
        monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [other])
        with pytest.raises(BoardPortError, match="no board found"):
            open_board("auto")


@pytest.mark.parametrize("call, message", [
    (lambda b: b.legal_play("C", 0), "player 'A' or 'B'"),
    (lambda b: b.touch_first(3, "A"), "spit pile 0 or 1"),
    (lambda b: b.respit_countdown(50), "countdown step"),
])
def test_misuse_is_a_clear_error_at_the_call(call, message):
    board = open_board("sim", timing=FAST)
    try:
        with pytest.raises(ValueError, match=message):
            call(board)
    finally:
        board.close()


def test_sim_falls_back_to_memory_without_pseudo_terminals(monkeypatch):
    def no_pty(*args, **kwargs):
        raise OSError("no pseudo-terminals here")

    monkeypatch.setattr("referee.board.servers.PtyBoardServer", no_pty)
    board = open_board("sim", timing=FAST)
    try:
        assert board.name == "sim (in memory)" and board.state is ConnectionState.CONNECTED
        board.illegal_play("A", 1)
        assert shows_what_was_meant(board)
    finally:
        board.close()
