"""`simlab compare`: two arms on the same deals, a report whose bottom line says what changed, by how
much, with intervals on the paired differences, read against the minimum effect that matters."""
import re

import pandas as pd
import pytest

from simlab.cli import main
from simlab.core.results import load
from simlab.core.runner import RunConfig
from simlab.measures.fairness import win_share
from simlab.studies.compare import Arm, run_compare


def quiet(m):
    pass


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    """Jamaica, 2 players, a balanced mirror with the ghost ship (A) and without it (B)."""
    out = tmp_path_factory.mktemp("mirror")
    rep, paths = run_compare("jamaica", (2,), Arm("A", seats="balanced"), Arm("B", ("no-ghost",), seats="balanced"),
                             games=300, out=out, executor="serial", progress=False, log=quiet, strong="rollout",
                             strong_games=20)
    return out, rep, paths


@pytest.fixture(scope="module")
def mix(tmp_path_factory):
    """Karuba, 4 players, the default heuristic mix with the printed tokens (A) and 6/4/2/1 (B)."""
    out = tmp_path_factory.mktemp("mix")
    rep, paths = run_compare("karuba", (4,), Arm("A"), Arm("B", sets=("tokens_4p=6,4,2,1",)), games=200, out=out,
                             executor="serial", progress=False, log=quiet, strong="rollout")
    return out, rep, paths


def table(out):
    return pd.read_csv(out / "every-measure-in-both-arms-and-its-paired-change.csv")


def test_a_comparison_of_mirrors_is_rechecked_with_the_stronger_player_in_every_seat(mirror, mix):
    """--strong plays both arms again with rollout in every seat (from 20 games per arm) and the verdict says
    how its reading compares; a mix is not rechecked (a stronger mirror would measure seats instead)."""
    out, rep, paths = mirror
    assert any(re.search(r"with stronger play in every seat of both arms the change in who wins (holds|differs|is not "
                         r"settled) with rollout", f, re.I) for f in rep.findings)
    # played from 20 games per arm, doubling on the same deals until decided or every deal is played
    assert any(re.search(r"rollout in every seat \((20|40|80|160|300) games", v.subject) for v in rep.verdicts)
    assert (out / "runs" / "strong-rollout-2p-b").is_dir()
    assert "--strong rollout --strong-games 20" in paths["markdown"].read_text()     # the reproduce line
    out, rep, paths = mix
    assert any(f.startswith("Not rechecked with stronger play") for f in rep.findings)
    assert not any(p.name.startswith("strong-") for p in (out / "runs").iterdir())


def test_mirror_reports_the_start_players_share_in_each_arm_and_its_paired_change(mirror):
    out, rep, paths = mirror
    a, b = load(out / "runs" / "compare-2p-base"), load(out / "runs" / "compare-2p-b")
    assert a.attrs["simlab"]["config"]["seed"] == b.attrs["simlab"]["config"]["seed"]   # common random numbers
    share = {k: f.assign(w=win_share(f)).query("seat == 0")["w"].mean() for k, f in (("a", a), ("b", b))}
    r = table(out).set_index("measure").loc["start player's win share"]
    assert (r["A"], r["B"]) == (pytest.approx(share["a"]), pytest.approx(share["b"]))    # numbers, shares as fractions
    assert r["change B - A"] == pytest.approx(share["b"] - share["a"])
    assert r["A low"] <= r["A"] <= r["A high"] and r["change B - A low"] <= r["change B - A"] <= r["change B - A high"]
    assert re.match(r"(With variant no-ghost (the game is|seat fairness)|Whether variant no-ghost makes the game fairer)",
                    rep.bottom_line[0])   # fairness, answered first, in the change's own words
    assert "the start player wins" in rep.findings[0] and "the seats' distance from fair changes by" in rep.findings[0]
    assert any(v.subject.startswith("Change in start player's win share") and v.band is not None for v in rep.verdicts)
    seats = pd.read_csv(out / "every-seat-s-win-share-in-both-arms-mirror-matches.csv")     # every seat, not only the first
    assert list(seats["seat"]) == [1, 2] and (out / "seats-in-both-arms.svg").exists()


