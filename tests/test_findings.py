"""Findings as data: every report writes findings.csv and findings.parquet (a row per finding, numeric
estimate, low and high in the measure's unit), every table's CSV holds numbers in numeric columns, and a
comparison's bottom line names every change that matters with its size."""
import math

import pandas as pd
import pytest

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.measures.paired import moves
from simlab.measures.stats import Estimate
from simlab.report.changes import change_sentences
from simlab.report.page import Ci, Num, Report, formatted
from simlab.report.wording import POINTS, SHARE, Band, ReportError, bottom_line_problems
import simlab


def small_report() -> Report:
    rep = Report("A test", "Is the start player favoured?", study="test")
    rep.bottom_line = ["The start player is favoured."]
    rep.rests_on = ["nothing"]
    rep.verdict("Start player's win share, 2 players", Estimate(0.54, 0.53, 0.55, 2000, "Wilson"), 0.5,
                Band.fairness(0.5, 0.02), measure="start player's win share", players=2, arm="A")
    rep.verdict("Change in mean score, B - A", Estimate(0.81, 0.78, 0.83, 2000, "paired"), 0.0, None, unit="change")
    rep.verdict("Change in racer's win rate", Estimate(0.064, 0.055, 0.073, 2000, "paired"), 0.0, Band.effect(0.02),
                unit=POINTS)
    frame = pd.DataFrame({"seat": [1, 2], "share": [0.54, 0.46], "lo": [0.53, 0.45], "hi": [0.55, 0.47],
                          "fair": [0.5, 0.5], "label": ["start", "second"]})
    rep.table("Seats", formatted(frame, {"seat": "seat", "win share [95% CI]": Ci("share"), "fair": Num("fair", SHARE),
                                         "who": lambda r: r["label"]}))
    return rep


def test_a_tables_csv_holds_numbers_and_its_page_the_formatted_interval(tmp_path):
    small_report().write(tmp_path)
    csv = pd.read_csv(tmp_path / "seats.csv")
    assert list(csv.columns) == ["seat", "win share", "win share low", "win share high", "fair", "who"]
    assert csv["win share"].tolist() == [0.54, 0.46] and csv["win share low"].tolist() == [0.53, 0.45]
    assert csv["fair"].dtype == float                          # a share as a fraction, not '50.0%'
    md = (tmp_path / "report.md").read_text()
    assert "54.0% [53.0%, 55.0%]" in md and "| win share [95% CI] |" in md


def test_findings_are_saved_as_numbers_beside_the_report_and_load_back(tmp_path):
    small_report().write(tmp_path)
    for found in (simlab.load_findings(tmp_path), pd.read_csv(tmp_path / "findings.csv")):
        assert len(found) == 3 and set(found["study"]) == {"test"}
        first = found.iloc[0]
        assert (first["estimate"], first["low"], first["high"]) == (0.54, 0.53, 0.55)
        assert first["measure"] == "start player's win share" and first["players"] == 2 and first["arm"] == "A"
        assert list(found["verdict"]) == ["outside", "info", "larger"]      # the verdicts as codes
        assert found.loc[2, "smallest_change"] == pytest.approx(0.02) and math.isnan(found.loc[1, "smallest_change"])
        assert found["estimate"].dtype == float and found["games"].tolist() == [2000] * 3
    (tmp_path / "findings.parquet").unlink()
    (tmp_path / "findings.csv").unlink()
    with pytest.raises(SimlabError, match="no findings.csv"):
        simlab.load_findings(tmp_path)


@pytest.mark.parametrize("cell", ["54.2% [53.4%, 54.9%]", "+6.6 points [+5.5, +7.3]", "1841 [1366, inf]", "27.3%",
                                  "-0.007 [-0.010, 0.020]"])
def test_a_number_written_as_text_in_a_csv_is_refused_naming_the_column(tmp_path, cell):
    rep = small_report()
    rep.table("Bad", pd.DataFrame({"player": ["a"], "rate": [cell]}))
    with pytest.raises(ReportError, match="column 'rate' holds numbers as text"):
        rep.write(tmp_path)


def test_a_label_is_not_taken_for_a_number(tmp_path):
    rep = small_report()
    rep.table("Labels", pd.DataFrame({"point": ["tokens_4p=6,4,2,1", "0 (the anchor)", "yes", "8"], "n": [1, 2, 3, 4]}))
    rep.write(tmp_path)
    assert pd.read_csv(tmp_path / "labels.csv")["point"].tolist() == ["tokens_4p=6,4,2,1", "0 (the anchor)", "yes", "8"]


