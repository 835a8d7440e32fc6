"""The rules of Spit: cards, events, and the engine that turns observations into rulings.

Knows nothing about pixels. The public surface:

    from referee.rules import RulesEngine, RulesConfig, observations
    engine = RulesEngine(RulesConfig(win_rule="standard"))
    events = engine.observe(observations.CardLanded(t=3.2, player="A", pile=0, card="7H"))
"""

from referee.rules import observations
from referee.rules.cards import RANKS, SUITS, Card, can_play_on, full_deck, ranks_adjacent
from referee.rules.config import RulesConfig
from referee.rules.engine import RulesEngine
from referee.rules.events import Event, EventLogWriter, EventType, read_event_log
from referee.rules.state import EngineState, GamePhase, PlayerView, StockView

__all__ = [
    "Card", "RANKS", "SUITS", "can_play_on", "full_deck", "ranks_adjacent",
    "Event", "EventType", "EventLogWriter", "read_event_log",
    "RulesConfig", "RulesEngine", "EngineState", "GamePhase", "PlayerView", "StockView",
    "observations",
]
