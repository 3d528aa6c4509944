"""``simlab bench-cluster``: what playing a study on a cluster costs, measured here, for the scaling
model in the README ("Studies on a cluster").

Four measurements, each on this machine's cores:

* **per chunk**: tiny chunks (one game) through each pool with one worker, against the same
  chunks played in this process: the pool's cost per chunk (shipping the task and the frame back);
  and on the client, per game of a full chunk: the bytes of its frame (what a worker sends), the
  bytes of its Parquet part and the time to write it;
* **per run**: runs of one small chunk on a warm pool, as a study plays them (manifest, Parquet
  part, provenance): one after another on local processes and on Dask, and side by side on Dask
  (the run queue's threads);
* **a study**: the curse-threshold study (72 runs) at a small ``--games`` with 1 and 2 local
  workers and a local Dask cluster of 2;
* **search players on workers**: chunks of a search mirror on a fresh local Dask cluster, the
  first chunk on each worker (compiling the search) against the later ones.
"""
from __future__ import annotations

import os
import pickle
import tempfile
import time
import warnings
from pathlib import Path

import click

from simlab.dev.bench import cpu_model


def timed_chunk(config_dict: dict, first_game: int, n_games: int, code: dict) -> tuple[int, float, int]:
    """A chunk played where it lands, timed there: (the worker's pid, seconds, rows)."""
    from simlab.core.runner import run_chunk

    start = time.perf_counter()
    frame = run_chunk(config_dict, first_game, n_games, code)
    return os.getpid(), time.perf_counter() - start, len(frame)


def _chunks(config, n: int, size: int = 1):
    from simlab.core.runner import prepared

    code = prepared(config.to_dict()).code
    return [(i, (config.to_dict(), i * size, size, code)) for i in range(n)]


def per_chunk(n: int = 400) -> dict:
    """Seconds each pool adds to a one-game chunk, and the bytes of a frame per game."""
    from simlab.core.executors import DaskPool
    from simlab.core.pool import WorkerPool
    from simlab.core.runner import RunConfig, run_chunk

    config = RunConfig("karuba", 2, ("random", "random"), games=n)
    tasks = _chunks(config, n)
    for _, args in tasks[:20]:
        run_chunk(*args)                        # compiled and warm here
    start = time.perf_counter()
    for _, args in tasks:
        run_chunk(*args)
    here = (time.perf_counter() - start) / n
    out = {"in process": here}
    with WorkerPool(1) as pool:
        list(pool.map_unordered(run_chunk, tasks[:20]))   # started and warm
        start = time.perf_counter()
        list(pool.map_unordered(run_chunk, tasks))
        out["processes"] = (time.perf_counter() - start) / n
    with DaskPool(1) as pool:
        list(pool.map_unordered(run_chunk, tasks[:20]))
        start = time.perf_counter()
        list(pool.map_unordered(run_chunk, tasks))
        out["dask"] = (time.perf_counter() - start) / n
    return out


def client_side(games: int = 20_000) -> dict:
    """What one chunk of ``games`` costs the client that writes it, per game: bytes received
    (the pickled frame), bytes on disk (the zstd Parquet part) and the time to write the part."""
    from simlab.core.game import get_game
    from simlab.core.results import write_part
    from simlab.core.runner import RunConfig, prepared

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game, players in (("karuba", 2), ("loot-island", 4)):
            prep = prepared(RunConfig(game, players, get_game(game).default_mix(players), games=games).to_dict())
            frame = prep.frame(0, games)
            path = Path(tmp, f"{game}.parquet")
            start = time.perf_counter()
            write_part(frame, path, {b"simlab": prep.provenance()})
            out[f"{game} {players}p"] = {"sent": len(pickle.dumps(frame, protocol=5)) / games,
                                         "disk": path.stat().st_size / games,
                                         "write_ms": (time.perf_counter() - start) * 1e3}
    return out