def test_paired_change_equals_the_difference_of_the_arms_means(mix):
    """The change is the mean of per-game differences: exactly B's mean minus A's, for every measure."""
    from simlab.measures.paired import paired_measures
    from simlab.core.game import get_game

    out, rep, paths = mix
    a, b = load(out / "runs" / "compare-4p-base"), load(out / "runs" / "compare-4p-b")
    t = paired_measures(a, b, get_game("karuba")).set_index("measure")
    assert (t["change"] - (t["b"] - t["a"])).abs().max() < 1e-12
    for s in ("builder", "racer", "collector"):
        want = b.loc[b["strategy"] == s, "win"].mean() - a.loc[a["strategy"] == s, "win"].mean()
        assert t.loc[f"win rate of {s}", "change"] == pytest.approx(want, abs=1e-12)
    assert t.loc["mean score", "change"] == pytest.approx(b["score"].mean() - a["score"].mean(), abs=1e-12)
    assert (t["lo"] <= t["change"]).all() and (t["change"] <= t["hi"]).all()


def test_mix_is_played_in_duplicate_and_compares_win_rates_by_strategy_not_seats(mix):
    out, rep, paths = mix
    a = load(out / "runs" / "compare-4p-base")
    assert RunConfig.from_dict(a.attrs["simlab"]["config"]).duplicate and "deal" in a
    measures = set(table(out)["measure"])
    assert {"win rate of builder", "win rate of racer", "win rate of collector", "mean score"} <= measures
    assert "start player's win share" not in measures
    assert any("seat fairness is not read" in f and "--seats NAME" in f for f in rep.findings)
    # Karuba's heuristics never read the token values: they play every game the same, and the report says so
    assert any(s.startswith("The strategies ignore this change") for s in rep.bottom_line)
    assert re.search(r"(The lead passes from|(leads|share the lead) in both arms)", " ".join(rep.bottom_line +
                                                                                           rep.findings))
    assert re.search(r"(The lead passes from|\S+( and \S+)* (leads|share the lead) in both arms)", rep.findings[0])
    assert "for builder" in rep.findings[0] and "tokens_4p=6,4,2,1" in rep.findings[0]


def test_a_change_the_strategies_ignore_is_said_first_and_its_key_outcomes_are_tabled(tmp_path):
    """Threshold-blind hunters make the same decisions whatever the curse threshold: the report says so
    in its bottom line, and still tables eliminations by cause, the one thing the threshold is for, and says how
    they change (the rules eliminate at scoring, not the players' play)."""
    rep, paths = run_compare("loot-island", (3,), Arm("A", seats="hunter:heed_threshold=0"),
                             Arm("B", sets=("curse_threshold=6",), seats="hunter:heed_threshold=0"), games=300,
                             out=tmp_path, executor="serial", progress=False, log=quiet)
    assert any(x.startswith("The strategies ignore this change: they decide alike") for x in rep.bottom_line)
    t = table(tmp_path).set_index("measure")
    assert "players eliminated by curses" in t.index      # (an outcome equal in every game of both arms is left out)
    a, b = load(tmp_path / "runs" / "compare-3p-base"), load(tmp_path / "runs" / "compare-3p-b")
    want = (b["eliminated"] == 1).mean() - (a["eliminated"] == 1).mean()
    assert t.loc["players eliminated by curses", "change B - A"] == pytest.approx(want)
    # the answer first: the change that matters, with its size and interval
    assert re.search(r"players eliminated by curses rise by \d+\.\d points \[\d+\.\d, \d+\.\d\]",
                     " ".join(rep.bottom_line)), rep.bottom_line
    changed = pd.read_csv(tmp_path / "did-the-strategies-play-differently.csv")
    assert changed["games whose decisions differ"].iloc[0] == 0


