"""Per-pixel tests on colour views: the same masks as the plain numpy definitions."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from referee.piles.pixels import differs


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from([0, 10, 16, 30, 16.5, 254]))
def test_differs_marks_where_some_channel_differs_by_more_than_the_level(seed, level):
    rng = np.random.default_rng(seed)
    first = rng.integers(0, 256, (23, 31, 3), np.uint8)
    # every size of difference, both ways round, in one channel or several
    second = np.clip(first.astype(int) + rng.integers(-40, 41, first.shape) * rng.integers(0, 2, first.shape), 0, 255).astype(np.uint8)
    got = differs(first, second, level)
    expected = (np.abs(first.astype(int) - second.astype(int)).max(axis=2) > level).astype(np.uint8)
    assert got.dtype == np.uint8 and got.shape == first.shape[:2]
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("channel", [0, 1, 2])
def test_a_difference_in_one_channel_alone_counts_and_one_at_the_level_does_not(channel):
    first = np.full((2, 2, 3), 100, np.uint8)
    second = first.copy()
    second[0, 0, channel] = 117  # over 16
    second[1, 1, channel] = 116  # at 16
    np.testing.assert_array_equal(differs(first, second, 16), [[1, 0], [0, 0]])
