"""Experiments end to end at tiny game counts: the reports exist, open with a bottom line and what it
rests on, then findings, charts beside the pages, tables, and state the assumptions, the command, the
seed and the code version."""
import re

import pytest

from simlab.studies.experiment import available_experiments


@pytest.fixture(scope="module")
def overview(tmp_path_factory):
    from simlab.studies.experiment import run_experiment

    out = tmp_path_factory.mktemp("overview")
    report, paths = run_experiment("overview", games=120, game="karuba", out=out, executor="serial",
                                   progress=False, log=lambda m: None, options={"strong-games": "30"})
    return out, report, paths


def test_experiments_are_discovered_from_the_experiments_package():
    known = available_experiments()
    assert {"overview", "karuba-temples"} <= set(known)
    assert known["karuba-temples"].game == "karuba" and known["overview"].game is None


def test_overview_report_opens_with_bottom_line_then_findings_charts_tables_caveats(overview):
    out, report, paths = overview
    md = paths["markdown"].read_text()
    order = [md.index(h) for h in ("## Bottom line", "## What it rests on", "## Contents", "## Findings", "## Charts",
                                   "## Tables", "## Caveats", "## Reproduce")]
    assert order == sorted(order)
    bottom = md[md.index("## Bottom line"):md.index("## What it rests on")]
    assert "Seat fairness holds by construction" in bottom      # Karuba: no seat order in its rules
    assert "strongest" in bottom and "Heads-up, " in bottom and "Elo above random play" in bottom
    assert "the default mix's strategies explain" in bottom and "a trait of that mix rather than of the game" in bottom
    verdicts = md[md.index("## Findings"):md.index("## Charts")]
    for n in (2, 3, 4):   # each mirror gives a seat verdict, or says why it cannot
        for strategy in ("builder", "racer", "collector"):
            assert re.search(rf"Start player's win share, {n} players, {strategy} mirror: [\d.]+% \[[\d.]+%, [\d.]+%\]; "
                             r"fair reference [\d.]+%; fairness band [\d.]+% to [\d.]+%: \*\*(within the fairness band|"
                             r"OUTSIDE the fairness band|undecided: the interval crosses an edge of the fairness band)\*\*",
                             verdicts) or re.search(rf"The {strategy} mirror at [\d, and]*{n}[\d, and]* players cannot "
                                                    "judge the seats", verdicts)
        if n == 2:
            assert re.search(r"Rating gap from random play to \w+, heads-up \(2 players, Elo points\): [\d.]+ "
                             r"\[[\d.]+, [\d.]+\]", verdicts)
        else:   # a pairwise share of a multi-player game: not a heads-up Elo, and said so
            assert re.search(rf"\w+ against {n - 1} random players, {n} players: the share of meetings it finishes ahead, "
                             rf"read on the Elo scale: [\d.]+ \[[\d.]+, [\d.]+\].*not a heads-up rating", verdicts)
        assert f"Share of a player's result variance that its strategy explains, {n} players" in verdicts
    assert "Start player (seat 1) win rate" not in md, "no seat verdict from a mix"
    assert re.search(r"(are tied for|is) strongest", verdicts)


def test_overview_says_seat_fairness_holds_by_construction_where_the_rules_treat_seats_alike(overview):
    """Karuba's players act at the same time and no rule reads the seat order: no mirror measures its seat
    fairness, not even the search player's (whose seat difference would come from the order it is asked in)."""
    out, report, paths = overview
    assert report.bottom_line[0].startswith("Seat fairness holds by construction: the rules treat every seat alike")
    assert report.findings[0].startswith("Seat fairness holds by construction: every player acts at the same time")
    assert not (out / "runs" / "mirror-rollout-2p").exists()
    assert any(r.startswith("No stronger player plays a mirror: Karuba's rules treat every seat alike") for r in
               report.rests_on)


def test_overview_report_charts_are_files_beside_the_pages(overview):
    out, report, paths = overview
    md, page = paths["markdown"].read_text(), paths["html"].read_text()
    for chart in ("mirror-seat-shares", "length-score-margin", "strategy-matrix", "luck-and-skill", "usage"):
        assert (out / f"{chart}.svg").stat().st_size > 1000
        assert f"({chart}.svg)" in md and f"data='{chart}.svg'" in page
    assert "base64" not in page and "http" not in page.replace("http://www.w3.org", "")
    assert (out / "win-share-by-seat-in-mirror-matches.csv").exists() and (out / "head-to-head.csv").exists()


