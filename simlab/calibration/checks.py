"""The calibration checks: one per estimator and setting, each calling the project's own function."""
from __future__ import annotations

import numpy as np
import pandas as pd

import math
from dataclasses import replace
from itertools import combinations
from types import SimpleNamespace

from simlab.core.summary import Summary
from simlab.measures import fairness as F
from simlab.measures import balance as M
from simlab.measures.catalogue import SHARED_WINS
from simlab.measures.paired import family_size, headline, paired_measures, size
from simlab.measures.stats import StoppingRule, paired_column_difference, proportion, sequential
from simlab.report.sections import _strongest
from simlab.report.wording import Band, best_of
from simlab.studies import rule_tuning as T
from simlab.studies.experiment import widest_paired_seat

from . import COVERAGE, EPS, FAMILY, Check, covered
from .ladder import LADDER_CHECKS
from .worlds import Table, mean_ahead

# ---------------------------------------------------------------------------------------------
# luck and skill from duplicate play (fairness.deal_luck)
# ---------------------------------------------------------------------------------------------

def luck_truth(world: Table) -> dict[str, float]:
    """The true shares of a player's result variance: skill (which strategy), deal (what the deal
    gives a strategy wherever it sits: the covariance of its results in two seatings of one deal),
    seat (what changes with the seating), luck = deal + seat."""
    p = world.slot_win_by_deal()                          # [d, r, k]
    n = world.players
    m = p.mean(axis=(0, 1))
    skill = float(((m - m.mean()) ** 2).mean())
    total = m * (1 - m)                                   # a 0/1 win: Var(Y_k) = m_k (1 - m_k)
    deal = (n * n * p.mean(axis=1).var(axis=0) - p.var(axis=0).sum(axis=0)) / (n * (n - 1))
    whole = skill + total.mean()
    return {"skill (strategy)": skill / whole, "deal suits a strategy": deal.mean() / whole,
            "seat within the deal": (total - deal).mean() / whole, "luck (deal and seat)": total.mean() / whole}


