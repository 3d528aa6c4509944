"""Karuba: which beach-temple placements make a good game?

Every player copies the setup, so a placement is unfair to no one: it makes a better or a worse
game for everybody. The experiment therefore measures game quality per beach-temple pair: how
often a well-played explorer reaches its temple and in which round, how long the game lasts, and
the planning gap (the strong planner's reach rate minus the middling heuristics' on the same pair
and tile order: does the pair reward planning?).

Design, and why:

* **Mirror games, one per heuristic, on the same seed.** The islands never interact except
  through the temple-token race and the game's end; in a mirror the identical players make the
  same moves, arrive together and end the game together, so a pair is measured on its own,
  undisturbed by a rival who ends the game early or takes a token first. Games are then the same
  at every player count (``test_karuba_mirror_games_do_not_depend_on_the_player_count``), so
  one player count (2) serves all. The builder, racer and collector mirrors share the root seed,
  and Karuba draws the setup and the tile order from their own streams, so game ``g`` has the
  same setup and tiles in all three: the planning gap is paired by game and colour.
* **No random play.** Random play measures skill against no skill, which mostly follows how easy
  a pair is; the gap between real heuristics is the quality measure (does planning pay here?).
* Every game draws its setup at random among legal ones, so one run samples all beach-temple
  pairs (four explorers per game).
* **Quality band**: a pair is ordinary if its reach rate lies within ``QUALITY_HALF_WIDTH`` (10
  percentage points) of the average drawn pair's: one explorer stranded in one more (or fewer)
  game in ten is a difference a playtester notices. The report counts the pairs whose whole
  interval lies outside the band. The easiest and hardest pairs are listed as information: picked
  as the extremes, they lie far from the average by construction.
* **The geometric rule**: each pair's geometry (how many squares apart the explorer's first square
  and the temple's square are, steps apart along the numbered edge, opposite or adjacent coasts,
  corner squares, turns a route needs) against its reach rate, by weighted least squares over
  the pairs (weights: explorers), with R^2.
* **Sensitivity**: the same runs under the other readings of ``temple_step`` (entering the temple
  free) and ``distance_rule`` (ring4, label30), on the same seed, so reach and length changes are
  paired by game.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from simlab.core.intervals import Z95
from simlab.games.karuba.components import COLS, N_CELLS, N_EDGE
from simlab.games.karuba.rules import BEACH_CELL, TEMPLE_CELL
from simlab.measures.stats import LEVEL, Estimate, mean, paired_difference, proportion, z_of
from simlab.report import sections
from simlab.report import rechecks
from simlab.report.charts import dot_interval, new_figure, tip, yerr
from simlab.report.page import Ci, Num, fields, formatted, md_escape
from simlab.report.wording import NUMBER, POINTS, SHARE, TIE, Band, compare, difference, fmt_estimate, fmt_share, join
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment

COLOURS = ("brown", "blue", "purple", "yellow")
HEURISTICS = ("builder", "racer", "collector")
STRONG, MIDDLE = HEURISTICS[0], HEURISTICS[1:]
MIRROR_PLAYERS = 2          # a mirror game is the same at every player count; 2 is the cheapest
DEFAULT = "default"
READINGS = {DEFAULT: {}, "temple_step 0": {"temple_step": 0}, "distance_rule ring4": {"distance_rule": "ring4"},
            "distance_rule label30": {"distance_rule": "label30"}}
QUALITY_HALF_WIDTH = 0.10   # a pair is ordinary if its reach rate is within 10 points of the average pair's
NEAR, FAR = 3, 8            # the rule's groups: at most NEAR squares apart, at least FAR
LABELS = list(range(10, 10 * N_EDGE + 1, 10))
CORNERS = (0, COLS - 1, N_CELLS - COLS, N_CELLS - 1)   # the NW, NE, SW and SE squares
FEATURES = {
    "squares_apart": "squares apart (Manhattan distance from the explorer's first square to the temple's square)",
    "edge_steps": "steps apart along the 22 numbered edge spaces",
    "opposite_coasts": "beach and temple on opposite sides (west-east or south-north), not round one corner",
    "turns": "fewest turns a route needs (0, 1 or 2)",
    "corner_beach": "the explorer's first square is a corner square",
    "corner_temple": "the temple's square is a corner square",
}


def geometry(beach, temple) -> pd.DataFrame:
    """Each pair's geometry on the island (docs/rules/karuba.md section 2): beach labels 10..50 lie
    west of rows 1-5, 60..110 south of columns 1-6; temple labels 10..60 north of columns 1-6,
    70..110 east of rows 1-5. Squares are (row, column) from the north-west, 0-based."""
    b = np.asarray(beach, dtype=np.int64) // 10 - 1
    t = np.asarray(temple, dtype=np.int64) // 10 - 1
    bcell, tcell = np.asarray(BEACH_CELL)[b], np.asarray(TEMPLE_CELL)[t]   # the rules keep them as tuples (kernel constants)
    br, bc = np.divmod(bcell, COLS)
    tr, tc = np.divmod(tcell, COLS)
    west, north = b < 5, t < 6
    # round the edge: beach i sits at position i, temple j at 2 * N_EDGE - 1 - j (the ring runs
    # down the west coast, along the south, up the east edge and back along the north)
    d = 2 * N_EDGE - 1 - t - b
    opposite = west != north
    aligned = np.where(west, br == tr, bc == tc)
    return pd.DataFrame({
        "beach_square": [f"r{r + 1}c{c + 1}" for r, c in zip(br, bc)],
        "temple_square": [f"r{r + 1}c{c + 1}" for r, c in zip(tr, tc)],
        "squares_apart": np.abs(br - tr) + np.abs(bc - tc),
        "edge_steps": np.minimum(d, 2 * N_EDGE - d),
        "opposite_coasts": opposite,
        "turns": np.where(opposite, np.where(aligned, 0, 2), 1),
        "corner_beach": np.isin(bcell, CORNERS),
        "corner_temple": np.isin(tcell, CORNERS),
    })


def explorers(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game and colour of a mirror run (seat 0: every seat plays the same game):
    the colour's beach and temple, reached or not, when, and the game's length."""
    first = frame[frame["seat"] == 0]
    parts = []
    for c in COLOURS:
        d = first[["game", f"beach_{c}", f"temple_{c}", f"home_round_{c}", "rounds"]]
        parts.append(d.set_axis(["game", "beach", "temple", "round", "rounds"], axis=1).assign(colour=c))
    long = pd.concat(parts, ignore_index=True)
    long["reached"] = (long["round"] > 0).astype(float)
    return long


