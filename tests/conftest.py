import pathlib

import pytest

ASSETS = pathlib.Path(__file__).parent / "assets"


@pytest.fixture
def assets() -> pathlib.Path:
    return ASSETS


def pytest_addoption(parser):
    # Here, not in tests/board/, so that `pytest --board-port PATH` works from the repository root.
    parser.addoption("--board-port", default=None, help="serial port of a real referee board to test against")
