import referee.rules
import referee.rules.observations as observations


def test_the_rules_package_states_its_public_api():
    assert sorted(referee.rules.__all__) == sorted([
        "Card", "RANKS", "SUITS", "can_play_on", "full_deck", "ranks_adjacent",
        "Event", "EventType", "EventLogWriter", "read_event_log",
        "RulesConfig", "RulesEngine", "EngineState", "GamePhase", "PlayerView", "StockView",
        "observations",
    ])
    for name in referee.rules.__all__:
        assert getattr(referee.rules, name) is not None


def test_every_observation_type_is_exported_and_accepted_by_the_engine():
    names = {cls.__name__ for cls in observations.OBSERVATION_TYPES}
    assert names == {
        "RoundLaidOut", "LayoutSeen", "SpitTurned", "CardLanded", "StockTurnedUp", "StockMoved", "StockSeenEmpty", "StockSeenFaceDown", "StockInDoubt", "StocksSettled", "CardTakenBack",
        "Slap", "SixthStock", "TwoCardsMoved", "TwoHandsUsed", "GameStopped",
    }
    assert names <= set(observations.__all__)
    engine = referee.rules.RulesEngine()
    assert set(engine._handlers) == set(observations.OBSERVATION_TYPES)
