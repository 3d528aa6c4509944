"""Loot Island: where should the curse-cube elimination threshold sit?

The threshold (parameter ``curse_threshold``, printed 13) is swept with ``Context.sweep`` (one run
per value, all on the same root seed) at 2-5 players, with a cautious and a greedy heuristic
(cautious / hunter alternating round the table, rotated). Per threshold and player count:
the elimination rate (share of players out, per game), the winners' curse cubes against the other
players', and the cautious-minus-greedy win-rate gap (per game: the cautious seats' mean win minus
the greedy seats'). At 4 players the greedy heuristic's risk appetite (``hunter:cap=K``) is swept too,
against fixed opponents (cautious, collector, default hunter).

Balanced range, the criterion: a threshold is balanced at a player count when the 95% interval of
the cautious-minus-greedy gap lies inside +-GAP_BAND (neither style dominates) AND the interval of
the elimination rate lies above ELIM_FLOOR (elimination stays a real threat).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.analysis import sections
from simlab.analysis.charts import interval_band, new_figure
from simlab.analysis.experiment import Context, Experiment
from simlab.analysis.report import ci, formatted, num, pct
from simlab.analysis.stats import Estimate, mean, proportion
from simlab.analysis.wording import NUMBER, POINTS, TIE, Band, best_of, compare, fmt_estimate, join

THRESHOLDS = (8, 10, 11, 12, 13, 14, 15, 16, 18, 20)
PRINTED = 13
PLAYERS = (2, 3, 4, 5)
CAUTIOUS, GREEDY = "cautious", "hunter"
CAPS = (5, 8, 11, 14)                  # hunter's cap (risk appetite) swept at CAP_PLAYERS
CAP_PLAYERS = 4
OPPONENTS = ("cautious", "collector", "hunter")
GAP_BAND = 0.10                        # |cautious - greedy win-rate gap| within 10 points
ELIM_FLOOR = 0.02                      # at least 2% of players eliminated


def seats(n: int) -> tuple[str, ...]:
    return tuple(CAUTIOUS if i % 2 == 0 else GREEDY for i in range(n))


def point(frame: pd.DataFrame, threshold: int) -> dict:
    """All per-threshold measures of one run, with 95% intervals over games."""
    f = frame.assign(strategy=frame["strategy"].astype(str), out=(frame["eliminated"] > 0).astype(float),
                     curse_out=(frame["eliminated"] == 1).astype(float))
    games = f.groupby("game")
    elim = mean(games["out"].mean())
    by = f.groupby(["game", "strategy"])["win"].mean().unstack()
    gap = mean(by[CAUTIOUS] - by[GREEDY])
    win_c = f.loc[f["win"], "curses"]
    wc, oc = mean(win_c), mean(f.loc[~f["win"] & (f["out"] == 0), "curses"])
    near = mean(((f["curses"] >= threshold - 2) & (f["out"] == 0)).astype(float).groupby(f["game"]).mean())
    rates = f.groupby("strategy")["win"].mean()
    return {"threshold": threshold, "games": f["game"].nunique(), "elim": elim.value, "elim_lo": elim.lo,
            "elim_hi": elim.hi, "curse_elim": f["curse_out"].mean(), "gap": gap.value, "gap_lo": gap.lo,
            "gap_hi": gap.hi, "win_curses": wc.value, "wc_lo": wc.lo, "wc_hi": wc.hi, "other_curses": oc.value,
            "near": near.value, "cautious_win": rates.get(CAUTIOUS, np.nan), "greedy_win": rates.get(GREEDY, np.nan),
            "score": f["score"].mean(), "fee": f["healer_fee"].mean(),
            "discarded": f["treasures_discarded"].mean(), "no_winner": games["no_winner"].first().mean()}


def balanced(r) -> bool:
    return bool(-GAP_BAND <= r["gap_lo"] and r["gap_hi"] <= GAP_BAND and r["elim_lo"] > ELIM_FLOOR)


def analyse(ctx: Context):
    rep = ctx.report("Loot Island: the curse-cube elimination threshold",
                     f"Where should the elimination threshold sit (printed: {PRINTED})? Swept over "
                     f"{', '.join(map(str, THRESHOLDS))} at {PLAYERS[0]}-{PLAYERS[-1]} players with cautious and "
                     f"greedy ({GREEDY}) players, and the greedy player's risk appetite swept at {CAP_PLAYERS} "
                     f"players; {ctx.games:,} games per run. Criterion for the balanced range: the "
                     f"cautious-minus-greedy win-rate gap's 95% interval inside ±{GAP_BAND * 100:g} points AND the "
                     f"elimination rate's interval above {ELIM_FLOOR:.0%}. Curse cubes come from treasures, 1s and "
                     "events, and healer fees (ASSUMED healer cards) and islets (ASSUMED values) decide what cubes "
                     "cost at the end, so the balanced range may move with that assumed data (see the caveats).")
    rows = []
    for n in PLAYERS:
        runs = ctx.sweep(f"cg-{n}p", ctx.config(n, seats(n)), "curse_threshold", THRESHOLDS)
        rows += [{"players": n, **point(r.frame(), t)} for t, r in runs.items()]
    t = pd.DataFrame(rows)
    caps = []
    for k in CAPS:
        label = f"{GREEDY}:cap={k}"
        runs = ctx.sweep(f"cap{k}-{CAP_PLAYERS}p", ctx.config(CAP_PLAYERS, (label,) + OPPONENTS), "curse_threshold",
                         THRESHOLDS)
        for thr, r in runs.items():
            f = r.frame()
            s = f[f["strategy"].astype(str) == label]
            e = proportion(int(s["win"].sum()), len(s))
            caps.append({"cap": k, "threshold": thr, "seats": e.n, "win": e.value, "lo": e.lo, "hi": e.hi, "fair": float(f["win"].mean()),
                         "out": float((s["eliminated"] > 0).mean()), "curses": float(s["curses"].mean()),
                         "score": float(s["score"].mean())})
    c = pd.DataFrame(caps)

    # verdicts: the printed threshold, then the balanced range per player count
    for n in PLAYERS:
        r = t[(t["players"] == n) & (t["threshold"] == PRINTED)].iloc[0]
        rep.verdict(f"{n} players, threshold {PRINTED}: cautious minus greedy win rate "
                    f"({pct(r['cautious_win'])} vs {pct(r['greedy_win'])})",
                    mean_estimate(r, "gap"), 0.0, Band.effect(GAP_BAND), unit=POINTS)
        rep.verdict(f"{n} players, threshold {PRINTED}: elimination rate (share of players out)",
                    mean_estimate(r, "elim"), None, Band.floor(ELIM_FLOOR, "threat floor"),
                    note=f"winners end with {r['win_curses']:.2f} cubes, the other players still in with "
                         f"{r['other_curses']:.2f}; {pct(r['near'])} of players end within 2 cubes of the threshold")
    for n in PLAYERS:
        g = t[t["players"] == n]
        ok = [int(x) for x in g.loc[g.apply(balanced, axis=1), "threshold"]]
        even = [int(r["threshold"]) for _, r in g.iterrows() if compare(mean_estimate(r, "gap")) == TIE]
        flat = g.loc[g["threshold"].idxmax(), "win_curses"]
        binding = g.loc[g["wc_hi"] < flat, "threshold"]
        rep.findings.append(
            f"{n} players: balanced range (criterion above): "
            + (f"thresholds {', '.join(map(str, ok))}" if ok else "none of the thresholds swept")
            + f"; the printed {PRINTED} " + ("is inside it" if PRINTED in ok else "is not") + ". The gap is a "
            "statistical tie (its interval includes 0) at "
            + (f"thresholds {', '.join(map(str, even))}" if even else "none of the thresholds") + "; elimination rate from "
            f"{pct(g['elim'].max())} to {pct(g['elim'].min())} over the range; the threshold still binds (winners hold "
            f"fewer cubes than at {int(g['threshold'].max())}) up to threshold "
            f"{int(binding.max()) if len(binding) else int(g['threshold'].min())}.")
    for k in CAPS:
        r = c[(c["cap"] == k) & (c["threshold"] == PRINTED)].iloc[0]
        rep.verdict(f"{CAP_PLAYERS} players, threshold {PRINTED}: win rate of {GREEDY}:cap={k} against "
                    f"{', '.join(OPPONENTS)}", Estimate(r["win"], r["lo"], r["hi"], int(r["seats"]), "Wilson"), r["fair"],
                    Band.effect(sections.SEAT_BAND, around=r["fair"]), reference_label="average seat",
                    note=f"eliminated {pct(r['out'])}, ends with {r['curses']:.2f} cubes")
    best_caps = {thr: best_of({str(int(r.cap)): Estimate(r.win, r.lo, r.hi, int(r.seats), "Wilson")
                               for r in g.itertuples()}) for thr, g in c.groupby("threshold")}
    rep.findings.append(f"Best {GREEDY} cap by threshold ({CAP_PLAYERS} players; caps whose win rate is a statistical "
                        "tie with the best are listed together): "
                        + "; ".join(f"threshold {int(thr)}: cap {join(b.tied)}" for thr, b in best_caps.items()) + ".")

    # charts with interval bands
    fig, axes = new_figure(14, 3.8, ncols=3)
    for n in PLAYERS:
        g = t[t["players"] == n]
        interval_band(axes[0][0], g["threshold"], g["gap"], g["gap_lo"], g["gap_hi"], f"{n} players", POINTS,
                      "gap at threshold {}")
        interval_band(axes[0][1], g["threshold"], g["elim"], g["elim_lo"], g["elim_hi"], f"{n} players",
                      what="eliminated at threshold {}")
        interval_band(axes[0][2], g["threshold"], g["win_curses"], g["wc_lo"], g["wc_hi"], f"{n} players", NUMBER,
                      "winners' cubes at threshold {}")
    gap_band = Band.effect(GAP_BAND)
    axes[0][0].axhspan(gap_band.lo, gap_band.hi, color="grey", alpha=0.13, lw=0, label=gap_band.describe(POINTS))
    axes[0][1].axhline(ELIM_FLOOR, color="#c0392b", ls=":", lw=1.2, label=Band.floor(ELIM_FLOOR, "threat floor").describe())
    for ax, title, ylabel in zip(axes[0], ("cautious minus greedy win rate", "elimination rate (players out)",
                                           "winners' curse cubes"),
                                 ("cautious - greedy win rate (percentage points)", "players eliminated (%)",
                                  "curse cubes per winner")):
        ax.axvline(PRINTED, color="grey", ls=":", lw=1)
        ax.set_xlabel("curse threshold (cubes)")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    rep.chart("threshold-sweep", fig, f"By threshold and player count, with 95% interval bands: the cautious-minus-"
              f"greedy gap (grey: the minimum effect that matters, ±{GAP_BAND * 100:g} points), the elimination rate "
              f"(dotted red: the {ELIM_FLOOR:.0%} threat floor) and the winners' curse cubes; dotted grey: the printed "
              f"{PRINTED}", title="The threshold sweep")
    fig, axes = new_figure(6.5, 3.8)
    ax = axes[0][0]
    for k in CAPS:
        g = c[c["cap"] == k]
        interval_band(ax, g["threshold"], g["win"], g["lo"], g["hi"], f"{GREEDY}:cap={k}", what="win rate at threshold {}")
    ax.axhline(c["fair"].mean(), color="black", ls="--", lw=1, label="average seat")
    ax.axvline(PRINTED, color="grey", ls=":", lw=1)
    ax.set_xlabel("curse threshold (cubes)")
    ax.set_ylabel("win rate (%)")
    ax.legend(fontsize=7)
    rep.chart("risk-appetite", fig, f"Risk appetite: win rate of a {GREEDY} with curse cap K against "
              f"{', '.join(OPPONENTS)} ({CAP_PLAYERS} players), by threshold, 95% bands; dashed: the average seat's rate",
              title="Risk appetite")

    rep.table("Threshold sweep, cautious vs greedy", formatted(t, {
        "players": "players", "threshold": "threshold", "games": "games",
        "elimination rate [95% CI]": lambda r: ci(r, "elim", "elim_lo", "elim_hi"),
        "by curses": lambda r: pct(r["curse_elim"]),
        "cautious - greedy gap [95% CI]": lambda r: ci(r, "gap", "gap_lo", "gap_hi", POINTS),
        "cautious win": lambda r: pct(r["cautious_win"]), "greedy win": lambda r: pct(r["greedy_win"]),
        "winners' cubes [95% CI]": lambda r: ci(r, "win_curses", "wc_lo", "wc_hi", NUMBER),
        "others' cubes": lambda r: num(r["other_curses"]), "within 2 of threshold": lambda r: pct(r["near"]),
        "treasures discarded": lambda r: num(r["discarded"]), "healer fee": lambda r: num(r["fee"]),
        "mean score": lambda r: num(r["score"]), "nobody wins": lambda r: pct(r["no_winner"]),
        "balanced": lambda r: "yes" if balanced(r) else ""}),
        note="Elimination and the gap are averaged per game (intervals over games); 'within 2 of threshold' = players "
             "still in with threshold-2 or more cubes.")
    rep.table(f"Risk appetite ({CAP_PLAYERS} players)", formatted(c, {
        "cap": "cap", "threshold": "threshold", "win rate [95% CI]": lambda r: ci(r, "win"),
        "fair": lambda r: pct(r["fair"]), "eliminated": lambda r: pct(r["out"]), "cubes": lambda r: num(r["curses"]),
        "mean score": lambda r: num(r["score"])}))
    at = t[t["threshold"] == PRINTED].set_index("players")
    ok_at = [n for n in PLAYERS if balanced(at.loc[n])]
    not_at = [n for n in PLAYERS if n not in ok_at]
    few, many = PLAYERS[0], PLAYERS[-1]
    ranges = {n: [int(x) for x in t[(t["players"] == n) & t.apply(balanced, axis=1)]["threshold"]] for n in PLAYERS}
    rep.bottom_line = [
        f"The printed threshold {PRINTED} meets the balance criterion (the cautious-minus-greedy gap within "
        f"±{GAP_BAND * 100:g} points and the elimination rate above the {ELIM_FLOOR:.0%} threat floor) at "
        + (f"{join([str(n) for n in ok_at])} players" if ok_at else "no player count")
        + (f" and not at {join([str(n) for n in not_at])} players." if not_at and ok_at else
           f" of {PLAYERS[0]}-{PLAYERS[-1]} players." if not ok_at else "."),
        ("Thresholds that meet it: " + "; ".join(f"{n} players: {join([str(x) for x in r]) if r else 'none swept'}"
                                                  for n, r in ranges.items()) + "." if any(ranges.values()) else
         f"None of the thresholds swept ({THRESHOLDS[0]}-{THRESHOLDS[-1]}) meets it at any player count."),
        f"At {PRINTED} the cautious-minus-greedy gap is {fmt_estimate(mean_estimate(at.loc[few], 'gap'), POINTS)} at "
        f"{few} players and {fmt_estimate(mean_estimate(at.loc[many], 'gap'), POINTS)} at {many}; "
        f"{fmt_estimate(mean_estimate(at.loc[few], 'elim'))} of players are eliminated at {few} players and "
        f"{fmt_estimate(mean_estimate(at.loc[many], 'elim'))} at {many}.",
    ]
    rep.rests_on = sections.rests_on(ctx.runs, f" ({CAUTIOUS} and {GREEDY} alternating round the table, rotated; "
                                                f"{GREEDY} with caps against {', '.join(OPPONENTS)})",
                                     only=("healer_per_cube", "healer_fixed", "islet_action", "islet_value",
                                           "treasure_crossed"))
    rep.caveats.append("The heuristics know the threshold: when keeping treasure they price a cube that would reach "
                       "it at 60 gold, so they are eliminated only by cubes they cannot refuse (1s, events, islets). "
                       "Human players may take more risk; the elimination rates here are a floor for careful play.")
    rep.caveats.append(f"Seats: {CAUTIOUS} and {GREEDY} alternate round the table (odd counts: one more {CAUTIOUS}), "
                       "rotated game by game; the gap compares their per-game mean win rates. At 2 players Allen "
                       "plays (the default).")
    rep.caveats.append("All thresholds use the same root seed, so neighbouring thresholds are positively correlated "
                       "(their curves are smoother than independent samples would be).")
    return rep


def mean_estimate(r, key: str) -> Estimate:
    return Estimate(r[key], r[f"{key}_lo"], r[f"{key}_hi"], int(r["games"]), "normal")


EXPERIMENT = Experiment("curse-threshold", "Loot Island: the curse threshold",
                        "Elimination threshold swept (8-20) at 2-5 players: elimination rate, winners' cubes, "
                        "cautious vs greedy win-rate gap, risk appetite swept; the balanced range by a stated "
                        "criterion and where the printed 13 sits.", analyse, game="loot-island", players=PLAYERS)
