"""A small, hand-made GameScript for the renderer's own tests and benchmarks.

It is not a rules-complete game (that is referee.sim.game): a deal, the opening spit, a run of greedy
legal plays with stock cards turned up and an empty slot filled, then both players slap. The truth log
holds the spit and play events the script contains, with `t` the touch instant of each.
"""

from __future__ import annotations

import numpy as np

from referee.rules.cards import Card, can_play_on, full_deck
from referee.rules.events import Event, EventType
from referee.sim.script import Action, ActionKind, GameScript, Place, PlaceKind, RoundLayout, RoundScript


def _timed(player: str, kind: ActionKind, card: Card | None, source: Place | None, target: Place | None, start: float,
           rng: np.random.Generator, *, face_up: bool = True) -> Action:
    reach = float(rng.uniform(0.3, 0.45))
    carry = float(rng.uniform(0.3, 0.5)) if kind not in (ActionKind.TURN_UP, ActionKind.SLAP) else 0.25
    settle = float(rng.uniform(0.08, 0.15))
    back = float(rng.uniform(0.3, 0.45))
    t_grab = start + reach
    t_touch = t_grab + carry
    t_release = t_touch + settle
    return Action(player, kind, card, source, target, start, t_grab, t_touch, t_release, t_release + back, face_up_on_arrival=face_up)


def example_script(seed: int = 0, seconds: float = 12.0) -> GameScript:
    """A deterministic little game of about `seconds` seconds."""
    rng = np.random.default_rng(seed)
    deck = full_deck()
    order = rng.permutation(len(deck))
    cards = [deck[i] for i in order]
    hands = {"A": cards[:26], "B": cards[26:]}
    stocks: dict[str, list[list[Card]]] = {}
    spit_stacks: dict[str, list[Card]] = {}
    for player, dealt in hands.items():
        piles, position = [], 0
        for size in range(1, 6):
            piles.append(list(dealt[position: position + size]))
            position += size
        stocks[player] = piles
        spit_stacks[player] = list(dealt[position:])
    layout = RoundLayout(stocks={p: [list(s) for s in v] for p, v in stocks.items()}, spit_stacks={p: list(v) for p, v in spit_stacks.items()})

    actions: list[Action] = []
    truth: list[Event] = []
    spit_tops: list[Card | None] = [None, None]
    face_down = {p: [len(s) - 1 for s in stocks[p]] for p in stocks}  # cards below the face-up top
    start = 1.0
    for pile, player in enumerate(("A", "B")):
        card = spit_stacks[player].pop()
        action = _timed(player, ActionKind.SPIT, card, Place(PlaceKind.SPIT_STACK, 0, player), Place(PlaceKind.SPIT_PILE, pile), start + 0.05 * pile, rng)
        actions.append(action)
        truth.append(Event(EventType.SPIT, action.t_touch, None, {"player": player, "pile": pile, "card": str(card)}))
        spit_tops[pile] = card
    free_at = {"A": max(a.t_end for a in actions), "B": max(a.t_end for a in actions)}
    stuck: set[str] = set()
    for _ in range(400):
        player = "A" if free_at["A"] <= free_at["B"] else "B"
        now = free_at[player] + float(rng.uniform(0.1, 0.6))
        if now > seconds - 2.5:
            break
        stock_piles = stocks[player]
        # turn up a stock whose face-up top was played
        hidden = [i for i, s in enumerate(stock_piles) if s and face_down[player][i] == len(s)]
        if hidden:
            i = hidden[0]
            action = _timed(player, ActionKind.TURN_UP, stock_piles[i][-1], Place(PlaceKind.STOCK, i, player), Place(PlaceKind.STOCK, i, player), now, rng)
            face_down[player][i] -= 1
            actions.append(action)
            free_at[player] = action.t_end
            continue
        empty = [i for i, s in enumerate(stock_piles) if not s]
        tall = [i for i, s in enumerate(stock_piles) if len(s) >= 2]
        if empty and tall:
            source, target = tall[-1], empty[0]
            card = stock_piles[source].pop()
            stock_piles[target].append(card)
            face_down[player][target] = 0
            action = _timed(player, ActionKind.FILL_SLOT, card, Place(PlaceKind.STOCK, source, player), Place(PlaceKind.STOCK, target, player), now, rng)
            actions.append(action)
            free_at[player] = action.t_end
            continue
        playable = [(i, pile) for i, s in enumerate(stock_piles) if s for pile in (0, 1) if can_play_on(s[-1], spit_tops[pile])]
        if not playable:
            stuck.add(player)
            free_at[player] = now + 0.4
            if stuck == {"A", "B"} and spit_stacks["A"] and spit_stacks["B"]:  # a stall: both re-spit
                start = max(free_at.values()) + 0.3
                for pile, spitter in enumerate(("A", "B")):
                    card = spit_stacks[spitter].pop()
                    action = _timed(spitter, ActionKind.SPIT, card, Place(PlaceKind.SPIT_STACK, 0, spitter), Place(PlaceKind.SPIT_PILE, pile), start + 0.04 * pile, rng)
                    actions.append(action)
                    truth.append(Event(EventType.SPIT, action.t_touch, None, {"player": spitter, "pile": pile, "card": str(card)}))
                    spit_tops[pile] = card
                    free_at[spitter] = action.t_end
                stuck.clear()
            continue
        stuck.discard(player)
        i, pile = playable[int(rng.integers(len(playable)))]
        card = stock_piles[i].pop()
        on = spit_tops[pile]
        action = _timed(player, ActionKind.PLAY, card, Place(PlaceKind.STOCK, i, player), Place(PlaceKind.SPIT_PILE, pile), now, rng)
        actions.append(action)
        spit_tops[pile] = card
        truth.append(Event(EventType.PLAY, action.t_touch, None, {"player": player, "pile": pile, "card": str(card), "on": str(on), "legal": True}))
        free_at[player] = action.t_end
    slap_start = max(free_at.values()) + 0.3
    for offset, player, pile in ((0.0, "A", 0), (0.06, "B", 1)):
        action = _timed(player, ActionKind.SLAP, None, None, Place(PlaceKind.SPIT_PILE, pile), slap_start + offset, rng)
        actions.append(action)
        truth.append(Event(EventType.SLAP, action.t_touch, None, {"player": player, "pile": pile}))
    actions.sort(key=lambda a: a.t_start)
    truth.sort(key=lambda e: e.t)
    end = max(a.t_end for a in actions) + 0.5
    round_ = RoundScript(1, 0.0, layout, actions, end)
    return GameScript(seed, [round_], truth, end)
