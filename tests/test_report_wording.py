"""The wording rules of balance reports (simlab.report.wording): each test names the rule it checks."""
import math

import pytest

from simlab.measures.stats import Estimate, proportion
from simlab.report.wording import (BAND_LABELS, POINTS, SHARE, TIE, Band, Verdict, best_of, compare, difference,
                                   fmt_count, fmt_points, fmt_ratio, fmt_share)


def est(value, lo, hi, n=1000):
    return Estimate(value, lo, hi, n, "test")


# -- numbers in their own unit ----------------------------------------------------------------

def test_rule_a_small_share_keeps_two_significant_digits_instead_of_reading_as_zero():
    assert fmt_share(0.273) == "27.3%"
    assert fmt_share(0.0012) == "0.12%" and fmt_share(0.00012) == "0.012%"
    assert fmt_share(0.273, 0.269, 0.277) == "27.3% [26.9%, 27.7%]"
    assert fmt_share(0.0012, 0.0005, 0.003) == "0.12% [0.05%, 0.30%]"      # one precision for the triple
    assert fmt_share(math.nan) == "n/a"


def test_rule_a_difference_of_two_shares_prints_in_percentage_points():
    assert fmt_points(0.023, 0.011, 0.035) == "+2.3 points [+1.1, +3.5]"
    assert fmt_points(-0.004, -0.009, 0.001) == "-0.40 points [-0.90, +0.10]"
    v = Verdict("change in seat 1's win rate", est(0.013, -0.005, 0.031), 0.0, Band.effect(0.02), unit=POINTS)
    text = v.sentence()
    assert "+1.3 points [-0.5, +3.1]" in text and "%" not in text


def test_rule_two_rates_of_very_different_size_print_both_and_the_fold():
    assert fmt_ratio(0.012, 0.001) == "1.2% -> 0.10% (12-fold fewer)"
    assert fmt_ratio(0.001, 0.012) == "0.10% -> 1.2% (12-fold more)"
    assert fmt_ratio(0.10, 0.25) == "10.0% -> 25.0% (2.5-fold more)"
    assert fmt_ratio(0.30, 0.32) == "30.0% -> 32.0%"
    assert fmt_ratio(0.02, 0.0) == "2.0% -> 0.0% (down to none)"


def test_counts_print_with_thousands_separators():
    assert fmt_count(1234567) == "1,234,567"


# -- higher, lower or a tie: decided by the interval of the difference ------------------------

def test_rule_a_difference_whose_interval_includes_zero_reads_as_a_tie_whatever_the_points():
    a, b = est(0.52, 0.49, 0.55), est(0.50, 0.47, 0.53)
    assert a.value > b.value and compare(a, b) == TIE == "a statistical tie"
    assert compare(est(0.02, 0.005, 0.035)) == "higher" and compare(est(-0.02, -0.035, -0.005)) == "lower"


def test_rule_the_verdict_uses_the_difference_not_whether_the_two_intervals_overlap():
    # the intervals overlap (0.480-0.485), yet the difference's interval excludes 0
    a, b = est(0.50, 0.48, 0.52), est(0.465, 0.445, 0.485)
    assert a.lo < b.hi and compare(a, b) == "higher"


def test_difference_of_independent_estimates_combines_matching_sides_newcombe():
    a, b = proportion(300, 1000), proportion(250, 1000)
    d = difference(a, b)
    assert d.value == pytest.approx(0.05)
    assert d.lo == pytest.approx(0.05 - math.hypot(a.value - a.lo, b.hi - b.value))
    assert d.hi == pytest.approx(0.05 + math.hypot(a.hi - a.value, b.value - b.lo))


def test_rule_the_best_is_every_option_tied_with_the_best_not_an_argmax():
    options = {"cap 5": est(0.30, 0.27, 0.33), "cap 8": est(0.31, 0.28, 0.34), "cap 11": est(0.22, 0.20, 0.24)}
    best = best_of(options)
    assert best.best == "cap 8" and set(best.tied) == {"cap 8", "cap 5"}
    assert best.sentence().startswith("cap 8 and cap 5 are tied for best (")
    clear = best_of({"a": est(0.6, 0.58, 0.62), "b": est(0.4, 0.38, 0.42)})
    assert clear.tied == ("a",) and clear.sentence() == "a is best: every other option is statistically below it"
    low = best_of({"a": est(5.0, 4.8, 5.2), "b": est(3.0, 2.9, 3.1)}, higher_is_better=False)
    assert low.tied == ("b",) and "above it" in low.sentence("shortest")


# -- bands named for what they judge -----------------------------------------------------------

FAR_ABOVE = est(0.40, 0.38, 0.42)


@pytest.mark.parametrize("band, words", [
    (Band.effect(0.02, around=0.25), "larger than the minimum effect that matters"),
    (Band.floor(0.30, "threat floor"), "above the threat floor"),
    (Band.quality(0.20, 0.30), "outside the quality band"),
])
def test_rule_a_band_that_does_not_judge_fairness_never_reads_fairness_or_outside(band, words):
    v = Verdict("hunter:cap=5 win rate", FAR_ABOVE, 0.25, band)
    text = v.sentence()
    assert words in text and "fairness" not in text and "OUTSIDE" not in text
    assert v.judgement.css != "out"          # only a fairness verdict is shown in red


def test_rule_only_a_fairness_band_reads_outside_in_red():
    v = Verdict("Start player win rate", FAR_ABOVE, 0.25, Band.fairness(0.25, 0.02))
    assert "fairness band 23.0% to 27.0%: **OUTSIDE the fairness band**" in v.sentence()
    assert v.judgement.css == "out"
    inside = Verdict("Start player win rate", est(0.25, 0.245, 0.255), 0.25, Band.fairness(0.25, 0.02))
    assert inside.status == "within the fairness band" and inside.judgement.css == "in"


def test_an_interval_across_an_edge_is_undecided_for_every_kind():
    crossing = est(0.27, 0.26, 0.28)
    for band in (Band.fairness(0.25, 0.02), Band.effect(0.02, around=0.25), Band.quality(0.23, 0.27),
                 Band.floor(0.27)):
        assert band.judge(crossing).css == "und" and band.judge(crossing).text.startswith("undecided")


def test_a_band_keeps_the_name_of_its_kind_and_no_other_band_is_called_fair():
    assert set(BAND_LABELS) == {"fairness", "effect", "floor", "quality"}
    assert Band.effect(0.02).describe(POINTS) == "minimum effect that matters (±2.0 points)"
    assert Band.floor(0.02, "threat floor").describe(SHARE) == "threat floor 2.0%"
    with pytest.raises(ValueError):
        Band.floor(0.5, "fair floor")
    with pytest.raises(ValueError):
        Band("effect", -0.02, 0.02, label="anything")
    with pytest.raises(ValueError):
        Band("unfair", 0, 1)


def test_a_verdict_band_must_be_named_not_a_bare_range():
    with pytest.raises(TypeError):
        Verdict("x", FAR_ABOVE, 0.25, (0.23, 0.27))
