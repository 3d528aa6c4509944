"""Every stated confidence is shown, not argued: the calibration suite's fast tier.

Each check plays a synthetic game with a known truth under one dependence the tool creates and
hands every sample to the project's own estimator (simlab.calibration); here at the fast tier's
few hundred samples, fixed seeds. `simlab calibrate` runs the thorough tier."""
import numpy as np
import pandas as pd
import pytest

from simlab.calibration import COVERAGE, FAMILY, Check, covered, judge, run_check
from simlab.calibration.checks import CHECKS as ALL
from simlab.calibration.checks import luck_truth, rare_games, recheck_check
from simlab.calibration.worlds import Table, mean_ahead
from simlab.cli import main
from simlab.measures import fairness as F
from simlab.measures.stats import proportion
from simlab.report.wording import best_of

CHECKS = list(ALL)


@pytest.mark.parametrize("check", CHECKS, ids=[c.name for c in CHECKS])
def test_fast_tier_keeps_the_stated_confidence(check):
    rows = run_check(check, "fast")
    bad = rows[~rows["ok"]]
    assert bad.empty, bad[["quantity", "kind", "samples", "measured", "lo", "hi"]].to_string()


def test_every_estimator_the_reports_read_has_a_check():
    """The estimators behind the reports' intervals and verdicts, each with at least one setting."""
    names = {c.estimator.split("(")[-1].rstrip(")") for c in CHECKS}
    assert {"fairness.deal_luck", "fairness.skill_gap", "fairness.seat_shares, seat_spread", "paired.paired_measures",
            "balance.strategy_rates", "wording.best_of", "rating.bootstrap", "tune.interval",
            "tune.tune, Bonferroni over looks", "core.summary, simlab run",
            "strength.until_decided, sections.start_side"} <= names


def test_a_recheck_that_looks_without_correction_fails_its_check():
    """Looking after every batch and stopping on the first decided look, each look at 95%, lets a start
    player exactly on the band's edge be called favoured about one time in ten (measured 10.8% of 600):
    the check catches it, while the recheck's looks at level 1 - 5% / K keep it under 5%."""
    naive = recheck_check("2 players, on the band's edge, every look at 95%", Table((0.0, 0.0)), 0.02, 250, 8000,
                          naive=True)
    rows = run_check(naive, "fast", 300)
    assert not rows["ok"].all() and rows["measured"].iloc[0] > 0.07


def test_a_method_that_ignores_the_dependence_fails_its_check():
    """The checks can fail: Wilson over games, blind to a deal's rotations sharing a rare event, and
    best_of reading two seats of one table as independent, both miss their targets."""
    def naive_rate(reps, seed):
        rng = np.random.default_rng(seed)
        hit = np.zeros(reps, bool)
        for i in range(reps):
            v = rare_games(rng, 0.02, 1.0, 500, 4)
            e = proportion(v.sum(), v.size)
            hit[i] = covered(e.lo, e.hi, 0.02)
        return {"rate": hit}

    def naive_best(reps, seed):
        world = Table((0.0, 0.0))
        rng = np.random.default_rng(seed)
        score, nobody, rotation, _ = world.play(rng, 2000, "rotate", reps)
        wrong = np.zeros(reps, bool)
        for i in range(reps):
            f = world.frame(score[i], nobody[i], rotation, None)
            ests = {k: proportion(float(g["win"].sum()), len(g)) for k, g in f.groupby("strategy", observed=True)}
            wrong[i] = len(best_of(ests).tied) < 2
        return {"claims": wrong}

    rate = run_check(Check("naive", "rate", COVERAGE, naive_rate), "fast", 400)
    assert rate["measured"].iloc[0] < 0.85 and not rate["ok"].iloc[0]
    best = run_check(Check("naive", "best", FAMILY, naive_best), "fast", 400)
    assert best["measured"].iloc[0] > 0.10 and not best["ok"].iloc[0]


def test_judging_a_measured_rate():
    assert judge(COVERAGE, 950, 1000, "thorough") and not judge(COVERAGE, 920, 1000, "thorough")
    assert not judge(COVERAGE, 990, 1000, "thorough")                 # too wide to be useful fails too
    assert judge(FAMILY, 55, 1000, "thorough")                        # 5.5%: not shown above 5%
    assert not judge(FAMILY, 80, 1000, "thorough")
    assert judge(COVERAGE, 88, 100, "fast") and not judge(COVERAGE, 80, 100, "fast")


