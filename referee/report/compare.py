"""Rulings against a true event log: which plays were found, which were right, how far off the times were.

Used by the demo (side by side with the truth), the end-to-end tests and benchmarks/referee_accuracy.py.
Events are matched by type and place: a found `play` or `spit` matches the true one on the same pile
with the nearest `t` within `MATCH_SECONDS` not matched yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.rules.events import Event, EventType

#: Largest time difference (s) at which a ruling still matches a true event.
MATCH_SECONDS = 0.25
#: a stall is due within half a second of the moment no card could move: a called stall that late
#: still counts as that stall (a later one is a false stall, and the true one missed)
STALL_SECONDS = 0.5
#: a breach called this close (s) to the true one, by the same player and of the same kind, is that breach
VIOLATION_SECONDS = 0.5
CARD_EVENTS = (EventType.PLAY, EventType.SPIT)


@dataclass
class Comparison:
    pairs: list[tuple[Event, Event]] = field(default_factory=list)   # (true, found)
    missed: list[Event] = field(default_factory=list)
    extra: list[Event] = field(default_factory=list)
    touch_pairs: list[tuple[Event, Event | None]] = field(default_factory=list)
    stall_pairs: list[tuple[Event, Event | None]] = field(default_factory=list)
    false_stalls: list[Event] = field(default_factory=list)
    slap_pairs: list[tuple[Event, Event | None]] = field(default_factory=list)
    round_end_pairs: list[tuple[Event, Event | None]] = field(default_factory=list)
    violation_pairs: list[tuple[Event, Event | None]] = field(default_factory=list)
    false_violations: list[Event] = field(default_factory=list)

    @property
    def recall(self) -> float:
        total = len(self.pairs) + len(self.missed)
        return len(self.pairs) / total if total else 1.0

    @property
    def precision(self) -> float:
        total = len(self.pairs) + len(self.extra)
        return len(self.pairs) / total if total else 1.0

    def right(self, key: str) -> float:
        keyed = [(true, found) for true, found in self.pairs if key in true.details]
        if not keyed:
            return 1.0
        return sum(1 for true, found in keyed if str(true.get(key)) == str(found.get(key))) / len(keyed)

    @property
    def all_right(self) -> float:
        if not self.pairs:
            return 1.0
        keys = ("player", "card", "legal", "pile")
        return sum(1 for true, found in self.pairs
                   if all(str(true.get(k)) == str(found.get(k)) for k in keys if k in true.details)) / len(self.pairs)

    def time_errors(self) -> list[float]:
        return [abs(found.t - true.t) for true, found in self.pairs]


def _match(truth: list[Event], found: list[Event], key, within: float = MATCH_SECONDS
           ) -> tuple[list[tuple[Event, Event]], list[Event], list[Event]]:
    pairs, missed = [], []
    free = list(found)
    for true in truth:
        options = [event for event in free if key(event) == key(true) and abs(event.t - true.t) <= within]
        if not options:
            missed.append(true)
            continue
        best = min(options, key=lambda event: abs(event.t - true.t))
        free.remove(best)
        pairs.append((true, best))
    return pairs, missed, free


def compare(truth: list[Event], found: list[Event], *, t_from: float = 0.0) -> Comparison:
    truth = [event for event in truth if event.t >= t_from]
    result = Comparison()
    true_cards = [event for event in truth if event.type in CARD_EVENTS]
    found_cards = [event for event in found if event.type in CARD_EVENTS]
    # first the exact matches (same pile, card and player), then what is left by pile alone: two cards
    # landing on one pile a few ms apart are not paired crosswise
    exact, rest_true, rest_found = _match(true_cards, found_cards,
                                          lambda event: (event.get("pile"), str(event.get("card")), event.get("player")))
    loose, result.missed, result.extra = _match(rest_true, rest_found, lambda event: event.get("pile"))
    result.pairs = sorted(exact + loose, key=lambda pair: pair[0].t)
    true_touch = [event for event in truth if event.type is EventType.TOUCH_ORDER]
    found_touch = [event for event in found if event.type is EventType.TOUCH_ORDER]
    pairs, missed, _ = _match(true_touch, found_touch, lambda event: event.get("pile"))
    result.touch_pairs = pairs + [(event, None) for event in missed]
    true_stalls = [event for event in truth if event.type is EventType.STALL]
    found_stalls = [event for event in found if event.type is EventType.STALL]
    pairs, missed, extra = _match(true_stalls, found_stalls, lambda event: None, STALL_SECONDS)
    result.stall_pairs = pairs + [(event, None) for event in missed]
    result.false_stalls = extra
    true_breaches = [event for event in truth if event.type is EventType.VIOLATION]
    found_breaches = [event for event in found if event.type is EventType.VIOLATION and event.t >= t_from]
    pairs, missed, extra = _match(true_breaches, found_breaches, lambda event: (event.get("player"), event.get("kind")),
                                  VIOLATION_SECONDS)
    result.violation_pairs = pairs + [(event, None) for event in missed]
    result.false_violations = extra
    for kind, target in ((EventType.SLAP, "slap_pairs"), (EventType.ROUND_END, "round_end_pairs")):
        true_events = [event for event in truth if event.type is kind]
        found_events = [event for event in found if event.type is kind]
        matched = []
        for true in true_events:
            near = [event for event in found_events if abs(event.t - true.t) <= 1.0 and
                    (kind is not EventType.SLAP or event.get("player") == true.get("player"))]
            matched.append((true, min(near, key=lambda event: abs(event.t - true.t)) if near else None))
        setattr(result, target, matched)
    return result


def side_by_side(truth: list[Event], found: list[Event], *, width: int = 52) -> list[str]:
    """Lines `true ruling | referee's ruling`, aligned by matched card events; others interleaved by t."""
    from referee.report.page import describe

    comparison = compare(truth, found)
    partner = {id(true): got for true, got in comparison.pairs}
    matched_found = {id(got) for _, got in comparison.pairs}
    rows: list[tuple[float, str, str]] = []
    for event in truth:
        if event.type in (EventType.ROUND_START, EventType.NOTICE):
            continue
        got = partner.get(id(event))
        right = "" if got is None and event.type in CARD_EVENTS else None
        if got is not None:
            mark = "ok " if all(str(event.get(k)) == str(got.get(k)) for k in ("player", "card", "legal") if k in event.details) else "XX "
            right = f"{mark}{got.t:7.3f} {describe(got)}"
        elif event.type in CARD_EVENTS:
            right = "-- missed"
        rows.append((event.t, f"{event.t:7.3f} {describe(event)}", right or ""))
    for event in found:
        if event.type in CARD_EVENTS and id(event) not in matched_found:
            rows.append((event.t, "", f"++ {event.t:7.3f} {describe(event)}"))
        elif event.type not in CARD_EVENTS and event.type not in (EventType.ROUND_START,):
            rows.append((event.t, "", f"   {event.t:7.3f} {describe(event)}"))
    rows.sort(key=lambda row: row[0])
    lines = [f"{'truth':<{width}} | referee", "-" * (2 * width + 3)]
    for _, left, right in rows:
        lines.append(f"{left[:width]:<{width}} | {right}")
    return lines
