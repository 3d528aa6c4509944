"""The report rules (no report without a bottom line of one to three sentences; no band for an option
picked as an extreme) and a small report rendered end to end: bottom line first, then what it rests on and a table of contents
whose links all land; charts as SVG files beside the pages with hover values; sortable tables; user text
escaped in both pages. The sorting script is run in a real headless browser when one is installed."""
import re
import shutil
import subprocess
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from simlab.core.errors import SimlabError
from simlab.measures.stats import Estimate
from simlab.report.charts import dot_interval, integer_histogram, new_figure
from simlab.report.page import Ci, Report, anchor, formatted, md_escape, md_inline
from simlab.report.wording import POINTS, Band, ReportError

EVIL = "<b>hunter</b>|*x*"      # a user-supplied strategy name full of Markdown and HTML marks


class Page(HTMLParser):
    """The ids, links, section headings, objects, tables and list items of a page, in order."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.links, self.h2, self.objects, self.tables, self.items = [], [], [], [], [], []
        self._h2 = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag == "h2":
            self._h2 = a.get("id")
        if tag == "object":
            self.objects.append(a)
        if tag == "table":
            self.tables.append(a.get("class", ""))
        if tag == "li":
            self.items.append(a.get("class", ""))

    def handle_endtag(self, tag):
        if tag == "h2" and self._h2:
            self.h2.append(self._h2)
            self._h2 = None


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    # plain text (titles, captions, table cells) is escaped by the report; Markdown text (the question,
    # bottom line, findings, ...) by its author, with md_escape
    rep = Report(f"Toy game: is {EVIL} favoured?", f"Seat 1 against the others, with {md_escape(EVIL)}.")
    rep.bottom_line = ["The start player wins 27.3% [27.1%, 27.5%], outside the ±2-point fairness band around a fair "
                       "quarter.", "Seats 2-4 are a statistical tie."]
    rep.rests_on = [f"Strategies: {md_escape(EVIL)}."]
    rep.verdict("Start player win rate, 4 players", Estimate(0.273, 0.271, 0.275, 40000, "Wilson"), 0.25,
                Band.fairness(0.25, 0.02))
    rep.verdict("Change in seat 2's win rate", Estimate(0.004, -0.002, 0.010, 40000, "paired"), 0.0, Band.effect(0.02),
                unit=POINTS)
    fig, axes = new_figure(9, 3.4, ncols=2)
    dot_interval(axes[0][0], ["1", "2", "3", "4"], [0.273, 0.242, 0.243, 0.242], [0.269, 0.238, 0.239, 0.238],
                 [0.277, 0.246, 0.247, 0.246], ylabel="win rate", xlabel="seat", reference=0.25,
                 band=Band.fairness(0.25, 0.02), what="seat {}")
    integer_histogram(axes[0][1], {"4 players": np.random.default_rng(1).binomial(40, 0.5, 2000)},
                      xlabel="score (points)")
    rep.chart("seat-win-rates", fig, "Win rate by seat", title="Win rate by seat")
    rep.table("Win rate by seat", formatted(pd.DataFrame({"seat": [2, 10, 1], "strategy": [EVIL, "b", "c"],
                                                          "rate": [0.09, 1.0, 0.273], "lo": [0.081, 0.991, 0.271],
                                                          "hi": [0.099, 1.0, 0.275]}),
                                            {"seat": "seat", "strategy": "strategy", "win rate [95% CI]": Ci("rate")}))
    rep.table("Every game", pd.DataFrame({"game": range(5)}), show=False)
    rep.caveats.append("A caveat.")
    rep.reproduce.append("Command: `simlab run toy`")
    rep.write(out)
    return out, rep


def test_the_page_opens_with_the_bottom_line_then_what_it_rests_on_then_the_contents(written):
    out, _ = written
    page = Page((out / "report.html").read_text())
    assert page.h2 == ["bottom-line", "what-it-rests-on", "contents", "findings", "charts", "tables", "caveats",
                       "reproduce"]
    md = (out / "report.md").read_text()
    heads = re.findall(r"^## (.+)$", md, flags=re.M)
    assert heads == ["Bottom line", "What it rests on", "Contents", "Findings", "Charts", "Tables", "Caveats",
                     "Reproduce"]
    bottom = md[md.index("## Bottom line"):md.index("## What it rests on")]
    assert "27.3% [27.1%, 27.5%]" in bottom and "statistical tie" in bottom


def test_every_contents_link_lands_on_a_heading_and_every_chart_and_table_is_listed(written):
    out, rep = written
    page = Page((out / "report.html").read_text())
    assert set(page.links) <= set(page.ids) and len(set(page.ids)) == len(page.ids)
    assert {"win-rate-by-seat", "win-rate-by-seat-1", "every-game"} <= set(page.links)   # chart, table: repeated title
    md = (out / "report.md").read_text()
    # the Markdown contents point at the anchors GitHub gives the headings
    for title, href in re.findall(r"^\s*- \[(.+?)\]\(#(.+?)\)$", md, flags=re.M):
        assert href in page.ids
    assert "- [Win rate by seat](#win-rate-by-seat-1)" in md


def test_github_anchors_drop_punctuation_and_number_repeats():
    seen = {}
    assert anchor("Win rate by strategy (heads-up runs)", seen) == "win-rate-by-strategy-heads-up-runs"
    assert anchor("hunter's allen_weight: 1.5", seen) == "hunters-allen_weight-15"
    assert anchor("Scores", seen) == "scores" and anchor("Scores", seen) == "scores-1"


def test_charts_are_svg_files_beside_the_pages_with_hover_values(written):
    out, rep = written
    page = Page((out / "report.html").read_text())
    assert [o["data"] for o in page.objects] == ["seat-win-rates.svg"]
    html_text = (out / "report.html").read_text()
    assert "base64" not in html_text and "<svg" not in html_text          # referenced, not inlined
    assert "![Win rate by seat](seat-win-rates.svg)" in (out / "report.md").read_text()
    svg = (out / "seat-win-rates.svg").read_text()
    assert "<title>seat 1: 27.3% [26.9%, 27.7%]</title>" in svg
    assert (out / "win-rate-by-seat.csv").exists() and (out / "every-game.csv").exists()


def test_tables_are_sortable_and_findings_are_coloured_by_what_their_band_says(written):
    out, _ = written
    text = (out / "report.html").read_text()
    page = Page(text)
    assert page.tables == ["tbl sortable"]          # the CSV-only table is a link, not a table
    assert "table.sortable th" in text and "sortBy" in text
    assert page.items.count("out") == 1 and page.items.count("note") == 1


def test_user_text_is_escaped_in_both_pages(written):
    out, _ = written
    html_text, md = (out / "report.html").read_text(), (out / "report.md").read_text()
    assert "<b>hunter" not in html_text and html_text.count("&lt;b&gt;hunter&lt;/b&gt;|*x*") == 5   # + <title>
    assert "<b>hunter" not in md and md.count(r"\<b\>hunter\</b\>\|\*x\*") == 4


def test_a_markdown_link_to_a_file_beside_the_report_is_a_link_in_the_html_page():
    """The sweep links its what-if page from the question; a user's escaped brackets stay text."""
    assert md_inline("the page [whatif.html](whatif.html) shows") == "the page <a href='whatif.html'>whatif.html</a> shows"
    assert "<a" not in md_inline(md_escape("[a](b)")) and "<a" not in md_inline("[a](x' onclick='y)")


