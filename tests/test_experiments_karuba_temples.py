"""The karuba-temples experiment's parts: the board geometry behind its rule (checked against the
rulebook's board, docs/rules/karuba.md section 2), its fit and quality-band count on tables whose
answer is known, the mirror design's premise, and the report end to end at a tiny game count."""
import re

import numpy as np
import pandas as pd
import pytest

from experiments.karuba_temples import HEURISTICS, fit, geometry, quality
from simlab.core.runner import Prepared, RunConfig
from simlab.games.karuba.components import COLOURS, RING3, RING4
from simlab.games.karuba.rules import gap_ok


def test_geometry_places_the_edge_spaces_beside_the_rulebook_squares():
    """Rules doc section 2: beach 10-50 west of rows 1-5, 60-110 south of columns 1-6; temple 10-60
    north of columns 1-6, 70-110 east of rows 1-5. The corner squares each touch two spaces."""
    g = geometry([10, 50, 60, 110, 30], [10, 60, 70, 110, 90])
    assert list(g["beach_square"]) == ["r1c1", "r5c1", "r5c1", "r5c6", "r3c1"]
    assert list(g["temple_square"]) == ["r1c1", "r1c6", "r1c6", "r5c6", "r3c6"]
    assert list(g["corner_beach"]) == [True, True, True, True, False]
    assert list(g["corner_temple"]) == [True, True, True, True, False]


def test_geometry_of_the_rulebook_example_setup():
    """The rulebook's 4-player setup: blue 20/100, yellow 90/10, purple 110/60, brown 60/70, and the
    closest legal pair 20/20 (one square diagonally from the north-west corner)."""
    g = geometry([20, 90, 110, 60, 20], [100, 10, 60, 70, 20]).set_index(pd.Index(["blue", "yellow", "purple",
                                                                                     "brown", "close"]))
    assert g["squares_apart"].to_dict() == {"blue": 7, "yellow": 7, "purple": 4, "brown": 9, "close": 2}
    assert g["edge_steps"].to_dict() == {"blue": 11, "yellow": 9, "purple": 6, "brown": 10, "close": 3}
    # blue crosses west to east, yellow and purple south to north; brown goes round the south-east corner
    assert g["opposite_coasts"].to_dict() == {"blue": True, "yellow": True, "purple": True, "brown": False,
                                              "close": False}
    # purple's temple stands straight north of its beach square: a route needs no turn
    assert g["turns"].to_dict() == {"blue": 2, "yellow": 2, "purple": 0, "brown": 1, "close": 1}


def test_edge_steps_agree_with_the_setup_distance_rule():
    """'At least 3 numbers apart' counted round the edge (ring3) and 4 apart (ring4), as the engine's
    setup rule decides it: the geometry's count round the 22 edge spaces must agree on all 121 pairs."""
    labels = np.arange(10, 111, 10)
    b, t = (a.ravel() for a in np.meshgrid(labels, labels))
    steps = geometry(b, t)["edge_steps"].to_numpy()
    assert steps.min() == 1 and steps.max() == 11
    assert [bool(gap_ok(RING3, int(x), int(y))) for x, y in zip(b, t)] == list(steps >= 3)
    assert [bool(gap_ok(RING4, int(x), int(y))) for x, y in zip(b, t)] == list(steps >= 4)


def _table(reach, lo, hi, squares=None, explorers=500):
    n = len(reach)
    return pd.DataFrame({"reach": reach, "reach_lo": lo, "reach_hi": hi, "explorers": [explorers] * n,
                         "squares_apart": squares if squares is not None else range(n)})


def test_fit_recovers_a_known_slope_and_reports_r2():
    squares = np.arange(2, 10)
    exact = _table(1.0 - 0.04 * squares, 0, 1, squares)
    f = fit(exact, ["squares_apart"])
    assert f["coef"]["squares_apart"].value == pytest.approx(-0.04) and f["r2"] == pytest.approx(1.0)
    noisy = exact.assign(reach=exact["reach"] + np.where(squares % 2, 0.03, -0.03))
    f = fit(noisy, ["squares_apart"])
    assert 0.5 < f["r2"] < 1.0 and f["coef"]["squares_apart"].lo < -0.04 < f["coef"]["squares_apart"].hi