def mirrors(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The heuristics' explorers side by side, paired by game and colour (same seed: same setup)."""
    base = explorers(frames[STRONG])
    for h in MIDDLE:
        other = explorers(frames[h])[["game", "colour", "beach", "temple", "reached"]]
        base = base.merge(other.rename(columns={"reached": f"{h}_reached", "beach": "b2", "temple": "t2"}),
                          on=["game", "colour"], validate="one_to_one")
        if not ((base["b2"] == base["beach"]) & (base["t2"] == base["temple"])).all():
            raise ValueError(f"the {h} and {STRONG} mirrors have different setups: run them on the same seed")
        base = base.drop(columns=["b2", "t2"])
    base["middle_reached"] = base[[f"{h}_reached" for h in MIDDLE]].mean(axis=1)
    base["plan"] = base["reached"] - base["middle_reached"]
    base["round_r"] = base["round"].where(base["reached"] > 0)
    return base


def _normal(m: pd.Series, sd: pd.Series, n: pd.Series) -> tuple[pd.Series, pd.Series]:
    half = Z95 * sd.fillna(np.inf) / np.sqrt(n)
    return m - half, m + half


def pair_table(ex: pd.DataFrame) -> pd.DataFrame:
    """Per beach-temple pair: reach rates (Wilson), round reached, game length and planning gap
    (normal intervals), and the pair's geometry."""
    g = ex.groupby(["beach", "temple"])
    t = g.agg(explorers=("reached", "size"), reached=("reached", "sum"), round=("round_r", "mean"),
              round_sd=("round_r", "std"), n_round=("round_r", "count"), length=("rounds", "mean"),
              length_sd=("rounds", "std"), plan_gap=("plan", "mean"), plan_sd=("plan", "std"),
              **{f"{h}_reach": (f"{h}_reached", "mean") for h in MIDDLE}).reset_index()
    w = [proportion(k, n) for k, n in zip(t["reached"], t["explorers"])]
    t["reach"], t["reach_lo"], t["reach_hi"] = ([e.value for e in w], [e.lo for e in w], [e.hi for e in w])
    t["round_lo"], t["round_hi"] = _normal(t["round"], t["round_sd"], t["n_round"])
    t["length_lo"], t["length_hi"] = _normal(t["length"], t["length_sd"], t["explorers"])
    t["plan_lo"], t["plan_hi"] = _normal(t["plan_gap"], t["plan_sd"], t["explorers"])
    return pd.concat([t, geometry(t["beach"], t["temple"])], axis=1)


def quality(t: pd.DataFrame, average: float) -> tuple[Band, dict[str, int]]:
    """Every pair judged against the quality band around the average pair: counts by judgement."""
    band = Band.quality(average - QUALITY_HALF_WIDTH, average + QUALITY_HALF_WIDTH)
    counts = {"below": int((t["reach_hi"] < band.lo).sum()), "above": int((t["reach_lo"] > band.hi).sum())}
    counts["inside"] = int(((t["reach_lo"] >= band.lo) & (t["reach_hi"] <= band.hi)).sum())
    counts["undecided"] = len(t) - counts["below"] - counts["above"] - counts["inside"]
    counts["outside"] = counts["below"] + counts["above"]
    return band, counts


def fit(t: pd.DataFrame, features: list[str], column: str = "reach", level: float = LEVEL) -> dict:
    """Weighted least squares of a pair measure on geometric features (weights: explorers):
    coefficients with normal intervals (at ``level``) from the residual scatter, and R^2 (weighted)."""
    w = t["explorers"].to_numpy(float)
    y = t[column].to_numpy(float)
    x = np.column_stack([np.ones(len(t))] + [t[f].to_numpy(float) for f in features])
    sw = np.sqrt(w)
    coef, *_ = np.linalg.lstsq(x * sw[:, None], y * sw, rcond=None)
    res = y - x @ coef
    centre = np.average(y, weights=w)
    r2 = 1 - np.sum(w * res ** 2) / np.sum(w * (y - centre) ** 2)
    scale = np.sum(w * res ** 2) / max(1, len(t) - x.shape[1])
    se = np.sqrt(np.diag(np.linalg.pinv((x * w[:, None]).T @ x)) * scale)
    z = z_of(level)
    est = {f: Estimate(coef[i + 1], coef[i + 1] - z * se[i + 1], coef[i + 1] + z * se[i + 1], len(t), "WLS", level)
           for i, f in enumerate(features)}
    return {"features": features, "r2": float(r2), "coef": est, "intercept": float(coef[0])}


def noise_share(t: pd.DataFrame) -> float:
    """The share of the pair-to-pair variance of reach rates that sampling noise alone would give."""
    w = t["explorers"].to_numpy(float)
    p = t["reach"].to_numpy(float)
    total = np.average((p - np.average(p, weights=w)) ** 2, weights=w)
    return float(np.average(p * (1 - p) / w, weights=w) / total) if total else float("nan")


def by_distance(ex: pd.DataFrame, column: str = "squares_apart") -> pd.DataFrame:
    """Explorers pooled by a geometric feature: reach (Wilson) and planning gap (normal)."""
    ex = pd.concat([ex.reset_index(drop=True), geometry(ex["beach"], ex["temple"])[[column]]], axis=1)
    rows = []
    for v, d in ex.groupby(column):
        r, p = proportion(d["reached"].sum(), len(d)), mean(d["plan"])
        rows.append({column: v, "pairs": d.groupby(["beach", "temple"]).ngroups, "explorers": len(d), "reach": r.value,
                     "reach_lo": r.lo, "reach_hi": r.hi, "plan_gap": p.value, "plan_lo": p.lo, "plan_hi": p.hi,
                     "round": d["round_r"].mean(), "length": d["rounds"].mean(),
                     **{f"{h}_reach": d[f"{h}_reached"].mean() for h in MIDDLE}})
    return pd.DataFrame(rows)


def grouped(ex: pd.DataFrame, mask) -> dict[str, Estimate]:
    """Reach rate, planning gap and game length over the explorers in ``mask``."""
    d = ex[np.asarray(mask)]
    return {"reach": proportion(d["reached"].sum(), len(d)), "plan": mean(d["plan"]), "length": mean(d["rounds"])}


def pairs_word(n: int) -> str:
    return f"{n} pair" + ("" if n == 1 else "s")


def heatmaps(rep, tables: dict, column: str, title: str, caption: str, fmt, bar: str, cmap="viridis") -> None:
    """One heat map per table over beach x temple, in percent (shares) or percentage points
    (differences): ``fmt`` writes each cell's value, ``bar`` labels the colour bar with its unit."""
    keys = list(tables)
    fig, axes = new_figure(4.6 * len(keys) + 0.8, 4.4, ncols=len(keys))
    vals = pd.concat([tables[k][column] for k in keys]) * 100
    vmin, vmax = float(vals.min()), float(vals.max())
    for ax, key in zip(axes[0], keys):
        grid = tables[key].pivot(index="beach", columns="temple", values=column).reindex(index=LABELS, columns=LABELS) * 100
        im = ax.imshow(grid.to_numpy(float), cmap=cmap, vmin=vmin, vmax=vmax, origin="lower")
        ax.set_xticks(range(len(LABELS)), LABELS, fontsize=7)
        ax.set_yticks(range(len(LABELS)), LABELS, fontsize=7)
        ax.set_xlabel("temple space")
        ax.set_ylabel("beach space")
        ax.set_title(f"{title}, {key}", fontsize=9)
        for i, j in itertools.product(range(len(LABELS)), repeat=2):
            v = grid.iloc[i, j]
            if not pd.isna(v):
                light = (v - vmin) / ((vmax - vmin) or 1) > 0.6
                ax.text(j, i, fmt(v), ha="center", va="center", fontsize=5.5, color="black" if light else "white")
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label=bar)
    rep.chart(f"heatmap-{column}", fig, caption, title=f"Heat map: {title}")


