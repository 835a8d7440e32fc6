"""`render_game`: a GameScript to a video of a real-looking table, with its exact truth.

Writes into out_dir:
- video.mp4         the camera's view (H.264 where this OpenCV has it, else MPEG-4 part 2)
- truth.jsonl       the script's true event log (INTERFACE.md schema), cut at `seconds`; an event's `frame`
                    is the first frame at or after its `t`
- corners.json      {"play_area_corners_px": [[x, y] x 4]} in INTERFACE.md order, plus the camera
- labels.jsonl      one line per frame: every card drawn (outline quad px, corner-index boxes, identity,
                    face up or not, its place, occlusion fraction) and every hand (box, polygon)
- contact_sheet.png 12 frames spread over the video
"""

from __future__ import annotations

import collections
import concurrent.futures
import functools
import json
import multiprocessing
import math
import os
import pathlib
import tempfile
from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

from referee.errors import RefereeError
from referee.rules.events import Event
from referee.sim.script import GameScript
from referee.synth.camera import Camera, image_size
from referee.synth.canvas import CARD_SIZES
from referee.synth.frames import REBUILD_EVERY, TableRenderer
from referee.table.layout import TableLayout


class RenderError(RefereeError):
    """The synthetic table cannot write its output (folder not writable, no video encoder)."""


@dataclass(frozen=True)
class RenderResult:
    out_dir: pathlib.Path
    video: pathlib.Path
    truth: pathlib.Path
    corners: pathlib.Path
    labels: pathlib.Path
    contact_sheet: pathlib.Path
    frames: int
    fps: int
    size: tuple[int, int]
    design: str
    codec: str


def first_frame_at(t: float, fps: int) -> int:
    """Index of the first frame whose time (index / fps) is at or after t."""
    return max(0, int(math.ceil(t * fps - 1e-9)))


def truth_events(script: GameScript, fps: int, frames: int) -> list[Event]:
    """The script's truth with frames filled in, keeping only what happens within the rendered frames."""
    out = []
    for event in sorted(script.truth, key=lambda e: e.t):
        frame = first_frame_at(event.t, fps)
        if frame < frames:
            out.append(event.with_frame(frame))
    return out


@functools.lru_cache(maxsize=1)
def _h264_available() -> bool:
    """Whether this OpenCV build can write H.264 (probed once on a scratch file, FFmpeg's complaints muted)."""
    with tempfile.TemporaryDirectory() as folder:
        saved = os.dup(2)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 2)
                writer = cv2.VideoWriter(os.path.join(folder, "probe.mp4"), cv2.VideoWriter_fourcc(*"avc1"), 30.0, (64, 64))
                opened = writer.isOpened()
                if opened:
                    writer.write(np.zeros((64, 64, 3), np.uint8))
                writer.release()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    return opened


def _open_writer(path: pathlib.Path, fps: int, size: tuple[int, int]) -> tuple[cv2.VideoWriter, str]:
    codecs = ("avc1", "mp4v") if _h264_available() else ("mp4v",)
    for codec in codecs:
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), float(fps), size)
        if writer.isOpened():
            return writer, codec
        writer.release()
    raise RenderError(f"cannot write {path}: this OpenCV has neither an H.264 nor an MPEG-4 encoder; install opencv-python-headless from PyPI")


def contact_sheet(images: list[np.ndarray], captions: list[str], columns: int = 4, width: int = 400) -> np.ndarray:
    tiles = []
    for image, caption in zip(images, captions):
        height = int(round(image.shape[0] * width / image.shape[1]))
        tile = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
        cv2.putText(tile, caption, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(tile, caption, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
        tiles.append(tile)
    while len(tiles) % columns:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i: i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)


def _worker_count(workers: int | None, frames: int) -> int:
    if workers is None:
        workers = min(2, os.cpu_count() or 1)
    chunks = (frames + REBUILD_EVERY - 1) // REBUILD_EVERY
    return max(1, min(int(workers), chunks))


_worker_renderer: TableRenderer | None = None


def _start_worker(script: GameScript, options: dict) -> None:
    global _worker_renderer
    cv2.setNumThreads(1)  # the workers are the parallelism; OpenCV's own threads would only fight them
    _worker_renderer = TableRenderer(script, **options)


def _render_chunk(bounds: tuple[int, int]) -> list[tuple[int, bytes, tuple, str]]:
    out = []
    for index in range(*bounds):
        image, label = _worker_renderer.render(index)
        out.append((index, image.tobytes(), image.shape, json.dumps(label, separators=(",", ":"))))
    return out


def _frames(renderer: TableRenderer, script: GameScript, options: dict, frames: int, workers: int) -> Iterator[tuple[int, np.ndarray, str]]:
    """(index, image, label json) for every frame, in order. Chunks start at multiples of REBUILD_EVERY, where
    a renderer's output no longer depends on what it drew before (see TableRenderer._sync_settled)."""
    if workers <= 1:
        for index in range(frames):
            image, label = renderer.render(index)
            yield index, image, json.dumps(label, separators=(",", ":"))
        return
    chunks = [(start, min(frames, start + REBUILD_EVERY)) for start in range(0, frames, REBUILD_EVERY)]
    # spawn, not fork: a process forked while OpenCV's thread pool is alive can inherit a held lock and hang
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(script, options)) as pool:
        pending: collections.deque = collections.deque()
        next_chunk = 0
        while next_chunk < len(chunks) or pending:
            while next_chunk < len(chunks) and len(pending) < 2 * workers:  # a bounded look-ahead keeps memory flat
                pending.append(pool.submit(_render_chunk, chunks[next_chunk]))
                next_chunk += 1
            for index, data, shape, label in pending.popleft().result():
                yield index, np.frombuffer(data, np.uint8).reshape(shape), label


