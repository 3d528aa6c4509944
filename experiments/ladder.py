"""A rating ladder of one game: every registered player rated from heads-up round-robin play.

The entrants come from the strategy registry, never from a list here: random play, every heuristic
with its defaults, every tuned set of the game (``BASE@SET``) and, for each search player the game
registers (``search=True``), that player at two budgets (option ``budgets``: its ``iters``). A
search player with a play-out ``policy`` parameter plays its best policy: a pilot plays each policy
at the higher budget against the strongest heuristic and keeps the one most often ahead, then with
the larger score margin (option ``rollout`` fixes one instead). A game that gains a search player gains its entrants here.

Every pair plays 2-player games in duplicate (each deal once in each seat order), through the
normal run engine; pairs with a search entrant play ``search-games`` games (it takes tens of ms a
decision). Every pair runs on the same root seed, so deal d is the same deal in every pair (a search
pair plays the first deals). Bradley-Terry ratings on the results (a tie half each way), on the Elo
scale with random play at 0, 95% intervals by a bootstrap over deals drawn jointly for all pairs
(``simlab.measures.rating``); the order is stated only where simultaneous 95% intervals of the rating
differences decide it, entrants whose difference interval includes 0 being tied, so that all the places
and ties stated hold together with 95% confidence.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.strategy import strategies_for
from simlab.core.tuned_sets import tuned_sets
from simlab.measures import balance as M
from simlab.measures import rating
from simlab.measures.fairness import cluster_proportion, deal_of
from simlab.measures.stats import Estimate
from simlab.report import sections
from simlab.report.charts import dot_interval, new_figure
from simlab.report.page import Ci, Num, formatted, md_escape
from simlab.report.wording import NUMBER, SHARE, fmt_count, fmt_number, fmt_share, join
from simlab.search.speed import ms_per_decision
from simlab.studies.experiment import Context, Experiment, Option
from simlab.studies.strength import run_tag

RANDOM = "random"
POLICY = "policy"       # a search player's play-out policy parameter, when it has one
OPTIONS = (Option("budgets", "50,200", "the two budgets a search player plays at: its first parameter (mcts "
                                       "iterations, rollout samples per decision)"),
           Option("search-games", "100", "games per pair with a search entrant (at most --games; heuristic pairs "
                                         "play --games)"),
           Option("rollout", "auto", "a search player's play-out policy: 'auto' (a pilot picks the best against "
                                     "the strongest heuristic) or a policy number"),
           Option("pilot-games", "40", "games each play-out policy plays in the pilot"),
           Option("search", "all", "the search players that enter: 'all' registered, or names, comma-separated"))


def spec_name(name: str, values: dict[str, float]) -> str:
    """A seat's strategy spec as the engine labels its rows (``mcts:iters=50:policy=1``)."""
    return ":".join([name] + [f"{k}={v:g}" for k, v in values.items()])


def kind(name: str, search: set[str]) -> str:
    base = name.split(":")[0]
    return ("random play" if name == RANDOM else "search" if base in search
            else "tuned set" if "@" in base else "heuristic")


def base_entrants(game: str) -> list[str]:
    """Random play, every heuristic with its defaults and every tuned set, from the registry."""
    known = strategies_for(game)
    plain = sorted(n for n, s in known.items() if not s.search and n != RANDOM)
    return ([RANDOM] if RANDOM in known else []) + plain + sorted(tuned_sets(game))


def budget(game: str, player: str) -> str:
    """A search player's budget parameter: its first (mcts ``iters``, rollout ``samples``)."""
    return strategies_for(game)[player].params[0].name


def search_players(game: str, chosen: str = "all") -> list[str]:
    """The game's search players (``all``), or those ``chosen`` (comma-separated), each checked."""
    known = sorted(n for n, s in strategies_for(game).items() if s.search)
    if chosen == "all":
        return known
    names = [n.strip() for n in chosen.split(",") if n.strip()]
    for n in names:
        if n not in known:
            raise SimlabError(f"--option search={chosen}: {n!r} is not a search player of {game} (known: "
                              f"{', '.join(known) or 'none'})")
    return names


