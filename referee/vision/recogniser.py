"""Finding and naming cards: the detector gives outlines, the index classifier reads both corners."""

from __future__ import annotations

import os
import sys
import pathlib
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from referee.errors import InputFileError, ModelError
from referee.rules.cards import RANKS, SUITS, Card
from referee.vision.detection import CardDetection
from referee.vision.geometry import face_crop, index_crops, order_card_corners, quad_iou, refine_outline, suit_crops, turn_half_round
from referee.vision.onnx_models import CardDetector, FaceClassifier, IndexClassifier, SuitClassifier
from referee.vision.outlines import card_sized_outlines, local_outline, paper_outlines
from referee.vision.overlaps import showing_outlines
from referee.vision.picture_edge import part_in_picture, whole_card_guesses

DETECTOR_FILE = "card_detector.onnx"
#: The detector for photos: the table's detector fine-tuned on hand-held photo conditions (cards cut by
#: the picture's edge, under books and papers). The referee's pile views keep DETECTOR_FILE, with which
#: its rulings were measured (the photo detector named two more pile tops' ranks wrong there).
PHOTO_DETECTOR_FILE = "card_detector_photos.onnx"
#: A photo is searched at the photo detector's 256 px padded only to a multiple of 32 each way (a 16:9
#: picture 256 x 160, a 4:3 one 256 x 192), not to a 256 px square: on the real photos (session 24)
#: rank recall 0.951 -> 0.958, precision 0.969 -> 0.982, on 150 rendered scenes 95.7 -> 96.3 % of
#: the fully visible cards named, in less model time. Larger inputs (288, 320) padded so found fewer.
PHOTO_STRIDE = 32
CLASSIFIER_FILE = "card_index_classifier.onnx"
FACE_FILE = "card_face_classifier.onnx"
SUIT_FILE = "card_suit_classifier.onnx"

