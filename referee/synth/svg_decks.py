"""Card decks drawn from the SVG files of Debian's `gnome-cards-data` (aisleriot), when installed.

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

_SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_RANK_NAMES = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}


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


def element_id(card) -> str:
    return f"{_SUIT_NAMES[card.suit]}_{_RANK_NAMES.get(card.rank, card.rank)}"


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
    libraries = _libraries()
    if libraries is None:
        raise RuntimeError("librsvg/cairo are not available")
    rsvg, cairo = libraries
    handle = _handle(name)
    x, y, width, height = _card_rect(name, element)
    surface = cairo.cairo_image_surface_create(0, width_px, height_px)  # CAIRO_FORMAT_ARGB32
    context = cairo.cairo_create(surface)
    cairo.cairo_scale(context, width_px / width, height_px / height)
    cairo.cairo_translate(context, -x, -y)
    ok = rsvg.rsvg_handle_render_layer(handle, context, ("#" + element).encode(), ctypes.byref(_document_rect(name)), None)
    cairo.cairo_surface_flush(surface)
    stride = cairo.cairo_image_surface_get_stride(surface)
    pointer = cairo.cairo_image_surface_get_data(surface)
    buffer = np.ctypeslib.as_array(pointer, shape=(height_px * stride,)).copy()
    cairo.cairo_destroy(context)
    cairo.cairo_surface_destroy(surface)
    if not ok:
        raise ValueError(f"librsvg could not render {element!r} of deck {name!r}")
    image = buffer.reshape(height_px, stride)[:, : width_px * 4].reshape(height_px, width_px, 4).astype(np.float32)
    alpha = image[..., 3:4]
    colour = np.where(alpha > 0, image[..., :3] * 255.0 / np.maximum(alpha, 1), 0)
    return np.dstack([np.clip(colour, 0, 255), alpha]).astype(np.uint8)