def test_several_mirrors_in_one_command_give_one_combined_verdict_with_every_seat(tmp_path):
    rep, paths = run_compare("jamaica", (2,), Arm("A"), Arm("B", ("no-ghost",)), games=200, out=tmp_path,
                             executor="serial", progress=False, log=quiet, mirrors=("balanced", "racer"))
    assert re.match(r"(With variant no-ghost .*all 2 mirrors agree|Whether variant no-ghost makes the game fairer is "
                    r"undecided \(all 2 mirrors agree\)|The mirrors disagree on variant no-ghost: with balanced the game "
                    r"is .*, with racer the game is )", rep.bottom_line[0])
    assert re.match(r"(In both arms|In A .* and in B|Each arm's seat fairness differs by mirror: balanced: .*; racer: )",
                    rep.bottom_line[1])                                   # each arm against fair, mirrors together
    seats = pd.read_csv(tmp_path / "every-seat-s-win-share-in-both-arms-mirror-matches.csv")
    assert set(zip(seats["mirror"], seats["seat"])) == {("balanced", 1), ("balanced", 2), ("racer", 1), ("racer", 2)}
    assert (tmp_path / "runs" / "compare-2p-balanced-base").is_dir() and (tmp_path / "runs" / "compare-2p-racer-b").is_dir()
    assert "--mirrors balanced,racer" in paths["markdown"].read_text()


@pytest.mark.parametrize("which", ["mirror", "mix"])
def test_report_bottom_line_reads_who_wins_against_the_minimum_effect(which, request):
    """A mix ends on who wins against the minimum effect; mirrors answer on fairness first and keep
    who wins only where it fits (its reading is in the findings either way)."""
    out, rep, paths = request.getfixturevalue(which)
    if which == "mix":
        assert re.search(r"the 2 points that matter|No measure|[a-z]'s win rate (rises|falls) by",
                         " ".join(rep.bottom_line))
    md = paths["markdown"].read_text()
    assert "minimum effect that matters (±2.0 points)" in md
    assert (out / "paired-changes.svg").stat().st_size > 1000 and "simlab compare" in md
    assert ("a statistical tie" in md) == any(r.startswith("a statistical tie") for r in table(out)["reading"])


# -- simlab sweep ------------------------------------------------------------------------------

def test_sweep_values_lists_ranges_and_vectors():
    from simlab.studies.sweep import grid, parse_param
    from simlab.core.game import get_game

    karuba, jamaica = get_game("karuba"), get_game("jamaica")
    assert parse_param(jamaica, "ghost_removed=2..3") == ("ghost_removed", [2, 3])
    assert parse_param(karuba, "tokens_4p=6,4,2,1;5,4,3,2") == ("tokens_4p", [(6, 4, 2, 1), (5, 4, 3, 2)])
    assert parse_param(jamaica, "ghost_ship=true,false,true") == ("ghost_ship", [True, False])
    points = grid(jamaica, ("ghost_removed=2..3", "ghost_ship=true,false"))
    assert points == [{"ghost_removed": r, "ghost_ship": g} for r in (2, 3) for g in (True, False)]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """Karuba, 4 players, the default mix over three 4-player token stacks."""
    from simlab.studies.sweep import run_sweep

    out = tmp_path_factory.mktemp("sweep")
    rep, paths = run_sweep("karuba", (4,), ("tokens_4p=5,4,3,2;6,4,2,1;7,4,2,1",), Arm("A"), games=200, out=out,
                           executor="serial", progress=False, log=quiet)
    return out, rep, paths


