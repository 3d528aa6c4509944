"""The signals simlab takes over, and the exit for a second one: kept light (``os`` and ``signal``
only), since ``simlab.__main__`` installs them before numpy, numba and pandas are imported."""
import os
import signal

HANDLED = (signal.SIGINT, signal.SIGTERM)


def exit_now(signum, frame):
    """Exit without a traceback or clean-up (workers die with their parent)."""
    os.write(2, b"interrupted\n")
    os._exit(128 + signum)
