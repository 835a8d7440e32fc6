"""Cards laid turned on a spit pile: `python -m benchmarks.turned_tops [--quick] [--setups N] [--models DIR]`.

Players slap their cards down fast, and a card often lands well turned on the one beneath; the
referee must still find where it lies and name it. Each setup (a camera, table, light and deck drawn
from its seed, as a rendered game's are) shows a still table: each player's five stock cards and a card
on each spit pile. Then player A's hand comes to spit pile 0 and leaves a card there turned ANGLE
degrees from the card beneath (either way, a few mm off its centre), and the tracker, stepped frame by
frame as in a replay, says what arrived. Per angle: right (the card), rank only (`K?` for a king),
wrong (another card), unnamed (nothing ruled, or no card named), and the share right. Results go to
stdout and to benchmarks/results/turned_tops.json.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys
import tempfile
import time

import numpy as np

#: How far the card laid is turned from the card beneath (degrees), each way at random.
ANGLES = (0, 10, 20, 30, 40, 50, 90)
#: Frames of the table before the hand sets off (the layout is read once every place has been still), of
#: its way to the pile and back (it never stops: a hand held still is taken into the table's picture), and
#: of the table after (a second and a half: anything the tracker holds back is ruled by then).
BEFORE_FRAMES, WAY_FRAMES, AFTER_FRAMES = 40, 6, 45
FPS = 30


def scenes(rng: np.random.Generator, layout, angle: float):
    """(the frames' scenes, the card beneath, the card laid)."""
    from referee.rules.cards import full_deck
    from referee.sim.script import Place, PlaceKind
    from referee.synth.dataset import StillScene
    from referee.synth.scene import HandPose, Pose, TableCard

    deck = full_deck()
    cards = [deck[i] for i in rng.permutation(len(deck))[:14]]
    piles = {}
    for number, (player, slot) in enumerate((player, slot) for player in "AB" for slot in range(5)):
        x, y = layout.stock_centre(player, slot)
        turn = 180.0 if player == "B" else 0.0
        piles[Place(PlaceKind.STOCK, slot, player)] = [TableCard(cards[number], True, Pose(x + rng.normal(0, 2), y + rng.normal(0, 2), turn + rng.normal(0, 3)))]
    x, y = layout.spit_pile_centre(1)
    piles[Place(PlaceKind.SPIT_PILE, 1)] = [TableCard(cards[10], True, Pose(x, y, rng.normal(0, 15)))]
    x, y = layout.spit_pile_centre(0)
    base = float(rng.normal(0, 20))
    beneath = TableCard(cards[11], True, Pose(x + rng.normal(0, 3), y + rng.normal(0, 3), base))
    laid = TableCard(cards[12], True, Pose(x + rng.normal(0, 4), y + rng.normal(0, 4), base + rng.choice((-1, 1)) * angle))
    before = {**piles, Place(PlaceKind.SPIT_PILE, 0): [beneath]}
    after = {**piles, Place(PlaceKind.SPIT_PILE, 0): [beneath, laid]}
    seat = layout.stock_centre("A", 2)

    def hand_at(share: float) -> list[HandPose]:
        return [HandPose("A", "main", seat[0] + share * (x - seat[0]), seat[1] + share * (y - seat[1]), 10.0, False, (0.0, 0.0))]
    frames = [StillScene(before, [])] * BEFORE_FRAMES
    frames += [StillScene(before, hand_at((step + 1) / WAY_FRAMES)) for step in range(WAY_FRAMES - 1)]
    frames += [StillScene(after, hand_at(1.0 - step / WAY_FRAMES)) for step in range(WAY_FRAMES + 1)]
    frames += [StillScene(after, [])] * AFTER_FRAMES
    return frames, beneath.card, laid.card


def referee_sees(renderer, frames: int, namer):
    """What the tracker rules arriving on spit pile 0, stepping through the renderer's frames."""
    from referee.capture.frames import Frame
    from referee.pipeline.calibration_input import load_calibration
    from referee.pipeline.run import TRACKING_PX_PER_MM
    from referee.piles.sightings import Arrival
    from referee.piles.table_view import TableView
    from referee.piles.tracker import TableTracker

    from referee.synth.render import corners_record

    width, height = renderer.camera.width, renderer.camera.height
    with tempfile.TemporaryDirectory() as scratch:  # the calibration a rendered game comes with, read as one
        path = pathlib.Path(scratch) / "corners.json"
        path.write_text(json.dumps(corners_record(renderer, FPS)))
        calibration = load_calibration(path, image_size=(width, height))
    view = TableView(calibration, calibration.area_mm, TRACKING_PX_PER_MM, (width, height))
    tracker = TableTracker(view, namer, fps=FPS)
    arrivals = []
    for index in range(frames):
        image, _ = renderer.render(index)
        sightings = tracker.step(Frame(index, index / FPS, image))
        arrivals += [s for s in sightings if isinstance(s, Arrival) and s.pile == 0 and index >= BEFORE_FRAMES]
    return arrivals


def verdict(arrivals, beneath, laid) -> str:
    if not arrivals or arrivals[-1].card is None:
        return "unnamed"
    card = arrivals[-1].card
    if card == laid:
        return "right"
    if card.suit is None and card.rank == laid.rank:
        return "rank_only"
    return "wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setups", type=int, default=40, help="setups (cameras, tables, decks) per angle")
    parser.add_argument("--quick", action="store_true", help="two setups per angle")
    parser.add_argument("--models", help="recognition models folder; default: the shipped models/")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results" / "turned_tops.json")
    args = parser.parse_args()
    from referee.pipeline.run import load_namer
    from referee.synth.dataset import stills_renderer
    from referee.table.layout import TableLayout

    if args.quick:
        args.setups = 2
    namer = load_namer(args.models)
    layout = TableLayout()
    counts = {angle: collections.Counter() for angle in ANGLES}
    misses = []
    started = time.perf_counter()
    for setup in range(args.setups):
        for angle in ANGLES:
            rng = np.random.default_rng([setup, angle, 20261204])
            frames, beneath, laid = scenes(rng, layout, angle)
            renderer = stills_renderer(frames, seed=50_000 + setup, layout=layout)
            arrivals = referee_sees(renderer, len(frames), namer)
            outcome = verdict(arrivals, beneath, laid)
            counts[angle][outcome] += 1
            if outcome != "right":
                misses.append({"setup": setup, "angle": angle, "design": renderer.design, "laid": str(laid), "beneath": str(beneath),
                               "ruled": [str(a.card) for a in arrivals]})
        print(json.dumps({"setup": setup, "so_far": {angle: counts[angle]["right"] for angle in ANGLES}}), flush=True)
    by_angle = {str(angle): {"setups": args.setups, "right_share": round(counts[angle]["right"] / max(args.setups, 1), 4),
                             **{key: counts[angle][key] for key in ("right", "rank_only", "wrong", "unnamed")}} for angle in ANGLES}
    report = {"by_angle": by_angle, "misses": misses, "seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(by_angle, indent=1))
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
