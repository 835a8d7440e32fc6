"""What lies on the table, and where the hands are, at any instant of a GameScript.

The table frame is INTERFACE.md's (mm). Cards lie flat; a card's pose is its centre and its angle in
degrees, counter-clockwise as seen from above, 0 meaning upright for player A (the face's top edge
towards B). Placement is messy, as on a real table: every pile sits off its nominal place and turned a
little, every card in it a little off the one below, spit piles messier than stocks.

A played card slides in: it reaches the edge of the pile's top card exactly at the action's `t_touch`
(its outline first overlaps the pile then) and settles in place by `t_release`. Two cards on one pile
stack in the order they touched it: a card touched first but held longer is let go on the pile as the one
laid on it is (`Scene.settles_at`), never drawn over it.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from referee.rules.cards import Card
from referee.sim.script import Action, ActionKind, GameScript, Place, PlaceKind, RoundScript
from referee.table.layout import CARD_HEIGHT_MM, CARD_WIDTH_MM, TableLayout

#: distance from a carried card's centre back to the centre of the palm holding it
GRIP_MM = 62.0
#: how many cards of a tall pile are drawn (the ones below are hidden under them)
DRAWN_PILE_DEPTH = 6


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    angle: float  # degrees, counter-clockwise from above; 0 = upright for player A

    def corners(self, width: float = CARD_WIDTH_MM, height: float = CARD_HEIGHT_MM) -> np.ndarray:
        """The card's corners in the table frame: face top-left, top-right, bottom-right, bottom-left."""
        a = math.radians(self.angle)
        right = np.array([math.cos(a), math.sin(a)])     # the face's +u (to the right as read)
        down = np.array([math.sin(a), -math.cos(a)])     # the face's +v (down as read)
        centre = np.array([self.x, self.y])
        half_u, half_v = right * width / 2, down * height / 2
        return np.array([centre - half_u - half_v, centre + half_u - half_v, centre + half_u + half_v, centre - half_u + half_v])


@dataclass
class TableCard:
    card: Card
    face_up: bool
    pose: Pose


@dataclass(frozen=True)
class MovingCard:
    card: Card
    pose: Pose
    face_up: bool
    flip: float          # 1 = flat; towards 0 = seen edge-on while being turned over
    lift: float          # mm above the table (for the shadow)
    speed: tuple[float, float]  # mm/s in the table frame (for motion blur)
    action: Action


@dataclass(frozen=True)
class HandPose:
    player: str
    hand: str            # "main" or "other"
    x: float
    y: float
    lift: float          # mm above the table
    open: bool           # a flat, spread hand (slap) instead of a gripping one
    speed: tuple[float, float]
    resting: bool = False  # waiting at the player's edge, not moving


@dataclass
class SceneState:
    t: float
    piles: dict[Place, list[TableCard]]
    moving: list[MovingCard]
    hands: list[HandPose]
    version: tuple        # changes whenever `piles` changes


def shoulder_point(layout: TableLayout, player: str, hand: str) -> np.ndarray:
    """A seated player's shoulder, beyond their edge; "main" is the right hand."""
    side = 1.0 if hand == "main" else -1.0
    if player == "A":
        return np.array([layout.width / 2 + side * 190, -430.0])
    return np.array([layout.width / 2 - side * 190, layout.height + 430.0])


