"""Assumption robustness (issue 14, item 4): `simlab robust` reruns a report under each plausible
alternative of its ASSUMPTION parameters and says which conclusions hold, flip or weaken."""
import json

import pytest

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.params import ASSUMPTION
from simlab.measures.stats import Estimate
from simlab.report.caveats import read_robustness
from simlab.report.page import Report
from simlab.report.wording import Band
from simlab.studies.experiment import Experiment, run_experiment
from simlab.studies.robust import (FIRMS, FLIPS, HOLDS, MISSING, SHIFTS, WEAKENS, Reading, change, readings,
                                   robust_report, run_robust)

QUIET = {"executor": "serial", "progress": False, "log": lambda m: None}


def _report(edge: str, decided: bool = True, share: float = 0.5) -> Report:
    rep = Report("t", "q?")
    rep.claim("start player's edge", edge, decided)
    rep.verdict(f"Start player's win share ({share:.0%} of games)", Estimate(share, share - 0.01, share + 0.01, 1000, "x"),
                0.5, Band.fairness(0.5, 0.02))
    return rep


def test_a_reading_that_changes_between_two_decided_values_flips_between_undecided_ones_shifts():
    a, b = Reading("claim", "k", "higher", True), Reading("claim", "k", "lower", True)
    tie = Reading("claim", "k", "a statistical tie", False)
    other_tie = Reading("claim", "k", "0, 1 and 2", False)
    assert change(a, a) == HOLDS
    assert change(a, b) == FLIPS
    assert change(a, tie) == WEAKENS
    assert change(tie, a) == FIRMS
    assert change(tie, other_tie) == SHIFTS
    assert change(a, None) == MISSING


def test_findings_are_matched_without_the_numbers_in_their_subject():
    """A finding's subject may quote its numbers ('(52% of games)'); the same finding under an
    alternative quotes others and must still be recognised as the same finding."""
    one, two = readings(_report("higher", share=0.5)), readings(_report("higher", share=0.6))
    assert set(one) == set(two) == {("claim", "start player's edge"), ("finding", "Start player's win share")}
    assert one[("finding", "Start player's win share")].value == "within the fairness band"
    assert two[("finding", "Start player's win share")].value == "OUTSIDE the fairness band"


def test_an_alternative_that_flips_a_claim_is_named_in_the_bottom_line_and_matters():
    base = _report("higher")
    rows = [("karuba", "distance_rule", "ring4", _report("higher"), False),
            ("karuba", "distance_rule", "label30", _report("lower", share=0.6), False),
            ("karuba", "gold_shortage", "draw", _report("higher"), True)]
    rep, summary = robust_report("exp", "Exp", base, rows, ["karuba"], 100, 200, 2)
    text = " ".join(rep.bottom_line)
    assert text.startswith("The answer does not hold everywhere: 1 of its 1 claims flips under `distance_rule`.")
    assert "1 of the 3 alternatives change no game at all" in text
    details = " ".join(rep.findings)        # the details, in the findings
    assert "'start player's edge' from higher to lower when distance_rule = label30" in details
    assert "flip a conclusion: `distance_rule`" in details and "the other 1 flip none" in details
    k = summary["by_game"]["karuba"]
    assert k["checked"] == ["distance_rule", "gold_shortage"] and k["alternatives"] == 3
    assert list(k["matters"]) == ["distance_rule"] and "label30" in k["matters"]["distance_rule"]
    t = rep.tables[0].frame.set_index("alternative")
    assert t.loc["label30", "claims flipped"] == 1 and t.loc["label30", "findings flipped"] == 1
    assert t.loc["ring4", "claims flipped"] == 0 and t.loc["draw", "games changed"] == "no"


def test_a_claim_that_only_loses_its_decision_is_fragile_and_names_no_assumption_that_matters():
    rows = [("karuba", "distance_rule", "ring4", _report("a statistical tie", decided=False), False)]
    rep, summary = robust_report("exp", "Exp", _report("higher"), rows, ["karuba"], 100, 200, 2)
    assert "its claim reads the same under all 1 alternatives of 1 assumptions, or only loses its decision" in rep.bottom_line[0]
    assert rep.bottom_line[1] == "Near a band's edge, 1 claim becomes unsettled under some alternatives of `distance_rule`."
    assert ("Fragile, near its band's edge: 'start player's edge' becomes unsettled under 1 of the 1 alternatives "
            "(`distance_rule`).") in rep.findings
    assert summary["by_game"]["karuba"]["matters"] == {}
    assert summary["by_game"]["karuba"]["weakens"] == {"distance_rule": "'start player's edge' becomes unsettled"}


