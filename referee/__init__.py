"""The referee: watches a table through a camera and referees the card game Spit.

Data flows one way: frames -> table view -> observations -> rules engine -> rulings -> board and log.
"""

from referee.errors import RefereeError
from referee.rules.cards import Card, RANKS, SUITS, ranks_adjacent
from referee.rules.events import Event, EventType

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Event",
    "EventType",
    "RANKS",
    "SUITS",
    "RefereeError",
    "ranks_adjacent",
    "__version__",
]
