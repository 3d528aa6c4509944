"""The experiment layer: an experiment declares its runs and its analysis and writes a report.

An experiment is a module in the ``experiments`` package, or a question file of the user's own
(``simlab experiment run path/to/question.py``), holding ``EXPERIMENT = Experiment(...)`` whose
``analyse(ctx)`` function asks the :class:`Context` for runs and returns a
:class:`~simlab.report.page.Report`. The context does the bookkeeping every experiment
needs, so an experiment is only its question::

    def analyse(ctx):
        spec = ctx.spec                                           # the game (GameSpec)
        base = ctx.config(players=2, seats=("hunter", "cautious"), params={"allen": True})
        arms = ctx.compare("allen", base, {"allen": False})       # same seed: paired by game id
        rep = ctx.report("Allen's effect", "Does the virtual player change who wins?")
        diff = paired_column_difference(arms.base.frame(), arms.variant.frame(), "win", by="seat")
        ...
        return rep

    EXPERIMENT = Experiment("allen-effect", "Allen's effect", __doc__, analyse, game="loot-island")

Runs go through :func:`simlab.core.runner.run` into ``<runs>/<point>/``, all on one warm pool
per experiment (local processes or a Dask cluster, :mod:`simlab.core.executors`: workers start
once and keep their compiled kernels): rerunning an experiment
reuses finished runs, resumes interrupted ones, extends smaller ones (game ids continue, so the
rows are those a single larger run would have written) and reads the first games of larger ones
(never deleting them). The context records every run and adds the caveats (strategies, assumed
rule readings, command, seeds, code version) to the report.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import shlex
import sys
import time
import traceback
from concurrent.futures import Future, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import pandas as pd

from simlab.core import registry
from simlab.core.errors import SimlabError, check_folder
from simlab.core.executors import Placement
from simlab.core.fingerprint import code_change
from simlab.core.game import GameSpec, get_game
from simlab.core.params import integer, parse_assignments
from simlab.core.pool import RunQueue, WorkerPool
from simlab.core.results import load
from simlab.core.rundir import MANIFEST, ChunkSet, n_chunks, read_manifest, scan
from simlab.core.runner import MAX_GAMES, RunConfig, extend_run, prepared
from simlab.core.runner import run as run_games

from simlab.measures.stats import Estimate, SequentialResult, StoppingRule, sequential
from simlab.report.caveats import add_caveats, read_robustness, rests_on_robustness
from simlab.report.charts import Renderer
from simlab.report.page import Report
from simlab.report.wording import join


@dataclass(frozen=True)
class Option:
    """A setting of one experiment beyond the common ones (``--option NAME=VALUE``), read as text by
    its ``analyse`` with ``ctx.option(NAME)``, which parses and checks it."""

    name: str
    default: str
    meaning: str


@dataclass(frozen=True)
class Experiment:
    name: str                                   # CLI name, e.g. "karuba-temples"
    title: str
    question: str                               # the designer's question, one paragraph
    analyse: Callable[["Context"], Report]
    game: str | None = None                     # fixed game, or None: the user names one (--game)
    several_games: bool = False                 # plays games of its own choosing: no --game
    players: tuple[int, ...] = ()               # informational: the player counts it covers
    options: tuple[Option, ...] = ()            # its own settings (--option NAME=VALUE), with defaults


def available_experiments() -> dict[str, Experiment | str]:
    """name -> Experiment, or name -> error text when its module cannot be imported yet (every
    declared experiment, :mod:`simlab.core.registry`)."""
    out: dict[str, Experiment | str] = {}
    for name in registry.declared("experiments"):
        try:
            exp = registry.load("experiments", name).EXPERIMENT
            out[exp.name] = exp
        except Exception as exc:  # an experiment whose game is not there yet must not break the list
            out[name] = f"unavailable: {type(exc).__name__}: {exc}"
    return out


def is_question_file(name: str) -> bool:
    """A name that means the user's own file: a path ending in .py, or any existing file."""
    return name.endswith(".py") or Path(name).is_file()


