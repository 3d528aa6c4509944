import warnings

import pytest

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