#: Lowest probability of the named card (rank and suit together) for a detection to be reported.
#: Lowering it reports more cards seen at bad angles, and more misnamed ones.
NAMING_THRESHOLD = 0.5
#: The same for a pile's top card. Lower, because a pile top is read with both readers mixed (which
#: flattens their sureness) and because the referee checks it against the cards that could be there.
#: Measured on 433 pile views from rendered games: 0.5 names 95.8 % right and 0.2 % wrong; 0.3 names
#: 97.2 % right and 1.2 % wrong.
PILE_NAMING_THRESHOLD = 0.3
#: Below this suit probability the suit is reported as unknown (`7?`) while the rank still stands.
SUIT_THRESHOLD = 0.6
#: Largest image side accepted, pixels. Bigger images are refused rather than eating the laptop's memory.
MAX_IMAGE_SIDE = 12000
#: Side the top-of-pile view is shrunk to for the detector; a pile view shows one card large.
PILE_DETECTOR_SIZE = 160
#: A pile view the table detector's outlines leave unnamed is searched again by the photo detector, its
#: best outlines up to this many read (session 33: a card laid turned across the one below)
PILE_SECOND_LOOKS = 4
#: Score given to a card-shaped paper region the detector did not report (ranks it below sure detections).
PAPER_OUTLINE_SCORE = 0.4
#: Weight of the face classifier against the corner-index classifier when both read a pile's top card
#: (their log-probabilities are mixed). The face holds up under blur; the index knows unseen decks' courts.
FACE_WEIGHT = 0.7
#: Weight of the suit classifier's reading of a pile's top card (its two index corners at 2 px per mm)
#: against the mixed reading's suit (its probabilities raised to this power multiply the card table).
SUIT_WEIGHT = 1.5
#: The suit classifier reads court cards only (pips and aces are named right by corners and face, 100 %
#: on the referee's pile views), and only within the colour the reading gives at least this share: a
#: red index of the card beneath, in the corner's crop, must not turn a black jack red.
COURT_RANKS = frozenset({"J", "Q", "K"})
COLOUR_SURE = 0.9
#: The suit classifier leans to clubs where an index pip is a few camera pixels: on the court cards of the
#: kept replays' own decks it named 90.4 % of spades and 97.3 % of clubs right (held-out decks: 48 and 98 %).
#: Its spade reading is multiplied by this (the four suits' total kept), which evens the two on those decks'
#: views (97.3 / 95.0 %; 2.0 gives 99.5 / 92.8 %). Session 49, `models/card_suit_classifier.md`. It was
#: measured for the shipped card_suit_classifier.onnx: set it again when that file is retrained.
SPADE_LEAN = 1.5
#: Red suits, as a mask over SUITS.
RED_SUITS = np.array([suit in "HD" for suit in SUITS])
#: A pile top whose outline the caller knows (`read_top_card(outline=)`: the tracker saw the card land)
#: is read from that outline alone, corners and face, when the reading is at least this sure; otherwise
#: the detector searches the view as when no outline is known. The outline read first costs about a
#: sixth of a search (no detector, no card-sized outlines). Session 13: 0.9 → 0.8, with the models of
#: session 9 on: on `benchmarks.pile_tops` the same readings at 0.9, 0.8 and 0.7 (99.2 % right, 0.4 %
#: wrong), the median read from an outline 9.0 → 6.0 ms (most readings between 0.8 and 0.9 were named the
#: same by the search they fell back to); on 42 rendered runs no ruling changed.
OUTLINE_SURE = 0.8
#: ... or at least this sure when the corners alone name the same card (rank and suit): the two readers
#: agree. On the 1,067 pile views of `benchmarks.pile_tops` (session 10's models): 359 of 538 cards with
#: an outline named by it at 0.9, none wrong; 38 more with agreement at 0.7, none wrong (at 0.7 without
#: it: 3 wrong).
OUTLINE_AGREED = 0.7
#: ... and where the caller knows a whole card lies in the outline (`whole_card`: a stock slot), an
#: outline both readers (corners and face, mixed) give less than this chance of showing any card face is
#: that card's back: the view is not searched. The tracker's outline of a stock whose top card was taken
#: is the back of the card under it, and a search there (five times the outline's cost) finds no face
#: either. Measured in session 21 over the 449 outline reads of the suite's 8 games, stocks and piles:
#: 91 under 0.3, of which the search named none; the least face-like outline it then named a card on read
#: 0.42. A pile's outline may be off its top card (a card laid half over the last one): there the view
#: is still searched.
NO_FACE_BELOW = 0.2
#: Alternatives kept with a top-card reading: cards at least this probable, best first.
ALTERNATIVE_FLOOR = 0.01
#: A photo's detector outline is also snapped to edges up to this far (fraction of the card's width)
#: and this many degrees off it, then snapped finely: the detector's angle from a 256 px input can be
#: 10-20 degrees off on a real photo. Measured on the real photos: rank recall 0.825 -> 0.843, precision
#: 0.946 -> 0.959; rendered held-out scenes 64.3 -> 66.8 % rank; 8 ms more a 1280x720 photo.
TURNED_SEARCH, TURNED_DEGREES = 0.15, 20.0
#: A photo's card its corners leave unnamed or without a suit gets a closer look: a square this many
#: times the card's length around it is cut from the full picture and searched by both detectors at
#: PILE_DETECTOR_SIZE, as a pile view is, and the card is read again by the outlines found there. A
#: small card's outline from a whole photo at 256 px can be pixels or degrees off, enough to miss the
#: index. Measured (150 rendered held-out scenes) with the table's detector alone: rank 86.5 -> 91.4 %,
#: rank and suit 84.0 -> 89.0 %, real photos 0.909 -> 0.913 rank recall (precision 0.954 -> 0.952),
#: 3-10 ms more a photo; with the photo detector's outline as well: rendered 94.5 -> 95.7 % rank,
#: real 0.932 -> 0.937 (after the readings below); cut out of the picture's own pixels rather than
#: resampled (`_cut_out`): 94.5 % and 0.941, two or three cards either way. A closer look at every
#: card read under 0.9 added 0.6 points on the rendered scenes at 10-15 ms more.
CLOSER_LOOK_SPAN = 2.0
#: Largest side of a closer look's cut-out, pixels (four times what the detector sees of it).
CLOSER_LOOK_MAX_PX = 4 * PILE_DETECTOR_SIZE
#: Ranks whose faces differ from deck to deck (court art, the ace of spades): in photos the corners
#: alone name them. Pip cards are named by corners and face mixed (`_second_look`). Measured with the
#: face classifier mixed only into cards the corners leave unnamed or suitless, then into pip cards too:
#: 150 rendered held-out scenes 91.4 -> 94.5 % rank (89.0 -> 92.6 % with suit); real photos 0.913 ->
#: 0.915 rank recall, precision 0.952 -> 0.954. Mixed into every card: real recall 0.86.
FACE_CARD_RANKS = frozenset({"J", "Q", "K", "A"})
#: ... and only while the corners' reading is under this: a pip card the corners read surely keeps its
#: name (the face classifier never saw a real photo, and should not overrule a sure index). The
#: rendered scenes' gain comes wholly from readings under 0.8 (at 0.6 one card of it is lost); real
#: photos 0.941 -> 0.939 rank recall, precision 0.974 -> 0.972 (one card).
PIP_SURE = 0.9


@dataclass(frozen=True)
class TopCardReading:
    """The card on top of a pile, how sure, and the other cards it could be (card, probability), best first.
    The alternatives let the referee prefer a card that could be there (a player's stock top) over a
    slightly likelier one that cannot."""

    card: Card | None
    confidence: float
    alternatives: tuple[tuple[Card, float], ...] = ()
    #: where the card lies: its four corners in the pile image's pixels (None when no card is named)
    outline: np.ndarray | None = field(default=None, compare=False)


@runtime_checkable
class CardRecogniser(Protocol):
    """What the referee needs from card recognition; tests and the demo plug in fakes here."""

    def find_cards(self, image_bgr: np.ndarray) -> list[CardDetection]: ...

    def name_card(self, card_image_bgr_upright: np.ndarray) -> tuple[Card | None, float]: ...

    def name_top_card(self, rectified_pile_image: np.ndarray) -> tuple[Card | None, float]: ...


def default_models_dir() -> pathlib.Path:
    """`$REFEREE_MODELS_DIR`, else the repository's models/ folder."""
    override = os.environ.get("REFEREE_MODELS_DIR")
    if override:
        return pathlib.Path(override)
    source_tree = pathlib.Path(__file__).resolve().parents[2] / "models"
    if (source_tree / DETECTOR_FILE).exists():
        return source_tree
    installed = pathlib.Path(sys.prefix) / "share" / "spit-referee" / "models"  # `pip install .` puts them here
    return installed if (installed / DETECTOR_FILE).exists() else source_tree


