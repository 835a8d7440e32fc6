import pathlib

import pytest

ASSETS = pathlib.Path(__file__).parent / "assets"


@pytest.fixture
def assets() -> pathlib.Path:
    return ASSETS
