"""`referee simulate`: a simulated game, rendered to video with its true event log, or its events only.

    referee simulate --seed 7                              # prints the game's true event log
    referee simulate --seed 7 --out DIR --events-only      # DIR/truth.jsonl, no rendering
    referee simulate --seed 7 --out DIR [--fps 60] [--size 1080p] [--seconds 30]   # DIR/video.mp4 + truth
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import sys
from typing import Iterable

from referee.errors import InputFileError, NotBuiltYet
from referee.rules.events import Event, EventLogWriter
from referee.sim.config import SimConfig
from referee.sim.game import simulate_game
from referee.sim.script import GameScript


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="Render a simulated game with its true event log.",
        description="Simulate a whole game of Spit between two players from a seed. Renders DIR/video.mp4 with "
        "DIR/truth.jsonl and DIR/corners.json; with --events-only (or without --out) only the true event log.",
    )
    parser.add_argument("--seed", type=_seed, required=True, help="the game's seed (the same seed, the same game)")
    parser.add_argument("--out", type=pathlib.Path, help="output folder; without it the event log is printed")
    parser.add_argument("--fps", type=int, choices=(30, 60), default=30, help="frames per second (default 30)")
    parser.add_argument("--size", choices=("720p", "1080p"), default="720p", help="video size (default 720p)")
    parser.add_argument("--seconds", type=_positive, help="only the first S seconds of the game")
    parser.add_argument("--events-only", action="store_true", help="write DIR/truth.jsonl without rendering")
    parser.add_argument("--parallax", action="store_true",
                        help="draw hands and cards in the air where the camera sees them (displaced by their height), "
                             "as a real camera does; their shadows stay on the table")
    parser.add_argument("--card-size", choices=("poker", "bridge"), default="poker",
                        help="the cards' size on the table: poker (63 x 88 mm, default) or bridge (57 x 89 mm)")
    parser.add_argument("--win-rule", choices=("standard", "scoring"), default="standard",
                        help="standard win, or the scoring variant to 100 points (default standard)")
    parser.add_argument("--max-game-seconds", type=_positive, default=SimConfig().max_seconds,
                        help=f"stop the game at the first round end after this (default {SimConfig().max_seconds:g})")
    parser.set_defaults(handler=run)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, got {text!r}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def frame_of(t: float, fps: int) -> int:
    """The first frame at or after `t` (frame k is shown at k / fps seconds)."""
    return max(0, math.ceil(t * fps - 1e-9))


def framed_events(script: GameScript, fps: int, seconds: float | None = None) -> list[Event]:
    events: Iterable[Event] = script.truth
    if seconds is not None:
        events = [event for event in events if event.t <= seconds]
    return [event.with_frame(frame_of(event.t, fps)) for event in events]


def run(args: argparse.Namespace) -> int:
    config = SimConfig(win_rule=args.win_rule, max_seconds=args.max_game_seconds)
    script = simulate_game(args.seed, config=config)
    if args.out is None:
        try:
            for event in framed_events(script, args.fps, args.seconds):
                sys.stdout.write(event.to_json() + "\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `referee simulate --seed 7 | head` is fine
            sys.stdout = open(os.devnull, "w")
        return 0
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputFileError(f"cannot create output folder {args.out}: {error.strerror or error}; choose another --out") from None
    if args.events_only:
        path = args.out / "truth.jsonl"
        with EventLogWriter(str(path)) as writer:
            writer.write_all(framed_events(script, args.fps, args.seconds))
        print(f"{path}: {writer.count} events, {len(script.rounds)} rounds, {script.duration:.1f} s of play")
        return 0
    try:
        from referee.synth.render import render_game
    except ImportError as error:
        raise NotBuiltYet(
            f"rendering a simulated game needs referee.synth.render, which is not built yet ({error}); "
            "use --events-only for the event log alone"
        ) from None
    result = render_game(script, args.out, fps=args.fps, size=args.size, seconds=args.seconds, seed=args.seed,
                         parallax=True if args.parallax else None, card_size=args.card_size)
    if result is None:
        print(f"{args.out}: rendered seed {args.seed}")
    else:
        width, height = result.size
        print(f"{args.out}: rendered seed {args.seed}: {result.frames} frames at {result.fps} fps, {width}x{height}, "
              f"deck {result.design}; video.mp4, truth.jsonl, corners.json, labels, contact_sheet.png")
    return 0
