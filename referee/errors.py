"""Every exception the referee raises on purpose, in one place.

The CLI turns any `RefereeError` into one `error: ...` line on stderr and a non-zero exit.
Illegal plays are not exceptions: the rules engine returns them as events.
Messages say what was expected, what came, and what to do.
"""


class RefereeError(Exception):
    """Base of every error the referee reports to a user."""


class CardNotationError(RefereeError, ValueError):
    """A card string is not rank-then-suit (`10H`, `AS`, `7?`)."""


class ObservationError(RefereeError):
    """The rules engine cannot accept an observation (out of time order, impossible card...).

    The engine keeps its state unchanged; the caller decides what to do.
    """


class InputFileError(RefereeError):
    """A file given on the command line is missing, unreadable or malformed."""


class VideoError(InputFileError):
    """A video or camera cannot be opened or read."""


class CalibrationError(RefereeError):
    """A calibration cannot be made or loaded (markers missing, bad corners, wrong file)."""


class ModelError(RefereeError):
    """A recognition model file is missing, corrupt, or incompatible."""


class ConfigError(RefereeError, ValueError):
    """A configuration value or key is wrong (unknown key, out of range)."""


class BoardError(RefereeError):
    """The LED/buzzer board cannot be reached or does not speak our protocol."""


class NotBuiltYet(RefereeError):
    """A command of INTERFACE.md whose implementation has not landed yet."""


class BoardPortError(BoardError):
    """A serial port does not exist, cannot be opened, or vanished (cable pulled)."""


class BoardNotRecognisedError(BoardError):
    """Something answers on the port, or nothing does, but not the referee board's identify handshake."""


class BoardProtocolError(BoardError):
    """The board speaks an incompatible protocol version: reflash it or update the referee."""


class BoardCommandError(BoardError):
    """The board refused a command or did not acknowledge it after every retry."""


class BoardClosedError(BoardError):
    """A board driver was used after `close()`."""