def test_sweep_pairs_every_point_with_the_first_and_charts_each_measure(swept):
    import pandas as pd

    out, rep, paths = swept
    frames = [load(out / "runs" / f"sweep-4p-{i:02d}") for i in range(3)]
    assert len({f.attrs["simlab"]["config"]["seed"] for f in frames}) == 1
    t = pd.read_csv(out / "every-measure-at-every-point.csv")
    racer = t[t["measure"] == "win rate of racer"]
    for i, f in enumerate(frames):
        assert racer.iloc[i]["value"] == pytest.approx(f.loc[f['strategy'] == 'racer', 'win'].mean())
    want = frames[2].loc[frames[2]["strategy"] == "racer", "win"].mean() - frames[0].loc[frames[0]["strategy"] == "racer", "win"].mean()
    assert racer.iloc[2]["change from the first point"] == pytest.approx(want)
    assert (out / "sweep-4p.svg").stat().st_size > 1000
    assert rep.bottom_line[0].startswith("Over 3 points,") and "racer's win rate runs from" in rep.findings[0]


@pytest.mark.parametrize("args, message", [
    (["compare", "karuba", "-p", "4", "-n", "40"], "the arms are identical at 4 players"),
    (["compare", "karuba", "-p", "4", "--b-set", "tokenz=1"], "arm B: unknown parameter 'tokenz'"),
    (["compare", "karuba", "-p", "4", "--a-variant", "nope"], "--a-variant: unknown variant 'nope'"),
    (["compare", "karuba", "-p", "4", "--b-seats", "racer,foo,builder,racer"], "arm B: unknown strategy 'foo'"),
    (["compare", "karuba", "-p", "4", "--b-seats", "racer,builder"], "names 2 seats for a 4-player game"),
    (["compare", "karuba", "-p", "7", "--b-seats", "racer"], "karuba is played by 2-4 players, not 7"),
    (["compare", "karuba", "--b-seats", "racer", "--min-effect", "0"], "--min-effect is in percentage points"),
    (["compare", "karuba", "--b-seats", "racer", "-n", "0"], "--games must be between 1"),
    (["compare", "karuba", "--b-set", "tokens_4p=1,2,3,4"], "arm B:"),
    (["compare", "nogame", "--b-seats", "racer"], "unknown game"),
    (["compare", "karuba", "-s", "racer", "--b-set", "tokens_4p=6,4,2,1", "--strong", "grandmaster"],
     "unknown strategy 'grandmaster'"),
    (["compare", "karuba", "-s", "racer", "--b-set", "tokens_4p=6,4,2,1", "--strong", "rollout", "--strong-games", "0"],
     "--option strong-games=0: at least 1"),
    (["compare", "karuba", "-p", "4", "-p", "3", "--b-set", "tokens_3p=1,2,3"], "arm B: illegal setup"),
    (["compare", "karuba", "--mirrors", "racer,builder", "--seats", "racer", "--b-set", "tokens_4p=6,4,2,1"],
     "--mirrors names the seats of both arms"),
    (["compare", "karuba", "--mirrors", ",", "--b-set", "tokens_4p=6,4,2,1"], "--mirrors needs one or more"),
    (["compare", "karuba", "--mirrors", "racer,foo", "--b-set", "tokens_4p=6,4,2,1"], "unknown strategy 'foo'"),
    (["compare", "karuba", "--mirrors", "racer", "--strong", "rollout", "--b-set", "tokens_4p=6,4,2,1"],
     "--mirrors and --strong do not go together"),
    (["sweep", "karuba"], "name at least one --param"),
    (["sweep", "karuba", "--param", "tokenz=1,2"], "unknown parameter 'tokenz'"),
    (["sweep", "karuba", "--param", "tokens_4p=5,4,3,2"], "at least two points"),
    (["sweep", "karuba", "--param", "gold_points=3..1"], "needs lo <= hi"),
    (["sweep", "karuba", "--param", "tokens_4p=5,4,3,2;1,2,3,4"], "point tokens_4p=1,2,3,4: illegal setup"),
    (["sweep", "karuba", "--param", "gold_points"], "--param expects NAME=VALUES"),
    (["sweep", "karuba", "--param", "gold_points=1,2", "--set", "gold_points=3"], "both swept (--param) and set (--set)"),
    (["sweep", "karuba", "--param", "gold_points=0..10", "--param", "crystal_points=0..10"], "at most 64"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message, tmp_path, capsys):
    """compare and sweep refuse bad input before any game: one line, exit code 2, no report folder."""
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_every_key_outcome_is_a_rate_shown_as_a_percentage(mix):
    """A key outcome read as a share of k (Karuba: 3 of 4 explorers home is 75%) is shown in percent
    and changes in points, like every other rate in the table, never 0.77 beside 71.9%."""
    out, rep, paths = mix
    t = table(out).set_index("measure")
    row = t.loc["explorers that reach their temple"]
    assert 0 <= row["A low"] <= row["A"] <= row["A high"] <= 1        # a fraction in the CSV ...
    md = paths["markdown"].read_text()
    line = next(x for x in md.splitlines() if x.startswith("| 4 | explorers that reach their temple |"))
    assert re.search(r"\| \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \|", line) and " points [" in line   # ... percent on the page


def test_an_outcome_a_rule_of_one_arm_rules_out_is_not_read_as_a_change(mirror):
    """Without the ghost ship its battles fall to none by construction: the comparison leaves that
    outcome out (and says so in the table's note) instead of putting it in the bottom line."""
    out, rep, paths = mirror
    measures = set(table(out)["measure"])
    assert "games in which the ghost ship wins a battle" not in measures
    assert "games the ghost ship ends by reaching Port Royal first" not in measures
    assert "ghost ship wins a battle" not in " ".join(rep.bottom_line)
    assert "true by construction" in paths["markdown"].read_text()


@pytest.mark.parametrize("game", ["jamaica", "karuba", "legend-raiders", "loot-island"])
def test_every_key_outcome_needs_only_a_rule_parameter_the_game_has(game):
    from simlab.core.game import get_game

    spec = get_game(game)
    assert spec.outcomes
    for o in spec.outcomes:
        assert not o.needs or spec.params[o.needs].name == o.needs, (game, o.key)   # an unknown name raises


def test_an_arms_share_keeps_within_0_and_1_and_none_seen_is_an_upper_bound():
    """A share's interval in one arm of a compare: Wilson's at the effective sample size of the deals,
    never below 0 or above 1, and an event no game of the arm had ("games nobody wins": 0 in A) still
    has an upper bound, where a normal interval reads 0.0% [0.0%, 0.0%]."""
    import numpy as np
    from types import SimpleNamespace

    from simlab.measures.paired import paired_measures
    from simlab.calibration.worlds import Table

    world = Table((0.0, 0.0, 0.0))
    score, nobody, rotation, deal = world.play(np.random.default_rng(3), 300, "duplicate")
    frame = world.frame(score[0], nobody[0], rotation, deal)
    spec = SimpleNamespace(columns=(SimpleNamespace(name="rare", per="game", kind="count"),), length_column="rounds",
                           outcomes=())
    b_rare = np.zeros(900, np.int64)
    b_rare[[5, 6, 7]] = 1                                           # one deal's three rotations: 3 games of 900
    a, b = frame.assign(rare=0), frame.assign(rare=np.repeat(b_rare, 3))
    t = paired_measures(a, b, spec).set_index("measure")
    r = t.loc["rare"]
    assert r["share"] and r["a"] == 0 and r["a_lo"] == 0 < r["a_hi"] < 0.02
    assert 0 <= r["b_lo"] < r["b"] == 3 / 900 < r["b_hi"] <= 1
    assert 0 <= r["b_family_lo"] <= r["b_lo"] and r["b_hi"] <= r["b_family_hi"] <= 1
    shares = t[t["share"]]
    assert len(shares) >= 2
    assert (shares[["a_lo", "b_lo"]] >= 0).all().all() and (shares[["a_hi", "b_hi"]] <= 1).all().all()
