"""Touch timing below the frame period.

For each frame in which a player's hand (with the card it carries) is near a pile, the tracker
measures the signed distance in mm from the hand blob's leading edge to the pile outline (positive:
still apart, negative: overlapping by that much). The touch is the zero crossing of that distance in
time. Between the last frame apart and the first frame overlapping, the crossing is interpolated
linearly; the approach speed from the frames before gives a second estimate by extrapolation, and
the two disagree by about as much as the motion is non-uniform, which sets the timing error.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def estimate_touch(samples: list[tuple[int, float, float]], period: float) -> TouchEstimate | None:
    """`samples`: (frame, t, signed distance mm) in time order, ending with the first frame at or below 0.

    Returns None unless the last sample is a contact.
    """
    if not samples or samples[-1][2] > 0:
        return None
    frame, t_in, d_in = samples[-1]
    before = [sample for sample in samples[:-1] if sample[2] > 0]
    if not before:  # already touching in the first frame seen: the touch is somewhere in the gap before
        return TouchEstimate(t=t_in - period / 2, frame=frame, error=period / 2)
    _, t_out, d_out = before[-1]
    interpolated = t_out + (t_in - t_out) * d_out / (d_out - d_in)
    estimates = [interpolated]
    if len(before) >= 2:
        _, t_older, d_older = before[-2]
        speed = (d_older - d_out) / (t_out - t_older) if t_out > t_older else 0.0
        if speed > 0:
            extrapolated = t_out + d_out / speed
            if t_out <= extrapolated <= t_in:
                estimates.append(extrapolated)
    t = sum(estimates) / len(estimates)
    spread = max(estimates) - min(estimates)
    error = min(max(spread, MIN_ERROR_FRACTION * period), MAX_ERROR_FRACTION * period)
    if t_in - t_out > 1.5 * period:  # frames were dropped around the touch: we know less
        error = max(error, (t_in - t_out) / 2)
    return TouchEstimate(t=min(max(t, t_out), t_in), frame=frame, error=error)
