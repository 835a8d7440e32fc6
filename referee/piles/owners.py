"""Who laid the card now on top of a spit pile.

Several hands may touch a pile before it settles: the one that laid the card, one that slapped, an
arm passing over it on the way to the other pile. These functions pick the hand that laid the top
card from what the place saw of each hand (`Visit`s) and from what the stocks say; they read no
pixels and keep no state.
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Sequence

from referee.piles.hands import PLAYERS
from referee.piles.places import PlaceChange, PlaceTracker, Visit
from referee.piles.zones import Place
from referee.rules.cards import Card, same_card

#: One hand cannot lay two cards on one pile this close (s): two touches are one card.
SAME_HAND_SECONDS = 0.3
#: A hand first seen already on the pile this soon (s) after the same player's hand was last seen there is
#: that hand found again, not a second card: held still on the pile, a hand is taken into the table's
#: picture and lost for a few frames, then found again as it moves off (a hand cannot fetch another card
#: without leaving the pile).
FOUND_AGAIN_SECONDS = 0.3
#: Both piles settling together with both hands' touches within this span (s) are two cards laid at
#: once, one by each player (a hand lays one card at a time).
JOINT_SECONDS = 0.3
#: A hand that touched the other spit pile this soon (s) after touching this one was reaching across to it
#: (its arm passed over this pile), when another hand touched this pile too.
REACHING_ON_SECONDS = 0.35
#: When both piles were laid at once, the stock holding the card read names who laid it, over where each
#: hand reached last, only when the card is read at least this surely: spit cards come from the hand, on
#: no stock, and an unsure reading of one may match any stock top.
JOINT_HOLDER_SURE = 0.6


def one_per_hand(visits: list[Visit]) -> list[Visit]:
    """A hand that touches a pile, lifts and touches again within SAME_HAND_SECONDS laid one card, as
    did one lost on the pile and found there again (`_found_again`): its touches are one visit, timed by
    the first."""
    out: list[Visit] = []
    for visit in visits:
        last = out[-1] if out else None
        if last is not None and last.player == visit.player and (visit.touch.t - last.touch.t < SAME_HAND_SECONDS
                                                                  or _found_again(last, visit)):
            out[-1] = replace(last, frames_in_contact=last.frames_in_contact + visit.frames_in_contact,
                              fronts=last.fronts + visit.fronts, card_seen=last.card_seen or visit.card_seen,
                              brought_card=last.brought_card or visit.brought_card,
                              **_snapshot_of(visit if visit.snapshot is not None else last))
            continue
        out.append(visit)
    return out


def _found_again(earlier: Visit, later: Visit) -> bool:
    """`later` is the hand of `earlier` found again on the pile: first seen already over it (at or inside
    its outline), within FOUND_AGAIN_SECONDS of when `earlier` was last seen."""
    if not earlier.samples or not later.samples:
        return False
    (_, first_seen, distance), (_, last_seen, _) = later.samples[0], earlier.samples[-1]
    return distance <= 0 and 0 <= first_seen - last_seen <= FOUND_AGAIN_SECONDS


def _snapshot_of(visit: Visit) -> dict:
    """A visit's snapshot with what goes with it (where its top lay, its naming)."""
    return {"snapshot": visit.snapshot, "snapshot_outline": visit.snapshot_outline, "snapshot_named": visit.snapshot_named}


def stock_holders(card: Card, stock_tops: Iterable[tuple[str, Card]],
                  left_stock_by: Callable[[Card, Callable[[Card, Card], bool]], set[str]]) -> set[str]:
    """Players from whose stock `card` came: it lies on top of one of their stocks (`stock_tops`: (player,
    card read there)), or was lately seen leaving one (`left_stock_by(card, alike)`). Read there as it was
    read landing; else, where none was, by its rank with a suit read on one side only (`same_card`): a
    court card of a deck the models never saw is often named by its rank alone, a `K?` on the stock and a
    `KC` landing, and its stock still tells which hand laid it."""
    tops = list(stock_tops)
    for alike in (operator.eq, same_card):
        holders = {player for player, top in tops if alike(top, card)} | left_stock_by(card, alike)
        if holders:
            return holders
    return set()


def who_laid_top(visits: Sequence[Visit], frames_holding: Sequence[int], *, holders: set[str],
                 joint_owner: str | None, sure: float = 1.0, reached_on: Sequence[bool] = ()) -> int:
    """Which of `visits` (in touch order) laid the card now on top. `frames_holding`: for each visit,
    the frames its hand's front lay over the new card; `holders`: players from whose stock the card
    came; `joint_owner`: the player given this pile when both piles were laid at once (see joint_owners);
    `sure`: how surely the card was read (a joint owner's stock must hold a card read JOINT_HOLDER_SURE);
    `reached_on`: for each visit, whether its hand went on to touch the other spit pile
    (`reaching_on`).

    In order: the hand whose stock the card was on top of, when only one of them had it; the joint
    owner; a hand that did not reach on to the other pile; a hand's later card lies over its earlier
    one; a hand seen bringing a card, and over the new card a while, over one that came empty (to slap,
    take a card back, square the pile; a hand that never lay over the new card was passing with its
    card on the way to the other pile); of two hands that brought cards, the later touch (its card lies
    on the other's, however long the first hand held its own); the card was put there by the hand that
    held it there (an arm passing over the pile on its way to the other one does not); the longer
    contact; the later touch."""
    stock_owner = next(iter(holders)) if len(holders) == 1 and (joint_owner is None or sure >= JOINT_HOLDER_SURE) else None
    last_of_hand = {visit.player: number for number, visit in enumerate(visits)}
    passing = list(reached_on) or [False] * len(visits)
    laying = [visit.brought_card and holding > 0 for visit, holding in zip(visits, frames_holding)]
    return max(range(len(visits)), key=lambda number: (visits[number].player == stock_owner,
                                                       visits[number].player == joint_owner,
                                                       not passing[number],
                                                       last_of_hand[visits[number].player] == number,
                                                       laying[number],
                                                       number if laying[number] else -1,
                                                       frames_holding[number],
                                                       visits[number].frames_in_contact, number))


