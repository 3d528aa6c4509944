"""Loot Island: what the virtual player Allen does to the 2-player game.

Every 2-player comparison is run twice on common random numbers (``Context.compare``: same root
seed, games and seats, parameter ``allen`` on and off), and rows are paired by game id and seat:

* seat fairness from mirror matches only (every seat the same heuristic: hunter, collector and
  cautious): the start player's tie-split win share with and without Allen, and its paired change;
* the hunter mirror match (the strongest heuristic against itself): scores, crown crosses and
  places (who takes the first crown place: a player or Allen), how decisive games are (winning
  margin, close games, shared wins), eliminations split by cause (curses vs the healer fee);
* skill vs luck: hunter against random play, with and without Allen;
* heuristic vs heuristic: hunter against collector (the closest heuristic pair), with and without;
* whether using Allen pays: the hunter's ``allen_weight`` swept against a default hunter (Allen on),
  and, in the mirror match, win rate and score by how often a player used Allen's cards;
* the same measures at 3 players, where Allen does not play;
* stronger play (:mod:`simlab.studies.strength`): the search player and the tuned sets in mirror
  matches with and without Allen, which say whether the seat and score verdicts hold with them.
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd

from simlab.measures import fairness as F
from simlab.measures import balance as M
from simlab.measures.stats import LEVEL, Estimate, mean, paired_difference, proportion
from simlab.report import sections
from simlab.report.charts import dot_interval, integer_histogram, new_figure
from simlab.report.page import Ci, Num, formatted, num, pct
from simlab.report.rechecks import agreement
from simlab.report.wording import (CHANGE, NUMBER, POINTS, SHARE, TIE, Band, at_looks_level, best_of, compare,
                                   fmt_estimate, fmt_number, fmt_ratio, fmt_share, join, looks_levels, words_in)
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment

STRONG, SECOND, WEAK = "hunter", "collector", "random"
MIRRORS = (STRONG, SECOND, "cautious")   # every heuristic, each in a mirror match: the only fair test of seats
WEIGHTS = (0.0, 0.75, 1.5, 3.0)          # hunter's allen_weight values swept (1.5 is its default)
USE_BINS = (0, 1, 4, 8, 12, 16, 1000)    # allen_uses bins: 0, 1-3, 4-7, 8-11, 12-15, 16+
BAND = sections.SEAT_BAND
OFF = "Allen off"


ELIMINATED = {"elimination rate": (1, 2), "out by curses": (1,), "out by the healer fee": (2,)}


def with_out(frame: pd.DataFrame) -> pd.DataFrame:
    """Add 0/1 columns for being eliminated (any cause, by curses, by the healer fee) so they can be
    averaged and paired: the two causes rest on different data (the healer fee on ASSUMED cards)."""
    out = {k: frame["eliminated"].isin(codes).astype(int) for k, codes in ELIMINATED.items()}
    return frame.assign(**out, strategy=frame["strategy"].astype(str))


def crown_places(frame: pd.DataFrame) -> pd.DataFrame:
    """Per game, who holds the most crown crosses among the players still in (and Allen, if he plays):
    'a player alone', 'Allen alone', 'shared' or 'nobody' (no crosses at all)."""
    live = frame["crosses"].where(frame["eliminated"] == 0, 0)
    best = live.groupby(frame["game"]).max()
    n_best = (live.eq(frame["game"].map(best)) & live.gt(0)).groupby(frame["game"]).sum()
    allen = frame.loc[frame["seat"] == 0].set_index("game")["allen_crosses"].clip(lower=0)
    top = np.maximum(best, allen)
    holders = n_best.where(best == top, 0) + (allen.eq(top) & allen.gt(0)).astype(int)
    who = np.where(top == 0, "nobody", np.where(holders > 1, "shared",
                                                np.where((allen == top) & (allen > 0), "Allen alone", "a player alone")))
    return pd.DataFrame({"game": best.index, "first_place": who, "allen_crosses": allen.to_numpy(),
                         "best_player_crosses": best.to_numpy()})


def game_level(frame: pd.DataFrame) -> pd.DataFrame:
    """Per game: winning margin, close game (margin <= 1), shared win, nobody wins."""
    m = M.margins(frame).set_index("game")["margin"]
    shared = frame.groupby("game")["shared_win"].any()
    first = frame[frame["seat"] == 0].set_index("game")
    return pd.DataFrame({"margin": m, "close": (m <= 1).astype(float), "shared": shared.astype(float),
                         "no_winner": first["no_winner"].astype(float)})


def paired_games(a: pd.DataFrame, b: pd.DataFrame, column: str) -> Estimate:
    """Paired difference (b - a) of a game-level measure (frames from :func:`game_level`) over common game ids."""
    if not a.index.equals(b.index):
        raise ValueError("the two arms do not cover the same game ids")
    return paired_difference(b[column], a[column])


def start_player(frame: pd.DataFrame) -> pd.Series:
    """Per game, the start player's tie-split share of the win (a shared win counts 1/k)."""
    return frame.assign(ws=F.win_share(frame)).loc[lambda f: f["seat"] == 0].set_index("game")["ws"]


