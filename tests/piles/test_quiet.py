"""The table said quiet once per quiet spell, a moment after the last hand left."""

import pytest

from referee.piles.quiet import QUIET_SECONDS, UNCOUNTED_SECONDS, UNTURNED_SECONDS, QuietTable

FPS = 30


@pytest.mark.parametrize("busy_until, told_at", [(0.0, QUIET_SECONDS), (1.0, 1.0 + QUIET_SECONDS)])
def test_the_table_is_said_quiet_once_after_it_has_been_left_alone_a_while(busy_until, told_at):
    quiet = QuietTable()
    told = [index / FPS for index in range(3 * FPS) if quiet.step(index / FPS, busy=index / FPS < busy_until)]
    first_quiet = next(index / FPS for index in range(3 * FPS) if index / FPS >= busy_until)
    assert len(told) == 1 and told[0] == pytest.approx(told_at, abs=1.01 / FPS) and told[0] >= first_quiet + QUIET_SECONDS
    assert quiet.since == first_quiet


def test_any_business_ends_the_spell_and_a_new_one_is_told_again():
    quiet = QuietTable()
    assert not quiet.step(0.0, busy=False)
    assert quiet.step(QUIET_SECONDS, busy=False)
    assert not quiet.step(QUIET_SECONDS + 0.1, busy=False)   # once per spell
    assert not quiet.step(1.0, busy=True) and quiet.since is None
    assert not quiet.step(1.1, busy=False) and quiet.since == 1.1
    assert not quiet.step(1.1 + QUIET_SECONDS / 2, busy=True)   # too short a spell
    assert not quiet.step(1.3, busy=False)
    assert quiet.step(1.3 + QUIET_SECONDS, busy=False) and quiet.since == 1.3


def test_a_long_spell_is_told_once_more_later_and_a_short_one_not():
    quiet = QuietTable()
    told = []
    for index in range(3 * FPS):
        t = index / FPS
        if quiet.step(t, busy=False):
            told.append(("quiet", t))
        if quiet.unturned(t):
            told.append(("unturned", t))
        if quiet.uncounted(t):
            told.append(("uncounted", t))
    assert [kind for kind, _ in told] == ["quiet", "unturned", "uncounted"]
    assert told[1][1] == pytest.approx(UNTURNED_SECONDS, abs=1.01 / FPS) and told[1][1] >= UNTURNED_SECONDS
    assert told[2][1] == pytest.approx(UNCOUNTED_SECONDS, abs=1.01 / FPS) and told[2][1] >= UNCOUNTED_SECONDS
    assert not quiet.uncounted(2.9)   # once a spell
    assert not quiet.step(3.0, busy=True) and not quiet.unturned(3.0)
    quiet.step(3.1, busy=False)
    assert quiet.step(3.1 + QUIET_SECONDS + 0.01, busy=False)
    assert not quiet.unturned(3.1 + UNTURNED_SECONDS - 0.05)   # not yet
    assert not quiet.step(3.1 + UNTURNED_SECONDS - 0.01, busy=True) and not quiet.unturned(3.1 + UNTURNED_SECONDS)  # ended first


def test_a_lull_cut_short_is_told_once_with_when_it_began_until_the_next_lull():
    """A lull told quiet that ends before UNCOUNTED_SECONDS (the hands go for their spit cards, or the video
    ends) gives when it began, once; a lull not yet told quiet, or the one before the next, gives nothing."""
    quiet = QuietTable()
    assert quiet.cut_short() is None
    quiet.step(1.0, busy=False)
    assert quiet.cut_short() is None   # not told quiet yet
    assert quiet.step(1.0 + QUIET_SECONDS + 0.01, busy=False)
    assert not quiet.step(1.0 + UNCOUNTED_SECONDS / 2, busy=True)   # hands back before the long moment
    assert quiet.cut_short() == 1.0 and quiet.cut_short() is None
    quiet.step(2.0, busy=False)
    quiet.step(2.0 + QUIET_SECONDS + 0.01, busy=False)
    quiet.step(2.0 + QUIET_SECONDS + 0.1, busy=True)
    quiet.step(3.0, busy=False)   # the next lull begins: the last one is forgotten
    assert quiet.cut_short() is None
    quiet.step(3.0 + QUIET_SECONDS + 0.01, busy=False)
    assert quiet.uncounted(3.0 + UNCOUNTED_SECONDS + 0.01)
    quiet.step(3.0 + UNCOUNTED_SECONDS + 0.1, busy=True)
    assert quiet.cut_short() is None   # told in full already
