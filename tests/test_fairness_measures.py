"""The measurement rules of simlab.measures.fairness, on synthetic games whose truth is known."""
import math

import numpy as np
import pandas as pd
import pytest

from simlab.measures.fairness import (ahead_share, deal_luck, elo, pairing_gain, seat_shares, seat_spread, skill_gap,
                                      win_share)
from simlab.measures.stats import clustered_mean, mean


def synthetic(games, probs, seed, strategies=None, tie_rate=0.0):
    """Games where seat s wins with probability probs[s]; a tie_rate share of games is a shared win
    of seats 0 and 1. Losers rank 2. ``strategies`` labels the seats (default: a mirror)."""
    rng = np.random.default_rng(seed)
    n = len(probs)
    winner = rng.choice(n, size=games, p=probs)
    tie = rng.random(games) < tie_rate
    win = np.zeros((games, n), bool)
    win[np.arange(games), winner] = True
    win[tie] = False
    win[tie, 0] = win[tie, 1] = True
    return pd.DataFrame({
        "game": np.repeat(np.arange(games), n), "seat": np.tile(np.arange(n), games), "players": n,
        "strategy": np.tile(np.array(strategies or ["m"] * n), games), "score": win.ravel().astype(int),
        "rank": np.where(win, 1, 2).ravel(), "win": win.ravel(), "shared_win": (win & tie[:, None]).ravel()})


def test_win_shares_split_a_shared_win_and_sum_to_one_per_game():
    f = synthetic(2000, [0.5, 0.3, 0.2], seed=1, tie_rate=0.2)
    share = win_share(f)
    assert np.allclose(share.groupby(f["game"]).sum(), 1.0)
    assert set(np.round(share[f["shared_win"]], 6)) == {0.5}


def test_clustered_interval_is_not_narrowed_by_copies_of_the_same_game():
    v = np.random.default_rng(2).normal(size=3000)
    single = clustered_mean(v, np.arange(3000))
    assert single.width == pytest.approx(mean(v).width, rel=0.01)      # one row per cluster: the usual interval
    copied = clustered_mean(np.repeat(v, 4), np.repeat(np.arange(3000), 4))
    assert copied.width == pytest.approx(single.width, rel=0.01)        # 4 identical rows add no information
    naive = mean(np.repeat(v, 4))
    assert naive.width < 0.6 * copied.width                             # which a row-wise interval would claim


def test_seat_spread_of_a_fair_game_covers_zero_and_of_an_unfair_one_does_not():
    covered = sum(seat_spread({"fair": synthetic(3000, [1 / 3] * 3, seed=s)}, reps=200, seed=s)["lo"].iloc[0] == 0
                  for s in range(30))
    assert covered >= 26                                                # ~95% coverage of the fair value
    unfair = seat_spread({"unfair": synthetic(20000, [0.40, 0.30, 0.30], seed=7)}, reps=200).iloc[0]
    truth = math.sqrt(((0.40 - 1 / 3) ** 2 + 2 * (0.30 - 1 / 3) ** 2) / 3)
    assert unfair["lo"] > 0 and unfair["lo"] <= truth <= unfair["hi"]


def test_old_max_minus_min_gap_is_biased_where_the_spread_is_not():
    f = synthetic(3000, [0.25] * 4, seed=3)
    rates = f.groupby("seat")["win"].mean()
    assert rates.max() - rates.min() > 0.01                             # a fair game still shows a gap
    assert seat_spread({"fair": f}, reps=200).iloc[0]["spread"] < 0.006


def test_seat_shares_refuse_a_mixed_match_and_report_the_exact_fair_value():
    with pytest.raises(ValueError, match="mirror"):
        seat_shares(synthetic(100, [0.5, 0.5], seed=1, strategies=["a", "b"]))
    t = seat_shares(synthetic(5000, [0.6, 0.4], seed=4, tie_rate=0.1))
    assert (t["fair"] == 0.5).all() and t["win_share"].sum() == pytest.approx(1.0)
    assert t.iloc[0]["lo"] > 0.5 > t.iloc[1]["hi"]


def test_skill_gap_recovers_the_elo_of_a_known_win_probability():
    p = 0.76
    f = synthetic(20000, [p, 1 - p], seed=5, strategies=["strong", "weak"])
    e = ahead_share(f, "strong", "weak")
    assert e.lo <= p <= e.hi
    row = skill_gap(f, "strong", "weak").iloc[0]
    assert row["elo_lo"] <= elo(p) <= row["elo_hi"]
    assert elo(0.5) == 0 and elo(0.76) == pytest.approx(200, abs=1)


def duplicate(deals, n, skill, deal_sd, seed):
    """Duplicate games: slot k's score = skill[k] + deal effect (per deal and slot) + rotation noise."""
    rng = np.random.default_rng(seed)
    rows = []
    effect = rng.normal(0, deal_sd, size=(deals, n))
    for d in range(deals):
        for r in range(n):
            g = d * n + r
            for seat in range(n):
                k = (seat + g) % n
                rows.append((g, d, seat, n, f"s{k}", skill[k] + effect[d, k] + rng.normal(0, 1)))
    return pd.DataFrame(rows, columns=["game", "deal", "seat", "players", "strategy", "score"])


