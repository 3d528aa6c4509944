"""Benchmark: games per second per core for each game and strategy mix, the speed-up of the JIT
over the same code run as plain Python (NUMBA_DISABLE_JIT=1), and compile time cold and warm;
``--compare REV``: the working tree against another commit, side by side in one run.

Speed is measured here, never asserted in tests. Each measurement runs one process on one core.
"""
from __future__ import annotations

import inspect
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from statistics import median

import click
import numpy as np

from simlab.core.errors import SimlabError
from simlab.core.intervals import median_interval

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


MIXES = {"random": "random", "heuristic": "heuristic mix"}


def bench_configs(spec, players: int | None = None, mix: str | None = None):
    """``(mix, RunConfig)`` for the game's bench player counts (or ``players``), every seat random
    and the default heuristic mix (or only ``mix``, a key of :data:`MIXES`)."""
    from simlab.core.runner import RunConfig

    if players is not None and not spec.min_players <= players <= spec.max_players:
        raise SimlabError(f"{spec.name} is played by {spec.min_players}-{spec.max_players} players, not {players}")
    for n in (players,) if players is not None else spec.bench_players:
        for name, seats in (("random", ("random",) * n), ("heuristic mix", spec.default_mix(n))):
            if mix is None or MIXES[mix] == name:
                yield name, RunConfig(spec.name, n, seats, 1)


def selected(games: list[str], players: int | None = None, mix: str | None = None) -> list[tuple]:
    """``(game, mix, RunConfig)`` of every selected bench configuration."""
    from simlab.core.game import get_game

    return [(get_game(g).name, m, c) for g in games for m, c in bench_configs(get_game(g), players, mix)]


def run_bench(games: list[str], seconds: float, no_jit_games: int, players: int | None = None,
              mix: str | None = None) -> None:
    from simlab.core.runner import Prepared

    warnings.simplefilter("ignore")
    rows = selected(games, players, mix)
    click.echo(f"simlab benchmark: one process per measurement (games/s per core), {os.cpu_count()} cores here")
    click.echo(f"{'game':<16}{'players':>7}  {'mix':<15}{'games/s/core':>13}{'no-JIT g/s':>12}{'JIT speed-up':>14}")
    for game, mix_name, config in rows:
        jit_rate = rate(Prepared(config), seconds)
        plain = _probe(config, no_jit_games, {"NUMBA_DISABLE_JIT": "1"})["rate"]
        click.echo(f"{game:<16}{config.players:>7}  {mix_name:<15}{jit_rate:>13,.0f}{plain:>12,.1f}"
                   f"{jit_rate / plain:>13,.0f}x")
    click.echo("\nStart-up (fresh process: import + load or compile + first game), seconds")
    click.echo(f"{'game':<16}{'cold cache':>12}{'warm cache':>12}")
    for game in dict.fromkeys(g for g, _, _ in rows):
        config = min(((m, c) for g, m, c in rows if g == game), key=lambda mc: mc[0] != "heuristic mix")[1]
        with tempfile.TemporaryDirectory() as cache:
            cold = _probe(config, 1, {"NUMBA_CACHE_DIR": cache})
            warm = _probe(config, 1, {"NUMBA_CACHE_DIR": cache})
        click.echo(f"{game:<16}{cold['import'] + cold['first_game']:>12.1f}{warm['import'] + warm['first_game']:>12.2f}")


