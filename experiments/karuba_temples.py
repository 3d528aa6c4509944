"""Karuba: how the explorers' beach and temple positions shape the game.

Every Karuba game draws its setup at random among legal ones and records it (columns
beach_<colour> and temple_<colour>), so one run per player count and distance rule samples all
beach-temple pairs at once: each game gives four explorer observations (one per colour) on every
player's island. For each pair (beach b, temple t) the experiment measures, among the explorers
placed there: how often the strong heuristic's explorer reaches its temple and in which round,
the same for random play (the skill gap in reaching), and, over the games that contain the pair,
the strong heuristic's points, its score gap to random play, the shared-win rate and the game
length; and (3-4 players) the planning gap: the strong heuristic's reach rate minus the middling
heuristics' on the same pair, which separates "skill matters" from "the pair is easy". Game-level measures are averaged over the other three (random) pairs of each game.
The three readings of the setup distance rule (ring3, ring4, label30) are compared.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.analysis import sections
from simlab.analysis.charts import dot_interval, new_figure
from simlab.analysis.experiment import Context, Experiment
from simlab.analysis.report import ci, formatted, num, pct
from simlab.analysis.stats import Estimate, difference_of_means, mean, proportion
from simlab.analysis.wording import CHANGE, NUMBER, POINTS, SHARE, Band, fmt_estimate, join
from simlab.core.stats import Z95, mean_ci

COLOURS = ("brown", "blue", "purple", "yellow")
STRONG, WEAK, MIDDLE = "builder", "random", ("racer", "collector")
RULES = ("ring3", "ring4", "label30")
PLAYERS = (2, 3, 4)
LABELS = list(range(10, 120, 10))
SETUP_BAND = 0.10   # a pair is "ordinary" if its reach rate is within 10 points of the average pair (a quality band)


def seats(n: int) -> tuple[str, ...]:
    """The strong heuristic, the middling ones, and random play (the no-skill reference)."""
    return (STRONG,) + MIDDLE[:n - 2] + (WEAK,)


def explorers(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game, seat and colour: the colour's beach and temple, reached or not, and when."""
    parts = []
    for c in COLOURS:
        d = frame[["game", "seat", "players", "strategy", f"beach_{c}", f"temple_{c}", f"home_round_{c}"]]
        d = d.set_axis(["game", "seat", "players", "strategy", "beach", "temple", "round"], axis=1)
        parts.append(d.assign(colour=c))
    long = pd.concat(parts, ignore_index=True)
    long["strategy"] = long["strategy"].astype(str)
    long["reached"] = long["round"] > 0
    return long


def per_game(frame: pd.DataFrame) -> pd.DataFrame:
    """Game-level outcomes: the strong and weak seats' scores, a shared win, the length."""
    s = frame[frame["strategy"].astype(str) == STRONG].set_index("game")["score"]
    w = frame[frame["strategy"].astype(str) == WEAK].set_index("game")["score"]
    first = frame[frame["seat"] == 0].set_index("game")
    return pd.DataFrame({"strong": s, "weak": w, "gap": s - w, "tie": frame.groupby("game")["shared_win"].any(),
                         "rounds": first["rounds"]})


def _sums(frame: pd.DataFrame, keys: list[str], cols: dict[str, str]) -> pd.DataFrame:
    """Per group: n, and the sum and sum of squares of each column (for normal intervals)."""
    sq = frame.assign(**{f"{c}_sq": frame[c].astype(float) ** 2 for c in cols.values()})
    agg = {"n": (keys[0], "size")}
    for name, c in cols.items():
        agg[f"{name}_s"] = (c, "sum")
        agg[f"{name}_q"] = (f"{c}_sq", "sum")
    return sq.groupby(keys).agg(**agg)


def _proportion_gap(k1, n1, k2, n2):
    """(p1 - p2, lo, hi, p2): difference of two independent proportions, normal interval (nan without data)."""
    if not (n2 == n2) or not n2 or not n1:
        return (np.nan,) * 4
    p1, p2 = k1 / n1, k2 / n2
    half = Z95 * np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return (p1 - p2, p1 - p2 - half, p1 - p2 + half, p2)


