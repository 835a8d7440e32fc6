import pytest

from referee.cli.main import COMMANDS, main


def test_help_lists_every_command_of_the_interface(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    for command in ("calibrate", "replay", "live", "classify", "simulate", "board", "demo"):
        assert command in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_prints_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage" in capsys.readouterr().out
