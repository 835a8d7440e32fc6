"""Rendered games for the benchmarks, each rendered once into its folder and reused (`--keep`)."""

from __future__ import annotations

import contextlib
import json
import pathlib
import tempfile
from typing import Iterator


@contextlib.contextmanager
def game_folder(keep: pathlib.Path | None, name: str) -> Iterator[pathlib.Path]:
    """Where a rendered game lives while it is refereed: `keep/name`, kept for the next run, or a
    scratch folder removed afterwards when nothing is to be kept."""
    if keep is not None:
        yield keep / name
        return
    with tempfile.TemporaryDirectory() as scratch:
        yield pathlib.Path(scratch)


def render_once(folder: pathlib.Path, seed: int, fps: int, seconds: float, design: str | None = None, *,
                sim_config=None, camera=None, record: dict | None = None, size: str = "720p",
                parallax: bool | None = None, card_size: str = "poker") -> str:
    """The game of `seed` (its first `seconds`, at `fps`, `size`) rendered into `folder` unless it is
    there already (the renderer is deterministic per seed); returns its deck design. `sim_config`: the
    simulated players' (default SimConfig()); `camera`: a fixed camera instead of the seed's random one;
    `record`: more to note in the folder's render.json (how the game was made); `parallax`: hands and cards
    in the air drawn where the camera sees them (default: the environment's REFEREE_PARALLAX, else off);
    `card_size`: `poker` or `bridge` (`referee.synth.canvas.CARD_SIZES`)."""
    done = folder / "render.json"
    if done.exists():
        return json.loads(done.read_text())["design"]
    from referee.sim.game import simulate_game
    from referee.synth.render import render_game

    folder.mkdir(parents=True, exist_ok=True)
    drawn = render_game(simulate_game(seed, config=sim_config), folder, fps=fps, size=size, seconds=seconds, seed=seed,
                        camera=camera, design=design, parallax=parallax, card_size=card_size).design
    done.write_text(json.dumps({"design": drawn, **({"card_size": card_size} if card_size != "poker" else {}), **(record or {})}))
    return drawn