def listing(t: pd.DataFrame, first: dict | None = None) -> pd.DataFrame:
    return formatted(t, {
        **(first or {}), "beach": "beach", "temple": "temple", "squares apart": "squares_apart", "edge steps": "edge_steps",
        "explorers": "explorers",
        f"{STRONG} reaches temple [95% CI]": Ci("reach", "reach_lo", "reach_hi"),
        "round reached [95% CI]": Ci("round", "round_lo", "round_hi", NUMBER, 1),
        **{f"{h} reaches": Num(f"{h}_reach", SHARE) for h in MIDDLE},
        f"planning gap {STRONG} - {'/'.join(MIDDLE)} [95% CI]": Ci("plan_gap", "plan_lo", "plan_hi", POINTS),
        "game length, rounds [95% CI]": Ci("length", "length_lo", "length_hi", NUMBER)})


def _reading(ctx: Context, name: str, params: dict) -> dict:
    """The three mirrors under one reading, and everything measured on them."""
    jobs = {h: (f"{h}-mirror-{name.replace(' ', '-')}", ctx.config(MIRROR_PLAYERS, (h,) * MIRROR_PLAYERS, params,
                                                                     rotate=False)) for h in HEURISTICS}
    ctx.ahead(jobs.values())
    runs = {h: ctx.run(*job) for h, job in jobs.items()}
    ex = mirrors({h: r.frame() for h, r in runs.items()})
    t = pair_table(ex)
    reach = proportion(ex["reached"].sum(), len(ex))
    band, counts = quality(t, reach.value)
    games = ex.drop_duplicates("game").set_index("game")
    return {"ex": ex, "pairs": t, "reach": reach, "band": band, "counts": counts, "plan": mean(ex["plan"]),
            "length": mean(games["rounds"]), "rounds": games["rounds"], "per_game": ex.groupby("game")["reached"].mean(),
            "planning": {k: int(sum(compare(Estimate(r.plan_gap, r.plan_lo, r.plan_hi, 0, "")) == k
                                    for r in t.itertuples())) for k in ("higher", "lower", TIE)},
            "fit": fit(t, ["squares_apart"])}


