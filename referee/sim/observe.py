"""What a perfect camera would report of a simulated game: the observations the rules engine needs.

Used to replay simulated games through the engine and compare its rulings with the simulator's truth.
A perfect camera sees every face-up card, which hand moved, and the exact touch instants; it cannot
see face-down cards, so layouts carry only the stock tops (the engine derives the counts).
"""

from __future__ import annotations

from referee.rules.observations import (
    CardLanded, CardTakenBack, GameStopped, Observation, RoundLaidOut, Slap, SpitTurned, StockMoved,
    StockTurnedUp, TwoHandsUsed,
)
from referee.sim.script import Action, ActionKind, GameScript

PLAYERS = ("A", "B")


def _seen_at(action: Action) -> float:
    """When an action changes the table: a take-back the moment the card leaves the pile, the rest on touch."""
    return action.t_grab if action.kind is ActionKind.TAKE_BACK else action.t_touch


def _observe(action: Action) -> list[Observation]:
    t, player = _seen_at(action), action.player
    if action.kind is ActionKind.PLAY:
        landed = CardLanded(t, player, action.target.index, action.card, stock=action.source.index)
        return [TwoHandsUsed(t, player), landed] if action.hand != "main" else [landed]
    if action.kind is ActionKind.TURN_UP:
        return [StockTurnedUp(t, player, action.source.index, action.card)]
    if action.kind is ActionKind.FILL_SLOT:
        return [StockMoved(t, player, action.source.index, action.target.index, action.card)]
    if action.kind is ActionKind.SPIT:
        return [SpitTurned(t, player, action.target.index, action.card)]
    if action.kind is ActionKind.SLAP:
        return [Slap(t, player, action.target.index)]
    if action.kind is ActionKind.TAKE_BACK:
        return [CardTakenBack(t, player, action.source.index, action.card, to_stock=action.target.index)]
    raise ValueError(f"no observation for action kind {action.kind!r}")


def observations_from_script(script: GameScript) -> list[Observation]:
    """Every observation of the game, in order of t (ties keep the order the simulator ruled them in)."""
    observations: list[Observation] = []
    for round_ in script.rounds:
        tops = {p: [slot[-1] if slot else None for slot in round_.layout.stocks[p]] for p in PLAYERS}
        observations.append(RoundLaidOut(round_.t_start, tops))
        for action in sorted(round_.actions, key=_seen_at):
            observations.extend(_observe(action))
    if script.stopped_at is not None:
        observations.append(GameStopped(script.stopped_at))
    return observations
