"""The referee through other cameras: `python -m benchmarks.referee_camera [--quick] [--keep DIR]`.

The rendered games of `referee_light` (never tuned on) are seen as a different camera would show them,
each frame changed the same way throughout, and refereed and scored against the true log:

- `plain`: the video as rendered (re-encoded like the others, the control);
- `noisy`: sensor noise, a fresh grey-level spread of 6 per pixel each frame (a phone in a dim room);
- `soft`: slightly out of focus (a Gaussian blur of 1.5 camera pixels);
- `vignette`: the picture's corners 35 % darker than its middle (a wide, cheap lens);
- `blocky`: each frame squeezed through JPEG at quality 25 (a network camera's stream);
- `contrasty`: gamma 1.6 with colours a third paler (a camera's own picture style);

Cards are named by the shipped models (`--labels`: from the renderer's labels). Results go to stdout and
benchmarks/results/referee_camera.json.
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks.referee_light import copies_arguments, referee_changed

CAMERAS = ("plain", "noisy", "soft", "vignette", "blocky", "contrasty")


def seen_by(image: np.ndarray, camera: str, t: float) -> np.ndarray:
    """One frame as `camera` would show it (see the module docstring); `t` seeds the noise."""
    import cv2

    if camera == "plain":
        return image
    if camera == "noisy":
        rng = np.random.default_rng(int(round(t * 1000)))
        return np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    if camera == "soft":
        return cv2.GaussianBlur(image, (0, 0), 1.5)
    if camera == "vignette":
        height, width = image.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        reach = ((xs - width / 2) / (width / 2)) ** 2 + ((ys - height / 2) / (height / 2)) ** 2
        return np.clip(image * (1.0 - 0.35 * reach / 2)[..., None], 0, 255).astype(np.uint8)
    if camera == "blocky":
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 25])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    if camera == "contrasty":
        curved = (255.0 * (image / 255.0) ** 1.6).astype(np.float32)
        grey = curved.mean(axis=2, keepdims=True)
        return np.clip(grey + (curved - grey) * (2 / 3), 0, 255).astype(np.uint8)
    raise ValueError(f"unknown camera {camera!r}: expected one of {', '.join(CAMERAS)}")


def main() -> int:
    parser = copies_arguments(__doc__, "referee_camera", "keep the rendered game and its changed copies here")
    parser.add_argument("--cameras", default=",".join(CAMERAS), help="which of them, comma-separated")
    args = parser.parse_args()
    referee_changed(args, "camera", args.cameras.split(","), lambda camera, image, t: seen_by(image, camera, t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