def pair_table(frame: pd.DataFrame) -> pd.DataFrame:
    """All measures per beach-temple pair (see the module docstring), from grouped sums."""
    ex = explorers(frame)
    strong = ex[ex["strategy"] == STRONG]
    weak = ex[ex["strategy"] == WEAK][["game", "colour", "reached"]].rename(columns={"reached": "weak_reached"})
    strong = strong.merge(weak, on=["game", "colour"], how="left", validate="one_to_one")
    strong["reached_f"] = strong["reached"].astype(float)
    strong["skill_d"] = strong["reached_f"] - strong["weak_reached"].astype(float)
    strong["round_r"] = strong["round"].where(strong["reached"]).astype(float)
    e = _sums(strong, ["beach", "temple"], {"reach": "reached_f", "skill": "skill_d", "weak": "weak_reached"})
    rounds = strong.dropna(subset=["round_r"])
    r = _sums(rounds, ["beach", "temple"], {"round": "round_r"}).rename(columns={"n": "n_reached"})
    mid = ex[ex["strategy"].isin(MIDDLE)].groupby(["beach", "temple"])["reached"].agg(mid_s="sum", mid_n="size")
    games = per_game(frame).reset_index()
    setup = ex[ex["seat"] == 0][["game", "beach", "temple"]].merge(games, on="game")
    setup["tie_f"] = setup["tie"].astype(float)
    g = _sums(setup, ["beach", "temple"], {"points": "strong", "gap": "gap", "tie": "tie_f", "length": "rounds"})
    t = e.join(r, how="left").join(g.rename(columns={"n": "n_game"})).join(mid, how="left").reset_index()
    rows = []
    for x in t.itertuples():
        reach = proportion(x.reach_s, x.n)
        rnd = mean_ci(x.round_s, x.round_q, x.n_reached) if x.n_reached == x.n_reached else (np.nan,) * 3
        skill = mean_ci(x.skill_s, x.skill_q, x.n)
        pts, gap = mean_ci(x.points_s, x.points_q, x.n_game), mean_ci(x.gap_s, x.gap_q, x.n_game)
        tie = proportion(x.tie_s, x.n_game)
        plan = _proportion_gap(x.reach_s, x.n, x.mid_s, x.mid_n)
        rows.append({"beach": x.beach, "temple": x.temple, "explorers": reach.n, "reach": reach.value,
                     "reach_lo": reach.lo, "reach_hi": reach.hi, "round": rnd[0], "round_lo": rnd[1], "round_hi": rnd[2],
                     "weak_reach": x.weak_s / x.n, "skill_reach": skill[0], "skill_reach_lo": skill[1],
                     "skill_reach_hi": skill[2], "games": int(x.n_game), "points": pts[0], "points_lo": pts[1],
                     "points_hi": pts[2], "score_gap": gap[0], "gap_lo": gap[1], "gap_hi": gap[2],
                     "tie_rate": tie.value, "tie_lo": tie.lo, "tie_hi": tie.hi, "length": x.length_s / x.n_game,
                     "mid_reach": plan[3], "plan_gap": plan[0], "plan_lo": plan[1], "plan_hi": plan[2]})
    return pd.DataFrame(rows)


