"""Runs that survive faults: killed workers, a killed parent, SIGINT at any moment.

Small random-play runs with small chunks, so that a kill lands mid-chunk, between chunks or while
a worker starts; every finished run is compared row for row with an uninterrupted one.
"""
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from simlab.core.errors import SimlabError
from simlab.core.pool import RETRIES, WorkerPool
from simlab.core.results import load
from simlab.core.runner import RunConfig, run

CONFIG = RunConfig("karuba", 3, ("random",) * 3, games=3000, seed=41)
CLI = [sys.executable, "-m", "simlab", "run", "karuba", "-p", "3", "-s", "random,random,random", "-n", "3000",
       "--seed", "41", "--chunk-size", "150", "-w", "2", "-q"]
KILLS = 20
INTERRUPTS = 20

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    run(CONFIG, out, executor="serial", chunk_size=CONFIG.games, progress=False)
    return load(out)


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


def _killer(pool, running: threading.Event, kills: list, delay: float):
    time.sleep(delay)
    pids = [p for p in pool.pids() if _alive(p)]   # not one that died already and waits to be reaped
    if running.is_set() and pids:
        try:
            os.kill(random.choice(pids), signal.SIGKILL)
            kills.append(delay)
        except ProcessLookupError:   # it was just being replaced
            pass


def test_killed_workers_are_replaced_and_every_run_finishes_with_identical_rows(tmp_path, pool, reference):
    """README "Big runs": a worker process that dies mid-run is replaced and only its chunk played again."""
    rng = random.Random(7)
    kills: list = []
    attempt = 0
    while len(kills) < KILLS:
        attempt += 1
        assert attempt < 3 * KILLS, "kills kept missing the runs"
        running = threading.Event()
        running.set()
        killer = threading.Thread(target=_killer, args=(pool, running, kills, rng.uniform(0.0, 0.6)))
        killer.start()
        out = tmp_path / f"r{attempt}"
        run(CONFIG, out, chunk_size=100, pool=pool, progress=False)
        running.clear()
        killer.join()
        pd.testing.assert_frame_equal(load(out), reference)
    assert pool.started >= 2 + KILLS // 2   # replacements were started (a kill near the end may need none)


def _die_once(marker_dir, key):
    """A task that kills the first worker running it, and succeeds on the next."""
    marker = Path(marker_dir) / str(key)
    if not marker.exists():
        marker.touch()
        os._exit(3)
    return key


def test_a_death_is_charged_only_to_the_chunk_its_worker_held(tmp_path, pool):
    """More deaths than a chunk may cost, each holding another chunk, end nothing: every chunk finishes."""
    keys = list(range(RETRIES + 3))
    finished = sorted(k for k, _ in pool.map_unordered(_die_once, [(k, (str(tmp_path), k)) for k in keys]))
    assert finished == keys


def _die_on(bad_key, key):
    """A task that kills the worker running it when it is the bad one."""
    if key == bad_key:
        os._exit(3)
    return key