def test_quality_band_counts_only_whole_intervals_outside():
    """Band around the average 0.80 +- 10 points: [0.70, 0.90]. An interval crossing an edge is
    undecided, never counted outside."""
    t = _table([0.60, 0.95, 0.80, 0.72, 0.91], [0.55, 0.91, 0.75, 0.68, 0.88], [0.65, 0.98, 0.85, 0.76, 0.94])
    band, counts = quality(t, 0.80)
    assert (band.kind, band.lo, band.hi) == ("quality", pytest.approx(0.70), pytest.approx(0.90))
    assert counts == {"below": 1, "above": 1, "inside": 1, "undecided": 2, "outside": 2}


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_karuba_mirror_games_do_not_depend_on_the_player_count(heuristic):
    """The experiment's premise: identical players on identical islands make the same moves, arrive
    together and end the game together, so a mirror game is the same at 2 and at 4 players."""
    games = 150
    seat0 = {}
    for n in (2, 4):
        f = Prepared(RunConfig("karuba", n, (heuristic,) * n, games, seed=5)).frame(0, games)
        cols = ["rounds", *(f"{k}_{c}" for c in COLOURS for k in ("beach", "temple", "home_round"))]
        seat0[n] = f[f["seat"] == 0].set_index("game")[cols]
        assert (f.groupby("game")["rounds"].nunique() == 1).all()
    assert seat0[2].equals(seat0[4])
    assert (seat0[2][[f"home_round_{c}" for c in COLOURS]] > 0).to_numpy().mean() > 0.5   # explorers do get home


def test_karuba_temples_report_frames_game_quality(tmp_path):
    from simlab.studies.experiment import run_experiment

    report, paths = run_experiment("karuba-temples", games=100, out=tmp_path, executor="serial", progress=False,
                                   log=lambda m: None, options={"strong-games": "20"})
    md = paths["markdown"].read_text()
    bottom = md[md.index("## Bottom line"):md.index("## What it rests on")]
    assert bottom.split("\n\n")[1].startswith("Distance decides: each square between an explorer and its temple")
    assert "quality band" in bottom and "`temple_step` 0" in bottom and "R² =" in md
    assert "legal beach-temple pairs, " in md and "have a reach rate whose whole interval lies outside the quality band" in md
    assert "The rule behind hard pairs: every square between" in md
    assert "temple_step 0 instead of the default: builder's reach rate changes by" in md
    # the extremes are tables (information), never a finding judged against a band
    findings = md[md.index("## Findings"):md.index("## Charts")]
    assert "easiest" not in findings.lower() and "hardest" not in findings.lower()
    assert "### Easiest pairs (highest reach rate)" in md and "### Hardest pairs (lowest reach rate)" in md
    for chart in ("heatmap-reach", "heatmap-plan-gap", "geometric-rule", "sensitivity"):
        assert (tmp_path / f"{chart}.svg").exists(), chart
    pairs = pd.read_csv(tmp_path / "pairs.csv")
    assert set(pairs["reading"]) == {"default", "temple_step 0", "distance_rule ring4", "distance_rule label30"}
    assert (pairs["squares apart"] >= 1).all()
    assert "- Strategies: builder, collector, racer, rollout (mirror games" in md   # no random play in the seats
    # the headline rule rechecked with the search player in every seat, from 20 games doubling to the 100
    # deals (20, 40, 80, 100: 4 looks) until decided
    assert re.search(r"with stronger play this (holds|differs|is not settled) with rollout", bottom)
    assert re.search(r"with stronger play the rule (holds|differs|is not settled) with rollout.*rollout in every seat, "
                     r"(20|40|80|100) games, [1-4] of 4 looks at 98.75% each: reach", md)
