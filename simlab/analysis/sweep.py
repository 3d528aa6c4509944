"""``simlab sweep``: a grid over rule parameters, every point on the same deals, charts with
interval bands per measure and a bottom line naming where the measures cross the stated bands.

Every point of the grid uses the same root seed (common random numbers), so the change from the
first point is paired game by game (the same measures and per-game differences as
:mod:`.compare`). A value list is ``a,b,c``; a whole-number range ``lo..hi`` or ``lo..hi/step``;
a vector parameter's values (a token stack) are separated by ``;``: ``6,4,2,1;5,4,3,2``.
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

from . import whatif
from .charts import interval_band, new_figure
from .compare import Arm, checked_players, family_size, headline, is_mirror_seats, named, paired_measures
from .compare import change_sentences, unsigned_size, verb
from .experiment import Context, Experiment, run_experiment
from .report import Ci, Report, formatted, md_escape
from .wording import CHANGE, NUMBER, POINTS, SHARE, Band, Verdict, fmt_share, join
from .stats import Estimate

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


def code(text: str) -> str:
    """A point's label in running text: as code, so the commas of a vector value do not read as a list."""
    return f"`{text}`"


def label(spec: GameSpec, point: dict) -> str:
    return ", ".join(f"{k}={spec.params[k].describe_value(v)}" for k, v in point.items())


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
    _charts(rep, table, labels, panels)
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
    rep.bottom_line = bottom_line(table, players, labels, min_effect, effect)
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


def chart_panels(t: pd.DataFrame, n: int, spec: GameSpec, min_effect: float) -> list[whatif.Panel]:
    """The charted measures at one player count: every win measure, the mean score and the length;
    the start player's share with its fairness band."""
    measures = list(dict.fromkeys(list(headline(t)["measure"]) + ["mean score", f"length ({spec.length_column})"]))
    share = dict(zip(t["measure"], t["share"]))
    return [whatif.Panel(m, bool(share[m]), Band.fairness(1 / n, min_effect / 100)
                         if m.startswith("start player's") else None) for m in measures if m in share]


def point_words(table: pd.DataFrame, labels, seats: dict, min_effect: float, effect: Band, spec: GameSpec,
                changes: dict) -> tuple[dict, dict]:
    """Per (players, point), the what-if page's words: a summary in the report's wording (each point
    against the first as :mod:`.compare` says it, ties as ties) and the verdicts: the start player
    against the fairness band in a mirror, then the report's findings on the changes from the first point."""
    summaries, verdicts = {}, {}
    for (n, i), t in table.groupby(["players", "point"], sort=True):
        mirror = seats[n][0] if is_mirror_seats(seats[n]) else None
        summaries[n, i] = (f"The first point ({code(labels[0])}): every change on this page is read from it, paired "
                           "game by game on the same deals." if i == 0 else
                           f"Against the first point ({code(labels[0])}), paired game by game on the same deals: "
                           + " ".join(change_sentences(t, min_effect, spec, code(labels[i]))))
        verdicts[n, i] = [Verdict(f"The start player's win share at {code(labels[i])}, {n} players",
                                  Estimate(r["b"], r["b_lo"], r["b_hi"], int(r["games"]), ""), 1 / n,
                                  Band.fairness(1 / n, min_effect / 100))
                          for _, r in headline(t).iterrows() if mirror and r["measure"].startswith("start player's")]
        verdicts[n, i] += changes.get((n, i), [])
    return summaries, verdicts


def _charts(rep: Report, table: pd.DataFrame, labels, panels: dict) -> None:
    """One panel per charted measure (:func:`chart_panels`): value and 95% band over the points."""
    for n, ps in panels.items():
        t = table[table["players"] == n]
        fig, axes = new_figure(min(4.0 * len(ps), 16), 3.8, ncols=len(ps))
        x = list(range(len(labels)))
        for ax, p in zip(axes[0], ps):
            g = t[t["measure"] == p.measure].sort_values("point")
            unit = SHARE if p.share else NUMBER
            interval_band(ax, list(g["point"]), g["b"], g["b_lo"], g["b_hi"], p.measure, unit=unit, what="point {}")
            if p.band:
                ax.axhspan(p.band.lo, p.band.hi, color="green", alpha=0.13, lw=0, label=p.band.describe())
            ax.set_xticks(x, labels, rotation=60, fontsize=7, ha="right", rotation_mode="anchor")
            ax.set_xlabel("point")
            ax.set_ylabel(p.measure + (" (%)" if unit == SHARE else ""))
            ax.set_title(p.measure, fontsize=9)
        rep.chart(f"sweep-{n}p", fig, f"{n} players: each measure at every point with its 95% interval band (every "
                  "point on the same deals)", title=f"Measures over the points, {n} players")