# -- report-level rules ------------------------------------------------------------------------

FAR = Estimate(0.40, 0.38, 0.42, 1000, "test")


def _report(bottom, rests=("Strategies: a, b.",)):
    return Report("t", "q", bottom_line=list(bottom), rests_on=list(rests))


@pytest.mark.parametrize("bottom", [[], ["One.", "Two.", "Three.", "Four."], ["One. Two sentences in one item."],
                                    ["No full stop"]])
def test_rule_the_bottom_line_is_one_to_three_full_sentences(tmp_path, bottom):
    with pytest.raises(ReportError):
        _report(bottom).write(tmp_path)


LONG = "word " * 31


@pytest.mark.parametrize("bottom, problem", [
    ([LONG.strip() + "."], "its first sentence has 31 words (at most 30)"),
    (["The start wins 27.3% [26.9%, 27.7%] of 1,000 games against 25.0% fair."], "its first sentence states 2 numbers"),
    (["Short first.", "word " * 39 + "end.", "word " * 39 + "end."], "it has 82 words (at most 80)"),
    (["Short first at 1.0% [0.5%, 1.5%].", "Then 2.0% [1.5%, 2.5%] and 3.0% [2.0%, 4.0%].", "And 4% and 5%."],
     "it states 5 numbers (at most 4)"),
])
def test_rule_the_bottom_line_answers_in_a_minute(tmp_path, bottom, problem):
    """Issue 30: the first sentence answers in at most 30 words and one measured number; the whole
    bottom line at most 80 words and four numbers (an interval belongs to its number; a player count,
    a band in brackets or a confidence level is no measurement)."""
    with pytest.raises(ReportError, match=re.escape(problem)):
        _report(bottom).check()


