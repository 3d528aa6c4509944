"""``simlab tune``: which values of one rule parameter keep a measure inside a target band, each
answer backed by an interval.

A designer's question ("which curse thresholds keep curse eliminations between 2% and 10%?") is a
band on one measure over the values of one parameter. Every value is played in batches on the same
root seed (common random numbers, as :mod:`.sweep`); after each batch its interval is recomputed and
the value is decided as soon as the interval lies wholly inside the band (IN) or wholly outside it
(OUT); games go only to the values still open (round-robin), up to ``--max-games`` per value
(UNDECIDED). Looking again after every batch would make a plain 95% interval too optimistic, so the
5% error is split (Bonferroni) over every value and every possible look: each interval is at level
1 - 0.05 / (values x looks), and all the verdicts hold together with at least 95% confidence.
"""
from __future__ import annotations

import math
import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec, get_game
from simlab.core.params import ASSUMPTION, integer, parse_assignments
from simlab.core.runner import MAX_GAMES, prepared

from simlab.measures import catalogue
from simlab.measures.catalogue import AUTO
from simlab.measures.fairness import clustered_proportion, deal_of
from simlab.measures.paired import is_mirror_seats
from simlab.measures.stats import LEVEL, Estimate, clustered_mean
from simlab.report.charts import dot_interval, new_figure
from simlab.report.page import Ci, Report, formatted
from simlab.report.wording import NUMBER, Band, fmt_count, fmt_value, join
from simlab.studies.compare import Arm, checked_players
from simlab.studies.experiment import Context, Experiment, run_experiment
from simlab.studies.sweep import parse_param

IN, OUT, UNDECIDED = "IN", "OUT", "UNDECIDED"
MAX_VALUES = 64
TARGET = re.compile(r"\s*(\S+)\s+in\s+\[\s*([^,\]]+?)\s*,\s*([^,\]]+?)\s*\]\s*")
BOUND = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+))\s*(%|pt|points?)?")


def parse_target(spec: GameSpec, text: str, seats: tuple[str, ...]) -> tuple[catalogue.Measure, float, float]:
    """``"MEASURE in [LO, HI]"`` -> (measure, lo, hi); shares and points as fractions (0.02) or percents (2%)."""
    m = TARGET.fullmatch(text or "")
    if not m:
        raise SimlabError(f"--target expects \"MEASURE in [LO, HI]\", got {text!r}")
    meas = catalogue.lookup(spec, m[1], seats)
    if meas.unit == AUTO:          # a countable column: its mean, read as a number
        meas = replace(meas, unit=NUMBER)
    bounds = []
    for raw in (m[2], m[3]):
        b = BOUND.fullmatch(raw)
        if not b:
            raise SimlabError(f"--target: {raw!r} is not a number (write 0.02 or 2%)")
        v, percent = float(b[1]), bool(b[2])
        if percent and meas.unit == NUMBER:
            raise SimlabError(f"--target: {meas.key} is a number, not a share: write its bounds without %")
        if percent:
            v /= 100
        elif meas.unit != NUMBER and abs(v) > 1:
            raise SimlabError(f"--target: {meas.key} is a share: write {raw} as a fraction ({v / 100:g}) or a "
                              f"percent ({raw}%)")
        bounds.append(v)
    lo, hi = bounds
    if lo > hi:
        raise SimlabError(f"--target: LO must not exceed HI, got [{m[2]}, {m[3]}]")
    return meas, lo, hi


# ---------------------------------------------------------------------------------------------
# the sequential decision
# ---------------------------------------------------------------------------------------------

def interval(per_game: pd.Series, deals: pd.Series, meas: catalogue.Measure, players: int, level: float) -> Estimate:
    """The measure's mean over games, clustered by deal: for a number a normal interval; for a share
    (or a share's edge) Wilson's at the effective sample size (:func:`~.fairness.clustered_proportion`),
    which stays honest for a rare event on duplicate deals, where a deal's rotations may all have
    it or none, and is never zero wide (no game with an elimination yet is not proof of a rate of 0)."""
    if meas.unit == NUMBER:
        return clustered_mean(per_game, deals, level=level, method="normal, clustered by deal")
    shift = -1 / players if meas.key == "start_edge" else 0.0
    e = clustered_proportion(per_game - shift, deals, level, trials=players if meas.of_players else 1)
    return Estimate(e.value + shift, e.lo + shift, e.hi + shift, e.n, e.method + " by deal", level)