def load_question_file(path: str) -> Experiment:
    """The ``EXPERIMENT`` of a question file outside the ``experiments`` package.

    Every way the file can fail to give one (missing, a syntax error, an error while it runs, no
    ``EXPERIMENT``) is a one-line :class:`SimlabError` naming the file and, where known, the line.
    """
    file = Path(path)
    if not file.is_file():
        raise SimlabError(f"no question file {path}" + (" (it is a folder)" if file.is_dir() else ""))
    module_name = "simlab_question_" + "".join(c if c.isalnum() else "_" for c in file.stem)
    loader = importlib.machinery.SourceFileLoader(module_name, str(file))   # any file name, not only .py
    spec = importlib.util.spec_from_file_location(module_name, file, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module   # dataclasses and pickling look a module up by name
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[module_name]
        raise SimlabError(f"{path}, line {exc.lineno}: syntax error: {exc.msg}") from None
    except Exception as exc:   # the user's code failed while loading: say where, in one line
        del sys.modules[module_name]
        lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
                 if Path(f.filename).resolve() == file.resolve()]
        where = f", line {lines[-1]}" if lines else ""
        raise SimlabError(f"{path}{where}: {type(exc).__name__}: {exc}") from None
    exp = getattr(module, "EXPERIMENT", None)
    if not isinstance(exp, Experiment):
        found = "no EXPERIMENT" if exp is None else f"EXPERIMENT is a {type(exp).__name__}, not an Experiment"
        raise SimlabError(f"{path} defines {found}: end it with EXPERIMENT = Experiment(name, title, question, "
                          "analyse, game=...) (see experiments/README.md)")
    return exp


def get_experiment(name: str) -> Experiment:
    """A built-in experiment by name, or the one in the user's question file (a path)."""
    if is_question_file(name):
        return load_question_file(name)
    known = available_experiments()
    key = name.strip().lower().replace("_", "-")
    if key not in known:
        raise SimlabError(f"unknown experiment {name!r}; known: {', '.join(sorted(known))}")
    if isinstance(known[key], str):
        raise SimlabError(f"experiment {key} is {known[key]}")
    return known[key]


# ---------------------------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------------------------

@dataclass
class Run:
    """A finished run directory of the experiment."""

    point: str
    config: RunConfig
    run_dir: Path
    sequential: SequentialResult | None = None
    stored: int = 0    # games in the directory when it holds more than this run uses (its first ``games``)
    seconds: float = 0.0   # wall time spent making it (playing, or reading stored games), not waiting in the queue
    _frame: pd.DataFrame | None = field(default=None, repr=False)

    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            self._frame = load(self.run_dir, games=self.config.games)
        return self._frame

    @property
    def provenance(self) -> dict:
        return read_manifest(self.run_dir)["provenance"]

    @property
    def games(self) -> int:
        return self.config.games


@dataclass
class Arms:
    base: Run
    variant: Run


def widest_seat_interval(frame: pd.DataFrame) -> Estimate:
    """The default quantity a sequential run watches: the seat win rate with the widest interval."""
    from simlab.measures.balance import win_by_seat

    t = win_by_seat(frame)
    r = t.loc[(t["hi"] - t["lo"]).idxmax()]
    return Estimate(r["win_rate"], r["lo"], r["hi"], int(r["games"]), "Wilson")


def varied(base: RunConfig, changes: dict) -> RunConfig:
    """``base`` with some rule parameters changed (validated), all else the same."""
    spec = get_game(base.game)
    return replace(base, params=spec.params.changed(spec.params.resolve({**base.params, **changes})))


def widest_paired_seat(base: pd.DataFrame, variant: pd.DataFrame) -> Estimate:
    """What a paired comparison watches by default: the per-seat paired difference in win share
    (variant - base) with the widest interval, clustered by deal (a duplicate deal's rotations share
    its chance; otherwise each game is its own)."""
    from simlab.measures.fairness import deal_of, win_share
    from simlab.measures.stats import clustered_mean

    j = base.assign(w=win_share(base), cluster=deal_of(base))[["game", "seat", "w", "cluster"]].merge(
        variant.assign(w=win_share(variant))[["game", "seat", "w"]], on=["game", "seat"], validate="one_to_one")
    ests = [clustered_mean(g["w_y"] - g["w_x"], g["cluster"]) for _, g in j.groupby("seat")]
    return max(ests, key=lambda e: e.hi - e.lo)


