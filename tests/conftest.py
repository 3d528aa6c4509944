import os
import warnings
from pathlib import Path

import pytest

# The fifth game, a plug-in outside the package, is declared to every test (and every process the
# tests start) as a user declares one: the generic suites run on it like on the built-in games.
os.environ.setdefault("SIMLAB_PLUGINS", str(Path(__file__).resolve().parent.parent / "examples" / "pig"))

warnings.simplefilter("ignore")


@pytest.fixture
def cli_run(capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""
    from simlab.cli import main

    def go(*args):
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code or 0
        out = capsys.readouterr()
        return code, out.out, out.err

    return go


@pytest.fixture(autouse=True)
def _forget_user_strategies():
    """Strategies a test loads from its own files leave the registry with the test: experiments such
    as the overview play every registered strategy of a game."""
    from simlab.core import strategy

    before = set(strategy._LOADED)
    yield
    for path in set(strategy._LOADED) - before:
        del strategy._LOADED[path]
        for key in [k for k, source in strategy._SOURCE.items() if source == path]:
            del strategy._SOURCE[key], strategy._REGISTRY[key]
