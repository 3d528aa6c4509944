"""simlab: Monte Carlo balance analysis for tabletop games."""
from .core.jit_cache import use_versioned_cache
from .core.version import VERSION as __version__

use_versioned_cache()   # before any module compiles: numba's cache, one folder per version of the sources

__all__ = ["__version__", "load"]


def load(run_dir, columns=None):
    """Read a run directory as one pandas frame (provenance in ``frame.attrs["simlab"]``)."""
    from .core.results import load as _load

    return _load(run_dir, columns)