def test_a_bottom_line_the_data_make_too_long_keeps_its_answer_and_moves_the_rest_to_the_findings(tmp_path):
    """The data decide how long a generated sentence runs (how many player counts or strategies it
    names): a report never fails for it. The last sentences move, in order, to the top of the
    findings until the bottom line fits; an answer that cannot fit alone is still refused."""
    rep = _report(["Short first.", "word " * 39 + "end.", "Then 2.0% [1.5%, 2.5%] and " + "word " * 36 + "end."])
    rep.findings = ["An old finding."]
    rep.write(tmp_path)
    assert rep.bottom_line == ["Short first.", "word " * 39 + "end."]
    assert rep.findings[0].startswith("Then 2.0%") and rep.findings[1] == "An old finding."
    md = (tmp_path / "report.md").read_text()
    assert md.index("Then 2.0%") > md.index("## Findings")
    with pytest.raises(ReportError, match="its first sentence has 31 words"):
        _report([LONG.strip() + ".", "Two."]).write(tmp_path)


def test_numbers_are_counted_as_a_reader_meets_them():
    from simlab.report.wording import numbers_in, words_in

    assert numbers_in("wins 51.3% [50.9%, 51.6%] of games at 2 players") == 1
    assert numbers_in("keeps it in [2.0%, 10.0%] with 95% confidence") == 0
    assert numbers_in("from 0.05% to 14.2% of players, `cap=14`") == 2
    assert numbers_in("rated 685 [667, 703] Elo and +1.6 points [-1.2, +4.4]") == 2
    assert words_in("wins 51.3% [50.9%, 51.6%] of games") == 4


def test_a_broken_report_rule_is_an_experiment_bug_not_a_user_error(tmp_path):
    with pytest.raises(ReportError) as err:
        _report(["A full sentence with 27.3% [26.9%, 27.7%]."], rests=()).write(tmp_path)
    assert not isinstance(err.value, SimlabError)
    _report(["One.", "Two with 0.5 points.", "Three?"]).write(tmp_path)     # three sentences are fine


def test_rule_an_option_picked_as_the_extreme_of_many_is_not_judged_against_a_band():
    rep = _report(["One."])
    with pytest.raises(ReportError):
        rep.verdict("Easiest beach-temple pair: reach rate", FAR, 0.25, Band.quality(0.15, 0.35))
    rep.verdict("Easiest beach-temple pair: reach rate", FAR, 0.25)      # as information it is fine
    assert rep.verdicts[0].status == "information"


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _browse(page, tmp_path, script: str) -> str:
    """The page's DOM after ``script`` ran in a headless browser."""
    (tmp_path / "page.html").write_text(page.replace("</body>", f"<script>{script}</script></body>"))
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"file://{tmp_path / 'page.html'}"],
                          capture_output=True, text=True, timeout=120).stdout


@pytest.mark.skipif(CHROMIUM is None, reason="no headless browser installed")
def test_a_click_on_a_column_heading_sorts_by_number_and_a_second_click_reverses(written, tmp_path):
    out, _ = written
    page = (out / "report.html").read_text()
    click = "document.querySelector('table.sortable th').click();"

    def seats(dom):
        return re.findall(r"<tr><td>(\d+)</td>", dom[dom.index("<tbody>"):dom.index("</tbody>")])

    assert seats(page) == ["2", "10", "1"]
    once = _browse(page, tmp_path, click)
    assert seats(once) == ["1", "2", "10"] and 'aria-sort="ascending"' in once     # as text: 1, 10, 2
    twice = _browse(page, tmp_path, click * 2)
    assert seats(twice) == ["10", "2", "1"] and 'aria-sort="descending"' in twice
    by_rate = _browse(page, tmp_path, "document.querySelectorAll('table.sortable th')[2].click();")
    assert seats(by_rate) == ["2", "1", "10"]                                        # 9.0%, 27.3%, 100.0%


def test_every_committed_report_answers_in_a_minute():
    """Issue 30: every report in reports/ opens with a bottom line a designer reads in a minute."""
    from pathlib import Path

    from simlab.report.page import sentences
    from simlab.report.wording import bottom_line_problems

    pages = sorted((Path(__file__).resolve().parent.parent / "reports").rglob("report.md"))
    assert len(pages) >= 20
    for page in pages:
        if "runs" in page.parts:
            continue
        md = page.read_text()
        bottom = md[md.index("## Bottom line") + len("## Bottom line"):md.index("## What it rests on")].strip()
        assert not bottom_line_problems(sentences(bottom)), (page, bottom_line_problems(sentences(bottom)))
