"""Helper threads that give way to the thread that referees.

A replay runs three busy threads on two cores: decoding the video, seeing each frame from above, and
tracking the table. The tracking (pure Python and small image operations on the main thread) bounds
the pace; the other two together need less than one core. At the same priority the scheduler shares
the cores out evenly and preempts the tracking now and then to run a helper that could as well have
waited (measured on a 45 s game on 2 cores: the main thread on the CPU 84 % of its wall time). A
helper that gives way still gets the CPU the tracking leaves, and the frames come out the same.
"""

from __future__ import annotations

import os
import sys
import threading

#: How much lower than the process a helper thread runs (added to its niceness, up to 19). Measured
#: replaying a 45 s 720p30 game on 2 cores, two runs each: 8.9-9.1x real time at 0, 9.5-9.7x at 3,
#: 9.7-9.8x at 10; with another program keeping one core busy, 7.2x at 0, 7.3x at 3 but 6.5x at 10 (the
#: helpers, far below the other program, starve and the tracking waits for its frames).
HELPER_NICENESS = 3


def give_way() -> bool:
    """Lower the calling thread's scheduling priority by HELPER_NICENESS (Linux, where a thread has a
    niceness of its own). True when it did; elsewhere, or where not allowed, the thread runs as before."""
    if not sys.platform.startswith("linux"):
        return False
    thread = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + HELPER_NICENESS))
    except OSError:
        return False
    return True