RATE_PROBE = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
from simlab.core.runner import Prepared, RunConfig
import simlab
{rate}
configs, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
rates = [rate(Prepared(RunConfig.from_dict(c)), seconds) for c in configs]
print(json.dumps({{"simlab": simlab.__file__, "rates": rates}}))
"""


def _in_tree(tree: Path, code: str, *args: str) -> dict:
    """Run the probe ``code`` in one fresh single-threaded process on the code of ``tree`` (its
    ``simlab`` and ``strategies``, found from the working directory); its last line of output, a
    JSON object naming the ``simlab`` it imported."""
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=tree, capture_output=True, text=True,
                         env={**os.environ, "NUMBA_NUM_THREADS": "1"}, timeout=3600)
    if out.returncode != 0:
        last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit code {out.returncode}"
        raise SimlabError(f"the benchmark of the code in {tree} failed: {last}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["simlab"]).resolve().is_relative_to(tree.resolve()):
        raise SimlabError(f"the benchmark meant for {tree} imported simlab from {result['simlab']}")
    return result


def _rates(tree: Path, configs: list, seconds: float) -> list[float]:
    """Steady-state games/s of each config in one fresh process on the code of ``tree``. The probe
    carries its own copy of :func:`rate`, so both sides measure alike and an old revision needs
    none."""
    code = RATE_PROBE.format(rate=inspect.getsource(rate))
    return _in_tree(tree, code, json.dumps([c.to_dict() for c in configs]), str(seconds))["rates"]


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.lower().startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def run_compare(rev: str, games: list[str], seconds: float, rounds: int, players: int | None = None,
                mix: str | None = None, json_path: Path | None = None) -> None:
    """Games/s per core of the working tree against revision ``rev``, config by config: one fresh
    process per measurement, one at a time, the two sides interleaved over ``rounds`` rounds, so
    a change in the machine's load hits both sides alike. Prints medians and the ratio."""
    from simlab.dev.revision import ROOT, checkout, describe_working_tree

    warnings.simplefilter("ignore")
    rows = selected(games, players, mix)
    here = describe_working_tree()
    sha, tree, fresh = checkout(rev)
    load = os.getloadavg()
    click.echo(f"simlab bench --compare: current {here} against {rev} = {sha[:12]}")
    click.echo(f"{cpu_model()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
               f"one fresh single-threaded process per measurement, {seconds:g} s steady state, {rounds} round(s)")
    configs = [c for _, _, c in rows]
    click.echo("warming up the working tree (untimed)", err=True)
    _rates(ROOT, configs, 0)
    click.echo(f"warming up {rev} (untimed" + ("; a new checkout in " + str(tree) +
                                              ": numba compiles it cold, a minute or more per game)" if fresh else ")"),
               err=True)
    _rates(tree, configs, 0)
    click.echo(f"{'game':<16}{'players':>7}  {'mix':<15}{'current g/s':>12}{sha[:7] + ' g/s':>12}"
               f"{'ratio':>8}  {'interval':<15} min-max over rounds")
    results = []
    coverages = set()
    for game, mix_name, config in rows:
        now, then = [], []
        for _ in range(rounds):
            now += _rates(ROOT, [config], seconds)
            then += _rates(tree, [config], seconds)
        results.append({"game": game, "players": config.players, "mix": mix_name, **paired(now, then)})
        r = results[-1]
        low, high = r["ratio_low"], r["ratio_high"]
        click.echo(f"{game:<16}{config.players:>7}  {mix_name:<15}{r['current_median']:>12,.0f}{r['rev_median']:>12,.0f}"
                   f"{r['ratio']:>8.3f}  {f'[{low:.3f}, {high:.3f}]':<15} {r['ratio_min']:.3f}-{r['ratio_max']:.3f}")
        coverages.add(r["ratio_coverage"])
    end = os.getloadavg()
    click.echo(f"ratio: current / {sha[:7]} games per second, median of the rounds' ratios; interval: the "
               f"median's distribution-free interval ({', '.join(f'{c:.1%}' for c in sorted(coverages))} coverage; "
               f"more --rounds narrow it); load average at the end {end[0]:.2f} {end[1]:.2f} {end[2]:.2f}")
    if json_path:
        _write_compare(json_path, here, rev, sha, load, end, seconds, rounds, results)


def paired(now: list[float], then: list[float]) -> dict:
    """One ``--compare`` measure: both sides' values round by round, their medians, and the median
    of the rounds' ratios now / then with its distribution-free interval and the min-max."""
    ratios = [a / b for a, b in zip(now, then)]
    low, high, coverage = median_interval(ratios)
    return {"current": now, "rev": then, "current_median": median(now), "rev_median": median(then),
            "ratio": median(ratios), "ratio_low": low, "ratio_high": high, "ratio_coverage": coverage,
            "ratio_min": min(ratios), "ratio_max": max(ratios)}


def _write_compare(json_path, here, rev, sha, load, end, seconds, rounds, results) -> None:
    """The numbers of a ``--compare`` run as JSON (``--json``), with the machine and both commits."""
    Path(json_path).write_text(json.dumps({
        "current": here, "rev": rev, "rev_commit": sha, "cpu": cpu_model(), "cores": os.cpu_count(),
        "load_start": load, "load_end": end, "seconds": seconds, "rounds": rounds, "rows": results,
    }, indent=1) + "\n")
    click.echo(f"wrote {json_path}")