def luck_check(setting: str, world: Table, deals: int, fast: int = 150, exact: tuple[str, ...] = ()) -> Check:
    """``exact``: components the setting fixes at 0 and the estimator finds exactly (identical
    rotations leave nothing to the seat): no interval to calibrate there."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = {c: v for c, v in luck_truth(world).items() if c not in exact}
        rng = np.random.default_rng(seed)
        hits = {c: np.zeros(reps, bool) for c in truth}
        for i in range(reps):
            score, nobody, rotation, deal = world.play(rng, deals, "duplicate")
            t = F.deal_luck(world.frame(score[0], nobody[0], rotation, deal), seed=i).set_index("component")
            for c, v in truth.items():
                hits[c][i] = covered(t.loc[c, "lo"], t.loc[c, "hi"], v)
        return hits
    return Check("luck and skill shares (fairness.deal_luck)", setting, COVERAGE, play, fast=fast, thorough=1000)


# ---------------------------------------------------------------------------------------------
# the rating gap to random play (fairness.skill_gap): the ahead share and its Elo reading
# ---------------------------------------------------------------------------------------------

def elo_check(setting: str, world: Table, deals: int, fast: int = 300) -> Check:
    """Slot 0 is the strong strategy, the others random players, in duplicate: how often it
    finishes ahead of a random player (its interval maps one to one onto the Elo gap's)."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = float(np.mean([mean_ahead(world, 0, k) for k in range(1, world.players)]))
        rng = np.random.default_rng(seed)
        hit = np.zeros(reps, bool)
        for i in range(reps):
            score, nobody, rotation, deal = world.play(rng, deals, "duplicate")
            g = F.skill_gap(world.frame(score[0], nobody[0], rotation, deal), "strong", "random").iloc[0]
            hit[i] = covered(g["ahead_lo"], g["ahead_hi"], truth)
        return {"share ahead of random (Elo gap)": hit}
    return Check("rating gap to random play (fairness.skill_gap)", setting, COVERAGE, play, fast=fast, thorough=2000)


# ---------------------------------------------------------------------------------------------
# the best of several options at one table (wording.best_of)
# ---------------------------------------------------------------------------------------------

def best_check(setting: str, world: Table, games: int, fast: int = 400) -> Check:
    """Options at one table (each holds a seat, rotated game by game, as the curse-threshold round
    table): the family of "X is below the best" claims is wrong when an option called below the
    best is truly not."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = world.slot_win_by_deal().mean(axis=(0, 1))
        names = world.strategies
        rng = np.random.default_rng(seed)
        wrong = np.zeros(reps, bool)
        score, nobody, rotation, _ = world.play(rng, games, "rotate", reps)
        for i in range(reps):
            f = world.frame(score[i], nobody[i], rotation, None)
            ests = {}
            for k, name in enumerate(names):
                rows = f[f["strategy"] == name]
                ests[name] = proportion(float(rows["win"].sum()), len(rows))
            _, cov = F.clustered_means(f["win"], f["strategy"].astype(str), f["game"], names)
            best = best_of(ests, covariance=cov)
            top = truth[names.index(best.best)]
            wrong[i] = any(truth[k] >= top - EPS for k, name in enumerate(names) if name not in best.tied)
        return {"claims 'below the best'": wrong}
    return Check("the best option at one table (wording.best_of)", setting, FAMILY, play, fast=fast, thorough=2000)


def strongest_check(setting: str, skills: tuple[float, ...], suits_sd: float, chance: float, games: int,
                    fast: int = 200) -> Check:
    """The overview's strongest strategy: every pair heads-up in its own run, seats alternating game by
    game, all runs on one seed (game g of every run draws the same chance: ``suits[g]`` says how
    much it suits each strategy). ``balance.ranking`` pools each strategy's meetings and
    ``sections._strongest`` names the best; wrong when a strategy called below the best is not."""
    k = len(skills)
    names = [f"s{i}" for i in range(k)]
    pairs = list(combinations(range(k), 2))

    def frames(rng, suits):
        out = []
        for i, j in pairs:
            flip = np.arange(games) % 2                              # who sits first alternates
            vi, vj = skills[i] + suits[:, i], skills[j] + suits[:, j]
            first, second = np.where(flip, vj, vi), np.where(flip, vi, vj)
            noise = chance * rng.gumbel(size=(2, games)) if chance else 0.0
            score = np.stack([first, second], axis=1) + (noise.T if chance else 0.0)
            who = [(names[i], names[j]) if not f else (names[j], names[i]) for f in flip]
            table = Table((0.0, 0.0))
            f = table.frame(score, np.zeros(games, bool), np.zeros(games, np.int64), None)
            out.append(f.assign(strategy=np.array(who).ravel()))
        return out

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        big = np.random.default_rng(12345).standard_normal((200_000, k)) * suits_sd + np.asarray(skills)
        ahead = np.zeros((k, k))
        for i, j in pairs:
            d = big[:, i] - big[:, j]
            p = (np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5)) if chance == 0 else 1 / (1 + np.exp(-d / chance))).mean()
            ahead[i, j], ahead[j, i] = p, 1 - p
        truth = ahead.sum(axis=1) / (k - 1)                          # pooled: every opponent met equally often
        rng = np.random.default_rng(seed)
        wrong = np.zeros(reps, bool)
        for r in range(reps):
            suits = rng.standard_normal((games, k)) * suits_sd
            rank = M.ranking(M.combine(frames(rng, suits)))
            best = _strongest(rank)
            top = truth[names.index(best.best)]
            wrong[r] = any(truth[names.index(x)] >= top - EPS for x in names if x not in best.tied)
        return {"claims 'below the strongest'": wrong}
    return Check("the strongest strategy head to head (balance.ranking, sections)", setting, FAMILY, play, fast=fast,
                 thorough=1000)


# ---------------------------------------------------------------------------------------------
# tune: a rare yes/no measure of each game on a duplicate mix (tune.interval, tune.tune)
# ---------------------------------------------------------------------------------------------

def rare_games(rng, p: float, rho: float, deals: int, players: int) -> np.ndarray:
    """0/1 per game, rotations of a deal correlated ``rho``: each rotation repeats the deal's own
    draw with probability sqrt(rho), else draws afresh (both at rate p)."""
    base = rng.random(deals) < p
    fresh = rng.random((deals, players)) < p
    keep = rng.random((deals, players)) < np.sqrt(rho)
    return np.where(keep, base[:, None], fresh).ravel().astype(np.float64)


MEASURE = SHARED_WINS                    # a share of games: one yes/no per game
JITTER = 0.25                               # a rare rate's coverage swings with it: average over +-25% of it


def tune_interval_check(p: float, rho: float, deals: int = 500, players: int = 4, fast: int = 400) -> Check:
    """Coverage of one interval, averaged over rates within 25% of ``p`` (at a few expected events
    the coverage of any interval jumps up and down with the rate; its average is what it keeps)."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        hit = np.zeros(reps, bool)
        deal = pd.Series(np.repeat(np.arange(deals), players))
        for i in range(reps):
            rate = p * rng.uniform(1 - JITTER, 1 + JITTER)
            e = T.interval(pd.Series(rare_games(rng, rate, rho, deals, players)), deal, MEASURE, players, 0.95)
            hit[i] = covered(e.lo, e.hi, rate)
        return {"rate": hit}
    return Check("tune interval (tune.interval)", f"rate {p:.1%} (+-25%), duplicate rotations correlated {rho:g}, "
                 f"{deals * players:,} games", COVERAGE, play, fast=fast, thorough=4000)


def tune_family_check(truths: tuple[float, ...], band: tuple[float, float], rho: float, batch: int, max_games: int,
                      players: int = 4, fast: int = 200) -> Check:
    """The whole sequential tune: every value's verdict (IN, OUT) must be right together."""
    lo, hi = band

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        wrong = np.zeros(reps, bool)
        level = T.corrected_level(len(truths), batch, max_games)
        deals_max = -(-max_games // players)
        for i in range(reps):
            games = {v: rare_games(rng, p, rho, deals_max, players) for v, p in enumerate(truths)}
            deal = np.repeat(np.arange(deals_max), players)

            def look(v, n):
                n = -(-n // players) * players
                return T.interval(pd.Series(games[v][:n]), pd.Series(deal[:n]), MEASURE, players, level)
            state = T.tune(list(range(len(truths))), look, lo, hi, batch, max_games)
            for v, (verdict, _, _) in state.items():
                inside = lo <= truths[v] <= hi
                wrong[i] |= (verdict == T.IN and not inside) or (verdict == T.OUT and inside)
        return {"IN/OUT verdicts": wrong}
    return Check("tune verdicts (tune.tune, Bonferroni over looks)",
                 f"rates {', '.join(f'{p:.1%}' for p in truths)} against [{lo:.0%}, {hi:.0%}], rotations correlated "
                 f"{rho:g}", FAMILY, play, fast=fast, thorough=1000)


# ---------------------------------------------------------------------------------------------
# seat fairness in mirror matches (fairness.seat_shares, fairness.seat_spread)
# ---------------------------------------------------------------------------------------------

def seat_check(setting: str, world: Table, games: int, fast: int = 100) -> Check:
    """A mirror (every seat one strategy, seat k in seat k, one game per deal): the start player's
    win share, its edge over the fair share (1 - q) / n, and the seats' spread around it."""
    world = replace(world, names=("mirror",) * world.players)

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        p = world.seat_win()
        fair = p.sum() / world.players
        spread = float(np.sqrt(((p - fair) ** 2).mean()))
        rng = np.random.default_rng(seed)
        hits = {k: np.zeros(reps, bool) for k in ("start player's win share", "start player's edge over the fair "
                                                  "share", "seat spread")}
        score, nobody, rotation, _ = world.play(rng, games, "fixed", reps)
        for i in range(reps):
            f = world.frame(score[i], nobody[i], rotation, None)
            t = F.seat_shares(f).set_index("seat")
            hits["start player's win share"][i] = covered(t.loc[1, "lo"], t.loc[1, "hi"], p[0])
            hits["start player's edge over the fair share"][i] = covered(t.loc[1, "edge_lo"], t.loc[1, "edge_hi"],
                                                                         p[0] - fair)
            sp = F.seat_spread({"m": f}, reps=400, seed=i).iloc[0]
            hits["seat spread"][i] = covered(sp["lo"], sp["hi"], spread)
        return hits
    return Check("seat fairness in a mirror (fairness.seat_shares, seat_spread)", setting, COVERAGE, play, fast=fast,
                 thorough=1000)


# ---------------------------------------------------------------------------------------------
# a paired comparison of two arms on the same deals (paired.paired_measures)
# ---------------------------------------------------------------------------------------------

# what compare reads of a game: no columns or key outcomes of its own
SPEC = SimpleNamespace(columns=(), length_column="rounds", outcomes=())


def arm_truth(world: Table, mirror: bool) -> float:
    """The start player's win share (a mirror) or slot 0's win rate over the rotations (a mix)."""
    return float(world.seat_win()[0]) if mirror else float(world.slot_win_by_deal().mean(axis=(0, 1))[0])


def paired_check(setting: str, a: Table, b: Table, deals: int, fast: int = 300) -> Check:
    """Arms A and B on common random numbers (the same draws: what the deal holds and the game's
    chance), a mirror (seats fixed) or a mix in duplicate: the paired change of the headline win
    measure, clustered by deal."""
    mirror = len(set(a.strategies)) == 1
    seating = "fixed" if mirror else "duplicate"
    measure = "start player's win share" if mirror else f"win rate of {a.strategies[0]}"

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = arm_truth(b, mirror) - arm_truth(a, mirror)
        hit = np.zeros(reps, bool)
        for i in range(reps):
            frames = []
            for world in (a, b):        # the same generator state: common random numbers
                score, nobody, rotation, deal = world.play(np.random.default_rng((seed, i)), deals, seating)
                frames.append(world.frame(score[0], nobody[0], rotation, None if mirror else deal))
            t = paired_measures(*frames, SPEC).set_index("measure")
            hit[i] = covered(t.loc[measure, "lo"], t.loc[measure, "hi"], truth)
        return {f"change in {measure}": hit}
    return Check("paired change B - A (paired.paired_measures)", setting, COVERAGE, play, fast=fast, thorough=1000)


# a game with one yes/no column of its own (a rare event: an elimination, a deck run out)
RARE_SPEC = SimpleNamespace(columns=(SimpleNamespace(name="rare", per="game", kind="count"),),
                            length_column="rounds", outcomes=())


def rare_arm_check(p: float, rho: float, deals: int, players: int = 3, fast: int = 200) -> Check:
    """Each arm's share of a rare yes/no outcome as ``simlab compare`` tables it (arm A at rate about
    ``p``, arm B at 20%), on duplicate deals whose rotations share it with correlation ``rho``: A's
    interval must hold the truth, every share's interval lie within [0, 1], and where no game had the
    event give an upper bound above 0 (a normal interval there is [0, 0]). The rate is drawn within
    25% of ``p`` per sample, as in the tune interval's check (a rare rate's coverage swings with it)."""
    world = Table((0.0,) * players)

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        hit, wrong = np.zeros(reps, bool), np.zeros(reps, bool)
        for i in range(reps):
            rate = p * rng.uniform(1 - JITTER, 1 + JITTER)
            score, nobody, rotation, deal = world.play(rng, deals, "duplicate")
            f = world.frame(score[0], nobody[0], rotation, deal)
            arms = [f.assign(rare=np.repeat(rare_games(rng, q, rho, deals, players), players).astype(np.int64))
                    for q in (rate, 0.2)]
            r = paired_measures(*arms, RARE_SPEC).set_index("measure").loc["rare"]
            hit[i] = covered(r["a_lo"], r["a_hi"], rate)
            wrong[i] = not all(0 <= r[f"{k}_lo"] <= r[k] <= r[f"{k}_hi"] <= 1 and r[f"{k}_hi"] > 0 for k in "ab")
        return {"arm A's share of the rare outcome": hit, "bounds within [0, 1], above 0 with no event": (FAMILY, wrong)}
    return Check("an arm's share of a rare outcome (paired.paired_measures)",
                 f"rate {p:.2%} (+-25%), duplicate rotations correlated {rho:g}, {deals * players:,} games",
                 COVERAGE, play, fast=fast, thorough=4000)


def fairness_change_check(setting: str, a: Table, b: Table, games: int, fast: int = 150) -> Check:
    """Mirror arms on common random numbers: the change in the seats' distance from fair
    (:func:`~simlab.measures.fairness.spread_change`, a paired bootstrap over games), which a
    comparison of mirrors reads as "fairer" or "less fair"."""
    a, b = (replace(w, names=("mirror",) * w.players) for w in (a, b))

    def spread(world: Table) -> float:
        p = world.seat_win()
        return float(np.sqrt(((p - p.mean()) ** 2).mean()))

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = spread(b) - spread(a)
        hit = np.zeros(reps, bool)
        for i in range(reps):
            frames = []
            for world in (a, b):
                score, nobody, rotation, _ = world.play(np.random.default_rng((seed, i)), games, "fixed")
                frames.append(world.frame(score[0], nobody[0], rotation, None))
            e = F.spread_change(*frames, reps=400, seed=i)
            hit[i] = covered(e.lo, e.hi, truth)
        return {"change in the seats' distance from fair": hit}
    return Check("a mirror comparison's fairness change (fairness.spread_change)", setting, COVERAGE, play, fast=fast,
                 thorough=1000)


def compare_family_check(setting: str, a: Table, b: Table, deals: int, fast: int = 300) -> Check:
    """The bottom line of ``simlab compare`` reads every win measure at once against the minimum
    effect: "larger for X" must be right for every X it names. The minimum effect is set at the
    largest true change, so the measures that change most sit exactly on its edge (the least
    favourable case: each is called larger by chance alone)."""
    names = a.strategies

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        change = b.slot_win_by_deal().mean(axis=(0, 1)) - a.slot_win_by_deal().mean(axis=(0, 1))
        effect = Band.effect(float(np.abs(change).max()))
        family = family_size({a.players: (names, names)}, SPEC)
        wrong = np.zeros(reps, bool)
        for i in range(reps):
            frames = []
            for world in (a, b):
                score, nobody, rotation, deal = world.play(np.random.default_rng((seed, i)), deals, "duplicate")
                frames.append(world.frame(score[0], nobody[0], rotation, deal))
            h = headline(paired_measures(*frames, SPEC, family))
            for k, name in enumerate(names):
                row = h[h["measure"] == f"win rate of {name}"]
                wrong[i] |= size(row, effect) == "larger" and abs(change[k]) <= effect.hi + EPS
        return {"'larger than the minimum effect' claims": wrong}
    return Check("compare's verdict on every win measure (paired.size, held together)", setting, FAMILY, play,
                 fast=fast, thorough=2000)


def sequential_check(setting: str, a: Table, b: Table, target: float, fast: int = 150) -> Check:
    """``--target-width``: both arms grow in batches until the widest seat's paired difference in win
    share (:func:`~simlab.studies.experiment.widest_paired_seat`, clustered by deal) is narrow
    enough; the intervals at the stop must still hold their truth (the stop looks at widths, not at
    the differences, and the looks are few)."""
    mirror = len(set(a.strategies)) == 1
    seating = "fixed" if mirror else "duplicate"
    rule = StoppingRule(target, min_games=300, max_games=24_000, unit=300 if mirror else 300 * a.players)

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        n = a.players
        truth = b.seat_win() - a.seat_win() if mirror else None
        if not mirror:      # a mix: seat s's share over the rotations of every deal
            truth = np.array([np.mean([b.win_probability(b.strengths(*b.truth_deals(), r)).mean(axis=0)[s]
                                       - a.win_probability(a.strengths(*a.truth_deals(), r)).mean(axis=0)[s]
                                       for r in range(n)]) for s in range(n)])
        hits = {f"seat {s + 1}'s change at the stop": np.zeros(reps, bool) for s in range(n)}
        for i in range(reps):
            deals = rule.max_games if mirror else rule.max_games // n
            frames = []
            for world in (a, b):
                score, nobody, rotation, deal = world.play(np.random.default_rng((seed, i)), deals, seating)
                frames.append(world.frame(score[0], nobody[0], rotation, None if mirror else deal))
            held = {}

            def play_to(games: int) -> None:
                held["frames"] = [f[f["game"] < games] for f in frames]

            sequential(play_to, lambda: widest_paired_seat(*held["frames"]), rule)
            base, variant = (f.assign(win_share=F.win_share(f)) for f in held["frames"])
            t = paired_column_difference(base, variant, "win_share", by="seat").set_index("group")
            for s in range(n):
                hits[f"seat {s + 1}'s change at the stop"][i] = covered(t.loc[s, "lo"], t.loc[s, "hi"], truth[s])
        return hits
    return Check("a paired run to a target width (stats.sequential, experiment.widest_paired_seat)", setting, COVERAGE,
                 play, fast=fast, thorough=1000)


# ---------------------------------------------------------------------------------------------
# a stronger player's recheck, looked at until it decides (strength.until_decided)
# ---------------------------------------------------------------------------------------------

def on_the_edge(world: Table, edge: float) -> Table:
    """``world`` with the start player's seat effect set so that its true edge over the fair share is
    ``edge`` (bisection on the truth): the least favourable truth for a verdict read against a band."""
    def excess(x: float) -> float:
        w = replace(world, seat=(x,) + tuple(world.seat_effect[1:]))
        p = w.seat_win()
        return p[0] - p.sum() / w.players - edge
    lo, hi = -3.0, 3.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) < 0 else (lo, mid)
    return replace(world, seat=((lo + hi) / 2,) + tuple(world.seat_effect[1:]))


def recheck_check(setting: str, world: Table, edge: float, first: int, deals: int, fast: int = 200,
                  naive: bool = False, budget: int | None = None) -> Check:
    """A search player's seat recheck (overview, Allen): the start player's side of the fairness band
    in a mirror (sections.start_side) read after each batch, games doubling from ``first`` to
    ``deals``, stopping at the first decided look (strength.until_decided). Wrong: a decided side the
    truth contradicts (favoured when the true edge is within the band, fair when it is outside).
    The truth ``edge`` on the band's edge is the least favourable case. ``naive`` reads every look at
    95%, as a recheck without the looks' correction would: the check must catch it. ``budget``: a
    time budget with room for that many games (each game's run takes a second), so the recheck ends
    on a last look shorter than the schedule's."""
    from simlab.studies import strength
    from simlab.report.sections import SEAT_BAND, start_side

    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        w = on_the_edge(replace(world, names=("mirror",) * world.players), edge)
        p = w.seat_win()
        truth = p[0] - p.sum() / w.players
        wrong = np.zeros(reps, bool)
        score, nobody, rotation, _ = w.play(np.random.default_rng(seed), deals, "fixed", reps)
        looks = strength.schedule(first, deals)
        minutes = math.inf if budget is None else budget / 60
        for i in range(reps):
            f = w.frame(score[i], nobody[i], rotation, None)
            runs, played = [], [0]

            def read(games: int, level: float):
                runs.append(SimpleNamespace(seconds=games - played[0]))   # what the budget reads of a run
                played[0] = games
                side = start_side(f[f["game"] < games], 0.95 if naive else level)
                return side, side != "not yet settled", None
            (side, decided, _), *_ = strength.until_decided(read, looks, minutes, runs)
            wrong[i] = decided and (side == "favoured" and truth <= SEAT_BAND + EPS
                                    or side == "handicapped" and truth >= -SEAT_BAND - EPS
                                    or side == "fair" and abs(truth) > SEAT_BAND + EPS)
        return {"a wrong side of the band at the stop": wrong}
    return Check("a stronger player's seat recheck, looked at until decided (strength.until_decided, "
                 "sections.start_side)" + (", every look at 95% (no correction)" if naive else ""), setting, FAMILY,
                 play, fast=fast, thorough=2000)


# ---------------------------------------------------------------------------------------------
# rates and means of a duplicate mix (balance.strategy_rates)
# ---------------------------------------------------------------------------------------------

def mix_check(setting: str, world: Table, deals: int, fast: int = 300, rates=None,
              estimator: str = "win rate by strategy in a mix (balance.strategy_rates)") -> Check:
    """Each strategy's win rate in a mix played in duplicate: a deal's rotations are one cluster.
    ``rates(frame)`` gives strategy -> (lo, hi); by default :func:`balance.strategy_rates`'."""
    def play(reps: int, seed: int) -> dict[str, np.ndarray]:
        truth = dict(zip(world.strategies, world.slot_win_by_deal().mean(axis=(0, 1))))
        rng = np.random.default_rng(seed)
        hits = {f"win rate of {k}": np.zeros(reps, bool) for k in truth}
        for i in range(reps):
            score, nobody, rotation, deal = world.play(rng, deals, "duplicate")
            bounds = (rates or strategy_rates)(world.frame(score[0], nobody[0], rotation, deal))
            for k, v in truth.items():
                hits[f"win rate of {k}"][i] = covered(*bounds[k], v)
        return hits
    return Check(estimator, setting, COVERAGE, play, fast=fast, thorough=1000)


def strategy_rates(frame: pd.DataFrame) -> dict[str, tuple[float, float]]:
    t = M.strategy_rates(frame).set_index("strategy")
    return {k: (t.loc[k, "lo"], t.loc[k, "hi"]) for k in t.index}


def run_summary(chunk: int):
    """``simlab run``'s printed summary: running tallies over chunks of ``chunk`` games, fed in reverse
    order (a deal split between two chunks waits for its other rotations)."""
    def rates(frame: pd.DataFrame) -> dict[str, tuple[float, float]]:
        s = Summary()
        for first in range(0, frame["game"].max() + 1, chunk)[::-1]:
            s.add(frame[(frame["game"] >= first) & (frame["game"] < first + chunk)], "rounds")
        return {r["strategy"]: r["win_rate"][1:] for r in s.rows() if r["seat"] is None}
    return rates


# ---------------------------------------------------------------------------------------------
# the list
# ---------------------------------------------------------------------------------------------

CHECKS: list[Check] = [
    luck_check("2 players, rotations independent", Table((0.35, 0.0), seat=(0.2, 0.0)), 1000),
    luck_check("2 players, rotations correlated about 0.5", Table((0.35, 0.0), seat=(0.2, 0.0), deal_strategy=1.9), 1000),
    luck_check("2 players, rotations identical (correlated 1)", Table((0.35, 0.0), deal_strategy=1.0, chance=0.0), 1000,
               exact=("seat within the deal",)),
    luck_check("2 players, no chance in play, the deal favours seats", Table((0.35, 0.0), seat=(0.2, 0.0),
               deal_strategy=1.0, deal_seat=0.7, chance=0.0), 1000),
    luck_check("3 players, small sample (200 deals)", Table((0.3, 0.0, -0.2), seat=(0.2, 0.1, 0.0), deal_strategy=0.8),
               200),
    luck_check("4 players, near-equal strategies, deal and seat effects",
               Table((0.1, 0.05, 0.0, -0.4), seat=(0.15, 0.05, 0.0, 0.0), deal_strategy=0.8, deal_seat=0.5), 500),
    elo_check("2 players, ahead about 85%, rotations correlated", Table((2.3, 0.0), seat=(0.3, 0.0), deal_strategy=1.0,
              names=("strong", "random")), 1000),
    elo_check("2 players, ahead about 99.5%, the deal decides", Table((3.3, 0.0), deal_strategy=0.9, chance=0.0,
              names=("strong", "random")), 1000),
    elo_check("4 players (one strong, three random), small sample", Table((2.0, 0.0, 0.0, 0.0), seat=(0.2, 0.1, 0, 0),
              deal_strategy=0.7, names=("strong", "random", "random", "random")), 150),
    seat_check("2 players, the start player favoured, independent games", Table((0.0, 0.0), seat=(0.15, 0.0)), 3000),
    seat_check("4 players, a game in six without a winner (as Loot Island)",
               Table((0.0,) * 4, seat=(0.12, 0.0, -0.05, 0.0), deal_seat=0.5, no_winner=1 / 6), 3000),
    seat_check("3 players, small sample", Table((0.0,) * 3, seat=(0.3, 0.0, 0.0)), 300),
    paired_check("mirror arms, a change in the seats' edge", Table((0.0, 0.0), seat=(0.15, 0.0), deal_seat=0.6,
                 names=("m", "m")), Table((0.0, 0.0), seat=(0.05, 0.0), deal_seat=0.6, names=("m", "m")), 2000),
    paired_check("duplicate mix, a change in one strategy, rotations correlated",
                 Table((0.3, 0.0, -0.1), seat=(0.1, 0.0, 0.0), deal_strategy=1.2, chance=0.5, names=("a", "b", "c")),
                 Table((0.4, 0.0, -0.1), seat=(0.1, 0.0, 0.0), deal_strategy=1.2, chance=0.5, names=("a", "b", "c")),
                 700),
    fairness_change_check("3 players, B halves the start player's edge", Table((0.0,) * 3, seat=(0.3, 0.0, -0.1),
                          deal_seat=0.5), Table((0.0,) * 3, seat=(0.15, 0.0, -0.05), deal_seat=0.5), 3000),
    fairness_change_check("2 players, B moves the edge from the first seat to the second",
                          Table((0.0, 0.0), seat=(0.2, 0.0)), Table((0.0, 0.0), seat=(0.0, 0.1)), 3000),
    compare_family_check("3 strategies in duplicate, two changes on the minimum effect's edge",
                         Table((0.3, 0.0, -0.3), deal_strategy=0.8, names=("a", "b", "c")),
                         Table((-0.3, 0.0, 0.3), deal_strategy=0.8, names=("a", "b", "c")), 700),
    sequential_check("3-player mirror arms to a width of 4 points", Table((0.0,) * 3, seat=(0.1, 0.0, 0.0), deal_seat=0.5,
                     names=("m",) * 3), Table((0.0,) * 3, seat=(0.2, 0.0, 0.0), deal_seat=0.5, names=("m",) * 3), 0.04),
    sequential_check("3-strategy duplicate mix arms to a width of 4 points",
                     Table((0.2, 0.0, -0.2), seat=(0.1, 0.0, 0.0), deal_strategy=1.0, names=("a", "b", "c")),
                     Table((0.3, 0.0, -0.2), seat=(0.1, 0.0, 0.0), deal_strategy=1.0, names=("a", "b", "c")), 0.04),
    recheck_check("2 players, the start player's true edge on the band's edge (+2 points), 6 looks from 250 to 8,000 "
                  "games", Table((0.0, 0.0)), 0.02, 250, 8000),
    recheck_check("3 players, deals that favour seats, the true edge on the band's edge, 6 looks",
                  Table((0.0,) * 3, seat=(0.0, 0.1, 0.0), deal_seat=0.5), 0.02, 250, 8000),
    recheck_check("2 players, the true edge on the band's edge, a budget with room for 6,000 games: 250 to 4,000, "
                  "then a last look at 6,000", Table((0.0, 0.0)), 0.02, 250, 8000, budget=6000),
    mix_check("3 strategies, duplicate, rotations correlated about 0.5",
              Table((0.3, 0.0, -0.2), seat=(0.15, 0.0, 0.0), deal_strategy=1.5, names=("a", "b", "c")), 700),
    mix_check("2 strategies, duplicate, the deal decides", Table((0.3, 0.0), deal_strategy=1.0, chance=0.0,
              names=("a", "b")), 1000),
    mix_check("3 strategies in duplicate, rotations correlated about 0.5, deals split between chunks",
              Table((0.3, 0.0, -0.2), seat=(0.15, 0.0, 0.0), deal_strategy=1.5, names=("a", "b", "c")), 700, fast=100,
              rates=run_summary(250), estimator="the run summary (core.summary, simlab run)"),
    best_check("2 options, equal", Table((0.0, 0.0)), 2000),
    best_check("4 options, equal", Table((0.0, 0.0, 0.0, 0.0)), 2000),
    best_check("5 options, equal", Table((0.0,) * 5), 2000),
    best_check("5 options, two best equal", Table((0.3, 0.3, 0.0, 0.0, -0.3)), 2000),
    strongest_check("4 strategies, two level at the top, deals that suit them (as Karuba)", (0.0, 0.4, 0.8, 0.8), 1.0,
                    0.3, 2000),
    strongest_check("3 strategies, all level", (0.0, 0.0, 0.0), 0.5, 1.0, 2000),
    *LADDER_CHECKS,
    *[tune_interval_check(p, rho, deals) for rho in (0.0, 0.5, 1.0) for p, deals in ((0.001, 2000), (0.005, 500), (0.02, 500))],
    *[rare_arm_check(0.0005, rho, 2000) for rho in (0.0, 1.0)],   # 3 games with the event expected: often none
    tune_family_check((0.01, 0.03, 0.005, 0.02, 0.01), (0.01, 0.03), 1.0, 2000, 20_000),
    tune_family_check((0.01, 0.03, 0.005, 0.02, 0.01), (0.01, 0.03), 0.0, 2000, 20_000),
]
