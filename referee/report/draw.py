"""Drawing a contested call: the centre of the table, each spit pile's outline, each player's hand
(A red, B blue), and the times."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.rules.events import Event, EventType

COLOURS = {"A": (40, 40, 230), "B": (230, 120, 30)}
PILE_COLOUR = (40, 220, 250)


@dataclass
class CallFrame:
    label: str        # "before", "at", "after"
    frame: int
    t: float
    image: np.ndarray


def crop_box(view, image_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Camera-pixel box (x0, y0, x1, y1) around the spit piles' band of the table, with a margin."""
    width, height = view.area_mm
    corners = view.table_to_image(np.array([[width * 0.18, height * 0.22], [width * 0.82, height * 0.22],
                                            [width * 0.82, height * 0.78], [width * 0.18, height * 0.78]]))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    return max(0, x0), max(0, y0), min(image_shape[1], x1), min(image_shape[0], y1)


def _contours_to_image(mask: np.ndarray, view, offset_rows: int, offset_cols: int, box) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for contour in contours:
        points = contour.reshape(-1, 2).astype(np.float64) + np.array([offset_cols, offset_rows])
        image_points = view.view_to_image(points) - np.array([box[0], box[1]])
        out.append(np.round(image_points).astype(np.int32).reshape(-1, 1, 2))
    return out


def draw_call_frame(label: str, frame: int, t: float, image: np.ndarray, box, owners: np.ndarray,
                    outlines: dict, tracker, event: Event) -> CallFrame:
    canvas = image.copy()
    view = tracker.view
    for place, place_tracker in tracker.places.items():
        if place.kind != "spit_pile" or place.index not in outlines:
            continue
        contours = _contours_to_image(outlines[place.index], view, place_tracker.rows.start, place_tracker.cols.start, box)
        cv2.polylines(canvas, contours, True, PILE_COLOUR, 2, cv2.LINE_AA)
    for value, player in ((1, "A"), (2, "B")):
        contours = _contours_to_image(owners == value, view, 0, 0, box)
        cv2.polylines(canvas, contours, True, COLOURS[player], 2, cv2.LINE_AA)
    scale = 1.0 if canvas.shape[1] >= 480 else 480 / canvas.shape[1]
    if scale != 1.0:
        canvas = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    banner = f"{label}: frame {frame}  t={t:.3f}s  {_from_the_moment(t, event)}"
    cv2.rectangle(canvas, (0, 0), (canvas.shape[1], 22), (0, 0, 0), -1)
    cv2.putText(canvas, banner, (6, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    return CallFrame(label, frame, t, canvas)


def _from_the_moment(t: float, event: Event) -> str:
    """How far a frame taken at `t` lies from the moment of the call ("9 ms before the touch")."""
    moment = "touch" if event.type in (EventType.PLAY, EventType.SPIT, EventType.TOUCH_ORDER, EventType.SLAP) else "moment"
    gap_ms = (t - event.t) * 1000.0
    if abs(gap_ms) < 0.5:
        return f"at the {moment}"
    return f"{abs(gap_ms):.0f} ms {'before' if gap_ms < 0 else 'after'} the {moment}"