def decide(e: Estimate, lo: float, hi: float) -> str:
    """IN when the whole interval lies in [lo, hi], OUT when all of it lies outside, else UNDECIDED."""
    if lo <= e.lo and e.hi <= hi:
        return IN
    if e.hi < lo or e.lo > hi:
        return OUT
    return UNDECIDED


def looks(batch: int, max_games: int) -> int:
    return math.ceil(max_games / batch)


def corrected_level(values: int, batch: int, max_games: int) -> float:
    """Bonferroni: the 5% error split over every value and every look it may get."""
    return 1 - (1 - LEVEL) / (values * looks(batch, max_games))


def tune(values: list, look: Callable[[object, int], Estimate], lo: float, hi: float, batch: int,
         max_games: int, ahead: Callable[[list], None] | None = None) -> dict:
    """Play ``batch`` more games of every undecided value in turn (``look(value, games)`` plays a value
    to ``games`` and returns its interval) until each is IN, OUT or has ``max_games``; ``ahead``, where
    given, hears each round's ``[(value, games), ...]`` first (to play them side by side).
    Returns value -> (verdict, games, estimate)."""
    state = {v: (UNDECIDED, 0, None) for v in values}
    while True:
        todo = [(v, min(games + batch, max_games)) for v, (verdict, games, _) in state.items()
                if verdict == UNDECIDED and games < max_games]
        if not todo:
            return state
        if ahead is not None:
            ahead(todo)
        for v, n in todo:
            e = look(v, n)
            state[v] = (decide(e, lo, hi), n, e)


# ---------------------------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------------------------

