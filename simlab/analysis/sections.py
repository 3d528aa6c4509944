"""Standard report sections: each adds verdicts, a chart and a table for one balance measure.

Used by the ``overview`` experiment and by ``simlab report RUN_DIR``; any experiment can call them.
Fairness bands are stated in every verdict: a seat's win rate within ``SEAT_BAND`` (absolute)
of the fair rate, a balance index of at least ``BALANCE_FLOOR``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import measures as M
from .report import Report, ci, formatted, new_figure, num, pct
from .stats import Estimate, paired_column_difference

SEAT_BAND = 0.02       # a seat is "fair" if its win rate is within 2 points of the fair rate
BALANCE_FLOOR = 0.95   # balance index 1 - (largest seat gap) of at least 0.95 (gap <= 5 points)
USAGE_FLAG = 0.5       # standardized winners-vs-others difference above which a column is flagged


def _yerr(value, lo, hi):
    """Error-bar lengths below and above, clipped at 0 against rounding."""
    v, lo, hi = (np.asarray(x, dtype=float) for x in (value, lo, hi))
    return [np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)]


def seat_advantage(rep: Report, frame: pd.DataFrame, rotated: bool = True) -> pd.DataFrame:
    """Win rate by seat and player count; first-player verdict; balance index verdict; chart."""
    seats = M.win_by_seat(frame)
    bal = M.balance_index(frame)
    for n, g in seats.groupby("players"):
        first = g.iloc[0]
        e = Estimate(first["win_rate"], first["lo"], first["hi"], int(first["games"]), "Wilson")
        fair = first["fair"]
        lean = "the start player is favoured" if e.lo > fair else "the start player is handicapped" if e.hi < fair else ""
        rep.verdict(f"Start player (seat 1) win rate, {n} players", e, fair, (fair - SEAT_BAND, fair + SEAT_BAND),
                    note=lean)
        worst = g.loc[(g["win_rate"] - fair).abs().idxmax()]
        if int(worst["seat"]) != 1:
            e = Estimate(worst["win_rate"], worst["lo"], worst["hi"], int(worst["games"]), "Wilson")
            rep.verdict(f"Seat {int(worst['seat'])} (the seat furthest from fair), {n} players", e, fair,
                        (fair - SEAT_BAND, fair + SEAT_BAND))
    for _, b in bal.iterrows():
        e = Estimate(b["balance_index"], b["lo"], b["hi"], int(b["games"]), "bootstrap")
        rep.verdict(f"Balance index (1 - largest seat win-rate gap), {int(b['players'])} players", e, 1.0,
                    (BALANCE_FLOOR, 1.0), percent=False,
                    note=f"best seat {int(b['best_seat'])}, worst seat {int(b['worst_seat'])}")
    counts = sorted(seats["players"].unique())
    fig, axes = new_figure(min(4.0 * len(counts), 14), 3.6, ncols=len(counts))
    for ax, n in zip(axes[0], counts):
        g = seats[seats["players"] == n]
        x = g["seat"].to_numpy()
        ax.bar(x, g["win_rate"], color="#4c72b0", alpha=0.85)
        ax.errorbar(x, g["win_rate"], yerr=_yerr(g["win_rate"], g["lo"], g["hi"]), fmt="none",
                    ecolor="black", capsize=3)
        fair = g["fair"].iloc[0]
        ax.axhline(fair, color="black", ls="--", lw=1)
        ax.axhspan(fair - SEAT_BAND, fair + SEAT_BAND, color="green", alpha=0.12)
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (1 = start player)")
        ax.set_xticks(x)
        ax.set_ylabel("win rate")
    rep.chart("seat-win-rates", fig, "Win rate by seat with 95% Wilson intervals; dashed: fair rate; green: "
              f"fairness band (+-{SEAT_BAND:.0%} points)" + (" (strategies rotated through the seats)" if rotated else ""))
    rep.table("Win rate by seat", formatted(seats, {
        "players": "players", "seat": "seat", "games": "games", "win rate [95% CI]": lambda r: ci(r, "win_rate"), "fair": lambda r: pct(r["fair"]),
        "mean score": lambda r: num(r["mean_score"])}),
        note="A shared win counts as a win for every winner, so the fair rate is the average win rate of all seats.")
    rep.table("Balance index by player count", formatted(bal, {
        "players": "players", "games": "games",
        "balance index [95% CI]": lambda r: f"{r['balance_index']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]",
        "best seat": "best_seat", "worst seat": "worst_seat"}))
    return seats


def ties(rep: Report, frame: pd.DataFrame) -> None:
    t = M.tie_rate(frame)
    for _, r in t.iterrows():
        rep.verdict(f"Games ending in a shared win, {int(r['players'])} players",
                    Estimate(r["tie_rate"], r["lo"], r["hi"], int(r["games"]), "Wilson"))
    rep.table("Shared wins", formatted(t, {"players": "players", "games": "games",
                                           "shared-win rate [95% CI]": lambda r: ci(r, "tie_rate")}))


def _dist_table(d: pd.DataFrame, extra: dict | None = None) -> pd.DataFrame:
    spec = {"players": "players", **(extra or {}), "n": "n",
            "mean [95% CI]": lambda r: f"{r['mean']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}]", "sd": lambda r: num(r["sd"]),
            **{k: (lambda r, c=c: f"{round(float(r[c]), 2):g}") for k, c in (("min", "min"), ("5%", "p5"), ("25%", "p25"),
                                                                   ("median", "median"), ("75%", "p75"),
                                                                   ("95%", "p95"), ("max", "max"))}}
    return formatted(d, spec)


def _hist(ax, values, label):
    v = np.asarray(values)
    lo, hi = int(np.floor(v.min())), int(np.ceil(v.max()))
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo <= 80 else 60
    ax.hist(v, bins=bins, histtype="step", density=True, lw=1.5, label=label)


def lengths_and_scores(rep: Report, frame: pd.DataFrame, length_column: str) -> None:
    lengths = M.length_distribution(frame, length_column)
    scores = M.score_distribution(frame)
    margin = M.winning_margin(frame)
    fig, axes = new_figure(13, 3.6, ncols=3)
    for n, g in frame.groupby("players", observed=True):
        _hist(axes[0][0], M.per_game(g, length_column), f"{n} players")
        _hist(axes[0][1], g["score"], f"{n} players")
        _hist(axes[0][2], M.margins(g)["margin"], f"{n} players")
    for ax, title in zip(axes[0], (f"game length ({length_column})", "score (all seats)", "winning margin")):
        ax.set_title(title)
        ax.set_ylabel("share of games" if "score" not in title else "share of seats")
        ax.legend(fontsize=8)
    rep.chart("length-score-margin", fig, "Distributions of game length, scores and winning margin "
              "(winner's score minus the best other score; 0 = tied on score)")
    for _, r in lengths.iterrows():
        rep.verdict(f"Game length ({length_column}), {int(r['players'])} players",
                    Estimate(r["mean"], r["lo"], r["hi"], int(r["n"]), "normal"), percent=False)
    for _, r in margin.iterrows():
        rep.verdict(f"Close games (winning margin 0 or 1 point), {int(r['players'])} players",
                    Estimate(r["close_games"], r["close_lo"], r["close_hi"], int(r["n"]), "Wilson"))
    rep.table(f"Game length ({length_column})", _dist_table(lengths))
    rep.table("Scores", _dist_table(scores, {"who": "who"}))
    rep.table("Winning margin", _dist_table(margin))


def strategies(rep: Report, frame: pd.DataFrame) -> pd.DataFrame | None:
    """Strategy win rates, the head-to-head matrix and a ranking (needs two or more strategies)."""
    if frame["strategy"].nunique() < 2:
        return None
    rates = M.strategy_rates(frame)
    h2h = M.head_to_head(frame)
    rank = M.ranking(h2h)
    names = list(rank["strategy"])
    mat = h2h.pivot(index="a", columns="b", values="a_ahead").reindex(index=names, columns=names)
    fig, axes = new_figure(1.2 * len(names) + 2.5, 1.0 * len(names) + 1.5)
    ax = axes[0][0]
    im = ax.imshow(mat.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            v = mat.iloc[i, j]
            if not pd.isna(v):
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("opponent B")
    ax.set_ylabel("strategy A")
    fig.colorbar(im, ax=ax, label="share of meetings A finishes ahead of B")
    rep.chart("strategy-matrix", fig, "Strategy vs strategy: how often the row strategy finishes ahead of the "
              "column strategy in the same game (ties count one half)")
    top = rank.iloc[0]
    rep.verdict(f"Strongest strategy: {top['strategy']} finishes ahead of other strategies (pooled)",
                Estimate(top["pooled"], top["lo"], top["hi"], int(top["meetings"]), "Wilson"), 0.5,
                reference_label="even match")
    rep.table("Strategy ranking (average head-to-head share)", formatted(rank, {
        "rank": "rank", "strategy": "strategy", "average share ahead": lambda r: pct(r["avg_ahead"]),
        "pooled share ahead [95% CI]": lambda r: ci(r, "pooled"),
        "opponents": "opponents", "meetings": "meetings"}))
    rep.table("Head-to-head", formatted(h2h, {"A": "a", "B": "b", "meetings": "meetings",
                                              "A ahead of B [95% CI]": lambda r: ci(r, "a_ahead")}))
    rep.table("Win rate by strategy (heads-up runs)", formatted(rates, {
        "players": "players", "strategy": "strategy", "seats played": "seats_played",
        "win rate [95% CI]": lambda r: ci(r, "win_rate"), "fair": lambda r: pct(r["fair"]),
        "mean score [95% CI]": lambda r: ci(r, "mean_score", "score_lo", "score_hi", False)}))
    return rank


def strategy_mix(rep: Report, frame: pd.DataFrame) -> None:
    """Win rate and mean score of each strategy in a mixed run, per player count (a table)."""
    rates = M.strategy_rates(frame)
    rep.table("Win rate by strategy in the default mix, by player count", formatted(rates, {
        "players": "players", "strategy": "strategy", "seats played": "seats_played",
        "win rate [95% CI]": lambda r: ci(r, "win_rate"), "fair": lambda r: pct(r["fair"]),
        "mean score [95% CI]": lambda r: ci(r, "mean_score", "score_lo", "score_hi", False)}))


def skill(rep: Report, frame: pd.DataFrame, strong: str) -> None:
    """Skill vs luck from games of one strong heuristic against random play, by player count."""
    s = M.skill_share(frame, strong)
    for _, r in s.iterrows():
        e = Estimate(r["skill"], r["skill_lo"], r["skill_hi"], int(r["games"]), "Wilson, transformed")
        rep.verdict(f"Skill share, {int(r['players'])} players ({strong} vs random play: 0 = pure luck, 1 = the "
                    f"heuristic always wins)", e, percent=False,
                    note=f"{strong} wins {pct(r['win_rate'])} against a fair {pct(r['fair'])}")
    if len(s) >= 2:  # does luck grow with the player count? (the Loot Island reviewer's claim, for any game)
        few, many = s.iloc[0], s.iloc[-1]
        d = many["skill"] - few["skill"]
        half = np.hypot((few["skill_hi"] - few["skill_lo"]) / 2, (many["skill_hi"] - many["skill_lo"]) / 2)
        trend = ("luck weighs more with more players" if d + half < 0 else
                 "skill weighs more with more players" if d - half > 0 else "no clear change with the player count")
        rep.verdict(f"Change in skill share from {int(few['players'])} to {int(many['players'])} players",
                    Estimate(d, d - half, d + half, int(few["games"] + many["games"]),
                             "difference of independent runs"), reference=0.0, percent=False,
                    reference_label="no change", note=f"{trend} (with these strategies)")
    fig, axes = new_figure(5.5, 3.6)
    ax = axes[0][0]
    ax.errorbar(s["players"], s["skill"], yerr=_yerr(s["skill"], s["skill_lo"], s["skill_hi"]), marker="o",
                capsize=3, label="skill share")
    ax.errorbar(s["players"], s["beats_random"], yerr=_yerr(s["beats_random"], s["beats_lo"], s["beats_hi"]),
                marker="s", capsize=3, label=f"{strong} ahead of a random player")
    ax.set_xticks(s["players"])
    ax.set_xlabel("players")
    ax.set_ylim(min(0, float(s["skill_lo"].min())) - 0.05, 1.05)
    ax.legend(fontsize=8)
    rep.chart("skill-vs-luck", fig, f"Skill vs luck by player count: {strong} against random players")
    rep.table("Skill vs luck", formatted(s, {
        "players": "players", "games": "games", f"{strong} win rate [95% CI]": lambda r: ci(r, "win_rate"),
        "fair": lambda r: pct(r["fair"]), "skill share [95% CI]": lambda r: ci(r, "skill", "skill_lo", "skill_hi", False),
        "ahead of a random player [95% CI]": lambda r: ci(r, "beats_random", "beats_lo", "beats_hi"),
        "score gap": lambda r: num(r["score_gap"])}),
        note="skill share = (win rate - fair rate) / (1 - fair rate).")


def usage(rep: Report, frame: pd.DataFrame, columns: list[str]) -> None:
    """Winners vs others for each numeric seat column: dead options and strongly winning features."""
    if not columns:
        return
    u = M.usage(frame, columns)
    dead = sorted(set(u.loc[u["never_varies"], "column"]))
    if dead:
        rep.findings.append(f"Columns that never vary (dead options, features these strategies never use, or parts "
                            f"switched off by the rules in force): "
                            f"{', '.join(dead)}.")
    strong = u[(u["std_diff"].abs() >= USAGE_FLAG) & ~u["never_varies"]].sort_values("std_diff", key=abs, ascending=False)
    if len(strong):
        items = [f"{r.column} ({r.players}p: {r.winners:.2f} vs {r.others:.2f}, d = {r.std_diff:+.2f})"
                 for r in strong.head(6).itertuples()]
        rep.findings.append(f"Strongest links to winning (standardized difference |d| >= {USAGE_FLAG}): " + "; ".join(items)
                            + ". A large d marks a feature that decides games (possibly overpowered) or one that is "
                              "simply part of the score.")
    top = u.assign(a=u["std_diff"].abs()).sort_values("a", ascending=False)
    top = top.drop_duplicates("column").head(12)["column"].tolist()[::-1]
    counts = sorted(u["players"].unique())
    fig, axes = new_figure(7, 0.35 * len(top) + 1.5)
    ax = axes[0][0]
    for k, n in enumerate(counts):
        g = u[u["players"] == n].set_index("column").reindex(top)
        ax.barh(np.arange(len(top)) + (k - (len(counts) - 1) / 2) * 0.8 / len(counts), g["std_diff"],
                height=0.8 / len(counts), label=f"{n} players")
    ax.set_yticks(range(len(top)), top)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("standardized difference, winners minus others")
    ax.legend(fontsize=8)
    rep.chart("usage", fig, "Usage: how each game column differs between winners and the other seats")
    rep.table("Usage: winners vs others", formatted(u, {
        "players": "players", "column": "column", "winners": lambda r: num(r["winners"]),
        "others": lambda r: num(r["others"]),
        "difference [95% CI]": lambda r: ci(r, "difference", percent=False),
        "standardized": lambda r: num(r["std_diff"]), "share non-zero": lambda r: pct(r["share_nonzero"])}))


def variant_effect(rep: Report, base: pd.DataFrame, variant: pd.DataFrame, label: str,
                   columns: tuple[str, ...] = ("score",), band: float = SEAT_BAND) -> pd.DataFrame:
    """Paired effect of a rule variant on each seat's win rate and on ``columns`` (common random numbers:
    both arms played with the same seed, rows paired by game id and seat)."""
    rows = []
    wins = paired_column_difference(base, variant, "win", by="seat").assign(column="win")
    for _, r in wins.iterrows():
        e = Estimate(r["difference"], r["lo"], r["hi"], int(r["n"]), "paired normal")
        rep.verdict(f"{label}: change in seat {int(r['group']) + 1}'s win rate ({pct(r['baseline'])} -> "
                    f"{pct(r['variant'])}), paired on common random numbers", e, 0.0, (-band, band),
                    reference_label="no change")
    rows.append(wins)
    for col in columns:
        d = paired_column_difference(base, variant, col).assign(column=col)
        r = d.iloc[0]
        rep.verdict(f"{label}: change in mean {col} ({num(r['baseline'])} -> {num(r['variant'])}), paired",
                    Estimate(r["difference"], r["lo"], r["hi"], int(r["n"]), "paired normal"), 0.0, percent=False,
                    reference_label="no change")
        rows.append(d)
    table = pd.concat(rows, ignore_index=True)
    w = table[table["column"] == "win"]
    fig, axes = new_figure(5.5, 3.4)
    ax = axes[0][0]
    x = w["group"].astype(int).to_numpy() + 1
    ax.errorbar(x, w["difference"], yerr=_yerr(w["difference"], w["lo"], w["hi"]), fmt="o", capsize=3)
    ax.axhline(0, color="black", lw=0.8)
    ax.axhspan(-band, band, color="green", alpha=0.12)
    ax.set_xticks(x)
    ax.set_xlabel("seat")
    ax.set_ylabel("win-rate change (variant - baseline)")
    rep.chart(f"effect-{label}", fig, f"{label}: paired change in each seat's win rate with 95% intervals; green: "
              f"+-{band:.0%} points")
    rep.table(f"{label}: paired differences", formatted(table, {
        "measure": "column", "seat": lambda r: "" if r["group"] == () else int(r["group"]) + 1, "n": "n",
        "baseline": lambda r: num(r["baseline"], 3), "variant": lambda r: num(r["variant"], 3),
        "difference [95% CI]": lambda r: ci(r, "difference", percent=False, digits=3)}))
    return table
