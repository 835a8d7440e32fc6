"""Card decks drawn from the SVG files of Debian's `gnome-cards-data` (aisleriot), when installed, and, for
the benchmarks alone, of `kdegames-card-data-kf5` (KDE's card decks, `OTHER_DECKS`) and of the free decks kept in
this repository, one file a card (`FILE_DECKS`).

The decks are rasterised at run time through the system's librsvg and cairo (loaded with ctypes, so no
extra Python package is needed) and kept in memory only; nothing rasterised is ever written to the
repository. Where the package or the libraries are missing, or the environment sets `REFEREE_SVG_DECKS=0`
(to render as such a machine does), `available_decks()` is empty and the drawn designs of faces.py are
used alone. Which decks there are changes the deck each seed draws: a game of one seed differs between
machines with and without the package.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gzip
import os
import pathlib

import numpy as np

#: Where Debian's gnome-cards-data puts its decks (aisleriot's folder).
DECK_FOLDERS = (pathlib.Path("/usr/share/aisleriot/cards"), pathlib.Path("/usr/share/gnome-games-common/cards"))

#: French-suited decks with rank indices on every card that render cleanly through librsvg (checked by eye:
#: German/Swiss/tarot decks, guyenne-classic (no court indices), neoclassical and tango (broken elements)
#: are left out, as they would teach a recogniser the wrong thing).
FRENCH_DECKS = (
    "anglo", "anglo_modern", "anglo_poker", "atlasnye", "bellot", "dondorf", "gnomangelo",
    "ornamental", "plastic", "simplistic",
)
#: Decks of the same kind (French suits, rank indices A 2-10 J Q K) that only the recognition models train
#: on: the rendered games never draw them, so that every game a seed renders keeps the deck it had before
#: they were added (session 32), and the games judge the models on art those decks add nothing to.
TRAINING_DECKS = ("orell", "paris", "tigullio")
#: French-suited decks whose court cards are indexed in French or German (R D V, K D B) and whose ace may
#: read `1`: more drawings of the four suit signs, for the suit classifier alone (a rank reader would
#: learn the wrong letters from them). Berlin has no card-sized back; its faces render whole.
SUIT_DECKS = ("ancient_french", "berlin", "lattmann", "tarocco")

#: KDE's decks (Debian's `kdegames-card-data-kf5`, one folder `svg-<deck>` each) with French suits and rank indices
#: A 2-10 J Q K whose art no deck above shares, rendered whole: no model trains on them, and no seed's game draws
#: them unless asked (`faces.OTHER_DESIGNS`, named `svg:kde-<deck>`). They stand for the decks the referee will
#: meet and was never shown: `benchmarks.other_decks` deals its games in them. The other thirteen are left out:
#: `dondorf` and `tigullio-international` are decks used already, and `nicu-*` and `gm-paris` share the art of
#: `ornamental` and `paris`; `ancient-egyptians`' king of diamonds does not render; `konqi-modern` colours its
#: spades red; `oxygen*` print their index at the top right only, as no real deck does; `xskat-*` index their
#: court cards B D K; `future`'s cards do not render here.
OTHER_DECKS = ("kde-jolly-royal", "kde-penguins", "kde-standard")
KDE_FOLDER = pathlib.Path("/usr/share/carddecks")

_SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_RANK_NAMES = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}

#: Decks kept in this repository, one SVG file a card (`decks/<deck>/<rank><suit>.svgz`, ten as `T`), gzipped as
#: they came: `kennard`, Adrian Kennard's public-domain (CC0) cards from https://www.me.uk/cards/, as the npm
#: package `react-free-playing-cards` 0.4.2 ships them (`src/images/2color`). The most used free deck art there is,
#: so likely art for a table the referee never saw: like KDE's decks no model trains on it and no seed's game draws
#: it unless asked (`faces.PUBLIC_DESIGNS`). No back of its own (a drawn back is picked).
FILE_DECKS = ("kennard",)
FILE_DECK_FOLDER = pathlib.Path(__file__).resolve().parent / "decks"
_FILE_RANKS = {"1": "A", "10": "T", "jack": "J", "queen": "Q", "king": "K"}
_FILE_SUITS = {name: letter for letter, name in _SUIT_NAMES.items()}


class _RsvgRectangle(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("width", ctypes.c_double), ("height", ctypes.c_double)]


class _RsvgDimensions(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("em", ctypes.c_double), ("ex", ctypes.c_double)]


@functools.lru_cache(maxsize=1)
def _libraries() -> tuple[ctypes.CDLL, ctypes.CDLL] | None:
    names = {"rsvg": ("librsvg-2.so.2", ctypes.util.find_library("rsvg-2")), "cairo": ("libcairo.so.2", ctypes.util.find_library("cairo"))}
    loaded = {}
    for key, candidates in names.items():
        for candidate in candidates:
            if not candidate:
                continue
            try:
                loaded[key] = ctypes.CDLL(candidate)
                break
            except OSError:
                continue
        if key not in loaded:
            return None
    rsvg, cairo = loaded["rsvg"], loaded["cairo"]
    try:
        rsvg.rsvg_handle_new_from_data.restype = ctypes.c_void_p
        rsvg.rsvg_handle_new_from_data.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
        rsvg.rsvg_handle_get_geometry_for_element.restype = ctypes.c_int
        rsvg.rsvg_handle_get_geometry_for_element.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RsvgRectangle), ctypes.POINTER(_RsvgRectangle), ctypes.c_void_p]
        rsvg.rsvg_handle_get_geometry_for_layer.restype = ctypes.c_int
        rsvg.rsvg_handle_get_geometry_for_layer.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RsvgRectangle), ctypes.POINTER(_RsvgRectangle),
            ctypes.POINTER(_RsvgRectangle), ctypes.c_void_p]
        rsvg.rsvg_handle_render_layer.restype = ctypes.c_int
        rsvg.rsvg_handle_render_layer.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RsvgRectangle), ctypes.c_void_p]
        rsvg.rsvg_handle_get_dimensions.restype = None
        rsvg.rsvg_handle_get_dimensions.argtypes = [ctypes.c_void_p, ctypes.POINTER(_RsvgDimensions)]
        cairo.cairo_scale.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
        cairo.cairo_scale.restype = None
        cairo.cairo_translate.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
        cairo.cairo_translate.restype = None
        cairo.cairo_image_surface_create.restype = ctypes.c_void_p
        cairo.cairo_image_surface_create.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        cairo.cairo_create.restype = ctypes.c_void_p
        cairo.cairo_create.argtypes = [ctypes.c_void_p]
        cairo.cairo_image_surface_get_data.restype = ctypes.POINTER(ctypes.c_ubyte)
        cairo.cairo_image_surface_get_data.argtypes = [ctypes.c_void_p]
        cairo.cairo_image_surface_get_stride.restype = ctypes.c_int
        cairo.cairo_image_surface_get_stride.argtypes = [ctypes.c_void_p]
        for name in ("cairo_surface_flush", "cairo_surface_destroy", "cairo_destroy"):
            getattr(cairo, name).argtypes = [ctypes.c_void_p]
            getattr(cairo, name).restype = None
    except AttributeError:  # a librsvg older than 2.46 lacks the element API
        return None
    return rsvg, cairo


def deck_path(name: str) -> pathlib.Path | None:
    """The deck's file (its folder, for a deck of `FILE_DECKS`), or None where it is not here."""
    if name in FILE_DECKS:
        folder = FILE_DECK_FOLDER / name
        return folder if (folder / "KS.svgz").is_file() else None
    if name.startswith("kde-"):
        return next(iter(sorted((KDE_FOLDER / f"svg-{name[4:]}").glob("*.svgz"))), None)
    for folder in DECK_FOLDERS:
        path = folder / f"{name}.svgz"
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=4)
def available_decks(decks: tuple[str, ...] = FRENCH_DECKS) -> tuple[str, ...]:
    """Those of `decks` (by default the games' FRENCH_DECKS) that are installed and renderable here, in
    a fixed order (none when `REFEREE_SVG_DECKS=0`)."""
    if os.environ.get("REFEREE_SVG_DECKS", "1") == "0" or _libraries() is None:
        return ()
    return tuple(name for name in decks if deck_path(name) is not None)