def test_deal_luck_separates_skill_from_the_luck_of_the_deal():
    skilled = deal_luck(duplicate(600, 3, [0, 3, 6], deal_sd=0.0, seed=1), column="score", reps=50)
    lucky = deal_luck(duplicate(600, 3, [0, 0, 0], deal_sd=3.0, seed=2), column="score", reps=50)
    share = lambda t, c: t.loc[t["component"].str.startswith(c), "share"].iloc[0]
    assert share(skilled, "skill") > 0.85 and share(skilled, "deal suits") < 0.05
    assert share(lucky, "deal suits") > 0.8 and share(lucky, "skill") < 0.05
    for t in (skilled, lucky):   # luck is everything the strategies do not explain: the deal and the seat
        assert share(t, "luck") == pytest.approx(1 - share(t, "skill"))
        assert share(t, "luck") == pytest.approx(share(t, "deal suits") + share(t, "seat within"), abs=0.005)


def test_pairing_gain_reports_the_correlation_and_the_narrower_paired_interval():
    rng = np.random.default_rng(8)
    common = rng.normal(size=4000)
    a = pd.DataFrame({"game": np.arange(4000), "seat": 0, "score": common + 0.3 * rng.normal(size=4000)})
    b = a.assign(score=common + 0.1 + 0.3 * rng.normal(size=4000))
    g = pairing_gain(a, b, "score")
    assert g["correlation"] > 0.8 and g["ratio"] < 0.5 and g["lo"] < 0.1 < g["hi"]


def test_skill_gap_interval_stays_finite_near_a_sure_win():
    """A heuristic that beats random play in ~99.7% of meetings: the logit-scale interval keeps a
    finite upper bound (the probability scale's interval would reach 1, i.e. infinite Elo)."""
    f = synthetic(3000, [0.997, 0.003], seed=9, strategies=["strong", "random"])
    g = skill_gap(f, "strong").iloc[0]
    assert math.isfinite(g.elo_hi) and g.elo_lo < g.elo_gap < g.elo_hi and g.ahead_hi < 1.0


def test_mirror_seats_refuse_a_verdict_true_by_construction():
    """A mirror in which every game ends with all seats level (a deterministic strategy where seats act
    simultaneously) gives a finding saying so, not a 'fair' verdict; a real mirror gets its verdict."""
    from simlab.report.page import Report
    from simlab.report.sections import mirror_bottom_line, mirror_seats

    level = synthetic(500, [0.5, 0.5], seed=3, tie_rate=1.0)
    real = synthetic(4000, [0.6, 0.4], seed=4)
    rep = Report("t", "q")
    shares = mirror_seats(rep, {"tied": level, "real": real})
    subjects = [v.subject for v in rep.verdicts]
    assert subjects == ["Start player's win share, 2 players, real mirror"]
    assert any("tied mirror at 2 players cannot judge the seats" in f for f in rep.findings)
    assert "favoured at 2 players" in mirror_bottom_line(shares)
    rep = Report("t", "q")
    assert mirror_bottom_line(mirror_seats(rep, {"tied": level})).startswith("No mirror match could judge")


def test_seat_spread_of_several_mirrors_is_each_mirrors_own_from_shared_draws():
    """Mirrors of one study (the same games per player count) share the bootstrap's weights, drawn
    once; every mirror's spread and interval is exactly the one it gets alone, also beside a
    mirror with other game counts, which draws its own."""
    mirrors = {"a": pd.concat([synthetic(3000, [0.4, 0.3, 0.3], seed=1), synthetic(3000, [0.5, 0.5], seed=2)]),
               "b": pd.concat([synthetic(3000, [1 / 3] * 3, seed=3), synthetic(3000, [0.45, 0.55], seed=4)]),
               "c": synthetic(2000, [0.4, 0.3, 0.3], seed=5)}
    together = seat_spread(mirrors, reps=200, seed=9)
    alone = pd.concat([seat_spread({s: f}, reps=200, seed=9) for s, f in mirrors.items()], ignore_index=True)
    pd.testing.assert_frame_equal(together, alone)
    assert list(together["strategy"]) == ["a", "a", "b", "b", "c"]
    a3, b3 = together[together["players"] == 3].iloc[:2].itertuples()
    assert (a3.lo, a3.hi) != (b3.lo, b3.hi)     # same draws, different data: different intervals


def test_deal_luck_bootstrap_counts_give_the_shares_of_the_resampled_deals_themselves():
    """The bootstrap weighs each deal by how often a resample drew it; that must equal the shares
    computed on the resampled deals as a cube (repeats included), the definition of the resample."""
    from simlab.measures.fairness import _variance_shares

    rng = np.random.default_rng(3)
    cube = rng.normal(size=(40, 3, 3)) + np.array([0.0, 1.0, 2.0])   # deal, rotation, slot
    draws = rng.integers(0, 40, (5, 40))
    counts = np.stack([np.bincount(d, minlength=40) for d in draws]).astype(np.float64)
    weighted = _variance_shares(cube, counts)
    for row, d in zip(weighted, draws):
        direct = _variance_shares(cube[d], np.ones((1, 40)))[0]
        assert row == pytest.approx(direct, abs=1e-12)
    assert weighted[:, :3].sum(axis=1) == pytest.approx(np.ones(5))      # skill + deal + seat: the whole
    assert weighted[:, 3] == pytest.approx(1 - weighted[:, 0])            # luck: all but skill
