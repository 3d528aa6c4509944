"""numba's cache of compiled code, one folder per version of simlab's sources.

numba checks only a cached function's own file. A module whose constants other jitted modules
import (a game's state layout) or whose functions they call can change while their cached code
keeps the old one, and then plays wrongly without a word: a ``git pull`` that grows Loot Island's
actor block from 36 to 40 entries, into a checkout with a warm cache, is enough. So, unless
``NUMBA_CACHE_DIR`` says where, simlab points numba's cache at ``~/.cache/simlab/numba/<hash>``,
a hash of the sources of its compiled code and the built-in strategies (the base folder may be set
with ``$SIMLAB_JIT_CACHE``), before any of its modules compiles. Any change to those sources starts
a fresh folder; every process of the same code (pool and Dask workers included, as they import
simlab) shares one. The folders of older code can be deleted at any time.
A plugin game's files are outside the hash: numba checks each of them itself, file by file.
"""
import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]   # the folder holding the simlab and strategies packages
# Where compiled code and everything it imports live (a test checks that no compiled module imports
# from elsewhere): an edit of the analysis, the CLI or the experiments compiles nothing again.
COMPILED = ("simlab/core", "simlab/games", "simlab/search", "simlab/reference", "strategies")


def source_digest(root: Path = ROOT) -> str:
    """A hash of every Python source under ``root``'s folders of compiled code (:data:`COMPILED`)."""
    blob = hashlib.sha256()
    for folder in COMPILED:
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                blob.update(path.relative_to(root).as_posix().encode())
                blob.update(path.read_bytes())
    return blob.hexdigest()[:16]


def cache_folder() -> Path:
    """Where this version of the sources keeps its compiled code."""
    base = Path(os.environ.get("SIMLAB_JIT_CACHE") or Path.home() / ".cache" / "simlab" / "numba")
    return base / source_digest()


def use_versioned_cache() -> None:
    """Point numba's cache at :func:`cache_folder`, unless ``NUMBA_CACHE_DIR`` is set. Called when
    simlab is imported, before any module of it defines a cached function."""
    from numba import config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        config.CACHE_DIR = str(cache_folder())
