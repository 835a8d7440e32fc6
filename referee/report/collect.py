"""Keeps the last few seconds of footage (the centre of the table, and whose hands were where) so that
when a contested call is ruled, the frames around its touch can still be drawn for the report."""

from __future__ import annotations

import collections
import pathlib
from dataclasses import dataclass, field

import numpy as np

from referee.capture.frames import Frame
from referee.report.draw import CallFrame, crop_box, draw_call_frame
from referee.rules.events import Event, EventType

#: Footage kept in memory, by time: a ruling comes at most a couple of seconds after its touch (2.02 s at
#: most over the 96 contested calls of twelve `all_at_once` games, a take-back at 60 fps). Kept by count
#: (120 frames: 4 s at 30 fps, 2 s at 60) that take-back was drawn without its frames.
KEEP_SECONDS = 4.0


def is_contested(event: Event) -> bool:
    """Calls two players might argue about: touch order, illegal plays, slaps, breaches."""
    if event.type in (EventType.TOUCH_ORDER, EventType.SLAP, EventType.VIOLATION):
        return True
    return event.type is EventType.PLAY and not event.get("legal", True)


@dataclass
class Call:
    event: Event
    frames: list[CallFrame] = field(default_factory=list)


class RecentFrames:
    """What was kept of each frame of the last `seconds` of footage, by frame index: as many frames as that
    takes at any frame rate."""

    def __init__(self, seconds: float = KEEP_SECONDS) -> None:
        self.seconds = seconds
        self._kept: collections.OrderedDict[int, tuple[float, object]] = collections.OrderedDict()

    def add(self, index: int, t: float, kept: object) -> None:
        self._kept[index] = (t, kept)
        while next(iter(self._kept.values()))[0] < t - self.seconds:
            self._kept.popitem(last=False)

    def get(self, index: int) -> tuple[float, object] | None:
        """(t, what was kept) of frame `index`, or None where it is older than the footage kept (or never seen)."""
        return self._kept.get(index)

    def first_at(self, t: float) -> int | None:
        """The index of the first frame kept taken at `t` or after (to the microsecond), or None."""
        return next((index for index, (taken, _) in self._kept.items() if taken >= t - 1e-6), None)

    def __len__(self) -> int:
        return len(self._kept)


class ReportCollector:
    def __init__(self, folder: str | pathlib.Path, *, keep_seconds: float = KEEP_SECONDS) -> None:
        self.folder = pathlib.Path(folder)
        self._recent = RecentFrames(keep_seconds)
        self._box: tuple[int, int, int, int] | None = None
        self._seen_events = 0
        self.calls: list[Call] = []
        self._session = None

    def on_frame(self, frame: Frame, session) -> None:
        """Hooked into RefereeSession: remembers this frame, and draws calls ruled since the last one."""
        self._session = session
        tracker = session.tracker
        if self._box is None:
            self._box = crop_box(tracker.view, frame.image.shape)
        x0, y0, x1, y1 = self._box
        masks = tracker.last_masks
        owners = np.zeros(tracker.shape, np.uint8)
        if masks is not None:
            owners[masks.owned["A"] > 0] = 1
            owners[masks.owned["B"] > 0] = 2
        outlines = {place.index: place_tracker.footprint.copy() for place, place_tracker in tracker.places.items()
                    if place.kind == "spit_pile"}
        self._recent.add(frame.index, frame.t, (frame.image[y0:y1, x0:x1].copy(), owners, outlines))
        self._collect(session)

    def _collect(self, session) -> None:
        events = session.events
        for event in events[self._seen_events:]:
            if is_contested(event):
                self.calls.append(self._call(event, session))
        self._seen_events = len(events)

    def _call(self, event: Event, session) -> Call:
        call = Call(event)
        if event.frame is None:
            return call
        tracker = session.tracker
        # drawn at the moment it happened on the table (`t`), which for a take-back lies before the frame that
        # showed it (`frame`: the card seen back on its stock); for a card laid, the first frame touching
        at = self._recent.first_at(event.t)
        at = event.frame if at is None or at > event.frame else at
        for offset, label in ((-1, "before"), (0, "at"), (1, "after")):
            kept = self._recent.get(at + offset)
            if kept is None:
                continue
            t, (image, owners, outlines) = kept
            call.frames.append(draw_call_frame(label, at + offset, t, image, self._box, owners, outlines, tracker, event))
        return call

    def write(self, session, *, video: str = "") -> pathlib.Path:
        from referee.report.page import write_report

        if self._session is not None:
            self._collect(self._session)
        return write_report(self.folder, session.events, self.calls, video=video, notices=[])
