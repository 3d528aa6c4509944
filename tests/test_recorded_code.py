"""A stored run is read with what it was played with (issue 44): ``simlab report``, ``simlab trace
--record`` and ``simlab play --load`` load the user strategy files and plug-ins its manifest (or
saved game) records, without the user naming them again, and refuse one that is missing or
changed since, in one line naming it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simlab.core import strategy
from simlab.core.errors import SimlabError
from simlab.core.runner import RunConfig, run
from simlab.core.strategy import HUMAN
from simlab.playtest.session import Session, load

PIG = Path(__file__).resolve().parent.parent / "examples" / "pig"


def strategy_source(name: str, body: str = "return 0") -> str:
    return textwrap.dedent(f'''
        from simlab.core.strategy import strategy

        @strategy("karuba", "{name}", "a test strategy")
        def decide(state, cfg, seat, legal, n_legal, params, rng):
            {body}
    ''')


def forget(path: Path) -> None:
    """As a new process would be: the file's strategies not registered (the conftest fixture's work)."""
    key = str(path.resolve())
    strategy._LOADED.pop(key, None)
    for registered in [k for k, source in strategy._SOURCE.items() if source == key]:
        del strategy._SOURCE[registered], strategy._REGISTRY[registered]


@pytest.fixture
def user_run(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(strategy_source("first_choice"))
    cfg = RunConfig("karuba", 2, ("first_choice", "random"), games=60, seed=2, strategy_files=(str(path),))
    run(cfg, tmp_path / "o1", executor="serial", progress=False)
    forget(path)
    return path, tmp_path / "o1"


def test_a_run_played_with_a_users_strategy_file_is_reported_without_naming_the_file_again(cli_run, user_run):
    path, run_dir = user_run
    code, out, err = cli_run("report", str(run_dir))
    assert code == 0, err
    assert (run_dir / "report" / "report.md").is_file()
    assert "first_choice" in (run_dir / "report" / "report.md").read_text()


@pytest.mark.parametrize("change, words", [
    (lambda p: p.unlink(), "was played with the strategy file"),
    (lambda p: p.write_text(strategy_source("first_choice", "return n_legal - 1")), "mine.py changed since the run"),
])
def test_a_missing_or_changed_strategy_file_is_refused_by_name_before_anything_is_written(cli_run, user_run,
                                                                                        change, words):
    path, run_dir = user_run
    change(path)
    code, _, err = cli_run("report", str(run_dir))
    assert code == 2 and words in err and str(path) in err and len(err.strip().splitlines()) == 1, err
    assert not (run_dir / "report").exists()


def playtest_with_a_user_strategy(tmp_path: Path) -> tuple[Path, Path]:
    path = tmp_path / "bot.py"
    path.write_text(strategy_source("first_bot"))
    session = Session(RunConfig("karuba", 2, (HUMAN, "first_bot"), games=1, seed=5, strategy_files=(str(path),)))
    for _ in range(3):
        session.choose(0)
    saved = session.save(tmp_path / "game.json")
    forget(path)
    return path, saved


def test_a_saved_playtest_replays_with_the_strategy_file_it_was_played_with(cli_run, tmp_path):
    path, saved = playtest_with_a_user_strategy(tmp_path)
    assert load(saved).choices == json.loads(saved.read_text())["choices"]
    forget(path)
    code, out, err = cli_run("trace", "--record", str(saved))
    assert code == 0 and "first_bot" in out, err
    path.write_text(strategy_source("first_bot", "return n_legal - 1"))
    with pytest.raises(SimlabError, match="bot.py changed since"):
        load(saved)


def without_plugins() -> dict:
    return {k: v for k, v in os.environ.items() if k != "SIMLAB_PLUGINS"}


@pytest.mark.timeout(300)
def test_a_plugin_games_run_is_reported_where_the_plugin_is_not_declared_and_refused_once_it_is_gone(tmp_path):
    """The run records the plug-in's folder and content; a report in a shell without $SIMLAB_PLUGINS
    finds it there, and names the folder when it has moved or changed."""
    plugin = tmp_path / "plugins" / "pig"
    shutil.copytree(PIG, plugin, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, SIMLAB_PLUGINS=str(plugin))
    report = [sys.executable, "-m", "simlab", "report", str(tmp_path / "r")]
    played = subprocess.run([sys.executable, "-m", "simlab", "run", "pig", "-n", "40", "-o", str(tmp_path / "r"),
                             "-q", "--executor", "serial"], env=env, capture_output=True, text=True, timeout=240)
    assert played.returncode == 0, played.stderr[-2000:]
    assert json.loads((tmp_path / "r" / "_manifest.json").read_text())["provenance"]["plugins"].keys() == {
        str(plugin)}
    reported = subprocess.run(report, env=without_plugins(), capture_output=True, text=True, timeout=240)
    assert reported.returncode == 0, reported.stderr[-2000:]
    (plugin / "strategies.py").write_text((plugin / "strategies.py").read_text() + "\n# edited\n")
    changed = subprocess.run(report, env=without_plugins(), capture_output=True, text=True, timeout=240)
    assert changed.returncode == 2 and f"the plug-in in {plugin} changed" in changed.stderr, changed.stderr
    shutil.rmtree(plugin)
    gone = subprocess.run(report, env=without_plugins(), capture_output=True, text=True, timeout=240)
    assert gone.returncode == 2 and f"the plug-in in {plugin}, which is missing" in gone.stderr, gone.stderr
