"""``simlab sweep``: a grid over rule parameters, every point on the same deals, charts with
interval bands per measure and a bottom line naming where the measures cross the stated bands.

Every point of the grid uses the same root seed (common random numbers), so the change from the
first point is paired game by game (the same measures and per-game differences as a comparison's:
:mod:`simlab.measures.paired`); :mod:`simlab.report.sweeps` composes the page. A value list is
``a,b,c``; a whole-number range ``lo..hi`` or ``lo..hi/step``; a vector parameter's values (a token
stack) are separated by ``;``: ``6,4,2,1;5,4,3,2``.
"""
from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec, get_game
from simlab.core.params import ASSUMPTION, parse_assignments
from simlab.core.runner import prepared

from simlab.measures.paired import family_size, headline, is_mirror_seats, paired_measures
from simlab.measures.stats import Estimate
from simlab.report import whatif
from simlab.report.page import Ci, Report, formatted, md_escape
from simlab.report.sweeps import bottom_line, chart_panels, charts, code, label, point_words, ranges
from simlab.report.wording import CHANGE, NUMBER, POINTS, SHARE, Band, Verdict, join
from simlab.studies.compare import Arm, checked_players
from simlab.studies.experiment import Context, Experiment, run_experiment

RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?")
MAX_POINTS = 64


def parse_param(spec: GameSpec, item: str) -> tuple[str, list]:
    """``NAME=VALUES`` -> (name, checked values in order, duplicates dropped)."""
    name, sep, raw = item.partition("=")
    name = name.strip()
    if not sep or not name or not raw.strip():
        raise SimlabError(f"--param expects NAME=VALUES (a,b,c or lo..hi[/step]; vectors separated by ;), got {item!r}")
    if name not in spec.params.by_name:
        raise SimlabError(f"--param: unknown parameter {name!r}; known: {', '.join(spec.params.by_name)}")
    p = spec.params[name]
    vector = isinstance(p.default, tuple)
    values = []
    for part in raw.split(";") if vector or ";" in raw else raw.split(","):
        m = None if vector else RANGE.fullmatch(part)
        if m:
            lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if lo > hi or step < 1:
                raise SimlabError(f"--param {name}: range {part.strip()!r} needs lo <= hi and a step of at least 1")
            values += [p.coerce(str(v)) for v in range(lo, hi + 1, step)]
        else:
            values.append(p.coerce(part.strip()))
    return name, list(dict.fromkeys(values))


def grid(spec: GameSpec, items: tuple[str, ...]) -> list[dict]:
    """Every combination of the ``--param`` values, the first listed first."""
    if not items:
        raise SimlabError("name at least one --param NAME=VALUES to sweep")
    axes = dict(parse_param(spec, i) for i in items)
    if len(axes) != len(items):
        raise SimlabError("each parameter may be swept by one --param only")
    points = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())]
    if len(points) < 2:
        raise SimlabError("a sweep needs at least two points")
    if len(points) > MAX_POINTS:
        raise SimlabError(f"the grid has {len(points)} points; at most {MAX_POINTS} (sweep fewer values)")
    return points


