"""What the table tracker reports: small values about piles, before any rule is applied.

The pipeline turns these into the rules engine's observations (it alone knows, from the engine's
phase, whether a card arriving on a pile is a spit or a play, and whether a hand on a pile is a slap).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.piles.reading import Reading
from referee.rules.cards import Card


@dataclass(frozen=True)
class Arrival:
    """A card first touched spit pile `pile` at `t` (sub-frame estimate, ± `error` seconds)."""

    t: float
    frame: int
    pile: int
    player: str | None
    card: Card | None
    error: float
    confidence: float = 0.0
    #: other cards it could be, (card, probability) best first (see Reading.alternatives)
    alternatives: tuple[tuple[Card, float], ...] = ()
    #: laid with a card of the other player on the other pile at the same moment (spits look like this)
    together: bool = False
    #: where the laying arm came from (mm from the player's seat, see `arms.arm_offset`); None: not seen
    arm: float | None = None
    #: seen lying under a card the other player laid with it (covered before it could be read): a card
    #: laid later lands on top, so it touched first unless the two touch times say otherwise by more than
    #: they may be off (`RefereeSession._other_first`)
    under: bool = False
    #: (t, frame, error) where the laying hand came to rest on the pile, if it did: the time of the touch
    #: should the rules find no card was laid and the hand slapped the pile (timed as `PileTouched` is)
    rest: tuple[float, int, float] | None = None
    #: the pile's picture did not change from when it last settled (a card laid square on a like card, or
    #: the card on top read again otherwise after a hand passed over it: `KS` where `KC` was read)
    unchanged: bool = False


@dataclass(frozen=True)
class PileTouched:
    """A hand touched a spit pile and left no new card there (a slap, or a nudge). `t`: when it came to
    rest there (a slap landing), else when it first overlapped the pile. `through_hand`: it came down on
    the other player's hand lying on the pile (a slap on the same pile, or a hand waiting its turn), and
    never touched the pile itself. `on_hand`: (t, frame, error) when a hand that did touch the pile once
    the other hand had gone came down on that hand first (where a second slap lands). `went_on`: the same
    hand touched the other spit pile next, within `owners.REACHING_ON_SECONDS` (an arm reaching across this
    pile to the other, whose card there may still be waiting to be named under a later one). `depth`: how
    far inside the pile's outline the hand reached (mm): a slap lies over the pile, the fingers spread
    from it graze the other one's edge."""

    t: float
    frame: int
    pile: int
    player: str
    error: float
    through_hand: bool = False
    on_hand: tuple[float, int, float] | None = None
    went_on: bool = False
    depth: float = 0.0


@dataclass(frozen=True)
class StockSeen:
    """A stock slot settled showing something other than before. `turned_at`: when the hand that changed
    it was last there (the card was turned then; the slot is seen settled only after the hand has gone);
    `reached_at`: when that hand first came there (a card brought back from a pile left it before)."""

    t: float
    frame: int
    player: str
    slot: int
    reading: Reading
    previous: Reading
    visited: bool
    turned_at: float | None = None
    reached_at: float | None = None


@dataclass(frozen=True)
class LayoutRead:
    """Every place read at once: at the start of a clip, or when a new round has been laid out."""

    t: float
    frame: int
    stocks: dict[str, tuple[Reading, ...]]   # player -> six slots (index 5: a sixth pile)
    piles: tuple[Reading, Reading]
    first: bool                               # the clip's opening read (may be mid-game)
    #: the first frame showed no stock card that could be played: the cards laid before this read that fit
    #: no top are the spits after a stall
    looked_stalled: bool = False
    #: a clip's opening read only: the player whose stock slots were all bare, with no card of theirs laid on a
    #: spit pile before this read still to be ruled (what they laid may have been their last stock card, which
    #: ends the round as it is ruled): they had played their last stock card before the video began, and the
    #: round is over (None when both or neither are so)
    stocks_out: str | None = None


@dataclass(frozen=True)
class TableCleared:
    """The cards were gathered up: no stock and no spit pile left on the table."""

    t: float
    frame: int


@dataclass(frozen=True)
class TableQuiet:
    """No hand has been near a stock or spit pile, and nothing was waiting to be read, since `t`
    (sent once per quiet spell, `quiet.QUIET_SECONDS` after it began; again, `lasted`, at
    `quiet.UNTURNED_SECONDS`, `unturned` when a stock still reads face down: nobody turned it up; and again,
    `uncounted`, at `quiet.UNCOUNTED_SECONDS`: stock counts known only as a least may be taken as they stand)."""

    t: float
    frame: int
    unturned: bool = False
    uncounted: bool = False
    lasted: bool = False


Sighting = Arrival | PileTouched | StockSeen | LayoutRead | TableCleared | TableQuiet
