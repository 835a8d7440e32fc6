"""Reading a settled place: which card is on top, a face-down card, or nothing.

The recogniser (engineer V's `CardRecogniser`, or a fake in tests) names face-up cards. Telling a
face-down card from an empty spot needs no model: an empty spot looks like the bare table, which
the tracker samples from strips no card is ever laid on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import cv2
import numpy as np

from referee.piles.table_view import RectMM
from referee.rules.cards import Card, same_card

#: Recogniser confidence under which a named card is not trusted. Lower: more misreads accepted;
#: higher: more places read as "unknown" (the tracker then falls back on what it knew, reads again, or
#: names the card by the stock it left). Kept at the recogniser's PILE_NAMING_THRESHOLD, where it was measured.
MIN_CONFIDENCE = 0.3
#: Fraction of a spot's centre that must look unlike the bare table for something to lie there.
PRESENCE_FRACTION = 0.35
#: A pixel is unlike the table when its colour is less than this share as typical of the table as the
#: table's own pixels are, and in any case when below UNLIKE_FLOOR (a share of the table's colours).
UNLIKE_SHARE = 0.1
UNLIKE_FLOOR = 0.002
#: A spot is plainly bare, not worth the recogniser's time, when at most this share of it is unlike the
#: table (on rendered tables: an empty spot 0-1 %, a card or its back at least 69 %) ...
PLAINLY_BARE = 0.1
#: ... on a table of which at most this share is card-coloured: on a white cloth or a pale table a card's
#: face looks like the table itself, and only the recogniser can see it.
PALE_TABLE_SHARE = 0.05
#: ... or on which the cards named in a layout look like the table: the median card at least this share like it
#: (`TableColour.faces_seen`: a pale grey cloth under a dimmed lamp, its cards' faces the same grey, no longer
#: bright enough to count as card-coloured; on rendered tables the median card 0.01-0.25 elsewhere, 0.89 there).
FACES_LIKE_TABLE = 0.5
#: A pixel is card-coloured (a face or its border) when at least this bright and at most this saturated.
CARD_MIN_VALUE = 140
CARD_MAX_SATURATION = 70
#: ... or, where the cards' paper seen in the opening layout is itself this saturated or more under the
#: room's light (a warm lamp, a cream deck), at most this much more saturated than that paper
#: (`paper_saturation_limit`); never over PAPER_MOST. Skin under the same light stays more saturated still.
PAPER_MARGIN = 25
PAPER_MOST = 140


class TopCardNamer(Protocol):
    """The one method the tracker needs from recognition."""

    def name_top_card(self, rectified_pile_image: np.ndarray) -> tuple[Card | None, float]: ...


@dataclass(frozen=True)
class Reading:
    """What lies on a place: `card` face up, `face_down`, or neither (empty)."""

    card: Card | None
    face_down: bool = False
    confidence: float = 0.0
    #: other cards it could be, (card, probability) best first, from a namer that gives them; not part
    #: of what the place shows (two readings of one card are equal whatever their doubts)
    alternatives: tuple[tuple[Card, float], ...] = field(default=(), compare=False)
    #: the card's four corners in the pixels of the cut read, from a namer that says where it found it
    outline: np.ndarray | None = field(default=None, compare=False, repr=False)

    def named_surely(self, at: float) -> bool:
        """It names a card, suit and all, with a confidence of `at` or more."""
        return self.card is not None and self.card.suit is not None and self.confidence >= at

    @property
    def empty(self) -> bool:
        return self.card is None and not self.face_down

    def __str__(self) -> str:
        return str(self.card) if self.card else ("back" if self.face_down else "empty")


def card_gone(before: Reading, now: Reading) -> bool:
    """The card read on a place `before` is no longer what lies there `now` (nothing, a back, another
    card); one of its rank read again with its suit seen or lost is the same card still."""
    return before.card is not None and (now.card is None or not same_card(now.card, before.card))


class TableColour:
    """A colour model of the bare table (hue-saturation-value histogram) learned from never-covered strips.

    The histogram is smoothed over neighbouring bins: a plain green felt sits right on a hue bin's edge,
    and a shift of one or two grey levels (a camera's white balance, a hand's shadow) would otherwise
    move half its pixels into a bin never seen. It follows the light slowly (`learn(..., blend=)`)."""

    BINS = (18, 8, 8)

    def __init__(self) -> None:
        self._histogram: np.ndarray | None = None
        self._typical = 0.0  # the median likeness of the table's own pixels when last learned
        self._pale = 1.0  # the share of the table that is card-coloured (until learned: all of it)
        self._faces_like_table = False  # the cards named on it look like it (`faces_seen`)

    def learn(self, samples: list[np.ndarray], blend: float = 1.0) -> None:
        """`blend`: the weight of these samples against what was learned before (1 = start afresh)."""
        pixels = np.concatenate([sample.reshape(-1, 1, 3) for sample in samples if sample.size], axis=0)
        if not pixels.size:
            return
        hsv = cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV)
        histogram = cv2.calcHist([hsv], [0, 1, 2], None, list(self.BINS), [0, 180, 0, 256, 0, 256])
        histogram = _smoothed(histogram / max(float(histogram.sum()), 1.0))
        pale = float(_paper(hsv).mean())
        if self._histogram is None or blend >= 1.0:
            self._histogram, self._pale = histogram, pale
        else:
            self._histogram = (1.0 - blend) * self._histogram + blend * histogram
            self._pale = (1.0 - blend) * self._pale + blend * pale
        self._typical = float(np.median(self.table_likeness(pixels)))

    def table_likeness(self, image: np.ndarray) -> np.ndarray:
        """Per pixel: how typical its colour is of the bare table (0 = never seen on the table)."""
        if self._histogram is None:
            return np.zeros(image.shape[:2], np.float32)
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        bins = (hsv[..., 0].astype(np.int32) * self.BINS[0] // 180, hsv[..., 1].astype(np.int32) // 32,
                hsv[..., 2].astype(np.int32) // 32)
        return self._histogram[bins[0], bins[1], bins[2]]

    def looks_bare(self, image: np.ndarray) -> np.ndarray:
        """Per pixel (bool): of a colour typical of the bare table (see `something_there`)."""
        return self.table_likeness(image) >= max(UNLIKE_FLOOR, UNLIKE_SHARE * self._typical)

    def something_there(self, spot: np.ndarray) -> bool:
        """At least PRESENCE_FRACTION of the spot is unlike the table: less than UNLIKE_SHARE as typical of
        it as its own pixels are (a colour one bin off the table's in one way, as a change of light
        makes it, stays table; one bin off in two ways, as a pink back on a beige table, does not)."""
        return self.unlike_share(spot) > PRESENCE_FRACTION

    def unlike_share(self, spot: np.ndarray) -> float:
        """The share of the spot's pixels unlike the bare table (see `looks_bare`)."""
        return float((~self.looks_bare(spot)).mean())

    def plainly_bare(self, unlike_share: float) -> bool:
        """Nothing lies on a spot this much unlike the table, for sure: at most PLAINLY_BARE of it, on a table
        not card-coloured (PALE_TABLE_SHARE), where a face lying there would stand out."""
        return not self.hides_faces() and unlike_share <= PLAINLY_BARE

    def hides_faces(self) -> bool:
        """The table is card-coloured (more than PALE_TABLE_SHARE of it): a white cloth or a pale wood,
        on which a card's face may look like the table itself; or the faces seen on it did (`faces_seen`)."""
        return self._pale > PALE_TABLE_SHARE or self._faces_like_table

    def faces_seen(self, faces: list[np.ndarray]) -> None:
        """The pixels (N x 3 BGR, in the light the table's colour is known in) of face-up cards named on the
        table: whether faces look like it (FACES_LIKE_TABLE), where two or more are given."""
        shares = [float(self.looks_bare(face.reshape(-1, 1, 3)).mean()) for face in faces if face.size]
        if len(shares) >= 2:
            self._faces_like_table = float(np.median(shares)) >= FACES_LIKE_TABLE


