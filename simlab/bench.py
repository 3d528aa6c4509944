"""Benchmark: games per second per core for each game and strategy mix, the speed-up of the JIT
over the same code run as plain Python (NUMBA_DISABLE_JIT=1), and compile time cold and warm.

Speed is measured here, never asserted in tests. Each measurement runs one process on one core.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import click

PROBE = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
t0 = time.perf_counter()
from simlab.core.runner import Prepared, RunConfig
cfg = RunConfig.from_dict(json.loads(sys.argv[1]))
prep = Prepared(cfg)
t1 = time.perf_counter()
prep.play(0, 1)
t2 = time.perf_counter()
n = int(sys.argv[2])
prep.play(1, n)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_game": t2 - t1, "rate": n / (t3 - t2)}))
"""


def _probe(config, n_games: int, env_extra: dict) -> dict:
    env = {**os.environ, **env_extra}
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(config.to_dict()), str(n_games)],
                         capture_output=True, text=True, env=env, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "probe failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def rate(prep, seconds: float) -> float:
    """Games per second of one process, after warm-up, over about ``seconds``."""
    prep.play(0, 50)
    n, games, start = 200, 0, time.perf_counter()
    while True:
        prep.play(games, n)
        games += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed
        n = min(100_000, max(n, int(games / elapsed * 0.5)))


def bench_configs(spec):
    from .core.runner import RunConfig

    for players in spec.bench_players:
        heuristic = list(spec.default_seats[:players])
        heuristic += ["random"] * (players - len(heuristic))
        yield "random", RunConfig(spec.name, players, ("random",) * players, 1)
        yield "heuristic mix", RunConfig(spec.name, players, tuple(heuristic), 1)


def run_bench(games: list[str], seconds: float, no_jit_games: int) -> None:
    from .core.game import get_game
    from .core.runner import Prepared

    warnings.simplefilter("ignore")
    click.echo(f"simlab benchmark: one process per measurement (games/s per core), {os.cpu_count()} cores here")
    click.echo(f"{'game':<16}{'players':>7}  {'mix':<15}{'games/s/core':>13}{'no-JIT g/s':>12}{'JIT speed-up':>14}")
    compile_rows = []
    for name in games:
        spec = get_game(name)
        for mix, config in bench_configs(spec):
            jit_rate = rate(Prepared(config), seconds)
            plain = _probe(config, no_jit_games, {"NUMBA_DISABLE_JIT": "1"})["rate"]
            click.echo(f"{spec.name:<16}{config.players:>7}  {mix:<15}{jit_rate:>13,.0f}{plain:>12,.1f}"
                       f"{jit_rate / plain:>13,.0f}x")
        config = next(c for m, c in bench_configs(spec) if m == "heuristic mix")
        with tempfile.TemporaryDirectory() as cache:
            cold = _probe(config, 1, {"NUMBA_CACHE_DIR": cache})
            warm = _probe(config, 1, {"NUMBA_CACHE_DIR": cache})
        compile_rows.append((spec.name, cold, warm))
    click.echo("\nStart-up (fresh process: import + load or compile + first game), seconds")
    click.echo(f"{'game':<16}{'cold cache':>12}{'warm cache':>12}")
    for name, cold, warm in compile_rows:
        click.echo(f"{name:<16}{cold['import'] + cold['first_game']:>12.1f}{warm['import'] + warm['first_game']:>12.2f}")


SCALE_PROBE = """
import json, resource, sys, tempfile, time, warnings
warnings.simplefilter("ignore")
from simlab.core.runner import RunConfig, run
cfg = RunConfig.from_dict(json.loads(sys.argv[1]))
workers, executor = int(sys.argv[2]), sys.argv[3]
with tempfile.TemporaryDirectory() as tmp:
    t0 = time.perf_counter()
    run(cfg, tmp + "/run", workers=workers, executor=executor, progress=False)
    wall = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall": wall, "parent_mb": me, "worker_mb": kids}))
"""


def _scale_probe(config, workers: int, executor: str) -> dict:
    out = subprocess.run([sys.executable, "-c", SCALE_PROBE, json.dumps(config.to_dict()), str(workers), executor],
                         capture_output=True, text=True, timeout=24 * 3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-500:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_scale_bench(games: list[str], n_games: int, memory_games: int, dask: bool, memory_mix: str) -> None:
    """Whole runs through the run engine (start-up, chunking, Parquet writing included)."""
    from dataclasses import replace

    from .core.game import get_game

    click.echo(f"simlab scaling benchmark: heuristic mix, {n_games:,} games per run, {os.cpu_count()} cores here")
    click.echo(f"{'game':<16}{'players':>7}{'1 worker g/s':>14}{'2 workers g/s':>15}{'scaling':>9}"
               + (f"{'dask 2 g/s':>12}{'dask cost':>11}" if dask else ""))
    for name in games:
        spec = get_game(name)
        for mix, config in bench_configs(spec):
            if mix != "heuristic mix":
                continue
            config = replace(config, games=n_games)
            one = n_games / _scale_probe(config, 1, "processes")["wall"]
            two = n_games / _scale_probe(config, 2, "processes")["wall"]
            line = f"{spec.name:<16}{config.players:>7}{one:>14,.0f}{two:>15,.0f}{two / one:>8.2f}x"
            if dask:
                d = n_games / _scale_probe(config, 2, "dask")["wall"]
                line += f"{d:>12,.0f}{(two - d) / two:>10.1%}"
            click.echo(line)
    if memory_games:
        spec = get_game("karuba")
        config = replace(next(c for m, c in bench_configs(spec) if m == memory_mix), games=memory_games)
        r = _scale_probe(config, 2, "processes")
        click.echo(f"\nPeak memory, karuba {memory_games:,} games ({memory_mix}) with 2 workers: "
                   f"parent {r['parent_mb']:.0f} MiB, "
                   f"largest worker {r['worker_mb']:.0f} MiB ({memory_games / r['wall']:,.0f} games/s, "
                   f"{r['wall']:.0f} s)")