def _smooth(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


def _lerp(a: float, b: float, s: float) -> float:
    return a + (b - a) * s


def _angle_lerp(a: float, b: float, s: float) -> float:
    delta = (b - a + 180) % 360 - 180
    return a + delta * s


def _overlaps(first: np.ndarray, second: np.ndarray) -> bool:
    """Separating-axis test for two convex quads (4, 2)."""
    for quad in (first, second):
        for i in range(4):
            edge = quad[(i + 1) % 4] - quad[i]
            axis = np.array([-edge[1], edge[0]])
            a, b = first @ axis, second @ axis
            if a.max() < b.min() or b.max() < a.min():
                return False
    return True


class Scene:
    """The timeline of one GameScript: call `state(t)` with increasing or arbitrary t."""

    def __init__(self, script: GameScript, layout: TableLayout | None = None, *, seed: int = 0) -> None:
        self.script = script
        self.layout = layout or TableLayout()
        self.seed = seed
        self._rounds = sorted(script.rounds, key=lambda r: r.t_start)
        self._final_poses: dict[int, Pose] = {}
        self._contact_poses: dict[int, Pose] = {}
        self._settles: dict[int, float] = {}
        self._timelines = [self._round_timeline(r) for r in self._rounds]

    def settles_at(self, action: Action) -> float:
        """When the card `action` carries comes to rest where it goes: its release, or sooner (`_settling`)."""
        return self._settles.get(id(action), action.t_release)

    # -------------------------------------------------------------- placement

    def _rng(self, *parts: object) -> np.random.Generator:
        return np.random.default_rng(zlib.crc32("|".join(map(str, (self.seed,) + parts)).encode()))

    def _owner_angle(self, player: str | None) -> float:
        return 180.0 if player == "B" else 0.0

    def place_pose(self, place: Place, round_number: int) -> Pose:
        """A pile's base pose this round: its nominal place, shifted and turned as a person lays it."""
        rng = self._rng("place", round_number, place)
        layout = self.layout
        if place.kind is PlaceKind.STOCK:
            x, y = layout.stock_centre(place.player, place.index) if place.index < 5 else layout.spare_slot_centre(place.player)
            return Pose(x + rng.normal(0, 4), y + rng.normal(0, 5), self._owner_angle(place.player) + rng.normal(0, 4))
        if place.kind is PlaceKind.SPIT_PILE:
            x, y = layout.spit_pile_centre(place.index)
            return Pose(x + rng.normal(0, 6), y + rng.normal(0, 6), rng.normal(0, 20))
        if place.kind is PlaceKind.SPIT_STACK:
            x, y = layout.spit_stack_centre(place.player)
            return Pose(x + rng.normal(0, 5), y + rng.normal(0, 5), self._owner_angle(place.player) + 90 + rng.normal(0, 10))
        rest = layout.rest_position(place.player or "A")
        return Pose(rest[0], rest[1], self._owner_angle(place.player))

    def _card_pose(self, base: Pose, place: Place, depth: int, key: object) -> Pose:
        rng = self._rng("card", key, place, depth)
        spread, turn = (2.5, 7.0) if place.kind is PlaceKind.SPIT_PILE else (1.2, 2.5)
        return Pose(base.x + rng.normal(0, spread), base.y + rng.normal(0, spread), base.angle + rng.normal(0, turn))

    # -------------------------------------------------------------- timeline

    def _round_timeline(self, round_: RoundScript) -> list[tuple[float, int, str, object]]:
        """(time, order, op, payload) changes to the piles within a round, sorted."""
        changes: list[tuple[float, int, str, object]] = []
        piles: dict[Place, list[TableCard]] = {}
        n = round_.number
        for player, stock_piles in round_.layout.stocks.items():
            for index, cards in enumerate(stock_piles):
                place = Place(PlaceKind.STOCK, index, player)
                base = self.place_pose(place, n)
                piles[place] = [TableCard(c, depth == len(cards) - 1, self._card_pose(base, place, depth, (n, str(c)))) for depth, c in enumerate(cards)]
        for player, cards in round_.layout.spit_stacks.items():
            place = Place(PlaceKind.SPIT_STACK, 0, player)
            base = self.place_pose(place, n)
            piles[place] = [TableCard(c, False, self._card_pose(base, place, depth, (n, str(c)))) for depth, c in enumerate(cards)]
        changes.append((round_.t_start, 0, "reset", piles))
        self._settles.update(_settling(round_.actions))
        # replay the actions to know every card's final resting pose
        heights: dict[Place, int] = {place: len(cards) for place, cards in piles.items()}
        for order, action in enumerate(sorted(round_.actions, key=lambda a: (a.t_grab, a.t_start))):
            key = id(action)
            if action.kind is ActionKind.SLAP or action.card is None:
                continue
            if action.kind is ActionKind.TURN_UP:
                changes.append((action.t_release, order * 2 + 1, "turn_up", (action.source, action.card)))
                continue
            changes.append((action.t_grab, order * 2, "remove", (action.source, action.card)))
            if action.source is not None:
                heights[action.source] = max(0, heights.get(action.source, 0) - 1)
            target = action.target
            if target is None or target.kind is PlaceKind.HAND:
                continue
            depth = heights.get(target, 0)
            base = self.place_pose(target, n)
            pose = self._card_pose(base, target, depth, (n, str(action.card), order))
            if target.kind is PlaceKind.SPIT_PILE:  # a played card lies roughly the way its player holds it
                pose = Pose(pose.x, pose.y, pose.angle + self._owner_angle(action.player) + self._rng("turn", n, order).normal(0, 8))
            self._final_poses[key] = pose
            heights[target] = depth + 1
            changes.append((self.settles_at(action), order * 2 + 1, "add", (target, TableCard(action.card, action.face_up_on_arrival or target.kind is not PlaceKind.SPIT_STACK, pose))))
        changes.append((round_.t_end if round_.t_end > round_.t_start else math.inf, 10**9, "clear", None))
        changes.sort(key=lambda c: (c[0], c[1]))
        # the card touches whatever lies on top of the pile at its touch instant
        for action in round_.actions:
            final = self._final_poses.get(id(action))
            if final is not None:
                self._contact_poses[id(action)] = self._contact_pose(action, final, self._top_at(changes, action.target, action.t_touch))
        return changes

    @staticmethod
    def _top_at(changes: list[tuple[float, int, str, object]], place: Place, t: float) -> Pose | None:
        cards: list[TableCard] = []
        for time, _, op, payload in changes:
            if time > t:
                break
            if op == "reset":
                cards = list(payload.get(place, []))
            elif op == "clear":
                cards = []
            elif op in ("remove", "add") and payload[0] == place:
                if op == "add":
                    cards.append(payload[1])
                else:
                    for i in range(len(cards) - 1, -1, -1):
                        if cards[i].card == payload[1]:
                            cards.pop(i)
                            break
        return cards[-1].pose if cards else None

    def _contact_pose(self, action: Action, final: Pose, pile_top: Pose | None) -> Pose:
        """Where the carried card is when its outline first touches the pile's top card: `final`, moved back
        towards the card's source until the outlines just meet (bisection: they overlap by under 0.05 mm)."""
        if pile_top is None:
            return final
        source = self.source_pose(action)
        direction = np.array([source.x - final.x, source.y - final.y])
        if np.linalg.norm(direction) < 1e-6:
            return final
        direction /= np.linalg.norm(direction)
        top = pile_top.corners()
        inside, outside = 0.0, 200.0
        while outside - inside > 0.05:
            middle = (inside + outside) / 2
            moved = Pose(final.x + direction[0] * middle, final.y + direction[1] * middle, final.angle)
            if _overlaps(moved.corners(), top):
                inside = middle
            else:
                outside = middle
        return Pose(final.x + direction[0] * inside, final.y + direction[1] * inside, final.angle)

    def source_pose(self, action: Action) -> Pose:
        round_number = self._round_for(action.t_grab).number
        if action.source is None:
            return self.place_pose(Place(PlaceKind.HAND, 0, action.player), round_number)
        return self.place_pose(action.source, round_number)

    def _round_for(self, t: float) -> RoundScript:
        current = self._rounds[0]
        for round_ in self._rounds:
            if round_.t_start <= t:
                current = round_
        return current

    # -------------------------------------------------------------- state at t

    def state(self, t: float) -> SceneState:
        piles: dict[Place, list[TableCard]] = {}
        version = 0
        current = -1
        for round_index, round_ in enumerate(self._rounds):
            if round_.t_start <= t:
                current = round_index
        # each round starts from its own layout ("reset"), so only the current round's changes matter
        changes = self._timelines[current] if current >= 0 else []
        for time, _, op, payload in changes:
            if time > t:
                break
            version += 1
            if op == "reset":
                piles = {place: list(cards) for place, cards in payload.items()}
            elif op == "clear":
                piles = {}
            elif op == "remove":
                place, card = payload
                cards = piles.get(place, [])
                for i in range(len(cards) - 1, -1, -1):
                    if cards[i].card == card:
                        cards.pop(i)
                        break
            elif op == "add":
                place, table_card = payload
                piles.setdefault(place, []).append(table_card)
            elif op == "turn_up":
                place, card = payload
                piles[place] = [TableCard(c.card, True, c.pose) if c.card == card else c for c in piles.get(place, [])]
        version = (current, version)
        # cards lying where they were before a turn-up are copied, so flags do not leak between states
        piles = {place: [TableCard(c.card, c.face_up, c.pose) for c in cards] for place, cards in piles.items()}
        round_ = self._round_for(t)
        moving, hands = [], []
        for action in round_.actions:
            if action.t_start <= t < action.t_end:
                hands.append(self._hand_pose(action, t))
            if action.card is not None and action.t_grab <= t < self.settles_at(action):
                moving_card = self._moving_card(action, t, piles)
                if moving_card is not None:
                    moving.append(moving_card)
        hidden = tuple(sorted(str(m.card) for m in moving if m.action.kind is ActionKind.TURN_UP))
        busy = {(h.player, h.hand) for h in hands}
        for player in ("A", "B"):
            for hand in ("main", "other"):
                if (player, hand) not in busy:
                    x, y = self.rest_point(player, hand)
                    hands.append(HandPose(player, hand, x, y, 40.0, False, (0.0, 0.0), resting=True))
        hands.sort(key=lambda h: (h.lift, h.player, h.hand))
        resting = tuple((h.player, h.hand) for h in hands if h.resting)
        return SceneState(t, piles, moving, hands, (version, hidden, resting))

    def rest_point(self, player: str, hand: str) -> tuple[float, float]:
        rng = self._rng("rest", player, hand)
        x, y = self.layout.rest_position(player)
        if hand == "other":
            x = self.layout.width - x
            x += -60 if player == "A" else 60
        return x + rng.normal(0, 15), y + rng.normal(0, 15) + (40 if player == "A" else -40)

    def _carry_pose(self, action: Action, t: float) -> tuple[Pose, float, float]:
        """Pose, flip (1 flat .. 0 edge-on) and lift of the card an action carries, at t."""
        start = self.source_pose(action)
        key = id(action)
        if action.kind is ActionKind.TURN_UP:
            s = (t - action.t_grab) / max(1e-6, action.t_release - action.t_grab)
            return start, abs(math.cos(math.pi * s)), 25 * math.sin(math.pi * s)
        final = self._final_poses.get(key)
        if final is None:  # carried off the table (taken back)
            rest = self.layout.rest_position(action.player)
            final = Pose(rest[0], rest[1] + (-150 if action.player == "A" else 150), start.angle)
        contact = self._contact_poses.get(key, final)
        flipping = action.kind is ActionKind.SPIT
        if t < action.t_touch:
            # accelerate from the pile and arrive moving (a card is slid onto a pile, it does not stop short)
            u = min(1.0, max(0.0, (t - action.t_grab) / max(1e-6, action.t_touch - action.t_grab)))
            s = u * u * (2 - u)
            turn = min(1.0, s / 0.7)  # the card is turned to its landing angle before the last approach
            pose = Pose(_lerp(start.x, contact.x, s), _lerp(start.y, contact.y, s), _angle_lerp(start.angle, final.angle, turn))
            flip = abs(math.cos(math.pi * min(1.0, s / 0.6))) if flipping else 1.0
            return pose, flip, 30 * math.sin(math.pi * s) + 2
        u = min(1.0, max(0.0, (t - action.t_touch) / max(1e-6, self.settles_at(action) - action.t_touch)))
        s = 1 - (1 - u) ** 2  # and slows to rest on it
        return Pose(_lerp(contact.x, final.x, s), _lerp(contact.y, final.y, s), final.angle), 1.0, 2 * (1 - s)

    def _moving_card(self, action: Action, t: float, piles: dict[Place, list[TableCard]]) -> MovingCard | None:
        pose, flip, lift = self._carry_pose(action, t)
        before, _, _ = self._carry_pose(action, max(action.t_grab, t - 0.01))
        speed = ((pose.x - before.x) / 0.01, (pose.y - before.y) / 0.01)
        if action.kind is ActionKind.TURN_UP:
            s = (t - action.t_grab) / max(1e-6, action.t_release - action.t_grab)
            face_up = s >= 0.5
        elif action.kind is ActionKind.SPIT:
            s = (t - action.t_grab) / max(1e-6, action.t_touch - action.t_grab)
            face_up = s >= 0.3 or t >= action.t_touch
        else:
            face_up = True
        if action.kind is ActionKind.TURN_UP and action.source is not None:
            # the card being turned stays in its pile's list; hide it there while it is in the air
            cards = piles.get(action.source, [])
            for i in range(len(cards) - 1, -1, -1):
                if cards[i].card == action.card:
                    cards.pop(i)
                    break
        return MovingCard(action.card, pose, face_up, flip, lift, speed, action)

    def _hand_target(self, action: Action, t: float) -> tuple[float, float]:
        if action.kind is ActionKind.SLAP:
            target = self.place_pose(action.target, self._round_for(t).number)
            return target.x, target.y
        pose, _, _ = self._carry_pose(action, min(max(t, action.t_grab), action.t_release - 1e-6))
        # the fingers pinch the card's near edge; the palm stays on the player's side of it
        shoulder = shoulder_point(self.layout, action.player, action.hand)
        reach = np.array([pose.x, pose.y]) - shoulder
        reach /= max(1e-6, float(np.linalg.norm(reach)))
        return pose.x - reach[0] * GRIP_MM, pose.y - reach[1] * GRIP_MM

    def _hand_pose(self, action: Action, t: float) -> HandPose:
        rest = self.rest_point(action.player, action.hand)
        slap = action.kind is ActionKind.SLAP
        arrive = action.t_touch if slap else action.t_grab
        leave = action.t_release
        if t < arrive:
            s = _smooth((t - action.t_start) / max(1e-6, arrive - action.t_start))
            x0, y0 = rest
            x1, y1 = self._hand_target(action, arrive)
            x, y, lift = _lerp(x0, x1, s), _lerp(y0, y1, s), 40 + 60 * math.sin(math.pi * s)
        elif t < leave:
            x, y = self._hand_target(action, t)
            lift = 5.0 if slap else 25.0
        else:
            s = _smooth((t - leave) / max(1e-6, action.t_end - leave))
            x0, y0 = self._hand_target(action, leave)
            x, y, lift = _lerp(x0, rest[0], s), _lerp(y0, rest[1], s), 40 + 50 * math.sin(math.pi * s)
        return HandPose(action.player, action.hand, x, y, lift, slap, (0.0, 0.0))


def _settling(actions) -> dict[int, float]:
    """id(action) -> when its card comes to rest, for the cards that must rest before their release: a card
    that touched a pile first and is still held when a card laid on it after is let go. That card lies on
    it, so the first rests (just) before, whatever the first hand does after."""
    onto = [a for a in actions if a.card is not None and a.target is not None and a.kind is not ActionKind.SLAP
            and a.target.kind is PlaceKind.SPIT_PILE]
    settles: dict[int, float] = {}
    for first in onto:
        for later in onto:
            if later is not first and later.target == first.target and first.t_touch < later.t_touch < first.t_release \
                    and later.t_release < first.t_release:
                settles[id(first)] = min(settles.get(id(first), first.t_release), later.t_release - 1e-4)
    return settles


def visible_pile_cards(cards: list[TableCard]) -> list[TableCard]:
    """The cards of a pile worth drawing: the top few (the rest are hidden beneath them)."""
    return cards[-DRAWN_PILE_DEPTH:]


def all_table_cards(state: SceneState) -> list[tuple[Place | None, TableCard | MovingCard]]:
    """Every card drawn this instant, bottom first: pile cards, then cards in the air."""
    out: list[tuple[Place | None, TableCard | MovingCard]] = []
    for place in sorted(state.piles, key=str):
        for card in visible_pile_cards(state.piles[place]):
            out.append((place, card))
    for moving in sorted(state.moving, key=lambda m: (m.lift, m.action.t_grab)):
        out.append((None, moving))
    return out


__all__ = ["Pose", "TableCard", "MovingCard", "HandPose", "SceneState", "Scene", "all_table_cards", "visible_pile_cards", "shoulder_point"]