def measures_table(changes: dict[str, tuple[str, float, float, float]]) -> pd.DataFrame:
    """A compare table: measure -> (kind, change, family_lo, family_hi), shares, one player count."""
    rows = []
    for m, (kind, d, lo, hi) in changes.items():
        rows.append({"measure": m, "kind": kind, "effect": 0.005 if kind == "outcome" else None, "share": True,
                     "games": 4000, "same": False, "a": 0.5, "a_lo": 0.49, "a_hi": 0.51, "b": 0.5 + d,
                     "b_lo": 0.49 + d, "b_hi": 0.51 + d, "change": d, "lo": lo + 0.002, "hi": hi - 0.002,
                     "family_lo": lo, "family_hi": hi, "players": 3, "mirror": ""})
    return pd.DataFrame(rows)


def test_every_change_that_matters_is_named_with_its_size_largest_against_what_matters_first():
    """Temple reach (the rule asked about) moved with two other outcomes: every one is named, the
    sizes go as far as the bottom line's numbers, and nothing reads 'N more key outcomes move'."""
    spec = get_game("karuba")
    t = measures_table({"win rate of racer": ("win", 0.010, -0.002, 0.022),              # inside the 2 points
                        "games ended by a player with all explorers home": ("outcome", -0.040, -0.046, -0.034),
                        "explorers that reach their temple": ("outcome", -0.013, -0.017, -0.009),
                        "gold used": ("outcome", 0.002, -0.001, 0.005)})                  # does not move
    moved = moves(t, 2)
    assert list(moved["measure"]) == ["games ended by a player with all explorers home",
                                      "explorers that reach their temple"]
    said = change_sentences(t, 2, spec, "`distance_rule=ring4`")
    text = " ".join(said)
    assert said[0] == ("With `distance_rule=ring4`, games ended by a player with all explorers home and explorers "
                       "that reach their temple fall, each beyond what matters.")
    assert "explorers that reach their temple fall 1.3 points [1.1, 1.5]" in text
    assert "games ended by a player with all explorers home fall 4.0 points [3.6, 4.4]" in text
    assert "Whether who wins changes by the 2 points that matter is undecided" in text
    assert "more key outcome" not in text and not bottom_line_problems(said)
    one = change_sentences(t.iloc[[0, 2]], 2, spec, "B")
    assert one[0] == "With B, explorers that reach their temple fall by 1.3 points [1.1, 1.5], beyond what matters."


def test_sizes_stop_where_the_bottom_lines_numbers_run_out_and_the_rest_are_still_named():
    spec = get_game("karuba")
    t = measures_table({f"win rate of s{i}": ("win", 0.03 + i / 100, 0.025 + i / 100, 0.035 + i / 100)
                        for i in range(6)})
    said = change_sentences(t, 2, spec, "B", budget=4)
    assert sum("points [" in s for s in said[1].split(", ")) == 4
    for i in range(6):
        assert f"s{i}'s win rate" in said[1]
    assert said[1].count("(in the findings)") == 2 and "s0's win rate (in the findings)" in said[1]


def test_an_unbounded_interval_is_said_as_a_lower_bound_never_inf():
    """A heuristic that finished ahead in every meeting with random play has no upper bound on the Elo
    scale: the bottom line says so in words ("at least"), the finding too, and no page reads 'inf'."""
    from simlab.report.sections import luck_bottom_line
    from simlab.report.wording import NUMBER, Verdict

    s = pd.DataFrame([{"players": 2, "heads_up": True, "elo_gap": 1840.8, "elo_lo": 1366.2, "elo_hi": math.inf,
                       "ahead": 1.0, "ahead_lo": 0.9998, "ahead_hi": 1.0, "pairs_games": 4000, "skill_share": 0.6,
                       "skill_lo": 0.58, "skill_hi": 0.62}])
    text = luck_bottom_line(s, "builder")
    assert text.startswith("Heads-up, builder won every one of its 4,000 meetings with random play: at least 1,366 "
                           "Elo above it;") and "inf" not in text
    v = Verdict("Rating gap from random play to builder", Estimate(1840.8, 1366.2, math.inf, 4000, ""), unit=NUMBER)
    assert v.sentence() == ("Rating gap from random play to builder: at least 1366.20 (95% confidence; no upper "
                            "bound).")
    rep = small_report()
    rep.table("Gap", formatted(s, {"Elo gap [95% CI]": Ci("elo_gap", "elo_lo", "elo_hi", NUMBER, 0)}))
    assert "| 1841 [1366, ∞] |" in rep.markdown() and "inf" not in rep.markdown()


