"""How the rules engine reads RULES.md: timing windows and the [reading] switches.

Every switch documents what it does and what the other value means. Defaults are the readings
RULES.md marks with **[reading]** plus the ones this engine had to choose (marked [engine reading]).
"""

from __future__ import annotations

import math

import difflib
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, Mapping

from referee.errors import ConfigError

WinRule = Literal["standard", "scoring"]


@dataclass(frozen=True, kw_only=True)
class RulesConfig:
    #: "standard": RULES.md 'Winning (standard)'; "scoring": one point per card still held at each
    #: round end, the game ends when someone reaches `target_points`, the lowest total wins.
    win_rule: WinRule = "standard"
    #: Points that end a game under the scoring variant.
    target_points: int = 100
    #: Two cards (or slapping hands) by different players reaching one pile within this many ms are
    #: reported with a `touch_order` event. Raising it reports more, looser pairs.
    touch_window_ms: float = 300.0
    #: Below this gap a touch order is marked `too_close` (the camera cannot resolve it; `first` is then
    #: the best guess). About one frame: 34 ms at 30 fps, 17 ms at 60 fps.
    touch_too_close_ms: float = 34.0
    #: [reading] RULES.md 'Play': when two cards reach one pile within the touch window, the later card
    #: is judged against "new_top" (the card that touched first) or "old_top" (the top both aimed at).
    later_card_judged_against: Literal["new_top", "old_top"] = "new_top"
    #: [reading] RULES.md 're-spit': True = a player with no spit cards left does not spit and the other
    #: spits alone; False = in a two-pile round, a stall with one player out of spit cards ends the round.
    lone_respit: bool = True
    #: [engine reading] An illegal card "stays" on the pile as its new top (a real referee calls it and
    #: play goes on; only a take-back would lift it, itself a violation), or is "returned" to its stock.
    illegal_card: Literal["stays", "returned"] = "stays"
    #: [engine reading] True = a stall is declared only once both stock rows are settled (every stock top
    #: face up, no empty slot a player could fill from a pile of two or more): players turn those up
    #: before they would say "spit". False = as soon as no visible stock top fits a spit pile.
    stall_waits_for_stock_moves: bool = True
    #: [engine reading] A one-pile round that ends with no play and no spit cards: who takes pile 0.
    #: "more_stock" = the player with more stock cards left (the spitter on a tie); "spitter" = the player
    #: who had spit cards.
    one_pile_no_play_taker: Literal["more_stock", "spitter"] = "more_stock"
    #: [engine reading] A player left with no cards at all after a round (they emptied their stocks in a
    #: one-pile round with no spit cards left and took nothing) wins the game, under either win rule
    #: (under "scoring" the lowest total still wins; the player without cards wins a tie).
    player_without_cards_wins: bool = True
    #: What the engine does with an observation that contradicts what it knows (a card that cannot be
    #: where it is said to be, out of time order...): "raise" ObservationError (state unchanged, the
    #: caller decides), or "notice": return a `notice` event instead and ignore the observation.
    on_impossible: Literal["raise", "notice"] = "raise"
    #: For a live camera: True = a card seen landing from (or turned up on) a named stock pile whose face-up
    #: top the engine had read as a different card is taken as the better reading, with a `notice`
    #: (the earlier reading was wrong), instead of being refused. Cards seen elsewhere are still refused.
    resync_misread_cards: bool = False
    #: For a live camera: True = what visibly happened is ruled even where it contradicts what the engine
    #: knows, with a `notice` saying what does not fit (bad or missing observations never lose rulings):
    #: a card landing before any layout was seen starts a round taken up blind (counts from the deal, every
    #: top unknown); a card that is no known stock top is still ruled as a play (player from the
    #: observation, else the best guess; the stock it left is guessed, or no count changes); a card name
    #: already seen this round is ruled anyway (one of the two readings is wrong); a spit by a player
    #: counted out of spit cards is ruled; a layout showing a card twice, a card on a slot its count says
    #: is empty, or a new layout in mid-round is taken as seen. False (the simulator's exact replay) =
    #: these observations are impossible (see `on_impossible`). Either way a spit pile whose top is
    #: unknown (LayoutSeen.unknown_piles) takes its first card as legal, with a notice.
    camera_tolerant: bool = False

    def too_close(self, gap_ms: float, errors: tuple[float, float] = (0.0, 0.0)) -> bool:
        """Whether two touches `gap_ms` apart are too close to tell which came first: under
        `touch_too_close_ms`, or under the timing error of their difference (`errors`: each touch's, in
        seconds, about one standard error; see `touch_error_ms`)."""
        return gap_ms < max(self.touch_too_close_ms, touch_error_ms(errors))

    def __post_init__(self) -> None:
        choices = {
            "win_rule": ("standard", "scoring"),
            "later_card_judged_against": ("new_top", "old_top"),
            "illegal_card": ("stays", "returned"),
            "one_pile_no_play_taker": ("more_stock", "spitter"),
            "on_impossible": ("raise", "notice"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")
        for name in ("lone_respit", "stall_waits_for_stock_moves", "player_without_cards_wins", "resync_misread_cards",
                     "camera_tolerant"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false; got {getattr(self, name)!r}")
        if isinstance(self.target_points, bool) or not isinstance(self.target_points, int) or self.target_points < 1:
            raise ConfigError(f"target_points must be a whole number >= 1; got {self.target_points!r}")
        if not 0 <= self.touch_too_close_ms <= self.touch_window_ms:
            raise ConfigError(
                f"need 0 <= touch_too_close_ms <= touch_window_ms; got {self.touch_too_close_ms} and {self.touch_window_ms}"
            )

    def for_camera(self) -> "RulesConfig":
        """This config with the switches a live camera needs: misread cards resynced, impossible
        observations turned into notices, and what is seen ruled even when it does not fit."""
        return replace(self, camera_tolerant=True, resync_misread_cards=True, on_impossible="notice")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "RulesConfig":
        """Builds a config from a parsed file section; unknown keys are refused with a did-you-mean."""
        known = [item.name for item in fields(cls)]
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f"; known keys: {', '.join(known)}"
                raise ConfigError(f"unknown rules setting {key!r}{hint}")
        try:
            return cls(**dict(data))
        except TypeError as error:
            raise ConfigError(f"bad rules settings: {error}") from None


def touch_error_ms(errors: tuple[float, float]) -> float:
    """How far off (ms) the gap between two touches may be, given how far off each may be (seconds)."""
    return 1000.0 * math.hypot(*errors)