def bottom_line(table: pd.DataFrame, players, labels, min_effect: float, effect: Band) -> list[str]:
    """The answer: which win measures move by more than the minimum effect from the first point, and
    where (their intervals held together); the one that moves most; the start player against the
    fairness band; score and length. Every measure's range is in the findings."""
    heads = headline(table)
    n_measures = heads[["players", "measure"]].drop_duplicates().shape[0]
    moved: dict[tuple[int, str], list[str]] = {}
    for _, r in heads[heads["point"] > 0].iterrows():
        if r["family_lo"] > effect.hi or r["family_hi"] < effect.lo:
            moved.setdefault((r["players"], r["measure"]), []).append(r["label"])
    where = sorted({x for pts in moved.values() for x in pts}, key=labels.index)
    others = len(labels) - 1
    if not moved:
        first = (f"Over {len(labels)} points, no win measure moves by more than the minimum effect "
                 f"({min_effect:g} points) from the first point.")
    elif len(moved) == n_measures and all(len(p) == others for p in moved.values()):
        first = (f"Over {len(labels)} points, every win measure moves by more than {min_effect:g} points "
                 "from the first point, at every other point.")
    else:
        rates = len(players) == 1 and len(moved) > 1 and all(m.startswith("win rate of ") for _, m in moved)
        names = (join([f"{md_escape(m[len('win rate of '):])}'s" for _, m in moved]) + " win rates" if rates else
                 join([named(m) + (f" at {n} players" if len(players) > 1 else "") for n, m in moved]))
        first = (f"Over {len(labels)} points, {names} move{'s' if len(moved) == 1 else ''} by more than "
                 f"{min_effect:g} points from the first point, at {join([code(x) for x in where])}.")
    out = [first]
    later = heads[heads["point"] > 0]
    if len(later):
        top = later.loc[later["change"].abs().idxmax()]     # the largest paired change from the first point
        at = f" at {top['players']} players" if len(players) > 1 else ""
        text = (f"the largest move: {named(top['measure'])}{at} {verb(top)} by {unsigned_size(top)} from "
                f"{code(labels[0])} to {code(top['label'])}")
        inside = {}
        for n in players:
            g = heads[(heads["players"] == n) & heads["measure"].str.startswith("start player's")]
            if len(g):
                fair = Band.fairness(1 / n, min_effect / 100)
                inside[n] = [code(r["label"]) for _, r in g.iterrows() if fair.judge(
                    Estimate(r["b"], r["b_family_lo"], r["b_family_hi"], int(r["games"]), "")).css == "in"]
        if inside and not any(inside.values()):
            text += "; the start player is within the fairness band at no point"
        for n, pts in inside.items():
            if pts:
                text += (f"; the start player{' at ' + str(n) + ' players' if len(players) > 1 else ''} is within the "
                         f"fairness band at {join(pts)}")
        out.append(text[0].upper() + text[1:] + ".")
    other = []
    for n in players[:1]:
        t = table[table["players"] == n]
        for m in ("mean score",) + tuple(x for x in t["measure"].unique() if x.startswith("length (")):
            g = t[t["measure"] == m]
            if len(g):
                lo, hi = g["b"].min(), g["b"].max()
                what = "the mean score" if m == "mean score" else "the " + m
                other.append(f"{what} is {lo:.2f} at every point" if lo == hi else f"{what} ranges from {lo:.2f} to {hi:.2f}")
    if other:                       # the first to give way when the bottom line runs long (Report.fit)
        out.append("Across the points " + " and ".join(other) + ".")
    return out


def ranges(table: pd.DataFrame, players, labels) -> str:
    """Where each win measure lies over the points (a finding)."""
    parts = []
    for n in players:
        at = f" at {n} players" if len(players) > 1 else ""
        for m, g in headline(table[table["players"] == n]).groupby("measure", sort=False):
            lo, hi = g.loc[g["b"].idxmin()], g.loc[g["b"].idxmax()]
            parts.append(f"{named(m)}{at} runs from {fmt_share(lo['b'], lo['b_lo'], lo['b_hi'])} ({code(lo['label'])}) "
                         f"to {fmt_share(hi['b'], hi['b_lo'], hi['b_hi'])} ({code(hi['label'])})")
    text = "; ".join(parts) if parts else "no measure of who wins could be compared (all seats level in every game)"
    return f"Over {len(labels)} points, {text}."


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