def test_a_claim_the_check_reads_otherwise_than_the_report_is_left_out_as_not_resolved_at_these_games():
    """With fewer games than the report, the default play may not reproduce a claim: then no
    alternative can be said to flip it."""
    rows = [("karuba", "distance_rule", "ring4", _report("lower"), False)]
    rep, summary = robust_report("exp", "Exp", _report("higher"), rows, ["karuba"], 100, 200, 2,
                                 reported={"start player's edge": "a statistical tie"})
    assert summary["by_game"]["karuba"]["matters"] == {} and summary["unresolved_claims"] == ["start player's edge"]
    assert any("1 more claims are left out: at 100 games per run they read otherwise than in the report" in f
               for f in rep.findings)
    assert any("a statistical tie in the report, higher at 100 games" in f for f in rep.findings)
    rep2, summary2 = robust_report("exp", "Exp", _report("higher"), rows, ["karuba"], 100, 200, 2,
                                   reported={"start player's edge": "higher"})
    assert "distance_rule" in summary2["by_game"]["karuba"]["matters"]


def test_a_long_table_alternative_is_described_by_the_entries_it_changes():
    from simlab.studies.robust import describe

    p = get_game("loot-island").params["treasure_crossed"]
    few = tuple(v + (1 if i == 7 else 0) for i, v in enumerate(p.default))
    assert describe(p, few) == f"entries 8: {p.default[7]}->{p.default[7] + 1}"
    many = tuple(v + 1 for v in p.default)
    assert describe(p, many) == f"74 of 74 entries changed (total {sum(p.default)} -> {sum(p.default) + 74})"


def test_when_nothing_changes_the_bottom_line_says_the_answer_holds_under_every_assumption():
    rows = [("karuba", "distance_rule", "ring4", _report("higher"), False)]
    rep, summary = robust_report("exp", "Exp", _report("higher"), rows, ["karuba"], 100, 200, 2)
    assert rep.bottom_line[0].startswith("No plausible alternative flips the bottom line: its claim reads the same")
    assert summary["by_game"]["karuba"]["matters"] == {}


def test_a_report_with_nothing_to_compare_is_refused():
    with pytest.raises(SimlabError, match="states no claim"):
        robust_report("exp", "Exp", Report("t", "q?"), [], ["karuba"], 1, 1, 1)


def _length_claim(ctx):
    """A small Karuba question: builder mirror games at 2 players; the claim is the game's length.
    The second run sets distance_rule itself, which an assumption in force must not override."""
    rep = ctx.report("Karuba length", "How long is a builder mirror?")
    r = ctx.run("mirror", ctx.config(2, ("builder", "builder")))
    ctx.run("fixed", ctx.config(2, ("builder", "builder"), {"distance_rule": "ring3"}))
    rep.claim("mean length in whole rounds", str(int(r.frame()["rounds"].mean())))
    rep.bottom_line = ["A builder mirror lasts about as long as the rules say."]
    rep.rests_on = ["builder"]
    return rep


LENGTH = Experiment("karuba-length", "Karuba length", "How long?", _length_claim, game="karuba")


