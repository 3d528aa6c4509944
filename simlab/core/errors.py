"""The exceptions a user sees: a message printed as a single line, never a traceback."""
import signal


class SimlabError(Exception):
    """Bad input (unknown game, strategy or option, illegal setup, foreign run directory...): exit code 2."""


class Interrupted(BaseException):
    """SIGINT or SIGTERM reached the command: workers are stopped, finished chunks kept; exit 128 + signal.

    Not a KeyboardInterrupt, which click would turn into a bare "Aborted!" and exit code 1.
    """

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
