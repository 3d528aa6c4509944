"""numba's cache is kept per version of simlab's sources (``simlab.core.jit_cache``): numba checks
only a cached function's own file, so a changed constant (a game's state layout) imported by an
unchanged module would otherwise leave that module's cached code on the old value."""
import os
import re
import subprocess
import sys

from simlab.core.jit_cache import COMPILED, ROOT, source_digest

SHOW = "import simlab; from numba.core import config; print(config.CACHE_DIR)"


def _tree(root, size):
    (root / "simlab" / "games").mkdir(parents=True)
    (root / "strategies").mkdir()
    (root / "simlab" / "games" / "state.py").write_text(f"PB = {size}\n")
    (root / "strategies" / "plays.py").write_text("from simlab.games.state import PB\n")


def test_a_changed_constant_in_the_compiled_code_or_the_strategies_is_a_new_version(tmp_path):
    _tree(tmp_path, 36)
    before = source_digest(tmp_path)
    (tmp_path / "simlab" / "games" / "state.py").write_text("PB = 40\n")   # the importer unchanged
    after = source_digest(tmp_path)
    (tmp_path / "simlab" / "games" / "__pycache__").mkdir()
    (tmp_path / "simlab" / "games" / "__pycache__" / "state.nbi").write_text("compiled")
    (tmp_path / "notes.py").write_text("outside the packages")
    (tmp_path / "simlab" / "analysis").mkdir()
    (tmp_path / "simlab" / "analysis" / "report.py").write_text("compiles nothing")
    assert before != after == source_digest(tmp_path)
    (tmp_path / "strategies" / "plays.py").write_text("from simlab.games.state import PB  # read\n")
    assert source_digest(tmp_path) not in (before, after)


def test_simlab_points_numba_at_the_folder_of_its_sources_unless_told_where(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["SIMLAB_JIT_CACHE"] = str(tmp_path)
    shown = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str(tmp_path / source_digest())
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    shown = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str(tmp_path / "mine")


def test_every_compiled_module_and_what_it_imports_from_simlab_is_inside_the_hash():
    """The hash covers only the folders of compiled code (so an edit of the analysis recompiles
    nothing): that is safe only while no compiled module lies, or imports from simlab, outside them."""
    inside = tuple(ROOT / folder for folder in COMPILED)
    compiled = 0
    for path in [*(ROOT / "simlab").rglob("*.py"), *(ROOT / "strategies").rglob("*.py")]:
        text = path.read_text()
        if not re.search(r"^(from numba|import numba)|@njit|@lean|stack_scratch\(", text, re.M):
            continue
        compiled += 1
        assert any(path.is_relative_to(f) for f in inside), path
        for module in re.findall(r"^\s*(?:from|import) (simlab\.[\w.]+)", text, re.M):
            assert any(module.startswith(f.replace("/", ".")) for f in COMPILED), (path, module)
    assert compiled > 40
