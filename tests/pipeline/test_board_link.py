import os
import pty

import pytest

from referee.board.board import NullBoard
from referee.errors import BoardPortError
from referee.pipeline.board_link import open_board_link


def test_a_port_that_does_not_exist_is_an_error_to_fix_before_the_game():
    with pytest.raises(BoardPortError, match="does not exist"):
        open_board_link("/dev/no-such-referee-board")


def test_a_port_with_no_board_on_it_is_reported_and_the_referee_goes_on_without_it(capsys):
    controller, device = pty.openpty()
    try:
        board = open_board_link(os.ttyname(device))
    finally:
        os.close(controller)
        os.close(device)
    assert isinstance(board, NullBoard)
    assert "goes on without the board" in capsys.readouterr().err
