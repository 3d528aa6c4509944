"""``simlab tune-strategy``: a heuristic's parameters searched by CMA-ES against a pool of opponents.

(Not ``simlab tune``, which looks for the *rule* parameter values that keep a measure in a band.)

A candidate's fitness is its mean win share (a shared win split among the winners) against each
opponent of the pool in turn, the candidate in one seat and that opponent in all the others, in
duplicate (every deal in all seat rotations, so no seat favours anyone), averaged over the
opponents. Every candidate of every generation plays the same deals (one root seed: common random
numbers), so the search compares candidates paired, not deals. CMA-ES (N. Hansen's ``cma``, the
field's standard for a few noisy continuous parameters) searches each parameter scaled to its
search range; counts are rounded. The best set found is then validated on fresh deals (seed + 1,
more games) against the default parameters, paired deal by deal: the best of many candidates on
the search's own deals is flattered by the pick, fresh deals are not.
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from simlab.core.errors import Interrupted, SimlabError
from simlab.core.params import integer
from simlab.core.play import COL_SLOT
from simlab.core.results import git_commit, standings
from simlab.core.runner import RunConfig, prepared
from simlab.core.strategy import Strategy, get_strategy, load_strategy_file, strategies_for

from simlab.measures.fairness import cluster_proportion
from simlab.measures.stats import Estimate, paired_difference
from simlab.report.wording import TIE, compare, fmt_points, fmt_share

SIGMA0 = 0.2   # initial step of CMA-ES in the scaled space: a fifth of each search range
INTEGER_MIN_STEP = 0.25   # a count's search keeps at least this share of one step of spread (never freezes)
DECIMALS = 3   # candidates' real values are rounded so the saved set is exactly what was played


@dataclass(frozen=True)
class Setup:
    """What a candidate plays: the game, the strategy tuned, the table and the opponents."""

    game: str
    base: str
    players: int
    opponents: tuple[str, ...]
    strategy_files: tuple[str, ...] = ()

    def configs(self, values: dict, deals: int, seed: int) -> list[RunConfig]:
        """One duplicate run per opponent: the candidate in slot 0, the opponent in every other seat."""
        seat = self.base + "".join(f":{k}={v!r}" for k, v in values.items())
        return [RunConfig(game=self.game, players=self.players, seats=(seat,) + (opp,) * (self.players - 1),
                          games=deals * self.players, seed=seed, duplicate=True, strategy_files=self.strategy_files)
                for opp in self.opponents]


def deal_shares(config_dict: dict) -> np.ndarray:
    """Slot 0's win share per deal (mean over the deal's seat rotations) of one duplicate run.

    Top-level, so that a warm worker pool can run it; its prepared configs stay cached there."""
    prep = prepared(config_dict)
    out, _ = prep.play(0, prep.config.games)
    _, win = standings(prep.spec, out)
    mine = (win & (out[:, :, COL_SLOT] == 0)).sum(axis=1)
    winners = win.sum(axis=1)
    share = np.where(winners > 0, mine / np.maximum(winners, 1), 0.0)
    return share.reshape(-1, prep.config.players).mean(axis=1)


class Evaluator:
    """Plays candidates on one set of deals: ``deals`` per opponent, seed ``seed``, in process or on a pool."""

    def __init__(self, setup: Setup, deals: int, seed: int, pool=None):
        self.setup, self.deals, self.seed, self.pool = setup, deals, seed, pool

    def shares(self, candidates: list[dict]) -> list[np.ndarray]:
        """Per candidate: its per-deal shares, opponent after opponent (equal deals each)."""
        tasks = [((i, j), (cfg.to_dict(),)) for i, values in enumerate(candidates)
                 for j, cfg in enumerate(self.setup.configs(values, self.deals, self.seed))]
        if self.pool is not None:
            done = dict(self.pool.map_unordered(deal_shares, tasks))
        else:
            done = {key: deal_shares(*args) for key, args in tasks}
        n = len(self.setup.opponents)
        return [np.concatenate([done[(i, j)] for j in range(n)]) for i in range(len(candidates))]


class Space:
    """The searched parameters, each scaled from its search range to [0, 1]."""

    def __init__(self, strategy: Strategy, names: tuple[str, ...] = ()):
        known = {p.name: p for p in strategy.params}
        for name in names:
            if name not in known:
                raise SimlabError(f"strategy {strategy.name!r} has no parameter {name!r} "
                                  f"(parameters: {', '.join(known) or 'none'})")
        self.params = [p for p in strategy.params if not names or p.name in names]
        if not self.params:
            raise SimlabError(f"strategy {strategy.name!r} has no parameters to tune")
        for p in self.params:
            lo, hi = p.search_range
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise SimlabError(f"strategy {strategy.name!r}: parameter {p.name} has no finite search range")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def defaults(self) -> dict:
        return {p.name: (int(p.default) if p.integer else p.default) for p in self.params}

    def scaled(self, values: dict) -> np.ndarray:
        return np.array([np.clip((values[p.name] - p.search_range[0]) / (p.search_range[1] - p.search_range[0]), 0, 1)
                         for p in self.params])

    def values(self, x) -> dict:
        """The parameter values of a point of the scaled space: clipped, counts rounded, reals to 3 decimals."""
        out = {}
        for p, xi in zip(self.params, x):
            lo, hi = p.search_range
            v = lo + float(np.clip(xi, 0, 1)) * (hi - lo)
            out[p.name] = int(round(v)) if p.integer else round(v, DECIMALS)
        return out

    def min_stds(self) -> list[float]:
        return [INTEGER_MIN_STEP / (p.search_range[1] - p.search_range[0]) if p.integer else 0.0 for p in self.params]


@dataclass
class Search:
    """The search's state: the best set so far (on the search deals) and the counts."""

    best: dict
    best_fitness: float
    default_fitness: float
    evaluations: int = 0
    generations: int = 0
    interrupted: bool = False
    history: list = field(default_factory=list)   # (generation, evaluations, generation's best, best so far)