def load_recogniser(models_dir: pathlib.Path | str | None = None) -> "OnnxCardRecogniser":
    """The shipped recogniser (ONNX through onnxruntime), or ModelError naming the missing or bad file.
    The face and suit classifiers are optional: a models folder without them reads pile tops by their
    corners alone; so is the photo detector (without it, photos are searched with the table's)."""
    folder = pathlib.Path(models_dir) if models_dir is not None else default_models_dir()
    face = FaceClassifier(folder / FACE_FILE) if (folder / FACE_FILE).exists() else None
    suit = SuitClassifier(folder / SUIT_FILE) if (folder / SUIT_FILE).exists() else None
    detector = CardDetector(folder / DETECTOR_FILE)
    photo_detector = CardDetector(folder / PHOTO_DETECTOR_FILE, stride=PHOTO_STRIDE) if (folder / PHOTO_DETECTOR_FILE).exists() else None
    return OnnxCardRecogniser(detector, IndexClassifier(folder / CLASSIFIER_FILE), face=face, suit=suit, photo_detector=photo_detector)


def evened_spades(suits: np.ndarray) -> np.ndarray:
    """The suit classifier's four suits (SUITS order) with its lean to clubs taken out: spades weighed
    SPADE_LEAN times, the four suits' total (what the corners show of any suit) kept."""
    evened = np.array(suits, copy=True)
    total = float(evened.sum())
    evened[SUITS.index("S")] *= SPADE_LEAN
    return evened * (total / max(float(evened.sum()), 1e-12))


