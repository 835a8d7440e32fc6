"""Touch timing below the frame period.

For each frame in which a player's hand (with the card it carries) is near a pile, the tracker measures
the signed distance in mm from the hand blob's leading edge to the pile outline (positive: still apart,
negative: overlapping by that much). The touch is the zero crossing of that distance in time, less the
lead a mask's edge pixels give it (MASK_LEAD_PX). Two estimates: the crossing interpolated linearly
between the last frame apart and the first overlapping, and the approach speed of the frames before
extrapolated from the last frame apart. A fast card (several pixels a frame) is timed by its approach
alone: its overlap after contact is a poor measure (it cannot read deeper than the pile's half width,
about 32 mm, and a card slides on or stops after touching as the hand wills). A slow one moves about a
pixel a frame, where each distance is a pixel off either way, and the mean of the two is steadier. They
disagree by about as much as the motion is non-uniform, which sets the timing error. A card whose
approach, extrapolated, would arrive after the frame that already shows it touching sped up at the last:
it touched between the crossing interpolated (early: what overlaps a pile reads deeper than it is) and
that frame, and is timed at the middle of the two.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Smallest timing error claimed, as a fraction of the frame period: edges are found to about a pixel,
#: so even a perfect fit is not better than this. Raise it to call more close pairs "too close".
MIN_ERROR_FRACTION = 0.15
#: Largest timing error claimed (fraction of a period) when the two estimates disagree wildly.
MAX_ERROR_FRACTION = 0.5


@dataclass(frozen=True)
class TouchEstimate:
    t: float            # seconds: estimated instant of first contact
    frame: int          # first frame in which the contact is visible
    error: float        # seconds: how far off `t` may be (about one standard error)


#: An approach covering at least this many pixels a frame is timed by its extrapolation alone.
FAST_APPROACH_PX = 4.0
#: A first contact that overlaps the pile's outline by less than this many pixels does not yet show a
#: touch: an edge is found to a pixel or two either way (blur, the foreground's closing, a card raised in
#: parallax), and the first frame whose measure dips past the outline comes early where a card creeps in. It
#: is timed at that frame, with the time its approach gave as how far off that may be. Measured on the
#: 1 283 plays of 90 kept replays (session 46; 6 px is 12 mm on the tracking view): where the first contact
#: overlapped by under 12 mm, the card touched at that frame or after it (median -0.1 to +0.15 frame), where
#: its approach put it 0.1-0.8 frame before. Timed there where the card came in slowly (`_crept_in`), the
#: median error over all went 0.227 -> 0.214 frame, over the 30 whole games 0.213 -> 0.197, every pair over a
#: frame apart as before.
SHALLOW_CONTACT_PX = 6.0
#: ... by a card come in slowly: under this many pixels a frame over its last two frames (a card arriving
#: faster is timed well by its approach: the racing games in parallax, seed 121, A's KD 30 mm a frame, then
#: 12 into its first contact, moved to that frame, was ordered after B's 2H, laid 35 ms after it)
CREEPING_PX = 12.5


def _crept_in(before: list[tuple[int, float, float]], contact: tuple[int, float, float], period: float, pixel_mm: float) -> bool:
    """The first contact is shallow (SHALLOW_CONTACT_PX), the card came in slowly (CREEPING_PX) and was measured
    in the frame before it (after a frame it was not, the crossing may lie a frame or more before it)."""
    if pixel_mm <= 0 or len(before) < 2 or contact[2] <= -SHALLOW_CONTACT_PX * pixel_mm:
        return False
    (_, t_older, d_older), (_, t_out, d_out) = before[-2:]
    _, t_in, d_in = contact
    return (t_in - t_out <= 1.5 * period and t_out - t_older <= 1.5 * period
            and max(d_older - d_out, d_out - d_in) < CREEPING_PX * pixel_mm)


#: How far (pixels) a distance measured between masks runs ahead of the true gap between the edges: a mask
#: takes in every pixel an edge covers in part, and so reaches past the card it outlines. Measured on the 830
#: plays of 39 rendered games (session 60: 24 of `all_at_once`, its 6 fresh seeds, `other_decks`' 9), whose
#: touches were timed 0.063 frame early at the median: timed where the gap measured minus this lead closes,
#: the median error went 0.213 -> 0.198 frame, lower in each set of games, at 30 and 60 fps, for plays and for
#: spits (a quarter of a pixel: 0.200; three quarters: 0.199; a whole pixel: 0.206). Replayed over all 174 kept games
#: and clips: 0.219 -> 0.206 frame, every set within 0.005 frame of unbiased after it. The early lean is larger where
#: hands and cards are drawn in parallax (a card in the air is seen ahead of where it is, towards the pile, under a
#: tilted camera: -0.05 to -0.10 frame) than drawn flat (-0.03): on the flat suite of `referee_accuracy` (153 plays)
#: the lead took the median error 0.136 -> 0.155 frame, unbiased but wider, and the flat racing games 0.152 -> 0.156.
#: Real cards are lifted as they are laid; kept for the games in parallax, which it takes under 1/5 frame.
MASK_LEAD_PX = 0.5

#: The last frame apart "stalled" when the front moved less than this share of its speed both in the frame
#: before and into the contact (`_stalled`).
STALL_SHARE = 1 / 3


def _stalled(before: list[tuple[int, float, float]], contact: tuple[int, float, float]) -> bool:
    """The last of the approach samples `before` (all apart, in time order) shows the front nearly still
    between a faster approach and a faster crossing into `contact`."""
    (_, t0, d0), (_, t1, d1), (_, t2, d2) = before[-3:]
    _, t3, d3 = contact
    if not (t0 < t1 < t2 < t3):
        return False
    earlier, last, crossing = (d0 - d1) / (t1 - t0), (d1 - d2) / (t2 - t1), (d2 - d3) / (t3 - t2)
    return earlier > 0 and last < STALL_SHARE * min(earlier, crossing)


def estimate_touch(samples: list[tuple[int, float, float]], period: float, pixel_mm: float = 0.0, *,
                   outline: bool = True, lead_mm: float = 0.0) -> TouchEstimate | None:
    """`samples`: (frame, t, signed distance mm) in time order, ending with the first frame at or below 0.
    `pixel_mm`: the size of the pixels the distances were measured on (see FAST_APPROACH_PX and
    SHALLOW_CONTACT_PX; 0: exact distances). `outline`: the distances are to an outline an edge is found over
    (SHALLOW_CONTACT_PX), not to where a card came to rest. `lead_mm`: how far the distances measured run
    ahead of the edges' true gap (see MASK_LEAD_PX); the touch is timed where the true gap closes.

    Returns None unless the last sample is a contact.
    """
    if not samples or samples[-1][2] > 0:
        return None
    if lead_mm:
        # the gap as it truly closes: the approach's distances moved up by the lead, and a contact that the lead
        # leaves short of the outline kept as a contact only just made (it is timed at its frame, or before)
        *approach, (frame, t, distance) = samples
        samples = [(f, s, d + lead_mm if d > 0 else d) for f, s, d in approach]
        samples.append((frame, t, min(distance + lead_mm, -1e-6)))
    return _estimate(samples, period, pixel_mm, outline)


def _estimate(samples: list[tuple[int, float, float]], period: float, pixel_mm: float, outline: bool) -> TouchEstimate:
    """`estimate_touch` of samples that end with a contact."""
    before = [sample for sample in samples[:-1] if sample[2] > 0]
    while len(before) >= 2 and before[-1][2] > before[-2][2]:
        # farther than a frame before: no approach, but the card lost under the fingers (its edge
        # measured behind where it is) or some other part of the hand measured; the approach is the
        # frames before it
        before.pop()
    if len(before) >= 3 and _stalled(before, samples[-1]):
        # the front all but stopped a frame short of the pile, then crossed it by far more in one frame: that
        # frame may have measured some other part of the hand (the card's edge under the other player's hand,
        # or smeared by a video codec), or the card did hover; the touch is timed as seen, and may be off by
        # as much as the approach without that frame says
        without = _estimate([sample for sample in samples if sample is not before[-1]], period, pixel_mm, outline)
        seen = _timed(before, samples[-1], period, pixel_mm, outline)
        return TouchEstimate(seen.t, seen.frame, max(seen.error, abs(without.t - seen.t)))
    return _timed(before, samples[-1], period, pixel_mm, outline)


def _timed(before: list[tuple[int, float, float]], contact: tuple[int, float, float], period: float,
           pixel_mm: float, outline: bool = True) -> TouchEstimate:
    """The touch between the approach samples `before` (apart, in time order; maybe none) and `contact`."""
    frame, t_in, d_in = contact
    if not before:  # already touching in the first frame seen: the touch is somewhere in the gap before
        return TouchEstimate(t=t_in - period / 2, frame=frame, error=period / 2)
    _, t_out, d_out = before[-1]
    interpolated = t_out + (t_in - t_out) * d_out / (d_out - d_in)
    estimates = [interpolated]
    fast = False
    if len(before) >= 2:
        _, t_older, d_older = before[-2]
        speed = (d_older - d_out) / (t_out - t_older) if t_out > t_older else 0.0
        if speed > 0:
            extrapolated = t_out + d_out / speed
            if t_out <= extrapolated <= t_in:
                estimates.append(extrapolated)
                fast = speed * period >= FAST_APPROACH_PX * pixel_mm > 0
            elif extrapolated > t_in:
                # at its speed it would have arrived after the frame that shows it touching: it sped up
                # at the last, and the touch lies between the crossing interpolated (early, as what
                # overlaps the pile reads deeper than it is) and that frame
                estimates.append(t_in)
    t = estimates[-1] if fast else sum(estimates) / len(estimates)
    spread = max(estimates) - min(estimates)
    error = min(max(spread, MIN_ERROR_FRACTION * period), MAX_ERROR_FRACTION * period)
    if t_in - t_out > 1.5 * period:  # frames were dropped around the touch: we know less
        error = max(error, (t_in - t_out) / 2)
    t = min(max(t, t_out), t_in)
    if outline and _crept_in(before, contact, period, pixel_mm):
        t, error = t_in, max(error, t_in - t)
    return TouchEstimate(t=t, frame=frame, error=error)


#: Frame gaps used before / after the slowest sample when fitting the stop: the approach's ease-in is
#: long (nearly linear speed over several frames), the slide after it short (its speed turns within a
#: frame or two), so more gaps before than after. Chosen on eased tracks: median error 0.23 frame.
STOP_FIT_BEFORE = 3
STOP_FIT_AFTER = 1
#: Candidate instants tried between the frames around a stop (s).
STOP_GRID_S = 0.0005
#: Two fits whose squared misfits differ by less than this share of the speeds' own squares are equally
#: good; a coefficient this small against the other (of either sign) is zero.
FIT_TIE = 1e-9


def find_stop(samples: list[tuple[int, float, float]]) -> int | None:
    """Index of the sample at which the approach ends: the first local minimum of speed.

    `samples`: (frame, t, progress mm along the approach). Returns None until a minimum is confirmed
    (the speed has risen again after it, or the hand has stayed still for two frame gaps).
    """
    if len(samples) < 3:
        return None
    speeds = [abs(b[2] - a[2]) / max(b[1] - a[1], 1e-6) for a, b in zip(samples, samples[1:])]
    for k in range(1, len(speeds)):
        slowed = speeds[k - 1] <= STOP_DIP * max(speeds[:k]) or speeds[k - 1] < STILL_MM_PER_S
        if slowed and speeds[k] > speeds[k - 1] and (k < 2 or speeds[k - 1] <= speeds[k - 2]):
            return k  # speed fell into gap k-1 and rose again after sample k
        if k >= 2 and speeds[k] < STILL_MM_PER_S and speeds[k - 1] < STILL_MM_PER_S:
            return k - 1
    return None


#: A slowest moment counts as the approach's end only if the speed has fallen to this fraction of the
#: fastest so far (a steady hand's jitter is not a stop).
STOP_DIP = 0.35
#: Below this speed (mm/s) a hand counts as still.
STILL_MM_PER_S = 20.0


def estimate_stop(samples: list[tuple[int, float, float]], stop: int, period: float) -> TouchEstimate:
    """Sub-frame instant at which a decelerating approach turned into the slide that follows.

    Near that instant the hand's speed is V-shaped: A (t0 - t) before, B (t - t0) after (an approach
    that eases in, a slide that eases out). Each gap between frames shows the *average* speed over it,
    so for each candidate t0 the averages are linear in A and B; the t0 whose least-squares fit is best
    wins. Exact for a V, and it needs no model of how far the hand goes. Where the frames cannot tell
    (two gaps, two unknowns: many t0 fit exactly), the middle of those that fit best is taken. All the
    candidates are fitted at once (a ruling frame's worth of time: 9 ms one by one, under 1 ms so).
    """
    first = max(0, stop - STOP_FIT_BEFORE)
    window = samples[first:stop + STOP_FIT_AFTER + 1]
    starts = np.array([a[1] for a in window[:-1]])
    ends = np.array([b[1] for b in window[1:]])
    speeds = np.array([(b[2] - a[2]) / max(b[1] - a[1], 1e-9) for a, b in zip(window, window[1:])])
    lower = samples[max(0, stop - 1)][1]
    upper = samples[min(len(samples) - 1, stop + 1)][1]
    best_t = samples[stop][1]
    candidates = np.arange(lower, upper + 1e-9, STOP_GRID_S)
    if len(speeds) and len(candidates):
        t0 = candidates[:, None]  # a row per candidate, a column per gap
        before = np.where(starts < t0, ((t0 - starts) ** 2 - (t0 - np.minimum(ends, t0)) ** 2) / 2, 0.0)
        after = np.where(ends > t0, ((ends - t0) ** 2 - (np.maximum(starts, t0) - t0) ** 2) / 2, 0.0)
        design = np.stack([before, after], axis=2) / (ends - starts)[None, :, None]
        coefficients = np.linalg.pinv(design) @ speeds  # least squares, each candidate's own
        residuals = np.sum((np.einsum("kgc,kc->kg", design, coefficients) - speeds) ** 2, axis=1)
        scale = float(np.sum(speeds ** 2)) + 1e-12
        slack = FIT_TIE * scale  # fits this close are the same fit (rounding, not the frames, tells them apart)
        usable = np.all(coefficients >= -FIT_TIE * (np.abs(coefficients).max(axis=1, keepdims=True) + 1e-12), axis=1)
        if usable.any():
            fits = np.where(usable, residuals, np.inf)
            tied = np.flatnonzero(fits <= fits.min() + slack)
            best_t = float(candidates[tied[len(tied) // 2]])
    frame = next((sample[0] for sample in samples if sample[1] >= best_t - 1e-9), samples[-1][0])
    return TouchEstimate(t=best_t, frame=frame, error=MIN_ERROR_FRACTION * period)
