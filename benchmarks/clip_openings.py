"""Clips that open with cards being laid: `python -m benchmarks.clip_openings [--keep DIR] [--models DIR]`.

A clip cut around a disputed moment rarely starts on a quiet table: its first second often has a hand
laying a card, or two. The referee reads the layout only once the places are still, so those cards must
be ruled from what the first frame showed (see `referee.piles.opening`). Each game of the suite is cut
into CLIPS_PER_GAME clips of CLIP_SECONDS, each opening 0.12-0.6 s before one of its plays (picked by
the game's seed, away from its first three seconds), refereed with the models and scored as in
`referee_accuracy` (all of each clip, but its last 0.8 s), and the plays of each clip's first second
apart (`opening_second`). Results go to stdout and to benchmarks/results/clip_openings.json.
"""

from __future__ import annotations

import json
import pathlib
import random
import sys

from benchmarks.referee_accuracy import SUITE, cut_clip, run_game, summarise, variant_arguments, write_report
from benchmarks.rendered import game_folder, render_once

CLIPS_PER_GAME = 3
CLIP_SECONDS = 8.0
#: the clip's opening, scored apart
OPENING_SECONDS = 1.0


def cut_points(truth_path: pathlib.Path, seed: int, seconds: float, count: int = CLIPS_PER_GAME,
               after_touch: float | None = None) -> list[float]:
    """Where to cut the game into `count` clips: a little before plays picked by the seed, or, with
    `after_touch`, that many seconds after each of the same plays touched its pile."""
    chance = random.Random(seed)
    plays = [json.loads(line) for line in truth_path.read_text().splitlines() if line.strip()]
    plays = [row for row in plays if row["type"] in ("play", "spit") and 3.0 <= row["t"] <= seconds - CLIP_SECONDS]
    picked = sorted(chance.sample(plays, min(count, len(plays))), key=lambda row: row["t"])
    if after_touch is not None:
        return [round(row["t"] + after_touch, 2) for row in picked]
    return [round(row["t"] - chance.uniform(0.12, 0.6), 2) for row in picked]


def opening_second(clip: pathlib.Path) -> dict:
    """The plays of the clip's first second: true, found, fully right, invented."""
    from referee.report.compare import Comparison, compare
    from referee.rules.events import read_event_log

    # matched over the whole clip, then counted by the true play's time (an invented one by its own): a play
    # laid at 1.04 s and found at 0.99 s is not both missed after the first second and invented in it
    comparison = compare(read_event_log(str(clip / "truth.jsonl")), read_event_log(str(clip / "events.jsonl")))
    pairs = [(true, found) for true, found in comparison.pairs if true.t < OPENING_SECONDS]
    missed = [true for true in comparison.missed if true.t < OPENING_SECONDS]
    return {"true": len(pairs) + len(missed), "found": len(pairs), "all_right": round(Comparison(pairs=pairs).all_right * len(pairs)),
            "extra": sum(1 for found in comparison.extra if found.t < OPENING_SECONDS)}


def main() -> int:
    args = variant_arguments(__doc__, "clip_openings")
    clips = []
    for seed, fps, seconds in SUITE:
        with game_folder(args.keep, f"seed{seed}_{fps}fps_{seconds:g}s") as folder:
            render_once(folder, seed, fps, seconds)
            for start in cut_points(folder / "truth.jsonl", seed, seconds):
                clip_folder = cut_clip(folder, start, CLIP_SECONDS)
                clip = run_game(seed, fps, CLIP_SECONDS, clip_folder, args.models, use_labels=False)
                clip["starts_at"] = start
                clip["opening_second"] = opening_second(clip_folder)
                clips.append(clip)
                print(json.dumps({k: clip[k] for k in ("seed", "fps", "starts_at", "true_card_events", "found", "extra",
                                                       "all_right", "opening_second")}), flush=True)
    summary = summarise(clips)
    summary["opening_second"] = {key: sum(clip["opening_second"][key] for clip in clips)
                                 for key in ("true", "found", "all_right", "extra")}
    write_report(args.out, summary, clips)
    return 0


if __name__ == "__main__":
    sys.exit(main())