def went_on(visit: Visit, other_pile_touches: Sequence[tuple[str, float]]) -> bool:
    """Whether the hand of `visit` touched the other spit pile (`other_pile_touches`: (player, time) of its
    touches) within REACHING_ON_SECONDS after touching this one."""
    return any(player == visit.player and 0 < t - visit.touch.t <= REACHING_ON_SECONDS for player, t in other_pile_touches)


def reaching_on(visits: Sequence[Visit], other_pile_touches: Sequence[tuple[str, float]]) -> list[bool]:
    """For each of `visits` (one pile's, in touch order), whether its hand touched the other spit pile
    (`other_pile_touches`: (player, time) of its touches) within REACHING_ON_SECONDS after touching this
    one, while another hand touched this pile too: an arm reaching across (the opening spits' crossed arms,
    caught apart when the first frame held an arm that keeps one pile busy); the other hand laid this pile's
    card. That hand may be the same player's (`other_decks` seed 405's clip from 2.91 s: A laid its `JC` on
    pile 0 and A's other hand passed over it before the pile settled, on its way to lay the `AC` on pile 1;
    the `JC` was taken for the later hand's, half a second late). A hand alone at a pile is never reaching on."""
    if len(visits) < 2:
        return [False] * len(visits)
    return [went_on(visit, other_pile_touches) for visit in visits]


def unseen_joint_owner(visits: Sequence[Visit], joint_owner: str | None, *, holders: set[str] = frozenset(),
                       sure: float = 1.0) -> str | None:
    """The player `joint_owners` gave this pile whose hand was never seen at it, or None. Both piles were
    laid at once and the two arms crossed: what touched here was the other arm passing over it (or the
    unseen hand taken for it where the arms merged), and the card is the unseen hand's. The other hand's
    own card lies on the other pile. Not when the card, read JOINT_HOLDER_SURE, came from the stock of the
    hand seen here and no other (`holders`): that hand laid it, and its arm went over the other pile after
    (`other_decks` seed 403's clip from 10.83 s: A laid its `4S` on pile 1 and drew back over pile 0 as B laid
    its `AS` there; the `4S` was given to B, and A's touch of pile 0 named by the `4S` gone from A's stock)."""
    if joint_owner is None or joint_owner in {visit.player for visit in visits}:
        return None
    if len(holders) == 1 and joint_owner not in holders and sure >= JOINT_HOLDER_SURE:
        return None
    return joint_owner


def joint_owners(changes: Sequence[tuple[Place, PlaceChange]], places: Mapping[Place, PlaceTracker]) -> dict[Place, str]:
    """Who laid the card on each pile when both piles settle together after both hands were over
    both (the spits, two plays at once): one hand lays one card at a time, so the two cards are
    given to the two players so that each laid its card where it reached last (on rendered spits this
    was right in 8 of 8, where the fingers' distance to the cards was right in 5 and the frames each
    hand held each card in 3), then so that their fingers came closest to the cards. When one pile was
    touched by one hand alone and the other by both, and both show a new card, the hand seen at both laid
    its card on the pile it reached last too (a pile only passed over, left as it was, says nothing)."""
    piles = [(place, change) for place, change in changes if place.kind == "spit_pile" and change.visits]
    if len(piles) != 2:
        return {}
    touches = {place: {visit.player: visit for visit in change.visits if visit.touch is not None} for place, change in piles}
    (first, first_change), (second, second_change) = piles
    times = [visit.touch.t for place in touches for visit in touches[place].values()]
    if not times or max(times) - min(times) > JOINT_SECONDS:
        return {}
    alone = [place for place in touches if len(touches[place]) == 1]
    if (len(alone) == 1 and all(set(touches[place]) == set(PLAYERS) for place in touches if place != alone[0])
            and all(change.changed for _, change in piles)):
        # one hand seen at both piles, the other at one only (its touch of the other pile not seen: arms
        # crossing): as below, the hand seen at both laid its card on the pile it reached last, the other
        # hand the other pile's
        player = next(iter(touches[alone[0]]))
        other = next(place for place in touches if place != alone[0])
        partner = next(hand for hand in PLAYERS if hand != player)
        if touches[other][player].touch.t > touches[alone[0]][player].touch.t:
            return {other: player, alone[0]: partner}
        return {alone[0]: player, other: partner}
    if any(set(touches[place]) != set(PLAYERS) for place in touches):
        return {}

    def reach(place: Place, change: PlaceChange, player: str) -> tuple[float, float]:
        """When the player's hand last reached the pile (a hand reaching across one pile to the other
        touches the near one first and lays its card on the far one), then how far its fingers stayed
        from the new card (mm)."""
        visit = touches[place][player]
        return -visit.touch.t, places[place].nearest_front(visit, change.footprint)

    def total(one: str, other: str) -> tuple[float, float]:
        (late_one, far_one), (late_other, far_other) = reach(first, first_change, one), reach(second, second_change, other)
        return late_one + late_other, far_one + far_other

    straight, crossed = total("A", "B"), total("B", "A")
    if straight == crossed:
        return {}
    return {first: "A", second: "B"} if straight < crossed else {first: "B", second: "A"}