def corners_record(renderer: TableRenderer, fps: float) -> dict:
    """What corners.json holds of a renderer's camera: the play area's corners in the picture (INTERFACE.md
    order), the picture's size, the camera's pose and lens, and the deck drawn."""
    camera, layout = renderer.camera, renderer.layout
    return {
        "play_area_corners_px": camera.corners_px(layout),
        "image_size": [camera.width, camera.height],
        "fps": fps,
        "area_mm": [layout.width, layout.height],
        "camera": {
            "height_mm": round(camera.pose.height, 3), "tilt_deg": round(camera.pose.tilt, 3),
            "heading_deg": round(camera.pose.heading, 3), "focal_px": round(camera.focal, 3),
            "k1": round(camera.pose.k1, 5), "k2": round(camera.pose.k2, 5),
        },
        "design": renderer.design,
        "back": renderer.back_design,
        "card_mm": list(renderer.card_mm),
    }


def render_game(script: GameScript, out_dir: pathlib.Path, *, fps: int = 30, size: str = "720p",
                seconds: float | None = None, seed: int = 0, layout: TableLayout | None = None,
                camera: Camera | None = None, design: str | None = None, sheet_frames: int = 12,
                workers: int | None = None, parallax: bool | None = None, card_size: str = "poker") -> RenderResult:
    """Renders `script` (its first `seconds`, or all of it) as seen by a random camera drawn from `seed`.

    `workers` processes render frames in parallel (default: up to 2, the cores this project budgets);
    the output is the same for any number of workers. `parallax`: hands and cards in the air drawn
    where the camera sees them (`TableRenderer`; default: the environment's REFEREE_PARALLAX, else off).
    `card_size`: the cards' size on the table, `poker` (63 x 88 mm) or `bridge` (57 x 89 mm: each face drawn
    a tenth narrower), `canvas.CARD_SIZES`."""
    if fps not in (15, 24, 25, 30, 50, 60):
        raise RenderError(f"fps must be one of 15, 24, 25, 30, 50, 60; got {fps}")
    try:
        image_size(size)
    except ValueError as error:
        raise RenderError(str(error)) from None
    out_dir = pathlib.Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RenderError(f"cannot create output folder {out_dir}: {error.strerror or error}") from None
    duration = script.duration if seconds is None else min(float(seconds), script.duration)
    if duration <= 0:
        raise RenderError(f"nothing to render: the game lasts {script.duration:.2f} s and --seconds is {seconds}")
    frames = max(1, int(math.floor(duration * fps + 1e-9)))
    if card_size not in CARD_SIZES:
        raise RenderError(f"card size must be one of {', '.join(CARD_SIZES)}; got {card_size}")
    renderer = TableRenderer(script, size=size, fps=fps, seed=seed, layout=layout, camera=camera, design=design, parallax=parallax,
                             card_mm=CARD_SIZES[card_size])
    width, height = renderer.camera.width, renderer.camera.height
    layout = renderer.layout

    paths = {name: out_dir / name for name in ("video.mp4", "truth.jsonl", "corners.json", "labels.jsonl", "contact_sheet.png")}
    with open(paths["truth.jsonl"], "w", encoding="utf-8") as handle:
        for event in truth_events(script, fps, frames):
            handle.write(event.to_json() + "\n")
    paths["corners.json"].write_text(json.dumps(corners_record(renderer, fps), indent=1) + "\n", encoding="utf-8")

    writer, codec = _open_writer(paths["video.mp4"], fps, (width, height))
    sheet_at = set(np.linspace(0, frames - 1, min(sheet_frames, frames)).round().astype(int).tolist())
    sheet_images, captions = [], []
    options = dict(size=size, fps=fps, seed=seed, layout=layout, camera=renderer.camera, design=renderer.design, card_mm=renderer.card_mm,
                   parallax=renderer.parallax)
    try:
        with open(paths["labels.jsonl"], "w", encoding="utf-8") as labels:
            for index, image, label in _frames(renderer, script, options, frames, _worker_count(workers, frames)):
                writer.write(image)
                labels.write(label + "\n")
                if index in sheet_at:
                    sheet_images.append(image)
                    captions.append(f"seed {seed}  frame {index}  t={index / fps:.1f}s")
    finally:
        writer.release()
    cv2.imwrite(str(paths["contact_sheet.png"]), contact_sheet(sheet_images, captions))
    return RenderResult(out_dir, paths["video.mp4"], paths["truth.jsonl"], paths["corners.json"], paths["labels.jsonl"],
                        paths["contact_sheet.png"], frames, fps, (width, height), renderer.design, codec)
