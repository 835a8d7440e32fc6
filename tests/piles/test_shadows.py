"""Broad soft shadows: found where a person's shadow lies, taken out of the view, and nothing else taken."""

import numpy as np

from referee.piles.background import GHOST_BARE_SECONDS, BackgroundModel
from referee.piles.shadows import LIGHT_CHANGE, in_its_light, shade_of, shadow_gone

SHAPE = (300, 400)  # the tracking view of a 800 x 600 mm play area at 0.5 px/mm
SKIN = (90, 130, 190)
CARD = (235, 235, 235)
GHOST_FRAMES = max(2, round(GHOST_BARE_SECONDS * 30))


def wooden_table(seed: int = 0) -> np.ndarray:
    """A mottled table with a few cards on it."""
    rng = np.random.default_rng(seed)
    grain = rng.normal(0, 6, (SHAPE[0] // 4, SHAPE[1] // 4, 1))
    grain = np.repeat(np.repeat(grain, 4, axis=0), 4, axis=1)
    view = np.clip(np.array([70, 120, 170], np.float32) + grain, 0, 255).astype(np.uint8)
    for row, col in ((40, 60), (40, 300), (200, 120), (200, 260)):
        view[row:row + 44, col:col + 31] = CARD
    return view


def band_light(centre: float, darkest: float = 0.3, half_width: float = 80.0) -> np.ndarray:
    """A person's soft shadow: a band down the table, `darkest` at its middle column, fading out linearly."""
    columns = np.arange(SHAPE[1], dtype=np.float32)
    light = 1.0 - darkest * np.clip(1.0 - np.abs(columns - centre) / half_width, 0.0, 1.0)
    return np.repeat(light[None, :], SHAPE[0], axis=0)


def lit(view: np.ndarray, light: np.ndarray) -> np.ndarray:
    return np.clip(view.astype(np.float32) * light[..., None] + 0.5, 0, 255).astype(np.uint8)


def test_a_table_as_it_was_has_no_shadow():
    table = wooden_table()
    assert shade_of(table, table) is None


def test_a_soft_shadow_is_found_and_taken_out_of_the_view():
    table = wooden_table()
    light = band_light(200.0)
    shadowed = lit(table, light)
    shade = shade_of(shadowed, table)
    assert shade is not None
    core = (slice(8, 288), slice(170, 230))
    assert np.abs(shade[core] - light[core]).max() < 0.05
    corrected = in_its_light(shadowed, shade)
    before = np.abs(shadowed.astype(int) - table).max(axis=2)
    after = np.abs(corrected.astype(int) - table).max(axis=2)
    assert (before[core] > 16).mean() > 0.9      # it stood out as foreground
    assert (after[core] > 16).mean() < 0.01      # it does no more
    assert (shade[:, :100] == 1.0).all()         # far from it the view is left as it is


def test_a_hand_in_the_shadow_still_stands_out():
    table = wooden_table()
    shadowed = lit(table, band_light(200.0))
    shadowed[120:180, 185:225] = SKIN  # a hand (skin: not the same share darker in every channel)
    shade = shade_of(shadowed, table)
    assert shade is not None
    corrected = in_its_light(shadowed, shade)
    assert (np.abs(corrected[125:175, 190:220].astype(int) - table[125:175, 190:220]).max(axis=2) > 16).all()


def test_a_sharp_edged_grey_thing_is_no_shadow():
    # a grey sleeve lying across the table darkens it by the same share in every channel, evenly, over
    # a large area, but it ends in one cell where a shadow fades out
    table = wooden_table()
    sleeve = np.ones(SHAPE, np.float32)
    sleeve[:, 160:240] = 0.6
    assert shade_of(lit(table, sleeve), table) is None


def test_a_table_lighter_than_the_model_is_left_for_the_model_to_take_in():
    # a shadow the model started in (a clip that opened in it) has gone: no light is divided out, for good
    table = wooden_table()
    assert shade_of(table, lit(table, band_light(200.0))) is None


def test_where_a_shadow_the_model_holds_has_gone_is_told():
    table = wooden_table()
    gone = shadow_gone(table, lit(table, band_light(200.0)))
    assert gone is not None and gone[8:288, 170:230].all() and not gone[:, :100].any()
    assert shadow_gone(table, table) is None


def test_the_table_lit_again_after_a_shadow_the_model_started_in_is_taken_in_at_once():
    # a clip that opened in a person's shadow, which then went: the table it left does not stand out for
    # the half second the model takes to take in anything still
    table = wooden_table()
    model = BackgroundModel(lit(table, band_light(200.0)), absorb_frames=15, period=1 / 30)
    for _ in range(3):
        view = model.steady(table.copy())
        foreground = model.foreground(view)
        model.update(view, foreground)
    assert model.foreground(model.steady(table.copy())).mean() < 0.01


def test_a_slight_change_of_light_is_left_to_the_frames_gain():
    table = wooden_table()
    light = band_light(200.0, darkest=LIGHT_CHANGE * 0.6)
    assert shade_of(lit(table, light), table) is None


def test_the_table_model_does_not_learn_a_passing_shadow():
    # the shadow sweeps across the table for two seconds at 30 fps, then the table is as it was
    table = wooden_table()
    model = BackgroundModel(table, absorb_frames=15, period=1 / 30)
    standing_out = []
    for frame in range(60):
        view = model.steady(lit(table, band_light(-100.0 + frame * 10.0)))
        foreground = model.foreground(view)
        model.update(view, foreground)
        standing_out.append(foreground.mean())
    view = model.steady(table.copy())
    assert model.foreground(view).mean() < 0.01  # the table it passed over does not stand out when it has gone
    assert max(standing_out[10:]) < 0.05          # nor while it passed (its fringe only)


def _bare_wood(pixels: np.ndarray) -> np.ndarray:
    """The wooden table's colour, in any light (its channels' shares), per pixel; neither card nor hand."""
    pixels = pixels.astype(np.float32) + 1.0
    shares = pixels / pixels.sum(axis=-1, keepdims=True)
    wood = np.array([71, 121, 171], np.float32) / 363.0
    return (np.abs(shares - wood).max(axis=-1) < 0.03) & (pixels.max(axis=-1) < 215)


HAND = (60, 90, 200)  # a hand told from the wood by its colour


def _after_a_hand_in_a_shadow_that_left(table: np.ndarray, model: BackgroundModel, hand_frames: int, after: int) -> list[float]:
    """A player's arm and hand lie in the shadow as it leaves (`hand_frames` frames), then go; the share of
    the view standing out on each of the `after` frames since."""
    arm = np.zeros(SHAPE, np.uint8)
    arm[0:150, 185:230] = 1
    for _ in range(hand_frames):
        view = table.copy()
        view[arm > 0] = HAND
        view = model.steady(view)
        foreground = model.foreground(view)
        model.update(view, foreground, foreground, looks_bare=_bare_wood)
    standing_out = []
    for _ in range(after):
        view = model.steady(table.copy())
        foreground = model.foreground(view)
        model.update(view, foreground, foreground, looks_bare=_bare_wood)
        standing_out.append(float(foreground.mean()))
    return standing_out


def test_where_a_hand_lay_as_a_shadow_left_the_table_lit_again_goes_in_once_still():
    # a clip opened in a leaning player's shadow; as it left, a hand lay in it, and the cells the hand's edge
    # crossed kept the shadow in the model (not lit alike): when the hand goes, they stand out round where
    # it lay, joined to the table's edge as an arm would be, until taken in (seed 305's clips lost a play so)
    table = wooden_table()
    model = BackgroundModel(lit(table, band_light(200.0)), absorb_frames=15, period=1 / 30)
    standing_out = _after_a_hand_in_a_shadow_that_left(table, model, hand_frames=10, after=8)
    assert standing_out[0] > 0.002                                  # the ghost of the shadow round the hand
    assert standing_out[GHOST_FRAMES + 1] < 0.0005                   # gone within GHOST_BARE_SECONDS, still


def test_table_lighter_than_the_model_with_no_broad_shadow_leaving_waits_as_anything_still():
    # a patch the model holds darker (a resting hand's own shadow, taken in) and no broad shadow seen
    # leaving: it goes in after the half second anything still waits, not sooner
    table = wooden_table()
    darker = table.copy()
    darker[100:160, 180:230] = lit(table, np.full(SHAPE, 0.75, np.float32))[100:160, 180:230]
    model = BackgroundModel(darker, absorb_frames=15, period=1 / 30)
    standing_out = _after_a_hand_in_a_shadow_that_left(table, model, hand_frames=0, after=18)
    assert min(standing_out[:14]) > 0.01 and standing_out[-1] < 0.0005
