"""Fixtures for the board tests: the host build of the firmware core, the AVR image under
simavr, the Python virtual board on a pseudo-terminal, and a real board when one is given.

A real board: `SPIT_BOARD_PORT=/dev/ttyACM0 pytest tests/board` (or `--board-port PATH` when
pytest is started on tests/board). Those tests drive the board's lights and buzzer.
"""

from __future__ import annotations

import ctypes
import os
import pathlib
import shutil
import signal
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory) -> pathlib.Path:
    """A build folder of this test session's own, so parallel runs never share half-written files."""
    return tmp_path_factory.mktemp("firmware-build")


def _make(target: str, build: pathlib.Path) -> subprocess.CompletedProcess:
    if shutil.which("make") is None:
        pytest.skip("`make` is not installed")
    return subprocess.run(["make", "-s", "-C", str(FIRMWARE), target, f"BUILD={build}"], capture_output=True, text=True)


@pytest.fixture(scope="session")
def core_library(firmware_build) -> ctypes.CDLL:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no host C compiler (cc/gcc) to build the firmware core")
    result = _make("host", firmware_build)
    assert result.returncode == 0, f"make host failed:\n{result.stdout}\n{result.stderr}"
    return ctypes.CDLL(str(firmware_build / "host" / "libboardcore.so"))


def _simavr_missing() -> str | None:
    if shutil.which("avr-gcc") is None:
        return "avr-gcc is not installed (apt-get install gcc-avr avr-libc)"
    if not pathlib.Path("/usr/include/simavr/sim_avr.h").exists() and not pathlib.Path("/usr/local/include/simavr/sim_avr.h").exists():
        return "simavr headers are not installed (apt-get install simavr libsimavr-dev libelf-dev pkg-config)"
    return None


@pytest.fixture(scope="session")
def simavr_build(firmware_build) -> tuple[pathlib.Path, pathlib.Path]:
    """(runner, firmware ELF), built with make; skips when the AVR toolchain or simavr is missing."""
    reason = _simavr_missing()
    if reason:
        pytest.skip(reason)
    for target in ("firmware", "sim"):
        result = _make(target, firmware_build)
        assert result.returncode == 0, f"make {target} failed:\n{result.stdout}\n{result.stderr}"
    return firmware_build / "sim" / "spit-board-sim", firmware_build / "spit_board.elf"


class SimavrBoard:
    """The real AVR image under simavr, on a pseudo-terminal reached through a stable symlink."""

    def __init__(self, runner: pathlib.Path, elf: pathlib.Path, link: pathlib.Path,
                 pins: pathlib.Path | None = None) -> None:
        self.runner, self.elf, self.port, self.pins = runner, elf, str(link), pins
        self.process: subprocess.Popen | None = None
        self.replug()

    def replug(self) -> None:
        assert self.process is None
        extra = ["--pins", str(self.pins)] if self.pins else []
        self.process = subprocess.Popen([str(self.runner), str(self.elf), "--link", self.port, *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("pty: "):
            self.process.kill()
            self.process.wait()
            self.process = None
            raise AssertionError(f"simavr runner said {line!r}, expected 'pty: PATH'")

    def reset(self) -> None:
        self.process.send_signal(signal.SIGUSR1)

    def unplug(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=5)
        self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.unplug()


@pytest.fixture
def simavr_board(simavr_build, tmp_path):
    runner, elf = simavr_build
    board = SimavrBoard(runner, elf, tmp_path / "spit-board")
    yield board
    board.close()


@pytest.fixture
def simavr_board_with_pins(simavr_build, tmp_path):
    """The AVR image under simavr, logging every change of its ports B and D to `board.pins`."""
    runner, elf = simavr_build
    board = SimavrBoard(runner, elf, tmp_path / "spit-board", pins=tmp_path / "pins.log")
    yield board
    board.close()


@pytest.fixture
def pty_board(tmp_path):
    from referee.board.servers import PtyBoardServer

    server = PtyBoardServer(link=tmp_path / "virtual-board")
    yield server
    server.close()


@pytest.fixture
def real_board_port(request) -> str:
    port = request.config.getoption("--board-port", default=None) or os.environ.get("SPIT_BOARD_PORT")
    if not port:
        pytest.skip("no real board: set SPIT_BOARD_PORT=/dev/ttyACM0 (or --board-port) to test one")
    return port


def wait_until(predicate, timeout: float, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


@pytest.fixture(scope="session")
def c_parser_factory(firmware_build):
    """Makes fresh firmware frame parsers (host build); None when no C compiler is available,
    so the Python side of the fuzzing still runs."""
    if shutil.which("cc") is None and shutil.which("gcc") is None or shutil.which("make") is None:
        return None
    result = _make("host", firmware_build)
    assert result.returncode == 0, f"make host failed:\n{result.stdout}\n{result.stderr}"
    from tests.board.core_ctypes import CParser

    library = ctypes.CDLL(str(firmware_build / "host" / "libboardcore.so"))
    return lambda: CParser(library)
