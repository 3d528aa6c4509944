"""The curse-threshold experiment end to end at tiny game counts, its binds / greed-pays logic on
tables whose answer is known from how they were built, and the threshold-blind risk taker it rests on."""
import re

import pandas as pd
import pytest

from experiments.curse_threshold import (APPETITES, BINDING, BLIND, NO_THRESHOLD, TABLES, THRESHOLDS, best_responses,
                                         binding, binds_sentence, greed_pays_from, greed_sentence, holds_from,
                                         stops_binding)
from simlab.core.results import load
from simlab.core.runner import RunConfig, prepared
from simlab.studies.experiment import run_experiment

QUIET = {"executor": "serial", "progress": False, "log": lambda m: None}


@pytest.fixture(scope="module")
def threshold(tmp_path_factory):
    out = tmp_path_factory.mktemp("threshold")
    report, paths = run_experiment("curse-threshold", games=30, out=out, options={"strong": "cautious@tuned"}, **QUIET)
    return out, report, paths


def test_curse_threshold_report_opens_with_a_short_bottom_line_and_splits_eliminations_by_cause(threshold):
    out, report, paths = threshold
    md = paths["markdown"].read_text()
    order = [md.index(h) for h in ("## Bottom line", "## What it rests on", "## Findings", "## Charts", "## Tables",
                                   "## Caveats", "## Reproduce")]
    assert order == sorted(order)
    binds, greed, printed = report.bottom_line
    assert re.match(r"The threshold stops binding heeding players from (\d+ up|never up to 20) at 2, ", binds)
    assert re.match(r"Greed pays (at|from) ", greed)
    assert printed.startswith("At the printed 13, curses eliminate") and "ASSUMED healer fee" in printed
    assert re.search(r"stronger play at 2 players: (holds|differs) with cautious@tuned", printed)
    details = " ".join(report.findings[:3])                    # the whole reading, in the findings
    assert re.search(r"(threshold stops binding at|threshold binds all the way to 20 at) [2-5]", details)
    assert re.search(r"(greed no longer pays|greed pays at no threshold up to 20|greed pays at every threshold)", details)
    assert "At the printed 13 greed pays at" in details and "ASSUMED healer cards" in details
    assert re.search(r"with stronger players in every seat \(2 players\) whether the printed 13 binds \(it (binds|does "
                     r"not bind) the heeding hunters\): (holds|differs) with cautious@tuned", details)
    assert any(f.startswith("2 players, cautious@tuned in every seat: the printed 13 ") for f in report.findings)
    assert "balanced" not in md                                # the old criterion is gone
    rests = md[md.index("## What it rests on"):md.index("## Contents")]
    assert "Healer-fee eliminations rest entirely on the ASSUMED healer cards" in rests and "`healer_per_cube`" in rests
    findings = md[md.index("## Findings"):md.index("## Charts")]
    for n in (2, 3, 4, 5):
        assert re.search(rf"{n} players, best responses by threshold .*: 4(-\d+)?: .*; (M = \d+|greed pays at no)",
                         findings)
        assert f"{n} players, threshold 13: players eliminated by the healer fee" in findings
    assert "fairness band" not in md and "OUTSIDE" not in md   # nothing here judges fairness
    for chart in ("eliminations-by-cause", "best-response"):
        assert (out / f"{chart}.svg").stat().st_size > 1000 and f"({chart}.svg)" in md
    sweep = pd.read_csv(out / "threshold-sweep-eliminations-by-cause-and-what-binds.csv")
    assert len(sweep) == 4 * len(THRESHOLDS) and sorted(sweep["threshold"].unique()) == list(range(4, 21))
    assert {"by curses, heeding", "by curses, blind", "by healer fee, all (ASSUMED healers)"} <= set(sweep.columns)
    table = pd.read_csv(out / "round-table-win-rate-of-each-risk-appetite.csv")
    assert len(table) == sum(len(s) for s in TABLES.values()) * len(THRESHOLDS)
    assert set(table["appetite"]) == set(APPETITES.values())