def search(space: Space, evaluate, budget: int, seed: int, progress=None) -> Search:
    """CMA-ES over ``space``: ``evaluate(list of value dicts) -> list of fitnesses`` (higher is better).

    The default set is evaluated first (the reference, and the best so far until beaten); then
    whole generations while the budget lasts. Ctrl-C (:class:`Interrupted`) ends the search with
    the best so far."""
    import cma

    default = space.defaults()
    first = evaluate([default])[0]
    state = Search(default, first, first, evaluations=1)
    popsize = min(4 + int(3 * math.log(len(space.params))), budget - 1)
    if popsize < 2:
        raise SimlabError(f"--budget {budget} leaves no generation: give at least 3 evaluations")
    options = {"bounds": [0, 1], "seed": seed + 1, "popsize": popsize, "verbose": -9,
               "minstd": space.min_stds(), "maxfevals": budget - 1}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # cma's notes (flat fitness...) are not the user's business
        es = cma.CMAEvolutionStrategy(space.scaled(default), SIGMA0, options)
        try:
            while state.evaluations + popsize <= budget and not es.stop():
                xs = es.ask()
                candidates = [space.values(x) for x in xs]
                fits = evaluate(candidates)
                es.tell(xs, [-f for f in fits])
                state.evaluations += len(xs)
                state.generations += 1
                top = int(np.argmax(fits))
                if fits[top] > state.best_fitness:
                    state.best, state.best_fitness = candidates[top], fits[top]
                state.history.append((state.generations, state.evaluations, fits[top], state.best_fitness))
                if progress is not None:
                    progress(state, fits[top])
        except Interrupted:
            state.interrupted = True
    return state


@dataclass(frozen=True)
class Validation:
    games: int
    seed: int
    tuned: Estimate
    default: Estimate
    difference: Estimate
    verdict: str                        # "better", "worse" or "a statistical tie"
    by_opponent: dict                   # opponent -> (tuned share, default share)

    def sentence(self, base: str, name: str) -> str:
        return (f"{base}@{name} wins {fmt_share(self.tuned.value, self.tuned.lo, self.tuned.hi)} against the pool, "
                f"{base} at its defaults {fmt_share(self.default.value, self.default.lo, self.default.hi)}: "
                f"{fmt_points(self.difference.value, self.difference.lo, self.difference.hi)} paired on the same "
                f"{self.games:,} fresh games (seed {self.seed}), so the tuned set is {self.verdict}")

    def record(self) -> dict:
        return {"games": self.games, "seed": self.seed, "verdict": self.verdict,
                "tuned": round(self.tuned.value, 5), "default": round(self.default.value, 5),
                "difference": round(self.difference.value, 5), "lo": round(self.difference.lo, 5),
                "hi": round(self.difference.hi, 5), "level": self.difference.level}


def validate(setup: Setup, tuned: dict, default: dict, deals: int, seed: int, pool=None) -> Validation:
    """The tuned set against the defaults on the same fresh deals: the paired difference of win shares."""
    t, d = Evaluator(setup, deals, seed, pool).shares([tuned, default])
    diff = paired_difference(t, d)
    word = compare(diff)
    verdict = "better" if word == "higher" else "worse" if word == "lower" else TIE
    per = len(t) // len(setup.opponents)
    by_opponent = {opp: (float(t[j * per:(j + 1) * per].mean()), float(d[j * per:(j + 1) * per].mean()))
                   for j, opp in enumerate(setup.opponents)}
    return Validation(deals * setup.players * len(setup.opponents), seed, deal_share(t, setup.players),
                      deal_share(d, setup.players), diff, verdict, by_opponent)


def deal_share(shares: np.ndarray, players: int) -> Estimate:
    """A candidate's win share over deals (each the mean of its ``players`` seatings) with a Wilson
    interval clustered by deal: it stays inside 0-100% however few the deals (a normal interval on
    16 games gave 12.5% [-3.5%, 28.5%])."""
    sizes = np.full(len(shares), float(players))
    return cluster_proportion(np.asarray(shares) * sizes, sizes)


