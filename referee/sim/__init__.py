"""The game simulator: two simulated players playing whole games of Spit, as timed physical actions.

    from referee.sim import simulate_game, observations_from_script
    script = simulate_game(7)                     # GameScript: rounds of timed actions + the true event log
"""

from referee.sim.config import SimConfig
from referee.sim.game import GameSimulator, simulate_game
from referee.sim.observe import observations_from_script
from referee.sim.script import Action, ActionKind, GameScript, Place, PlaceKind, RoundLayout, RoundScript

__all__ = [
    "simulate_game", "GameSimulator", "SimConfig", "observations_from_script",
    "GameScript", "RoundScript", "RoundLayout", "Action", "ActionKind", "Place", "PlaceKind",
]