def test_curse_threshold_runs_apply_their_threshold_and_the_reference_has_none(threshold):
    out = threshold[0]
    for t in (4, 13, 20):
        f = load(out / "runs" / f"table-4p-curse_threshold-{t}")
        assert (f.loc[f["eliminated"] == 0, "curses"] < t).all()
        assert (f.loc[f["curses"] >= t, "eliminated"] == 1).all()
        assert not f.loc[f["eliminated"] > 0, "win"].any()
    free = load(out / "runs" / f"table-2p-curse_threshold-{NO_THRESHOLD}")
    assert not (free["eliminated"] == 1).any() and free["curses"].max() >= 13   # cubes past 13 eliminate nobody
    assert set(free["strategy"].astype(str)) == set(TABLES[2])


def _sweep(curse_out: dict, width: float = 0.002) -> pd.DataFrame:
    """A synthetic sweep: the share of players eliminated by curses per threshold, the other binding
    measures equal to the reference (0.5), every interval +-``width``."""
    rows = []
    for t, v in curse_out.items():
        r = {"threshold": t}
        for stem, value in (("curse_out", v), ("blind_win", 0.5)):
            r.update({stem: value, f"{stem}_lo": value - width, f"{stem}_hi": value + width})
        r.update({"win_cubes": 5.0, "win_cubes_sd": 2.0, "win_cubes_n": 100_000})
        rows.append(r)
    return pd.DataFrame(rows)


REFERENCE = {"curse_out": 0.0, "curse_out_lo": 0.0, "curse_out_hi": 0.001, "blind_win": 0.5, "blind_win_lo": 0.498,
             "blind_win_hi": 0.502, "win_cubes": 5.0, "win_cubes_sd": 2.0, "win_cubes_n": 100_000}


def test_the_threshold_stops_binding_where_no_higher_value_differs_from_no_threshold():
    # curse eliminations 10%, 5%, 1% at 4-6, then none: it binds up to 6, stops from 7
    sweep = _sweep({4: 0.10, 5: 0.05, 6: 0.01, 7: 0.0, 8: 0.0, 9: 0.0})
    moved = binding(sweep, REFERENCE)
    assert moved[4] == moved[6] == ["curse_out"] and moved[7] == moved[9] == []
    assert stops_binding(moved) == 7
    # a difference inside the intervals is a tie, not binding
    assert stops_binding(binding(_sweep({4: 0.10, 5: 0.002, 6: 0.0}), REFERENCE)) == 5
    # binding again at 8 (here: the winners' cubes) moves N past it; binding at the top: no N
    cubes = _sweep({4: 0.1, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0, 9: 0.0})
    cubes.loc[cubes["threshold"] == 8, "win_cubes"] = 5.5
    assert binding(cubes, REFERENCE)[8] == ["win_cubes"] and stops_binding(binding(cubes, REFERENCE)) == 9
    assert stops_binding(binding(_sweep({4: 0.1, 5: 0.1}), REFERENCE)) is None
    assert set(BINDING) == {"curse_out", "win_cubes", "blind_win"}


def _apps(blind: dict, best: float = 0.40, width: float = 0.01) -> pd.DataFrame:
    """A synthetic round table per threshold: cap 11 at ``best``, the blind risk taker at ``blind[t]``."""
    rows = []
    for t, b in blind.items():
        for name, w in (("cap 11", best), ("blind", b)):
            rows.append({"threshold": t, "appetite": name, "seats": 10_000, "win": w, "win_lo": w - width,
                         "win_hi": w + width})
    return pd.DataFrame(rows)