def analyse_sweep(ctx: Context, players: tuple[int, ...], base: Arm, points: list[dict], min_effect: float) -> Report:
    spec = ctx.spec
    labels = [label(spec, p) for p in points]
    base_values = spec.params.resolve(base.params(spec))
    rep = ctx.report(f"{spec.title}: a sweep over {join(list(points[0]))}",
                     f"How do the measures change over {len(points)} points ({'; '.join(labels)})? {ctx.games:,} "
                     f"games per point at {join([str(n) for n in players])} players, every point on the same deals.")
    configs = {}
    for n in players:   # check every point before playing any
        seats = base.seat_list(spec, n)
        for i, p in enumerate(points):
            configs[n, i] = ctx.config(n, seats, {**base.params(spec), **p}, rotate=False,
                                       duplicate=not is_mirror_seats(seats))
            try:
                prepared(configs[n, i].to_dict())
            except SimlabError as exc:
                raise SimlabError(f"point {labels[i]}: {exc}") from None
    # the bottom line reads every win measure at every point and player count at once
    family = len(points) * family_size({n: (configs[n, 0].seats,) * 2 for n in players}, spec)
    rows = []
    for n in players:
        frames = [ctx.run(f"sweep-{n}p-{i:02d}", configs[n, i]).frame() for i in range(len(points))]
        for i, f in enumerate(frames):
            t = paired_measures(frames[0], f, spec, family)
            rows.append(t.assign(players=n, point=i, label=labels[i]))
    table = pd.concat(rows, ignore_index=True)
    effect = Band.effect(min_effect / 100)
    panels = {n: chart_panels(table[table["players"] == n], n, spec, min_effect) for n in players}
    charts(rep, table, labels, panels)
    shown = formatted(table, {
        "players": "players", "point": "label", "measure": "measure",
        "value [95% CI]": Ci("b", "b_lo", "b_hi", unit=lambda r: SHARE if r["share"] else NUMBER),
        "change from the first point [95% CI]": Ci("change", unit=lambda r: POINTS if r["share"] else CHANGE,
                                                   blank=lambda r: r["point"] == 0)})
    rep.table("Every measure at every point", shown,
              note="Every point on the same root seed: the change from the first point is the mean of per-game "
                   "differences, clustered by deal.")
    changes: dict[tuple[int, int], list[Verdict]] = {}
    for r in headline(table[table["point"] > 0]).itertuples(index=False):
        row = r._asdict()
        changes.setdefault((row["players"], row["point"]), []).append(rep.verdict(
            f"Change in {md_escape(row['measure'])} from {code(labels[0])} to {code(row['label'])}"
            + (f", {row['players']} players" if len(players) > 1 else ""),
            Estimate(row["change"], row["lo"], row["hi"], int(row["games"]), "paired"), 0.0, effect, unit=POINTS,
            measure=row["measure"], players=row["players"], arm=f"{row['label']} - {labels[0]}"))
    rep.bottom_line = bottom_line(table, players, labels, min_effect)
    rep.findings.insert(0, ranges(table, players, labels))
    seats = {n: base.seat_list(spec, n) for n in players}
    rep.rests_on = [f"seats {', '.join(seats[n])} at {n} players (heuristics, not expert human play)" for n in players]
    for k in sorted(set(points[0]) | set(base.params(spec))):
        p = spec.params[k]
        rep.rests_on.append(f"`{k}` ({'an ASSUMPTION' if p.status == ASSUMPTION else p.status.upper()}: {p.meaning})"
                            + (", swept" if k in points[0] else f" = {p.describe_value(base_values[k])} at every point"))
    summaries, verdicts = point_words(table, labels, seats, min_effect, effect, spec, changes)
    axes = {k: list(dict.fromkeys(spec.params[k].describe_value(p[k]) for p in points)) for k in points[0]}
    facts = [f"Game: {spec.title}; {ctx.games:,} games per point, every point on the same deals (common random "
             "numbers), so each change from the first point is paired game by game."]
    facts += [f"Seats at {n} players: {md_escape(', '.join(s))}"
              + (" (a mirror match: seat fairness is read)" if is_mirror_seats(s) else
                 " (a mix, in duplicate: win rates by strategy are compared)") for n, s in seats.items()]
    facts.append(f"Minimum effect that matters: ±{min_effect:g} points of a win rate or share"
                 + (f"; the fairness band of the start player is 1/n ± {min_effect:g} points"
                    if any(map(is_mirror_seats, seats.values())) else "") + ".")
    rep.pages[whatif.FILE] = whatif.page(rep.title, rep.question, facts, rep.bottom_line, axes, table, shown,
                                         summaries, verdicts, panels, ctx.command)
    rep.question += (f" The what-if page [{whatif.FILE}]({whatif.FILE}) (one file: open it in a browser) has a "
                     "slider over the points that shows each point's verdicts, every measure with its 95% interval "
                     "and paired change from the first point, and the charts with the point marked.")
    return rep


def sweep_command(game: str, players, base: Arm, params: tuple[str, ...], games: int, seed: int,
                  min_effect: float) -> str:
    parts = ["simlab", "sweep", game] + [x for n in players for x in ("--players", str(n))]
    parts += [x for p in params for x in ("--param", p)]
    parts += [x for v in base.variants for x in ("--variant", v)] + [x for s in base.sets for x in ("--set", s)]
    if base.seats:
        parts += ["--seats", base.seats]
    return shlex.join(parts + ["--games", str(games), "--seed", str(seed), "--min-effect", f"{min_effect:g}"])


def run_sweep(game: str, players: tuple[int, ...], params: tuple[str, ...], base: Arm, games: int = 10_000,
              seed: int = 1, min_effect: float = 2.0, out=None, runs=None, workers: int | None = None,
              executor: str = "processes", scheduler: str | None = None, progress: bool = True, log=print):
    """Check the grid, play every point and write the report; returns the report and its paths."""
    spec = get_game(game)
    players = checked_players(spec, players, min_effect)
    for n in players:
        base.seat_list(spec, n)
    points = grid(spec, params)
    clash = set(parse_assignments(base.sets)) & set(points[0])
    if clash:
        raise SimlabError(f"{join(sorted(clash))} is both swept (--param) and set (--set)")
    exp = Experiment("sweep", f"{spec.title}: sweep", "", game=spec.name, players=players,
                     analyse=lambda ctx: analyse_sweep(ctx, players, base, points, min_effect))
    runs = Path(runs) if runs else Path(out, "runs") if out else Path("runs", "sweep", spec.name)
    out = Path(out) if out else Path("reports", "sweep", spec.name)
    return run_experiment(exp, games=games, out=out, runs=runs, seed=seed, workers=workers, executor=executor,
                          scheduler=scheduler, progress=progress, log=log,
                          command=sweep_command(spec.name, players, base, params, games, seed, min_effect))
