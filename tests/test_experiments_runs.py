"""The experiment run bookkeeping: extended and sequential runs give the rows of one fixed-size run."""
import pandas as pd
import pytest

from simlab.core.errors import SimlabError
from simlab.core.results import load
from simlab.core.runner import extend_run
from simlab.core.runner import Prepared, RunConfig, run
from simlab.measures.stats import StoppingRule
from simlab.report.caveats import run_command
from simlab.studies.experiment import Context, Experiment


def config(games, seed=4):
    return RunConfig("karuba", 2, ("random", "random"), games, seed=seed, rotate=True)


def same_rows(run_dir, games):
    got = load(run_dir)
    want = Prepared(config(games)).frame(0, games)
    got["strategy"] = got["strategy"].astype(str)
    want["strategy"] = want["strategy"].astype(str)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)


@pytest.mark.parametrize("first", [1000, 1500])   # a full last chunk, and a partial one that must be replayed
def test_extending_a_run_gives_exactly_the_rows_of_one_larger_run(tmp_path, first):
    run(config(first), tmp_path / "r", executor="serial", chunk_size=1000, progress=False)
    extend_run(tmp_path / "r", config(2500))
    run(config(2500), tmp_path / "r", executor="serial", resume=True, progress=False)
    same_rows(tmp_path / "r", 2500)
    batches = load(tmp_path / "r").attrs["simlab"]["batches"]
    assert [b["games"] for b in batches] == [first, 2500]


def test_extending_refuses_a_different_configuration(tmp_path):
    run(config(1000), tmp_path / "r", executor="serial", progress=False)
    with pytest.raises(SimlabError):
        extend_run(tmp_path / "r", config(2000, seed=5))


def _ctx(tmp_path, games=1000, rule=None, log=None):
    exp = Experiment("t", "t", "t", lambda ctx: None, game="karuba")
    return Context(exp, games, tmp_path / "out", tmp_path / "runs", seed=4, executor="serial", rule=rule,
                   progress=False, log=log or (lambda m: None))


def test_sequential_run_adds_batches_until_the_seat_interval_is_narrow_enough(tmp_path):
    ctx = _ctx(tmp_path, rule=StoppingRule(target_width=0.06, min_games=500, max_games=20_000, unit=500))
    r = ctx.run("p", ctx.config(2, ("random", "random")))
    seq = r.sequential
    assert seq.reached and seq.estimate.width <= 0.06 and all(w > 0.06 for _, w in seq.looks[:-1])
    assert r.config.games == seq.games and len(seq.looks) >= 2
    same_rows(tmp_path / "runs" / "p", seq.games)


def test_context_reuses_a_finished_run_and_replaces_one_with_another_configuration(tmp_path):
    messages = []
    ctx = _ctx(tmp_path, log=messages.append)
    cfg = ctx.config(2, ("random", "random"))
    ctx.run("p", cfg)
    ctx.run("p", cfg)
    assert "reusing" in messages[-1]
    ctx.run("p", ctx.config(2, ("random", "random"), {"distance_rule": "ring4"}))
    assert "replacing" in messages[-1]
    assert load(tmp_path / "runs" / "p").attrs["simlab"]["config"]["params"] == {"distance_rule": "ring4"}


def test_compare_runs_both_arms_on_the_same_seed_and_games(tmp_path):
    ctx = _ctx(tmp_path, games=300)
    arms = ctx.compare("gold", ctx.config(2, ("random", "random")), {"gold_supply": 2})
    assert arms.base.config.seed == arms.variant.config.seed and arms.variant.config.params == {"gold_supply": 2}
    b, v = arms.base.frame(), arms.variant.frame()
    assert (b["beach_brown"].to_numpy() == v["beach_brown"].to_numpy()).all()   # same setup stream per game
    assert v["gold_used"].max() <= 2 < b["gold_used"].max()


def test_run_command_reproduces_the_configuration():
    cmd = run_command(RunConfig("karuba", 3, ("builder", "racer", "random"), 500, seed=9, rotate=True,
                                params={"beaches": (20, 0, 0, 0)}), "runs/x")
    assert cmd == ("simlab run karuba --players 3 --seats builder,racer,random --games 500 --seed 9 --rotate "
                   "--set beaches=20,0,0,0 --out runs/x")


def test_variant_effect_section_reports_paired_differences_per_seat(tmp_path):
    from simlab.report.page import Report
    from simlab.report.sections import variant_effect

    ctx = _ctx(tmp_path, games=400)
    arms = ctx.compare("rule", ctx.config(2, ("random", "random")), {"distance_rule": "ring4"})
    rep = Report("t", "q")
    table = variant_effect(rep, arms.base.frame(), arms.variant.frame(), "ring4",
                           columns=("score", "tiles_placed", "rounds"))
    # at 2 players only the start player's change is judged (the other seat's is its mirror image)
    assert len(rep.verdicts) == 1 + 2 and "seat 1's win rate" in rep.verdicts[0].sentence()
    assert "paired on common random numbers" in rep.verdicts[0].sentence()
    # random play never brings all explorers home here: every game lasts all 36 rounds in both arms, a
    # "no change" that would be true by construction, so it is a finding, not a verdict
    assert (arms.base.frame()["rounds"] == 36).all() and any("rounds is 36" in f for f in rep.findings)
    assert set(table["column"]) == {"win", "score", "tiles_placed"} and len(rep.charts) == 1
    r = table[table["column"] == "score"].iloc[0]
    assert r["difference"] == pytest.approx(r["variant"] - r["baseline"]) and r["lo"] <= r["difference"] <= r["hi"]
