import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import ConfigError
from referee.rules.config import RulesConfig


def test_the_defaults_are_the_readings_of_rules_md():
    config = RulesConfig()
    assert (config.win_rule, config.target_points, config.later_card_judged_against, config.lone_respit) == (
        "standard", 100, "new_top", True,
    )
    assert config.illegal_card == "stays" and config.on_impossible == "raise"


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"win_rule": "fastest"}, "win_rule must be one of standard, scoring"),
        ({"target_points": 0}, "target_points must be a whole number >= 1"),
        ({"touch_too_close_ms": 400.0, "touch_window_ms": 300.0}, "touch_too_close_ms <= touch_window_ms"),
        ({"lone_respit": "yes"}, "lone_respit must be true or false"),
        ({"illegal_card": "burned"}, "illegal_card must be one of stays, returned"),
    ],
)
def test_bad_settings_are_refused_saying_what_is_allowed(settings, message):
    with pytest.raises(ConfigError, match=message):
        RulesConfig(**settings)


def test_settings_are_keyword_only():
    with pytest.raises(TypeError):
        RulesConfig("scoring")  # type: ignore[misc]


@pytest.mark.parametrize(
    "key, hint",
    [("win_rules", "did you mean 'win_rule'"), ("touch_window", "did you mean 'touch_window_ms'"), ("colour", "known keys")],
)
def test_unknown_keys_in_a_settings_file_are_refused_with_a_did_you_mean(key, hint):
    with pytest.raises(ConfigError, match=hint):
        RulesConfig.from_mapping({key: 1})


def test_a_settings_file_section_builds_a_config():
    assert RulesConfig.from_mapping({"win_rule": "scoring", "target_points": 50}).target_points == 50


gaps = st.floats(0.0, 300.0)
errors = st.tuples(st.floats(0.0, 0.05), st.floats(0.0, 0.05))


@given(gap=gaps, more=st.floats(0.0, 100.0), errors=errors, worse=st.floats(0.0, 0.05))
def test_a_wider_gap_or_surer_times_never_make_a_pair_harder_to_call(gap, more, errors, worse):
    config = RulesConfig(touch_too_close_ms=17.0)
    if not config.too_close(gap, errors):
        assert not config.too_close(gap + more, errors)               # further apart: still told apart
        assert not config.too_close(gap, (errors[0] * 0.5, errors[1]))  # one time surer: still told apart
    if config.too_close(gap, errors):
        assert config.too_close(gap, (errors[0] + worse, errors[1]))  # one time less sure: still too close
    assert config.too_close(gap, errors) == config.too_close(gap, errors[::-1])  # whichever came first


def test_without_timing_errors_only_the_camera_s_half_frame_counts():
    config = RulesConfig(touch_too_close_ms=17.0)
    assert config.too_close(16.9) and not config.too_close(17.0)

