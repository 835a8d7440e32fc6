import referee.sim


def test_the_sim_package_states_its_public_api():
    for name in referee.sim.__all__:
        assert getattr(referee.sim, name) is not None
    assert {"simulate_game", "SimConfig", "observations_from_script", "GameScript"} <= set(referee.sim.__all__)