@functools.lru_cache(maxsize=4)
def _handle(name: str) -> int:
    rsvg, _ = _libraries()  # type: ignore[misc]
    path = deck_path(name)
    if path is None:
        raise FileNotFoundError(f"no SVG deck {name!r} in {', '.join(map(str, DECK_FOLDERS))}")
    data = gzip.decompress(path.read_bytes())
    handle = rsvg.rsvg_handle_new_from_data(data, len(data), None)
    if not handle:
        raise ValueError(f"librsvg cannot read {path}")
    return handle


def element_id(card, deck: str = "") -> str:
    """The SVG element of `card` in `deck`: aisleriot's decks name it `club_king`, KDE's `king_club`."""
    suit, rank = _SUIT_NAMES[card.suit], _RANK_NAMES.get(card.rank, card.rank)
    return f"{rank}_{suit}" if deck.startswith("kde-") else f"{suit}_{rank}"


def _ink_rect(name: str, element: str) -> _RsvgRectangle:
    rsvg, _ = _libraries()  # type: ignore[misc]
    handle = _handle(name)
    ink, logical = _RsvgRectangle(), _RsvgRectangle()
    if not rsvg.rsvg_handle_get_geometry_for_layer(
            handle, ("#" + element).encode(), ctypes.byref(_document_rect(name)), ctypes.byref(ink), ctypes.byref(logical), None):
        raise KeyError(f"deck {name!r} has no element {element!r}")
    return ink


