"""Fast small studies and the user's own questions (issue 14, items 5 and 6): one warm worker pool per
experiment, stored larger runs never deleted, and `simlab experiment run path/to/question.py`."""
import re
import os
import textwrap
import time
from pathlib import Path

import pandas as pd

from simlab.core.results import load
from simlab.core.rundir import n_chunks
from simlab.core.runner import Prepared, RunConfig, default_chunk_size
from simlab.studies.experiment import Context, Experiment, run_experiment

ROOT = Path(__file__).resolve().parents[1]


def config(games):
    return RunConfig("karuba", 2, ("random", "random"), games, seed=4, rotate=True)


def fresh_rows(games):
    """The rows a fresh run of this many games writes."""
    return Prepared(config(games)).frame(0, games)


def same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    got, want = got.copy(), want.copy()
    got["strategy"], want["strategy"] = got["strategy"].astype(str), want["strategy"].astype(str)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)


def _ctx(tmp_path, messages):
    exp = Experiment("t", "t", "t", lambda ctx: None, game="karuba")
    return Context(exp, 1000, tmp_path / "out", tmp_path / "runs", seed=4, executor="serial", progress=False,
                   log=messages.append)


def files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}


def test_a_smaller_rerun_reads_the_first_games_of_a_stored_larger_run_and_deletes_nothing(tmp_path):
    messages = []
    ctx = _ctx(tmp_path, messages)
    ctx.run("p", config(2500))
    stored = files(tmp_path / "runs" / "p")
    small = ctx.run("p", config(1500))
    assert "using the first 1,500 of the 2,500 games" in messages[-1]
    assert files(tmp_path / "runs" / "p") == stored            # not a file replaced, touched or deleted
    assert load(tmp_path / "runs" / "p").attrs["simlab"]["config"]["games"] == 2500
    same(small.frame(), fresh_rows(1500))                        # exactly a fresh 1,500-game run
    assert small.games == 1500 and small.stored == 2500


def test_the_report_says_a_run_was_read_from_a_larger_stored_one(tmp_path):
    from simlab.report.caveats import add_caveats
    from simlab.report.page import Report

    ctx = _ctx(tmp_path, [])
    ctx.run("p", config(2000))
    ctx.runs.clear()
    ctx.run("p", config(1000))
    rep = Report("t", "t")
    add_caveats(rep, ctx.runs, "simlab experiment run t")
    line = next(r for r in rep.reproduce if r.startswith("Run `p`"))
    assert "the first 1,000 of 2,000 games stored" in line and "--games 1000" in line


def test_a_smaller_rerun_completes_an_interrupted_larger_run_rather_than_cut_it(tmp_path):
    messages = []
    ctx = _ctx(tmp_path, messages)
    ctx.run("p", config(3000))
    (tmp_path / "runs" / "p" / "part-000000.parquet").unlink()   # as if killed before chunk 0 was written
    small = ctx.run("p", config(1500))
    assert "completing the stored 3,000-game run" in messages[-1]
    same(load(tmp_path / "runs" / "p"), fresh_rows(3000))
    same(small.frame(), fresh_rows(1500))


QUESTION = '''
    """Three small runs: which worker processes played them?"""
    from simlab.studies.experiment import Experiment


    def analyse(ctx):
        rep = ctx.report("Pool", "Which workers played?")
        for seed_seats in (("random", "random"), ("builder", "random"), ("random", "builder")):
            ctx.run("-".join(seed_seats), ctx.config(2, seed_seats))
            rep.findings.append(f"workers {sorted(ctx.pool.pids())} started {ctx.pool.started}")
        rep.bottom_line.append("Three runs were played.")
        rep.rests_on.append("random play")
        return rep


    EXPERIMENT = Experiment("pool-check", "Pool", __doc__, analyse, game="karuba")
'''


def test_every_run_of_an_experiment_shares_one_warm_pool_started_once(tmp_path):
    """Each run has two chunks for two workers: run alone, each would start two processes."""
    assert n_chunks(4000, default_chunk_size(4000, 2)) == 2
    question = tmp_path / "pool_check.py"
    question.write_text(textwrap.dedent(QUESTION))
    report, _ = run_experiment(str(question), games=4000, out=tmp_path / "rep", workers=2, progress=False,
                               log=lambda m: None)
    assert len(report.findings) == 3 and report.findings[0].endswith("started 2")
    assert len(set(report.findings)) == 1, report.findings   # the same two workers, never restarted
    assert str(os.getpid()) not in report.findings[0]


