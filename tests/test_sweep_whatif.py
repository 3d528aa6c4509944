"""The sweep's what-if page (issue 14, item 7): a self-contained whatif.html beside the report with
a slider over the grid points; at each point the verdicts in the report's wording, every measure
with its interval and paired change, and charts with the point marked. Checked against the
report's own tables and in a real headless browser."""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess

import pandas as pd
import pytest

from simlab.report.page import md_inline
from simlab.report.wording import fmt_number, fmt_share
from simlab.studies.compare import Arm
from simlab.studies.sweep import run_sweep

BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def quiet(msg):
    pass


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Karuba, 4 players, the default mix over three 4-player token stacks, 200 games a point."""
    out = tmp_path_factory.mktemp("whatif-mix")
    rep, _ = run_sweep("karuba", (4,), ("tokens_4p=5,4,3,2;6,4,2,1;7,4,2,1",), Arm("A"), games=200, out=out,
                       executor="serial", progress=False, log=quiet)
    return out, rep


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    """Jamaica, balanced mirrors at 2 and 3 players, a grid of two parameters (4 points). (Not Karuba:
    its players draw the same tiles, so a Karuba mirror ends level every game.)"""
    out = tmp_path_factory.mktemp("whatif-mirror")
    rep, _ = run_sweep("jamaica", (2, 3), ("start_gold=2..3", "start_food=2..3"), Arm("A", seats="balanced"),
                       games=200, out=out, executor="serial", progress=False, log=quiet)
    return out, rep


def data(out) -> dict:
    page = (out / "whatif.html").read_text()
    blob = re.search(r"<script type='application/json' id='whatif-data'>(.*?)</script>", page, re.S).group(1)
    return json.loads(blob)


def text(fragment: str) -> str:
    """An HTML fragment's text, whitespace collapsed (to compare what a browser shows with the data)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def test_the_page_is_written_beside_the_report_and_the_report_links_to_it(mixed):
    out, rep = mixed
    page = (out / "whatif.html").read_text()
    assert "[whatif.html](whatif.html)" in (out / "report.md").read_text()
    assert "<a href='whatif.html'>whatif.html</a>" in (out / "report.html").read_text()
    assert "slider over the points" in rep.question
    # self-contained: nothing fetched from anywhere (no src, no stylesheet link, no address)
    assert not re.search(r"\bsrc=|<link\b|https?://|@import", page)
    assert page.count("<input type='range'") == 1 and "<select id='players'>" not in page   # one param, one count
    assert text(md_inline(" ".join(rep.bottom_line))) in text(page)


def test_one_entry_per_point_whose_numbers_are_the_reports_table(mixed):
    """Every entry's measure texts are the report's table row for row; the raw numbers format to them."""
    out, rep = mixed
    d, csv = data(out), pd.read_csv(out / "every-measure-at-every-point.csv")
    assert d["players"] == [4] and d["axes"] == [{"name": "tokens_4p", "values": ["5,4,3,2", "6,4,2,1", "7,4,2,1"]}]
    assert [e["point"] for e in d["entries"]["4"]] == [0, 1, 2]
    for e in d["entries"]["4"]:
        want = csv[csv["point"] == e["label"]]
        assert [r["measure"] for r in e["rows"]] == list(want["measure"])
        for k, col in (("value", "value"), ("lo", "value low"), ("hi", "value high")):     # the CSV's numbers
            assert [r[k] for r in e["rows"]] == pytest.approx(list(want[col]))
        if e["point"]:
            assert [r["change"] for r in e["rows"]] == pytest.approx(list(want["change from the first point"]))
            assert [r["change_lo"] for r in e["rows"]] == pytest.approx(list(want["change from the first point low"]))
        else:
            assert want["change from the first point"].isna().all()
        for r in e["rows"]:
            fmt = fmt_share if r["share"] else fmt_number
            assert fmt(r["value"], r["lo"], r["hi"]) == r["value_text"]
            assert (r["change"] is None) == (e["point"] == 0)
            if e["point"]:   # wording rule 3: higher or lower by the interval of the change, else a tie
                assert r["reading"] == ("a statistical tie" if r["change_lo"] <= 0 <= r["change_hi"] else
                                        "higher than at the first point" if r["change_lo"] > 0 else
                                        "lower than at the first point")
    # the verdicts at a point are the report's findings on that point, in the same words
    for e in d["entries"]["4"][1:]:
        mine = [v["html"] for v in e["verdicts"]]
        assert mine == [md_inline(v.sentence()) for v in rep.verdicts if f"to `{e['label']}`" in v.subject]
        assert mine and "paired game by game on the same deals" in e["summary"]
    assert d["entries"]["4"][0]["verdicts"] == []