def start_change(arms, level: float = LEVEL) -> Estimate:
    """The paired change in the start player's win share without Allen (B - A) in a mirror's arms."""
    a, b = start_player(arms.base.frame()), start_player(arms.variant.frame())
    return paired_difference(b.loc[a.index], a, level)


def change_size(e: Estimate) -> str:
    """The change against the minimum effect that matters: smaller, larger or unsettled."""
    return ("smaller" if -BAND <= e.lo and e.hi <= BAND else "larger" if e.hi < -BAND or e.lo > BAND
            else "unsettled")


def mirror_seats(rep, mirrors: dict, three: pd.DataFrame, levels: dict[str, float] | None = None) -> pd.DataFrame:
    """Seat fairness from the mirror matches only: the start player's win share with and without
    Allen (fair = exactly 1/n) and its paired change, per heuristic; the 3-player hunter mirror for
    comparison. At 2 players the second seat's share is the first's mirror image: judged once. A
    stronger player's recheck reads its mirror at the level of its looks (``levels``)."""
    rows, effect, levels = [], Band.effect(BAND), levels or {}
    for s, arms in mirrors.items():
        on, off = arms.base.frame(), arms.variant.frame()
        level = levels.get(s, LEVEL)
        at = at_looks_level(level)
        for arm, f in (("with Allen", on), ("without Allen", off)):
            r = F.seat_shares(f, level).query("seat == 1").iloc[0]
            e = Estimate(r["win_share"], r["fair_lo"], r["fair_hi"], int(r["games"]), "clustered by game", level)
            rep.verdict(f"Start player's win share, 2 players {arm}, {s} mirror{at}", e, r["fair"],
                        Band.fairness(r["fair"], BAND))
            rows.append({"strategy": s, "arm": arm, "players": 2, "win_share": e.value, "lo": r["lo"], "hi": r["hi"],
                         "games": e.n, "fair": r["fair"]})
        a, b = start_player(on), start_player(off)
        d = start_change(arms, level)
        rep.verdict(f"{OFF}, {s} mirror: change in the start player's win share ({fmt_share(a.mean())} -> "
                    f"{fmt_share(b.mean())}), paired by game{at}", d, 0.0, effect, unit=POINTS)
        rows.append({"strategy": s, "arm": "change (without - with)", "players": 2, "win_share": d.value,
                     "lo": d.lo, "hi": d.hi, "games": d.n, "fair": 0.0})
    r = F.seat_shares(three).query("seat == 1").iloc[0]
    e = Estimate(r["win_share"], r["fair_lo"], r["fair_hi"], int(r["games"]), "clustered by game")
    rep.verdict(f"Start player's win share, 3 players (no Allen), {STRONG} mirror", e, r["fair"],
                Band.fairness(r["fair"], BAND))
    rows.append({"strategy": STRONG, "arm": "3 players (no Allen)", "players": 3, "win_share": e.value, "lo": r["lo"],
                 "hi": r["hi"], "games": e.n, "fair": r["fair"]})
    t = pd.DataFrame(rows)
    fig, axes = new_figure(6.5, 3.8)
    for i, arm in enumerate(("with Allen", "without Allen")):
        g = t[t["arm"] == arm]
        dot_interval(axes[0][0], list(g["strategy"]), g["win_share"], g["lo"], g["hi"], ylabel="start player's win share",
                     xlabel="strategy in every seat (2 players)", label=arm, offset=(i - 0.5) * 0.18,
                     reference=0.5 if i == 0 else None, band=Band.fairness(0.5, BAND) if i == 0 else None,
                     what=f"{arm}, {{}} mirror")
    axes[0][0].legend(fontsize=7)
    rep.chart("start-player", fig, "The start player's win share in 2-player mirror matches (every seat the same "
              "heuristic; a shared win split), with and without Allen, 95% intervals" + looks_levels(levels)
              + f"; green: fairness band (50% ± {BAND * 100:g} points)",
              title="Seat fairness: the start player with and without Allen")
    return t


