"""Whole studies on a Dask cluster (issue 33): every command that plays games takes the same
placement options, and a study played on Dask writes the same tables, byte for byte, as on local
processes; a worker killed mid-study costs only its chunks; stored runs serve any executor; a
study that stops cancels its futures on the cluster."""
import asyncio
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

pytestmark = pytest.mark.timeout(300)   # a hang fails its test, never the whole run

from dask.distributed import Client, LocalCluster  # noqa: E402

from simlab.core import executors  # noqa: E402
from simlab.core.errors import SimlabError  # noqa: E402
from simlab.core.executors import DaskPool, Placement, placement  # noqa: E402
from simlab.core.pool import RunQueue, WorkerPool  # noqa: E402
from simlab.studies.compare import Arm, run_compare  # noqa: E402
from simlab.studies.experiment import run_experiment  # noqa: E402
from simlab.studies.rule_tuning import run_tune  # noqa: E402
from simlab.studies.sweep import run_sweep  # noqa: E402

QUIET = dict(progress=False, log=lambda m: None)
LADDER = {"budgets": "2,4", "search-games": "8", "pilot-games": "4", "search": "rollout"}

# name -> (study, args, kwargs): small studies of each kind that plays games
STUDIES = {
    "compare": (run_compare, ("karuba", (2,), Arm("A"), Arm("B", ("bonus-tiles",))), dict(games=1000)),
    "sweep": (run_sweep, ("loot-island", (3,), ("curse_threshold=4,7,10",), Arm("A")), dict(games=600)),
    "tune": (run_tune, ("karuba", 2, "gold_supply=4,12", "length in [15, 25]", Arm("A")),
             dict(batch=400, max_games=1200)),
    "ladder": (run_experiment, ("ladder",), dict(game="pig", games=200, options=LADDER)),
}


@pytest.fixture(scope="module")
def cluster():
    """One local Dask cluster of two single-threaded workers (each with a nanny that restarts it),
    reached by its address, as a study reaches a real cluster with --scheduler."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        yield local.scheduler_address, client


def tables(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.csv"))
            if "runs" not in p.relative_to(folder).parts}


def test_the_overview_on_a_local_dask_cluster_writes_the_same_tables_as_on_local_processes(cli_run, tmp_path):
    """The issue's own command, through the command line: --dask-local 2 against --workers 2."""
    for name, where in (("procs", ["--workers", "2"]), ("dask", ["--dask-local", "2"])):
        code, _, err = cli_run("experiment", "run", "overview", "--game", "karuba", "--games", "4000", *where,
                               "-o", str(tmp_path / name), "-q")
        assert code == 0, err
    procs, dask = tables(tmp_path / "procs"), tables(tmp_path / "dask")
    assert len(procs) >= 10 and procs == dask


@pytest.mark.parametrize("name", STUDIES)
def test_a_study_on_a_dask_cluster_writes_the_same_tables_as_on_local_processes(cluster, tmp_path, name):
    study, args, kwargs = STUDIES[name]
    study(*args, out=tmp_path / "procs", workers=2, executor="processes", **kwargs, **QUIET)
    study(*args, out=tmp_path / "dask", executor="dask", scheduler=cluster[0], **kwargs, **QUIET)
    procs, dask = tables(tmp_path / "procs"), tables(tmp_path / "dask")
    assert procs and procs == dask


def test_stored_runs_serve_a_study_on_any_executor(cluster, tmp_path):
    """Runs played on local processes are reused, not replayed, when the study moves to the cluster."""
    study, args, kwargs = STUDIES["compare"]
    study(*args, out=tmp_path, workers=2, **kwargs, **QUIET)
    said = []
    study(*args, out=tmp_path, executor="dask", scheduler=cluster[0], **kwargs, progress=False, log=said.append)
    assert said and all("reusing" in line for line in said), said


def test_a_worker_killed_mid_study_costs_only_its_chunks(cluster, tmp_path):
    """A worker process killed (SIGKILL) while it plays a chunk: its nanny starts a new one, the
    scheduler gives the lost chunks to a live worker, and the study's tables equal a clean run's."""
    address, client = cluster
    args = ("loot-island", (4,), ("curse_threshold=5,8",), Arm("A"))
    run_sweep(*args, games=12_000, out=tmp_path / "clean", workers=2, **QUIET)
    runs = tmp_path / "killed" / "runs"
    killed = []

    def kill_a_busy_worker():
        deadline = time.time() + 120
        while time.time() < deadline and not list(runs.rglob("part-*.parquet")):
            time.sleep(0.05)
        while time.time() < deadline:
            busy = [w for w, tasks in client.processing().items() if tasks]
            if busy:
                pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    run_sweep(*args, games=12_000, out=tmp_path / "killed", executor="dask", scheduler=address, **QUIET)
    killer.join()
    assert killed, "no worker was busy to kill: the study finished before the test could act"
    client.wait_for_workers(2, timeout=60)    # the nanny restarted it
    assert killed[0] not in client.run(os.getpid).values()
    assert tables(tmp_path / "killed") == tables(tmp_path / "clean")


