"""The all-conditions benchmark's games: every hard condition in each game, on seeds of their own."""

import pytest

from benchmarks import all_at_once, clip_openings, one_hand, racing_unseen_decks, referee_light, referee_steep, referee_unseen, touch_order
from benchmarks.referee_accuracy import SUITE
from models.train import FACE_HELD_OUT_DESIGNS
from referee.table.layout import TableLayout


@pytest.mark.parametrize("seed, fps, seconds, design, light", all_at_once.GAMES)
def test_each_game_is_dealt_in_an_unseen_deck_under_a_change_of_light_through_a_slanted_camera_that_sees_it_all(
        seed, fps, seconds, design, light):
    assert design in FACE_HELD_OUT_DESIGNS and light in referee_light.LIGHTS and light != "steady"
    pose = all_at_once.camera_pose(seed)
    assert 20 <= pose["tilt"] <= 35
    camera = all_at_once.make_game_camera(seed)
    assert all(0 <= x < camera.width and 0 <= y < camera.height for x, y in camera.corners_px(TableLayout()))
    assert seconds >= 2 * clip_openings.CLIP_SECONDS - 1


def test_the_games_cover_both_frame_rates_and_both_unseen_decks_on_seeds_no_other_benchmark_uses():
    seeds = [seed for seed, *_ in all_at_once.GAMES]
    assert len(set(seeds)) == len(seeds)
    others = ([seed for seed, *_ in touch_order.GAMES] + [seed for seed, *_ in racing_unseen_decks.GAMES]
              + [seed for seed, *_ in referee_steep.GAMES] + [seed for seed, *_ in referee_unseen.GAMES]
              + [seed for seed, *_ in one_hand.GAMES] + [seed for seed, *_ in SUITE] + [seed for seed, *_ in referee_light.GAMES])
    assert not set(seeds) & set(others)
    assert {fps for _, fps, *_ in all_at_once.GAMES} == {30, 60}
    assert {design for *_, design, _ in all_at_once.GAMES} == set(FACE_HELD_OUT_DESIGNS)


@pytest.mark.parametrize("seeds", [[311, 312, 313, 314, 315, 316], [7, 100, 3, 58, 21, 9]])
def test_fresh_games_deal_both_unseen_decks_both_frame_rates_and_every_change_of_light_as_the_benchmark_does(seeds):
    games = all_at_once.fresh_games(seeds)
    assert [seed for seed, *_ in games] == seeds
    assert {design for *_, design, _ in games} == set(all_at_once.FRESH_DESIGNS) <= set(FACE_HELD_OUT_DESIGNS)
    assert {(fps, seconds) for _, fps, seconds, *_ in games} == {(30, 24.0), (60, 16.0)}
    assert {light for *_, light in games} == set(all_at_once.FRESH_LIGHTS)  # six games see all six
    assert set(all_at_once.FRESH_LIGHTS) <= set(referee_light.LIGHTS) - {"steady"}
    assert all_at_once.fresh_games([]) == []


def test_clips_open_a_little_before_a_play_after_the_first_seconds(tmp_path):
    truth = tmp_path / "truth.jsonl"
    truth.write_text("\n".join('{"type": "play", "t": %.2f}' % t for t in (1.0, 4.0, 6.5, 9.0, 20.0)) + "\n")
    starts = clip_openings.cut_points(truth, 171, 24.0, all_at_once.CLIPS)
    assert len(starts) == all_at_once.CLIPS and starts == sorted(starts)
    assert all(any(0.12 <= t - start <= 0.6 for t in (4.0, 6.5, 9.0)) for start in starts)


def test_after_touch_the_clips_open_just_after_the_same_plays_touched(tmp_path):
    truth = tmp_path / "truth.jsonl"
    truth.write_text("\n".join('{"type": "play", "t": %.2f}' % t for t in (1.0, 4.0, 6.5, 9.0, 20.0)) + "\n")
    before = clip_openings.cut_points(truth, 171, 24.0, all_at_once.CLIPS)
    after = clip_openings.cut_points(truth, 171, 24.0, all_at_once.CLIPS, after_touch=all_at_once.AFTER_TOUCH)
    plays = [min((4.0, 6.5, 9.0), key=lambda t: abs(t - start - 0.36)) for start in before]
    assert after == [round(t + all_at_once.AFTER_TOUCH, 2) for t in plays]