@functools.lru_cache(maxsize=16)
def _document_rect(name: str) -> _RsvgRectangle:
    rsvg, _ = _libraries()  # type: ignore[misc]
    dimensions = _RsvgDimensions()
    rsvg.rsvg_handle_get_dimensions(_handle(name), ctypes.byref(dimensions))
    return _RsvgRectangle(0.0, 0.0, float(dimensions.width), float(dimensions.height))


_COLUMNS = {"1": 0, **{str(n): n - 1 for n in range(2, 11)}, "jack": 10, "queen": 11, "king": 12}


def _card_rect(name: str, element: str) -> tuple[float, float, float, float]:
    """Where a card lies in the deck's document. The decks lay cards on a grid (a row per suit, a column per
    rank); some court cards and backs report a wrong ink box (nested transforms, hidden helpers), so a box
    whose size differs from the number cards' is replaced by its grid slot."""
    suit = element.split("_")[0] if element != "back" else "club"
    two, three = _ink_rect(name, f"{suit}_2"), _ink_rect(name, f"{suit}_3")
    ink = _ink_rect(name, element)
    if abs(ink.width - two.width) <= 0.03 * two.width and abs(ink.height - two.height) <= 0.03 * two.height:
        return ink.x, ink.y, ink.width, ink.height
    if element == "back":
        raise KeyError(f"deck {name!r}: its back is not card-sized")
    pitch = three.x - two.x
    column = _COLUMNS[element.split("_", 1)[1]]
    return two.x + (column - 1) * pitch, two.y, two.width, two.height


def render_element(name: str, element: str, width_px: int, height_px: int) -> np.ndarray:
    """Rasterises one card (`club_10`, `club_king`, `back`...) of a deck, stretched to the size given.

    Returns a BGRA uint8 image (premultiplied alpha undone). Raises KeyError for a missing element."""
    if _libraries() is None:
        raise RuntimeError("librsvg/cairo are not available")
    if name in FILE_DECKS:
        image = _rasterise_file(_card_file(name, element), width_px, height_px).astype(np.float32)
    else:
        x, y, width, height = _box_on_its_page(name, element) if name.startswith("kde-") else _card_rect(name, element)
        image = _rasterise(name, element, width_px, height_px, (width_px / width, height_px / height), (-x, -y)).astype(np.float32)
    alpha = image[..., 3:4]
    colour = np.where(alpha > 0, image[..., :3] * 255.0 / np.maximum(alpha, 1), 0)
    return np.dstack([np.clip(colour, 0, 255), alpha]).astype(np.uint8)


def _rasterise(name: str, element: str, width_px: int, height_px: int, scale: tuple[float, float],
               shift: tuple[float, float]) -> np.ndarray:
    """`element` of deck `name` drawn alone into a width_px x height_px ARGB picture (premultiplied, BGRA
    order), the document scaled by `scale` after it is shifted by `shift` (document units)."""
    ok, picture = _draw(_handle(name), _document_rect(name), element, width_px, height_px, scale, shift)
    if not ok:
        raise ValueError(f"librsvg could not render {element!r} of deck {name!r}")
    return picture