def test_a_worker_killed_between_a_chunks_end_and_its_gathering_costs_only_that_chunk(cluster, tmp_path,
                                                                                     monkeypatch):
    """The window in which a CI run once hung for good: a chunk has finished, and the worker holding its
    result dies before the client gathers it. Here the window is as wide as it takes (the holder is
    killed, and the scheduler told, before the client asks); the study ends with a clean run's tables."""
    address, client = cluster
    study, args, kwargs = STUDIES["sweep"]
    study(*args, out=tmp_path / "clean", workers=2, **kwargs, **QUIET)
    client.wait_for_workers(2, timeout=60)
    pids = client.run(os.getpid)
    killed = []
    gather = DaskPool._gather

    def gather_after_its_holder_died(pool, fut):
        if not killed:
            holder = pool.client.who_has([fut])[fut.key][0]
            os.kill(pids[holder], signal.SIGKILL)
            killed.append(holder)
            deadline = time.time() + 30
            while time.time() < deadline and holder in pool.client.scheduler_info()["workers"]:
                time.sleep(0.05)
        return gather(pool, fut)

    monkeypatch.setattr(executors, "GATHER_TIMEOUT", 20.0)
    monkeypatch.setattr(DaskPool, "_gather", gather_after_its_holder_died)
    study(*args, out=tmp_path / "killed", executor="dask", scheduler=address, **kwargs, **QUIET)
    assert killed
    client.wait_for_workers(2, timeout=60)
    assert tables(tmp_path / "killed") == tables(tmp_path / "clean")


def results_never_arrive(pool: DaskPool, chunk: int, times: int) -> list:
    """Make the client's gathering of ``chunk``'s result wait forever, ``times`` times: what Dask's own
    gathering can do once a result is lost with its worker (dask/distributed#7331)."""
    real, hung = pool.client._gather, []

    async def gather(futures, *args, **kwargs):
        if len(hung) < times and any(re.search(rf"-{chunk}(-again\d+)?$", str(f.key)) for f in futures):
            hung.append(chunk)
            await asyncio.Event().wait()
        return await real(futures, *args, **kwargs)

    pool.client._gather = gather
    return hung


def test_a_result_that_never_reaches_the_client_is_played_again_not_waited_for(cluster, monkeypatch):
    monkeypatch.setattr(executors, "GATHER_TIMEOUT", 2.0)
    with DaskPool(scheduler=cluster[0]) as pool:
        hung = results_never_arrive(pool, chunk=3, times=1)
        results = dict(pool.map_unordered(slow_square(), ((i, (i,)) for i in range(6))))
    assert hung == [3] and results == {i: i * i for i in range(6)}


def test_a_chunk_whose_result_is_lost_every_time_fails_in_one_line_naming_it(cluster, monkeypatch):
    monkeypatch.setattr(executors, "GATHER_TIMEOUT", 1.0)
    with DaskPool(scheduler=cluster[0]) as pool:
        hung = results_never_arrive(pool, chunk=2, times=100)
        with pytest.raises(SimlabError, match=r"^chunk 2: its result was lost between the Dask workers and this "
                                              r"client 4 times \(last: TimeoutError.*\); giving up$"):
            dict(pool.map_unordered(slow_square(), ((i, (i,)) for i in range(4))))
    assert len(hung) == executors.GATHER_TRIES + 1


def slow_square():
    """A task that takes a while, pickled by value (the workers cannot import this test module)."""
    def square(x):
        time.sleep(0.3)
        return x * x
    return square


def test_leaving_a_map_early_cancels_its_futures_on_the_cluster(cluster):
    """What a Ctrl-C or a failed study does: the futures still queued or playing are cancelled,
    so the cluster is free at once (finished chunks were already written by the run)."""
    address, client = cluster
    with DaskPool(scheduler=address) as pool:
        results = pool.map_unordered(slow_square(), ((i, (i,)) for i in range(40)))
        key, value = next(results)
        assert value == key * key
        results.close()
        deadline = time.time() + 10
        while time.time() < deadline and client.run_on_scheduler(
                lambda dask_scheduler: sum(k.startswith("simlab-") for k in map(str, dask_scheduler.tasks))):
            time.sleep(0.1)
        left = client.run_on_scheduler(
            lambda dask_scheduler: sum(k.startswith("simlab-") for k in map(str, dask_scheduler.tasks)))
    assert left == 0