@dataclass
class Context:
    """What an experiment's ``analyse`` gets: options, the game, and run bookkeeping."""

    experiment: Experiment
    games: int
    out_dir: Path
    runs_dir: Path
    seed: int = 1
    workers: int | None = None
    executor: str = "processes"
    game: str | None = None
    rule: StoppingRule | None = None
    progress: bool = True
    command: str = ""
    accept_code_change: bool = False     # reuse, resume or extend runs played by other code (recorded)
    pool: WorkerPool | None = None       # the experiment's warm workers, shared by all its runs
    assume: dict[str, dict] = field(default_factory=dict)   # game -> ASSUMPTION values in force (simlab robust)
    rules: dict[str, dict] = field(default_factory=dict)    # game -> the rules the user changed (--variant, --set)
    options: dict[str, str] = field(default_factory=dict)   # the experiment's own settings given (--option)
    runs: list[Run] = field(default_factory=list)
    log: Callable[[str], None] = print
    renderer: Renderer | None = field(default=None, repr=False)   # draws the report's charts meanwhile
    run_queue: RunQueue | None = field(default=None, repr=False)    # plays queued runs ahead of the analysis
    _ahead: dict = field(default_factory=dict, repr=False)          # point -> (config, future of _ensure)

    def option(self, name: str) -> str:
        """The experiment's setting ``name`` as given (``--option NAME=VALUE``), else its default."""
        declared = {o.name: o for o in self.experiment.options}
        if name not in declared:
            raise KeyError(f"experiment {self.experiment.name} declares no option {name!r}")
        return self.options.get(name, declared[name].default)

    @property
    def spec(self) -> GameSpec:
        name = self.experiment.game or self.game
        if not name:
            raise SimlabError(f"experiment {self.experiment.name} needs a game: --game NAME")
        return get_game(name)

    # -- configs ------------------------------------------------------------------------------
    def config(self, players: int, seats, params: dict | None = None, rotate: bool = True,
               game: str | None = None, games: int | None = None, duplicate: bool = False) -> RunConfig:
        """A run config with the experiment's seed and games; params are validated overrides.
        Duplicate runs round the games up to whole deals (a multiple of the player count).
        The rules the user changed (``rules``: ``--variant``, ``--set``) and an assumption in force
        (``assume``, set by ``simlab robust``) apply unless ``params`` sets them (an experiment's own arms)."""
        spec = get_game(game) if game else self.spec
        values = spec.params.resolve({**self.rules.get(spec.name, {}), **self.assume.get(spec.name, {}),
                                      **(params or {})})
        n = int(games or self.games)
        if duplicate:
            n = -(-n // int(players)) * int(players)
        return RunConfig(game=spec.name, players=int(players), seats=tuple(seats), games=n,
                         seed=self.seed, params=spec.params.changed(values), rotate=rotate, duplicate=duplicate)

    def seats(self, players: int, spec: GameSpec | None = None) -> tuple[str, ...]:
        """The game's default heuristic mix for this player count, padded with random play."""
        return (spec or self.spec).default_mix(players)

    # -- running -------------------------------------------------------------------------------
    def run(self, point: str, config: RunConfig, watch: Callable[[pd.DataFrame], Estimate] | None = None,
            sequential_ok: bool = True) -> Run:
        """Play (or reuse) the run ``point`` into ``<runs>/<point>``.

        With a stopping rule in force (``--target-width``) and ``sequential_ok``, games are added in
        batches until ``watch(frame)`` (default: the widest seat win-rate interval) is narrow enough.
        """
        run_dir = self.runs_dir / point
        prepared(config.to_dict())  # validate before touching files
        seq = None
        if self.rule is not None and sequential_ok:
            watch = watch or widest_seat_interval
            holder: dict = {}

            def play_to(n: int) -> None:
                if config.duplicate:
                    n = -(-n // config.players) * config.players
                holder["cfg"] = replace(config, games=n)
                holder["stored"] = self._ensure(point, holder["cfg"], run_dir, chunk_size=self.rule.unit)

            def measure() -> Estimate:
                return watch(load(run_dir, games=holder["cfg"].games))

            t = time.monotonic()
            seq = sequential(play_to, measure, self.rule)
            config, stored, seconds = holder["cfg"], holder["stored"], time.monotonic() - t
        else:
            stored, seconds = self._played(point, config, run_dir)
        run = Run(point, config, run_dir, seq, stored, seconds)
        self.runs.append(run)
        return run

    def ahead(self, jobs) -> None:
        """Queue the runs ``[(point, config), ...]`` that the analysis will ask for with :meth:`run`:
        the workers play them one after another while the parent analyses and charts what it has
        (otherwise the workers idle through the parent's own work, as long as their play in a small
        study). :meth:`run` for a queued point waits for it; results are the same as without.
        Nothing is queued without a warm pool, or with a stopping rule (those runs grow as measured)."""
        if self.pool is None or self.rule is not None:
            return
        for point, config in jobs:
            prepared(config.to_dict())   # a bad config fails here, before anything plays
            if point not in self._ahead:
                self._ahead[point] = (config, self._queued(point, config))

    def _queued(self, point: str, config: RunConfig) -> Future:
        if self.run_queue is None:
            self.run_queue = RunQueue(self.pool)
        return self.run_queue.submit(self._timed, point, config, self.runs_dir / point)

    def _played(self, point: str, config: RunConfig, run_dir: Path) -> tuple[int, float]:
        """``_ensure`` the run: the queued one when it was queued with this config; through the
        queue, after what is queued, when a queue exists (one user of the pool at a time).
        Returns what ``_ensure`` returns and the seconds it took, without the wait in the queue."""
        queued = self._ahead.pop(point, None)
        if queued is not None and queued[0] == config:
            return queued[1].result()
        if queued is not None:   # queued with another config: let it finish before this one takes its folder
            wait([queued[1]])
        if self.run_queue is not None:
            return self._queued(point, config).result()
        return self._timed(point, config, run_dir)

    def _timed(self, point: str, config: RunConfig, run_dir: Path) -> tuple[int, float]:
        """``_ensure`` and the seconds it took: a run's own time, which a time budget counts (a queued
        run's clock starts when the queue starts it, not while it waits behind other runs)."""
        t = time.monotonic()
        stored = self._ensure(point, config, run_dir)
        return stored, time.monotonic() - t

    def close(self, failed: bool = False) -> None:
        """Stop the run queue (see :meth:`RunQueue.close`)."""
        if self.run_queue is not None:
            self.run_queue.close(failed)
            self.run_queue = None
        self._ahead.clear()

    def compare(self, point: str, base: RunConfig, changes: dict, label: str = "variant") -> Arms:
        """Baseline and variant on common random numbers: same seed, games, players and seats,
        so game g draws the same stream in both arms; pair rows by (game, seat)."""
        return self.paired(point, base, varied(base, changes), label)

    def compare_jobs(self, point: str, base: RunConfig, changes: dict, label: str = "variant") -> list:
        """The runs ``compare`` will play, for :meth:`ahead`."""
        return self.paired_jobs(point, base, varied(base, changes), label)

    def paired_jobs(self, point: str, base: RunConfig, variant: RunConfig, label: str = "variant") -> list:
        """The runs ``paired`` will play, ``[(point, config)]`` for both arms, for :meth:`ahead`."""
        return [(f"{point}-base", base), (f"{point}-{label}", variant)]

    def paired(self, point: str, base: RunConfig, variant: RunConfig, label: str = "variant",
               watch: Callable[[pd.DataFrame, pd.DataFrame], Estimate] | None = None) -> Arms:
        """Two arms on common random numbers (same seed, games, players), rows paired by (game, seat).

        With a stopping rule in force both arms grow together until ``watch(base, variant)`` (default:
        the paired win-share difference of the seat with the widest interval) is narrow enough, so a
        paired comparison is as precise as asked, like a single run."""
        jobs = self.paired_jobs(point, base, variant, label)
        if self.rule is None:
            self.ahead(jobs)
            return Arms(*(self.run(*job, sequential_ok=False) for job in jobs))
        watch = watch or widest_paired_seat
        points = [p for p, _ in jobs]
        dirs = tuple(self.runs_dir / p for p in points)
        for config in (base, variant):
            prepared(config.to_dict())
        holder: dict = {}

        def play_to(n: int) -> None:
            if base.duplicate:
                n = -(-n // base.players) * base.players
            holder["cfgs"] = (replace(base, games=n), replace(variant, games=n))
            holder["stored"] = [self._ensure(point_, cfg, d, chunk_size=self.rule.unit)
                                for point_, cfg, d in zip(points, holder["cfgs"], dirs)]

        t = time.monotonic()
        seq = sequential(play_to, lambda: watch(*(load(d, games=holder["cfgs"][0].games) for d in dirs)), self.rule)
        seconds = (time.monotonic() - t) / 2    # both arms grew together: half the time each
        b, v = (Run(p, cfg, d, seq, stored, seconds)
                for p, cfg, d, stored in zip(points, holder["cfgs"], dirs, holder["stored"]))
        self.runs += [b, v]
        return Arms(b, v)

    def sweep(self, point: str, base: RunConfig, param: str, values) -> dict:
        """One run per value of a rule parameter, all on the same seed (paired across values)."""
        jobs = self.sweep_jobs(point, base, param, values)
        self.ahead(jobs.values())
        return {v: self.run(*job) for v, job in jobs.items()}

    def sweep_jobs(self, point: str, base: RunConfig, param: str, values) -> dict:
        """value -> the run ``sweep`` plays for it, for :meth:`ahead`."""
        spec = get_game(base.game)
        jobs = {}
        for v in values:
            tag = spec.params[param].describe_value(spec.params[param].coerce(v)).replace(",", "-")
            jobs[v] = (f"{point}-{param}-{tag}", varied(base, {param: v}))
        return jobs

    def _ensure(self, point: str, config: RunConfig, run_dir: Path, chunk_size: int | None = None) -> int:
        """Make ``run_dir`` hold this run's games, never deleting a stored run with more games of the
        same configuration: its first ``config.games`` games are the rows asked for. Returns the
        games stored when that is more than asked (0 otherwise)."""
        kwargs = dict(workers=self.workers, executor=self.executor, progress=self.progress,
                      accept_code_change=self.accept_code_change, pool=self.pool, tally=False)
        if (run_dir / MANIFEST).exists():
            manifest = read_manifest(run_dir)
            old = RunConfig.from_dict(manifest["config"])
            if old == config:
                prep = prepared(config.to_dict())
                if not code_change(manifest["code"], prep.code, prep.spec.name):
                    done, _ = scan(run_dir, manifest)   # complete only if every part opens and is this run's
                    if len(done) == manifest["chunks"] and ChunkSet(manifest["done"]).ranges == done.ranges:
                        self.log(f"  {point}: reusing {config.games:,} games in {run_dir}")
                        return 0
                self.log(f"  {point}: resuming {run_dir}")
                run_games(config, run_dir, resume=True, **kwargs)   # refuses other code unless accepted
                return 0
            if replace(old, games=config.games) == config and old.games > config.games:
                return self._first_games(point, config, old, manifest, run_dir, kwargs)
            if replace(old, games=config.games) == config:
                self.log(f"  {point}: extending {run_dir} from {old.games:,} to {config.games:,} games")
                extend_run(run_dir, config, self.accept_code_change)
                run_games(config, run_dir, resume=True, **kwargs)
                return 0
            self.log(f"  {point}: configuration changed, replacing {run_dir}")
            run_games(config, run_dir, overwrite=True, chunk_size=chunk_size, **kwargs)
            return 0
        self.log(f"  {point}: {config.games:,} games, {config.players} players, seats {', '.join(config.seats)}"
                 + (f", params {config.params}" if config.params else ""))
        run_games(config, run_dir, chunk_size=chunk_size, **kwargs)
        return 0

    def _first_games(self, point: str, config: RunConfig, stored: RunConfig, manifest: dict, run_dir: Path,
                     kwargs: dict) -> int:
        """Serve a smaller run from a stored larger one: its game ids 0..N-1 are the rows a run of N
        games writes. If those games are not all there (an interrupted run), the stored run is
        completed, not cut."""
        prep = prepared(config.to_dict())
        change = code_change(manifest["code"], prep.code, prep.spec.name)
        if change and not self.accept_code_change:
            raise SimlabError(f"{run_dir} was played by other code: {change}; pass --accept-code-change to use it "
                              "anyway (the report names both code versions)")
        need = n_chunks(config.games, manifest["chunk_size"])
        done, _ = scan(run_dir, manifest)
        if all(sets.ranges and sets.ranges[0][0] == 0 and sets.ranges[0][1] >= need
               for sets in (done, ChunkSet(manifest["done"]))):
            self.log(f"  {point}: using the first {config.games:,} of the {stored.games:,} games in {run_dir}")
            return stored.games
        self.log(f"  {point}: completing the stored {stored.games:,}-game run in {run_dir} (it holds more games "
                 f"than asked; stored runs are never cut)")
        run_games(stored, run_dir, resume=True, **kwargs)
        return stored.games

    # -- reporting ------------------------------------------------------------------------------
    def report(self, title: str, question: str) -> Report:
        return Report(title, question, renderer=self.renderer)


def run_experiment(name: str | Experiment, games: int = 10_000, out: str | Path | None = None, runs: str | Path | None = None,
                   game: str | None = None, seed: int = 1, workers: int | None = None, executor: str = "processes",
                   scheduler: str | None = None, rule: StoppingRule | None = None, progress: bool = True, command: str = "",
                   log: Callable[[str], None] = print, accept_code_change: bool = False,
                   options: dict[str, str] | None = None, variants: tuple[str, ...] = (),
                   sets: tuple[str, ...] = ()) -> tuple[Report, dict[str, Path]]:
    """Run an experiment (by name, or an ad-hoc one such as ``simlab compare`` builds) end to end and
    write its report; returns the report and its paths. ``variants`` and ``sets`` change the game's
    rules for every run (as ``simlab run --variant/--set``); the report says so where it opens."""
    setup = prepare_experiment(name, games, out, runs, game, seed, workers, rule, command, options, variants, sets)
    with warm_pool(workers, executor, scheduler) as pool:
        report, ctx = analyse_experiment(setup, executor=executor, rule=rule, progress=progress, log=log,
                                         accept_code_change=accept_code_change, pool=pool)
    robustness = read_robustness(setup.out_dir)
    if setup.rules:
        report.rests_on.insert(0, f"Rules changed from the printed game for every run: {setup.describe_rules()}.")
    add_caveats(report, ctx.runs, ctx.command, robustness=robustness)
    report.study = report.study or setup.experiment.name
    if robustness:
        rests_on_robustness(report, robustness)
    paths = report.write(setup.out_dir)
    return report, paths


@dataclass(frozen=True)
class Setup:
    """An experiment with its checked options and folders, ready to analyse (once, or once per
    assumption in ``simlab robust``)."""

    experiment: Experiment
    games: int
    out_dir: Path
    runs_dir: Path
    game: str | None
    seed: int
    workers: int | None
    command: str
    options: dict[str, str] = field(default_factory=dict)
    rules: dict = field(default_factory=dict)          # the rule parameters --variant and --set change
    variants: tuple[str, ...] = ()

    def describe_rules(self) -> str:
        """'variant bonus-tiles (bonus_tiles = on)': the rules changed, in the game's words."""
        params = get_game(self.game).params
        values = ", ".join(f"`{k}` = {params[k].describe_value(v)}" for k, v in self.rules.items())
        return (f"variant {join(list(self.variants))} ({values})" if self.variants else values)


def rule_changes(spec: GameSpec, variants: tuple[str, ...], sets: tuple[str, ...]) -> dict:
    """The rule parameters that ``--variant`` names and ``--set`` assignments change, checked."""
    params = spec.variant_params(variants)
    params.update(parse_assignments(sets))
    return spec.params.changed(spec.params.resolve(params))


def prepare_experiment(name: str | Experiment, games: int = 10_000, out: str | Path | None = None,
                       runs: str | Path | None = None, game: str | None = None, seed: int = 1,
                       workers: int | None = None, rule: StoppingRule | None = None, command: str = "",
                       options: dict[str, str] | None = None, variants: tuple[str, ...] = (),
                       sets: tuple[str, ...] = ()) -> Setup:
    """Find the experiment and check its options and rule changes (one-line errors), before anything
    is played."""
    exp = name if isinstance(name, Experiment) else get_experiment(name)
    options = dict(options or {})
    declared = [o.name for o in exp.options]
    for key in options:
        if key not in declared:
            raise SimlabError(f"experiment {exp.name} has no option {key!r} (options: {', '.join(declared) or 'none'})")
    source = name if isinstance(name, str) and is_question_file(name) else exp.name
    if exp.several_games and game:
        raise SimlabError(f"experiment {exp.name} chooses its own games: leave out --game")
    if exp.game is None and not exp.several_games and not game:
        raise SimlabError(f"experiment {exp.name} needs a game: --game NAME")
    if exp.game and game and get_game(game).name != exp.game:
        raise SimlabError(f"experiment {exp.name} is about {exp.game}, not {game}")
    if (variants or sets) and exp.several_games:
        raise SimlabError(f"experiment {exp.name} plays several games: --variant and --set need one game")
    rules = rule_changes(get_game(exp.game or game), tuple(variants), tuple(sets)) if variants or sets else {}
    sub = [exp.name] + ([get_game(game).name] if exp.game is None and not exp.several_games else [])
    out_dir = Path(out) if out else Path("reports", *sub)
    runs_dir = Path(runs) if runs else (out_dir / "runs" if out else Path("runs", *sub))
    integer(games, "--games", 1, MAX_GAMES)
    integer(seed, "--seed", 0)
    if workers is not None:
        integer(workers, "--workers", 1)
    for folder, option in ((out_dir, "--out"), (runs_dir, "--runs")):
        check_folder(folder, "folder", option)
    return Setup(exp, games, out_dir, runs_dir, game if exp.game is None else exp.game, seed, workers,
                 command or _command(source, exp, games, game, seed, rule, out, options, variants, sets), options,
                 rules, tuple(variants))


def warm_pool(workers: int | None, executor: str, scheduler: str | None = None):
    """One warm pool for every run of an experiment, where ``executor`` says (:mod:`simlab.core.executors`):
    workers start once (local ones lazily, so an experiment that only reuses stored runs starts none)
    and keep their compiled kernels between runs."""
    return Placement(executor, workers, scheduler).open()


def analyse_experiment(setup: Setup, executor: str = "processes", rule: StoppingRule | None = None,
                       progress: bool = True, log: Callable[[str], None] = print, accept_code_change: bool = False,
                       pool: WorkerPool | None = None, assume: dict[str, dict] | None = None,
                       runs_dir: Path | None = None) -> tuple[Report, Context]:
    """Play the experiment's runs (into ``runs_dir``, default the setup's) and return its report,
    caveats not yet added, with the context that holds its runs."""
    ctx = Context(setup.experiment, setup.games, setup.out_dir, runs_dir or setup.runs_dir, seed=setup.seed,
                  workers=setup.workers, executor=executor, game=setup.game, rule=rule, progress=progress,
                  command=setup.command, log=log, accept_code_change=accept_code_change, pool=pool,
                  assume=dict(assume or {}), options=dict(setup.options),
                  rules={setup.game: dict(setup.rules)} if setup.rules else {},
                  renderer=Renderer() if pool is not None else None)
    failed = True
    try:
        report = setup.experiment.analyse(ctx)
        failed = False
        report.drawn()
        return report, ctx
    finally:
        ctx.close(failed)
        if ctx.renderer is not None:
            # every chart is drawn by now, or an error stops them; waiting for the renderer's exit
            # after a success lets it release its semaphores (else Python warns of leaked ones)
            ctx.renderer.close(wait=not failed)


def _command(source: str, exp: Experiment, games: int, game: str | None, seed: int, rule: StoppingRule | None,
             out, options: dict[str, str] | None = None, variants: tuple[str, ...] = (),
             sets: tuple[str, ...] = ()) -> str:
    parts = ["simlab", "experiment", "run", source, "--games", str(games), "--seed", str(seed)]
    if exp.game is None and game:
        parts += ["--game", game]
    parts += [x for v in variants for x in ("--variant", v)] + [x for a in sets for x in ("--set", a)]
    if rule is not None:
        parts += ["--target-width", f"{rule.target_width:g}", "--max-games", str(rule.max_games)]
    for k, v in (options or {}).items():
        parts += ["--option", f"{k}={v}"]
    if out:
        parts += ["--out", str(out)]
    return shlex.join(parts)
