"""What the board should show: the host's model of every light, and what each announcement means.

Commands to the board are absolute ("light X shows pattern Y for T ms"), so the
host can always re-send the whole model after a reset or a reconnect and the
board ends up right whatever was lost on the way.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable, Iterable, Mapping

from referee.board.protocol import LIGHT_COUNT, Light, Pattern

# How long each announcement stays visible, in ms. Longer is easier to notice from the corner
# of an eye, shorter keeps quick successive plays from blurring into each other.
LEGAL_MS = 700
ILLEGAL_MS = 1500
TOUCH_FIRST_MS = 1500
STALL_MS = 3000
SLAP_MS = 3000
ROUND_END_MS = 2000
GAME_END_MS = 6000
COUNTDOWN_STEP_MS = 1000  # 3, 2, 1, spit: one count a second, as players say it


@dataclasses.dataclass(frozen=True)
class LightState:
    pattern: Pattern = Pattern.OFF
    until: float | None = None  # monotonic seconds; None = until changed

    def shown(self, now: float) -> Pattern:
        return Pattern.OFF if self.until is not None and now >= self.until else self.pattern


@dataclasses.dataclass(frozen=True)
class SetLight:
    light: Light
    pattern: Pattern
    duration_ms: int = 0


@dataclasses.dataclass(frozen=True)
class Beep:
    notes: tuple[tuple[int, int], ...]  # (frequency_hz, duration_ms)


@dataclasses.dataclass(frozen=True)
class Countdown:
    step_ms: int = COUNTDOWN_STEP_MS


@dataclasses.dataclass(frozen=True)
class AllOff:
    pass


Intent = SetLight | Beep | Countdown | AllOff


class Display:
    """The lights the board should show now, with their expiry times."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lights = [LightState() for _ in range(LIGHT_COUNT)]

    def apply(self, intent: SetLight | AllOff) -> list[Light]:
        """Updates the model; returns the lights that changed."""
        now = self._clock()
        if isinstance(intent, AllOff):
            changed = [Light(i) for i, state in enumerate(self._lights) if state.shown(now) != Pattern.OFF]
            self._lights = [LightState() for _ in range(LIGHT_COUNT)]
            return changed
        until = now + intent.duration_ms / 1000 if intent.duration_ms else None
        self._lights[intent.light] = LightState(intent.pattern, until)
        return [intent.light]

    def entries(self, lights: Iterable[Light] | None = None) -> list[tuple[Light, Pattern, int]]:
        """(light, pattern, remaining ms) for SET_LIGHTS; expired lights are sent as off."""
        now = self._clock()
        chosen = range(LIGHT_COUNT) if lights is None else sorted(set(int(l) for l in lights))
        out = []
        for index in chosen:
            state = self._lights[index]
            pattern = state.shown(now)
            remaining = 0
            if pattern != Pattern.OFF and state.until is not None:
                remaining = max(1, int((state.until - now) * 1000))
            out.append((Light(index), pattern, remaining))
        return out

    def shown(self) -> tuple[Pattern, ...]:
        now = self._clock()
        return tuple(state.shown(now) for state in self._lights)


def _other(player: str) -> str:
    return "B" if player == "A" else "A"


def legal_play(player: str, pile: int) -> list[Intent]:
    Light.pile(pile, player)  # validates pile
    return [SetLight(Light.legal(player), Pattern.ON, LEGAL_MS), Beep(((1319, 40),))]


def illegal_play(player: str, pile: int) -> list[Intent]:
    Light.pile(pile, player)
    return [SetLight(Light.legal(player), Pattern.OFF), SetLight(Light.illegal(player), Pattern.BLINK_FAST, ILLEGAL_MS),
            Beep(((220, 350),))]


def touch_first(pile: int, player: str) -> list[Intent]:
    return [SetLight(Light.pile(pile, player), Pattern.ON, TOUCH_FIRST_MS), SetLight(Light.pile(pile, _other(player)), Pattern.OFF)]


def stall() -> list[Intent]:
    return [SetLight(Light.CENTRE, Pattern.BLINK_SLOW, STALL_MS), Beep(((660, 120), (0, 80), (660, 120)))]


def respit_countdown(step_ms: int = COUNTDOWN_STEP_MS) -> list[Intent]:
    return [SetLight(Light.CENTRE, Pattern.OFF), Countdown(step_ms)]


def slap_result(takes: Mapping[str, int | None]) -> list[Intent]:
    intents: list[Intent] = []
    for player in ("A", "B"):
        for pile in (0, 1):
            intents.append(SetLight(Light.pile(pile, player), Pattern.OFF))
    for player, pile in takes.items():
        if pile is not None:
            intents.append(SetLight(Light.pile(pile, player), Pattern.BLINK_FAST, SLAP_MS))
    intents.append(Beep(((988, 200),)))
    return intents


def round_end() -> list[Intent]:
    return [SetLight(Light.CENTRE, Pattern.ON, ROUND_END_MS), Beep(((784, 150), (523, 300)))]


def camera_lost() -> list[Intent]:
    """The referee cannot see the table (the camera stopped sending; it is being opened again): every
    verdict still lit cleared, both red lights blinking slowly until the camera is back, a falling call."""
    return [AllOff(), SetLight(Light.illegal("A"), Pattern.BLINK_SLOW), SetLight(Light.illegal("B"), Pattern.BLINK_SLOW),
            Beep(((392, 150), (0, 100), (262, 400)))]


def camera_back() -> list[Intent]:
    """The camera sends again and the referee is watching: the red lights off, a rising call."""
    return [SetLight(Light.illegal("A"), Pattern.OFF), SetLight(Light.illegal("B"), Pattern.OFF), Beep(((262, 100), (392, 150)))]


def game_end(winner: str) -> list[Intent]:
    return [AllOff(), SetLight(Light.legal(winner), Pattern.BLINK_SLOW, GAME_END_MS),
            SetLight(Light.pile(0, winner), Pattern.BLINK_SLOW, GAME_END_MS),
            SetLight(Light.pile(1, winner), Pattern.BLINK_SLOW, GAME_END_MS),
            Beep(((523, 150), (659, 150), (784, 150), (1047, 400)))]
