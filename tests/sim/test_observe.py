"""What a perfect camera reports of a simulated game."""

from collections import Counter

from referee.rules.observations import CardLanded, CardTakenBack, GameStopped, RoundLaidOut, TwoHandsUsed
from referee.sim.config import SimConfig
from referee.sim.game import simulate_game
from referee.sim.observe import observations_from_script
from referee.sim.script import ActionKind


def test_observations_are_in_order_of_t_and_start_each_round_with_its_layout():
    script = simulate_game(4, config=SimConfig(two_hands_rate=0.05, illegal_play_rate=0.1, take_back_rate=1.0))
    observations = observations_from_script(script)
    times = [o.t for o in observations]
    assert times == sorted(times)
    layouts = [o for o in observations if isinstance(o, RoundLaidOut)]
    assert [o.t for o in layouts] == [r.t_start for r in script.rounds]
    first = script.rounds[0].layout.stocks
    assert [str(c) for c in layouts[0].stock_tops["A"]] == [str(slot[-1]) if slot else "None" for slot in first["A"]]
    assert layouts[0].stock_counts is None  # face-down cards cannot be counted by a camera


def test_every_card_that_lands_is_reported_with_its_player_pile_and_stock_at_the_touch():
    script = simulate_game(4, config=SimConfig(two_hands_rate=0.05, illegal_play_rate=0.1, take_back_rate=1.0))
    observations = observations_from_script(script)
    landed = [o for o in observations if isinstance(o, CardLanded)]
    plays = [a for a in script.actions() if a.kind is ActionKind.PLAY]
    assert [(o.t, o.player, o.pile, o.card, o.stock) for o in landed] == [
        (a.t_touch, a.player, a.target.index, a.card, a.source.index) for a in sorted(plays, key=lambda a: a.t_touch)
    ]
    counts = Counter(type(o).__name__ for o in observations)
    assert counts["TwoHandsUsed"] == sum(1 for a in plays if a.hand != "main") > 0
    for index, observation in enumerate(observations):
        if isinstance(observation, TwoHandsUsed):
            assert isinstance(observations[index + 1], CardLanded) and observations[index + 1].t == observation.t
    taken = [o for o in observations if isinstance(o, CardTakenBack)]
    backs = [a for a in script.actions() if a.kind is ActionKind.TAKE_BACK]
    assert [o.t for o in taken] == [a.t_grab for a in backs] and taken  # lifted off the pile at the grab


def test_a_stopped_game_ends_with_game_stopped():
    script = simulate_game(3, config=SimConfig(max_seconds=60))
    assert observations_from_script(script)[-1] == GameStopped(script.stopped_at)