def heatmaps(rep, tables: dict, column: str, title: str, caption: str, fmt=None, cmap="viridis",
             bar: str = "") -> None:
    """One heat map per table over beach x temple; ``fmt`` writes each cell's value (None: colour only);
    ``bar`` labels the colour bar (default ``title``)."""
    keys = list(tables)
    fig, axes = new_figure(4.6 * len(keys), 4.4, ncols=len(keys))
    vals = pd.concat([tables[k][column] for k in keys])
    vmin, vmax = float(vals.min()), float(vals.max())
    for ax, key in zip(axes[0], keys):
        grid = tables[key].pivot(index="beach", columns="temple", values=column).reindex(index=LABELS, columns=LABELS)
        im = ax.imshow(grid.to_numpy(float), cmap=cmap, vmin=vmin, vmax=vmax, origin="lower")
        ax.set_xticks(range(11), LABELS, fontsize=7)
        ax.set_yticks(range(11), LABELS, fontsize=7)
        ax.set_xlabel("temple space")
        ax.set_ylabel("beach space")
        ax.set_title(f"{title}, {key}", fontsize=9)
        for i in range(11):
            for j in range(11):
                v = grid.iloc[i, j]
                if fmt is not None and not pd.isna(v):
                    light = (v - vmin) / ((vmax - vmin) or 1) > 0.6
                    if cmap.endswith("_r"):
                        light = not light
                    ax.text(j, i, fmt(v), ha="center", va="center", fontsize=5.5, color="black" if light else "white")
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label=bar or title)
    rep.chart(f"heatmap-{column}-{'-'.join(keys)}", fig, caption, title=f"Heat map: {title}, {', '.join(keys)}")


def listing(t: pd.DataFrame) -> pd.DataFrame:
    return formatted(t, {
        "players": "players", "beach": "beach", "temple": "temple", "explorers": "explorers",
        f"{STRONG} reaches temple [95% CI]": lambda r: ci(r, "reach", "reach_lo", "reach_hi"),
        "round reached [95% CI]": lambda r: ci(r, "round", "round_lo", "round_hi", NUMBER, 1),
        f"{WEAK} reaches": lambda r: pct(r["weak_reach"]),
        "skill gap in reaching [95% CI]": lambda r: ci(r, "skill_reach", "skill_reach_lo", "skill_reach_hi", POINTS),
        f"{'/'.join(MIDDLE)} reach": lambda r: pct(r["mid_reach"]),
        "planning gap [95% CI]": lambda r: ci(r, "plan_gap", "plan_lo", "plan_hi", POINTS),
        "games": "games", f"{STRONG} points [95% CI]": lambda r: ci(r, "points", "points_lo", "points_hi", NUMBER),
        f"score gap {STRONG}-{WEAK} [95% CI]": lambda r: ci(r, "score_gap", "gap_lo", "gap_hi", CHANGE),
        "shared wins": lambda r: pct(r["tie_rate"]), "rounds": lambda r: num(r["length"])})


