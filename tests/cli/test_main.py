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


@pytest.mark.parametrize(
    "argv",
    [["no-such-command"], ["replay"], ["simulate", "--seed", "x"], ["classify", "--bogus"]],
)
def test_a_bad_command_line_is_one_error_line_and_a_non_zero_exit(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
