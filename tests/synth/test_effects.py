import numpy as np
import pytest

from referee.synth.effects import apply_look, make_look, motion_blur


def test_look_is_deterministic_and_keeps_the_picture():
    image = np.full((90, 160, 3), 128, np.uint8)
    image[30:60, 50:110] = 230
    first = apply_look(image, make_look(np.random.default_rng(4), 160, 90), 1.0, 7)
    again = apply_look(image, make_look(np.random.default_rng(4), 160, 90), 1.0, 7)
    assert np.array_equal(first, again)
    assert first[45, 80].mean() > first[10, 10].mean() + 40  # the bright patch is still brighter
    assert not np.array_equal(first, apply_look(image, make_look(np.random.default_rng(4), 160, 90), 1.0, 8))  # noise moves


@pytest.mark.parametrize("velocity, smeared", [((0.5, 0.0), False), ((12.0, 0.0), True), ((0.0, -9.0), True)])
def test_motion_blur_smears_only_fast_patches(velocity, smeared):
    colour = np.zeros((40, 40, 3), np.float32)
    colour[:] = (200, 100, 50)
    alpha = np.zeros((40, 40), np.float32)
    alpha[15:25, 15:25] = 1.0
    _, blurred = motion_blur(colour, alpha, velocity)
    assert (np.count_nonzero(blurred > 0.01) > np.count_nonzero(alpha)) == smeared
    assert abs(blurred.sum() - alpha.sum()) < 0.02 * alpha.sum()  # coverage is spread, not lost
