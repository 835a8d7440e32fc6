"""Clips cut just before a round's slaps: `python -m benchmarks.clip_slaps [--keep DIR] [--models DIR]`.

Who slapped which pile first at a round's end is the call players argue over most, and the clip brought to
settle it is often cut close before the slaps: as the last stock card is laid, or after it. The racing games
of `touch_order` (the same seeds, rendered the same way: `--keep` may share its folder) that reach a round's
end are cut into CLIP_SECONDS clips opening each of BEFORE_SLAPS seconds before the first slap, refereed with
the models and scored as `referee_accuracy` scores a game: each slap (its player and pile) and the round's
end (who takes which pile). Results go to stdout and to benchmarks/results/clip_slaps.json.
"""

from __future__ import annotations

import json
import sys

from benchmarks.referee_accuracy import cut_clip, run_game, summarise, variant_arguments, write_report
from benchmarks.rendered import game_folder
from benchmarks.touch_order import GAMES, render

#: how long before the round's first slap each clip opens (s): from before the last stock card is laid to
#: the hands already on their way
BEFORE_SLAPS = (2.0, 1.2, 0.8, 0.5, 0.3)
CLIP_SECONDS = 4.0


def main() -> int:
    args = variant_arguments(__doc__, "clip_slaps")
    clips = []
    for seed, fps, seconds in GAMES:
        with game_folder(args.keep, f"seed{seed}_{fps}fps_{seconds:g}s") as folder:
            render(folder, seed, fps, seconds)
            truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line.strip()]
            slaps = [row["t"] for row in truth if row["type"] == "slap"]
            if not slaps:
                continue
            for before in BEFORE_SLAPS:
                start = round(slaps[0] - before, 2)
                clip = run_game(seed, fps, CLIP_SECONDS, cut_clip(folder, start, CLIP_SECONDS), args.models, use_labels=False)
                clip["starts_at"], clip["before_slaps_s"] = start, before
                clips.append(clip)
                print(json.dumps({key: clip[key] for key in ("seed", "fps", "before_slaps_s", "slaps", "round_ends")}), flush=True)
    summary = summarise(clips)
    summary["by_opening"] = {
        f"{before:g}s": {"clips": len(rows), "slaps_right": sum(s["pile_right"] for c in rows for s in c["slaps"]),
                         "slaps": sum(len(c["slaps"]) for c in rows),
                         "takes_right": sum(r["takes_right"] for c in rows for r in c["round_ends"])}
        for before in BEFORE_SLAPS for rows in [[clip for clip in clips if clip["before_slaps_s"] == before]]}
    write_report(args.out, summary, clips)
    return 0


if __name__ == "__main__":
    sys.exit(main())
