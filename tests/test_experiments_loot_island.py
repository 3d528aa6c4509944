"""Loot Island's allen-effect experiment end to end at tiny game counts, plus the behaviour its
measures rest on: the Allen-off arm really has no Allen and both arms pair the same games; crown
places computed by hand. (curse-threshold: test_experiments_curse_threshold.py.)"""
import re

import pandas as pd
import pytest

from simlab.core.results import load
from simlab.studies.experiment import available_experiments, run_experiment

QUIET = {"executor": "serial", "progress": False, "log": lambda m: None}


@pytest.fixture(scope="module")
def allen(tmp_path_factory):
    out = tmp_path_factory.mktemp("allen")
    report, paths = run_experiment("allen-effect", games=60, out=out, options={"strong-games": "10"}, **QUIET)
    return out, report, paths


def test_loot_island_experiments_are_discovered():
    known = available_experiments()
    assert known["allen-effect"].game == "loot-island"
    assert known["curse-threshold"].game == "loot-island"


def test_allen_effect_report_files_and_verdicts(allen):
    out, _, paths = allen
    md = paths["markdown"].read_text()
    order = [md.index(h) for h in ("## Bottom line", "## What it rests on", "## Findings", "## Charts", "## Tables",
                                   "## Caveats", "## Reproduce")]
    assert order == sorted(order)
    bottom = md[md.index("## Bottom line"):md.index("## What it rests on")]
    assert re.search(r"(Without Allen the 2-player start player.s win share moves|How far the 2-player start "
                     r"player.s win share moves without Allen)", bottom)
    assert "He makes the game richer and safer" in bottom
    assert "allen_weight" in bottom
    findings = md[md.index("## Findings"):md.index("## Charts")]       # the numbers behind it, in the findings
    assert "With Allen the start player wins" in findings and " points [" in findings
    assert "healer fee" in findings and "allen_weight=0" in findings
    assert "(cautious@tuned)" in findings and "(rollout)" in findings            # the stronger players' mirrors
    assert re.search(r"stronger play: richer (holds|differs|is not settled) with", findings)
    rests = md[md.index("## What it rests on"):md.index("## Contents")]
    assert "`healer_per_cube`" in rests and "hunter" in rests
    verdicts = md[md.index("## Findings"):md.index("## Charts")]
    pct = r"-?[\d.]+% \[-?[\d.]+%, -?[\d.]+%\]"
    points = r"[+-][\d.]+ points \[[+-][\d.]+, [+-][\d.]+\]"
    effect = (r"minimum effect that matters \(±2.0 points\): \*\*(smaller than the minimum effect that matters|"
              r"larger than the minimum effect that matters|undecided: [^*]+)\*\*")
    for s in ("hunter", "collector", "cautious"):     # seats only from mirror matches, judged once at 2 players
        assert re.search(rf"Allen off, {s} mirror: change in the start player's win share .*paired by game: "
                         rf"{points}; {effect}", verdicts)
        assert re.search(rf"Start player's win share, 2 players with Allen, {s} mirror: {pct}; fair reference "
                         r"(50.0|4\d.\d)%; fairness band", verdicts)       # (1 - games nobody wins) / 2
    assert "seat 2" not in verdicts
    changes = [line for line in verdicts.splitlines() if ": change in" in line]
    assert len(changes) >= 10 and not any("fairness" in c or "OUTSIDE" in c for c in changes)   # a change is not unfair
    assert re.search(rf"2p with Allen: Allen alone takes the first crown place .*: {pct}", verdicts)
    assert re.search(rf"Start player's win share, 3 players \(no Allen\), hunter mirror: {pct}; fair reference 33.3%",
                     verdicts)
    assert "change in the out by the healer fee" in verdicts or "out by the healer fee is" in verdicts
    assert "Allen off: change in hunter's win rate against random" in verdicts
    assert "Allen off: change in close games" in verdicts
    assert "hunter with allen_weight=0 against a default hunter" in verdicts
    assert "ASSUMED component data" in md[:md.index("## Bottom line")]
    for chart in ("start-player", "scores-margins-crowns", "allen-use", "skill"):
        assert (out / f"{chart}.svg").stat().st_size > 1000 and f"({chart}.svg)" in md
    assert (out / "who-holds-the-most-crown-crosses-share-of-games.csv").exists()
    caveats = md[md.index("## Caveats"):]
    assert "ASSUMED" in caveats and "`healer_per_cube`" in caveats and "`map_symbols`" in caveats
    assert "simlab experiment run allen-effect --games 60 --seed 1" in caveats


def test_allen_effect_arms_pair_the_same_games_and_the_off_arm_has_no_allen(allen):
    out = allen[0]
    on, off = load(out / "runs" / "mirror-hunter-base"), load(out / "runs" / "mirror-hunter-no-allen")
    assert sorted(on["game"].unique()) == sorted(off["game"].unique()) == list(range(60))
    assert (on[["game", "seat"]].to_numpy() == off[["game", "seat"]].to_numpy()).all()
    assert (off["allen_crosses"] == -1).all() and (off["allen_uses"] == 0).all()
    assert (on["allen_crosses"] >= 0).all() and on["allen_uses"].sum() > 0


def test_crown_places_name_who_holds_the_most_crosses():
    from experiments.allen_effect import crown_places

    rows = []
    # game 0: player 1 alone; 1: Allen alone; 2: tie player/Allen; 3: nobody; 4: the top player is eliminated
    for g, (c0, c1, allen, e1) in enumerate([(1, 4, 2, 0), (1, 2, 5, 0), (3, 1, 3, 0), (0, 0, 0, 0), (1, 6, 2, 1)]):
        rows += [{"game": g, "seat": 0, "crosses": c0, "eliminated": 0, "allen_crosses": allen},
                 {"game": g, "seat": 1, "crosses": c1, "eliminated": e1, "allen_crosses": allen}]
    p = crown_places(pd.DataFrame(rows))
    assert list(p["first_place"]) == ["a player alone", "Allen alone", "shared", "nobody", "Allen alone"]