SEARCH_PROBE = """
import json, sys, warnings
warnings.simplefilter("ignore")
from simlab.search.speed import search_speed
import simlab
game, players, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
print(json.dumps({"simlab": simlab.__file__, "speed": search_speed(game, players, seconds)}))
"""


def _search_speed(tree: Path, game: str, players: int, seconds: float) -> dict | None:
    """``search_speed`` of the code in ``tree``, in one fresh single-threaded process."""
    return _in_tree(tree, SEARCH_PROBE, game, str(players), str(seconds))["speed"]


SEARCH_MEASURES = (("playouts_uniform", "play-outs/s uniform"), ("playouts_policy", "play-outs/s policy"),
                   ("search_ms_mean", "rollout ms/decision"))


def run_search_compare(rev: str, games: list[str], seconds: float, rounds: int, players: int | None = None,
                       json_path: Path | None = None) -> None:
    """``bench --compare REV --search``: the search's play-outs per second (uniform and with the
    play-out policy) and ``rollout``'s time per decision, working tree against ``rev``, the two
    sides interleaved over ``rounds`` fresh processes each, as ``run_compare`` does for games."""
    from simlab.dev.revision import ROOT, checkout, describe_working_tree

    warnings.simplefilter("ignore")
    players = players or 2
    selected(games, players, "random")   # an unknown game or player count: one line, before anything runs
    here = describe_working_tree()
    sha, tree, fresh = checkout(rev)
    load = os.getloadavg()
    click.echo(f"simlab bench --compare --search: current {here} against {rev} = {sha[:12]}")
    click.echo(f"{cpu_model()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
               f"{players} players; one fresh single-threaded process per measurement, {seconds:g} s per play-out "
               f"rate, {rounds} round(s)")
    click.echo(f"{'game':<16}{'measure':<22}{'current':>10}{sha[:7]:>10}{'ratio':>8}  {'interval':<15} min-max")
    results = []
    coverages = set()
    for game in games:
        click.echo(f"warming up {game} on both sides (untimed" + ("; a new checkout compiles cold)" if fresh else ")"),
                   err=True)
        warm = _search_speed(ROOT, game, players, 0.1), _search_speed(tree, game, players, 0.1)
        if None in warm:
            click.echo(f"{game:<16}no search player registered on "
                       + ("both sides" if warm == (None, None) else "one side"))
            continue
        now, then = [], []
        for _ in range(rounds):
            now.append(_search_speed(ROOT, game, players, seconds))
            then.append(_search_speed(tree, game, players, seconds))
        for key, label in SEARCH_MEASURES:
            r = paired([m[key] for m in now], [m[key] for m in then])
            results.append({"game": game, "players": players, "measure": key, **r})
            coverages.add(r["ratio_coverage"])
            fmt = ",.0f" if key.startswith("playouts") else ".2f"
            interval = f"[{r['ratio_low']:.3f}, {r['ratio_high']:.3f}]"
            click.echo(f"{game:<16}{label:<22}{r['current_median']:>10{fmt}}{r['rev_median']:>10{fmt}}"
                       f"{r['ratio']:>8.3f}  {interval:<15} {r['ratio_min']:.3f}-{r['ratio_max']:.3f}")
    end = os.getloadavg()
    click.echo(f"ratio: current / {sha[:7]}, median of the rounds' ratios (for ms/decision below 1 is faster); "
               f"interval: the median's distribution-free interval "
               f"({', '.join(f'{c:.1%}' for c in sorted(coverages))} coverage); load average at the end "
               f"{end[0]:.2f} {end[1]:.2f} {end[2]:.2f}")
    if json_path:
        _write_compare(json_path, here, rev, sha, load, end, seconds, rounds, results)


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


class _Reference:
    """The lean reference Karuba (:mod:`simlab.reference.karuba`) behind :func:`rate`'s ``play``."""

    def __init__(self, prep):
        from simlab.reference import karuba

        self.karuba, self.key, self.players = karuba, prep.key, prep.config.players

    def play(self, first_game: int, n_games: int):
        out = np.zeros((n_games, self.players, self.karuba.N_OUT), dtype=np.int64)
        self.karuba.play(self.key, first_game, self.players, out)
        return out


