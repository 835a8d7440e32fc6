"""How well the referee rules rendered games: `python -m benchmarks.referee_accuracy [--quick] [--models DIR]`.

For each game of the suite (seed, camera pose and deck are drawn by the renderer from the seed; 30 and
60 fps) it renders the first S seconds with the synthetic table, replays the clip through the whole
referee, and compares the log with the true one:

- plays found: recall and precision of `play`/`spit` events (same pile, within 0.25 s);
- of those found: player, card and legality right;
- touch order: right on true `touch_order` pairs, split by gap (> 1 frame, 1/3-1 frame, closer);
- touch-time error of found plays, in frame periods (median, 90th percentile);
- stalls called within 0.5 s, false stalls; slaps right;
- breaches (`violation` events: a sixth stock, a take-back, a play with the other hand) found, and called
  where there were none;
- speed: seconds of video refereed per second of processing (x real time), per-frame processing time;
- ruling delay: frames from the touch frame to the frame whose processing issued the ruling.

Clips that begin mid-game (`MID_GAME`: the same renders cut at a later second, re-encoded) are scored
apart: the referee must take up the table as it finds it, so the truth is compared from one second in.

Cards are named by the recognition models when they are installed (`--models`), otherwise from the
renderer's labels (`--labels`, the default when no models are found): the tracker, touch timing and
rules are then measured apart from recognition, and the output says so.
Results go to stdout and to benchmarks/results/referee_accuracy.json.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time
from typing import Callable, Iterator

from benchmarks.referee_codecs import CODECS, encoded_copy
from benchmarks.rendered import game_folder, render_once

#: Games the referee was never tuned on (seeds 4, 7, 10, 11, 14 and 21 were used while developing it;
#: `--games` runs any others). Short openings, and two long clips with stalls, slaps and a new round.
SUITE = [  # (seed, fps, seconds)
    (9, 30, 16.0), (27, 30, 16.0), (38, 60, 12.0), (1, 30, 16.0), (2, 30, 16.0), (6, 60, 12.0),
    (5, 30, 45.0), (8, 30, 40.0),
]
QUICK = [(9, 30, 10.0), (14, 60, 6.0)]
#: (seed, fps, seconds, cut at): suite games replayed from a later second, as a clip cut around a dispute
MID_GAME = [(5, 30, 45.0, 12.0), (8, 30, 40.0, 11.3), (2, 30, 16.0, 4.5), (38, 60, 12.0, 2.6)]
#: truth and rulings in a mid-game clip's first second are not scored (the layout is being read)
MID_GAME_SETTLING = 1.0


def cut_clip(folder: pathlib.Path, start: float, seconds: float | None = None) -> pathlib.Path:
    """The rendered game in `folder` from `start` s on (for `seconds`, or to its end), as its own game
    folder (video re-encoded, labels and truth moved to the clip's clock)."""
    import cv2

    clip = folder / (f"from_{start:g}s" if seconds is None else f"from_{start:g}s_for_{seconds:g}s")
    if (clip / "render.json").exists():
        return clip
    clip.mkdir(exist_ok=True)
    capture = cv2.VideoCapture(str(folder / "video.mp4"))
    fps = capture.get(cv2.CAP_PROP_FPS)
    skip = int(round(start * fps))
    stop = skip + int(round(seconds * fps)) if seconds is not None else None
    writer, index = None, 0
    while True:
        ok, image = capture.read()
        if not ok or (stop is not None and index >= stop):
            break
        if index >= skip:
            if writer is None:
                writer = cv2.VideoWriter(str(clip / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps,
                                         (image.shape[1], image.shape[0]))
            writer.write(image)
        index += 1
    capture.release()
    writer.release()
    offset = skip / fps
    for name in ("labels.jsonl", "truth.jsonl"):
        lines = []
        for line in (folder / name).read_text().splitlines():
            row = json.loads(line)
            if row.get("frame") is not None:
                if row["frame"] < skip or (stop is not None and row["frame"] >= stop):
                    continue
                row["frame"] -= skip
            if "t" in row:
                if row["t"] < offset or (stop is not None and row["t"] >= stop / fps):
                    continue
                row["t"] = round(row["t"] - offset, 6)
            lines.append(json.dumps(row))
        (clip / name).write_text("\n".join(lines) + "\n")
    (clip / "corners.json").write_bytes((folder / "corners.json").read_bytes())
    (clip / "render.json").write_text((folder / "render.json").read_text())
    return clip


def run_game(seed: int, fps: int, seconds: float, folder: pathlib.Path, models: str | None, use_labels: bool,
             *, t_from: float = 0.0) -> dict:
    from referee.pipeline.calibration_input import load_calibration
    from referee.pipeline.label_namer import LabelNamer
    from referee.pipeline.run import load_namer, replay
    from referee.report.compare import compare
    from referee.rules.events import read_event_log

    started = time.perf_counter()
    design = render_once(folder, seed, fps, seconds)  # kept from an earlier run with --keep
    render_seconds = time.perf_counter() - started
    size = (1280, 720)
    namer = (LabelNamer(folder / "labels.jsonl", load_calibration(folder / "corners.json", image_size=size))
             if use_labels else load_namer(models))
    result = replay(folder / "video.mp4", folder / "corners.json", folder / "events.jsonl", namer=namer)
    truth = [e for e in read_event_log(str(folder / "truth.jsonl")) if t_from <= e.t <= seconds - 0.8]
    found = [e for e in read_event_log(str(folder / "events.jsonl")) if t_from <= e.t <= seconds - 0.8]
    comparison = compare(truth, found)
    period = 1.0 / fps
    touch_rows = []
    for true, got in comparison.touch_pairs:
        gap_frames = float(true["gap_ms"]) / 1000 / period
        touch_rows.append({"gap_frames": round(gap_frames, 3), "right": got is not None and got["first"] == true["first"],
                           "found": got is not None, "too_close": got is not None and bool(got.get("too_close")),
                           "found_gap_ms": None if got is None else got.get("gap_ms")})
    delays = [ruled - frame for frame, ruled in result.session.ruled_at if frame is not None]
    stats = result.session.stats
    return {
        "seed": seed, "fps": fps, "seconds": seconds, "design": design, "naming": "labels" if use_labels else "models",
        "true_card_events": len(comparison.pairs) + len(comparison.missed), "found": len(comparison.pairs),
        "extra": len(comparison.extra), "recall": comparison.recall, "precision": comparison.precision,
        "player_right": comparison.right("player"), "card_right": comparison.right("card"),
        "legal_right": comparison.right("legal"), "all_right": comparison.all_right,
        "time_errors_frames": [round(error / period, 3) for error in comparison.time_errors()],
        "touch_pairs": touch_rows,
        "stalls": [{"found": got is not None, "late_s": None if got is None else round(got.t - true.t, 3)}
                   for true, got in comparison.stall_pairs],
        "false_stalls": len(comparison.false_stalls),
        "round_ends": [{"found": got is not None, "takes_right": got is not None and got.get("takes") == true.get("takes")}
                       for true, got in comparison.round_end_pairs],
        "slaps": [{"found": got is not None, "pile_right": got is not None and got["pile"] == true["pile"]}
                  for true, got in comparison.slap_pairs],
        "violations": [{"kind": true["kind"], "player": true["player"], "found": got is not None}
                       for true, got in comparison.violation_pairs],
        "false_violations": [found_one["kind"] for found_one in comparison.false_violations],
        "speed_x_real_time": round(result.speed, 2), "frames": result.frames,
        "mean_frame_ms": round(1000 * stats.processing_seconds / max(stats.frames, 1), 2),
        "worst_frame_ms": round(stats.worst_frame_ms, 1),
        "ruling_frame_ms_p95": round(sorted(stats.ruling_latency_ms)[int(0.95 * (len(stats.ruling_latency_ms) - 1))], 2)
        if stats.ruling_latency_ms else None,
        "ruling_delay_frames_median": statistics.median(delays) if delays else None,
        "render_seconds": round(render_seconds, 1),
    }


def summarise(games: list[dict]) -> dict:
    def share(rows, key):
        return sum(1 for row in rows if row[key]) / len(rows) if rows else None

    true_total = sum(g["true_card_events"] for g in games)
    found = sum(g["found"] for g in games)
    extra = sum(g["extra"] for g in games)
    errors = [e for g in games for e in g["time_errors_frames"]]
    pairs = [p for g in games for p in g["touch_pairs"]]
    weight = lambda key: sum(g[key] * g["found"] for g in games) / found if found else None  # noqa: E731
    return {
        "games": len(games), "true_card_events": true_total,
        "recall": found / true_total if true_total else None,
        "precision": found / (found + extra) if found + extra else None,
        "player_right": weight("player_right"), "card_right": weight("card_right"),
        "legal_right": weight("legal_right"), "all_right": weight("all_right"),
        "touch_error_median_frames": statistics.median(errors) if errors else None,
        "touch_error_p90_frames": sorted(errors)[int(0.9 * (len(errors) - 1))] if errors else None,
        "touch_order_right_gap_over_1_frame": share([p for p in pairs if p["gap_frames"] > 1], "right"),
        "touch_order_right_gap_third_to_1_frame": share([p for p in pairs if 1 / 3 <= p["gap_frames"] <= 1], "right"),
        "touch_order_pairs": len(pairs),
        "stalls_within_0_5s": share([{"ok": s["found"] and s["late_s"] <= 0.5} for g in games for s in g["stalls"]], "ok"),
        "stalls": sum(len(g["stalls"]) for g in games), "false_stalls": sum(g["false_stalls"] for g in games),
        "slaps_right": share([s for g in games for s in g["slaps"]], "pile_right"),
        "slaps": sum(len(g["slaps"]) for g in games),
        "round_ends_takes_right": share([r for g in games for r in g.get("round_ends", [])], "takes_right"),
        "round_ends": sum(len(g.get("round_ends", [])) for g in games),
        "violations": sum(len(g["violations"]) for g in games),
        "violations_found": sum(v["found"] for g in games for v in g["violations"]),
        "false_violations": sum(len(g["false_violations"]) for g in games),
        "speed_x_real_time_30fps": statistics.mean([g["speed_x_real_time"] for g in games if g["fps"] == 30] or [0]),
        "mean_frame_ms": statistics.mean([g["mean_frame_ms"] for g in games]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two short games only")
    parser.add_argument("--models", help="recognition models folder; default: the shipped models/ if present")
    parser.add_argument("--labels", action="store_true", help="name cards from the renderer's labels (no recognition)")
    parser.add_argument("--games", help="seed:fps:seconds,... instead of the built-in suite")
    parser.add_argument("--keep", type=pathlib.Path, default=None,
                        help="keep the rendered games in this folder and reuse them on the next run")
    parser.add_argument("--render-only", action="store_true", help="with --keep: render the suite and stop")
    parser.add_argument("--drawn-decks", action="store_true",
                        help="render with the synthetic table's drawn deck designs only, as a machine without "
                             "gnome-cards-data does: the same seeds deal other decks, so other games (keep them apart)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="default: results/referee_accuracy.json (referee_accuracy_drawn.json with --drawn-decks)")
    args = parser.parse_args()
    if args.drawn_decks:
        os.environ["REFEREE_SVG_DECKS"] = "0"   # read when the renderer is first imported, below
    if args.out is None:
        args.out = pathlib.Path(__file__).parent / "results" / f"referee_accuracy{'_drawn' if args.drawn_decks else ''}.json"
    suite = QUICK if args.quick else SUITE
    if args.games:
        suite = [tuple(float(v) if i == 2 else int(v) for i, v in enumerate(item.split(":"))) for item in args.games.split(",")]
    use_labels = args.labels
    if not use_labels:
        from referee.errors import ModelError
        from referee.pipeline.run import load_namer
        try:
            load_namer(args.models)
        except ModelError as error:
            print(f"note: recognition models not available ({error}); naming cards from the renderer's labels",
                  file=sys.stderr)
            use_labels = True
    games = []
    for seed, fps, seconds in suite:
        if args.keep is not None:
            folder = args.keep / f"seed{seed}_{fps}fps_{seconds:g}s"
            folder.mkdir(parents=True, exist_ok=True)
            if args.render_only:
                render_once(folder, seed, fps, seconds)
                print(f"rendered {folder}", flush=True)
                continue
            game = run_game(seed, fps, seconds, folder, args.models, use_labels)
        else:
            with tempfile.TemporaryDirectory() as scratch:
                game = run_game(seed, fps, seconds, pathlib.Path(scratch), args.models, use_labels)
        games.append(game)
        print(json.dumps({k: v for k, v in game.items() if k not in ("time_errors_frames",)}), flush=True)
    if args.render_only:
        return 0
    clips = []
    for seed, fps, seconds, start in ([] if args.quick or args.games else MID_GAME):
        with game_folder(args.keep, f"seed{seed}_{fps}fps_{seconds:g}s") as folder:
            render_once(folder, seed, fps, seconds)
            clip = run_game(seed, fps, seconds - start, cut_clip(folder, start), args.models, use_labels,
                            t_from=MID_GAME_SETTLING)
        clip["starts_at"] = start
        clips.append(clip)
        print(json.dumps({k: v for k, v in clip.items() if k not in ("time_errors_frames",)}), flush=True)
    summary = summarise(games)
    if clips:
        summary["mid_game_clips"] = summarise(clips)
    write_report(args.out, summary, games, mid_game_clips=clips)
    return 0


def variant_arguments(description: str, name: str, *, codecs: bool = False) -> argparse.Namespace:
    """The options of a benchmark of its own rendered games refereed with the models (`one_hand`,
    `touch_order`, `referee_steep`): --models, --keep, and --out (default results/NAME.json); `codecs`:
    --codec too, the games encoded again as `referee_codecs` does (default --out results/NAME_CODEC.json)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", help="recognition models folder; default: the shipped models/")
    parser.add_argument("--keep", type=pathlib.Path, default=None, help="keep the rendered games here and reuse them")
    parser.add_argument("--out", type=pathlib.Path, default=None, help=f"default: benchmarks/results/{name}.json")
    if codecs:
        parser.add_argument("--codec", choices=list(CODECS), default="mp4v",
                            help="referee the games encoded again this way (see referee_codecs); default: as rendered")
    args = parser.parse_args()
    suffix = f"_{args.codec}" if getattr(args, "codec", "mp4v") != "mp4v" else ""
    args.out = args.out or pathlib.Path(__file__).parent / "results" / f"{name}{suffix}.json"
    return args


def refereed_games(games: list[tuple[int, int, float]], render: Callable[[pathlib.Path, int, int, float], None],
                   models: str | None, keep: pathlib.Path | None, codec: str = "mp4v") -> Iterator[dict]:
    """Each (seed, fps, seconds) of `games` rendered by `render(folder, seed, fps, seconds)` (kept under
    `keep`, or in a scratch folder), encoded again with `codec` (`referee_codecs.CODECS`; into the game's
    folder's `encoded_CODEC`) and refereed with the models: `run_game`'s scores, game by game."""
    for seed, fps, seconds in games:
        with game_folder(keep, f"seed{seed}_{fps}fps_{seconds:g}s") as folder:
            render(folder, seed, fps, seconds)
            if codec != "mp4v":
                folder = encoded_copy(folder, folder / f"encoded_{codec}", codec)
            yield run_game(seed, fps, seconds, folder, models, use_labels=False)


def write_report(out: pathlib.Path, summary: dict, games: list[dict], **more) -> None:
    """The benchmark's JSON report (`summary`, each game, and `more` lists) into `out`; the summary on stdout."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"summary": summary, "games": games, **more}, indent=1))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    sys.exit(main())
