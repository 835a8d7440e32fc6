"""The referee on video as other recorders encode it: `python -m benchmarks.referee_codecs [--quick] [--keep DIR]`.

The renderer writes MPEG-4 part 2 (`mp4v`, OpenCV's own encoder). Phones, screen recorders, network
cameras and `ffmpeg` write H.264 or H.265 with B-frames (frames stored out of order, each decoded from
ones before and after it), and web tools VP9. Each game of `referee_light` (never tuned on) is encoded
again each way by FFmpeg (the `imageio-ffmpeg` package's build, which has the encoders OpenCV's wheel
lacks), refereed from that file, and scored against the true log:

- `mp4v`: the video as rendered (the control);
- `h264`: libx264, CRF 23, three B-frames (FFmpeg's defaults: what a phone or `ffmpeg -i` gives);
- `h264_thin`: libx264, CRF 32 (a network camera's stream on a thin link: blocks and smeared motion);
- `hevc`: libx265, CRF 28 (a recent phone's default);
- `vp9`: libvpx-vp9 in WebM, CRF 35.

Speed is each copy's replay against its video's length (decoding H.264 and H.265 costs more than
MPEG-4 part 2). Cards are named by the shipped models. Results go to stdout and
benchmarks/results/referee_codecs.json.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

from benchmarks.referee_light import copies_arguments, referee_copies

#: name -> (file suffix, FFmpeg output options)
CODECS = {
    "mp4v": (".mp4", None),
    "h264": (".mp4", ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-bf", "3", "-pix_fmt", "yuv420p"]),
    "h264_thin": (".mp4", ["-c:v", "libx264", "-preset", "veryfast", "-crf", "32", "-pix_fmt", "yuv420p"]),
    "hevc": (".mp4", ["-c:v", "libx265", "-preset", "fast", "-crf", "28", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"]),
    "vp9": (".webm", ["-c:v", "libvpx-vp9", "-crf", "35", "-b:v", "0", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1"]),
}


def ffmpeg() -> str:
    """The FFmpeg program of the `imageio-ffmpeg` package (pip install -e '.[test]')."""
    try:
        import imageio_ffmpeg
    except ImportError:
        raise SystemExit("referee_codecs needs the imageio-ffmpeg package: pip install -e '.[test]'") from None
    return imageio_ffmpeg.get_ffmpeg_exe()


def encoded_copy(game: pathlib.Path, folder: pathlib.Path, codec: str) -> pathlib.Path:
    """The rendered game in `game` encoded again with `codec` (CODECS) into `folder`, as `video.mp4`
    whatever its container (the referee reads the container, not the name), unless encoded there already;
    truth and calibration copied."""
    suffix, options = CODECS[codec]
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("corners.json", "truth.jsonl", "labels.jsonl", "render.json"):
        if (game / name).exists():
            (folder / name).write_bytes((game / name).read_bytes())
    target = folder / "video.mp4"
    if target.exists() and options is not None:
        return folder  # encoded already, kept from an earlier run (--keep)
    if options is None:
        target.write_bytes((game / "video.mp4").read_bytes())
        return folder
    encoded = folder / f"encoded{suffix}"
    subprocess.run([ffmpeg(), "-hide_banner", "-loglevel", "error", "-y", "-i", str(game / "video.mp4"), *options, str(encoded)],
                   check=True)
    encoded.replace(target)
    return folder


def main() -> int:
    parser = copies_arguments(__doc__, "referee_codecs", "keep the rendered games and their encoded copies here, and reuse them")
    parser.add_argument("--codecs", default=",".join(CODECS), help="which of them, comma-separated")
    args = parser.parse_args()
    codecs = args.codecs.split(",")
    unknown = [codec for codec in codecs if codec not in CODECS]
    if unknown:
        parser.error(f"no codec {', '.join(unknown)}; choose from {', '.join(CODECS)}")
    referee_copies(args, "codec", codecs, encoded_copy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