# ---------------------------------------------------------------------------------------------
# the worlds' truths are what their games do
# ---------------------------------------------------------------------------------------------

def test_a_worlds_seat_shares_and_ahead_share_are_what_its_games_give():
    world = Table((0.4, 0.0, 0.0), seat=(0.2, 0.0, -0.1), deal_strategy=0.7, deal_seat=0.4, no_winner=0.1)
    score, nobody, rotation, deal = world.play(np.random.default_rng(1), 60_000, "fixed")
    f = world.frame(score[0], nobody[0], rotation, None)
    seen = f.groupby("seat")["win"].mean().to_numpy()
    assert seen == pytest.approx(world.seat_win(), abs=0.006)
    assert f["no_winner"].mean() == pytest.approx(0.1, abs=0.005)
    wide = f.pivot(index="game", columns="seat", values="score").to_numpy()
    v = world.strengths(*world.truth_deals(), 0)          # seats fixed: slot k in seat k
    assert (wide[:, 0] > wide[:, 1]).mean() == pytest.approx(world.ahead_probability(v, 0, 1).mean(), abs=0.006)
    score, nobody, rotation, deal = world.play(np.random.default_rng(4), 60_000, "duplicate")
    g = world.frame(score[0], nobody[0], rotation, deal)
    assert F.ahead_share(g.assign(strategy=np.where(g["strategy"] == "s0", "s0", "other")), "s0", "other").value == \
        pytest.approx(np.mean([mean_ahead(world, 0, k) for k in (1, 2)]), abs=0.006)


def test_a_worlds_luck_shares_are_what_a_large_duplicate_sample_measures():
    world = Table((0.35, 0.0), seat=(0.2, 0.0), deal_strategy=1.2)
    score, nobody, rotation, deal = world.play(np.random.default_rng(2), 60_000, "duplicate")
    t = F.deal_luck(world.frame(score[0], nobody[0], rotation, deal), reps=20).set_index("component")
    for part, share in luck_truth(world).items():
        assert t.loc[part, "share"] == pytest.approx(share, abs=0.012), part


def test_the_duplicate_layout_is_the_engines():
    """Game g is rotation g % n of deal g // n, and seat s holds slot (s + g) % n, as the kernel seats them."""
    world = Table((0.0, 0.0, 0.0), names=("a", "b", "c"))
    score, nobody, rotation, deal = world.play(np.random.default_rng(3), 4, "duplicate")
    f = world.frame(score[0], nobody[0], rotation, deal)
    assert list(f["deal"]) == list(np.repeat(f["game"] // 3, 1))
    assert list(f["strategy"].astype(str)) == [("a", "b", "c")[(s + g) % 3] for g in range(12) for s in range(3)]


# ---------------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------------

def test_calibrate_prints_a_row_per_quantity_with_its_target_and_verdict(capsys, tmp_path):
    main(["calibrate", "--tier", "fast", "--only", "rating gap", "--samples", "60", "--csv", str(tmp_path / "c.csv")])
    out = capsys.readouterr().out
    assert "coverage [93.0%, 97.5%]" in out and "rating gap to random play" in out and "3 rows from 3 checks" in out
    assert len(pd.read_csv(tmp_path / "c.csv")) == 3


def test_calibrate_of_verdict_families_only_names_no_coverage_range(capsys):
    """A run of checks that measure a family's error only has no coverage to quote (not 'nan% to nan%')."""
    main(["calibrate", "--tier", "fast", "--only", "a last look at 6,000", "--samples", "40"])
    out = capsys.readouterr().out
    assert "1 rows from 1 checks" in out and "FWER <= 5%" in out and "nan" not in out and "coverage" not in out


@pytest.mark.parametrize("args, message", [
    (["--only", "no such estimator"], "no check matches"),
    (["--samples", "3"], "at least 10"),
    (["--csv", "/no/such/folder/c.csv"], "does not exist"),
])
def test_calibrate_refuses_bad_input_in_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", *args])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err
