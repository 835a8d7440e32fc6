"""The unseen-games benchmark's games: seeds no other benchmark uses, both frame rates and sizes, and
clips cut inside each game after their settling second."""

from benchmarks import one_hand, referee_light, referee_steep, touch_order
from benchmarks.referee_accuracy import MID_GAME_SETTLING, SUITE
from benchmarks.referee_unseen import CLIPS_AT, GAMES


def test_its_seeds_are_used_by_no_other_benchmark():
    seeds = [seed for seed, *_ in GAMES]
    others = {seed for seed, *_ in SUITE + touch_order.GAMES + one_hand.GAMES + referee_light.GAMES + referee_steep.GAMES}
    assert len(seeds) == len(set(seeds)) and not set(seeds) & others


def test_both_frame_rates_and_both_sizes_are_played():
    assert {fps for _, fps, _, _ in GAMES} == {30, 60}
    assert {size for *_, size in GAMES} == {"720p", "1080p"}


def test_each_clip_opens_inside_its_game_with_plays_left_after_its_settling_second():
    for _, _, seconds, _ in GAMES:
        for share in CLIPS_AT:
            start = round(share * seconds, 2)
            assert 0 < start and start + MID_GAME_SETTLING + 2.0 < seconds
