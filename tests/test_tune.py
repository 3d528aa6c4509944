"""`simlab tune`: the values of one rule parameter whose measure lies in a target band, decided
sequentially with intervals corrected for repeated looks."""
import pandas as pd
import pytest

import simlab
from simlab.cli import main
from simlab.core.game import get_game
from simlab.core.results import load
from simlab.measures.catalogue import lookup
from simlab.measures.stats import Estimate
from simlab.report.wording import bottom_line_problems
from simlab.studies.compare import Arm
from simlab.studies.rule_tuning import (IN, OUT, UNDECIDED, corrected_level, decide, interval, parse_target, run_tune,
                                        tune)


def quiet(m):
    pass


def est(lo, hi):
    return Estimate((lo + hi) / 2, lo, hi, 100, "test")


def test_decide_in_only_when_the_whole_interval_lies_in_the_band_out_only_when_wholly_outside():
    assert decide(est(0.03, 0.09), 0.02, 0.10) == IN
    assert decide(est(0.02, 0.10), 0.02, 0.10) == IN          # the edges belong to the band
    assert decide(est(0.00, 0.019), 0.02, 0.10) == OUT
    assert decide(est(0.11, 0.20), 0.02, 0.10) == OUT
    assert decide(est(0.01, 0.05), 0.02, 0.10) == UNDECIDED   # crosses the lower edge
    assert decide(est(0.00, 0.30), 0.02, 0.10) == UNDECIDED   # holds the whole band and more


def test_games_go_only_to_undecided_values_round_robin_until_max_games():
    """Synthetic interval sequences: a decides IN at its first look, b OUT at its second, c never."""
    script = {"a": [est(0.04, 0.06)], "b": [est(0.0, 0.05), est(0.0, 0.01)], "c": [est(0.01, 0.05)] * 10}
    calls = []

    def look(v, games):
        calls.append((v, games))
        return script[v][sum(1 for w, _ in calls if w == v) - 1]

    state = tune(["a", "b", "c"], look, 0.02, 0.10, batch=100, max_games=350)
    assert calls == [("a", 100), ("b", 100), ("c", 100), ("b", 200), ("c", 200), ("c", 300), ("c", 350)]
    assert {v: s[:2] for v, s in state.items()} == {"a": (IN, 100), "b": (OUT, 200), "c": (UNDECIDED, 350)}


def test_the_bottom_line_gives_runs_of_values_as_ranges():
    from simlab.studies.rule_tuning import spans
    assert spans([4, 5, 6, 7, 9, 11, 12]) == "`4`-`7`, `9`, `11` and `12`"
    assert spans([13]) == "`13`" and spans(["ring4", "plain"]) == "`ring4` and `plain`"


def test_the_bottom_line_answers_in_the_measures_own_words_and_says_which_side_the_rest_fall():
    """Issue 30: the first sentence names the outcome (not its key) and the player count, and says
    which values give less and which more; all values on one side read 'every one gives less'."""
    from simlab.studies.rule_tuning import bottom_line
    meas = lookup(get_game("loot-island"), "curse_elimination_rate", ("hunter",) * 4)

    def table(rows):
        return pd.DataFrame([{"value": str(v), "games": 2000, "estimate": e, "lo": lo, "hi": hi, "verdict": d}
                             for v, e, lo, hi, d in rows])

    mixed = table([(10, .2, .15, .25, OUT), (11, .05, .03, .07, IN), (12, .01, .005, .015, OUT),
                   (13, .019, .012, .025, UNDECIDED)])
    first, *rest = bottom_line(mixed, "curse_threshold", meas, (0.02, 0.10), "[2%, 10%]", 4000, 2000, 4,
                               [10, 11, 12, 13], 4)
    assert first == ("curse_threshold `11` keeps the share of players eliminated by curses in [2%, 10%] at 4 "
                     "players: `12` gives less and `10` gives more.")
    assert rest[0] == "Still undecided after 4,000 games: `13`."
    low = table([(v, .01, .005, .015, OUT) for v in (12, 13, 14)])
    first = bottom_line(low, "curse_threshold", meas, (0.02, 0.10), "[2%, 10%]", 4000, 2000, 3, [12, 13, 14], 4)[0]
    assert first == ("No value of curse_threshold (`12`-`14`) keeps the share of players eliminated by curses "
                     "in [2%, 10%] at 4 players: every one gives less.")
    assert not bottom_line_problems(bottom_line(low, "curse_threshold", meas, (0.02, 0.10), "[2%, 10%]", 4000, 2000, 3,
                                                [12, 13, 14], 4))


def test_bonferroni_splits_the_five_percent_over_values_and_looks():
    assert corrected_level(17, 2000, 100_000) == pytest.approx(1 - 0.05 / (17 * 50))
    assert corrected_level(2, 100, 350) == pytest.approx(1 - 0.05 / 8)