def test_runs_of_a_study_share_the_cluster_within_its_bound_of_futures(cluster):
    """Several runs at once on one cluster (the run queue's threads), never more futures unfinished
    than the pool's bound, every task answered once."""
    address, _ = cluster
    with DaskPool(scheduler=address) as pool:
        pool._slots = threading.Semaphore(3)
        submitted, most = [], [0]
        submit = pool.client.submit

        def counting_submit(*args, **kwargs):
            submitted.append(submit(*args, **kwargs))
            most[0] = max(most[0], sum(not f.done() for f in submitted))
            return submitted[-1]

        pool.client.submit = counting_submit
        square = slow_square()
        queue = RunQueue(pool)
        futures = [queue.submit(lambda r: dict(pool.map_unordered(square, ((i, (r * 10 + i,)) for i in range(4)))), r)
                   for r in range(3)]
        results = [f.result(timeout=60) for f in futures]
        queue.close(failed=False)
    assert results == [{i: (r * 10 + i) ** 2 for i in range(4)} for r in range(3)]
    assert pool.runs_at_once >= 2 and len(submitted) == 12 and 2 <= most[0] <= 3


def test_every_command_that_plays_games_reads_the_same_placement_options(cli_run):
    for command in (["run"], ["experiment", "run"], ["compare"], ["sweep"], ["tune"], ["tune-strategy"], ["robust"]):
        code, out, _ = cli_run(*command, "--help")
        assert code == 0
        for option in ("--workers", "--executor", "--scheduler", "--dask-local"):
            assert option in out, (command, option)


def test_a_placement_opens_the_pool_it_names():
    assert placement(dask_local=2) == Placement("dask", 2, None)
    assert placement(scheduler="tcp://h:1") == Placement("dask", None, "tcp://h:1")
    assert placement(workers=3) == Placement("processes", 3, None)
    assert placement("serial") == Placement("serial")
    with Placement("processes", 2).open() as pool:
        assert isinstance(pool, WorkerPool) and pool.size == 2
    with Placement("serial").open() as pool:
        assert pool is None


def test_a_worker_whose_code_differs_refuses_its_chunks_in_one_line(cluster):
    """As for a run on local processes: a chunk sent with another code identity (a worker with
    another simlab, a strategy file edited meanwhile) is refused, never mixed into the run."""
    from simlab.core.errors import SimlabError
    from simlab.core.runner import RunConfig, prepared, run_chunk

    config = RunConfig("karuba", 2, ("random", "random"), games=10).to_dict()
    other = {**prepared(config).code, "id": "0" * 16}
    with DaskPool(scheduler=cluster[0]) as pool:
        with pytest.raises(SimlabError, match="a worker runs other code than the run started with"):
            list(pool.map_unordered(run_chunk, [(0, (config, 0, 10, other))]))


def test_a_run_with_a_search_seat_is_cut_fine_enough_to_spread_over_the_workers():
    """A strong recheck of 500 games in chunks of at least 2,000 would play on one worker of a
    hundred: a run with a search seat goes down to SEARCH_CHUNK games a chunk, a fast run does not."""
    from simlab.core.rundir import n_chunks
    from simlab.core.runner import SEARCH_CHUNK, default_chunk_size

    assert n_chunks(500, default_chunk_size(500, 100)) == 1
    assert n_chunks(500, default_chunk_size(500, 100, search=True)) == 500 // SEARCH_CHUNK
    assert n_chunks(500, default_chunk_size(500, 2, search=True)) == 8
    assert default_chunk_size(10**9, 1000, search=True) == default_chunk_size(10**9, 1000) == 20_000


def test_sigterm_mid_study_on_dask_cancels_it_keeps_finished_chunks_and_a_rerun_continues(tmp_path):
    """A batch scheduler's SIGTERM (or Ctrl-C) to a study on a local cluster: it exits 143 in one
    line within seconds (its futures cancelled, not waited for), the finished chunks stay, and the
    same command then continues the study instead of starting it again."""
    import subprocess
    import sys

    out = tmp_path / "sweep"
    args = [sys.executable, "-m", "simlab", "sweep", "loot-island", "-p", "4", "--param", "curse_threshold=4..9",
            "-n", "40000", "--dask-local", "2", "-o", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 180
    while time.time() < deadline and len(list(out.rglob("part-*.parquet"))) < 3:
        time.sleep(0.1)
    stopped = time.time()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 143, err[-2000:]
    assert time.time() - stopped < 30 and "interrupted" in err and "Traceback" not in err
    kept = len(list(out.rglob("part-*.parquet")))
    assert kept >= 3
    again = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "resuming" in again.stderr or "reusing" in again.stderr
