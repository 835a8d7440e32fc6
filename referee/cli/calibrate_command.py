"""`referee calibrate`: calibrate the table (default), the lens (`lens`), or print targets (`print-target`).

    referee calibrate --image FRAME --out CAL.yaml [--area 800x600] [--corners "x0,y0;x1,y1;x2,y2;x3,y3"]
    referee calibrate --video FILE | --camera N|URL --out CAL.yaml [...]
    referee calibrate lens --video FILE | --images GLOB --out LENS.yaml
    referee calibrate print-target --paper A4|letter --out FILE.pdf|png

Nothing is written when the input is bad or the setup is not usable (unless --force).
"""

from __future__ import annotations

import argparse
import pathlib
import re

import cv2
import numpy as np

from referee.errors import CalibrationError, ConfigError, InputFileError

DESCRIPTION = "Write a calibration from one still frame, video or camera."


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help=DESCRIPTION,
        description=DESCRIPTION
        + " Without --corners it finds the four ArUco corner markers (DICT_4X4_50, 60 mm, ids 0-3). "
        "Sub-actions: `referee calibrate lens ...` calibrates the lens from a ChArUco board, "
        "`referee calibrate print-target ...` prints the markers and the board.",
    )
    source = parser.add_argument_group("where the frame comes from (give one)")
    source.add_argument("--image", metavar="FRAME", help="a still photo of the table (PNG/JPEG)")
    source.add_argument("--video", metavar="FILE", help="a video: the sharpest frames of its first seconds are used")
    source.add_argument("--camera", metavar="N|URL", help="a camera index (0, 1, ...) or stream URL, read for a few seconds")
    parser.add_argument("--out", metavar="CAL.yaml", help="calibration file to write")
    parser.add_argument("--area", metavar="WxH", default="800x600", help="play-area size in mm (default 800x600)")
    parser.add_argument("--corners", metavar='"x0,y0;x1,y1;x2,y2;x3,y3"', help="play-area corners in pixels, order (0,0), (W,0), (W,H), (0,H), instead of finding the markers")
    parser.add_argument("--lens", metavar="LENS.yaml", help="lens calibration from `referee calibrate lens` (corrects distortion exactly)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of video/camera to read (default 3)")
    parser.add_argument("--fps", type=float, help="frame rate the camera will record at, for a still --image (for the quality report)")
    parser.add_argument("--preview", metavar="PNG", help="top-down preview with the zones drawn (default: next to --out, NAME.preview.png)")
    parser.add_argument("--no-preview", action="store_true", help="do not write the preview image")
    parser.add_argument("--no-distortion-estimate", action="store_true", help="without --lens, do not estimate lens distortion from the markers (plain homography)")
    parser.add_argument("--force", action="store_true", help="write the calibration even when the verdict is 'not usable'")
    parser.set_defaults(handler=run)

    actions = parser.add_subparsers(dest="calibrate_action", metavar="[lens|print-target]", title="sub-actions (optional; default: calibrate the table)")
    lens = actions.add_parser("lens", help="calibrate the lens from a ChArUco board video or photos", description="Calibrate the camera lens (intrinsics + distortion) from a printed ChArUco board.")
    lens_source = lens.add_argument_group("board frames (give one)")
    lens_source.add_argument("--video", metavar="FILE", help="a video moving the camera (or the board) over many angles")
    lens_source.add_argument("--images", metavar="GLOB", help="photos of the board, e.g. 'board/*.jpg' (quoted)")
    lens.add_argument("--out", metavar="LENS.yaml", help="lens file to write")
    lens.add_argument("--max-frames", type=int, default=120, help="frames sampled from a video (default 120)")
    lens.set_defaults(handler=run_lens)

    target = actions.add_parser("print-target", help="write the printable markers, lens board and ruler", description="Write the four corner markers and the ChArUco lens board at true scale (300 dpi) with a 100 mm ruler.")
    target.add_argument("--paper", default="A4", help="A4 or letter (default A4)")
    target.add_argument("--out", metavar="FILE.pdf|png", help="one PDF, or one PNG per page named FILE-N-PAGE.png")
    target.set_defaults(handler=run_print_target)


def parse_area(text: str) -> tuple[float, float]:
    match = re.fullmatch(r"\s*([-+0-9.eE]+)\s*[xX×,]\s*([-+0-9.eE]+)\s*", str(text))
    try:
        if not match:
            raise ValueError
        width, height = float(match.group(1)), float(match.group(2))
    except ValueError:
        raise CalibrationError(f"--area expects WIDTHxHEIGHT in mm like 800x600, got {text!r}") from None
    if not (width > 0 and height > 0) or not np.isfinite([width, height]).all():
        raise CalibrationError(f"--area {text!r} has a zero or negative side: give the play area in mm, like 800x600")
    return width, height