def per_run(runs: int = 24) -> dict:
    """Seconds per run of one small chunk on a warm pool: in turn, and side by side on Dask."""
    from simlab.core.executors import DaskPool
    from simlab.core.pool import RunQueue, WorkerPool
    from simlab.core.runner import RunConfig, run

    configs = [RunConfig("karuba", 2, ("random", "random"), games=200, seed=s) for s in range(runs)]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        def in_turn(pool, executor: str) -> float:
            run(configs[0], f"{tmp}/{executor}-warm", pool=pool, executor=executor, progress=False, tally=False)
            start = time.perf_counter()
            for c in configs:
                run(c, f"{tmp}/{executor}-{c.seed}", pool=pool, executor=executor, progress=False, tally=False)
            return (time.perf_counter() - start) / runs

        with WorkerPool(2) as pool:
            out["processes"] = in_turn(pool, "processes")
        with DaskPool(2) as pool:
            out["dask"] = in_turn(pool, "dask")
            queue = RunQueue(pool)
            start = time.perf_counter()
            futures = [queue.submit(lambda c: run(c, f"{tmp}/q-{c.seed}", pool=pool, executor="dask", progress=False,
                                                  tally=False), c) for c in configs]
            for f in futures:
                f.result()
            out["dask side by side"] = (time.perf_counter() - start) / runs
            queue.close(failed=False)
    return out


def study(games: int) -> dict:
    """Wall seconds of the curse-threshold study (72 runs) at ``games`` per run, by placement."""
    from simlab.studies.experiment import run_experiment

    out = {}
    for label, kwargs in (("1 worker", dict(workers=1)), ("2 workers", dict(workers=2)),
                          ("dask local 2", dict(executor="dask", workers=2))):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run_experiment("curse-threshold", games=games, out=Path(tmp), progress=False, log=lambda m: None,
                           options={"strong": "none"}, **kwargs)
            out[label] = time.perf_counter() - start
    return out


def search_on_workers(game: str, chunks: int, size: int) -> dict:
    """First chunk on each worker of a fresh local Dask cluster against the later ones, for a
    rollout mirror (the search compiles once per worker process)."""
    from simlab.core.executors import DaskPool
    from simlab.core.runner import RunConfig

    config = RunConfig(game, 2, ("rollout", "rollout"), games=chunks * size)
    first, later = {}, []
    with DaskPool(2) as pool:
        start = time.perf_counter()
        for _, (pid, seconds, _) in sorted(pool.map_unordered(timed_chunk, _chunks(config, chunks, size))):
            if pid in first:
                later.append(seconds)
            else:
                first[pid] = seconds
        wall = time.perf_counter() - start
    later.sort()
    return {"first": sorted(first.values()), "later_median": later[len(later) // 2] if later else float("nan"),
            "wall": wall, "games": chunks * size}


def run_cluster_bench(study_games: int, search_game: str | None) -> None:
    warnings.simplefilter("ignore")
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)
    click.echo(f"simlab bench-cluster: {cpu_model()}, {os.cpu_count()} cores, load average "
               f"{os.getloadavg()[0]:.2f}")
    c = per_chunk()
    click.echo(f"per chunk (one Karuba game, 1 worker): in process {c['in process'] * 1e3:.2f} ms; "
               f"local processes +{(c['processes'] - c['in process']) * 1e3:.2f} ms; "
               f"Dask +{(c['dask'] - c['in process']) * 1e3:.2f} ms")
    for name, w in client_side().items():
        click.echo(f"client side, {name} (default mix), a 20,000-game chunk: {w['sent']:.0f} bytes a game received, "
                   f"{w['disk']:.1f} bytes a game on disk, {w['write_ms']:.0f} ms to write its part")
    r = per_run()
    click.echo(f"per run (one 200-game chunk on a warm pool of 2): local processes {r['processes'] * 1e3:.0f} ms, "
               f"Dask {r['dask'] * 1e3:.0f} ms in turn, {r['dask side by side'] * 1e3:.0f} ms side by side")
    if study_games:
        s = study(study_games)
        games = 72 * study_games
        click.echo(f"curse-threshold study, 72 runs of {study_games:,} games ({games:,} games), strong recheck off: "
                   + ", ".join(f"{k} {v:.0f} s ({games / v:,.0f} games/s)" for k, v in s.items()))
    if search_game:
        w = search_on_workers(search_game, 12, 10)
        click.echo(f"search on workers ({search_game}, rollout mirror, 12 chunks of 10 games, fresh local Dask cluster "
                   f"of 2): first chunk per worker {', '.join(f'{x:.1f}' for x in w['first'])} s, later chunks "
                   f"{w['later_median']:.2f} s (median); {w['wall']:.0f} s in all")