def by_uses(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean score of seats grouped by how often they played Allen's cards."""
    labels = [f"{a}-{b - 1}" if b - a > 1 else f"{a}" for a, b in pairwise(USE_BINS)]
    labels[-1] = f"{USE_BINS[-2]}+"
    f = frame.assign(uses=pd.cut(frame["allen_uses"], USE_BINS, right=False, labels=labels))
    rows = []
    for k, g in f.groupby("uses", observed=True):
        e = proportion(int(g["win"].sum()), len(g))
        s = mean(g["score"])
        rows.append({"uses": str(k), "seats": len(g), "win_rate": e.value, "lo": e.lo, "hi": e.hi,
                     "score": s.value, "score_lo": s.lo, "score_hi": s.hi})
    return pd.DataFrame(rows)


def seat_change(ctx: Context, s: str):
    """A recheck's look at ``s``'s mirror with and without Allen: the start player's change against
    the minimum effect that matters, decided unless unsettled; the mirror's arms as detail."""
    def read(games: int, level: float):
        arms = ctx.compare(f"mirror-{s}", ctx.config(2, (s, s), {"allen": True}, games=games), {"allen": False},
                           label="no-allen")
        change = start_change(arms, level)
        size = change_size(change)
        return size, size != "unsettled", arms, change, Band.effect(BAND)
    return read


def analyse(ctx: Context):
    rep = ctx.report("Loot Island: Allen's effect on the 2-player game",
                     "Does the virtual player Allen change who wins, how decisive games are, how much skill "
                     "matters, and does playing his cards pay? Every 2-player setup is played with and without "
                     f"Allen on common random numbers (paired by game id and seat); {ctx.games:,} games per run. "
                     "The 3-player game (no Allen) is shown for comparison. The scores rest on ASSUMED component "
                     "data (healer cards, islet values, map-card symbols, crown prizes 4th-5th; see the caveats): "
                     "healer fees and islets shape scores and eliminations, so the size of the effects may move "
                     "with them.")
    extra = [s for s in strength.strong_players(ctx) if s not in MIRRORS]    # stronger players
    first = {f"mirror-{s}": ctx.config(2, (s, s), {"allen": True}, games=strength.strong_games(ctx, "loot-island", s))
             for s in extra}
    pairs = {**{f"mirror-{s}": ctx.config(2, (s, s), {"allen": True}) for s in MIRRORS},
             "skill": ctx.config(2, (STRONG, WEAK), {"allen": True}), "h2h": ctx.config(2, (STRONG, SECOND), {"allen": True})}
    singles = {**{f"weight-{w:g}": ctx.config(2, (f"{STRONG}:allen_weight={w:g}", STRONG), {"allen": True}) for w in WEIGHTS},
               "mirror-3p": ctx.config(3, (STRONG,) * 3), "skill-3p": ctx.config(3, (STRONG, WEAK, WEAK))}
    ctx.ahead([job for p, c in {**pairs, **first}.items() for job in ctx.compare_jobs(p, c, {"allen": False}, "no-allen")]
              + list(singles.items()))   # every run queued at once: a cluster plays them side by side
    arms = {p: ctx.compare(p, c, {"allen": False}, label="no-allen") for p, c in pairs.items()}
    rechecks = {s: strength.recheck(ctx, "loot-island", s, seat_change(ctx, s)) for s in extra}
    mirrors = {**{s: arms[f"mirror-{s}"] for s in MIRRORS}, **{s: r.detail for s, r in rechecks.items()}}
    strong_games = {s: r.games for s, r in rechecks.items()}
    mirror, skill, h2h = mirrors[STRONG], arms["skill"], arms["h2h"]
    sweep = {w: ctx.run(f"weight-{w:g}", singles[f"weight-{w:g}"]) for w in WEIGHTS}
    three, skill3 = ctx.run("mirror-3p", singles["mirror-3p"]), ctx.run("skill-3p", singles["skill-3p"])

    on, off, f3 = with_out(mirror.base.frame()), with_out(mirror.variant.frame()), with_out(three.frame())
    arms = {"2p with Allen": on, "2p without Allen": off, "3p (no Allen)": f3}

    # 1. seats, from the mirror matches only; then the paired effect on scores, crosses and
    # eliminations by cause in the hunter mirror
    seats = mirror_seats(rep, mirrors, f3, {s: r.level for s, r in rechecks.items()})
    table = sections.variant_effect(rep, on, off, f"{OFF} ({STRONG} vs {STRONG})", by_seat=False,
                                    columns=("score", "crosses", "gold_crown", "n_crown", "curses", *ELIMINATED))
    stronger = {s: sections.variant_effect(rep, with_out(mirrors[s].base.frame()), with_out(mirrors[s].variant.frame()),
                                           f"{OFF} ({s} vs {s})", by_seat=False, columns=("score", *ELIMINATED))
                for s in extra}

    # 2. crown places: who takes the first place
    places = {k: crown_places(f) for k, f in arms.items()}
    for k, p in places.items():
        if k == "2p with Allen":
            n = len(p)
            e = proportion(int((p["first_place"] == "Allen alone").sum()), n)
            rep.verdict(f"{k}: Allen alone takes the first crown place (25 gold that no player gets)", e,
                        note=f"shared with a player in {pct((p['first_place'] == 'shared').mean())} of games; "
                             f"Allen collects {p['allen_crosses'].mean():.2f} crosses per game against "
                             f"{on['crosses'].mean():.2f} per player")
    crowns = pd.concat([p["first_place"].value_counts(normalize=True).rename(k) for k, p in places.items()], axis=1)
    crowns = crowns.reindex(["a player alone", "Allen alone", "shared", "nobody"]).fillna(0.0)

    # 3. how decisive games are (paired per game)
    games = {k: game_level(f) for k, f in arms.items()}     # per game: margin, close, shared, no winner
    g_on, g_off, g3 = games["2p with Allen"], games["2p without Allen"], games["3p (no Allen)"]
    for col, what in (("close", "close games (winning margin 0 or 1)"), ("shared", "shared wins"),
                      ("margin", "mean winning margin")):
        d = paired_games(g_on, g_off, col)
        base_v, var_v = g_on[col].mean(), g_off[col].mean()
        if sections.constant_in_both(g_on[col], g_off[col]):
            rep.findings.append(f"{what.capitalize()}: {fmt_share(base_v)} with and without Allen (never varies).")
            continue
        pc = col != "margin"
        rep.verdict(f"{OFF}: change in {what} ({fmt_ratio(base_v, var_v) if pc else f'{num(base_v)} -> {num(var_v)}'}), "
                    "paired by game", d, 0.0, Band.effect(BAND) if pc else None, unit=POINTS if pc else CHANGE)
    rep.verdict("3 players (no Allen): close games (winning margin 0 or 1)",
                proportion(int(g3["close"].sum()), len(g3)),
                note=f"2 players: {pct(g_on['close'].mean())} with Allen, {pct(g_off['close'].mean())} without")

    # 4. skill vs luck and heuristic vs heuristic, with and without Allen
    skill_rows, changes = [], {}
    for arms2, opp in ((skill, WEAK), (h2h, SECOND)):
        a, b = with_out(arms2.base.frame()), with_out(arms2.variant.frame())
        ma, mb = a[a["strategy"] == STRONG], b[b["strategy"] == STRONG]
        j = ma.merge(mb, on=["game", "seat"], suffixes=("_a", "_b"), validate="one_to_one")
        d = paired_difference(j["win_b"].astype(float), j["win_a"].astype(float))
        strong = STRONG
        wa, wb = ma["win"].mean(), mb["win"].mean()
        rep.verdict(f"{OFF}: change in {strong}'s win rate against {opp} ({fmt_ratio(wa, wb)}), paired",
                    d, 0.0, Band.effect(BAND), unit=POINTS)
        changes[opp] = (d, wa, wb)
        for arm, f in (("with Allen", a), ("without Allen", b)):
            s = M.skill_share(f, strong).iloc[0]
            skill_rows.append({"match": f"{strong} vs {opp}", "arm": arm, **s.to_dict()})
    s3 = M.skill_share(with_out(skill3.frame()), STRONG).iloc[0]
    skill_rows.append({"match": f"{STRONG} vs {WEAK} x2 (3 players)", "arm": "no Allen", **s3.to_dict()})
    skills = pd.DataFrame(skill_rows)
    for r in skills.itertuples():
        if r.match.startswith(f"{STRONG} vs {WEAK}"):
            rep.verdict(f"Skill share ({STRONG} vs random play; 0 = pure luck, 1 = the heuristic always wins), "
                        f"{r.players} players, {r.arm}", Estimate(r.skill, r.skill_lo, r.skill_hi, int(r.games),
                                                                  "Wilson, transformed"), unit=NUMBER,
                        note=f"{STRONG} wins {pct(r.win_rate)} against a fair {pct(r.fair)}")

    # 5. does using Allen pay? the allen_weight sweep (causal) and wins by allen_uses (association)
    wrows = []
    for w, run in sweep.items():
        f = with_out(run.frame())
        t = f[f["strategy"] == f"{STRONG}:allen_weight={w:g}"]
        e = proportion(int(t["win"].sum()), len(t))
        wrows.append({"weight": w, "seats": e.n, "win_rate": e.value, "lo": e.lo, "hi": e.hi,
                      "fair": M.fair_rate(f), "uses": t["allen_uses"].mean(),
                      "opp_uses": f.loc[f["strategy"] != t["strategy"].iloc[0], "allen_uses"].mean(),
                      "score": t["score"].mean(), "opp_score": f.loc[f.index.difference(t.index), "score"].mean()})
    weights = pd.DataFrame(wrows)
    for r in weights.itertuples():
        if r.weight != 1.5:
            rep.verdict(f"{STRONG} with allen_weight={r.weight:g} against a default {STRONG} (allen_weight=1.5): win "
                        "rate", Estimate(r.win_rate, r.lo, r.hi, r.seats, "Wilson"), r.fair,
                        Band.effect(BAND, around=r.fair), reference_label="even match",
                        note=f"it plays Allen's cards {r.uses:.1f} times per game, its opponent {r.opp_uses:.1f}")
    uses = by_uses(on)
    rep.findings.append(f"Allen's cards are played {on['allen_uses'].mean():.1f} times per player and game in the "
                        f"{STRONG} mirror match (share of players who never use him: "
                        f"{pct((on['allen_uses'] == 0).mean())}); in {STRONG} vs {WEAK} "
                        + ", ".join(f"{k} {v:.1f}" for k, v in with_out(skill.base.frame()).groupby("strategy")
                                    ["allen_uses"].mean().items()) + ".")

    # charts
    fig, axes = new_figure(13, 3.6, ncols=3)
    integer_histogram(axes[0][0], {k: f["score"] for k, f in arms.items()}, of="seats",
                      xlabel="score (gold; eliminated = 0)")
    integer_histogram(axes[0][1], {k: M.margins(f)["margin"] for k, f in arms.items()}, xlabel="winning margin (gold)")
    for i, (k, p) in enumerate(places.items()):
        counts = p["first_place"].value_counts()
        e = [proportion(int(counts.get(c, 0)), len(p)) for c in crowns.index]
        e = [x if c != "Allen alone" or k == "2p with Allen" else Estimate(np.nan, np.nan, np.nan, 0, "")
             for x, c in zip(e, crowns.index)]         # no point for Allen where he does not play
        dot_interval(axes[0][2], list(crowns.index), [x.value for x in e], [x.lo for x in e], [x.hi for x in e],
                     ylabel="share of games", xlabel="who holds the most crown crosses", label=k, offset=(i - 1) * 0.2,
                     what="first crown place: {}")
    axes[0][2].tick_params(axis="x", labelsize=7)
    for ax in axes[0]:
        ax.legend(fontsize=7)
    rep.chart("scores-margins-crowns", fig, f"{STRONG} mirror match: score and winning-margin distributions and "
              "who takes the first crown place (95% intervals), 2 players with and without Allen and 3 players",
              title="Scores, margins and crown places")
    fig, axes = new_figure(11, 3.6, ncols=2)
    fair = weights["fair"].iloc[0]
    dot_interval(axes[0][0], [f"{w:g}" for w in weights["weight"]], weights["win_rate"], weights["lo"], weights["hi"],
                 ylabel="win rate", xlabel=f"{STRONG}'s allen_weight (opponent: default {STRONG}, 1.5)", reference=fair,
                 reference_label="even match", band=Band.effect(BAND, around=fair), what="allen_weight {}")
    axes[0][0].set_title("does playing Allen's cards pay?")
    dot_interval(axes[0][1], list(uses["uses"]), uses["win_rate"], uses["lo"], uses["hi"], ylabel="win rate",
                 xlabel="turns the player played Allen's cards", reference=M.fair_rate(on), what="{} Allen uses")
    axes[0][1].set_title(f"{STRONG} mirror match, by Allen uses (association)")
    for ax in axes[0]:
        ax.legend(fontsize=7)
    rep.chart("allen-use", fig, "Left: win rate of a hunter with the given allen_weight against a default hunter "
              "(causal: only the weight differs); right: win rate of seats by how often they played Allen's cards "
              "in the mirror match (an association: players use Allen when it suits their position). 95% intervals.",
              title="Does using Allen pay?")
    fig, axes = new_figure(6.5, 3.6)
    arms3 = ["2p with Allen", "2p without Allen", "3p (no Allen)"]
    cells = {f"against {WEAK} play": [(f"{STRONG} vs {WEAK}", "with Allen"), (f"{STRONG} vs {WEAK}", "without Allen"),
                                      (f"{STRONG} vs {WEAK} x2 (3 players)", "no Allen")],
             f"against {SECOND}": [(f"{STRONG} vs {SECOND}", "with Allen"), (f"{STRONG} vs {SECOND}", "without Allen"),
                                   None]}
    by = skills.set_index(["match", "arm"])
    for i, (label, keys) in enumerate(cells.items()):
        rows = [by.loc[k] if k is not None else None for k in keys]
        pick = [[np.nan if r is None else r[c] for r in rows] for c in ("win_rate", "lo", "hi")]
        dot_interval(axes[0][0], arms3, *pick, ylabel=f"{STRONG}'s win rate", xlabel="game", label=label,
                     offset=(i - 0.5) * 0.15, what=f"{STRONG}'s win rate, {{}}")
    axes[0][0].legend(fontsize=7)
    rep.chart("skill", fig, f"How much strategy matters: {STRONG}'s win rate against random play and against "
              f"{SECOND}, with and without Allen (3 players: against two random players; no Allen), 95% intervals",
              title="How much strategy matters")

    # tables
    rep.table("The start player's win share in mirror matches", formatted(seats, {
        "heuristic (every seat)": "strategy", "arm": "arm", "players": "players", "games": "games",
        "win share [95% CI]": Ci("win_share", unit=lambda r: POINTS if r["fair"] == 0 else SHARE),
        "fair": Num("fair", SHARE, blank=lambda r: r["fair"] == 0)}),
        note="Win share: a shared win counts 1/k for each of k winners, so the fair share is exactly 1/n. The "
             "change rows are paired by game (same deal with and without Allen), in percentage points.")
    rep.table("Who holds the most crown crosses (share of games)",
              formatted(crowns.reset_index(names="first crown place"), {
                  "first crown place": "first crown place", **{c: Num(c, SHARE) for c in crowns.columns}}),
              note="Among players still in (eliminated players take no crown place) and Allen; 'shared' = a tie for "
                   "the most crosses (the places' prizes are shared, rounded down).")
    summary = []
    for k, f in arms.items():
        g = games[k]
        summary.append({"arm": k, "games": len(g), "score": f["score"].mean(), "winner score": f.loc[f["win"], "score"].mean(),
                        "crosses": f["crosses"].mean(), "crown gold": f["gold_crown"].mean(),
                        "eliminated": f["elimination rate"].mean(), "margin": g["margin"].mean(), "close": g["close"].mean(),
                        "shared": g["shared"].mean(), "allen uses": f["allen_uses"].mean()})
    rep.table("The hunter mirror match, arm by arm", formatted(pd.DataFrame(summary), {
        "arm": "arm", "games": "games", "mean score": Num("score"),
        "winner's score": Num("winner score"), "crosses per player": Num("crosses"),
        "crown gold per player": Num("crown gold"), "eliminated": Num("eliminated", SHARE),
        "mean margin": Num("margin"), "close games": Num("close", SHARE),
        "shared wins": Num("shared", SHARE), "Allen uses per player": Num("allen uses")}))
    dist = pd.concat([M.score_distribution(f).assign(players=k) for k, f in arms.items()], ignore_index=True)
    rep.table("Scores (eliminated players score 0)", sections._dist_table(dist.rename(columns={"players": "arm"})
                                                                         .assign(players=dist["players"]), {"who": "who"}))
    rep.table("Skill vs luck and heuristic vs heuristic", formatted(skills, {
        "match": "match", "arm": "arm", "games": "games", f"{STRONG} win rate [95% CI]": Ci("win_rate"),
        "fair": Num("fair", SHARE), "skill share [95% CI]": Ci("skill", "skill_lo", "skill_hi", NUMBER),
        "score gap": Num("score_gap")}), note="skill share = (win rate - fair) / (1 - fair).")
    rep.table(f"{STRONG}'s allen_weight against a default {STRONG} (Allen on)", formatted(weights, {
        "allen_weight": "weight", "seats": "seats", "win rate [95% CI]": Ci("win_rate"),
        "fair": Num("fair", SHARE), "Allen uses": Num("uses", digits=1),
        "opponent's Allen uses": Num("opp_uses", digits=1), "mean score": Num("score"),
        "opponent's score": Num("opp_score")}))
    rep.table("Win rate and score by Allen uses (hunter mirror match)", formatted(uses, {
        "Allen uses": "uses", "seats": "seats", "win rate [95% CI]": Ci("win_rate"),
        "mean score [95% CI]": Ci("score", "score_lo", "score_hi", NUMBER)}))
    rep.table(f"{OFF}: all paired differences", formatted(table, {
        "measure": "column", "seat": lambda r: "" if r["group"] == () else int(r["group"]) + 1, "n": "n",
        "with Allen": Num("baseline", digits=3), "without": Num("variant", digits=3),
        "difference [95% CI]": Ci("difference", unit=lambda r: r["unit"], digits=lambda r: None if r["unit"] == POINTS else 3)}),
        show=False,
        name="paired-all")
    # bottom line: the start player's edge (mirrors), what Allen does to the game, whether his cards pay
    ch = seats[seats["arm"] == "change (without - with)"].set_index("strategy")
    withs = seats[seats["arm"] == "with Allen"].set_index("strategy")
    ests = {st: Estimate(r.win_share, r.lo, r.hi, int(r.games), "paired") for st, r in ch.iterrows()}
    size = {st: change_size(e) for st, e in ests.items()}
    shares = [f"{fmt_share(r.win_share, r.lo, r.hi)} ({st})" for st, r in withs.iterrows()]
    groups = {k: [st for st in ests if size[st] == k] for k in ("smaller", "larger", "unsettled")}
    moved = "; ".join(
        (f"by less than the minimum effect that matters (±{BAND * 100:g} points) with {join(v)}" if k == "smaller" else
         f"by more than ±{BAND * 100:g} points with {join(v)}" if k == "larger" else
         f"by an amount not yet settled against ±{BAND * 100:g} points with "
         + join([f"{st} ({rechecks[st].why()})" if st in rechecks else st for st in v]))
        for k, v in groups.items() if v)
    changes = "; ".join(f"{st} {fmt_estimate(e, POINTS)}" for st, e in ests.items())
    sc = table[table["column"] == "score"].iloc[0]

    def higher(t: pd.DataFrame, col: str) -> tuple[str, bool]:
        """Whether ``col`` is higher with Allen than without in an effect table (a paired comparison);
        a column the table leaves out (the same value in every game of both arms, e.g. no elimination in
        a small sample) reads as a tie, not settled."""
        rows = t[t["column"] == col]
        if rows.empty:
            return TIE, False
        r = rows.iloc[0]
        word = compare(Estimate(-r["difference"], -r["hi"], -r["lo"], int(r["n"]), "paired"))
        return word, word != TIE

    richer = agreement(higher(table, "score")[0], {s: higher(t, "score") for s, t in stronger.items()},
                                strong_games, words=lambda w: f"scores {w} with him")
    safer = agreement(higher(table, "elimination rate")[0],
                               {s: higher(t, "elimination rate") for s, t in stronger.items()}, strong_games,
                               words=lambda w: f"eliminations {w} with him")
    out_on, out_off = on["elimination rate"].mean(), off["elimination rate"].mean()
    fee = [f["out by the healer fee"].sum() / max(f["elimination rate"].sum(), 1) for f in (off, on)]
    fee_words = ("all of them by the healer fee" if min(fee) == 1.0 else
                 f"{fmt_share(fee[0], digits=0)} and {fmt_share(fee[1], digits=0)} of them by the healer fee")
    w0 = weights.set_index("weight").loc[0.0]
    pays = w0["hi"] < w0["fair"]
    best = best_of({f"{r.weight:g}": Estimate(r.win_rate, r.lo, r.hi, r.seats, "Wilson") for r in weights.itertuples()})
    said = {"larger": "over 2 points", "smaller": "under 2 points", "unsettled": "by an amount not yet settled"}
    again = {"larger": "over 2 points", "smaller": "under 2", "unsettled": "unsettled"}   # after the first group
    found = sorted([(k, v) for k, v in groups.items() if v], key=lambda kv: list(said).index(kv[0]))
    head = "Without Allen the 2-player start player's win share moves"
    answer = (f"{head} {said[found[0][0]]} in every mirror match." if len(found) == 1 else
              f"{head} " + ", ".join(f"{(again if i else said)[k]} with {join(v)}" for i, (k, v) in enumerate(found))
              + " (mirror matches).")
    if words_in(answer) > 30:
        answer = "How far the 2-player start player's win share moves without Allen depends on the strategy (mirror matches)."
    richer_safer = (f"He makes the game richer and safer: scores {fmt_number(-sc['difference'], -sc['hi'], -sc['lo'])} "
                    f"gold higher, eliminations {fmt_ratio(out_off, out_on)} with him.")
    pay = (("Playing his cards pays" if pays else "Whether playing his cards pays is not settled")
           + f"; allen_weight {join(sorted(best.tied, key=float))} "
           + ("is best" if len(best.tied) == 1 else "are tied for best") + ".")
    rep.findings[:0] = [
        f"With Allen the start player wins {join(shares)} of 2-player mirror matches (fair: 50%); removing him "
        f"changes that {moved} ({changes}).",
        f"Allen makes the 2-player game richer and safer: in the {STRONG} mirror, scores are "
        f"{fmt_number(-sc['difference'], -sc['hi'], -sc['lo'])} gold higher with him, and eliminations fall from "
        f"{fmt_share(out_off)} of players without him to {fmt_share(out_on)} with him ({fee_words}, which rests on "
        "ASSUMED healer cards)" + (f"; stronger play: richer {richer}, safer {safer}" if extra else "") + ".",
        ("Playing his cards pays: " if pays else "Whether playing his cards pays is not settled: ")
        + f"a {STRONG} that never plays them (allen_weight=0) wins {fmt_share(w0['win_rate'], w0['lo'], w0['hi'])} "
        f"against a default {STRONG}, and allen_weight {join(sorted(best.tied, key=float))} "
        + ("is best" if len(best.tied) == 1 else "are statistically tied for best") + ".",
    ]
    rep.bottom_line = [answer, richer_safer, pay]
    # the same conclusions as values, so that simlab robust can tell whether an assumption changes them
    for st in ests:
        rep.claim(f"Removing Allen, {st} mirror: the change in the start player's win share against "
                  f"±{BAND * 100:g} points", size[st], size[st] != "unsettled")
    for col, what in (("score", "Scores"), ("elimination rate", "Eliminations")):
        if (table["column"] == col).any():
            rep.claim(f"{what} with Allen against without, {STRONG} mirror", *higher(table, col))
    word = compare(Estimate(w0["win_rate"] - w0["fair"], w0["lo"] - w0["fair"], w0["hi"] - w0["fair"], 1, "Wilson"))
    rep.claim(f"A {STRONG} that never plays Allen's cards against a default {STRONG}: its win rate against an even "
              "match", word, word != TIE)
    rep.claim("The best allen_weight (statistical ties included)", join(sorted(best.tied, key=float)),
              len(best.tied) == 1)
    rep.rests_on = sections.rests_on(ctx.runs, only=("crown_prizes", "map_symbols", "healer_per_cube", "healer_fixed",
                                                     "islet_action", "islet_value")) + [
        f"Seat fairness only from mirror matches ({join(list(mirrors))} in every seat); the effects on scores, "
        f"crosses and eliminations from the {STRONG} mirror" + (f", rechecked in the {join(extra)} mirrors" if extra
                                                                 else "") + ".",
        strength.rests_on(extra, "loot-island", ctx, list(rechecks.values())),
        "Common random numbers: both arms of each comparison play the same games (paired by game id and seat)."]
    rep.caveats.append("Seats are judged only in mirror matches (every seat the same heuristic), where a seat "
                       "difference can only be a seat effect; the other matches rotate the strategies through the "
                       "seats. Allen's own choices are made by the player whose turn it is.")
    rep.caveats.append("Common random numbers: both arms start game g from the same random stream, but Allen's cards "
                       "change the draws from the first round on, so the pairing narrows the intervals less than in "
                       "a small rule change.")
    rep.caveats.append("allen_weight = 0 stops a heuristic from playing Allen's cards to landings; paying an islet "
                       "with his cards is not governed by the weight, so such a player still uses Allen a little.")
    rep.caveats.append("'Allen uses' vs winning is an association (players use Allen when their hand or position "
                       "calls for it); the allen_weight sweep is the controlled comparison.")
    return rep


EXPERIMENT = Experiment("allen-effect", "Loot Island: Allen's effect",
                        "With vs without the virtual player Allen at 2 players (paired on common random numbers): "
                        "seats, crown places, scores, decisiveness, skill vs luck, whether using Allen pays; 3 players "
                        "for comparison.", analyse, game="loot-island", players=(2, 3), options=strength.OPTIONS)
