"""A simulated game as a timed script of physical actions: the contract between the game simulator
(which writes it) and the synthetic table (which renders it).

Times are seconds from the start of the video. Every action is one hand's movement:
it leaves its rest position at `t_start`, reaches the source at `t_grab`, the card (or, for a slap,
the hand) first touches the target at `t_touch`, is let go at `t_release`, and the hand is back at
rest at `t_end`. The renderer interpolates the hand and card between these instants; the true
event log takes `t_touch` as the moment of a play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from referee.rules.cards import Card
from referee.rules.events import Event


class PlaceKind(str, Enum):
    STOCK = "stock"            # a player's stock pile, index 0-4 from the owner's left (5 = a sixth pile)
    SPIT_PILE = "spit_pile"    # a spit pile in the centre, index 0 or 1
    SPIT_STACK = "spit_stack"  # a player's face-down spit cards, held or laid beside the stocks
    HAND = "hand"              # in the player's hand, off the table (a taken-back card goes here)


@dataclass(frozen=True)
class Place:
    kind: PlaceKind
    index: int = 0
    player: str | None = None  # owner, for stocks and spit stacks

    def __str__(self) -> str:
        owner = self.player or ""
        return f"{self.kind.value}:{owner}{self.index}"


class ActionKind(str, Enum):
    PLAY = "play"            # a face-up stock card carried onto a spit pile
    TURN_UP = "turn_up"      # the face-down top of a stock pile turned face up, in place
    FILL_SLOT = "fill_slot"  # a face-up stock card moved into an empty stock slot
    SPIT = "spit"            # the top spit card turned face up onto a spit pile
    SLAP = "slap"            # a flat hand slapped onto a spit pile at the end of a round
    TAKE_BACK = "take_back"  # a played card lifted back off a spit pile (a violation)


@dataclass(frozen=True)
class Action:
    player: str
    kind: ActionKind
    card: Card | None
    source: Place | None
    target: Place | None
    t_start: float
    t_grab: float
    t_touch: float
    t_release: float
    t_end: float
    #: which of the player's hands moves: "main" normally, "other" when a player breaks the one-hand rule
    hand: str = "main"
    #: the card is turned face up during the move (spit cards, stock tops turned up)
    face_up_on_arrival: bool = True

    def __post_init__(self) -> None:
        times = (self.t_start, self.t_grab, self.t_touch, self.t_release, self.t_end)
        if any(later < earlier for earlier, later in zip(times, times[1:])):
            raise ValueError(f"action times must not go backwards: {times} in {self.kind.value} by {self.player}")


@dataclass
class RoundLayout:
    """The table as laid out at the start of a round (before the opening spit).

    `stocks[player][i]` lists stock pile i's cards bottom to top; the top one is face up.
    An empty list is an empty slot. `spit_stacks[player]` lists the face-down spit cards, top last.
    """

    stocks: dict[str, list[list[Card]]]
    spit_stacks: dict[str, list[Card]]
    spit_piles_in_use: int = 2


@dataclass
class RoundScript:
    number: int
    t_start: float          # the layout is on the table from here
    layout: RoundLayout
    actions: list[Action] = field(default_factory=list)
    t_end: float = 0.0      # the cards are gathered up after this


@dataclass
class GameScript:
    seed: int
    rounds: list[RoundScript]
    truth: list[Event]
    duration: float
    win_rule: str = "standard"
    #: when the game was stopped by the simulator's length cap (then the truth ends with a game_end
    #: decided on the cards held, see referee.rules.observations.GameStopped); None = played to the end
    stopped_at: float | None = None

    def actions(self) -> list[Action]:
        return [action for round_ in self.rounds for action in round_.actions]