def _smoothed(histogram: np.ndarray) -> np.ndarray:
    """Each bin shares a quarter of its weight with each neighbour on every axis (hue wraps round)."""
    out = histogram.astype(np.float32)
    for axis in range(3):
        if axis == 0:
            before, after = np.roll(out, 1, axis=0), np.roll(out, -1, axis=0)
        else:
            pad = [(0, 0)] * 3
            pad[axis] = (1, 1)
            padded = np.pad(out, pad, mode="edge")
            before = np.take(padded, range(0, out.shape[axis]), axis=axis)
            after = np.take(padded, range(2, out.shape[axis] + 2), axis=axis)
        out = 0.5 * out + 0.25 * (before + after)
    return out / max(float(out.sum()), 1e-9)


def read_place(namer: TopCardNamer, crop: np.ndarray, spot: np.ndarray, table: TableColour,
               px_per_mm: float | None = None, outline: np.ndarray | None = None, *, whole_card: bool = False) -> Reading:
    """`crop`: a sharp top-down cut around the place for the recogniser, at `px_per_mm` when known;
    `spot`: the nominal card area; `outline`: the top card's corners in `crop`'s pixels, where the
    tracker saw it land (a namer that can use it reads there first); `whole_card`: a whole card lies
    there for sure when anything does (a stock slot), so an outline showing no face is a card's back."""
    unlike = table.unlike_share(spot)
    if table.plainly_bare(unlike):
        return Reading(None)
    alternatives: tuple = ()
    there = unlike > PRESENCE_FRACTION  # something lies there, face up or down
    if hasattr(namer, "read_top_card"):  # a namer that also says what else the card could be
        # a card taken away leaves its outline behind: with nothing there, there is nothing to read by it;
        # but on a pale table a face may look bare, and the outline the tracker saw it land in is read first
        # (else each card laid there is searched for). `whole_card` only when true: a namer that knows
        # nothing of it reads as before
        by_outline = {} if not (there or table.hides_faces()) else {"outline": outline, "whole_card": True} if whole_card else {"outline": outline}
        read = namer.read_top_card(crop, px_per_mm=px_per_mm, **by_outline)
        card, confidence, alternatives = read.card, read.confidence, tuple(read.alternatives)
        found_at = getattr(read, "outline", None)
    else:
        card, confidence = namer.name_top_card(crop)
        found_at = None
    if card is not None and confidence >= MIN_CONFIDENCE:
        return Reading(card, False, float(confidence), alternatives, outline=found_at)
    return Reading(None, there, float(confidence), alternatives)