def analyse(ctx: Context):
    rep = ctx.report("Karuba: how beach and temple positions shape the game",
                     "Which explorer/temple placements make reaching the temple easy or hard, when temples are "
                     f"reached, how many points a strong player makes, and how much skill matters ({STRONG} vs "
                     f"{WEAK} play). {ctx.games:,} games per player count and distance rule; each game samples four "
                     "beach-temple pairs.")
    runs = {(rule, n): ctx.run(f"{rule}-{n}p", ctx.config(n, seats(n), {"distance_rule": rule}, rotate=True))
            for rule in RULES for n in PLAYERS}
    pairs, summary = {}, []
    for (rule, n), r in runs.items():
        f = r.frame()
        t = pair_table(f).assign(players=n, rule=rule)
        pairs[(rule, n)] = t
        ex = explorers(f)
        s = ex[ex["strategy"] == STRONG]
        g = per_game(f)
        reach = proportion(int(s["reached"].sum()), len(s))
        summary.append({"rule": rule, "players": n, "legal_pairs": len(t), "games": len(g), "reach": reach.value,
                        "reach_lo": reach.lo, "reach_hi": reach.hi, "_reached": s["reached"].to_numpy(float),
                        "round": float(s.loc[s["reached"], "round"].mean()), "_points": g["strong"].to_numpy(float),
                        "points": float(g["strong"].mean()), "score_gap": float(g["gap"].mean()),
                        "tie_rate": float(g["tie"].mean()), "_rounds": g["rounds"].to_numpy(float),
                        "rounds": float(g["rounds"].mean())})
    base = {(s["rule"], s["players"]): s for s in summary}

    # verdicts: the spread between pairs, under the default reading
    unusual, rule_change = {}, {}
    for n in PLAYERS:
        t = pairs[("ring3", n)]
        avg = base[("ring3", n)]["reach"]
        # every pair judged against the quality band around the average pair (not only the extremes,
        # which would lie outside it by construction)
        ordinary = Band.quality(avg - SETUP_BAND, avg + SETUP_BAND)
        verdicts = [ordinary.judge(Estimate(r.reach, r.reach_lo, r.reach_hi, int(r.explorers), "Wilson")).text
                    for r in t.itertuples()]
        outside = sum(v.startswith("outside") for v in verdicts)
        unusual[n] = (outside, len(t))
        rep.findings.append(f"{n} players: {outside} of {len(t)} legal beach-temple pairs have a reach rate whose whole "
                            f"interval lies outside the quality band of the average pair ({ordinary.describe()}); "
                            f"{sum(v.startswith('inside') for v in verdicts)} lie inside it, the others are undecided.")
        # ranked by the interval's bound, not the point value, so that a small noisy pair cannot top the list;
        # picked as extremes, they are information (no band)
        for label, row in (("easiest", t.loc[t["reach_lo"].idxmax()]), ("hardest", t.loc[t["reach_hi"].idxmin()])):
            rep.verdict(f"{n} players, {label} beach-temple pair (beach {int(row['beach'])}, temple {int(row['temple'])}): "
                        f"{STRONG}'s explorer reaches its temple", Estimate(row["reach"], row["reach_lo"], row["reach_hi"],
                                                                           int(row["explorers"]), "Wilson"),
                        avg, reference_label="average pair",
                        note=f"reached in round {row['round']:.1f} on average; picked as the extreme of {len(t)} pairs")
        top = t.loc[t["gap_lo"].idxmax()]
        rep.verdict(f"{n} players, most skill-testing pair (beach {int(top['beach'])}, temple {int(top['temple'])}): "
                    f"score gap {STRONG} - {WEAK} in games with this pair",
                    Estimate(top["score_gap"], top["gap_lo"], top["gap_hi"], int(top["games"]), "normal"),
                    base[("ring3", n)]["score_gap"], unit=NUMBER, reference_label="average game")
        if t["plan_gap"].notna().any():
            p = t.loc[t["plan_lo"].idxmax()]
            rep.verdict(f"{n} players, pair where planning pays most (beach {int(p['beach'])}, temple {int(p['temple'])}): "
                        f"{STRONG}'s reach rate minus {'/'.join(MIDDLE)}'s", Estimate(p["plan_gap"], p["plan_lo"], p["plan_hi"],
                                                                                    int(p["explorers"]), "normal"),
                        float((t["plan_gap"] * t["explorers"]).sum() / t["explorers"].sum()), unit=POINTS,
                        reference_label="average pair")
    # verdicts: the distance rule's readings against the default
    for rule in RULES[1:]:
        for n in PLAYERS:
            a, b = base[(rule, n)], base[("ring3", n)]
            d = difference_of_means(a["_reached"], b["_reached"])
            rule_change[(rule, n)] = d
            rep.verdict(f"{n} players, distance rule {rule} vs ring3: change in {STRONG}'s temple reach rate", d, 0.0,
                        unit=POINTS,
                        note=f"{a['legal_pairs']} legal pairs instead of {b['legal_pairs']}; game length "
                             f"{a['rounds']:.2f} vs {b['rounds']:.2f} rounds; {STRONG} points {a['points']:.2f} vs {b['points']:.2f}")

    by_players = {f"{n}p": pairs[("ring3", n)] for n in PLAYERS}
    heatmaps(rep, by_players, "reach", f"{STRONG} reach rate", f"How often {STRONG}'s explorer reaches its temple, by "
             "the explorer's beach space (rows) and its temple space (columns); distance rule ring3; blank = illegal pair",
             lambda v: f"{v:.0%}", bar="share of explorers reaching their temple (0-1)")
    heatmaps(rep, by_players, "round", "round reached", "Mean round in which the explorer reaches its temple "
             f"({STRONG}, when reached); ring3; the values are in pairs-ring3.csv", cmap="viridis_r",
             bar="mean round reached (rounds)")
    heatmaps(rep, by_players, "score_gap", f"score gap {STRONG}-{WEAK}", f"Skill: {STRONG}'s score minus {WEAK}'s "
             "in games containing the pair (averaged over the game's other pairs); ring3; the values are in pairs-ring3.csv",
             cmap="magma", bar=f"score gap {STRONG}-{WEAK} (points)")
    heatmaps(rep, {f"{n}p": pairs[("ring3", n)] for n in PLAYERS if n > 2}, "plan_gap", "planning gap",
             f"Where planning pays: {STRONG}'s reach rate minus the middling heuristics' ({', '.join(MIDDLE)}) for "
             "explorers on the same pair, in percentage points; ring3", lambda v: f"{v * 100:+.0f}", cmap="magma",
             bar="difference in reach rates (-1 to 1; cells in percentage points)")
    heatmaps(rep, {rule: pairs[(rule, 4)] for rule in RULES}, "reach", "4p reach rate",
             "The three readings of the distance rule at 4 players: which pairs become illegal (blank) and how the "
             "reach rates of the others compare", lambda v: f"{v:.0%}", bar="share of explorers reaching their temple (0-1)")
    s = pd.DataFrame(summary)
    fig, axes = new_figure(14, 3.6, ncols=4)
    panels = (("reach", f"{STRONG} reach rate", "share of explorers", SHARE,
               lambda r: Estimate(r["reach"], r["reach_lo"], r["reach_hi"], 0, "Wilson")),
              ("points", f"{STRONG} points", "points per game", NUMBER, lambda r: mean(r["_points"])),
              ("tie_rate", "shared-win rate", "share of games", SHARE,
               lambda r: proportion(round(r["tie_rate"] * r["games"]), r["games"])),
              ("rounds", "game length", "rounds", NUMBER, lambda r: mean(r["_rounds"])))
    for ax, (col, title, ylabel, unit, estimate) in zip(axes[0], panels):
        for k, rule in enumerate(RULES):
            e = [estimate(r) for _, r in s[s["rule"] == rule].iterrows()]
            dot_interval(ax, [str(n) for n in PLAYERS], [x.value for x in e], [x.lo for x in e], [x.hi for x in e],
                         ylabel=ylabel, xlabel="players", unit=unit, label=rule, offset=(k - 1) * 0.2, what=title + ", {} players")
        ax.set_title(title, fontsize=9)
    axes[0][0].legend(fontsize=8)
    rep.chart("distance-rules", fig, "The distance rule's readings compared, by player count, with 95% intervals",
              title="The distance rule's readings compared")

    allp = pd.concat([pairs[("ring3", n)] for n in PLAYERS], ignore_index=True)
    for n in PLAYERS:
        t = pairs[("ring3", n)]
        rep.table(f"{n} players: easiest pairs (highest reach rate)", listing(t.nlargest(5, "reach_lo")),
                  note="Ranked by the lower end of the interval (the pair is at least this easy).")
        rep.table(f"{n} players: hardest pairs (lowest reach rate)", listing(t.nsmallest(5, "reach_hi")),
                  note="Ranked by the upper end of the interval (the pair is at most this easy).")
        rep.table(f"{n} players: most skill-testing pairs (largest score gap {STRONG}-{WEAK})",
                  listing(t.nlargest(5, "gap_lo")), note="Ranked by the lower end of the score gap's interval. "
                  "Against random play this gap mostly follows how easy the pair is.")
        if n > 2:
            rep.table(f"{n} players: pairs where planning pays most ({STRONG} vs {', '.join(MIDDLE)})",
                      listing(t.nlargest(5, "plan_lo")), note="Ranked by the lower end of the planning gap's interval: "
                      "the pairs where the strong planner reaches its temple most often beyond a competent player.")
    rep.table("Distance rule readings compared", formatted(s, {
        "rule": "rule", "players": "players", "legal pairs": "legal_pairs", "games": "games",
        f"{STRONG} reach rate [95% CI]": lambda r: ci(r, "reach", "reach_lo", "reach_hi"), "round reached": lambda r: num(r["round"], 1),
        f"{STRONG} points": lambda r: num(r["points"]), f"score gap {STRONG}-{WEAK}": lambda r: num(r["score_gap"]),
        "shared wins": lambda r: pct(r["tie_rate"]), "rounds": lambda r: num(r["rounds"])}))
    rep.table("All beach-temple pairs (ring3)", listing(allp), show=False, name="pairs-ring3")
    rep.table("All beach-temple pairs (every rule)", listing(pd.concat(pairs.values(), ignore_index=True))
              .assign(rule=pd.concat([t["rule"] for t in pairs.values()], ignore_index=True)), show=False,
              name="pairs-all-rules")
    colour = pd.concat([explorers(runs[("ring3", n)].frame()) for n in PLAYERS])
    colour = colour[colour["strategy"] == STRONG].groupby(["players", "colour"])["reached"].agg(["sum", "count"]).reset_index()
    colour["rate"], colour["lo"], colour["hi"] = zip(*[(e.value, e.lo, e.hi) for e in
                                                       (proportion(k, m) for k, m in zip(colour["sum"], colour["count"]))])
    rep.table("Reach rate by explorer colour (ring3)", formatted(colour, {
        "players": "players", "colour": "colour", "explorers": "count", "reach rate [95% CI]": lambda r: ci(r, "rate")}),
        note="Karuba treats the colours alike and the heuristics break ties by position, never by colour "
             "(tested with colour swaps at a fixed setup), so the colours should agree within their intervals; "
             "pairs pool all colours.")
    rep.findings.append("No seat verdict here: these runs mix strategies, and seat fairness is read only from mirror "
                        "matches (see the Karuba overview).")
    reach = {n: Estimate(base[("ring3", n)]["reach"], base[("ring3", n)]["reach_lo"], base[("ring3", n)]["reach_hi"],
                         0, "Wilson") for n in PLAYERS}
    rep.bottom_line = [
        f"With the default distance rule (ring3) {STRONG}'s explorer reaches its temple in "
        + join([f"{fmt_estimate(reach[n])} of cases at {n} players" for n in PLAYERS]) + ".",
        ("Placement matters for some pairs: " + join([f"{k} of {m} legal beach-temple pairs at {n} players"
                                                      for n, (k, m) in unusual.items()])
         + f" have a reach rate whose whole interval lies more than {SETUP_BAND * 100:g} points from the average pair."
         if any(k for k, _ in unusual.values()) else
         f"No legal beach-temple pair has a reach rate whose whole interval lies more than {SETUP_BAND * 100:g} points "
         "from the average pair, at any player count."),
        f"The other readings of the distance rule change that reach rate at {PLAYERS[-1]} players by "
        + join([f"{fmt_estimate(rule_change[(rule, PLAYERS[-1])], POINTS)} ({rule})" for rule in RULES[1:]]) + ".",
    ]
    rep.rests_on = sections.rests_on(ctx.runs, " (rotated through the seats)",
                                     only=("distance_rule", "beach_step", "temple_step")) + [
        "Setups drawn at random among legal ones, not chosen by players."]
    rep.caveats.append(f"Seats: {STRONG} (strong heuristic), {', '.join(MIDDLE)} (middling heuristics, 3-4 players) and "
                       f"{WEAK} (no skill), rotated through the seats. 'Skill gap' compares {STRONG} with {WEAK} in "
                       "the same game, on the same island setup and tile order (paired).")
    rep.caveats.append("Pair measures pool the four explorers of every game; a pair's game-level numbers (points, "
                       "score gap, shared wins, length) also reflect the game's three other, randomly drawn pairs.")
    rep.caveats.append("Setups are drawn uniformly per colour among legal spaces by rejection (the engine's setup); "
                       "human players choose setups, which this experiment does not model.")
    return rep


EXPERIMENT = Experiment("karuba-temples", "Karuba: explorer and temple placement",
                        "How beach-temple positions shape reach rates, timing, points, ties and the value of skill; "
                        "heat maps over beach x temple; the distance rule's readings compared.", analyse,
                        game="karuba", players=PLAYERS)
