"""simlab.measures.stats against known cases: Wilson, paired differences, bootstrap coverage,
and the sequential stopping rule."""
import math

import numpy as np
import pandas as pd
import pytest

from simlab.core.intervals import median_interval
from simlab.measures.stats import (StoppingRule, bootstrap_mean, difference_of_means, mean, paired_column_difference,
                                   paired_difference, proportion, sequential)


@pytest.mark.parametrize("k, n, lo, hi", [
    (81, 263, 0.2553, 0.3662),   # Newcombe (1998), Statistics in Medicine 17:857, table I
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_newcombes_textbook_values(k, n, lo, hi):
    e = proportion(k, n)
    assert e.value == pytest.approx(k / n)
    assert e.lo == pytest.approx(lo, abs=6e-5) and e.hi == pytest.approx(hi, abs=6e-5)
    assert e.method == "Wilson" and e.n == n


def test_paired_difference_is_the_mean_difference_with_a_normal_interval_on_the_differences():
    variant, base = [3, 5, 4, 6], [1, 2, 2, 3]          # differences 2, 3, 2, 3
    e = paired_difference(variant, base)
    half = 1.959963984540054 * math.sqrt(1 / 3) / 2      # sd of (2,3,2,3) = sqrt(1/3), n = 4
    assert e.value == pytest.approx(2.5)
    assert (e.lo, e.hi) == pytest.approx((2.5 - half, 2.5 + half))


def test_pairing_on_common_random_numbers_narrows_the_interval():
    rng = np.random.default_rng(5)
    luck = rng.normal(0, 5, 4000)                       # the shared random stream of each game
    base = luck + rng.normal(0, 1, 4000)
    variant = luck + 0.3 + rng.normal(0, 1, 4000)
    paired = paired_difference(variant, base)
    unpaired = difference_of_means(variant, base)
    assert paired.lo < 0.3 < paired.hi
    assert paired.width < unpaired.width / 3


def test_paired_column_difference_pairs_rows_by_game_and_seat_and_refuses_mismatched_arms():
    base = pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "win": [1, 0, 0, 1]})
    var = pd.DataFrame({"game": [1, 1, 0, 0], "seat": [1, 0, 1, 0], "win": [1, 1, 0, 1]})
    t = paired_column_difference(base, var, "win", by="seat")
    seat0 = t[t["group"] == 0].iloc[0]
    assert seat0["baseline"] == 0.5 and seat0["variant"] == 1.0 and seat0["difference"] == 0.5
    with pytest.raises(ValueError):
        paired_column_difference(base, var.iloc[:3], "win")


def test_bootstrap_interval_covers_the_true_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    hits = 0
    trials = 300
    for t in range(trials):
        sample = rng.exponential(1.0, 60)               # skewed, true mean 1
        e = bootstrap_mean(sample, reps=500, seed=t)
        hits += e.lo <= 1.0 <= e.hi
    assert 0.88 <= hits / trials <= 0.99


def test_bootstrap_is_reproducible_and_close_to_the_normal_interval_for_large_samples():
    v = np.random.default_rng(2).normal(10, 2, 5000)
    a, b = bootstrap_mean(v, seed=3), bootstrap_mean(v, seed=3)
    n = mean(v)
    assert (a.lo, a.hi) == (b.lo, b.hi)
    assert a.lo == pytest.approx(n.lo, abs=0.02) and a.hi == pytest.approx(n.hi, abs=0.02)


def _bernoulli_source(p, seed=0, size=2_000_000):
    """Draws fixed by their index (like game ids): the first n are the same whatever the batches."""
    draws = np.random.default_rng(seed).random(size) < p
    state = {"n": 0, "calls": []}

    def play_to(n):
        state["calls"].append(n)
        state["n"] = n

    def measure():
        return proportion(int(draws[:state["n"]].sum()), state["n"])

    return play_to, measure, state


def test_stopping_rule_stops_at_the_first_look_where_the_interval_is_narrow_enough():
    play_to, measure, state = _bernoulli_source(0.3)
    rule = StoppingRule(target_width=0.01, min_games=1000, max_games=1_000_000, unit=500)
    res = sequential(play_to, measure, rule)
    assert res.reached and res.estimate.width <= 0.01
    assert all(w > 0.01 for _, w in res.looks[:-1])     # no earlier look was narrow enough
    assert len(res.looks) <= 4 and state["calls"] == sorted(state["calls"])
    assert all(n % 500 == 0 for n, _ in res.looks)
    # the square-root law: width 0.01 at p = 0.3 needs about 4 * 1.96^2 * 0.21 / 0.01^2 = 32,300 games
    assert 32_000 <= res.games <= 45_000


def test_stopping_rule_gives_up_at_the_cap_and_says_so():
    play_to, measure, _ = _bernoulli_source(0.5)
    rule = StoppingRule(target_width=0.001, min_games=1000, max_games=20_000, unit=1000)
    res = sequential(play_to, measure, rule)
    assert not res.reached and res.games == 20_000
    assert "cap of 20,000 games" in res.describe()


def test_stopping_rule_stops_at_once_when_the_first_batch_is_enough():
    play_to, measure, state = _bernoulli_source(0.5)
    res = sequential(play_to, measure, StoppingRule(target_width=0.5, min_games=1000))
    assert res.reached and state["calls"] == [1000]


def test_median_interval_is_the_order_statistics_with_binomial_coverage_of_at_least_95_percent():
    """The interval a bench ratio carries: for 21 rounds, the 6th and 16th smallest (coverage
    1 - 2 P(Bin(21, 1/2) <= 5) = 97.3%; the 7th-15th would cover only 92.2%); for 5 rounds the
    min-max, 93.8%, the most five values can give; the values' order does not matter."""
    values = [20 - i for i in range(21)]
    low, high, coverage = median_interval(values)
    assert (low, high) == (5, 15) and coverage == pytest.approx(0.97339, abs=1e-5)
    assert median_interval([3.0, 1.0, 5.0, 2.0, 4.0]) == (1.0, 5.0, pytest.approx(0.9375))
    assert median_interval([7.0])[:2] == (7.0, 7.0)