def _draw(handle: int, document: _RsvgRectangle, element: str | None, width_px: int, height_px: int,
          scale: tuple[float, float], shift: tuple[float, float]) -> tuple[bool, np.ndarray]:
    """(whether librsvg drew it, the picture): `element` of an open document (None: all of it) drawn into a
    width_px x height_px ARGB picture (premultiplied, BGRA order), scaled by `scale` after a shift by `shift`."""
    rsvg, cairo = _libraries()  # type: ignore[misc]
    surface = cairo.cairo_image_surface_create(0, width_px, height_px)  # CAIRO_FORMAT_ARGB32
    context = cairo.cairo_create(surface)
    cairo.cairo_scale(context, *scale)
    cairo.cairo_translate(context, *shift)
    ok = rsvg.rsvg_handle_render_layer(handle, context, None if element is None else ("#" + element).encode(),
                                       ctypes.byref(document), None)
    cairo.cairo_surface_flush(surface)
    stride = cairo.cairo_image_surface_get_stride(surface)
    pointer = cairo.cairo_image_surface_get_data(surface)
    buffer = np.ctypeslib.as_array(pointer, shape=(height_px * stride,)).copy()
    cairo.cairo_destroy(context)
    cairo.cairo_surface_destroy(surface)
    return bool(ok), buffer.reshape(height_px, stride)[:, : width_px * 4].reshape(height_px, width_px, 4)


def _card_file(name: str, element: str) -> pathlib.Path:
    """The file of `element` (`club_king`) in a deck of `FILE_DECKS`; KeyError where it has none (`back`)."""
    suit, _, rank = element.partition("_")
    folder = deck_path(name)
    if folder is None:
        raise FileNotFoundError(f"no card files for deck {name!r} in {FILE_DECK_FOLDER}")
    if suit not in _FILE_SUITS or not rank:
        raise KeyError(f"deck {name!r} has no element {element!r}")
    path = folder / f"{_FILE_RANKS.get(rank, rank)}{_FILE_SUITS[suit]}.svgz"
    if not path.is_file():
        raise KeyError(f"deck {name!r} has no element {element!r}")
    return path


def _rasterise_file(path: pathlib.Path, width_px: int, height_px: int) -> np.ndarray:
    """A whole one-card SVG document drawn into a width_px x height_px ARGB picture (premultiplied, BGRA)."""
    rsvg, _ = _libraries()  # type: ignore[misc]
    data = gzip.decompress(path.read_bytes())
    handle = rsvg.rsvg_handle_new_from_data(data, len(data), None)
    if not handle:
        raise ValueError(f"librsvg cannot read {path}")
    dimensions = _RsvgDimensions()
    rsvg.rsvg_handle_get_dimensions(handle, ctypes.byref(dimensions))
    document = _RsvgRectangle(0.0, 0.0, float(dimensions.width), float(dimensions.height))
    ok, picture = _draw(handle, document, None, width_px, height_px,
                        (width_px / document.width, height_px / document.height), (0.0, 0.0))
    _unref(handle)
    if not ok:
        raise ValueError(f"librsvg could not render {path}")
    return picture


@functools.lru_cache(maxsize=1)
def _gobject() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("gobject-2.0")
    if not name:
        return None
    library = ctypes.CDLL(name)
    library.g_object_unref.argtypes = [ctypes.c_void_p]
    library.g_object_unref.restype = None
    return library


def _unref(handle: int) -> None:
    """Frees a handle drawn once (the decks' own stay open, `_handle`); left alone where GObject is not found."""
    library = _gobject()
    if library is not None:
        library.g_object_unref(handle)


#: Width (px) at which a KDE deck's whole page is drawn to find one card on it (a card about 150 px wide there).
PAGE_WIDTH_PX = 2400


@functools.lru_cache(maxsize=256)
def _box_on_its_page(name: str, element: str) -> tuple[float, float, float, float]:
    """Where `element` lies in its deck's document (x, y, width, height), found by drawing it alone on the
    whole page and seeing where it left ink. KDE's decks nest transforms that librsvg's boxes for an element
    do not follow (their cards came out as slivers of their grid slots)."""
    document = _document_rect(name)
    scale = PAGE_WIDTH_PX / document.width
    try:
        page = _rasterise(name, element, PAGE_WIDTH_PX, int(round(document.height * scale)), (scale, scale), (0.0, 0.0))
    except ValueError as error:  # librsvg draws nothing it cannot find
        raise KeyError(str(error)) from None
    rows, cols = np.nonzero(page[..., 3] > 128)
    if len(rows) == 0:
        raise KeyError(f"deck {name!r} drew nothing for {element!r}")
    return cols.min() / scale, rows.min() / scale, (cols.max() + 1 - cols.min()) / scale, (rows.max() + 1 - rows.min()) / scale
