"""`referee board check` in-process: against the virtual board, the AVR image under simavr, and bad ports."""

from __future__ import annotations

import os

import pytest

from referee.board.servers import PtyBoardServer
from referee.cli.main import main
from tests.board.conftest import firmware_build, real_board_port, simavr_board, simavr_build  # noqa: F401  (fixtures)


def test_check_against_the_virtual_board_passes(capsys):
    assert main(["board", "check", "--port", "sim"]) == 0
    out = capsys.readouterr().out
    assert "handshake: referee board" in out and "firmware 1.0.0, protocol 1.0" in out
    assert "ok   countdown reported 3, 2, 1, spit" in out
    assert "FAIL" not in out and "board check passed" in out
    assert out.count("  ok   light ") == 9


@pytest.mark.hardware
def test_check_against_the_firmware_under_simavr_passes(simavr_board, capsys):
    assert main(["board", "check", "--port", simavr_board.port]) == 0
    out = capsys.readouterr().out
    assert "board check passed" in out and "power-up pin check: all 9 lights fine" in out


@pytest.mark.hardware
def test_check_against_a_real_board_passes(real_board_port, capsys):
    assert main(["board", "check", "--port", real_board_port]) == 0
    assert "board check passed" in capsys.readouterr().out


def test_check_on_a_missing_port_is_a_one_line_error(tmp_path, capsys):
    assert main(["board", "check", "--port", str(tmp_path / "ttyUSB9")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: serial port") and "does not exist" in err and err.count("\n") == 1


def test_check_on_a_silent_port_is_a_one_line_error(capsys):
    master, slave = os.openpty()
    try:
        assert main(["board", "check", "--port", os.ttyname(slave), "--handshake-timeout", "1"]) == 1
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert err.startswith("error: no answer to the identify handshake") and err.count("\n") == 1


def test_check_on_an_incompatible_board_is_a_one_line_error(tmp_path, capsys):
    with PtyBoardServer(link=tmp_path / "board", protocol=(3, 1)) as server:
        assert main(["board", "check", "--port", server.port]) == 1
    err = capsys.readouterr().err
    assert "speaks protocol 3.1" in err and "reflash" in err and err.count("\n") == 1


def test_board_without_an_action_prints_usage(capsys):
    assert main(["board"]) == 2
    assert "check" in capsys.readouterr().out


def test_board_list_runs(capsys):
    assert main(["board", "list"]) == 0
    assert capsys.readouterr().out.strip()