def test_a_chunk_that_always_kills_its_worker_ends_the_run_naming_it(pool):
    tasks = [(k, (4, k)) for k in range(8)]
    with pytest.raises(SimlabError, match=f"chunk 4: the worker running it died {RETRIES + 1} times"):
        for _ in pool.map_unordered(_die_on, tasks):
            pass
    assert sorted(k for k, _ in pool.map_unordered(_die_on, [(k, (99, k)) for k in range(4)])) == [0, 1, 2, 3]


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_killing_the_parent_leaves_no_worker_and_resume_completes_the_run(tmp_path, pool, reference):
    """README "Big runs": workers die with their parent (SIGKILL of the parent), and --resume completes the run."""
    out = tmp_path / "run"
    proc = subprocess.Popen(CLI + ["-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.glob("part-*.parquet"))) < 2:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert workers, "the run started its workers"
    proc.kill()
    proc.wait()
    killed = time.time()
    while any(_alive(w) for w in workers) and time.time() - killed < 10:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a worker outlived its parent"
    assert time.time() - killed < 5
    result = run(CONFIG, out, pool=pool, resume=True, progress=False)
    assert result.chunks_run < result.chunks_total
    pd.testing.assert_frame_equal(load(out), reference)


def _simlab_started(pid: int) -> bool:
    """simlab's own code runs once SIGTERM is caught (Python alone leaves it at its default)."""
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return True
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught >> (signal.SIGTERM - 1) & 1)


def test_sigint_at_any_moment_stops_the_run_within_seconds_and_resume_completes_it(tmp_path, pool, reference):
    """README "Big runs": SIGINT to the parent alone at a random moment, from simlab's start-up
    (imports, checks, starting workers) to the last chunk, exits 130 within seconds without a
    traceback; --resume completes the run with the uninterrupted run's rows."""
    def launch(out):
        proc = subprocess.Popen(CLI + ["-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        while not _simlab_started(proc.pid):
            time.sleep(0.005)
        return proc

    began = time.time()
    proc = launch(tmp_path / "whole")
    proc.communicate(timeout=300)
    assert proc.returncode == 0
    whole = time.time() - began   # simlab's start-up and play, uninterrupted
    rng = random.Random(11)
    interrupted = 0
    for attempt in range(3 * INTERRUPTS):
        out = tmp_path / f"r{attempt}"
        proc = launch(out)
        time.sleep(rng.uniform(0, whole))
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.time() - sent
        if proc.returncode == 0:   # it finished first: nothing was interrupted
            continue
        interrupted += 1
        assert proc.returncode == 130, err
        assert took < 5, f"took {took:.1f} s to stop"
        assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("interrupted"), err
        run(CONFIG, out, pool=pool, resume=True, progress=False)
        pd.testing.assert_frame_equal(load(out), reference)
        if interrupted == INTERRUPTS:
            return
    pytest.fail(f"only {interrupted} of {3 * INTERRUPTS} signals arrived before the run finished")


@pytest.mark.parametrize("moment", ["after the first part, before it is counted", "while the first part is written"])
def test_an_interrupt_before_the_first_chunk_is_counted_leaves_a_run_that_resumes(tmp_path, monkeypatch, reference,
                                                                                   moment):
    """The windows SIGINT can hit around the first part: a part written but not yet counted (the
    manifest must stay: --resume proves it done from the part), or a half-written temporary (the
    directory must go, so that a plain retry starts afresh). Either way nothing blocks a retry."""
    from simlab.core import runner
    from simlab.core.errors import Interrupted

    real = runner.write_part

    def interrupted_write(frame, path, meta):
        if moment.startswith("after"):
            real(frame, path, meta)
        else:
            path.with_name("." + path.name + ".tmp").write_bytes(b"half a part")
        raise Interrupted(signal.SIGINT)

    out = tmp_path / "run"
    monkeypatch.setattr(runner, "write_part", interrupted_write)
    with pytest.raises(Interrupted):
        run(CONFIG, out, executor="serial", chunk_size=1000, progress=False)
    monkeypatch.undo()
    if moment.startswith("after"):
        assert (out / "_manifest.json").exists() and (out / "part-000000.parquet").exists()
        run(CONFIG, out, executor="serial", resume=True, progress=False)
    else:
        assert not out.exists()
        run(CONFIG, out, executor="serial", chunk_size=1000, progress=False)
    pd.testing.assert_frame_equal(load(out), reference)


def test_stopping_a_study_drops_the_chunk_in_play_at_once_and_the_pool_serves_again():
    """Ctrl-C in a study: the run queue stops the pool, and a chunk that would play for a minute (a
    search player's) is not waited for: its worker is killed, the run's thread ends, and after the
    queue is closed the pool plays again."""
    from simlab.core.pool import RunQueue

    with WorkerPool(1) as workers:
        queue = RunQueue(workers)
        job = queue.submit(lambda: list(workers.map_unordered(time.sleep, [(0, (60,))])))
        deadline = time.time() + 60
        while time.time() < deadline and not workers.pids():
            time.sleep(0.05)
        time.sleep(0.5)
        sleeper = workers.pids()[0]
        began = time.time()
        queue.close(failed=True)
        assert time.time() - began < 5
        with pytest.raises(SimlabError, match="stopped"):
            job.result()
        assert sleeper not in workers.pids()
        assert list(workers.map_unordered(abs, [(0, (-3,))])) == [(0, 3)]