def test_overview_caveats_name_assumptions_strategies_command_seed_and_commit(overview):
    out, report, paths = overview
    md = paths["markdown"].read_text()
    caveats = md[md.index("## Caveats"):]
    assert "ASSUMED" in caveats and "`distance_rule`" in caveats and "`gold_supply`" in caveats
    assert "`docs/rules/karuba.md`" in caveats and "`simlab robust` reruns it" in caveats   # values there, not here
    assert "Strategy `builder`" in caveats
    assert "simlab experiment run overview --games 120 --seed 1 --game karuba" in caveats
    assert "Root seed(s): 1" in caveats and re.search(r"git commit from the run provenance\): [0-9a-f]{40}", caveats)
    assert ("simlab run karuba --players 4 --seats builder,racer,collector,racer:targets=1 --games 120 --seed 1 "
            "--rotate "
            "--duplicate") in caveats
    assert "simlab run karuba --players 3 --seats builder,builder,builder --games 120 --seed 1" in caveats


def test_report_on_a_mirror_run_judges_the_seats(cli_run, tmp_path):
    code, out, err = cli_run("run", "loot-island", "-p", "3", "-n", "300", "-s", "hunter,hunter,hunter", "--executor",
                             "serial", "-q", "--out", str(tmp_path / "m"))
    assert code == 0, err
    code, out, err = cli_run("report", str(tmp_path / "m"))
    assert code == 0, err
    assert re.search(r"Start player's win share, 3 players, hunter mirror: [\d.]+% \[", out)
    md = (tmp_path / "m" / "report" / "report.md").read_text()
    assert "In mirror matches the start player" in md[:md.index("## What it rests on")]


def test_pairing_report_measures_every_comparison(tmp_path):
    """Issue 12 item 2: the five paired comparisons, each with its correlation and half-width ratio."""
    from simlab.studies.experiment import run_experiment

    report, paths = run_experiment("pairing", games=60, out=tmp_path, executor="serial", progress=False,
                                   log=lambda m: None)
    md = paths["markdown"].read_text()
    ratios = re.findall(r"Paired/unpaired half-width, (win share|score): (.+?): ([\d.]+) \[([\d.]+), ([\d.]+)\]", md)
    assert len(ratios) == 10 and {r[1].split(":")[0].split(" ")[0] for r in ratios} == {"Loot", "Jamaica", "Karuba", "Legend"}
    assert all(float(lo) <= float(v) <= float(hi) for _, _, v, lo, hi in ratios)
    assert "correlation between the arms" in md and (tmp_path / "pairing-ratio.svg").exists()
    import simlab

    found = simlab.load_findings(tmp_path)     # each ratio as data: what, at how many players, which comparison
    assert len(found) == 10 and set(found["measure"]) == {"half-width ratio of win_share", "half-width ratio of score"}
    assert set(found["players"]) == {2, 4} and found["arm"].nunique() == 5 and (found["games"] == 60).all()


def test_cli_lists_runs_and_reports(cli_run, tmp_path):
    code, out, _ = cli_run("experiment", "list")
    assert code == 0 and "overview" in out and "karuba-temples" in out
    code, _, err = cli_run("experiment", "run", "overview", "--games", "50")
    assert code == 2 and "needs a game" in err
    code, _, err = cli_run("experiment", "run", "no-such", "--game", "karuba")
    assert code == 2 and "unknown experiment" in err
    code, out, err = cli_run("run", "karuba", "-p", "3", "-n", "300", "--rotate", "--executor", "serial", "-q",
                             "--out", str(tmp_path / "r"))
    assert code == 0, err
    code, out, err = cli_run("report", str(tmp_path / "r"))
    assert code == 0, err
    assert "Start player" not in out
    md = (tmp_path / "r" / "report" / "report.md").read_text()
    assert "No seat verdict: seat fairness is read only from a mirror match" in md
    assert "simlab run karuba --players 3 --seats builder,racer,collector --games 300 --seed 1 --rotate" in md


def test_overview_tells_how_a_game_unfolds_at_every_player_count(overview):
    out, report, paths = overview
    md = paths["markdown"].read_text()
    findings = md[md.index("## Findings"):md.index("## Charts")]
    for n in (2, 3, 4):
        assert re.search(rf"How a game unfolds at {n} players \(120 games\): the eventual winner leads for good from "
                         r"round [\d.]+ of [\d.]+ .*the lead changes [\d.]+ \[[\d.]+, [\d.]+\] times per game", findings)
    assert (out / "unfolding.svg").stat().st_size > 1000 and "(unfolding.svg)" in md
    table = next(t for t in report.tables if t.title == "How a game unfolds")
    assert list(table.frame["players"]) == [2, 3, 4] and (table.frame["games"] == 120).all()