def test_share_bounds_as_fractions_or_percents_are_the_same_target():
    spec = get_game("loot-island")
    seats = ("hunter",) * 4
    m1, lo1, hi1 = parse_target(spec, "curse_elimination_rate in [2%, 10%]", seats)
    m2, lo2, hi2 = parse_target(spec, "curse_elimination_rate in [0.02, 0.10]", seats)
    assert m1.key == m2.key == "curse_out"      # the key simlab tune took before key outcomes joined the catalogue
    assert (lo1, hi1) == pytest.approx((lo2, hi2)) and (lo1, hi1) == pytest.approx((0.02, 0.10))
    assert parse_target(spec, "start_edge in [-1%, 1%]", seats)[1:] == pytest.approx((-0.01, 0.01))
    assert parse_target(spec, "length in [5, 9]", seats)[1:] == (5.0, 9.0)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    """Loot Island, 4 players, the default mix at curse thresholds 1 and 13, tiny batches, a band
    (50% to 100% of players eliminated by curses) that the first batch can already rule out."""
    out = tmp_path_factory.mktemp("tune")
    rep, paths = run_tune("loot-island", 4, "curse_threshold=1,13", "curse_elimination_rate in [50%, 100%]", Arm("A"),
                          batch=40, max_games=200, out=out, executor="serial", progress=False, log=quiet)
    return out, rep, paths


def test_loot_island_tune_decides_from_intervals_that_match_the_games_played(tuned):
    """Rule: a player with curse_threshold cubes or more at game end is eliminated by curses ([S0] end
    step 2, eliminated == 1). Each value's estimate is the share of such players in exactly the games
    its run holds, its verdict is its interval read against the band, and a value stopped at its
    first deciding look (the batch before, it was undecided) or at the cap."""
    out, rep, paths = tuned
    measure = lookup(get_game("loot-island"), "curse_elimination_rate", ("hunter",) * 4)
    (csv,) = out.glob("*-at-every-value-of-*.csv")     # the table's numbers, shares as fractions
    t = pd.read_csv(csv).set_index("curse_threshold").rename(columns={
        measure.name: "estimate", f"{measure.name} low": "lo", f"{measure.name} high": "hi"})
    assert any(t["verdict"] != UNDECIDED)
    for i, value in enumerate((1, 13)):
        r = t.loc[value]
        assert r["lo"] <= r["estimate"] <= r["hi"]
        assert r["verdict"] == decide(Estimate(r["estimate"], r["lo"], r["hi"], 0, ""), 0.5, 1.0)
        f = load(out / "runs" / f"tune-4p-{i:02d}")
        assert r["games"] % 40 == 0 and (r["games"] == 200 or r["verdict"] != UNDECIDED)
        if r["games"] > 40:          # one batch fewer left it undecided
            earlier = f[f["game"] < r["games"] - 40]
            per_game = (earlier["eliminated"] == 1).groupby(earlier["game"]).mean()
            e = interval(per_game, earlier.groupby("game")["deal"].first(), measure, 4, corrected_level(2, 40, 200))
            assert decide(e, 0.5, 1.0) == UNDECIDED
        assert f["game"].nunique() == r["games"]
        assert r["estimate"] == pytest.approx((f["eliminated"] == 1).mean())
    found = simlab.load_findings(out).set_index("arm")     # each value's verdict as data, at the joint level
    assert list(found.index) == ["curse_threshold=1", "curse_threshold=13"]
    for value in (1, 13):
        row, r = found.loc[f"curse_threshold={value}"], t.loc[value]
        assert (row["measure"], row["players"], row["band"], row["band_low"], row["band_high"]) == (
            "curse_out", 4, "quality", 0.5, 1.0)
        assert (row["estimate"], row["low"], row["high"]) == pytest.approx((r["estimate"], r["lo"], r["hi"]))
        assert row["level"] == pytest.approx(corrected_level(2, 40, 200)) and row["games"] == r["games"]
        assert row["verdict"] == {IN: "inside", OUT: "outside", UNDECIDED: "undecided"}[r["verdict"]]
    decided = [f"`{v}`" for v in t.index if t.loc[v, "verdict"] == OUT]
    assert all(d in rep.bottom_line[0] for d in decided) and rep.bottom_line[0].startswith("No value of curse_threshold")
    assert (out / "tune.svg").exists() and "Bonferroni" in paths["markdown"].read_text()


@pytest.mark.parametrize("args, message", [
    (["--target", "fun in [0, 1]"], "unknown measure 'fun'"),
    (["--target", "curse_elimination_rate between 2% and 10%"], "--target expects"),
    (["--target", "curse_elimination_rate in [10%, 2%]"], "LO must not exceed HI"),
    (["--target", "curse_elimination_rate in [2, 10]"], "is a share"),
    (["--target", "length in [5%, 9%]"], "is a number, not a share"),
    (["--target", "start_edge in [-1%, 1%]"], "start_edge needs a mirror"),
    (["--target", "win:racer in [20%, 30%]"], "plays in none of the seats"),
    (["--target", "length in [5, 9]", "--batch", "500", "--max-games", "100"], "is below --batch"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message, tmp_path, capsys):
    """tune refuses bad input before any game: one line, exit code 2, no report folder."""
    with pytest.raises(SystemExit) as exc:
        main(["tune", "loot-island", "--param", "curse_threshold=4..6", *args, "--out", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()