def entrants(game: str, budgets: tuple[int, int], policies: dict[str, float] | None = None,
             searchers: list[str] | None = None) -> list[str]:
    """Every entrant of the ladder: the base entrants, then each search player (``searchers``, default
    all) at both budgets (with its play-out policy from ``policies`` where one is given)."""
    out = base_entrants(game)
    for s in search_players(game) if searchers is None else searchers:
        extra = {POLICY: policies[s]} if policies and s in policies else {}
        out += [spec_name(s, {budget(game, s): b, **extra}) for b in budgets]
    return out


def point(a: str, b: str) -> str:
    return run_tag(f"{a}--vs--{b}")


def pair_clusters(frame: pd.DataFrame, a: str, b: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cluster (duplicate deal) of a heads-up run: its deal id (the same deal in every pair, as all
    pairs share the root seed), a's half-counted wins over b and the games."""
    f = frame.assign(cluster=deal_of(frame).to_numpy(), strategy=frame["strategy"].astype(str))
    x = f[f["strategy"] == a].set_index("game")
    y = f[f["strategy"] == b].set_index("game").loc[x.index]
    score = np.where(x["rank"] < y["rank"], 1.0, np.where(x["rank"] == y["rank"], 0.5, 0.0))
    g = pd.DataFrame({"cluster": x["cluster"].to_numpy(), "w": score}).groupby("cluster")["w"]
    wins = g.sum()
    return wins.index.to_numpy(), wins.to_numpy(), g.size().to_numpy(np.float64)


def integer_option(ctx: Context, name: str, low: int = 1) -> int:
    text = ctx.option(name)
    try:
        value = int(text)
    except ValueError:
        raise SimlabError(f"--option {name}={text}: a whole number") from None
    if value < low:
        raise SimlabError(f"--option {name}={text}: at least {low}")
    return value


def read_budgets(ctx: Context) -> tuple[int, int]:
    text = ctx.option("budgets")
    try:
        low, high = sorted(int(v) for v in text.split(","))
    except ValueError:
        raise SimlabError(f"--option budgets={text}: two whole numbers, e.g. 50,200") from None
    if low < 1 or low == high:
        raise SimlabError(f"--option budgets={text}: two different budgets of at least 1 iteration")
    return low, high


def pairing(ctx: Context, a: str, b: str, games: int) -> tuple:
    """The run of one pair: its point and config (each deal in both seat orders)."""
    return point(a, b), ctx.config(2, (a, b), games=games, duplicate=True)


def heads_up(ctx: Context, a: str, b: str, games: int):
    return ctx.run(*pairing(ctx, a, b, games))


def pick_policy(ctx: Context, rep, player: str, level: int, top: str, games: int) -> float | None:
    """The play-out policy of ``player`` that does best against ``top`` at budget ``level`` (the higher one,
    where the ladder asks whether search beats the best heuristic): most often ahead, then the larger
    mean score margin, which still separates policies that never win. Or the one ``rollout`` names.
    The chosen policy's pilot run is the first games of its ladder pair."""
    param = next((p for p in strategies_for(ctx.spec.name)[player].params if p.name == POLICY), None)
    if param is None:
        return None
    choice = ctx.option("rollout")
    if choice != "auto":
        try:
            value = float(choice)
        except ValueError:
            raise SimlabError(f"--option rollout={choice}: 'auto' or a policy number") from None
        if not param.low <= value <= param.high:
            raise SimlabError(f"--option rollout={choice}: {player}'s policies are {param.low:g}..{param.high:g}")
        rep.findings.append(f"{md_escape(player)} plays play-out policy {value:g} ({param.meaning}), as asked.")
        return value
    ahead, margin = {}, {}
    pilots = {v: spec_name(player, {budget(ctx.spec.name, player): level, POLICY: v})
              for v in range(int(param.low), int(param.high) + 1)}
    ctx.ahead([pairing(ctx, top, s, games) for s in pilots.values()])   # (a cluster plays them side by side)
    for v, s in pilots.items():
        f = heads_up(ctx, top, s, games).frame()
        _, w, n = pair_clusters(f, s, top)
        ahead[float(v)] = cluster_proportion(w, n)
        by = f.assign(strategy=f["strategy"].astype(str)).pivot(index="game", columns="strategy", values="score")
        margin[float(v)] = float((by[s] - by[top]).mean())
    best = max(ahead, key=lambda v: (ahead[v].value, margin[v]))
    rep.findings.append(f"Which play-out policy {md_escape(player)} plays ({param.meaning}): in a pilot of "
                        f"{fmt_count(games)} games per policy at {budget(ctx.spec.name, player)}={level} against {md_escape(top)}, the "
                        "strongest heuristic, it finished ahead in "
                        + join([f"{fmt_share(e.value, e.lo, e.hi)} of games with policy {v:g} (mean score margin "
                                f"{margin[v]:+.1f})" for v, e in ahead.items()])
                        + f"; the ladder plays policy {best:g}, the best (most often ahead, then the larger margin; a "
                          "pilot this small picks well only where the policies differ by much). Its pilot games are "
                          "the first games of its ladder pair with the strongest heuristic.")
    return best


def fit(ctx: Context, names: list[str], runs: dict) -> dict:
    index = {n: i for i, n in enumerate(names)}
    clusters = {(index[a], index[b]): pair_clusters(r.frame(), a, b) for (a, b), r in runs.items()}
    anchor = index.get(RANDOM, 0)
    return rating.bootstrap(clusters, len(names), anchor=anchor, reps=1000, seed=ctx.seed)


def analyse(ctx: Context):
    spec = ctx.spec
    game = spec.name
    budgets = read_budgets(ctx)
    search_games = min(ctx.games, integer_option(ctx, "search-games"))
    pilot_games = min(search_games, integer_option(ctx, "pilot-games"))
    searchers = search_players(game, ctx.option("search"))
    rep = ctx.report(f"{spec.title}: rating ladder",
                     f"How strong is each way of playing {spec.title}, on one scale? Every registered player (random "
                     "play, each heuristic with its defaults, each tuned set"
                     + (", the search player at two budgets" if searchers else "") + ") meets every other in 2-player "
                     f"games, each deal played once in each seat order: {ctx.games:,} games per pair"
                     + (f", {search_games:,} for a pair with a search player" if searchers else "") + ".")

    base = base_entrants(game)
    if len(base) < 2:
        raise SimlabError(f"{game} registers fewer than two strategies: no ladder")
    ctx.ahead([pairing(ctx, a, b, ctx.games) for a, b in combinations(base, 2)])
    runs = {(a, b): heads_up(ctx, a, b, ctx.games) for a, b in combinations(base, 2)}
    policies = {}
    if searchers:
        first = fit(ctx, base, runs)
        heuristics = [n for n in base if n != RANDOM]
        top = max(heuristics or base, key=lambda n: first["rating"][base.index(n)])
        for s in searchers:
            p = pick_policy(ctx, rep, s, budgets[1], top, pilot_games)
            if p is not None:
                policies[s] = p
    names = entrants(game, budgets, policies, searchers)
    ctx.ahead([pairing(ctx, a, b, search_games) for a, b in combinations(names, 2) if (a, b) not in runs])
    for a, b in combinations(names, 2):
        if (a, b) not in runs:
            runs[(a, b)] = heads_up(ctx, a, b, search_games)
    lad = fit(ctx, names, runs)
    ctx.runs[:] = list({r.point: r for r in ctx.runs}.values())   # a pilot run extended into its pair: list it once
    table = ladder_table(names, lad, runs, set(searchers))
    h2h = head_to_head(runs, table)
    timed = [n for n in names if kind(n, set(searchers)) == "search"]
    ms = ms_per_decision(game, timed) if timed else {}   # a finding, not a table: tables are the same anywhere

    write_bottom_line(rep, table, lad, names, set(searchers), spec.title)
    if ms:
        rep.findings.append(time_finding(ms))
    rating_chart(rep, table)
    rep.table("Ratings", formatted(table, {
        "place": "place", "entrant": "entrant", "kind": "kind",
        "rating [95% CI]": Ci("rating", unit=NUMBER, digits=0, blank=lambda r: r["entrant"] == RANDOM),
        "games": "games", "tied with": "tied"}),
        note="Bradley-Terry ratings on the Elo scale (400 log10 of the strength ratio; +200 points: finishes ahead "
             "about 76% of the time), random play at 0; 95% intervals of each rating by a bootstrap over deals, "
             "drawn jointly for all pairs (every pair plays the same deals, and a deal that suits an entrant suits "
             "it in every pair). Places and ties come from simultaneous 95% intervals of every rating difference, "
             "so that all of them hold together with 95% confidence: a place range (2-4) is a statistical tie, the "
             "entrants it spans cannot be ordered from these games.")
    order = list(table["entrant"])
    sections.strategy_matrix(rep, M.head_to_head(M.combine([r.frame() for r in runs.values()])), order,
                             note=f"; rows and columns in ladder order. Pairs with a search player: {search_games:,} "
                                  "games" if searchers else "; rows and columns in ladder order")
    rep.table("Head to head", formatted(h2h, {
        "A": "a", "B": "b", "games": "games",
        "A ahead of B [95% CI]": Ci("share"),
        "the ratings expect": Num("expected", SHARE)}),
        note="Each pair once, the higher-rated entrant as A; a tie counts one half. Wilson intervals clustered by "
             "deal (at the effective number of games that the spread between deals gives: a deal's two games share "
             "all chance, so they do not count as two independent games). 'The ratings expect': the Bradley-Terry "
             "share from the two ratings; a pair far from it is where one number per entrant does not describe the "
             "matchup.")
    rep.rests_on = sections.rests_on(list(runs.values()),
                                     " (every pair heads-up, 2 players, each deal in both seat orders)")
    rated = {s for r in runs.values() for s in r.config.seats}
    piloted = sorted({s for r in ctx.runs for s in r.config.seats} - rated)
    if piloted:
        rep.rests_on.append(f"Pilot only (to pick a play-out policy; not rated): {', '.join(map(md_escape, piloted))}.")
    rep.rests_on.append(f"Games: {ctx.games:,} per pair of random play, heuristics and tuned sets"
                        + (f"; {search_games:,} per pair with a search player (tens of ms a decision), so its "
                           "intervals are wider" if searchers else "; no search player is registered for "
                           f"{spec.title}") + ".")
    rep.rests_on.append("Ratings: Bradley-Terry, anchored at random play = 0, with a prior of one tied game per pair "
                        "(it keeps a rating finite when an entrant wins every game); 1,000 bootstrap resamples of "
                        "deals, drawn jointly for all pairs (every pair plays the same deals; a pair with a search "
                        "entrant plays the first ones and keeps its number of deals in every resample). Places, ties "
                        "and the differences stated use simultaneous 95% intervals of every rating difference (max-|t| "
                        "over all pairs), so that together they hold with 95% confidence.")
    rep.caveats.append("A rating is one number per entrant: Bradley-Terry assumes that strength is transitive. The "
                       "head-to-head table shows the observed share beside the one the ratings expect.")
    rep.caveats.append("Heads-up only: a ranking at 2 players need not hold at the table sizes the game also plays.")
    return rep


def time_finding(ms: dict[str, float]) -> str:
    """How long each search entrant takes a decision, and that the ladder rates each at its own budget,
    not at equal time (a search player given another's time would play otherwise)."""
    order = sorted(ms, key=ms.get)
    fastest = order[0]
    return ("Time a decision, one core of this machine, mean over the same 100 decisions of 2-player games: "
            + join([f"{md_escape(n)} {ms[n]:.2g} ms" + (f" ({ms[n] / ms[fastest]:.0f} times {md_escape(fastest)}'s)"
                                                      if n != fastest and ms[n] >= 2 * ms[fastest] else "")
                    for n in order])
            + ". The ladder rates each search entrant at its own budget, not at equal time per decision: a rating "
              "above another entrant's that takes more time a decision does not say it plays better in the same time.")


def ladder_table(names: list[str], lad: dict, runs: dict, searchers: set[str]) -> pd.DataFrame:
    """One row per entrant, best first: rating, interval, place range, games, the entrants tied with it."""
    spots = rating.places(lad["rating"], lad["diff_lo"], lad["diff_hi"])
    games = {n: sum(r.games for (a, b), r in runs.items() if n in (a, b)) for n in names}
    rows = []
    for i, n in enumerate(names):
        tied = [m for j, m in enumerate(names) if j != i and lad["diff_lo"][i, j] <= 0 <= lad["diff_hi"][i, j]]
        lo, hi = spots[i]
        rows.append({"entrant": n, "kind": kind(n, searchers), "rating": lad["rating"][i], "lo": lad["lo"][i],
                     "hi": lad["hi"][i], "place": f"{lo}" if lo == hi else f"{lo}-{hi}", "games": games[n],
                     "tied": ", ".join(tied) or "none", "index": i})
    return pd.DataFrame(rows).sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def head_to_head(runs: dict, table: pd.DataFrame) -> pd.DataFrame:
    """Every pair once, the higher-rated entrant as A: its share ahead of B with a Wilson interval
    clustered by deal, and the share the ratings expect."""
    r = table.set_index("entrant")["rating"]
    rows = []
    for (a, b), run in runs.items():
        if r[b] > r[a]:
            a, b = b, a
        _, w, n = pair_clusters(run.frame(), a, b)
        e = cluster_proportion(w, n)
        rows.append({"a": a, "b": b, "games": int(n.sum()), "share": e.value, "lo": e.lo, "hi": e.hi,
                     "expected": 1 / (1 + 10 ** ((r[b] - r[a]) / 400))})
    return pd.DataFrame(rows).sort_values(["a", "b"], key=lambda c: c.map(lambda x: -r[x])).reset_index(drop=True)


def difference(lad: dict, i: int, j: int) -> Estimate:
    """Rating of i minus rating of j, with the simultaneous interval of the difference (the one that
    decides places and ties, so a difference stated agrees with the order stated)."""
    return Estimate(lad["rating"][i] - lad["rating"][j], lad["diff_lo"][i, j], lad["diff_hi"][i, j],
                    len(lad["replicates"]), "simultaneous bootstrap (max-|t|)")


def write_bottom_line(rep, table: pd.DataFrame, lad: dict, names: list[str], searchers: set[str], title: str) -> None:
    """Who is strongest and by how much; the search player against the best heuristic; the anchor
    (the top entrant's own rating and every place go to the findings)."""
    top = table.iloc[0]
    i = int(top["index"])
    tied = [top["entrant"]] + [n for n in table["entrant"][1:] if
                               lad["diff_lo"][i, names.index(n)] <= 0 <= lad["diff_hi"][i, names.index(n)]]
    below = table[~table["entrant"].isin(tied)]
    head = (f"{md_escape(top['entrant'])} is strongest" if len(tied) == 1 else
            f"{md_escape(join(tied))} are tied for strongest")
    if len(below):
        nxt = below.iloc[0]
        d = difference(lad, i, int(nxt["index"]))
        head += (f", {fmt_number(d.value, d.lo, d.hi, digits=0)} points above the best of the rest, "
                 f"{md_escape(nxt['entrant'])}")
    rep.bottom_line.append(head + ".")
    rep.findings.append(f"{md_escape(top['entrant'])} rates {fmt_number(top['rating'], top['lo'], top['hi'], digits=0)} "
                        "points with random play at 0" + (" (every other entrant statistically below it)" if len(tied) == 1
                        else f" (tied with {md_escape(join(tied[1:]))}: the simultaneous 95% interval of each one's rating "
                        "difference from it includes 0)") + ".")
    rep.claim("strongest", join(tied), decided=len(tied) == 1)
    plain = table[table["kind"].isin(["heuristic", "tuned set"])]
    search = table[table["kind"] == "search"]
    if len(search) and len(plain):
        h, s = plain.iloc[0], search.iloc[0]
        d = difference(lad, int(s["index"]), int(h["index"]))
        word = "above" if d.lo > 0 else "below" if d.hi < 0 else "level with (a statistical tie)"
        tuned = " (a tuned set)" if h["kind"] == "tuned set" else ""
        rep.bottom_line.append(f"The stronger search entrant, {md_escape(s['entrant'])}, plays {word} the best "
                               f"heuristic{tuned}, {md_escape(h['entrant'])}: "
                               f"{fmt_number(d.value, d.lo, d.hi, digits=0, signed=True)} points.")
        rep.claim("search vs best heuristic", word.split(" (")[0], decided=word != "level with (a statistical tie)")
    elif not searchers:
        rep.bottom_line.append(f"No search player is registered for {title} yet: the ladder holds random play, the "
                               "heuristics and their tuned sets.")
    if RANDOM in names and len(plain):
        low = plain.iloc[-1]
        rep.bottom_line.append(f"Random play is the anchor at 0; the weakest heuristic, {md_escape(low['entrant'])}, "
                               f"rates {fmt_number(low['rating'], low['lo'], low['hi'], digits=0)} points.")
    if len(tied) > 1 or len(table) > 2:
        groups = [f"{r.place}: {md_escape(r.entrant)}" for r in table.itertuples()]
        rep.findings.append("The ladder, places given only where the simultaneous 95% intervals of the rating "
                            "differences decide them (a range is a statistical tie): " + "; ".join(groups) + ".")
    pairs = [f"{md_escape(a)} and {md_escape(b)}" for k, a in enumerate(table["entrant"]) for b in table["entrant"][k + 1:]
             if lad["diff_lo"][names.index(a), names.index(b)] <= 0 <= lad["diff_hi"][names.index(a), names.index(b)]]
    if pairs:
        rep.findings.append(f"Statistical ties (the simultaneous 95% interval of the rating difference includes 0): "
                            f"{'; '.join(pairs)}.")


def rating_chart(rep, table: pd.DataFrame) -> None:
    fig, axes = new_figure(max(6.5, 0.9 * len(table) + 2), 4.2)
    ax = axes[0][0]
    dot_interval(ax, list(table["entrant"]), table["rating"], table["lo"], table["hi"],
                 ylabel="rating (Elo-like points, random play = 0)", xlabel="entrant, strongest first", unit=NUMBER,
                 what="{} rating")
    ax.axhline(0, color="black", ls="--", lw=1, label="random play (0)")
    for t in ax.get_xticklabels():
        t.set(rotation=30, ha="right", rotation_mode="anchor")
    ax.legend(fontsize=7)
    rep.chart("ladder", fig, "Bradley-Terry ratings from heads-up round-robin play, strongest first, with 95% bootstrap "
              "intervals; the dashed line is random play (0)", title="The ladder")


EXPERIMENT = Experiment("ladder", "Rating ladder of one game",
                        "How strong is each way of playing, on one scale? Random play, every heuristic, every tuned "
                        "set and the search player at two budgets, rated (Bradley-Terry, Elo scale, random = 0) from "
                        "heads-up round-robin play (any game: --game NAME).", analyse, options=OPTIONS)
