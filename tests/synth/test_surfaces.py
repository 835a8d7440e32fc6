import numpy as np
import pytest

from referee.synth.surfaces import SURFACE_KINDS, table_surface


@pytest.mark.parametrize("kind", SURFACE_KINDS)
def test_surface_is_textured_and_deterministic(kind):
    first = table_surface(np.random.default_rng(5), 300, 200, kind)
    again = table_surface(np.random.default_rng(5), 300, 200, kind)
    assert first.shape == (200, 300, 3) and first.dtype == np.uint8
    assert np.array_equal(first, again)
    assert first.std() > 0.5  # not a flat colour


def test_unknown_surface():
    with pytest.raises(ValueError, match="unknown surface"):
        table_surface(np.random.default_rng(0), 10, 10, "marble")
