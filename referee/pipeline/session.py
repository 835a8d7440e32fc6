"""The referee at work: frames -> table tracker -> sightings (held until in time order) ->
observations -> rules engine -> events, written to the log as each is decided and sent to the board.

A camera misreads and misses things, so by default the session rules with the engine's config switched
to `RulesConfig.for_camera()`: the play that visibly happened is ruled, with a notice about what does
not fit, instead of being ignored.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from referee.capture.frames import Frame, Notice
from referee.errors import ObservationError
from referee.pipeline.board_link import Announcer, announce
from referee.pipeline.translate import PASSING_SECONDS, STOCK_AHEAD_SECONDS, Translator, still_gives
from referee.piles.sightings import Arrival, PileTouched, StockSeen
from referee.piles.tracker import TableLook, TableTracker
from referee.rules.cards import Card, can_play_on
from referee.rules.config import touch_error_ms
from referee.rules.engine import RulesEngine
from referee.rules.events import Event, EventLogWriter, EventType, place_notes
from referee.rules.state import GamePhase


@dataclass
class SessionStats:
    frames: int = 0
    events: int = 0
    notes: int = 0
    processing_seconds: float = 0.0
    worst_frame_ms: float = 0.0
    #: processing time from a frame arriving to its rulings being sent to the board, per ruling frame
    ruling_latency_ms: list[float] = field(default_factory=list)


class RefereeSession:
    """Feed frames with `process`; call `finish` at the end. Deterministic for the same frames."""

    def __init__(self, tracker: TableTracker, engine: RulesEngine, writer: EventLogWriter | None, *,
                 board: Announcer | None = None, on_event: Callable[[Event], None] | None = None,
                 on_frame: Callable[[Frame, "RefereeSession"], None] | None = None, camera: bool = True) -> None:
        self.tracker = tracker
        if camera and engine.config != engine.config.for_camera():
            engine.config = engine.config.for_camera()  # camera input: see the module docstring
        self.engine = engine
        self.writer = writer
        self.board = board
        self.on_event = on_event
        self.on_frame = on_frame
        self.translator = Translator()
        self.stats = SessionStats()
        self.events: list[Event] = []
        self._queue: list[tuple[float, int, object]] = []
        self._order = itertools.count()
        # touch times of cards landing whose ruling waits for the stocks to show which card left them
        self._waiting: list[float] = []
        self._last_t = 0.0  # the latest observation ruled (the engine takes them in order of t)
        self._logged_t = 0.0  # the latest event written (the log is in order of t)
        self._period = tracker.period
        self.current_frame = -1
        #: (event frame, frame being processed when it was ruled) per event: how long rulings wait
        self.ruled_at: list[tuple[int | None, int]] = []
        self._faults: set[tuple[str, str]] = set()  # the tracking faults said already (`_seen`)

    # ---------------------------------------------------------------------------------------------
    def process(self, frame: Frame, notices: list[Notice] = (), look: TableLook | None = None) -> list[Event]:
        """Referee one frame; `look`: the tracker's `look` at it, when worked out ahead."""
        started = time.perf_counter()
        self.current_frame = frame.index
        for notice in notices:
            self._hold(notice.t, notice)
        if any(self._blind(notice) for notice in notices):
            self._take_up_again()  # (`look` is the frame's alone: the fresh tracker's too)
        for sighting in self._seen(frame, look):
            self._hold(sighting.t, sighting)
            if self.translator.waits_for_stocks(sighting, self.engine.state):
                self._waiting.append(sighting.t)
        if self.on_frame is not None:
            self.on_frame(frame, self)
        touches = self.tracker.pending_touches()
        pending = min(touches.values(), default=None)
        watermark = frame.t - 2 * self._period
        if pending is not None:
            watermark = min(watermark, pending - 1e-9)
        # a card waiting for the stocks waits too while a touch close to it (the same hand on the other
        # pile?) is still to be judged
        self._waiting = [t for t in self._waiting
                         if frame.t < t + STOCK_AHEAD_SECONDS or (pending is not None and pending <= t + PASSING_SECONDS)]
        if self._waiting:
            watermark = min(watermark, min(self._waiting) - 1e-9)
        events = self._release(watermark, touches)
        elapsed = time.perf_counter() - started
        self.stats.frames += 1
        self.stats.processing_seconds += elapsed
        self.stats.worst_frame_ms = max(self.stats.worst_frame_ms, elapsed * 1000)
        if events:
            self.stats.ruling_latency_ms.append(elapsed * 1000)
        return events

    def _blind(self, notice: Notice) -> bool:
        """Whether the camera was blind long enough before this frame that the table is to be taken up again
        (`_take_up_again`): it stopped sending and was opened again, or no picture came for half a second or
        more (a `stall`, `capture.gaps.STALL_SECONDS`: a card is laid in less). A few frames dropped are
        tracked across. A recording of a live game replays as it was refereed: its gaps are its reconnections."""
        return notice.kind in ("reconnect", "stall")

    def _take_up_again(self) -> None:
        """After the camera was blind: what the tracker still waited on is judged and everything held is
        ruled, then the table is taken up again as a clip's first frames are (a tracker and a translator
        that know nothing of it; the layout they read is the engine's, as seen, in the same round), so that
        the cards laid meanwhile are not ruled as plays on what lay under them before."""
        for sighting in self.tracker.finish():
            self._hold(sighting.t, sighting)
        self._release(float("inf"))
        self._waiting = []
        self.tracker = self.tracker.afresh()
        self.translator = Translator()

    def _seen(self, frame: Frame, look: TableLook | None) -> list:
        """The tracker's sightings in `frame`; none where tracking it failed (a fault of the referee's own), which
        is said once for each kind of failure (a notice, and a line on stderr) and the next frame tracked."""
        try:
            return self.tracker.step(frame) if look is None else self.tracker.step(frame, look)
        except Exception as error:  # a fault of the referee's own: said, and the game refereed on
            said = (type(error).__name__, str(error))
            if said not in self._faults:
                self._faults.add(said)
                message = (f"could not track frame {frame.index} at t={frame.t:.3f}s ({said[0]}: {said[1]}); "
                           "refereeing on from the next frame (said once for this fault)")
                print(f"warning: {message}", file=sys.stderr)
                self._hold(frame.t, Notice("fault", frame.t, frame.index, message))
            return []

    def finish(self) -> list[Event]:
        """The video or stream has ended: what the tracker still waited on is judged, and everything held is ruled."""
        for sighting in self.tracker.finish():
            self._hold(sighting.t, sighting)
        return self._release(float("inf"))

    # ---------------------------------------------------------------------------------------------
    def _hold(self, t: float, item: object) -> None:
        heapq.heappush(self._queue, (t, next(self._order), item))

    def _release(self, watermark: float, touches: dict[int, float] | None = None) -> list[Event]:
        """Rules what is held up to `watermark`, in order of time; `touches`: per spit pile, the earliest
        touch there not judged yet (`TableTracker.pending_touches`)."""
        out: list[Event] = []
        while self._queue and self._queue[0][0] <= watermark:
            if self._touch_to_come_too_close(self._queue[0][2], touches or {}):
                break
            t, order, item = heapq.heappop(self._queue)
            other = self._too_close_after(item)
            if other is not None and other.t > watermark:
                heapq.heappush(self._queue, (t, order, item))  # ruled with the card that follows it
                break
            if other is not None and self._other_first(item, other):
                # two cards on one pile too close together to tell by their touch times: the best guess
                # is the one seen lying under the other, else the order in which the cards make sense
                self._queue.remove(next(entry for entry in self._queue if entry[2] is other))
                heapq.heapify(self._queue)
                self._hold(other.t, replace(item, t=other.t, frame=other.frame))
                t, item = item.t, replace(other, t=item.t, frame=item.frame)
            t = max(t, self._last_t)  # a late sighting keeps the log in order of t
            if isinstance(item, Arrival):
                out.extend(self._taken_back_before(item))
            out.extend(self._rule(t, item))
        return out

    def _taken_back_before(self, arrival: Arrival) -> list[Event]:
        """A stock seen later showing the card lifted back off the top of the pile `arrival` lands on,
        before it touched (the other player's card laid at once: the pile never showed the card under it
        again, and the stock settled with the card back only after): that take-back ruled first, so the
        arrival is judged on the card it landed on."""
        for entry in sorted(self._queue):
            seen = entry[2]
            if isinstance(seen, StockSeen) and self.translator.takes_back_before(seen, self.engine.state, arrival):
                self._queue.remove(entry)
                heapq.heapify(self._queue)
                return self._rule(self._last_t, seen)
        return []

    def _touch_to_come_too_close(self, first: object, touches: dict[int, float]) -> bool:
        """A card landing with a touch of its pile still to be judged just after it, too close to tell
        which came first: it waits to be ruled with that card (`_too_close_after`). The card lying under
        the other is named only once the top is read, and a phone's video, its frames stored out of order,
        timed it 0.4 ms after the top's touch instead of 2.4 ms before it."""
        later = touches.get(first.pile) if isinstance(first, Arrival) else None
        return (later is not None and later > first.t and self.engine.state.phase is GamePhase.PLAYING
                and self.engine.config.too_close((later - first.t) * 1000.0, (first.error, first.error)))

    def _too_close_after(self, first: object) -> Arrival | None:
        """The next card to be ruled when it lands on the same pile as `first`, from the other player,
        too close after it for the camera to tell which touched first (`RulesConfig.too_close`: under
        half a frame, or under the error of the two touch times). Stocks seen and notices held between the
        two are looked past: a stock settling at the very instant the second card was timed (all_at_once
        seed 306: B's stock, as B's 10S was timed at the frame it was first seen over the pile) is no reason
        to rule the two cards apart."""
        if not isinstance(first, Arrival) or not self._queue or self.engine.state.phase is not GamePhase.PLAYING:
            return None
        for _, _, second in sorted(self._queue):
            if isinstance(second, (StockSeen, Notice)):
                continue
            if (isinstance(second, Arrival) and second.pile == first.pile and second.player != first.player
                    and self.engine.config.too_close((second.t - first.t) * 1000.0, (first.error, second.error))):
                return second
            return None
        return None

    def _other_first(self, first: Arrival, second: Arrival) -> bool:
        """Of two cards too close to call, the second touched first: it was seen lying under the first (a
        card laid later lands on top) and their times are apart by less than they may be off, unless the
        card read on top could as well be the one under it (`_top_in_doubt`); else the cards make more
        sense that way."""
        if (first.under != second.under and (second.t - first.t) * 1000.0 <= touch_error_ms((first.error, second.error))
                and not _top_in_doubt(first, second)):
            return second.under
        return self._laid_the_other_way(first, second)

    def _laid_the_other_way(self, first: Arrival, second: Arrival) -> bool:
        """More of the two cards are legal plays in the other order (a card that fits only on the other's
        was laid after it)."""
        top = self.engine.state.pile_tops[first.pile]

        def legal(card: Card | None, on: Card | None) -> int:
            return int(card is not None and on is not None and can_play_on(card, on))

        return legal(second.card, top) + legal(first.card, second.card) > legal(first.card, top) + legal(second.card, first.card)

    def _rule(self, t: float, item: object) -> list[Event]:
        if isinstance(item, Notice):
            return self._emit([Event(EventType.NOTICE, t, item.frame, {"message": item.message, "kind": item.kind})])
        # a card landing is named by what comes after it (its stock seen losing it, the hand's next card)
        coming = ([later for _, _, later in self._queue if isinstance(later, (StockSeen, Arrival, PileTouched))]
                  if isinstance(item, (Arrival, PileTouched)) else ())
        try:
            observations, note = self.translator.translate(item, self.engine.state, coming)
        except Exception as error:  # a fault of the referee's own: said, and the game refereed on
            return self._emit([self._fault(t, item, error)])
        events: list[Event] = []
        for observation in observations:
            if observation.t < self._last_t:
                observation = type(observation)(**{**_fields(observation), "t": self._last_t})
            try:
                events.extend(self.engine.observe(observation))
            except ObservationError as error:
                events.append(Event(EventType.NOTICE, max(observation.t, self._last_t), observation.frame,
                                    {"message": f"ignored: {error}"}))
            except Exception as error:  # as above
                events.append(self._fault(observation.t, observation, error))
            self._last_t = max(self._last_t, observation.t)
        if note:
            place_notes(events, [Event(EventType.NOTICE, t, getattr(item, "frame", None), {"message": note})])
        return self._emit(events)

    def _fault(self, t: float, item: object, error: Exception) -> Event:
        """A notice for what the referee itself failed to rule (a fault in its own code, met on footage no test
        had): the rulings before and after it stand, where a replay or a live game would otherwise end there.
        Said on stderr as well, in one line."""
        message = (f"could not rule {type(item).__name__} at t={t:.3f}s ({type(error).__name__}: {error}); "
                   "refereeing on without it")
        print(f"warning: {message}", file=sys.stderr)
        return Event(EventType.NOTICE, max(t, self._last_t), getattr(item, "frame", None), {"message": message, "kind": "fault"})

    def _emit(self, events: list[Event]) -> list[Event]:
        for event in events:
            if event.t < self._logged_t:
                event = Event(event.type, self._logged_t, event.frame, dict(event.details))
            self._logged_t = event.t
            self._last_t = max(self._last_t, event.t)
            if self.writer is not None:
                self.writer.write(event)
            if self.board is not None:
                announce(self.board, event)
            if self.on_event is not None:
                self.on_event(event)
            self.events.append(event)
            self.ruled_at.append((event.frame, self.current_frame))
            self.stats.events += 1
        return events


def _top_in_doubt(first: Arrival, second: Arrival) -> bool:
    """Of two cards on one pile, one seen lying under the other: the reading of the card on top still gives
    the card under it (`still_gives`: a `KC` and a `KS` are a few pixels of black apart), so which lies on
    top, and so which came first, is not known from it (racing in decks the models never saw, a `KC` laid
    on a `KS` 16 ms later was read `KS` on top, and the pair was ordered against its times)."""
    top, under = (second, first) if first.under else (first, second)
    return under.card is not None and under.card.suit is not None and still_gives(top, under.card)


def _fields(observation: object) -> dict:
    from dataclasses import fields

    return {item.name: getattr(observation, item.name) for item in fields(observation)}
