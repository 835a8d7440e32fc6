"""The renderer's layers: a hand or card in the air seen where the camera sees it (parallax)."""

import numpy as np
import pytest

from referee.sim.script import GameScript
from referee.synth.camera import CameraPose, make_camera
from referee.synth.frames import TableRenderer

EMPTY = GameScript(seed=0, rounds=[], truth=[], duration=0.0)


@pytest.fixture(scope="module")
def tilted():
    """A camera 800 mm up, tilted 35 degrees: the steepest a test game is seen from."""
    return make_camera(CameraPose(height=800.0, tilt=35.0, heading=10.0), "480p")


def _layer(camera, parallax: bool, height: float):
    renderer = TableRenderer(EMPTY, size="480p", fps=15, seed=3, camera=camera, parallax=parallax, people=False, markers=False)
    g = renderer.geometry
    x, y = g.to_px(np.array([[650.0, 120.0]]))[0].round().astype(int)  # a patch well away from beneath the lens
    box = (x - 10, y - 10, x + 10, y + 10)
    colour = np.full((20, 20, 3), 200, np.float32)
    alpha = np.zeros((20, 20), np.float32)
    alpha[5:15, 5:15] = 1.0
    return renderer, renderer._layer((box, colour, alpha), height, (0.0, 0.0))


def _centre_mm(renderer, layer) -> np.ndarray:
    """The alpha-weighted centre of a layer's patch, in table mm."""
    rows, cols = np.nonzero(layer.alpha > 0)
    weights = layer.alpha[rows, cols]
    index = np.array([np.average(cols, weights=weights) + layer.box[0], np.average(rows, weights=weights) + layer.box[1]])
    g = renderer.geometry
    return (index + 0.5) / g.px_per_mm + np.array(g.origin)


def test_a_patch_in_the_air_is_drawn_where_the_camera_sees_it_and_its_shadow_stays_on_the_table(tilted):
    height = 45.0
    flat, flat_layer = _layer(tilted, False, height)
    seen, seen_layer = _layer(tilted, True, height)
    beneath, drawn = _centre_mm(flat, flat_layer), _centre_mm(seen, seen_layer)
    # the camera's ray through the point 45 mm over `beneath` meets the table where the patch is drawn
    assert np.allclose(tilted.project(beneath[None], height), tilted.project(drawn[None], 0.0), atol=0.3)
    assert np.linalg.norm(drawn - beneath) > 20  # far from beneath the lens, tens of mm
    assert seen_layer.extent == flat_layer.extent and np.array_equal(seen_layer.shadow, flat_layer.shadow)
    box = seen_layer.reach
    assert box[0] <= min(seen_layer.box[0], seen_layer.extent[0]) and box[2] >= max(seen_layer.box[2], seen_layer.extent[2])


def test_a_patch_on_the_table_is_drawn_where_it_lies(tilted):
    flat, flat_layer = _layer(tilted, False, 0.0)
    seen, seen_layer = _layer(tilted, True, 0.0)
    assert seen_layer.box == flat_layer.box and np.array_equal(seen_layer.alpha, flat_layer.alpha)


def test_a_hand_is_seen_low_at_its_fingertips_and_high_up_its_arm(tilted):
    """The fingers pinching a card are near the card; the palm over it; the arm rising to the shoulder."""
    from referee.synth.frames import ARM_HIGHEST, FINGER_REACH_MM, FINGERTIP_MM, HAND_OUTLINE_MM
    from referee.synth.scene import HandPose, shoulder_point

    renderer = TableRenderer(EMPTY, size="480p", fps=15, seed=3, camera=tilted, parallax=True, people=False, markers=False)
    hand = HandPose("A", "main", 400.0, 200.0, 25.0, False, (0.0, 0.0))
    heights = renderer._hand_heights(hand)
    palm = np.array([hand.x, hand.y])
    reach = palm - shoulder_point(renderer.layout, "A", "main")
    reach /= np.linalg.norm(reach)
    g = renderer.geometry

    def at(distance):  # mm along the reach from the palm's centre
        x, y = g.to_px((palm + reach * distance)[None])[0]
        return float(heights(np.array([x]), np.array([y]))[0])

    assert at(0) == pytest.approx(25 + HAND_OUTLINE_MM, abs=0.5)
    assert at(FINGER_REACH_MM) == pytest.approx(25 - FINGERTIP_MM, abs=0.5)
    assert at(-100) > at(0) and at(-2000) == pytest.approx(ARM_HIGHEST)


def test_with_parallax_a_card_in_the_air_is_labelled_where_it_is_drawn(tilted):
    from types import SimpleNamespace

    from referee.rules.cards import Card
    from referee.synth.canvas import card_outline
    from referee.synth.scene import MovingCard, Pose, SceneState

    pose = Pose(650.0, 120.0, 10.0)
    moving = MovingCard(Card.parse("5S"), pose, True, 1.0, 30.0, (0.0, 0.0), SimpleNamespace(t_grab=0.0))
    state = SceneState(0.0, {}, [moving], [], ())
    quads = {}
    for parallax in (False, True):
        renderer = TableRenderer(EMPTY, size="480p", fps=15, seed=3, camera=tilted, parallax=parallax, people=False, markers=False)
        quads[parallax] = np.array(renderer.labels(state, [], 0)["cards"][0]["quad"])
    assert np.allclose(quads[False], tilted.project(card_outline(pose, 1.0)), atol=0.1)
    assert np.allclose(quads[True], tilted.project(card_outline(pose, 1.0), 30.0), atol=0.1)
    assert np.abs(quads[True] - quads[False]).max() > 5  # pixels: the lift shows


def test_a_bridge_size_card_is_labelled_at_its_size_with_its_indices_inside_it(tilted):
    from types import SimpleNamespace

    from referee.rules.cards import Card
    from referee.synth.canvas import CARD_SIZES, card_outline
    from referee.synth.scene import MovingCard, Pose, SceneState

    pose = Pose(650.0, 120.0, 10.0)
    moving = MovingCard(Card.parse("5S"), pose, True, 1.0, 0.0, (0.0, 0.0), SimpleNamespace(t_grab=0.0))
    state = SceneState(0.0, {}, [moving], [], ())
    renderer = TableRenderer(EMPTY, size="480p", fps=15, seed=3, camera=tilted, people=False, markers=False,
                             card_mm=CARD_SIZES["bridge"])
    card = renderer.labels(state, [], 0)["cards"][0]
    assert np.allclose(card["quad"], tilted.project(card_outline(pose, 1.0, CARD_SIZES["bridge"])), atol=0.1)
    assert not np.allclose(card["quad"], tilted.project(card_outline(pose, 1.0)), atol=1.0)
    quad = np.array(card["quad"], np.float32)
    import cv2
    for box in card["index_boxes"]:
        assert all(cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0 for x, y in box["quad"])