def test_robust_plays_each_alternative_on_its_own_runs_and_the_report_then_names_what_was_checked(tmp_path):
    rep, paths = run_robust(LENGTH, games=60, out=tmp_path / "rep" / "robust", runs=tmp_path / "runs",
                            assumptions=("gold_shortage", "distance_rule"), **QUIET)
    summary = json.loads(paths["json"].read_text())["by_game"]["karuba"]
    assert summary["checked"] == ["distance_rule", "gold_shortage"] and summary["alternatives"] == 2
    # every alternative plays into its own folder; the experiment's own runs stay as the rules stand
    assert {p.name for p in (tmp_path / "runs" / "robust").iterdir()} == {"gold_shortage=draw", "distance_rule=ring4"}
    table = rep.tables[0].frame.set_index("alternative")
    # with an unlimited gold supply (the default), who gets a nugget in a shortage never comes up
    assert table.loc["draw", "games changed"] == "no"
    assert table.loc["ring4", "games changed"] == "yes"
    # the run that sets distance_rule itself is played as it says under every alternative
    from simlab.core.results import load

    for alt in ("ring4",):
        fixed = load(tmp_path / "runs" / "robust" / f"distance_rule={alt}" / "fixed")
        assert fixed.attrs["simlab"]["config"]["params"] == {}
    # the experiment's report now says what robust checked instead of listing every assumption
    report, _ = run_experiment(LENGTH, games=60, out=tmp_path / "rep", runs=tmp_path / "runs", **QUIET)
    caveat = next(c for c in report.caveats if "ASSUMED" in c)
    assert "reran this report under the plausible alternatives of 2 of its" in caveat and "flip" in caveat
    assert "Not checked: `gold_supply`" in caveat
    assert read_robustness(tmp_path / "rep")["experiment"] == "karuba-length"


def test_robust_refuses_an_assumption_the_game_does_not_have_before_playing_anything(cli_run, tmp_path):
    code, out, err = cli_run("robust", "karuba-temples", "--assumption", "healer_fixed", "-n", "10", "-q",
                             "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "out"))
    assert code == 2 and "healer_fixed" in err and "not an ASSUMPTION of karuba" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "runs").exists()
    code, out, err = cli_run("robust", "no-such-experiment", "-q")
    assert code == 2 and "unknown experiment" in err


def test_an_assumption_in_force_applies_to_every_config_that_does_not_set_it(tmp_path):
    from simlab.studies.experiment import Context

    ctx = Context(LENGTH, 10, tmp_path, tmp_path, assume={"karuba": {"distance_rule": "label30"}}, **QUIET)
    assert ctx.config(2, ("builder",) * 2).params == {"distance_rule": "label30"}
    assert ctx.config(2, ("builder",) * 2, {"distance_rule": "ring3"}).params == {}
    other = get_game("loot-island")
    assert ctx.config(2, ("hunter",) * 2, game=other.name).params == {}



@pytest.mark.parametrize("game", ["karuba", "loot-island", "jamaica", "legend-raiders"])
def test_every_assumption_declares_plausible_alternatives_or_why_it_has_none(game):
    """Issue 14: every ASSUMPTION parameter declares the other values a careful reader could believe
    (the rules doc lists them), none repeating the default or another, or (a count whose tables must
    all change with it) why no value of it can be tried alone."""
    for p in get_game(game).params.params:
        if p.status != ASSUMPTION:
            continue
        alts = p.plausible_alternatives()
        assert alts or p.no_alternative, f"{p.name} has no plausible alternative and no reason why"
        assert p.default not in alts
        assert len(alts) == len(p.alternatives or alts), f"{p.name}: an alternative repeats another or the default"


def test_an_assumption_that_cannot_be_tried_alone_is_skipped_and_named_with_its_reason():
    from simlab.report.caveats import assumption_caveat
    from simlab.studies.robust import assumptions_of

    names = [p for _, p, _ in assumptions_of(["legend-raiders"], ())]
    assert "symbols" not in names and "die_faces" in names
    with pytest.raises(SimlabError, match="symbols.*no plausible alternative to try: another count"):
        assumptions_of(["legend-raiders"], ("symbols",))
    spec = get_game("legend-raiders")
    text = assumption_caveat(spec, ["symbols", "die_faces"], {"checked": ["die_faces"], "alternatives": 1,
                                                              "games_per_run": 10, "matters": {}})
    assert "none flips a conclusion" in text and "Not checked: `symbols` (another count needs" in text


def test_a_long_alternative_gets_the_same_run_folder_in_every_process():
    """A rerun must find the runs an earlier process stored, so the folder name cannot depend on the
    process (Python salts ``hash`` of text per process)."""
    import subprocess
    import sys

    long_value = ",".join(["1"] * 74)
    code = f"from simlab.studies.robust import _folder; print(_folder('treasure_crossed', {long_value!r}))"
    names = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
             for _ in range(2)}
    assert len(names) == 1 and names.pop().startswith("treasure_crossed=")
