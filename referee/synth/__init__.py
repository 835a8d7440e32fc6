"""The synthetic table: simulated games rendered as realistic camera video, with exact ground truth.

- faces.py       card faces (drawn designs + installed gnome-cards SVG decks), backs, card mask
- svg_decks.py   librsvg/cairo (ctypes) rasteriser for Debian's gnome-cards-data decks
- surfaces.py    procedural table tops
- camera.py      pinhole camera with radial distortion over the table frame
- scene.py       what lies where, and where the hands are, at any instant of a GameScript
- canvas.py      the top-down table image: card warps, ArUco sheets
- hands.py       arms, hands and players' bodies
- effects.py     light, exposure, noise, lens softness, motion blur
- frames.py      one frame and its labels
- render.py      render_game: video.mp4, truth.jsonl, corners.json, labels.jsonl, contact_sheet.png
- dataset.py     ultralytics (YOLO) detection and classification exports, still scenes
- example_script.py  a small hand-made GameScript for tests and benchmarks
"""
