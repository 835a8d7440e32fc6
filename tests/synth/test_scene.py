import numpy as np
import pytest

from referee.sim.game import simulate_game
from referee.sim.script import ActionKind, PlaceKind
from referee.synth.example_script import example_script
from referee.synth.scene import Scene, _overlaps

EPSILON = 1e-3


def _scripts():
    return [("example", example_script(0, 12)), ("sim-1", simulate_game(1)), ("sim-4", simulate_game(4))]


@pytest.mark.parametrize("name, script", _scripts())
def test_a_played_card_first_touches_its_pile_at_t_touch(name, script):
    """The card's outline is clear of the pile's top card just before t_touch and on it just after."""
    scene = Scene(script, seed=3)
    checked = 0
    for action in script.actions():
        if action.kind not in (ActionKind.PLAY, ActionKind.SPIT) or action.target.kind is not PlaceKind.SPIT_PILE:
            continue
        before = scene.state(action.t_touch - EPSILON)
        pile = before.piles.get(action.target, [])
        if not pile:
            continue  # the opening spit starts an empty pile
        racing = [m for m in before.moving if m.action is not action and m.action.target == action.target]
        if racing:
            continue  # two cards in the air for one pile: the top card changes under them
        top = pile[-1].pose.corners()
        carried = [m for m in before.moving if m.action is action]
        assert carried, f"{name}: {action.card} is not in the air just before its touch"
        assert not _overlaps(carried[0].pose.corners(), top), f"{name}: {action.card} touched its pile before t_touch"
        after = [m for m in scene.state(action.t_touch + EPSILON).moving if m.action is action]
        if after:
            assert _overlaps(after[0].pose.corners(), top), f"{name}: {action.card} has not touched its pile after t_touch"
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name, script", _scripts())
def test_the_52_cards_are_all_on_the_table_or_in_a_hand(name, script):
    scene = Scene(script, seed=0)
    first = script.rounds[0]
    for t in np.linspace(first.t_start + 0.01, first.t_end - 0.01, 40):
        state = scene.state(float(t))
        lying = [c.card for cards in state.piles.values() for c in cards]
        flying = [m.card for m in state.moving if m.action.kind is not ActionKind.TURN_UP]
        turning = [m.card for m in state.moving if m.action.kind is ActionKind.TURN_UP]
        everything = lying + flying + turning
        assert len(everything) == len(set(everything)), f"{name}: a card is in two places at t={t:.2f}"
        assert len(everything) <= 52
        if not state.moving:
            taken_back = sum(1 for a in first.actions if a.kind is ActionKind.TAKE_BACK and a.t_release <= t)
            assert len(everything) + taken_back == 52, f"{name}: cards missing at t={t:.2f}"


def test_state_is_a_pure_function_of_time():
    script = simulate_game(2)
    scene = Scene(script, seed=1)
    forward = [scene.state(t) for t in (3.0, 7.5, 12.25)]
    backward = [scene.state(t) for t in (12.25, 7.5, 3.0)][::-1]
    for a, b in zip(forward, backward):
        assert a.version == b.version
        assert {str(k): [(str(c.card), c.face_up, c.pose) for c in v] for k, v in a.piles.items()} == \
               {str(k): [(str(c.card), c.face_up, c.pose) for c in v] for k, v in b.piles.items()}


def _held_over_pairs(script):
    """(first, later): two cards played on one spit pile, the later touching while the first is held and let
    go before it."""
    plays = [a for a in script.actions() if a.kind is ActionKind.PLAY and a.target.kind is PlaceKind.SPIT_PILE]
    return [(first, later) for first in plays for later in plays
            if later is not first and later.target == first.target
            and first.t_touch < later.t_touch < first.t_release and later.t_release < first.t_release]


def test_two_cards_on_one_pile_stack_in_the_order_they_touched_it():
    """A card touched first and held longer still lies under the card laid on it after: it rests as that one
    is let go, never drawn over it (racing seed 191 has two such pairs)."""
    from benchmarks.touch_order import racing_players

    script = simulate_game(191, config=racing_players(30)[0])
    pairs = _held_over_pairs(script)
    assert pairs
    scene = Scene(script, seed=191)
    for first, later in pairs:
        state = scene.state(later.t_release + EPSILON)
        pile = [c.card for c in state.piles[first.target]]
        assert first.card in pile and later.card in pile, "both cards rest on the pile once the later is let go"
        assert pile.index(first.card) < pile.index(later.card), f"{first.card} drawn over {later.card}, laid on it"
        assert not [m for m in state.moving if m.action is first]
        # the first hand still lies on its card until its own release
        hand = [h for h in state.hands if h.player == first.player and h.hand == first.hand and not h.resting]
        assert hand
