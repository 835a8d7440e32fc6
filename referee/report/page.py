"""Writes the dispute report: index.html, timeline.png and three PNGs per contested call."""

from __future__ import annotations

import html
import pathlib

import cv2
import numpy as np

from referee.errors import InputFileError
from referee.rules.events import Event, EventType

#: what each breach means, in words for the players
BREACHES = {
    "two_hands": "played with the other hand",
    "two_cards": "moved two cards at once",
    "sixth_stock": "laid out a sixth stock pile",
    "take_back": "took a played card back",
    "pile_not_in_use": "played on a spit pile not in use",
    "play_after_round_end": "played after the round had ended",
    "early_slap": "slapped before the round had ended",
    "spit_without_stall": "spat with a play still possible",
}
ROWS = ("spit", "play", "touch_order", "stall", "slap", "round_end", "violation", "game_end", "notice")
PLAYER_BGR = {"A": (40, 40, 230), "B": (230, 120, 30), None: (90, 90, 90)}


def describe(event: Event) -> str:
    d = event.details
    kind = event.type.value
    if kind == "play":
        verdict = "legal" if d.get("legal") else "ILLEGAL"
        return f"{d['player']} plays {d['card']} on {d.get('on')} (pile {d['pile']}): {verdict}"
    if kind == "spit":
        return f"{d['player']} spits {d['card']} onto pile {d['pile']}"
    if kind == "touch_order":
        close = " - too close to call, best guess" if d.get("too_close") else ""
        error = f" (± {float(d['error_ms']):.1f})" if d.get("error_ms") else ""
        return f"pile {d['pile']}: {d['first']} touched first by {float(d['gap_ms']):.1f} ms{error}{close}"
    if kind == "slap":
        return f"{d['player']} slaps pile {d['pile']}"
    if kind == "round_end":
        return f"round ends ({d['reason']}); takes {dict(d['takes'])}"
    if kind == "violation":
        said = BREACHES.get(d["kind"])
        return f"{d['player']} {said} ({d['kind']})" if said else f"{d['player']}: {d['kind']}"
    if kind == "game_end":
        return f"game over: {d['winner']} wins"
    if kind == "notice":
        return str(d.get("message", ""))
    return kind


#: the timeline's key, drawn under it: (mark, colour, words)
KEY = (("dot", "A", "A"), ("dot", "B", "B"), ("cross", "A", "illegal play (in its player's colour)"),
       ("diamond", "A", "too close to call (the best guess's colour)"))


