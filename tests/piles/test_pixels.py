"""Per-pixel tests and changes on colour views: the same masks and bytes as the plain definitions."""

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from referee.piles.pixels import differs, scaled


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


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.sampled_from([1, 7, 45, 300]), cols=st.sampled_from([1, 13, 64, 400]),
       scale=st.tuples(*[st.floats(0.2, 3.0)] * 3))
def test_scaling_a_view_gives_the_bytes_opencv_multiply_gives(seed, rows, cols, scale):
    """Through a table per channel, at every size from a single pixel to the tracking view: the same bytes,
    rounding and saturation included."""
    view = np.random.default_rng(seed).integers(0, 256, (rows, cols, 3), np.uint8)
    np.testing.assert_array_equal(scaled(view, scale), cv2.multiply(view, (*scale, 0.0)))


def test_scaling_rounds_to_the_nearest_level_and_saturates():
    view = np.array([[[10, 200, 255]]] * 3000, np.uint8).reshape(50, 60, 3)
    got = scaled(view, (1.05, 1.5, 0.5))
    assert got.shape == view.shape and got.dtype == np.uint8
    np.testing.assert_array_equal(got[0, 0], [10, 255, 128])  # 10.5 rounds to even, 300 saturates, 127.5 to even
