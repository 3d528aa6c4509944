"""simlab: Monte Carlo balance analysis for tabletop games."""
from .core.jit_cache import use_versioned_cache
from .core.version import VERSION as __version__

use_versioned_cache()   # before any module compiles: numba's cache, one folder per version of the sources

__all__ = ["__version__", "load", "load_findings"]


def load(run_dir, columns=None):
    """Read a run directory as one pandas frame (provenance in ``frame.attrs["simlab"]``)."""
    from .core.results import load as _load

    return _load(run_dir, columns)


def load_findings(report_dir):
    """Read a report folder's findings as one pandas frame: a row per finding, ``estimate``, ``low``
    and ``high`` in the measure's unit (shares as fractions), its verdict code and what it rests on."""
    from simlab.report.page import load_findings as _load

    return _load(report_dir)
