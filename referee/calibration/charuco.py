"""Lens calibration from a printed ChArUco board (OpenCV's CharucoDetector + calibrateCamera).

The board (printed by `referee calibrate print-target`) is 5 x 7 squares of 33 mm with 24 mm
markers from DICT_5X5_100: another dictionary than the table's corner markers, so a board left on
the table is never taken for a play-area marker.
"""

from __future__ import annotations

import glob
import pathlib
from typing import Iterable, Iterator

import cv2
import numpy as np

from referee.calibration.lens import LensModel
from referee.errors import CalibrationError, InputFileError, VideoError

BOARD_SQUARES = (5, 7)  # (columns, rows)
BOARD_SQUARE_MM = 33.0
BOARD_MARKER_MM = 24.0
BOARD_DICTIONARY = cv2.aruco.DICT_5X5_100
BOARD_DICTIONARY_NAME = "DICT_5X5_100"
#: a view is used only if it shows at least this many chessboard corners (of 24); fewer make
#: poorly constrained, nearly collinear views.
MIN_CORNERS_PER_VIEW = 10
#: views needed for a trustworthy distortion estimate (different angles and positions)
MIN_VIEWS = 6
#: at most this many views go into calibrateCamera (spread evenly over those found); more is slower
MAX_VIEWS = 40


def charuco_board() -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(BOARD_DICTIONARY)
    return cv2.aruco.CharucoBoard(BOARD_SQUARES, BOARD_SQUARE_MM, BOARD_MARKER_MM, dictionary)


def board_size_mm() -> tuple[float, float]:
    return BOARD_SQUARES[0] * BOARD_SQUARE_MM, BOARD_SQUARES[1] * BOARD_SQUARE_MM


def find_board(detector: cv2.aruco.CharucoDetector, board: cv2.aruco.CharucoBoard, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(object points mm, image points px) of the chessboard corners seen, or None if too few."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    corners, ids, _marker_corners, _marker_ids = detector.detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS_PER_VIEW:
        return None
    object_points, image_points = board.matchImagePoints(corners, ids)
    if object_points is None or len(object_points) < MIN_CORNERS_PER_VIEW:
        return None
    return object_points.reshape(-1, 1, 3).astype(np.float32), image_points.reshape(-1, 1, 2).astype(np.float32)


def calibrate_lens(frames: Iterable[np.ndarray]) -> LensModel:
    """Intrinsics and distortion from frames showing the board at varied angles."""
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    views: list[tuple[np.ndarray, np.ndarray]] = []
    image_size: tuple[int, int] | None = None
    looked = 0
    for frame in frames:
        looked += 1
        size = (frame.shape[1], frame.shape[0])
        if image_size is None:
            image_size = size
        elif size != image_size:
            raise CalibrationError(f"lens frames differ in size ({image_size[0]}x{image_size[1]} then {size[0]}x{size[1]}): use one camera at one resolution")
        view = find_board(detector, board, frame)
        if view is not None:
            views.append(view)
    if image_size is None:
        raise CalibrationError("no frames to calibrate the lens from: give a video or images of the ChArUco board")
    if len(views) < MIN_VIEWS:
        raise CalibrationError(
            f"the ChArUco board ({BOARD_SQUARES[0]}x{BOARD_SQUARES[1]} squares, {BOARD_DICTIONARY_NAME}) was found in {len(views)} of {looked} frames, "
            f"need at least {MIN_VIEWS}: print it with `referee calibrate print-target`, keep it flat and film it from several angles filling much of the frame"
        )
    if len(views) > MAX_VIEWS:
        keep = np.linspace(0, len(views) - 1, MAX_VIEWS).round().astype(int)
        views = [views[i] for i in keep]
    object_points = [view[0] for view in views]
    image_points = [view[1] for view in views]
    flags = 0 if len(views) >= 12 else cv2.CALIB_FIX_K3
    rms, matrix, distortion, _rvecs, _tvecs = cv2.calibrateCamera(object_points, image_points, image_size, None, None, flags=flags)
    if not np.isfinite(rms) or rms > 3.0:
        raise CalibrationError(f"lens calibration did not converge (reprojection {rms:.1f} px over {len(views)} views): film the board flat, sharp and from varied angles")
    return LensModel(camera_matrix=matrix, distortion=distortion.ravel()[:5], image_size=image_size, source="lens-file", rms_px=float(rms), frames_used=len(views))


def frames_from_video(path: pathlib.Path | str, *, max_frames: int = 120) -> Iterator[np.ndarray]:
    """Frames spread over the whole video (at most `max_frames`)."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise InputFileError(f"video {path} not found: give a recording of the ChArUco board with --video")
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise VideoError(f"video {path} cannot be opened (unknown format or corrupt file): give an MP4/AVI the camera wrote")
    try:
        total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        step = max(1, total // max_frames) if total > 0 else 1
        index = 0
        yielded = 0
        while yielded < max_frames:
            ok, frame = capture.read()
            if not ok:
                break
            if index % step == 0:
                yielded += 1
                yield frame
            index += 1
        if index == 0:
            raise VideoError(f"video {path} gave no frames: check it is a readable video")
    finally:
        capture.release()


def frames_from_images(pattern: str) -> Iterator[np.ndarray]:
    paths = sorted(glob.glob(pattern))
    if not paths:
        raise InputFileError(f"no images match {pattern!r}: give a glob like 'board/*.jpg' (quote it so the shell does not expand it)")
    for name in paths:
        data = np.fromfile(name, dtype=np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise InputFileError(f"image {name} cannot be decoded: give PNG/JPEG photos of the ChArUco board")
        yield image
