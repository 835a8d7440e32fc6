"""The referee under changing light: `python -m benchmarks.referee_light [--quick] [--keep DIR]`.

Two rendered games (30 and 60 fps) are relit the ways a room's light changes while people play, and
each version is refereed and scored against the true log (plays found, invented, fully right; stalls):

- `steady`: the video as rendered (re-encoded like the others, the control);
- `dimmed`: the room's light falls to 65 % over 0.6 s at 5 s and comes back at 11 s (a cloud, a dimmer);
- `flicker`: lamps on 50 Hz mains flicker at 100 Hz, +-6 %, which a 30 fps camera sees as a 10 Hz beat
  (a 60 fps one as 20 Hz);
- `warm`: the white balance drifts warm over the first 10 s (a camera's auto white balance, sunset);
- `shadow`: a person's soft shadow, 30 % dark at its core, sweeps across the table from 4 s to 9 s;
- `lean`: a person leaning in over the table's right side: a soft shadow, 40 % dark at its core, comes
  in over a second from 4 s, lies still over a third of the table until 9 s, and is gone by 10 s;
- `leave`: the same shadow there as the video opens (the table model starts in it), gone by 5 s.

Cards are named by the shipped models (`--labels`: from the renderer's labels). Results go to stdout
and benchmarks/results/referee_light.json.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import tempfile

import numpy as np

from benchmarks.rendered import render_once

GAMES = [(71, 30, 20.0), (72, 60, 12.0)]   # seed, fps, seconds: games none of the referee's rules were tuned on
QUICK_GAMES = [(71, 30, 8.0)]
LIGHTS = ("steady", "dimmed", "flicker", "warm", "shadow", "lean", "leave")


def relight(image: np.ndarray, light: str, t: float) -> np.ndarray:
    """One frame at time `t` s as it would look under `light` (see the module docstring)."""
    frame = image.astype(np.float32)
    if light == "dimmed":
        frame *= 1.0 - 0.35 * np.clip((t - 5.0) / 0.6, 0, 1) + 0.35 * np.clip((t - 11.0) / 0.6, 0, 1)
    elif light == "flicker":
        frame *= 1.0 + 0.06 * np.sin(2 * np.pi * 100.0 * t)
    elif light == "warm":
        drift = min(1.0, t / 10.0)
        frame *= np.array([1 - 0.15 * drift, 1.0, 1 + 0.12 * drift], np.float32)  # BGR: less blue, more red
    elif light == "shadow" and 4.0 <= t <= 9.0:
        width = image.shape[1]
        centre = (t - 4.0) / 5.0 * (width + 600) - 300
        columns = np.arange(width, dtype=np.float32)
        frame *= (1.0 - 0.3 * np.clip(1 - np.abs(columns - centre) / 250.0, 0, 1))[None, :, None]
    elif (light == "lean" and 4.0 <= t <= 10.0) or (light == "leave" and t <= 5.0):
        height, width = image.shape[:2]
        # lean: in over 4-5 s, still until 9 s, out by 10 s; leave: there as the video opens, out by 5 s
        reach = float(np.clip(min(t - 4.0, 10.0 - t) if light == "lean" else 5.0 - t, 0.0, 1.0))
        rows, columns = np.ogrid[:height, :width]
        distance = np.sqrt(((columns - (width + 200 - 650 * reach)) / 420.0) ** 2 + ((rows - 0.45 * height) / 330.0) ** 2)
        frame *= (1.0 - 0.4 * np.clip((1.0 - distance) / 0.45, 0, 1)).astype(np.float32)[..., None]
    elif light not in LIGHTS:
        raise ValueError(f"unknown light {light!r}: expected one of {', '.join(LIGHTS)}")
    return np.clip(frame, 0, 255).astype(np.uint8)


def changed_copy(game: pathlib.Path, folder: pathlib.Path, change) -> pathlib.Path:
    """The rendered game in `game` with each frame passed through `change(image, t)`, into `folder`
    (video re-encoded; truth, labels, calibration copied)."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    for name in ("corners.json", "truth.jsonl", "labels.jsonl", "render.json"):
        (folder / name).write_bytes((game / name).read_bytes())
    capture = cv2.VideoCapture(str(game / "video.mp4"))
    fps = capture.get(cv2.CAP_PROP_FPS)
    writer, index = None, 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        if writer is None:
            writer = cv2.VideoWriter(str(folder / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps,
                                     (image.shape[1], image.shape[0]))
        writer.write(change(image, index / fps))
        index += 1
    capture.release()
    if writer is not None:
        writer.release()
    return folder


def referee_under(folder: pathlib.Path, seconds: float, namer) -> dict:
    from referee.pipeline.run import replay
    from referee.report.compare import compare
    from referee.rules.events import read_event_log

    result = replay(folder / "video.mp4", folder / "corners.json", folder / "events.jsonl", namer=namer)
    truth = [e for e in read_event_log(str(folder / "truth.jsonl")) if e.t <= seconds - 0.8]
    found = [e for e in read_event_log(str(folder / "events.jsonl")) if e.t <= seconds - 0.8]
    comparison = compare(truth, found)
    return {
        "plays": len(comparison.pairs) + len(comparison.missed), "found": len(comparison.pairs),
        "invented": len(comparison.extra), "fully_right": round(comparison.all_right * len(comparison.pairs)),
        "stalls": len(comparison.stall_pairs), "stalls_found": sum(got is not None for _, got in comparison.stall_pairs),
        "false_stalls": len(comparison.false_stalls), "speed_x_real_time": round(result.speed, 2),
        "touch_error_median_frames": _median_frames(comparison.time_errors(), result.frames / result.video_seconds),
    }


def _median_frames(errors: list[float], fps: float) -> float | None:
    """The middle of the touch-time errors (seconds), in frames of the video."""
    return round(statistics.median(errors) * fps, 3) if errors else None


def _namer(folder: pathlib.Path, args):
    if args.labels:
        from referee.pipeline.calibration_input import load_calibration
        from referee.pipeline.label_namer import LabelNamer

        return LabelNamer(folder / "labels.jsonl", load_calibration(folder / "corners.json", image_size=(1280, 720)))
    from referee.pipeline.run import load_namer

    return load_namer(args.models)


def copies_arguments(description: str, name: str, keep_help: str) -> argparse.ArgumentParser:
    """The options of a benchmark that referees copies of its games changed each way (`referee_light`,
    `referee_camera`, `referee_codecs`): --quick, --models, --labels, --keep, --out (results/NAME.json)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the 30 fps game's first 8 seconds only")
    parser.add_argument("--models", help="recognition models folder; default: the shipped models/")
    parser.add_argument("--labels", action="store_true", help="name cards from the renderer's labels (no recognition)")
    parser.add_argument("--keep", type=pathlib.Path, default=None, help=keep_help)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results" / f"{name}.json")
    return parser


def referee_changed(args, kind: str, names, change) -> dict:
    """Each game copied changed each way of `names`, `change(name, image, t)` per frame (`referee_copies`)."""
    return referee_copies(args, kind, names, lambda game, folder, name: changed_copy(
        game, folder, lambda image, t: change(name, image, t)))


def referee_copies(args, kind: str, names, make_copy) -> dict:
    """Each game (GAMES, or QUICK_GAMES with `args.quick`) rendered once, copied each way of `names`
    (`make_copy(game, folder, name)` fills `folder`) and refereed, a JSON line per copy: the report, keyed
    by `kind` ("light", "camera", "codec"), each copy with its video's size."""
    report = {"naming": "labels" if args.labels else "models", "games": []}
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep if args.keep is not None else pathlib.Path(scratch)
        for seed, fps, seconds in (QUICK_GAMES if args.quick else GAMES):
            game = root / f"seed{seed}_{fps}fps_{seconds:g}s"
            design = render_once(game, seed, fps, seconds)
            rows = {}
            for name in names:
                folder = root / f"{game.name}_{name}"
                make_copy(game, folder, name)
                rows[name] = {"megabytes": round((folder / "video.mp4").stat().st_size / 1e6, 2),
                              **referee_under(folder, seconds, _namer(folder, args))}
                print(json.dumps({"seed": seed, "fps": fps, kind: name, **rows[name]}), flush=True)
            report["games"].append({"seed": seed, "fps": fps, "seconds": seconds, "design": design, f"{kind}s": rows})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    return report


def main() -> int:
    parser = copies_arguments(__doc__, "referee_light", "keep the rendered game and its relit copies here")
    referee_changed(parser.parse_args(), "light", LIGHTS, lambda light, image, t: relight(image, light, t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
