"""`simlab bench --compare REV` and `simlab bench --profile`: they run and say what they measured.

Speed is never asserted: the machines running the suite are shared and noisy.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simlab.dev.profiling import GROUPS, annotation, grouped, parse_report, readable, sample_offsets

REPORT = (Path(__file__).parent / "data" / "perf_report.txt").read_text()


def test_compare_with_head_prints_a_positive_ratio_for_the_config_and_writes_the_numbers(cli_run, tmp_path):
    """Both sides run the same code (HEAD, perhaps with this checkout's changes), so the ratio is a
    positive number; how near 1 it lies depends on the machine's load."""
    out_json = tmp_path / "compare.json"
    code, out, err = cli_run("bench", "--compare", "HEAD", "-g", "karuba", "-p", "2", "--mix", "random",
                             "--seconds", "0.2", "--rounds", "1", "--json", str(out_json))
    assert code == 0, err
    assert re.search(r"cores, load average [\d.]+ [\d.]+ [\d.]+", out)
    assert re.search(r"current [0-9a-f]{12}(\+dirty)? against HEAD = [0-9a-f]{12}", out)
    row = re.search(r"^karuba\s+2\s+random\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]\s+"
                    r"([\d.]+)-([\d.]+)$", out, re.M)
    assert row, out
    assert float(row.group(3)) > 0 and float(row.group(6)) <= float(row.group(3)) <= float(row.group(7))
    assert row.group(4) == row.group(5) == row.group(3)   # one round: the interval is that round, coverage 0
    assert "0.0% coverage" in out
    saved = json.loads(out_json.read_text())
    assert [(r["game"], r["players"], r["mix"]) for r in saved["rows"]] == [("karuba", 2, "random")]
    assert len(saved["rows"][0]["current"]) == len(saved["rows"][0]["rev"]) == 1 and saved["rows"][0]["ratio"] > 0
    assert len(saved["rev_commit"]) == 40 and saved["cores"] >= 1


def test_compare_of_the_search_prints_ratios_for_its_play_outs_and_decisions(cli_run, tmp_path):
    """``--compare REV --search``: play-outs per second (uniform, with the policy) and rollout's time
    per decision, each side in its own processes; against HEAD every ratio is a positive number."""
    out_json = tmp_path / "search.json"
    code, out, err = cli_run("bench", "--compare", "HEAD", "--search", "-g", "karuba", "--seconds", "0.2",
                             "--rounds", "1", "--json", str(out_json))
    assert code == 0, err
    assert re.search(r"current [0-9a-f]{12}(\+dirty)? against HEAD = [0-9a-f]{12}", out)
    for label in ("play-outs/s uniform", "play-outs/s policy", "rollout ms/decision"):
        row = re.search(r"^karuba\s+" + re.escape(label) + r"\s+([\d,.]+)\s+([\d,.]+)\s+([\d.]+)\s", out, re.M)
        assert row, out
        assert float(row.group(3)) > 0
    saved = json.loads(out_json.read_text())
    assert [r["measure"] for r in saved["rows"]] == ["playouts_uniform", "playouts_policy", "search_ms_mean"]
    assert all(len(r["current"]) == len(r["rev"]) == 1 and r["ratio"] > 0 for r in saved["rows"])


def test_compare_with_an_unknown_revision_is_one_line_and_exit_2():
    run = subprocess.run([sys.executable, "-m", "simlab", "bench", "--compare", "no-such-rev-here", "-g", "karuba"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "error: git does not know the revision 'no-such-rev-here'"


def test_profile_groups_a_perf_report_by_what_a_developer_acts_on():
    """NRT_incref/NRT_decref (numba's atomic reference counting) are their own group, apart from
    the rest of numba's runtime, named or unnamed JIT code, the interpreter and libc/kernel."""
    entries = parse_report(REPORT)
    assert len(entries) == 11 and entries[0] == (41.2, "perf-4242.map", "NRT_incref")
    shares = grouped(entries)
    assert list(shares) == list(GROUPS)
    expected = {GROUPS[0]: 68.5, GROUPS[1]: 3.0, GROUPS[2]: 16.5, GROUPS[3]: 3.5, GROUPS[4]: 5.0, GROUPS[5]: 3.5}
    assert shares == pytest.approx(expected)
    assert sum(shares.values()) == pytest.approx(sum(p for p, _, _ in entries))


def test_profile_names_numba_functions_without_their_argument_types():
    mangled = "_ZN6simlab5games6karuba5rules9play_gameB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIiLi1E1C7mutable7alignedE"
    assert readable(mangled) == "simlab.games.karuba.rules.play_game"
    assert readable("cfunc." + mangled) == "cfunc.simlab.games.karuba.rules.play_game"
    assert readable("NRT_incref") == "NRT_incref"


def _perf_works() -> str:
    """Why perf cannot sample here, or '' when it can."""
    if shutil.which("perf") is None:
        return "perf is not installed"
    run = subprocess.run(["perf", "record", "-q", "-o", "/dev/null", "--", "true"], capture_output=True, text=True)
    return "" if run.returncode == 0 else f"perf cannot sample here: {run.stderr.strip()[:200]}"


PERF_PROBLEM = _perf_works()


@pytest.mark.skipif(bool(PERF_PROBLEM), reason=PERF_PROBLEM or "perf works")
def test_profile_samples_steady_state_play_and_names_the_jit_code(cli_run):
    disassembles = shutil.which("objdump") is not None   # --annotate needs binutils besides perf
    code, out, err = cli_run("bench", "--profile", "-g", "karuba", "-p", "2", "--mix", "random", "--seconds", "1",
                             *(["--annotate", "karuba.step.play_on"] if disassembles else []))
    assert code == 0, err
    assert "karuba, 2 players, random: 1 s of steady-state play" in out
    assert re.search(r"JIT code named from a perf map \([\d,]+ functions\)", out)
    shares = [float(m) for m in re.findall(r"^\s+([\d.]+)%  (?:" + "|".join(map(re.escape, GROUPS)) + ")$", out, re.M)]
    assert len(shares) == len(GROUPS) and sum(shares) == pytest.approx(100, abs=2)
    assert "top 15 symbols:" in out
    if not disassembles:
        return
    assert re.search(r"hottest instructions of simlab\.games\.karuba\.step\.play_on \([\d,]+ samples", out)
    hot = re.findall(r"^\s+([\d.]+)%  \+([0-9a-f]+)\s+(\S.*)$", out, re.M)
    assert hot and all(text != "?" for _, _, text in hot)   # every sampled offset is an instruction start


def test_annotate_finds_the_most_sampled_function_and_its_offsets(tmp_path):
    """``--annotate``: samples (``perf script -F ip,sym``) are placed in the function by the perf map's
    start address; of the functions whose name contains the word, the most sampled is shown."""
    perf_map = ("1000 200 simlab.games.karuba.step.play_on\n2000 80 simlab.games.karuba.step.play_from\n"
                "5000 200 simlab.games.karuba.step.play_on\n")   # a second copy, linked into another library
    samples = "\n".join(["    1010 simlab.games.karuba.step.play_on", "    5010 simlab.games.karuba.step.play_on",
                         "    5024 simlab.games.karuba.step.play_on", "    2004 simlab.games.karuba.step.play_from",
                         "    7777 NRT_incref"])
    symbol, size, offsets = sample_offsets(samples, perf_map, "karuba.step.play")
    assert (symbol, size) == ("simlab.games.karuba.step.play_on", 0x200) and offsets == {0x10: 1, 0x24: 1}
    assert sample_offsets(samples, perf_map, "jamaica") == (None, 0, {})
    symbol, total, hot = annotation("play_on", samples, perf_map, tmp_path)   # no objects written: no text
    assert (symbol, total) == ("simlab.games.karuba.step.play_on", 2)
    assert hot == [(0.5, 0x10, "?"), (0.5, 0x24, "?")]


def test_search_speed_samples_decisions_with_a_choice_over_the_whole_game_and_plays_them_out():
    """The states ``bench --search`` times are real decisions with a choice, spread from the first
    rounds to the last (a play-out from the start would overstate its length), and a play-out from
    each makes at least that one decision."""
    from simlab.games.karuba.state import S_ROUND
    from simlab.search.speed import _model, decision_states

    states, cfg = decision_states("karuba", 2, 0, n_states=30)
    m, _ = _model("karuba")
    legal = np.zeros(1024, np.int32)
    assert len(states) == 30
    for s, seat in states:
        assert m.step.to_move(s) == seat and m.step.legal(s, cfg, legal) > 1
    rounds = [s[S_ROUND] for s, _ in states]
    assert min(rounds) <= 3 and max(rounds) >= 20
    starts = np.stack([s for s, _ in states])
    assert m.search.playouts(starts, cfg, 1, 30, np.array([1, 2, 3, 4], np.uint64)) >= 30


def test_search_bench_prints_play_out_rates_and_the_rollout_players_time_per_decision(cli_run):
    code, out, err = cli_run("bench", "--search", "-g", "karuba", "--seconds", "0.2")
    assert code == 0, err
    row = re.search(r"^karuba\s+2\s+builder\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)\s+([\d.]+)$",
                    out, re.M)
    assert row, out
    uniform, policy, ms, p99, per_second = (float(row.group(k).replace(",", "")) for k in range(1, 6))
    assert uniform > 0 and policy > 0 and 0 < ms <= p99
    # decisions/s is 1000 / the mean time, which is printed to 0.01 ms: the printed rate lies within that rounding
    assert 1000 / (ms + 0.005) - 0.5 <= per_second <= 1000 / (ms - 0.005) + 0.5
    assert "cores, load average" in out
