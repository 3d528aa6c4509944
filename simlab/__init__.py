"""simlab: Monte Carlo balance analysis for tabletop games."""
from .core.version import VERSION as __version__

__all__ = ["__version__", "load"]


def load(run_dir, columns=None):
    """Read a run directory as one pandas frame (provenance in ``frame.attrs["simlab"]``)."""
    from .core.results import load as _load

    return _load(run_dir, columns)
