"""Cards covered by a later card before they could be read, named by the stock card that left.

When two hands lay cards on one pile in quick succession, the camera sees only the top one settle:
the card under it was never on top while the pile was still. Its player is known (the hand that
touched the pile first), its card is not. The card that left that player's stock at about the same
time names it. Until the covered card is named (or given up), the card laid over it waits, so that
the rulings keep the order in which the cards touched the pile.

`CoveredCards` holds this bookkeeping and nothing else: the tracker tells it what was laid, what
left a stock and what it could not name, and asks it each frame which cards are now known; what it
needs of the table (which piles and stocks hands are still over, what lies on top) comes in as
arguments.
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Callable, NamedTuple

from referee.piles.sightings import Arrival, PileTouched
from referee.rules.cards import Card

#: A covered card named from its hand's last look at the pile is given this share of that look's confidence (the
#: tracker's `_pile_change`): a name the card that left its player's stock may still overrule.
COVERED_CONFIDENCE = 0.5
#: How long (s) after its touch an arrival covered by a later card waits for its player's stock to show
#: which card left (the stock row is seen again when the hand has gone back over it). Without one,
#: and with no card read as the hand left, it was a hand passing over the pile, not a play.
RESOLVE_SECONDS = 0.9
#: A covered arrival not yet named waits up to this much longer (s) while its player's stocks are
#: still being handled (a hand lingering over its stock row keeps the stock from being read).
STOCK_WAIT_SECONDS = 3.0
#: A hand touching one pile this close in time (s) to laying a card on the other was reaching across.
PASSING_SECONDS = 0.35
#: How long (s) a card gone from a stock, or a card seen laid, is remembered for naming covered cards.
MEMORY_SECONDS = 3.0
#: A covered card and the top laid over it, touching this close (s), may have been taken the wrong way round
#: (two hands' touches closer than their timing error): the card that left the covered hand's stock, if it
#: is the one on top, says so (`CoveredCards._top_of`).
SWAPPED_SECONDS = 0.05
#: A card cannot leave a stock the hand came to after the card landed (that is the player's next card): a
#: card laid up to this long (s) before the hand's first moment at a stock may still be the one taken from
#: it, the two times being estimated apart (a touch below the frame period, the hand's first sample there).
#: Used here (a card seen laid explains only a later departure) and by `Translator._departures`.
REACHED_AFTER_LANDING_S = 0.1


class Departure(NamedTuple):
    """A card gone from a player's stock: `settled` when the stock settled without it, `came` when the
    hand first came to the stock to take it."""

    player: str
    settled: float
    card: Card
    came: float


class Laid(NamedTuple):
    """A card seen laid on top of a pile by a player's hand, touching it at `t`."""

    player: str
    pile: int
    t: float
    card: Card | None


class Covered(NamedTuple):
    """A card laid by `arrival.player` and covered before it was named (`arrival.card` is a guess from
    the hand's last look at the pile, or None); given up at `deadline`. `reaching`: the hand went on to
    touch the other pile (an arm reaching across, or a hand laying here that grazed it). `guess`: (card,
    confidence) of that last look read too unsurely to name it at once, what names it when given up."""

    arrival: Arrival
    deadline: float
    reaching: bool = False
    guess: tuple[Card, float] | None = None


