"""A sweep in words and charts: its bottom line (the win measures that move beyond the minimum effect
from the first point, and the largest move with its paired interval), each point's words and
verdicts for the what-if page, the charts over the points and the ranges, composed from the
numbers of :mod:`simlab.measures.paired` that ``simlab sweep`` (:mod:`simlab.studies.sweep`) measured."""
from __future__ import annotations

import pandas as pd

from simlab.core.game import GameSpec
from simlab.measures.paired import headline, is_mirror_seats, moves
from simlab.measures.stats import Estimate
from simlab.report import whatif
from simlab.report.changes import change_sentences, named, unsigned_size, verb
from simlab.report.charts import interval_band, new_figure
from simlab.report.page import Report, md_escape
from simlab.report.wording import NUMBER, SHARE, Band, Verdict, fmt_share, join


def code(text: str) -> str:
    """A point's label in running text: as code, so the commas of a vector value do not read as a list."""
    return f"`{text}`"


def label(spec: GameSpec, point: dict) -> str:
    return ", ".join(f"{k}={spec.params[k].describe_value(v)}" for k, v in point.items())


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
    against the first as :mod:`.changes` says it, ties as ties) and the verdicts: the start player
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


def charts(rep: Report, table: pd.DataFrame, labels, panels: dict) -> None:
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


def bottom_line(table: pd.DataFrame, players, labels, min_effect: float) -> list[str]:
    """The answer: which win measures move by more than the minimum effect from the first point, and
    where (their intervals held together); the one that moves most; the start player against the
    fairness band; score and length. Every measure's range is in the findings."""
    heads = headline(table)
    n_measures = heads[["players", "measure"]].drop_duplicates().shape[0]
    moved: dict[tuple[int, str], list[str]] = {}
    for _, r in moves(heads[heads["point"] > 0], min_effect).sort_index().iterrows():   # in the table's order
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
