"""The exceptions a user sees: a message printed as a single line, never a traceback."""
import os
import signal
from pathlib import Path


class SimlabError(Exception):
    """Bad input (unknown game, strategy or option, illegal setup, foreign run directory...): exit code 2."""


class Interrupted(BaseException):
    """SIGINT or SIGTERM reached the command: workers are stopped, finished chunks kept; exit 128 + signal.

    Not a KeyboardInterrupt, which click would turn into a bare "Aborted!" and exit code 1.
    """

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def refuse_link(path, named: str) -> None:
    """simlab writes, replaces and deletes only in folders the user names, never through a symbolic
    link in what it points at (``-o latest`` linked to last week's run must not replace that run)."""
    if os.path.islink(path):
        raise SimlabError(f"{named} is a symbolic link (to {os.readlink(path)}): simlab never writes through "
                          "a link; name the folder itself")


def make_folder(path, what: str = "output folder"):
    """Create ``path`` (and its parents) for the user's files, or refuse in one line naming it and
    why: a symbolic link, under a file, in a folder you may not write, or a file already there."""
    path = Path(path)
    refuse_link(path, f"the {what} {path}")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SimlabError(f"cannot create the {what} {path}: a file of that name is in the way") from None
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
        raise SimlabError(f"cannot create the {what} {path}: {(exc.strerror or str(exc)).lower()}{where}") from None
    return path


def check_folder(path, kind: str = "folder", option: str = "") -> None:
    """Refuse, before any work and without creating anything, a folder the user names (``option``,
    e.g. ``--out``) that could not be created or written: it is a symbolic link, a file, lies under
    a file, or in a folder you may not write."""
    path = Path(path)
    named = f"{option} {path}" if option else str(path)
    refuse_link(path, named)
    if path.exists():
        if not path.is_dir():
            raise SimlabError(f"{named} is a file, not a {kind}")
        if not os.access(path, os.W_OK | os.X_OK):
            raise SimlabError(f"cannot write in the {kind} {named}: permission denied")
        return
    above = path.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        raise SimlabError(f"cannot create the {kind} {named}: {above} is a file")
    if not os.access(above, os.W_OK | os.X_OK):
        raise SimlabError(f"cannot create the {kind} {named}: you may not write in {above}")