def test_a_question_file_runs_end_to_end_from_the_command_line(cli_run, tmp_path):
    """The shipped worked example, at a small number of games."""
    example = ROOT / "examples" / "ghost_ship_question.py"
    code, out, err = cli_run("experiment", "run", str(example), "--games", "300", "--out", str(tmp_path / "rep"),
                             "--executor", "serial", "-q", "--option", "strong-games=20")
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "ghost ship" in text and "distance from 50%" in text
    assert f"simlab experiment run {example} --games 300" in text     # the reproduce line names the file
    assert len(list((tmp_path / "rep" / "runs").iterdir())) == 10      # 4 heuristics and rollout x (with, without)
    assert "With stronger play this" in text
    assert re.search(r"rollout \(a search player: from 20 games, doubled until decided, at most 5 minutes of its "
                     r"own play each; it took (20|40|80|160|300) games\)", text)


def test_runs_queued_ahead_play_the_same_games_as_runs_played_in_turn(tmp_path):
    """``Context.ahead``: the workers play queued runs while the parent analyses; the frames, and the
    order the experiment's runs are listed in, are those of runs played one by one in place."""
    from simlab.core.pool import WorkerPool

    exp = Experiment("t", "t", "t", lambda ctx: None, game="karuba")
    jobs = [("-".join(s), RunConfig("karuba", 2, s, 3000, seed=4, rotate=True))
            for s in (("random", "random"), ("builder", "random"), ("random", "builder"))]
    with WorkerPool(2) as pool:
        ahead = Context(exp, 3000, tmp_path / "out", tmp_path / "ahead", seed=4, progress=False, log=lambda m: None,
                        pool=pool)
        t = time.monotonic()
        ahead.ahead(jobs)
        assert ahead.run_queue is not None
        last = ahead.run(*jobs[-1])      # asked for first: it waits for the two queued before it
        waited = time.monotonic() - t
        got = [last.frame()] + [ahead.run(*job).frame() for job in reversed(jobs[:-1])]   # another order than queued
        ahead.close()
    # a run's seconds are its own, not its wait in the queue (what a recheck's time budget counts)
    first, second = ahead.runs[2], ahead.runs[1]
    assert 0 < last.seconds <= waited - first.seconds - second.seconds and first.seconds > 0 and second.seconds > 0
    in_turn = Context(exp, 3000, tmp_path / "out", tmp_path / "in-turn", seed=4, executor="serial", progress=False,
                      log=lambda m: None)
    want = [in_turn.run(*job).frame() for job in reversed(jobs)]
    for g, w in zip(got, want):
        same(g, w)
    assert [r.point for r in ahead.runs] == [r.point for r in in_turn.runs] == [p for p, _ in reversed(jobs)]


def test_an_analysis_that_fails_with_runs_queued_stops_them_and_keeps_what_was_played(tmp_path):
    """The queue's thread stops (the run in flight after its current chunk, the rest never begin),
    the error reaches the user, and the run the analysis had finished stays complete."""
    import threading

    import pytest

    from simlab.core.rundir import read_manifest

    seats = [("random", "random"), ("builder", "random"), ("random", "builder"), ("builder", "builder")] * 2

    def analyse(ctx):
        jobs = [(f"r{i}", ctx.config(2, s)) for i, s in enumerate(seats)]
        ctx.ahead(jobs)
        ctx.run(*jobs[0])
        raise RuntimeError("the analysis broke")

    exp = Experiment("t", "t", "t", analyse, game="karuba")
    with pytest.raises(RuntimeError, match="the analysis broke"):
        run_experiment(exp, games=20_000, out=tmp_path / "rep", workers=2, progress=False, log=lambda m: None)
    assert not [t for t in threading.enumerate() if t.name == "simlab-runs"]
    first = read_manifest(tmp_path / "rep" / "runs" / "r0")
    assert first["done"] == [[0, first["chunks"]]]
    assert not (tmp_path / "rep" / "runs" / f"r{len(seats) - 1}").exists()


def test_an_experiment_under_a_variant_plays_every_run_under_it_and_says_so(tmp_path):
    """--variant and --set change the rules of every run (as simlab run's do), the command records them and
    the report says so where it opens; the printed game's runs are not reused for them."""
    from simlab.core.game import get_game
    from simlab.core.rundir import read_manifest

    spec = get_game("pig")
    report, paths = run_experiment("overview", games=60, game="pig", out=tmp_path / "rep", executor="serial",
                                   progress=False, log=lambda m: None, options={"strong": "none"},
                                   variants=("equal-turns",), sets=("target=40",))
    wanted = {**spec.variants["equal-turns"], "target": 40}
    runs = [d for d in (tmp_path / "rep" / "runs").iterdir() if d.is_dir()]
    assert len(runs) > 5
    for d in runs:
        params = read_manifest(d)["config"]["params"]
        assert {k: params.get(k) for k in wanted} == wanted, d.name
    md = paths["markdown"].read_text()
    assert "Rules changed from the printed game for every run: variant equal-turns (" in md
    assert "--variant equal-turns --set target=40" in md