def check_image(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise InputFileError(f"expected a BGR image array, got {getattr(image, 'shape', type(image).__name__)}")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    elif image.shape[2] == 4:
        image = np.ascontiguousarray(image[:, :, :3])
    elif image.shape[2] != 3:
        raise InputFileError(f"expected a BGR image with 3 channels, got {image.shape[2]} channels")
    if image.dtype != np.uint8:
        raise InputFileError(f"expected an 8-bit image, got {image.dtype}")
    if max(image.shape[:2]) > MAX_IMAGE_SIDE:
        raise InputFileError(f"image of {image.shape[1]}x{image.shape[0]} pixels is too large: expected at most {MAX_IMAGE_SIDE} pixels a side; shrink it first")
    return image


class OnnxCardRecogniser:
    """CardRecogniser backed by the two ONNX models, helped by classical outlines.

    `refine`: also try outlines found in the full-resolution picture near each detection (the card's
    paper region, its snapped edges); the classifier keeps whichever outline it reads best.
    `paper_outlines`: also propose card-shaped paper regions the detector missed.
    `face`: the face classifier, mixed in when naming pile tops, and in `find_cards` where the corners
    leave a card unnamed or without a suit (`faces_in_photos`: mixed into every card there too).
    `both_ways` (attribute, off): `find_cards` also searches the photo turned a quarter.
    """

    def __init__(self, detector: CardDetector, classifier: IndexClassifier, *, naming_threshold: float = NAMING_THRESHOLD,
                 refine: bool = True, paper_outlines: bool = True, face: FaceClassifier | None = None,
                 faces_in_photos: bool = False, suit: SuitClassifier | None = None, photo_detector: CardDetector | None = None) -> None:
        self.detector = detector
        self.photo_detector = photo_detector or detector
        # a photo searched turned a quarter too: found 2 more of 386 small rendered cards and no real
        # photo's card with session 31's photo detector, at twice its model time (`classify --thorough`)
        self.both_ways = False
        self.classifier = classifier
        self.face = face
        self.suit = suit
        self.faces_in_photos = faces_in_photos
        self.naming_threshold = naming_threshold
        self.refine = refine
        self.paper_outlines = paper_outlines
        names = classifier.names
        try:
            self._card_columns = [names.index(f"{rank}{suit}") for rank in RANKS for suit in SUITS]
        except ValueError:
            raise ModelError(f"index classifier {classifier.path} does not name the 52 cards: expected classes like 'AS', '10H' and 'none', got {names[:6]}...") from None
        if face is not None:
            try:
                self._face_columns = [face.names.index(f"{rank}{suit}") for rank in RANKS for suit in SUITS]
            except ValueError:
                raise ModelError(f"face classifier {face.path} does not name the 52 cards: expected classes like 'AS', '10H' and 'none'") from None

    # -- naming -------------------------------------------------------------------------------------
    def _cards(self, probabilities: np.ndarray) -> np.ndarray:
        """One crop's class probabilities as a 13 x 4 table of card probabilities (rank x suit)."""
        return probabilities[self._card_columns].reshape(len(RANKS), len(SUITS))

    @staticmethod
    def _read(cards: np.ndarray) -> tuple[Card | None, float]:
        """(card, confidence) from a 13 x 4 table of card probabilities; the suit is dropped when unsure."""
        if float(cards.sum()) <= 1e-6:
            return None, 0.0
        rank_probabilities = cards.sum(axis=1)
        rank = int(rank_probabilities.argmax())
        suit = int(cards[rank].argmax())
        suit_probability = float(cards[rank, suit] / max(rank_probabilities[rank], 1e-9))
        if suit_probability >= SUIT_THRESHOLD:
            return Card(RANKS[rank], SUITS[suit]), float(cards[rank, suit])
        return Card(RANKS[rank], None), float(rank_probabilities[rank])

    def _name_outlines(self, image: np.ndarray, candidates: list[list[np.ndarray]]) -> list[tuple[Card | None, float, np.ndarray]]:
        """For each card (a list of alternative outlines), the best reading over its outlines and both corners."""
        return [(card, confidence, quad) for card, confidence, quad, _ in self._read_outlines(image, candidates)]

    def _read_outlines(self, image: np.ndarray, candidates: list[list[np.ndarray]],
                       pooled: bool = False) -> list[tuple[Card | None, float, np.ndarray, np.ndarray]]:
        """As _name_outlines, with the 13x4 card probabilities of the corner read best (`pooled`: see
        `_pooled`)."""
        crops, owners = [], []
        for number, options in enumerate(candidates):
            for option, quad in enumerate(options):
                crops.extend(index_crops(image, quad, self.classifier.image_size))
                owners.extend([(number, option, 0), (number, option, 1)])
        probabilities = self.classifier.probabilities(crops)
        if pooled:
            return self._pooled(candidates, probabilities, owners)
        best: dict[int, tuple[Card | None, float, np.ndarray, np.ndarray]] = {}
        for row, (number, option, corner) in zip(probabilities, owners):
            cards = self._cards(row)
            card, confidence = self._read(cards)
            if number not in best or confidence > best[number][1]:
                quad = candidates[number][option]
                best[number] = (card, confidence, quad if corner == 0 else turn_half_round(quad), cards)
        return [best[number] for number in range(len(candidates))]

    def _pooled(self, candidates: list[list[np.ndarray]], probabilities: np.ndarray,
                owners: list[tuple[int, int, int]]) -> list[tuple[Card | None, float, np.ndarray, np.ndarray]]:
        """`_read_outlines(pooled=True)`: each card by the corner crop whose rank is read surest, its suit
        from every crop of that card (its outlines, both corners) that names the same rank, their
        probabilities of that rank's four cards summed. Picking the crop read surest as a card instead
        favours a crop torn between two suits, which names the rank alone, over one that names the
        suit: a rank-only reading is as sure as its rank, a full one only as sure as rank and suit. Photos
        only (`find_cards`): on the referee's pile views it named as many cards wrong as it put right (20
        racing games, session 35; a take-back was lost where the pile's card, read right now, no
        longer matched the stock's reading of it)."""
        read: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in candidates]
        for row, (number, option, corner) in zip(probabilities, owners):
            quad = candidates[number][option]
            read[number].append((self._cards(row), quad if corner == 0 else turn_half_round(quad)))
        readings = []
        for crops in read:
            ranks = [cards.sum(axis=1) for cards, _ in crops]
            surest = max(range(len(crops)), key=lambda number: float(ranks[number].max()))
            rank = int(ranks[surest].argmax())
            suits = sum(cards[rank] for (cards, _), seen in zip(crops, ranks) if int(seen.argmax()) == rank)
            cards = crops[surest][0].copy()
            cards[rank] = suits * float(ranks[surest][rank]) / max(float(suits.sum()), 1e-12)
            card, confidence = self._read(cards)
            readings.append((card, confidence, crops[surest][1], cards))
        return readings

    def name_card(self, card_image_bgr_upright: np.ndarray) -> tuple[Card | None, float]:
        """Name a card from an image that is the card itself, upright or turned half round."""
        image = check_image(card_image_bgr_upright)
        height, width = image.shape[:2]
        quad = order_card_corners(np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32))
        card, confidence, _ = self._name_outlines(image, [[quad]])[0]
        return (card, confidence) if confidence >= self.naming_threshold else (None, confidence)

    # -- finding ------------------------------------------------------------------------------------
    def _candidates(self, image: np.ndarray, detector_size: int | None,
                    px_per_mm: float | None = None) -> list[tuple[list[np.ndarray], float]]:
        """Candidate cards, each a few alternative outlines with a score: the detector's cards (a photo's
        by the photo detector, `detector_size` None; a pile view's by the table's), then
        card-shaped paper regions it missed, then (a pile view of known scale) card-sized outlines at
        the view's centre. A detector outline from a small input can be degrees or pixels off; the
        card's own paper region and edges in the full picture give sharper ones."""
        found = []
        # a pile view of known scale gets card-sized outlines snapped to its edges below; refining each
        # detection as well was measured to change no reading there, at a third of the time
        refine = self.refine and px_per_mm is None
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if refine else None
        detector = self.photo_detector if detector_size is None else self.detector
        if detector_size is None and self.both_ways:
            detected = _merged(*_detect_both_ways(detector, image))
        else:
            detected = detector.detect(image, detector_size)
        for quad, score in detected:
            options = [quad]
            if refine:
                options.append(order_card_corners(refine_outline(gray, quad)))
                turned = order_card_corners(refine_outline(gray, quad, search=TURNED_SEARCH, turn_degrees=TURNED_DEGREES))
                options.append(order_card_corners(refine_outline(gray, turned, search=0.05, turn_degrees=5.0)))
                local = local_outline(image, quad)
                if local is not None:
                    options.insert(0, order_card_corners(local))
                options.extend(whole_card_guesses(quad, image.shape[1], image.shape[0]))
            found.append((options, score))
        # a pile view of known scale has card-sized outlines instead: paper regions were measured to change
        # no reading there (926 views from rendered games) at a third of the time
        if self.paper_outlines and px_per_mm is None:
            for quad in paper_outlines(image):
                quad = order_card_corners(quad)
                overlapping = [options for options, _ in found if quad_iou(quad, options[-1]) >= 0.3]
                if overlapping:
                    overlapping[0].insert(0, quad)
                else:
                    found.append(([quad], PAPER_OUTLINE_SCORE))
        if px_per_mm is not None:
            gray = gray if gray is not None else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            sized = [order_card_corners(refine_outline(gray, order_card_corners(quad))) for quad in card_sized_outlines(image, px_per_mm)]
            found.append((sized, PAPER_OUTLINE_SCORE))
        return found

    def _with_faces(self, image: np.ndarray, readings: list) -> list:
        """Corner readings mixed with the face classifier's reading of each card's whole face (both ways
        round), when there is a face classifier and `use_faces` allows: log-probabilities weighted
        FACE_WEIGHT to the face. Same shape as `_read_outlines`."""
        if self.face is None or not readings:
            return readings
        mixed = []
        for face_cards, (_, _, quad, corner_cards) in zip(self._face_cards(image, [quad for _, _, quad, _ in readings]), readings):
            cards = np.exp((1 - FACE_WEIGHT) * np.log(corner_cards + 1e-6) + FACE_WEIGHT * np.log(face_cards + 1e-6))
            # the mixture keeps the readers' shared doubt: what both call `none` stays unnamed
            cards *= max(float(corner_cards.sum()) ** (1 - FACE_WEIGHT) * float(face_cards.sum()) ** FACE_WEIGHT, 1e-9) / max(float(cards.sum()), 1e-9)
            card, confidence = self._read(cards)
            mixed.append((card, confidence, quad, cards))
        return mixed

    def _face_cards(self, image: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
        """The face classifier's 13 x 4 card table of each ordered outline, read both ways round (the mean)."""
        size = self.face.size  # cut at the size the model was trained at
        rows = self.face.probabilities([crop for quad in quads for crop in (face_crop(image, quad, size), face_crop(image, turn_half_round(quad), size))])
        return [(rows[2 * number][self._face_columns] + rows[2 * number + 1][self._face_columns]).reshape(len(RANKS), len(SUITS)) / 2
                for number in range(len(quads))]

    def _suits_shown(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The suit classifier's four suits (SUITS order) for the card of an ordered outline: the mean over its
        two index corners; they sum to less than 1 as far as the corners show no suit (`none`)."""
        rows = self.suit.probabilities(list(suit_crops(image, quad)))
        suits = rows[:, [self.suit.names.index(suit) for suit in SUITS]].mean(axis=0)
        return evened_spades(suits)

    def _falls_short(self, reading: tuple) -> bool:
        """A photo's corner reading that leaves its card unnamed or without a suit."""
        card, confidence = reading[:2]
        return card is None or confidence < self.naming_threshold or card.suit is None

    def _closer_look(self, image: np.ndarray, found: list, readings: list) -> list:
        """Readings, those that leave a card unnamed or without a suit read again by the outlines the
        detectors find in a cut-out around the card (CLOSER_LOOK_SPAN), kept where read surer."""
        unsure = [number for number, reading in enumerate(readings) if self._falls_short(reading)]
        if not unsure:
            return readings
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        again = [[option for outline in outlines for option in (order_card_corners(outline), order_card_corners(refine_outline(gray, outline)))]
                 for outlines in self._outlines_close_up(image, [found[number][0][0] for number in unsure])]
        readings = list(readings)
        looked = [number for number, options in zip(unsure, again) if options]
        for number, reading in zip(looked, self._read_outlines(image, [options for options in again if options], pooled=True)):
            if reading[1] > readings[number][1]:
                readings[number] = reading
        return readings

    def _outlines_close_up(self, image: np.ndarray, quads: list[np.ndarray]) -> list[list[np.ndarray]]:
        """For each of `quads`, the photo detector's outline (image pixels) most like it in a square cut-out
        around it, CLOSER_LOOK_SPAN times its length, searched at PILE_DETECTOR_SIZE (none, or one); all the
        cut-outs searched in one run. (The table's detector searched them too until session 24: without it
        the real photos read the same, the rendered scenes one card more, 96.3 -> 96.9 % rank, in less time.)"""
        cuts = []
        for quad in quads:
            span = CLOSER_LOOK_SPAN * float(max(np.linalg.norm(quad[0] - quad[2]), np.linalg.norm(quad[1] - quad[3])))
            cuts.append(_cut_out(image, quad.mean(axis=0) - span / 2, span, CLOSER_LOOK_MAX_PX))
        searched = [number for number, (cut, _, _) in enumerate(cuts) if cut is not None]
        outlines: list[list[np.ndarray]] = [[] for _ in quads]
        found = self.photo_detector.detect_many([cuts[number][0] for number in searched], PILE_DETECTOR_SIZE)
        for number, detected in zip(searched, found):
            _, origin, scale = cuts[number]
            seen = [(quad_iou(outline / scale + origin, quads[number]), outline / scale + origin) for outline, _ in detected]
            outlines[number] = [outline for overlap, outline in sorted(seen, key=lambda item: -item[0]) if overlap >= 0.3][:1]
        return outlines

    def _second_look(self, image: np.ndarray, readings: list) -> list:
        """Corner readings, with the face classifier's help where it can be trusted: a card the corners
        leave unnamed is named by corners and face mixed (`_with_faces`); a card they name without a suit
        takes the mixture's suit when it names the same rank; and a pip card (2 to 10) the corners name
        less surely than PIP_SURE is named by the mixture when that names a pip card too, because pips
        lie alike in every deck and a blurred or small index reads 8 for 6 where the pips still count.
        A court card or an ace the corners name keeps its name: the face classifier, taught on drawn
        decks, does not know every deck's court art or ace of spades, and calls cards partly under a
        cloth or a book `none`."""
        if self.face is None:
            return readings
        unsure = [number for number, (card, confidence, _, _) in enumerate(readings)
                  if self._falls_short(readings[number]) or (card.rank not in FACE_CARD_RANKS and confidence < PIP_SURE)]
        if not unsure:
            return readings
        readings = list(readings)
        for number, mixed in zip(unsure, self._with_faces(image, [readings[number] for number in unsure])):
            card, confidence = readings[number][:2]
            named = mixed[0] is not None and mixed[1] >= self.naming_threshold
            if card is None or confidence < self.naming_threshold:
                readings[number] = mixed
            elif named and mixed[0].suit is not None and mixed[0].rank == card.rank:
                readings[number] = mixed
            elif named and card.rank not in FACE_CARD_RANKS and mixed[0].rank not in FACE_CARD_RANKS and confidence < PIP_SURE:
                readings[number] = mixed
        return readings

    def _with_suit(self, image: np.ndarray, quad: np.ndarray, cards: np.ndarray) -> tuple[Card | None, float, np.ndarray]:
        """A court card's suit read again by the suit classifier on its two index corners, within the
        colour the reading is sure of (COLOUR_SURE): their suit probabilities raised to SUIT_WEIGHT
        multiply the card's row of the 13 x 4 table, its rank's total kept; then the card read from it
        again. A corner the classifier calls `none` (under a thumb, or no index there) adds nothing;
        the weight falls as the corners show less suit. Pip cards and aces, and a court card whose
        colour is in doubt, keep their reading."""
        card, confidence = self._read(cards)
        if card is None or card.rank not in COURT_RANKS:
            return card, confidence, cards
        rank = RANKS.index(card.rank)
        row = cards[rank]
        red = float(row[RED_SUITS].sum() / max(float(row.sum()), 1e-12))
        if COLOUR_SURE > red > 1.0 - COLOUR_SURE:
            return card, confidence, cards
        suits = self._suits_shown(image, quad)
        shown = float(suits.sum())
        suits = suits * (RED_SUITS if red >= COLOUR_SURE else ~RED_SUITS)
        if float(suits.sum()) <= 1e-6:
            return card, confidence, cards
        weighted = row * (suits / float(suits.sum())) ** (SUIT_WEIGHT * shown)
        mixed = cards.copy()
        mixed[rank] = weighted * float(row.sum()) / max(float(weighted.sum()), 1e-12)
        card, confidence = self._read(mixed)
        return card, confidence, mixed

    def find_cards(self, image_bgr: np.ndarray) -> list[CardDetection]:
        """Every card whose index can be read, best first; one partly under others or cut by the
        picture's edge outlined where it shows (`CardDetection.whole_quad` keeps its whole outline)."""
        image = check_image(image_bgr)
        found = self._candidates(image, None)
        if not found:
            return []
        detections = []
        readings = self._closer_look(image, found, self._read_outlines(image, [options for options, _ in found], pooled=True))
        readings = self._with_faces(image, readings) if self.faces_in_photos else self._second_look(image, readings)
        for card, confidence, quad, _ in readings:
            if card is None or confidence < self.naming_threshold:
                continue
            detections.append(CardDetection(card=card, confidence=min(1.0, confidence), quad=quad))
        detections.sort(key=lambda detection: -detection.confidence)
        detections = _drop_duplicates(detections)
        height, width = image.shape[:2]
        showing = showing_outlines(image, [detection.quad for detection in detections], self._index_shows(image, detections))
        in_picture = [part_in_picture(detection.quad, width, height) for detection in detections]
        return [detection if part is None else CardDetection(detection.card, detection.confidence, part, whole_quad=detection.quad)
                for detection, part in zip(detections, (cut if cut is not None else shown for cut, shown in zip(in_picture, showing)))]

    def _index_shows(self, image: np.ndarray, detections: list[CardDetection]) -> list[tuple[float, float]]:
        """For each detection, how surely its own rank is read at its two corner indices (0 and 2)."""
        if len(detections) < 2:
            return [(0.0, 0.0)] * len(detections)
        crops = [crop for detection in detections for crop in index_crops(image, detection.quad, self.classifier.image_size)]
        rows = self.classifier.probabilities(crops)
        shows = []
        for number, detection in enumerate(detections):
            rank = RANKS.index(detection.card.rank)
            shows.append(tuple(float(self._cards(rows[2 * number + corner])[rank].sum()) for corner in (0, 1)))
        return shows

    def name_top_card(self, rectified_pile_image: np.ndarray) -> tuple[Card | None, float]:
        """Name the card on top of a pile seen from above (a rectified view around one pile); an empty
        pile gives (None, 0.0). See read_top_card."""
        reading = self.read_top_card(rectified_pile_image)
        return reading.card, reading.confidence

    def read_top_card(self, rectified_pile_image: np.ndarray, px_per_mm: float | None = None,
                      outline: np.ndarray | None = None, whole_card: bool = False) -> TopCardReading:
        """The card on top of a pile seen from above, with its alternatives.

        The top card is the one read surest, weighted by how sure the detector is of its outline (a
        card under it shows at most a corner). With the face classifier, each candidate is read twice,
        by its corners and by its whole face, and the two readings are mixed (FACE_WEIGHT). `px_per_mm`:
        the view's scale, when known, adds card-sized outlines at its centre (a card filling the view).
        `outline`: the top card's four corners in this image's pixels, when the caller saw where it
        lies; read first (snapped to the card's edges), and enough when at least OUTLINE_SURE; when less
        sure, the view is searched, and that reading stands if the search names nothing and it is at least
        `naming_threshold`.
        `whole_card`: the caller knows a whole card lies in `outline`; when it shows no face, it is that
        card's back (NO_FACE_BELOW). A view the table detector's outlines leave unnamed is searched again
        by the photo detector (PILE_SECOND_LOOKS).
        """
        image = check_image(rectified_pile_image)
        known = None  # the caller's outline read less surely than it takes to stand without a search
        if outline is not None:
            read, shows_a_face, known = self._read_known_outline(image, np.asarray(outline, np.float32).reshape(4, 2))
            if read is not None:
                return read
            if whole_card and not shows_a_face:
                return TopCardReading(None, 0.0)
        found = self._candidates(image, PILE_DETECTOR_SIZE, px_per_mm)
        # nothing outlined by the table detector (at a known scale, only the card-sized outlines at the centre)
        missed = len(found) == (px_per_mm is not None)
        found = found[:4] + found[-1:] if px_per_mm is not None and len(found) > 5 else found[:5]
        best, face_seen = self._surest(image, found, min(self.naming_threshold, PILE_NAMING_THRESHOLD))
        if best is None and (face_seen or missed) and self.photo_detector is not self.detector:
            # a card face seen but not named by the table detector's outlines, or nothing outlined by it at
            # all: a card laid turned across another, which it outlines with the one below or misses (a queen
            # laid 35 degrees across a king, both of a deck it never saw), is still found by the photo
            # detector; its outlines name a card only as surely as a photo's must (NAMING_THRESHOLD), not as a
            # pile view's may. A card's back or an empty pile the table detector outlined shows no face: not
            # searched again. One it outlined nothing on is (on `pile_tops`' views every searched stock back
            # and empty slot: a searched read 7.6 -> 11.1 ms median, naming nothing there)
            second = self.photo_detector.detect(image, PILE_DETECTOR_SIZE)[:PILE_SECOND_LOOKS]
            best = self._surest(image, [([quad], score) for quad, score in second], self.naming_threshold)[0]
        if best is None and known is not None and known[0] is not None and known[1] >= self.naming_threshold:
            # searched in vain: the caller's outline, read as surely as a photo's card must be (as the second
            # look's), names the top. A 4C laid turned 45 degrees across a 5H, its corners read `4?` and its
            # face `4C` at 0.73, searched to nothing, had been left unnamed and ruled from a stock as a 4D.
            # Session 61, 181 kept replays: plays found 2,258 -> 2,260, fully right 2,145 -> 2,146, no other
            # ruling changed. At the pile's own threshold (PILE_NAMING_THRESHOLD) 2,261 and 2,148, but a clip
            # lost a play and a touch order there: a view named unsurely is not read again as an unnamed one is.
            best = known
        if best is None:
            return TopCardReading(None, 0.0)
        return self._top_card(image, *best)

    def _surest(self, image: np.ndarray, found: list[tuple[list[np.ndarray], float]], threshold: float) -> tuple[tuple | None, bool]:
        """Of the candidate cards `found` (alternative outlines, detector score), the reading (card,
        confidence, outline, card probabilities) named at least `threshold` whose confidence times its
        detector score is highest, or None when none is; and whether any candidate showed a card's
        face at all (NO_FACE_BELOW: not an empty pile or a card's back)."""
        if not found:
            return None, False
        readings = self._with_faces(image, self._read_outlines(image, [options for options, _ in found]))
        best, best_score = None, 0.0
        for (card, confidence, quad, cards), (_, detector_score) in zip(readings, found):
            score = confidence * detector_score
            if card is not None and confidence >= threshold and score > best_score:
                best, best_score = (card, confidence, quad, cards), score
        return best, any(float(cards.sum()) >= NO_FACE_BELOW for *_, cards in readings)

    def _read_known_outline(self, image: np.ndarray, outline: np.ndarray) -> tuple[TopCardReading | None, bool, tuple | None]:
        """The pile top read from where the caller saw it lie, or None when that is not sure enough; whether
        the outline may show a card's face at all (NO_FACE_BELOW); and, when not sure enough, the reading
        (card, confidence, outline, card probabilities) to fall back on if a search names nothing."""
        corners = self._read_outlines(image, [self._outline_options(image, outline)])
        card, confidence, quad, cards = reading = self._with_faces(image, corners)[0]
        agreed = card is not None and card.suit is not None and corners[0][0] == card
        if card is None or confidence < (OUTLINE_AGREED if agreed else OUTLINE_SURE):
            return None, float(cards.sum()) >= NO_FACE_BELOW, reading
        return self._top_card(image, card, confidence, quad, cards), True, None

    @staticmethod
    def _outline_options(image: np.ndarray, outline: np.ndarray) -> list[np.ndarray]:
        """A caller's outline of a card, snapped to the card's edges and as given."""
        quad = order_card_corners(np.asarray(outline, np.float32).reshape(4, 2))
        return [order_card_corners(refine_outline(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), quad)), quad]

    def readings_by_reader(self, image: np.ndarray, outline: np.ndarray) -> dict[str, np.ndarray]:
        """What each reader alone makes of the card in `outline` (in `image`'s pixels), where `read_top_card`
        would mix them: `corners`, the corner index read surest, and with those models `face`, each a 13 x 4
        table of card probabilities (rank by suit, as RANKS and SUITS), and `suit`, the suit classifier's
        four suits (mean of the two corners). For judging one reader at a time (`benchmarks.pile_tops`)."""
        image = check_image(image)
        _, _, quad, corner_cards = self._read_outlines(image, [self._outline_options(image, outline)])[0]
        readers = {"corners": corner_cards}
        if self.face is not None:
            readers["face"] = self._face_cards(image, [quad])[0]
        if self.suit is not None:
            readers["suit"] = self._suits_shown(image, quad)
        return readers

    def _top_card(self, image: np.ndarray, card: Card, confidence: float, quad: np.ndarray, cards: np.ndarray) -> TopCardReading:
        """The reading of the card chosen as the top, its court suit read again, with its alternatives."""
        doubts = cards  # what else it could be: the suit classifier's reading is not let narrow it
        if self.suit is not None:
            card, confidence, cards = self._with_suit(image, quad, cards)
        order = np.argsort(-doubts, axis=None)
        alternatives = tuple((Card(RANKS[i // len(SUITS)], SUITS[i % len(SUITS)]), float(doubts.flat[i]))
                             for i in order[:12] if doubts.flat[i] >= ALTERNATIVE_FLOOR)
        return TopCardReading(card, confidence, alternatives, outline=np.asarray(quad, np.float32).reshape(4, 2))


def _cut_out(image: np.ndarray, corner: np.ndarray, span: float, largest: int) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """(the square of `image` from `corner` (x, y), `span` pixels a side, shrunk to at most `largest`
    pixels a side and the picture's own edge pixels repeated where it reaches past them; `origin` and
    `scale` such that a point p of the cut-out lies at p / scale + origin in the image), or None for a
    square wholly outside the picture."""
    height, width = image.shape[:2]
    x0, y0 = float(corner[0]), float(corner[1])
    left, top = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
    right, bottom = min(width, int(np.ceil(x0 + span))), min(height, int(np.ceil(y0 + span)))
    if right <= left or bottom <= top:
        return None, np.zeros(2, np.float32), np.ones(2, np.float32)
    region = image[top:bottom, left:right]
    shrink = min(1.0, largest / max(span, 1.0))
    if shrink < 1.0:  # shrunk before the edges are repeated, so a huge square never exists at full size
        region = cv2.resize(region, (max(1, round((right - left) * shrink)), max(1, round((bottom - top) * shrink))), interpolation=cv2.INTER_AREA)
    scale = np.array([region.shape[1] / (right - left), region.shape[0] / (bottom - top)], np.float32)
    pad_left, pad_top = max(0, int(round((left - x0) * scale[0]))), max(0, int(round((top - y0) * scale[1])))
    pad_right = max(0, int(round((x0 + span - right) * scale[0])))
    pad_bottom = max(0, int(round((y0 + span - bottom) * scale[1])))
    cut = cv2.copyMakeBorder(region, pad_top, pad_bottom, pad_left, pad_right, cv2.BORDER_REPLICATE)
    # a cut-out pixel c lies at image pixel (c - pad + 0.5) / scale - 0.5 + (left, top): pixel centres kept
    origin = np.array([left + (0.5 - pad_left) / scale[0] - 0.5, top + (0.5 - pad_top) / scale[1] - 0.5], np.float32)
    return cut, origin, scale


def _drop_duplicates(detections: list[CardDetection]) -> list[CardDetection]:
    """Keep the surer of two outlines that are mostly the same card (a detection and a paper region)."""
    kept: list[CardDetection] = []
    for detection in detections:
        if all(quad_iou(detection.quad, other.quad) < 0.5 for other in kept):
            kept.append(detection)
    return kept


__all__ = ["CardRecogniser", "OnnxCardRecogniser", "TopCardReading", "load_recogniser", "default_models_dir"]


def _detect_both_ways(detector: CardDetector, image: np.ndarray) -> tuple[list, list]:
    """The detector's cards in the picture upright and turned a quarter clockwise, both in the picture's
    own pixels (one run of the model where both are searched at one input shape: a square picture, or
    a detector whose inputs are padded square)."""
    upright, turned = detector.detect_many([image, cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)])
    return upright, _turned_back(turned, image.shape[0])


def _turned_back(found: list[tuple[np.ndarray, float]], height: int) -> list[tuple[np.ndarray, float]]:
    """Cards found in a picture `height` pixels tall turned a quarter clockwise, in its own pixels."""
    back = []
    for quad, score in found:
        unturned = np.stack([quad[:, 1], height - 1 - quad[:, 0]], axis=-1).astype(np.float32)
        back.append((order_card_corners(unturned), score))
    return back


def _merged(upright: list[tuple[np.ndarray, float]], turned: list[tuple[np.ndarray, float]]) -> list[tuple[np.ndarray, float]]:
    """The upright picture's cards, and those of the turned one that overlap none of them, best first."""
    extra = [(quad, score) for quad, score in turned if all(quad_iou(quad, other) < 0.5 for other, _ in upright)]
    return sorted(upright + extra, key=lambda item: -item[1])