def stronger_rule(ctx: Context, player: str) -> rechecks.Recheck:
    """The headline rule with a stronger player in every seat (default readings, the same seed, so the
    same setups), until decided (:func:`strength.recheck`): whether distance lowers the reach rate,
    with its reach rate on the average drawn pair and the reach lost per square apart as detail."""
    def read(games: int, level: float):
        frame = ctx.run(f"{strength.run_tag(player)}-mirror-{DEFAULT}",
                        ctx.config(MIRROR_PLAYERS, (player,) * MIRROR_PLAYERS, rotate=False, games=games)).frame()
        ex = explorers(frame)
        t = ex.groupby(["beach", "temple"]).agg(explorers=("reached", "size"), reach=("reached", "mean")).reset_index()
        t = pd.concat([t, geometry(t["beach"], t["temple"])], axis=1)
        slope = fit(t, ["squares_apart"], level=level)["coef"]["squares_apart"]
        detail = {"reach": proportion(ex["reached"].sum(), len(ex)), "slope": slope, "games": ex["game"].nunique()}
        return compare(slope) == "lower", compare(slope) != TIE, detail, slope, Band.effect(0.0)
    return strength.recheck(ctx, "karuba", player, read)


def analyse(ctx: Context):
    rep = ctx.report("Karuba: which beach-temple placements make a good game",
                     "Every player copies the setup, so a placement is unfair to no one; it makes a better or worse "
                     "game. Per beach-temple pair: how often a well-played explorer reaches its temple and when, how "
                     f"long the game lasts, and whether the pair rewards planning ({STRONG} against {join(MIDDLE)} "
                     f"on the same setup and tiles). {ctx.games:,} games per mirror run; each game samples four pairs.")
    R = {name: _reading(ctx, name, params) for name, params in READINGS.items()}
    stronger = {s: stronger_rule(ctx, s) for s in strength.strong_players(ctx) if s not in HEURISTICS}
    d = R[DEFAULT]
    t, ex, counts, band = d["pairs"], d["ex"], d["counts"], d["band"]

    # the geometric rule
    single = {f: fit(t, [f]) for f in FEATURES}
    pairs2 = {f: fit(t, ["squares_apart", f]) for f in FEATURES if f != "squares_apart"}
    slope = single["squares_apart"]["coef"]["squares_apart"]
    geo = geometry(ex["beach"], ex["temple"])
    near, far = grouped(ex, geo["squares_apart"] <= NEAR), grouped(ex, geo["squares_apart"] >= FAR)
    r2 = single["squares_apart"]["r2"]
    second = max(pairs2.values(), key=lambda f: f["r2"])
    extra = second["features"][1]

    # findings: the average game, the band count, the rule, planning, the readings
    rep.verdict(f"Reach rate of {STRONG}'s explorers, average drawn pair (mirror games)", d["reach"])
    rep.verdict("Game length, rounds (all players bring their explorers home together in a mirror)", d["length"],
                unit=NUMBER)
    rep.findings.append(
        f"Of the {len(t)} legal beach-temple pairs, {counts['outside']} have a reach rate whose whole interval lies "
        f"outside the {band.describe()} (the average pair ±{QUALITY_HALF_WIDTH * 100:g} points; {counts['below']} below, {counts['above']} above); {counts['inside']} lie "
        f"wholly inside it and {counts['undecided']} are undecided (their interval crosses an edge).")
    groups = by_distance(ex)
    for r in groups.itertuples():
        rep.verdict(f"Pairs {r.squares_apart} squares apart ({r.pairs} pairs): {STRONG}'s explorer reaches its temple",
                    Estimate(r.reach, r.reach_lo, r.reach_hi, r.explorers, "Wilson"), d["reach"].value, band,
                    reference_label="average pair")
    rep.findings.append(
        f"The rule behind hard pairs: every square between the explorer's first square and its temple's square "
        f"costs {fmt_estimate(Estimate(-slope.value, -slope.hi, -slope.lo, 0, ''), POINTS).replace('+', '')} of "
        f"reach rate (weighted least squares over the {len(t)} pairs); this one feature explains R² = {r2:.2f} of the "
        f"pair-to-pair variation (sampling noise alone accounts for {noise_share(t):.0%} of it). The farthest pairs, "
        f"{t['squares_apart'].max()} squares apart, join opposite corners of the island ("
        + join([f"beach {r.beach} and temple {r.temple}" for r in t[t["squares_apart"] == t["squares_apart"].max()].itertuples()])
        + f"). Steps apart along the "
        f"edge explain R² = {single['edge_steps']['r2']:.2f} alone and add {pairs2['edge_steps']['r2'] - r2:+.2f} to "
        f"the distance in squares; the best second feature, {FEATURES[extra]}, adds {second['r2'] - r2:+.2f} "
        f"(coefficient {fmt_estimate(second['coef'][extra], POINTS)}).")
    rep.findings.append(
        f"Planning pays ({STRONG}'s reach rate above {join(MIDDLE)}'s average on the same setups and tiles) by "
        f"{fmt_estimate(d['plan'], POINTS)} on the average pair; pair by pair it is higher on {d['planning']['higher']}, "
        f"lower on {d['planning']['lower']} and a statistical tie on {d['planning'][TIE]} of the {len(t)} pairs.")
    changes = {}
    for name in READINGS:
        if name == DEFAULT:
            continue
        v = R[name]
        games = v["per_game"].index.intersection(d["per_game"].index)
        changes[name] = {
            "reach": paired_difference(v["per_game"].loc[games], d["per_game"].loc[games]),
            "length": paired_difference(v["rounds"].loc[games], d["rounds"].loc[games]),
            "plan": Estimate(v["plan"].value - d["plan"].value, np.nan, np.nan, 0, "")}
        c = v["counts"]
        rep.findings.append(
            f"{name} instead of the default: {STRONG}'s reach rate changes by {fmt_estimate(changes[name]['reach'], POINTS)} "
            f"(paired by game), game length by {fmt_estimate(changes[name]['length'], 'change')} rounds; planning gap "
            f"{fmt_estimate(v['plan'], POINTS)} (default {fmt_estimate(d['plan'], POINTS)}); {c['outside']} of "
            f"{len(v['pairs'])} legal pairs outside its quality band ({c['below']} below, {c['above']} above; default "
            f"{counts['outside']} of {len(t)}); R² of squares apart {v['fit']['r2']:.2f}.")

    # charts
    heatmaps(rep, {k: R[k]["pairs"] for k in READINGS}, "reach", f"{STRONG} reach rate",
             f"How often {STRONG}'s explorer reaches its temple in mirror games, by the explorer's beach space (rows) "
             "and its temple space (columns), under each reading; blank = a pair the reading makes illegal",
             lambda v: f"{v:.0f}", "share of explorers reaching their temple (%)")
    heatmaps(rep, {DEFAULT: t}, "plan_gap", "planning gap",
             f"Where planning pays: {STRONG}'s reach rate minus the average of {join(MIDDLE)}'s on the same pair, "
             "setups and tiles; default readings", lambda v: f"{v:+.0f}",
             "planning gap (percentage points)", cmap="magma")
    fig, axes = new_figure(12, 4.2, ncols=2)
    ax = axes[0][0]
    labels = list(groups["squares_apart"])
    rng = np.random.default_rng(0)
    for r in t.itertuples():
        x = labels.index(r.squares_apart) + rng.uniform(-0.25, 0.25)
        dot = ax.errorbar([x], [r.reach], yerr=yerr([r.reach], [r.reach_lo], [r.reach_hi]), fmt=".", ms=3,
                          color="#999999", lw=0.6)
        tip(dot.lines[0], f"beach {r.beach}, temple {r.temple}: {fmt_share(r.reach, r.reach_lo, r.reach_hi)}")
    fitted = single["squares_apart"]
    xs = np.array(labels, float)
    ax.plot(np.arange(len(labels)), fitted["intercept"] + slope.value * xs, color="#c0392b", lw=1,
            label=f"fit: {slope.value * 100:+.1f} points per square, R² {r2:.2f}")
    dot_interval(ax, labels, groups["reach"], groups["reach_lo"], groups["reach_hi"],
                 ylabel=f"{STRONG}'s explorers reaching their temple", xlabel="squares apart (beach square to temple square)",
                 reference=d["reach"].value, reference_label="average pair", band=band, label="pooled by distance",
                 what="{} squares apart")
    ax.set_title("Reach rate by distance (grey: single pairs)", fontsize=9)
    ax.legend(fontsize=7)
    dot_interval(axes[0][1], labels, groups["plan_gap"], groups["plan_lo"], groups["plan_hi"],
                 ylabel=f"planning gap {STRONG} - {'/'.join(MIDDLE)}", xlabel="squares apart (beach square to temple square)",
                 unit=POINTS, reference=0.0, reference_label="no gap", what="{} squares apart")
    axes[0][1].set_title("Planning gap by distance", fontsize=9)
    rep.chart("geometric-rule", fig, "The geometric rule: reach rate and planning gap against the distance in squares "
              "from the explorer's first square to its temple's square, pooled over the pairs at each distance, with "
              "95% intervals; default readings", title="The geometric rule behind hard pairs")
    others = [k for k in READINGS if k != DEFAULT]
    fig, axes = new_figure(13, 3.8, ncols=3)
    panels = (("reach", f"change in {STRONG}'s reach rate", POINTS), ("length", "change in game length (rounds)", NUMBER))
    for ax, (key, ylabel, unit) in zip(axes[0], panels):
        e = [changes[k][key] for k in others]
        dot_interval(ax, others, [x.value for x in e], [x.lo for x in e], [x.hi for x in e], ylabel=ylabel,
                     xlabel="reading (against the default, paired by game)", unit=unit, reference=0.0,
                     reference_label="default", what="{}")
    e = [R[k]["plan"] for k in READINGS]
    dot_interval(axes[0][2], list(READINGS), [x.value for x in e], [x.lo for x in e], [x.hi for x in e],
                 ylabel=f"planning gap {STRONG} - {'/'.join(MIDDLE)}", xlabel="reading", unit=POINTS, reference=0.0,
                 reference_label="no gap", what="{}")
    for ax, names in zip(axes[0], (others, others, list(READINGS))):
        ax.set_xticks(range(len(names)), [k.replace(" ", "\n") for k in names], fontsize=8)
    rep.chart("sensitivity", fig, "How the readings of temple_step and distance_rule move the reach rate, the game "
              "length and the planning gap, with 95% intervals (changes paired by game on the same seed)",
              title="Sensitivity to the temple_step and distance_rule readings")

    # tables
    rep.table("Reach rate and planning gap by distance in squares", formatted(groups, {
        "squares apart": "squares_apart", "pairs": "pairs", "explorers": "explorers",
        f"{STRONG} reaches temple [95% CI]": Ci("reach", "reach_lo", "reach_hi"),
        **{f"{h} reaches": Num(f"{h}_reach", SHARE) for h in MIDDLE},
        "planning gap [95% CI]": Ci("plan_gap", "plan_lo", "plan_hi", POINTS),
        f"round {STRONG} reaches it": Num("round", digits=1), "game length (rounds)": Num("length")}),
        note=f"Explorers pooled over the pairs at each distance; {band.describe()} (the average pair "
             f"±{QUALITY_HALF_WIDTH * 100:g} points).")
    rep.table("Geometric features and the reach rate", formatted(pd.DataFrame([{
        "feature": FEATURES[f], "r2": single[f]["r2"], **fields("effect", single[f]["coef"][f]),
        "r2_pairs": float("nan") if f == "squares_apart" else pairs2[f]["r2"], "alone": f == "squares_apart"} for f in FEATURES]), {
        "feature": "feature", "R² alone": Num("r2"), "effect alone (per unit) [95% CI]": Ci("effect", "effect_lo",
                                                                                         "effect_hi", POINTS),
        "R² with squares apart": Num("r2_pairs", blank=lambda r: r["alone"])}),
        note=f"Weighted least squares over the {len(t)} legal pairs (weights: explorers); intervals from the residual "
             f"scatter. Sampling noise alone gives {noise_share(t):.0%} of the pair-to-pair variance.")
    readings = pd.DataFrame([{
        "reading": k, "pairs": len(R[k]["pairs"]), **fields("reach", R[k]["reach"]),
        **{f"{h}_reach": R[k]["ex"][f"{h}_reached"].mean() for h in MIDDLE},
        **fields("change", changes[k]["reach"] if k != DEFAULT else R[k]["reach"]), "default": k == DEFAULT,
        **fields("length", R[k]["length"]), **fields("plan", R[k]["plan"]),
        "outside": R[k]["counts"]["outside"], "below": R[k]["counts"]["below"], "above": R[k]["counts"]["above"],
        "planning": R[k]["planning"]["higher"], "r2": R[k]["fit"]["r2"],
        **fields("per_square", R[k]["fit"]["coef"]["squares_apart"])} for k in READINGS])
    rep.table("Readings compared", formatted(readings, {
        "reading": "reading", "legal pairs": "pairs", f"{STRONG} reach rate [95% CI]": Ci("reach", "reach_lo", "reach_hi"),
        **{f"{h} reach rate": Num(f"{h}_reach", SHARE) for h in MIDDLE},
        "change, paired [95% CI]": Ci("change", "change_lo", "change_hi", POINTS, blank=lambda r: r["default"]),
        "game length [95% CI]": Ci("length", "length_lo", "length_hi", NUMBER),
        "planning gap [95% CI]": Ci("plan", "plan_lo", "plan_hi", POINTS),
        "pairs outside the quality band": "outside", "below it": "below", "above it": "above",
        "pairs where planning pays": "planning", "R² of squares apart": Num("r2"),
        "points per square [95% CI]": Ci("per_square", "per_square_lo", "per_square_hi", POINTS)}),
        note="Each reading's quality band is centred on its own average pair.")
    rep.table("Easiest pairs (highest reach rate)", listing(t.nlargest(8, "reach_lo")),
              note="Information, not a finding: ranked by the lower end of the interval; the extremes of "
                   f"{len(t)} pairs lie far from the average by construction.")
    rep.table("Hardest pairs (lowest reach rate)", listing(t.nsmallest(8, "reach_hi")),
              note="Information: ranked by the upper end of the interval.")
    rep.table("Pairs where planning pays most", listing(t.nlargest(8, "plan_lo")),
              note="Information: ranked by the lower end of the planning gap's interval.")
    allp = pd.concat([R[k]["pairs"].assign(reading=k) for k in READINGS], ignore_index=True)
    rep.table("All beach-temple pairs, every reading",
              listing(allp, first={"reading": "reading"}), show=False, name="pairs")

    c, free = counts, R["temple_step 0"]
    rep.findings[:0] = [
        f"Played well ({STRONG} in every seat; such games play alike at every player count), an explorer reaches its "
        f"temple in {fmt_estimate(d['reach'])} of cases on the average drawn pair, and {c['outside']} of the {len(t)} "
        f"legal beach-temple pairs lie wholly outside a quality band of ±{QUALITY_HALF_WIDTH * 100:g} points around "
        f"that ({c['below']} harder, {c['above']} easier).",
        f"Distance decides: each square between the explorer's first square and its temple's square costs "
        f"{-slope.value * 100:.1f} points [{-slope.hi * 100:.1f}, {-slope.lo * 100:.1f}] of reach (R² = {r2:.2f} over "
        f"the pairs; steps along the edge explain {single['edge_steps']['r2']:.2f}), so pairs at most {NEAR} squares "
        f"apart reach {fmt_estimate(near['reach'])} and pairs {FAR} or more apart {fmt_estimate(far['reach'])}, in "
        f"games longer by {fmt_estimate(difference(far['length'], near['length']), NUMBER)} rounds, where planning "
        f"pays more ({STRONG}'s edge over {join(MIDDLE)} {fmt_estimate(near['plan'], POINTS)} against "
        f"{fmt_estimate(far['plan'], POINTS)})" + ("; with stronger play the rule " + rechecks.agreement(
            True, stronger, words=lambda b: "distance does not decide")
            + " (" + "; ".join(f"{md_escape(s)} in every seat, {r.how()}: reach {fmt_estimate(r.detail['reach'])}, "
                               f"{-r.detail['slope'].value * 100:.1f} points [{-r.detail['slope'].hi * 100:.1f}, "
                               f"{-r.detail['slope'].lo * 100:.1f}] per square" for s, r in stronger.items()) + ")"
            if stronger else "") + ".",
        f"If stepping into the temple is free (`temple_step` 0), reach rises by "
        f"{fmt_estimate(changes['temple_step 0']['reach'], POINTS)}, games shorten by "
        f"{-changes['temple_step 0']['length'].value:.2f} rounds [{-changes['temple_step 0']['length'].hi:.2f}, "
        f"{-changes['temple_step 0']['length'].lo:.2f}] and {pairs_word(free['counts']['outside'])} instead of "
        f"{c['outside']} lie outside the band.",
    ]
    holds = ("; with stronger play this " + rechecks.agreement(True, stronger, words=lambda b: "distance does not decide")
        if stronger else "")
    rep.bottom_line = [
        f"Distance decides: each square between an explorer and its temple costs "
        f"{-slope.value * 100:.1f} points [{-slope.hi * 100:.1f}, {-slope.lo * 100:.1f}] of its chance to reach it.",
        f"So {c['outside']} of the {len(t)} legal pairs lie outside a ±{QUALITY_HALF_WIDTH * 100:g}-point quality band "
        f"around the average pair's {fmt_estimate(d['reach'])} reach ({c['below']} harder, {c['above']} easier){holds}.",
        f"A free step into the temple (`temple_step` 0) raises reach by "
        f"{fmt_estimate(changes['temple_step 0']['reach'], POINTS)} and leaves {pairs_word(free['counts']['outside'])} "
        "outside the band.",
    ]
    rep.rests_on = sections.rests_on(ctx.runs, " (mirror games, one heuristic in every seat)",
                                     only=("distance_rule", "beach_step", "temple_step")) + [
        "Setups drawn at random among legal ones, not chosen by players; pairs measured on their own, with the "
        "game's three other pairs drawn at random.",
        strength.rests_on(list(stronger), "karuba", ctx, list(stronger.values()))]
    rep.caveats.append(f"Mirror games: every seat plays the same heuristic, so all islands play out alike and the "
                       f"game does not depend on the player count ({MIRROR_PLAYERS} players are played). The "
                       f"{join(HEURISTICS)} mirrors share the seed, hence the setups and tile orders: the planning gap "
                       "is paired by game and colour. Races between different players are not measured here.")
    rep.caveats.append("A pair's round reached and game length also reflect the game's three other pairs.")
    rep.caveats.append("The geometric features are computed from the board (docs/rules/karuba.md section 2); "
                       "'squares apart' is the Manhattan distance between the square beside the beach space and the "
                       "square beside the temple space, so a route needs at least that many tiles plus one.")
    return rep


EXPERIMENT = Experiment("karuba-temples", "Karuba: which temple placements make a good game",
                        "Game quality per beach-temple pair in mirror games: reach rate, round reached, game length "
                        "and the planning gap between heuristics; the quality band's count, the geometric rule behind "
                        "hard pairs, and the temple_step and distance_rule readings compared.", analyse,
                        game="karuba", players=(2, 3, 4), options=strength.OPTIONS)