class CoveredCards:
    """Covered cards waiting for a name, the stock cards that could name them, and the tops laid over them."""

    def __init__(self) -> None:
        self.unnamed: list[Covered] = []
        #: cards recently gone from a stock
        self.departures: list[Departure] = []
        #: a new top laid over cards still being named: it waits for them so that rulings keep touch order
        self.waiting_tops: list[Arrival] = []
        #: recent tops seen laid, for telling an arm reaching across a pile from a hand laying a card
        self.laid: list[Laid] = []

    @property
    def busy(self) -> bool:
        """Some card is still waiting to be named, or to be ruled after one."""
        return bool(self.unnamed or self.waiting_tops)

    def touches(self) -> list[tuple[int, float]]:
        """(spit pile, touch time) of the cards still waiting to be named, and of the tops waiting for them:
        touches not ruled yet (the pipeline holds later rulings back for them)."""
        return [(covered.arrival.pile, covered.arrival.t) for covered in self.unnamed] + [(top.pile, top.t) for top in self.waiting_tops]

    def waiting(self) -> list[Arrival]:
        """The cards still waiting to be named, and the tops waiting for them, in touch order."""
        return sorted([covered.arrival for covered in self.unnamed] + self.waiting_tops, key=lambda arrival: arrival.t)

    def withdraw(self, arrivals: list[Arrival]) -> None:
        """`arrivals`, waiting to be named, are not to be ruled after all (the tops over them are ruled without them)."""
        self.unnamed = [covered for covered in self.unnamed if covered.arrival not in arrivals]

    def left_stock(self, player: str, settled: float, card: Card, came: float) -> None:
        self.departures.append(Departure(player, settled, card, came))

    def left_stock_by(self, card: Card, alike: Callable[[Card, Card], bool] = operator.eq) -> set[str]:
        """Players from whose stock `card` recently left: a card there `alike` it (by default the same card,
        suit and all; `same_card`: the same where both suits were read)."""
        return {departure.player for departure in self.departures if departure.card is not None and alike(departure.card, card)}

    def cover(self, arrival: Arrival, now: float, *, reaching: bool = False, guess: tuple[Card, float] | None = None) -> None:
        """`arrival` lies under another card (or could not be named): its stock is to name it. `reaching`:
        its hand touched the other pile next; it laid a card here only if it laid none there (`_reached_on`).
        `guess`: (card, confidence) that names it if no stock does (see `Covered`)."""
        self.unnamed.append(Covered(arrival, now + RESOLVE_SECONDS, reaching, guess))

    def top_laid(self, top: Arrival) -> list[Arrival]:
        """A hand laid `top` on its pile: ruled now, or once the cards under it are named."""
        self.laid = [laid for laid in self.laid if laid.t >= top.t - MEMORY_SECONDS]
        self.laid.append(Laid(top.player, top.pile, top.t, top.card))
        if self._covers_unnamed(top) or any(other.pile == top.pile for other in self.waiting_tops):
            self.waiting_tops.append(top)
            return []
        return [top]

    def name(self, now: float, *, pile_tops: tuple[Card | None, Card | None], piles_busy: set[int],
             stocks_busy: set[str]) -> tuple[list[Arrival | PileTouched], dict[int, Card]]:
        """Names covered cards by the card that left the same player's stock, and gives up on those past
        their deadline. `pile_tops`: the card read on top of each pile; `piles_busy`: piles a hand is
        over or that have not been judged yet; `stocks_busy`: players a hand of whom is over their stocks.
        Returns the arrivals to rule (with the tops that waited for them; a card given up on is its hand's
        touch), in touch order, and the piles whose unreadable top is now known."""
        out: list[Arrival | PileTouched] = []
        named_tops: dict[int, Card] = {}
        keep: list[Covered] = []
        # a card that left a player's stock and was seen landing from that player's hand is explained (a
        # card laid before the hand came to take it is another: the spit `K?` does not explain a `K?` gone later)
        self.departures = [d for d in self.departures if not any(
            (laid.player, laid.card) == (d.player, d.card) and laid.t >= d.came - REACHED_AFTER_LANDING_S for laid in self.laid)]
        for arrival, deadline, reaching, guess in self.unnamed:
            if self._passing(arrival) or reaching and self._reached_on(arrival):
                continue
            if now < deadline and (1 - arrival.pile) in piles_busy:
                keep.append(Covered(arrival, deadline, reaching, guess))  # the other pile may yet show this hand laid its card there
                continue
            match = self._gone_for(arrival)
            top = None if match is None else self._top_of(arrival, match.card)
            if top is not None:
                # the card gone from this hand's stock is the one on top, laid over it as the other hand's: the
                # two touches, too close to order, were taken the wrong way round. The top is this player's,
                # and the other player's card lies under it, named by their own stock
                self.departures.remove(match)
                arrival = self._swap(top, arrival)
                match = self._gone_for(arrival)
            if match is not None:
                self.departures.remove(match)
                out.append(replace(arrival, card=match.card, confidence=0.9))
                if pile_tops[arrival.pile] is None:  # the unreadable top is now known
                    named_tops.setdefault(arrival.pile, match.card)
            elif now >= deadline and not (arrival.card is None and now < deadline + STOCK_WAIT_SECONDS
                                          and arrival.player in stocks_busy):
                if reaching:
                    continue  # no card known to have left: an arm that reached across, as it first seemed
                if arrival.card is not None and arrival.card not in pile_tops:
                    out.append(arrival)  # named from the snapshot taken as the hand left (a card on top now is another's)
                elif arrival.card is None and guess is not None and guess[0] not in pile_tops:
                    # no stock was seen losing it: the hand's last look, unsure as it was, names the card laid
                    out.append(replace(arrival, card=guess[0], confidence=guess[1] * 0.5))
                elif arrival.player is not None:
                    # no card known to have left: what was seen is the hand touching the pile (a slap once
                    # the round is over); the rules decide what it was
                    out.append(PileTouched(arrival.t, arrival.frame, arrival.pile, arrival.player, arrival.error))
            else:
                keep.append(Covered(arrival, deadline, reaching, guess))
        self.unnamed = keep
        self.departures = [d for d in self.departures if d.settled >= now - MEMORY_SECONDS]
        return sorted(out + self._released_tops(), key=lambda arrival: arrival.t), named_tops

    def _gone_for(self, arrival: Arrival) -> Departure | None:
        """The card gone from a stock that names `arrival`: of those that may be it, the one its hand's last look
        named, if any, else the first."""
        fitting = [d for d in self.departures if _fits(arrival, d) and not self._anothers(arrival, d)]
        return next((d for d in fitting if arrival.card is not None and d.card == arrival.card), fitting[0] if fitting else None)

    def _top_of(self, arrival: Arrival, card: Card) -> Arrival | None:
        """The top waiting over `arrival` on its pile that another player's hand was taken to lay, and that
        is `card`, just gone from `arrival`'s player's stock (`all_at_once` seed 171's clips: A's `QC` and B's
        `AS` 17.6 ms apart, B's touch timed first; the `AS` on top was given to A, B's covered card was named
        `AS` by B's stock as well, and A's `QC` was lost), where the top's player was seen losing another card."""
        for top in self.waiting_tops:
            if (top.pile == arrival.pile and top.player not in (None, arrival.player) and top.card == card
                    and 0 <= top.t - arrival.t <= SWAPPED_SECONDS
                    # and the top's player was seen losing another card that would lie under it: a misread
                    # card gone (a 10H read as the JH laid over it) must not take the top from its hand
                    and any(d.player == top.player and d.card != card and _fits(replace(arrival, player=top.player), d)
                            for d in self.departures)):
                return top
        return None

    def _swap(self, top: Arrival, covered: Arrival) -> Arrival:
        """The top waiting becomes `covered`'s player's card (at the top's touch: the later of the two), and
        returns the arrival under it: the top's player's card, unnamed, at the earlier touch."""
        self.waiting_tops[self.waiting_tops.index(top)] = replace(top, player=covered.player, arm=covered.arm)
        self.laid = [Laid(covered.player, laid.pile, laid.t, laid.card) if (laid.pile, laid.t, laid.card) == (top.pile, top.t, top.card)
                     else laid for laid in self.laid]
        return replace(covered, player=top.player, card=None, arm=top.arm)

    def _anothers(self, arrival: Arrival, departure: Departure) -> bool:
        """The card gone from the stock is better taken by another covered card of the same player that it
        fits as well: one whose hand's last look at the pile read that very card, where this one's read
        another or none; or one that read none, where this one's read another card (`all_at_once` seed
        234's clip: A's hand hovered over its stocks for 4.4 s, in which it laid a `5D` covered at once and
        read nothing, then a `KC` its last look read; the `5D` gone went to the `KC`)."""
        if arrival.card == departure.card:
            return False
        rivals = [other.arrival for other in self.unnamed if other.arrival is not arrival and not other.reaching
                  and _fits(other.arrival, departure)]
        return any(other.card == departure.card or (other.card is None and arrival.card is not None) for other in rivals)

    def _covers_unnamed(self, top: Arrival) -> bool:
        return any(covered.arrival.pile == top.pile and covered.arrival.t <= top.t for covered in self.unnamed)

    def _released_tops(self) -> list[Arrival]:
        """New tops whose covered cards are all named (or given up): ruled after them, in touch order."""
        released, waiting = [], []
        for top in self.waiting_tops:
            behind = any(other.pile == top.pile for other in waiting)
            (waiting if self._covers_unnamed(top) or behind else released).append(top)
        self.waiting_tops = waiting
        return released

    def _reached_on(self, arrival: Arrival) -> bool:
        """A hand that touched the other pile next laid its card there: one still waiting to be named there,
        laid by the same hand at about the same time (its card seen laid on top there is `_passing`)."""
        return any(not other.reaching and other.arrival.player == arrival.player and other.arrival.pile != arrival.pile
                   and abs(other.arrival.t - arrival.t) <= PASSING_SECONDS for other in self.unnamed)

    def _passing(self, arrival: Arrival) -> bool:
        """The same hand put a card on the other pile at about the same time: it was reaching across
        this pile (an arm over the left pile on its way to the right one), not laying a card here. Unless the
        card its last look here named, suit and all, left its stock, and none like the card there did: then it
        laid that card here, and touched the other pile on its way (`all_at_once --after-touch` seed 176's clip
        from 3.15 s: B's hand over pile 0's 5D, read there again, on its way to lay the 2S on pile 1)."""
        across = [laid for laid in self.laid
                  if laid.player == arrival.player and laid.pile != arrival.pile and abs(laid.t - arrival.t) <= PASSING_SECONDS]
        if not across:
            return False
        gone = {departure.card for departure in self.departures if departure.player == arrival.player}
        laid_here = arrival.card is not None and arrival.card.suit is not None and arrival.card in gone
        return not (laid_here and all(laid.card not in gone for laid in across))


def _fits(arrival: Arrival, departure: Departure) -> bool:
    """The card gone from a stock may be the one `arrival` laid: the same player's, gone about when it
    landed, or while the hand stayed over the stock all along."""
    return departure.player == arrival.player and (
        arrival.t - 0.2 <= departure.settled <= arrival.t + RESOLVE_SECONDS or departure.came <= arrival.t <= departure.settled)