def analyse_tune(ctx: Context, players: int, base: Arm, name: str, values: list, target: str, batch: int,
                 max_games: int) -> Report:
    spec = ctx.spec
    seats = base.seat_list(spec, players)
    meas, lo, hi = parse_target(spec, target, seats)
    level = corrected_level(len(values), batch, max_games)
    p = spec.params[name]
    labels = {v: p.describe_value(v) for v in values}
    band_text = f"[{fmt_value(lo, meas.unit)}, {fmt_value(hi, meas.unit)}]"
    rep = ctx.report(f"{spec.title}: which {name} keeps {meas.name} in {band_text}?",
                     f"For which values of {name} ({', '.join(labels.values())}) does {meas.said} lie in "
                     f"{band_text} at {players} players, with 95% confidence? Games in batches of {batch:,}, "
                     f"only to values still undecided, up to {max_games:,} per value.")
    mirror = is_mirror_seats(seats)
    configs = {}
    for v in values:   # check every value before playing any
        configs[v] = ctx.config(players, seats, {**base.params(spec), name: v}, rotate=False, duplicate=not mirror,
                                games=batch)
        try:
            prepared(configs[v].to_dict())
        except SimlabError as exc:
            raise SimlabError(f"{name}={labels[v]}: {exc}") from None
    points = {v: f"tune-{players}p-{i:02d}" for i, v in enumerate(values)}
    played: dict = {}

    def job(v, games: int) -> tuple:
        whole_deals = games if mirror else -(-games // players) * players   # duplicate: every deal in every seat
        return points[v], replace(configs[v], games=whole_deals)

    def look(v, games: int) -> Estimate:
        run = ctx.run(*job(v, games), sequential_ok=False)
        played[v] = run.games
        f = catalogue.prepared_frame(run.frame(), spec)
        per_game = meas.per_game(f, spec)
        first = f[f["seat"] == 0].set_index("game", drop=False).sort_index()
        j = pd.concat({"v": per_game, "deal": deal_of(first)}, axis=1, join="inner").dropna()
        return interval(j["v"], j["deal"], meas, players, level)

    state = tune(values, look, lo, hi, batch, max_games, ahead=lambda todo: ctx.ahead([job(v, n) for v, n in todo]))
    last = {r.point: r for r in ctx.runs}          # every look extended the same run: keep its final size
    ctx.runs[:] = list(last.values())
    table = pd.DataFrame([{"value": labels[v], "games": played[v],
                           "estimate": e.value, "lo": e.lo, "hi": e.hi, "verdict": verdict}
                          for v, (verdict, _, e) in state.items()])
    pct = f"{level * 100:.4f}".rstrip("0").rstrip(".") + "%"
    _chart(rep, table, name, meas, lo, hi)
    unit = meas.unit
    target = Band.quality(lo, hi, label="target band")
    for v, (_, _, e) in state.items():      # each value's verdict as a finding (findings.csv), at the joint level
        rep.verdict(f"{meas.name[0].upper() + meas.name[1:]} at {name} = {labels[v]}, {players} players "
                    f"({fmt_count(played[v])} games, simultaneous {pct} interval)", replace(e, n=played[v]), None,
                    target, unit=unit,
                    measure=meas.key, players=players, arm=f"{name}={labels[v]}")
    rep.table(f"{meas.name} at every value of {name}", formatted(table, {
        name: "value", "games": "games",
        f"{meas.name} [simultaneous 95% CI]": Ci("estimate", unit=unit), "verdict": "verdict"}),
        note=f"Each interval is at level {pct} (Bonferroni over {len(values)} "
             f"values x {looks(batch, max_games)} looks), so all verdicts hold together with at least 95% confidence.")
    rep.findings.append(
        f"Sequential: every value starts with {batch:,} games; after each batch a value is IN when its interval lies "
        "wholly in the band, OUT when wholly outside, and undecided values get the next batch (round-robin) up to "
        f"{max_games:,} games. Intervals: " + ("a normal interval clustered by deal" if unit == NUMBER else
        "a Wilson interval at the effective sample size of the deals (a rare event shared by a deal's rotations "
        "counts once, not once per rotation)") + f", at level {pct} "
        f"(the 5% error split over {len(values)} values x {looks(batch, max_games)} looks, Bonferroni), so all "
        "verdicts hold together with at least 95% confidence" + ("." if mirror else "; the seats are a mix, played "
        "in duplicate (every deal in every seat rotation)."))
    rep.bottom_line = bottom_line(table, name, meas, (lo, hi), band_text, max_games, batch, len(values), values,
                                  players)
    rep.findings.insert(0, f"{int(table['games'].sum()):,} games in all, in batches of {batch:,} to the values still "
                           f"open, up to {max_games:,} per value.")
    rep.rests_on = [f"seats {', '.join(seats)} at {players} players (heuristics, not expert human play)"]
    for k in sorted({name} | set(base.params(spec))):
        q = spec.params[k]
        rep.rests_on.append(f"`{k}` ({'an ASSUMPTION' if q.status == ASSUMPTION else q.status.upper()}: {q.meaning})"
                            + (", tuned" if k == name else f" = {q.describe_value(spec.params.resolve(base.params(spec))[k])}"))
    return rep


def _chart(rep: Report, table: pd.DataFrame, name: str, meas: catalogue.Measure, lo: float, hi: float) -> None:
    fig, axes = new_figure(max(5.5, 0.45 * len(table) + 2), 4.2)
    ax = axes[0][0]
    dot_interval(ax, list(table["value"]), table["estimate"], table["lo"], table["hi"], ylabel=meas.name,
                 xlabel=name, unit=meas.unit, band=Band.quality(lo, hi, "target band"), what=f"{name}={{}}")
    ax.legend(fontsize=7)
    rep.chart("tune", fig, f"{meas.name} at every value of {name} with its simultaneous 95% interval; shaded: the "
              "target band", title=f"{meas.name} over {name}")


def spans(values: list) -> str:
    """Values as a reader takes them in: runs of consecutive whole numbers as ranges (`4`-`10`)."""
    parts, run = [], []
    for v in values:
        if run and isinstance(v, int) and isinstance(run[-1], int) and v == run[-1] + 1:
            run.append(v)
            continue
        parts += [f"`{run[0]}`-`{run[-1]}`"] if len(run) > 2 else [f"`{x}`" for x in run]
        run = [v]
    parts += [f"`{run[0]}`-`{run[-1]}`"] if len(run) > 2 else [f"`{x}`" for x in run]
    return join(parts)


def bottom_line(table: pd.DataFrame, name: str, meas: catalogue.Measure, band: tuple[float, float], band_text: str,
                max_games: int, batch: int, values: int, raw: list, players: int) -> list[str]:
    """Which values keep the measure in the band (the answer, in the measure's own words), which give
    less or more, what is still open, and what the verdicts rest on; ``raw``: the values in the table's order."""
    def which(verdict: str, rows=None) -> list:
        rows = table[table["verdict"] == verdict] if rows is None else rows
        return [v for v, label in zip(raw, table["value"]) if label in set(rows["value"])]

    inside = which(IN)
    out = table[table["verdict"] == OUT]
    below, above = which(OUT, out[out["hi"] < band[0]]), which(OUT, out[out["lo"] > band[1]])
    sides = [f"{spans(v)} give{'s' if len(v) == 1 else ''} {word}" for v, word in ((below, "less"), (above, "more")) if v]
    if inside:
        head = f"{name} {spans(inside)} {'keeps' if len(inside) == 1 else 'keep'} {meas.said} in {band_text}"
    else:
        head = f"No value of {name} ({spans(raw)}) keeps {meas.said} in {band_text}"
        if len(raw) in (len(below), len(above)):          # every value on one side of the band
            sides = [f"every one gives {'less' if below else 'more'}"]
    first = f"{head} at {players} players" + (f": {join(sides)}" if sides else "") + "."
    open_ = which(UNDECIDED)
    return [first] + ([f"Still undecided after {max_games:,} games: {spans(open_)}."] if open_ else []) + [
        f"The verdicts hold together with 95% confidence ({values} values x {looks(batch, max_games)} looks, "
        f"Bonferroni; {int(table['games'].sum()):,} games in all)."]


# ---------------------------------------------------------------------------------------------
# the command's entry point
# ---------------------------------------------------------------------------------------------

def tune_command(game: str, players: int, base: Arm, param: str, target: str, batch: int, max_games: int,
                 seed: int) -> str:
    parts = ["simlab", "tune", game, "--players", str(players), "--param", param, "--target", target]
    parts += [x for v in base.variants for x in ("--variant", v)] + [x for s in base.sets for x in ("--set", s)]
    if base.seats:
        parts += ["--seats", base.seats]
    return shlex.join(parts + ["--batch", str(batch), "--max-games", str(max_games), "--seed", str(seed)])


def run_tune(game: str, players: int | None, param: str, target: str, base: Arm, batch: int = 2000,
             max_games: int = 100_000, seed: int = 1, out=None, runs=None, workers: int | None = None,
             executor: str = "processes", scheduler: str | None = None, progress: bool = True, log=print):
    """Check the question, play the values sequentially and write the report; returns it and its paths."""
    spec = get_game(game)
    (players,) = checked_players(spec, (players,) if players else (), 2.0)
    integer(batch, "--batch", 1, MAX_GAMES)
    integer(max_games, "--max-games", 1, MAX_GAMES)
    if max_games < batch:
        raise SimlabError(f"--max-games ({max_games:,}) is below --batch ({batch:,})")
    name, values = parse_param(spec, param)
    if len(values) > MAX_VALUES:
        raise SimlabError(f"{len(values)} values; at most {MAX_VALUES} (tune fewer)")
    if name in parse_assignments(base.sets):
        raise SimlabError(f"{name} is both tuned (--param) and set (--set)")
    parse_target(spec, target, base.seat_list(spec, players))   # a bad target fails before any game
    exp = Experiment("tune", f"{spec.title}: tune {name}", "", game=spec.name, players=(players,),
                     analyse=lambda ctx: analyse_tune(ctx, players, base, name, values, target, batch, max_games))
    runs = Path(runs) if runs else Path(out, "runs") if out else Path("runs", "tune", spec.name)
    out = Path(out) if out else Path("reports", "tune", spec.name)
    return run_experiment(exp, games=batch, out=out, runs=runs, seed=seed, workers=workers, executor=executor,
                          scheduler=scheduler, progress=progress, log=log,
                          command=tune_command(spec.name, players, base, param, target, batch, max_games, seed))
