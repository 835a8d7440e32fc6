"""The built-in demo game: a short clip rendered once by the synthetic table (referee.synth), kept
here with its true event log, its corners.json and compact card labels. Rebuild with
`python -m referee.demo.build` (renders for a couple of minutes)."""

import pathlib

CLIP = pathlib.Path(__file__).parent / "clip"
SEED = 9
SECONDS = 14.0
