"""The command line as a designer uses it: listings, runs, traces, user strategies, bad input."""
import textwrap

import pytest

from simlab.core.results import load


def test_games_lists_games_and_a_games_parameters_with_fact_or_assumption(cli_run):
    code, out, _ = cli_run("games")
    assert code == 0 and "karuba" in out and "2-4 players" in out
    code, out, _ = cli_run("games", "karuba")
    assert code == 0
    assert "distance_rule = ring3   [ASSUMPTION]" in out and "tokens_4p = 5,4,3,2   [FACT]" in out
    assert "bonus-tiles" in out and "random" in out


def test_run_prints_a_summary_and_writes_rows(cli_run, tmp_path):
    out_dir = tmp_path / "k.parquet"
    code, out, err = cli_run("run", "karuba", "--players", "2", "--games", "400", "--seats", "random,random",
                             "--seed", "3", "--out", str(out_dir), "--executor", "serial", "-q")
    assert code == 0, err
    assert "400 games, 2 players" in out and "win rate" in out and "Game length" in out
    frame = load(out_dir)
    assert len(frame) == 800 and frame.attrs["simlab"]["config"]["seed"] == 3


def test_run_from_toml_config_with_variant_and_overrides(cli_run, tmp_path):
    config = tmp_path / "study.toml"
    config.write_text(textwrap.dedent("""
        game = "karuba"
        players = 2
        seats = ["random", "random"]
        games = 200
        seed = 4
        variants = ["bonus-tiles"]
        [params]
        distance_rule = "ring4"
    """))
    code, out, err = cli_run("run", "--config", str(config), "--set", "gold_supply=12", "--out",
                             str(tmp_path / "r"), "--executor", "serial", "-q")
    assert code == 0, err
    params = load(tmp_path / "r").attrs["simlab"]["config"]["params"]
    assert params == {"bonus_tiles": True, "distance_rule": "ring4", "gold_supply": 12}


def test_user_strategy_file_plugs_in_without_touching_the_engine(cli_run, tmp_path):
    path = tmp_path / "my_karuba.py"
    path.write_text(textwrap.dedent('''
        from simlab.core.strategy import StrategyParam, strategy

        @strategy("karuba", "hoarder", "always places while it can, else discards",
                  (StrategyParam("unused", 1.0, "shows a parameter"),))
        def hoarder(state, cfg, seat, legal, n_legal, params, rng):
            return 0
    '''))
    code, out, err = cli_run("run", "karuba", "--seats", "hoarder:unused=2,random", "--games", "300",
                             "--strategies", str(path), "--out", str(tmp_path / "r"), "--executor", "serial", "-q")
    assert code == 0, err
    frame = load(tmp_path / "r")
    assert set(frame.strategy) == {"hoarder:unused=2", "random"}
    assert (frame[frame.strategy == "hoarder:unused=2"].tiles_placed == 30).all()


def test_trace_shows_one_game_in_words_with_islands(cli_run):
    code, out, _ = cli_run("trace", "karuba", "--players", "2", "--seats", "random,random", "--seed", "7")
    assert code == 0
    assert "Round 1: the leader reveals tile" in out and "Seat 2 (random)" in out
    assert "The game ends after round" in out and "Assumed rule readings in force" in out


@pytest.mark.parametrize("args, message", [
    (("run", "karuba", "--seats", "random,teleporter"), "unknown strategy 'teleporter'"),
    (("run", "karuba", "--players", "5", "--seats", "random,random,random,random,random"), "2-4 players, not 5"),
    (("run", "karuba", "--players", "1", "--seats", "random"), "2-4 players, not 1"),
    (("run", "karuba", "--set", "gravity=3"), "unknown parameter 'gravity'"),
    (("run", "karuba", "--set", "beaches=10,0,0,0", "--set", "temples=20,0,0,0"), "too close"),
    (("run", "karuba", "--set", "beaches=15,0,0,0"), "labels 10, 20"),
    (("run", "karuba", "--variant", "moonlight"), "unknown variant 'moonlight'"),
    (("run", "tic-tac-toe"), "unknown game 'tic-tac-toe'"),
    (("run", "karuba", "--frobnicate"), "No such option"),
    (("run", "karuba", "--games", "many"), "'many' is not a valid integer"),
    (("trace", "karuba", "--seats", "random,random:bias=2"), "has no parameter 'bias'"),
    (("run", "karuba", "--config", "/no/such/file.toml"), "config file not found"),
])
def test_bad_input_gives_one_line_error_and_exit_2(cli_run, args, message, tmp_path):
    code, out, err = cli_run(*args, "--out", str(tmp_path / "x")) if args[0] == "run" else cli_run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_python_m_ignores_strategies_and_experiments_packages_in_the_current_folder(tmp_path):
    """`python -m simlab` puts the current folder first on sys.path; simlab's own packages still win."""
    import subprocess
    import sys

    for package in ("strategies", "experiments"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(f"raise RuntimeError('the folder\\'s {package} was imported')\n")
    for args, shown in ((["games", "karuba"], "builder"), (["experiment", "list"], "allen-effect")):
        proc = subprocess.run([sys.executable, "-m", "simlab", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0 and shown in proc.stdout, proc.stderr
