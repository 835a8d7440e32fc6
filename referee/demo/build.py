"""Renders the demo clip: `python -m referee.demo.build [--seed N] [--seconds S]`.

Keeps video.mp4 (shrunk to 960x540), truth.jsonl, corners.json and labels.json.gz: the renderer's labels cut down to what
`LabelNamer` needs (each card's identity, face, occlusion and centre in table millimetres), so the demo
can name cards even where the recognition models are not installed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pathlib
import shutil
import tempfile

from referee.demo import CLIP, SECONDS, SEED


def compact_labels(labels_path: pathlib.Path, corners_path: pathlib.Path, out: pathlib.Path) -> None:
    import numpy as np

    from referee.pipeline.calibration_input import load_calibration

    data = json.loads(corners_path.read_text())
    calibration = load_calibration(corners_path, image_size=tuple(data["image_size"]))
    with gzip.open(out, "wt", encoding="utf-8") as handle:
        for line in labels_path.read_text(encoding="utf-8").splitlines():
            frame = json.loads(line)
            cards = []
            for item in frame.get("cards", []):
                centre = calibration.image_to_table(np.asarray(item["quad"], float).mean(axis=0, keepdims=True))[0]
                cards.append({"card": item["card"], "face_up": bool(item.get("face_up")), "occlusion": round(float(item.get("occlusion", 0)), 3),
                              "centre_mm": [round(float(centre[0]), 1), round(float(centre[1]), 1)]})
            handle.write(json.dumps({"frame": frame["frame"], "cards": cards}, separators=(",", ":")) + "\n")


#: The demo clip is kept at 960x540 and slightly smoothed, so it stays under 3 MB in the repository.
DEMO_SIZE = (960, 540)


def shrink(video: pathlib.Path, corners: pathlib.Path, out: pathlib.Path) -> None:
    import cv2

    data = json.loads(corners.read_text())
    scale = DEMO_SIZE[0] / data["image_size"][0]
    capture = cv2.VideoCapture(str(video))
    fps = capture.get(cv2.CAP_PROP_FPS)
    writer = cv2.VideoWriter(str(out / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, DEMO_SIZE)
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        writer.write(cv2.GaussianBlur(cv2.resize(frame, DEMO_SIZE, interpolation=cv2.INTER_AREA), (3, 3), 0))
    writer.release()
    capture.release()
    data["play_area_corners_px"] = [[(x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5] for x, y in data["play_area_corners_px"]]
    data["image_size"] = list(DEMO_SIZE)
    if "camera" in data and "focal_px" in data["camera"]:
        data["camera"]["focal_px"] *= scale  # the lens terms are in normalised coordinates: unchanged
    (out / "corners.json").write_text(json.dumps(data, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--out", type=pathlib.Path, default=CLIP)
    args = parser.parse_args()
    from referee.sim.game import simulate_game
    from referee.synth.render import render_game

    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        render_game(simulate_game(args.seed), folder, fps=30, size="720p", seconds=args.seconds, seed=args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / "truth.jsonl", args.out / "truth.jsonl")
        compact_labels(folder / "labels.jsonl", folder / "corners.json", args.out / "labels.json.gz")
        shrink(folder / "video.mp4", folder / "corners.json", args.out)
    print(f"demo clip written to {args.out}")


if __name__ == "__main__":
    main()
