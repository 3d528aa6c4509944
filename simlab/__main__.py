"""The ``simlab`` command (and ``python -m simlab``): signals first, then the command line.

A Ctrl-C or SIGTERM while Python imports numpy, numba and pandas exits at once and quietly:
nothing has started yet. :func:`simlab.cli.main` then takes the signals over for the run.
"""
import os
import signal
import sys
from pathlib import Path

from simlab.signals import HANDLED, exit_now


def keep_own_packages() -> None:
    """``python -m`` puts the current folder first on ``sys.path``: a ``strategies/`` or
    ``experiments/`` package there must not shadow simlab's own (unless this is simlab's checkout)."""
    here = Path.cwd().resolve()
    own = Path(__file__).resolve().parent.parent
    if here != own:
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]


def main():
    for sig in HANDLED:
        if signal.getsignal(sig) is not signal.SIG_IGN:   # an ignored SIGINT (a background job) stays ignored
            signal.signal(sig, exit_now)
    keep_own_packages()
    from simlab.cli import main as cli_main

    try:
        cli_main()
    except SystemExit as exc:
        if not isinstance(exc.code, int):
            raise
        leave(exc.code)
    leave(0)


def leave(code: int) -> None:
    """Exit at once: every file is written and closed by now, and unloading numba, pandas and
    pyarrow takes up to seconds, during which a signal would meet Python's default handlers."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe (simlab games | head)
            pass
    os._exit(code)


if __name__ == "__main__":
    main()