def committed_reports():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "reports"
    return sorted(p.parent for p in root.rglob("report.md") if "runs" not in p.parts)


FLOOR = 20               # report folders with findings.csv committed (of 23)
NAMED = ("compare", "sweep", "tune", "curse-threshold")   # studies whose findings name measure, players and games


def test_every_committed_report_written_with_findings_holds_numbers_and_bounded_shares():
    """A regenerated report (one with findings.csv): every CSV beside it holds its numbers as numbers,
    every share's interval lies within [0, 1] with the estimate inside it, and no bottom line hides
    changes behind 'N more key outcomes'."""
    from simlab.report.page import text_numbers

    written = [d for d in committed_reports() if (d / "findings.csv").is_file()]
    assert len(written) >= FLOOR   # the folders regenerated so far: the rest as they are
    for d in written:
        found = simlab.load_findings(d)
        assert found["estimate"].dtype == float and len(found) == len(pd.read_csv(d / "findings.csv")), d
        if len(found) and found["study"].isin(NAMED).all():   # these studies say what and where as data
            assert (found["measure"].fillna("") != "").all() and found["players"].notna().all(), d
            assert (found["games"] > 0).all(), d
        shares = found[(found["unit"] == "share") & found["low"].notna()]
        assert ((shares["low"] >= 0) & (shares["high"] <= 1)).all(), (d, shares[["subject", "low", "high"]])
        assert ((found["low"] <= found["estimate"] + 1e-12) & (found["estimate"] <= found["high"] + 1e-12)).all(), d
        for csv in d.glob("*.csv"):
            text_numbers(pd.read_csv(csv, dtype=str, keep_default_na=False), str(csv))
        assert "more key outcome" not in (d / "report.md").read_text(), d


@pytest.mark.parametrize("game", ["jamaica", "karuba", "legend-raiders", "loot-island"])
def test_every_measure_names_calibration_rows_that_exist(game):
    """A measure's interval is shown, not argued: each calibration row its declaration names is a row
    simlab calibrate runs (by its estimator's name), the unfolding measures' included."""
    from simlab.calibration.checks import CHECKS
    from simlab.measures import catalogue

    rows = {c.estimator for c in CHECKS}
    spec = get_game(game)
    measures = [*catalogue.catalogue(spec, ["a", "b"]).values(), *catalogue.catalogue(spec, ["a"]).values(),
                *catalogue.UNFOLDING]
    for m in measures:
        assert m.calibration and set(m.calibration) <= rows, (m.key, set(m.calibration) - rows)


@pytest.mark.parametrize("game", ["jamaica", "karuba", "legend-raiders", "loot-island"])
def test_one_catalogue_declares_every_measure_compare_and_tune_read(game):
    """Each measure once: key, name, unit and bounds, interval, smallest change, calibration rows;
    the game's key outcomes join it with their own smallest change, and tune's keys are its keys."""
    from simlab.measures import catalogue
    from simlab.studies.rule_tuning import parse_target

    spec = get_game(game)
    seats = ("a", "b")
    ms = catalogue.catalogue(spec, list(seats))
    assert list(ms)[:2] == ["win:a", "win:b"] and len(set(m.name for m in ms.values())) == len(ms)
    for o in spec.outcomes:
        m = ms[o.key]
        assert (m.name, m.kind, m.unit, m.smallest, m.bounds) == (o.name, "outcome", SHARE, o.effect, (0.0, 1.0))
        assert m.calibration == catalogue.OUTCOME_RATE and "Wilson" in m.interval
        assert parse_target(spec, f"{o.key} in [1%, 5%]", seats)[0].key == o.key
    for m in ms.values():
        assert m.unit in (SHARE, POINTS, "number", catalogue.AUTO) and m.calibration and m.said.startswith("the ")
    mirror = catalogue.catalogue(spec, ["a"])
    assert "start_share" in mirror and "win:a" not in mirror
    with pytest.raises(SimlabError, match="start_edge needs a mirror match"):
        catalogue.lookup(spec, "start_edge", seats)
    with pytest.raises(SimlabError, match="unknown measure 'nope'"):
        catalogue.lookup(spec, "nope", seats)