def run_reference(seconds: float, rounds: int, players: int | None = None) -> None:
    """Karuba's engine against the lean reference on the same games, in one process, rounds
    interleaved: the engine's whole overhead over lean code (issue 16's yardstick). Checks first
    that both played the very same games."""
    from simlab.core.runner import Prepared, RunConfig
    from simlab.reference import karuba

    warnings.simplefilter("ignore")
    configs = [RunConfig("karuba", n, ("random",) * n, 1) for n in ((players,) if players is not None else (2, 3, 4))]
    for config in configs:   # refused before anything is printed or played
        karuba.check_config(config)
    click.echo(f"simlab bench --reference: Karuba, every seat random, default rules; {cpu_model()}, "
               f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; one process, "
               f"{seconds:g} s per measurement, {rounds} round(s), the two interleaved")
    click.echo(f"{'players':>7}  {'same games':<15}{'engine g/s':>12}{'lean g/s':>12}{'lean/engine':>13}"
               f"  {'interval':<15} min-max over rounds")
    for config in configs:
        n = config.players
        engine = Prepared(config)
        reference = _Reference(engine)
        check = 2_000
        if not np.array_equal(karuba.engine_rows(engine.play(0, check)[0]), reference.play(0, check)):
            raise SimlabError(f"the lean reference and the engine played different {n}-player games: "
                              "one of them misreads a rule")
        engine_rates, lean_rates = [], []
        for _ in range(rounds):
            engine_rates.append(rate(engine, seconds))
            lean_rates.append(rate(reference, seconds))
        r = paired(lean_rates, engine_rates)
        interval = f"[{r['ratio_low']:.3f}, {r['ratio_high']:.3f}]"
        click.echo(f"{n:>7}  {f'{check:,} of {check:,}':<15}{r['rev_median']:>12,.0f}{r['current_median']:>12,.0f}"
                   f"{r['ratio']:>13.3f}  {interval:<15} "
                   f"{r['ratio_min']:.3f}-{r['ratio_max']:.3f}")
    click.echo("lean/engine: the reference's games per second over the engine's on the same games (median of the "
               "rounds' ratios; interval: the median's distribution-free interval). Above 1: what the engine's "
               "generality (step interface, strategies, state array, trace) costs Karuba's random play.")


def _scale_probe(config, workers: int, executor: str) -> dict:
    out = subprocess.run([sys.executable, "-c", SCALE_PROBE, json.dumps(config.to_dict()), str(workers), executor],
                         capture_output=True, text=True, timeout=24 * 3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-500:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_scale_bench(games: list[str], n_games: int, memory_games: int, dask: bool, memory_mix: str) -> None:
    """Whole runs through the run engine (start-up, chunking, Parquet writing included)."""
    from dataclasses import replace

    from simlab.core.game import get_game

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


def run_search_bench(games: list[str], seconds: float, players: int | None = None) -> None:
    """``simlab bench --search``: the search players' speed per game (:mod:`simlab.search.speed`)."""
    from simlab.search.speed import search_speed

    warnings.simplefilter("ignore")
    selected(games, players or 2, "random")   # an unknown game or player count: one line, before anything runs
    load = os.getloadavg()
    click.echo(f"simlab bench --search: {cpu_model()}, {os.cpu_count()} cores, load average "
               f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; one core; from 200 decision states of games played "
               f"by the play-out policy, {seconds:g} s per play-out rate")
    click.echo(f"{'game':<16}{'players':>7}  {'play-out policy':<16}{'play-outs/s uniform':>20}{'with policy':>12}"
               f"{'rollout ms/decision':>21}{'p99':>7}{'decisions/s':>12}{'compile s':>10}")
    for game in games:
        r = search_speed(game, players or 2, seconds)
        if r is None:
            click.echo(f"{game:<16}  no search player registered")
            continue
        click.echo(f"{game:<16}{r['players']:>7}  {r['play_out']:<16}{r['playouts_uniform']:>20,.0f}"
                   f"{r['playouts_policy']:>12,.0f}{r['search_ms_mean']:>21.2f}{r['search_ms_p99']:>7.1f}"
                   f"{1000 / r['search_ms_mean']:>12,.0f}{r['compile_search'] + r['compile_uniform']:>10.1f}")
    click.echo("play-outs/s: sampled states played to the end, every seat the policy; rollout: the search player "
               "at its defaults deciding at each of the 200 states (mean, 99th percentile; decisions/s = 1000 / mean)")