def default_opponents(game: str) -> tuple[str, ...]:
    """Every built-in heuristic of the game (random is no heuristic), the tuned one included."""
    return tuple(sorted(n for n, s in strategies_for(game).items()
                        if n != "random" and s.decide.py_func.__module__.startswith("strategies.")))


def _deals(games: int, setup: Setup, what: str) -> int:
    """Deals per opponent for about ``games`` games in all (at least one deal each)."""
    integer(games, what, 1)
    return max(1, math.ceil(games / (setup.players * len(setup.opponents))))


def tune_strategy(game: str, base: str, players: int = 2, opponents: tuple[str, ...] = (),
                  names: tuple[str, ...] = (), budget: int = 60, games_per_eval: int = 240, seed: int = 1,
                  validate_games: int = 4000, name: str = "tuned", where=None,
                  strategy_files: tuple[str, ...] = (), echo=print) -> dict:
    """Search, validate and save (see the module docstring); returns the saved record. ``where``: a
    :class:`~simlab.core.executors.Placement` (default: this process; local workers when it names more
    than one)."""
    import cma

    from simlab.core.game import get_game
    from simlab.core.executors import Placement
    from simlab.core.params import NAME
    from simlab.core.tuned_sets import save_tuned

    spec = get_game(game)
    for path in strategy_files:
        load_strategy_file(path)
    if "@" in base:
        raise SimlabError(f"tune the base strategy, not a tuned set: {base.partition('@')[0]!r}")
    if not NAME.fullmatch(name):
        raise SimlabError(f"--name {name!r}: use letters, digits, '_' and '-', starting with a letter")
    strat = get_strategy(spec.name, base)
    space = Space(strat, names)
    integer(players, "--players", spec.min_players, spec.max_players)
    integer(budget, "--budget", 3)
    integer(seed, "--seed", 0)
    opponents = tuple(opponents) or default_opponents(spec.name)
    for opp in opponents:
        prepared(RunConfig(spec.name, players, (opp,) * players, players, strategy_files=strategy_files).to_dict())
    setup = Setup(spec.name, base, players, opponents, strategy_files)
    deals = _deals(games_per_eval, setup, "--games-per-eval")
    check_deals = _deals(validate_games, setup, "--validate-games")
    per_eval = deals * players * len(opponents)
    echo(f"tuning {base} ({', '.join(space.names)}) at {players} players against {', '.join(opponents)}: "
         f"{per_eval:,} games per evaluation (seed {seed}, the same deals for every candidate), budget {budget}")
    started = time.perf_counter()
    where = where or Placement("serial")
    in_process = where.executor == "serial" or (where.executor == "processes" and (where.workers or 1) == 1)
    pool = None if in_process else where.open()
    try:
        train = Evaluator(setup, deals, seed, pool)

        def evaluate(candidates):
            return [float(s.mean()) for s in train.shares(candidates)]

        def progress(state: Search, generation_best: float):
            shown = ", ".join(f"{k}={v:g}" for k, v in state.best.items())
            echo(f"generation {state.generations}: {state.evaluations} evaluations, {time.perf_counter() - started:.0f} s; "
                 f"this generation's best {generation_best:.2%}, best so far {state.best_fitness:.2%} ({shown})")

        state = search(space, evaluate, budget, seed, progress)
        echo(("interrupted: validating the best so far (Ctrl-C again quits without saving)\n" if state.interrupted
              else "") + f"default {state.default_fitness:.2%}, best {state.best_fitness:.2%} on the search deals "
             f"after {state.evaluations} evaluations; validating on {check_deals * players * len(opponents):,} fresh games")
        result = validate(setup, state.best, space.defaults(), check_deals, seed + 1, pool)
    finally:
        if pool is not None:
            pool.close()
    seconds = time.perf_counter() - started
    echo(result.sentence(base, name) + ".")
    for opp, (t, d) in result.by_opponent.items():
        echo(f"  against {opp}: {t:.1%} tuned, {d:.1%} default")
    warning = None if result.verdict == "better" else (
        f"not better than the default on fresh deals ({result.verdict}: "
        f"{fmt_points(result.difference.value, result.difference.lo, result.difference.hi)})")
    provenance = {"players": players, "opponents": list(opponents), "searched": list(space.names),
                  "default": space.defaults(), "budget": budget, "evaluations": state.evaluations,
                  "generations": state.generations, "interrupted": state.interrupted,
                  "games_per_evaluation": per_eval, "seed": seed, "search_fitness": round(state.best_fitness, 5),
                  "default_fitness": round(state.default_fitness, 5), "validation": result.record(),
                  "seconds": round(seconds, 1), "optimiser": f"CMA-ES (cma {cma.__version__})",
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "git_commit": git_commit() or "unknown"}
    record = {"params": state.best, "provenance": provenance, **({"warning": warning} if warning else {})}
    path = save_tuned(spec.name, base, name, state.best, provenance, warning)
    echo(f"saved as {base}@{name} in {path}" + (f" WITH A WARNING: {warning}" if warning else "")
         + f"; play it with `simlab run {spec.name} -s {base}@{name},...` ({seconds:.0f} s in all)")
    return record
