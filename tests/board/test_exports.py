"""The board package's public API, as the pipeline and the CLI use it."""

import referee.board
from referee.board import Board, NullBoard

ANNOUNCEMENTS = ("legal_play", "illegal_play", "touch_first", "stall", "respit_countdown", "slap_result",
                 "round_end", "game_end", "camera_lost", "camera_back", "status", "close")


def test_every_exported_name_exists():
    for name in referee.board.__all__:
        assert hasattr(referee.board, name), name


def test_the_contract_methods_exist_on_both_boards():
    for method in ANNOUNCEMENTS:
        assert callable(getattr(Board, method)), method
        assert callable(getattr(NullBoard(), method)), method