def card_coloured(view: np.ndarray, most: int = CARD_MAX_SATURATION) -> np.ndarray:
    """uint8 mask of pale, unsaturated pixels: card faces and their white borders (saturation at most
    `most`)."""
    return paper_within(paper_saturation(view), most)


def paper_saturation(view: np.ndarray) -> np.ndarray:
    """uint8: each pixel's saturation (HSV, 0-255) where it is CARD_MIN_VALUE bright or more, 255 where
    darker: the card paper is what is at most some saturation here (`paper_within`)."""
    return _pale_saturation(cv2.cvtColor(view, cv2.COLOR_BGR2HSV))


def _pale_saturation(hsv: np.ndarray) -> np.ndarray:
    """`paper_saturation` of an HSV image."""
    saturation, value = cv2.extractChannel(hsv, 1), cv2.extractChannel(hsv, 2)
    return cv2.max(saturation, cv2.compare(value, CARD_MIN_VALUE, cv2.CMP_LT))


def paper_within(saturation: np.ndarray, most: int) -> np.ndarray:
    """uint8 0/1 mask of the card-coloured pixels of a `paper_saturation` image."""
    return cv2.threshold(saturation, most, 1, cv2.THRESH_BINARY_INV)[1]


def paper_saturation_limit(cards: list[np.ndarray]) -> int | None:
    """The most saturated a pixel may be to be card paper, from the pixels (N x 3 BGR) of face-up cards
    seen on the table: CARD_MAX_SATURATION, or PAPER_MARGIN over the saturation of their paper (the
    brighter half of each card's pale pixels) where that is more. Under a warm lamp, or with a cream
    deck, white paper is itself near CARD_MAX_SATURATION, and a card carried to a pile would be seen
    only in pieces, its edge lost. None for fewer than two cards."""
    papers = []
    for pixels in cards:
        hsv = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV)[:, 0]
        pale = hsv[hsv[:, 2] >= CARD_MIN_VALUE]
        if len(pale) >= 20:
            papers.append(pale[pale[:, 2] >= np.median(pale[:, 2]), 1])
    if len(papers) < 2:
        return None
    paper = float(np.median(np.concatenate(papers)))
    return int(min(PAPER_MOST, max(CARD_MAX_SATURATION, round(paper + PAPER_MARGIN))))


def _paper(hsv: np.ndarray) -> np.ndarray:
    """uint8 0/1 mask of the card-coloured pixels of an HSV image (CARD_MIN_VALUE, CARD_MAX_SATURATION)."""
    return paper_within(_pale_saturation(hsv), CARD_MAX_SATURATION)


def namer_at(namer: TopCardNamer, frame: int, rect: RectMM) -> TopCardNamer:
    """The namer to ask about the place at `rect` in frame `frame`: one that reads ground truth
    by frame and place (`name_top_card_in(frame, rect, image)`) is adapted to the one-argument door."""
    return _AtPlace(namer, frame, rect) if hasattr(namer, "name_top_card_in") else namer


class _AtPlace:
    """Adapts a namer with `name_top_card_in(frame, rect, image)` to the one-argument door."""

    def __init__(self, namer, frame: int, rect: RectMM) -> None:
        self.namer, self.frame, self.rect = namer, frame, rect

    def name_top_card(self, image: np.ndarray):
        return self.namer.name_top_card_in(self.frame, self.rect, image)

    def read_top_card(self, image: np.ndarray, px_per_mm: float | None = None, outline: np.ndarray | None = None,
                      whole_card: bool = False):
        """As `name_top_card`, handing on `outline` and `whole_card` when given (a namer that records what the
        tracker asked, as `benchmarks.pile_tops` does, takes them as keywords)."""
        extra = {} if outline is None else {"outline": outline, "whole_card": True} if whole_card else {"outline": outline}
        card, confidence = self.namer.name_top_card_in(self.frame, self.rect, image, **extra)
        return _Named(card, confidence)


class _Named(NamedTuple):
    """A reading with no alternatives, as `read_place` takes it from `read_top_card`."""

    card: Card | None
    confidence: float
    alternatives: tuple = ()