def test_a_mirror_grid_reads_the_start_player_against_the_fairness_band_at_every_point(mirror):
    """Rule of the report: seat fairness only in a mirror, judged inside / outside / undecided against
    1/n ± the minimum effect; a grid of two params gets one slider per param."""
    out, rep = mirror
    d, page = data(out), (out / "whatif.html").read_text()
    assert d["players"] == [2, 3] and [a["name"] for a in d["axes"]] == ["start_gold", "start_food"]
    assert page.count("<input type='range'") == 2 and "<select id='players'>" in page
    for n in (2, 3):
        entries = d["entries"][str(n)]
        assert [e["label"] for e in entries] == [f"start_gold={g}, start_food={f}" for g in (2, 3) for f in (2, 3)]
        for e in entries:
            fair = e["verdicts"][0]
            row = next(r for r in e["rows"] if r["measure"] == "start player's win share")
            band = (1 / n - 0.02, 1 / n + 0.02)
            css = ("in" if band[0] <= row["lo"] and row["hi"] <= band[1] else
                   "out" if row["hi"] < band[0] or row["lo"] > band[1] else "und")
            assert fair["css"] == css and "fairness band" in fair["html"]
    assert page.count("class='fair'") == 2   # the band drawn on the start player's chart at each count


def dump(url: str, tmp_path) -> str:
    """The DOM after the page's script ran, from a real headless browser."""
    done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def shown(dom: str, id_: str) -> str:
    return text(re.search(rf"<(\w+) id=\"{id_}\"[^>]*>(.*?)</\1>", dom, re.S).group(2))


@pytest.mark.skipif(BROWSER is None, reason="no chromium on PATH to load the page in a real headless browser")
def test_a_headless_browser_runs_the_script_and_shows_the_first_point(mixed, tmp_path):
    out, _ = mixed
    first = data(out)["entries"]["4"][0]
    dom = dump((out / "whatif.html").as_uri(), tmp_path)
    assert shown(dom, "where").startswith("Point 1 of 3: tokens_4p=5,4,3,2")
    assert shown(dom, "summary") == text(first["summary"])
    rows = re.findall(r"<tr><td>(.*?)</td>", re.search(r'<tbody id="rows">(.*?)</tbody>', dom, re.S).group(1))
    assert rows == [r["measure"] for r in first["rows"]]
    assert '<g class="mark on" data-i="0">' in dom and '<g class="mark on" data-i="2">' not in dom


@pytest.mark.skipif(BROWSER is None, reason="no chromium on PATH to load the page in a real headless browser")
def test_the_url_hash_selects_a_point_as_the_slider_would(mirror, tmp_path):
    """``#point=3&players=3`` shows the third point at 3 players: its summary, verdicts, sliders and marker."""
    out, _ = mirror
    entry = data(out)["entries"]["3"][2]
    dom = dump((out / "whatif.html").as_uri() + "#point=3&players=3", tmp_path)
    assert shown(dom, "where") == "Point 3 of 4: start_gold=3, start_food=2, 3 players"
    assert shown(dom, "summary") == text(entry["summary"])
    assert shown(dom, "verdicts") == text("".join(v["html"] for v in entry["verdicts"]))
    assert shown(dom, "value-0") == "3" and shown(dom, "value-1") == "2"
    assert re.search(r'<div class="charts" data-players="2" hidden', dom)
    assert re.search(r'<div class="charts" data-players="3">', dom)


@pytest.mark.parametrize("lo, hi", [(33.35, 33.52), (15, 25), (0.0012, 0.0031), (-3, 7), (0, 100)])
def test_chart_ticks_are_round_inside_the_range_and_never_read_alike(lo, hi):
    from simlab.report.whatif import _ticks

    ticks = _ticks(lo, hi)
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks)
    assert all(lo - 1e-12 <= float(t) <= hi + 1e-12 for t in ticks)