def test_greed_pays_from_the_lowest_threshold_where_a_greedy_appetite_stays_among_the_best():
    # beaten (30% vs 40%) up to 6, tied (39%: intervals overlap) from 7, ahead at 9
    best = best_responses(_apps({4: 0.30, 5: 0.30, 6: 0.30, 7: 0.39, 8: 0.39, 9: 0.45}))
    assert best[6] == ("cap 11",) and set(best[7]) == {"cap 11", "blind"} and best[9] == ("blind",)
    assert greed_pays_from(best) == 7
    # a tie at 5 alone does not count: greed is beaten again at 6
    assert greed_pays_from(best_responses(_apps({4: 0.3, 5: 0.39, 6: 0.3, 7: 0.4, 8: 0.4}))) == 7
    assert greed_pays_from(best_responses(_apps({4: 0.4, 5: 0.4}))) == 4          # pays everywhere
    assert greed_pays_from(best_responses(_apps({4: 0.4, 5: 0.3}))) is None       # beaten at the top
    # cap 14 is greed too (greedier than the default cap 11); cap 5 is not
    ahead = pd.DataFrame([{"threshold": t, "appetite": name, "seats": 10_000, "win": w, "win_lo": w - 0.01,
                           "win_hi": w + 0.01} for t, name, w in ((4, "cap 14", 0.3), (4, "cap 5", 0.4),
                                                                  (5, "cap 14", 0.4), (5, "cap 5", 0.3))])
    assert greed_pays_from(best_responses(ahead)) == 5
    assert holds_from({}) is None


def test_best_responses_read_appetites_at_one_table_with_their_covariance():
    """At a 2-player table one appetite's win is the other's loss: their win rates move exactly against
    each other, so their difference varies twice as much as independent rates' would. A gap that
    independence calls decided (0.40 vs 0.385, each +-0.01: 2.1 standard errors) is a tie at one table."""
    apps = _apps({7: 0.385}, width=0.01)
    assert best_responses(apps)[7] == ("cap 11",)
    var = (0.01 / 1.959964) ** 2
    apps["win_cov"] = [{"cap 11": var, "blind": -var}, {"cap 11": -var, "blind": var}]
    assert set(best_responses(apps)[7]) == {"cap 11", "blind"}


def test_the_bottom_line_sentences_state_n_and_m_per_player_count_and_say_so_when_there_is_none():
    none = dict.fromkeys(BINDING)
    text = binds_sentence({2: None, 3: 16, 4: 16, 5: None}, {2: none, 3: none, 4: none, 5: {**none, "win_cubes": 18}})
    assert text == ("From 16 up the threshold stops binding at 3 and 4 players and the threshold binds all the way to "
                    "20 at 2 and 5 players (at 5 players the winners' cubes stop moving from 18 up)")
    text = greed_sentence({2: None, 3: None, 4: 14, 5: 4}, {2: None, 3: None, 4: 19, 5: 4})
    assert text == ("Greed pays at every threshold swept at 5 players, below 14 greed no longer pays at 4 players (the "
                    "blind risk taker joins the best only from 19 up) and greed pays at no threshold up to 20 at 2 "
                    "and 3 players")


def _frame(seats, threshold, games=300):
    config = RunConfig(game="loot-island", players=len(seats), seats=tuple(seats), games=games, seed=5,
                       params={"curse_threshold": threshold}, rotate=True)
    f = prepared(config.to_dict()).frame(0, games)
    return f.assign(strategy=f["strategy"].astype(str))


def test_threshold_blind_risk_taker_reaches_the_threshold_that_the_default_hunter_refuses():
    """heed_threshold=0 drops the 60-gold price on a cube that reaches the threshold: at threshold 8 the
    blind hunter (same cap 11) is eliminated by curses far more often than the default hunter, who is
    eliminated only by cubes it cannot refuse; the experiment's blind risk taker (no cap either) too."""
    f = _frame(("hunter", "hunter:heed_threshold=0"), 8)
    out = f.assign(curse=f["eliminated"] == 1).groupby("strategy")["curse"].mean()
    assert out["hunter:heed_threshold=0"] > out["hunter"] + 0.10
    assert out["hunter"] < 0.02
    g = _frame(("hunter", BLIND), 8)
    assert (g.loc[g["strategy"] == BLIND, "eliminated"] == 1).mean() > 0.10


def test_heed_sentence_groups_player_counts_by_where_the_threshold_stops_binding_the_heeding_players():
    from experiments.curse_threshold import heed_sentence

    text = heed_sentence({2: 12, 3: 14, 4: None, 5: 14})
    assert text == ("For the players who heed it, the threshold stops binding from 12 up at 2 players, from 14 up at "
                    "3 and 5 players and at 4 players it binds them all the way to 20")