def _output_path(value: str | None, *, what: str, suffixes: tuple[str, ...]) -> pathlib.Path:
    if not value:
        raise ConfigError(f"give --out {what} (where to write it)")
    path = pathlib.Path(value)
    if path.suffix.lower() not in suffixes:
        raise ConfigError(f"--out must end in {' or '.join(suffixes)}, got {path.name!r}")
    if not path.parent.is_dir():
        raise InputFileError(f"cannot write {path}: folder {path.parent} does not exist")
    return path


def run(args: argparse.Namespace) -> int:
    from referee.calibration.fit import parse_corners
    from referee.calibration.lens import LensModel
    from referee.calibration.preview import draw_preview
    from referee.calibration.quality import Verdict
    from referee.calibration.solve import calibrate_frames
    from referee.calibration.sources import read_camera, read_image, read_video

    given = [name for name in ("image", "video", "camera") if getattr(args, name)]
    if len(given) != 1:
        raise ConfigError(f"give exactly one of --image FRAME, --video FILE or --camera N (got {', '.join('--' + n for n in given) or 'none'})")
    out = _output_path(args.out, what="CAL.yaml", suffixes=(".yaml", ".yml"))
    area = parse_area(args.area)
    corners = parse_corners(args.corners) if args.corners else None
    if not args.seconds > 0:
        raise ConfigError(f"--seconds must be positive, got {args.seconds}")
    if args.fps is not None and not args.fps > 0:
        raise ConfigError(f"--fps must be positive, got {args.fps}")
    lens = LensModel.load(args.lens) if args.lens else None
    preview_path = None if args.no_preview else pathlib.Path(args.preview) if args.preview else out.with_name(out.stem + ".preview.png")

    if args.image:
        capture = read_image(args.image)
    elif args.video:
        capture = read_video(args.video, seconds=args.seconds)
    else:
        capture = read_camera(args.camera, seconds=args.seconds)
    fps = capture.fps if capture.fps is not None else args.fps
    source = dict(capture.source)
    if lens is not None:
        source["lens_file"] = str(args.lens)
    calibration, report = calibrate_frames(
        capture.frames, area=area, corners=corners, lens=lens, fps=fps, estimate_distortion=not args.no_distortion_estimate, source=source
    )
    for line in report.lines():
        print(line)
    if report.verdict is Verdict.NOT_USABLE and not args.force:
        fatal = next(f.message for f in report.findings if f.severity == "fatal")
        raise CalibrationError(f"setup not usable: {fatal}; nothing written (add --force to write it anyway)")
    preview_png = None
    if preview_path is not None:
        ok, encoded = cv2.imencode(".png", draw_preview(calibration, capture.frames[0], report))
        if not ok:
            raise OSError("could not encode the preview image")
        preview_png = encoded.tobytes()
    calibration.save(out)
    written = [str(out)]
    if preview_png is not None and preview_path is not None:
        preview_path.write_bytes(preview_png)
        written.append(str(preview_path))
    print(f"wrote {' and '.join(written)}")
    return 0


def run_lens(args: argparse.Namespace) -> int:
    from referee.calibration.charuco import calibrate_lens, frames_from_images, frames_from_video

    given = [name for name in ("video", "images") if getattr(args, name)]
    if len(given) != 1:
        raise ConfigError(f"give exactly one of --video FILE or --images GLOB (got {', '.join('--' + n for n in given) or 'none'})")
    out = _output_path(args.out, what="LENS.yaml", suffixes=(".yaml", ".yml"))
    if args.max_frames < 1:
        raise ConfigError(f"--max-frames must be at least 1, got {args.max_frames}")
    frames = frames_from_video(args.video, max_frames=args.max_frames) if args.video else frames_from_images(args.images)
    lens = calibrate_lens(frames)
    fx, fy = lens.camera_matrix[0, 0], lens.camera_matrix[1, 1]
    print(f"lens: {lens.image_size[0]}x{lens.image_size[1]}, focal {fx:.1f} x {fy:.1f} px, distortion {', '.join(f'{v:+.4f}' for v in lens.distortion)}")
    print(f"reprojection error {lens.rms_px:.3f} px RMS over {lens.frames_used} views of the board")
    lens.save(out)
    print(f"wrote {out}")
    return 0


def run_print_target(args: argparse.Namespace) -> int:
    from referee.calibration.targets import PAPERS_MM, write_targets

    papers = {name.lower(): name for name in PAPERS_MM}
    paper = papers.get(str(args.paper).lower())
    if paper is None:
        raise ConfigError(f"--paper must be A4 or letter, got {args.paper!r}")
    out = _output_path(args.out, what="FILE.pdf or FILE.png", suffixes=(".pdf", ".png"))
    for path in write_targets(out, paper):
        print(f"wrote {path}")
    print("print at 100 % (no fit-to-page) and check the 100 mm ruler")
    return 0

