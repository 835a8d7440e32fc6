"""The still-table model: what stands out, what it takes in, and how it follows the light."""

import numpy as np

from referee.piles.background import FOREGROUND_THRESHOLD, HAND_ABSORB_FACTOR, LIGHT_STEADY, BackgroundModel

SHAPE = (120, 160)
FELT = (40, 110, 50)
CARD = (235, 235, 235)
SKIN = (90, 130, 190)


def table() -> np.ndarray:
    view = np.zeros(SHAPE + (3,), np.uint8)
    view[:] = FELT
    return view


def step(model: BackgroundModel, view: np.ndarray, hands: np.ndarray | None = None) -> np.ndarray:
    """One frame as the tracker takes it: into the model's light, then compared."""
    view = model.steady(view)
    foreground = model.foreground(view)
    model.update(view, foreground, hands)
    return foreground


def test_what_differs_from_the_still_table_stands_out_and_nothing_else():
    model = BackgroundModel(table(), absorb_frames=5)
    view = table()
    view[40:70, 60:80] = CARD
    foreground = step(model, view)
    assert foreground[41:69, 61:79].all()  # its very corners are rounded off with the noise
    assert not foreground[:30].any() and not foreground[80:].any()


def test_a_card_lying_still_is_taken_into_the_table():
    model = BackgroundModel(table(), absorb_frames=5)
    view = table()
    view[40:70, 60:80] = CARD
    seen = [step(model, view)[55, 70] for _ in range(8)]
    assert seen[0] == 1 and seen[-1] == 0  # stood out when it landed, part of the table half a second on


def test_an_arm_resting_while_its_hand_works_stays_out_of_the_table_for_longer():
    # the upper arm lies still on the table's edge; the hand at its end turns a card over (moves)
    model = BackgroundModel(table(), absorb_frames=5)
    seen = []
    for frame in range(5 * HAND_ABSORB_FACTOR + 3):
        view = table()
        view[0:66, 60:80] = SKIN
        hand_row = 60 + frame % 2 * 4      # the hand at its end bobs a little from frame to frame
        view[hand_row:hand_row + 16, 55:85] = SKIN
        arm = (view != table()).any(axis=2).astype(np.uint8)
        seen.append(step(model, view, hands=arm)[30, 70])
    assert all(seen[:5 * HAND_ABSORB_FACTOR - 1])  # still a hand long after a card would have been taken in
    assert seen[-1] == 0                            # but not forever: a sleeve or a shadow lying there goes in


def test_a_hand_wholly_still_is_taken_in_as_usual():
    # the ghost of a hand that was in the first view and has gone, or an arm laid to rest
    with_hand = table()
    with_hand[0:60, 60:80] = SKIN
    model = BackgroundModel(with_hand, absorb_frames=5)
    ghost = np.zeros(SHAPE, np.uint8)
    ghost[0:60, 60:80] = 1
    seen = [step(model, table(), hands=ghost)[30, 70] for _ in range(8)]
    assert seen[0] == 1 and seen[-1] == 0


def lit(view: np.ndarray, gain: float) -> np.ndarray:
    return np.clip(view.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def with_card() -> np.ndarray:
    view = table()
    view[40:70, 60:80] = CARD
    return view


def test_a_change_of_light_everywhere_is_followed_at_once():
    model = BackgroundModel(table(), absorb_frames=5)
    brighter = lit(table(), 1.3)
    assert (np.abs(brighter.astype(int) - table().astype(int)).max() > FOREGROUND_THRESHOLD)
    foreground = step(model, brighter)
    assert not foreground.any()


def test_a_lasting_change_of_light_is_taken_into_the_model_within_a_second():
    model = BackgroundModel(with_card(), absorb_frames=5, period=1 / 30)
    brighter = lit(with_card(), 1.3)
    for _ in range(30):
        seen = model.steady(brighter)
        model.update(seen, model.foreground(seen))
    # the frames as the camera sees them, and the model lit alike (to within what counts as steady light)
    assert np.abs(seen.astype(np.float32) / brighter - 1).max() <= LIGHT_STEADY + 0.01
    assert np.abs(np.clip(model.model, 0, 255) / brighter - 1).max() <= LIGHT_STEADY + 0.01


def test_lamps_flickering_on_the_mains_move_nothing():
    # 100 Hz flicker of +-6 % seen by a 30 fps camera: each frame a little brighter or darker than the last
    model = BackgroundModel(with_card(), absorb_frames=5, period=1 / 30)
    card_rows, card_cols = slice(40, 70), slice(60, 80)
    for frame in range(40):
        flickered = lit(with_card(), 1.0 + 0.06 * np.sin(2 * np.pi * 100 * frame / 30))
        seen = model.steady(flickered)
        moving = model.moving(seen)
        foreground = model.foreground(seen)
        model.update(seen, foreground, moving=moving)
        assert not foreground.any()
        assert moving is None or not moving.any()
        assert np.abs(seen[card_rows, card_cols].astype(int) - CARD[0]).max() <= 4


def test_a_shadow_on_white_paper_is_shaded_and_a_card_over_the_table_is_not():
    still = table()
    still[40:70, 60:80] = CARD                     # a pile's white top card
    model = BackgroundModel(still)
    view = still.copy()
    view[40:55, 60:80] = (150, 150, 150)           # a hand's shadow over the top half of the card
    view[80:110, 10:30] = CARD                     # a card carried in over the felt
    view[80:110, 100:120] = (25, 70, 30)           # the felt in a shadow: darker, but no paper there
    view[56:70, 60:70] = (235, 235, 160)           # paper lit warmer, not darker alike in every channel
    shaded = model.shaded(view)
    assert shaded[40:55, 60:80].all()
    assert not shaded[80:110, 10:30].any()
    assert not shaded[80:110, 100:120].any()
    assert not shaded[56:70, 60:80].any()