def timeline_image(events: list[Event], width: int = 1200) -> np.ndarray:
    row_height, left, key_height = 26, 110, 24
    height = row_height * len(ROWS) + 40
    image = np.full((height + key_height, width, 3), 255, np.uint8)
    end = max([event.t for event in events] + [1.0])
    scale = (width - left - 20) / end
    for number, name in enumerate(ROWS):
        y = 20 + number * row_height + row_height // 2
        cv2.putText(image, name, (6, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.line(image, (left, y), (width - 20, y), (225, 225, 225), 1)
    for second in range(0, int(end) + 1, max(1, int(end / 12) or 1)):
        x = left + int(second * scale)
        cv2.line(image, (x, 14), (x, height - 22), (238, 238, 238), 1)
        cv2.putText(image, f"{second}s", (x - 8, height - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (80, 80, 80), 1, cv2.LINE_AA)
    for event in events:
        if event.type.value not in ROWS:
            continue
        y = 20 + ROWS.index(event.type.value) * row_height + row_height // 2
        x = left + int(event.t * scale)
        colour = PLAYER_BGR.get(event.get("player") or event.get("first") or event.get("winner"), PLAYER_BGR[None])
        if event.type is EventType.PLAY and not event.get("legal", True):
            _mark(image, "cross", (x, y), colour)
        elif event.type is EventType.TOUCH_ORDER and event.get("too_close"):
            _mark(image, "diamond", (x, y), colour)
        else:
            _mark(image, "dot", (x, y), colour)
    x = left
    for mark, player, words in KEY:
        _mark(image, mark, (x, height + key_height // 2 - 2), PLAYER_BGR[player])
        cv2.putText(image, words, (x + 12, height + key_height // 2 + 3), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (60, 60, 60), 1, cv2.LINE_AA)
        x += 24 + cv2.getTextSize(words, cv2.FONT_HERSHEY_SIMPLEX, 0.42, 1)[0][0]
    return image


def _mark(image: np.ndarray, mark: str, at: tuple[int, int], colour: tuple[int, int, int]) -> None:
    if mark == "cross":
        cv2.drawMarker(image, at, colour, cv2.MARKER_TILTED_CROSS, 13, 3)
    elif mark == "diamond":
        cv2.drawMarker(image, at, colour, cv2.MARKER_DIAMOND, 12, 2)
    else:
        cv2.circle(image, at, 5, colour, -1, cv2.LINE_AA)


def write_report(folder: pathlib.Path, events: list[Event], calls: list, *, video: str = "", notices: list = ()) -> pathlib.Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputFileError(f"cannot write the report into {folder}: {error.strerror or error}") from None
    cv2.imwrite(str(folder / "timeline.png"), timeline_image(list(events)))
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Spit referee: dispute report</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1300px} img{max-width:100%} "
        ".frames{display:flex;gap:8px} .frames figure{margin:0;flex:1} table{border-collapse:collapse} "
        "td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left} .A{color:#d22} .B{color:#17e} "
        ".illegal{font-weight:bold}</style></head><body>",
        f"<h1>Dispute report</h1><p>Video: <code>{html.escape(video)}</code>. {len(events)} rulings, "
        f"{len(calls)} contested or close calls. Outlines: spit piles in yellow; hands of A in red, of B in blue.</p>",
        "<h2>Timeline</h2><img src='timeline.png' alt='timeline of the game'>",
        "<h2>Contested and close calls</h2>",
    ]
    if not calls:
        parts.append("<p>None.</p>")
    for number, call in enumerate(calls, start=1):
        event = call.event
        parts.append(f"<h3 id='call{number}'>{number}. t={event.t:.3f}s, frame {event.frame}: {html.escape(describe(event))}</h3>")
        if event.type is EventType.TOUCH_ORDER:
            gap = float(event["gap_ms"])
            error = event.details.get("error_ms")
            timing = f" (the two times may be off: the gap by about {float(error):.1f} ms)" if error else ""
            parts.append(f"<p>First touch by <b>{event['first']}</b> at t={event.t - gap / 1000:.3f}s; the other at "
                         f"t={event.t:.3f}s; margin {gap:.1f} ms{timing}"
                         f"{' &mdash; below what the camera can resolve: too close to call' if event['too_close'] else ''}.</p>")
        if not call.frames:
            parts.append("<p>(frames not kept)</p>")
            continue
        parts.append("<div class='frames'>")
        for frame in call.frames:
            name = f"call{number:03d}_{frame.label}.png"
            cv2.imwrite(str(folder / name), frame.image)
            parts.append(f"<figure><img src='{name}'><figcaption>{frame.label}: frame {frame.frame}, t={frame.t:.3f}s"
                         "</figcaption></figure>")
        parts.append("</div>")
    parts.append("<h2>All rulings</h2><table><tr><th>t (s)</th><th>frame</th><th>type</th><th>ruling</th></tr>")
    drawn = {id(call.event): number for number, call in enumerate(calls, start=1)}  # a contested call links to its frames
    for event in events:
        player = event.get("player") or ""
        css = f" class='{player}{' illegal' if event.type is EventType.PLAY and not event.get('legal', True) else ''}'"
        ruling = html.escape(describe(event))
        if id(event) in drawn:
            ruling = f"<a href='#call{drawn[id(event)]}'>{ruling}</a>"
        parts.append(f"<tr{css}><td>{event.t:.3f}</td><td>{event.frame}</td><td>{event.type.value}</td><td>{ruling}</td></tr>")
    parts.append("</table></body></html>")
    page = folder / "index.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page
