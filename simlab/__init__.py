"""simlab: Monte Carlo balance analysis for tabletop games."""
__version__ = "0.1.0"


def load(run_dir, columns=None):
    """Read a run directory as one pandas frame (provenance in ``frame.attrs["simlab"]``)."""
    from .core.results import load as _load

    return _load(run_dir, columns)
