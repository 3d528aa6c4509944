"""Balance reports: a Markdown page and an HTML page in the same order, charts and tables beside them.

Every report answers its question first and details it after:

1. the title and the question;
2. **Bottom line**: at most three sentences, the first answering the question in plain words (at
   most 30 words and one measured number), the whole at most 80 words and four numbers with their
   intervals (:meth:`Report.write` refuses a report without one, or with a longer one:
   :func:`~.wording.bottom_line_problems`);
3. **What it rests on**: the strategies and the assumed data that matter to the answer;
4. a table of contents (links to every section, chart and table);
5. findings: each a number, its 95% interval, its reference and what its band says, worded by
   the rules in :mod:`.wording`;
6. charts: SVG files beside the pages (hover a dot for its value and interval in the HTML page);
7. tables: sortable in the HTML page (click a column heading), each also a CSV file whose numbers
   are numbers (a value and its interval in three columns, shares as fractions: :class:`Ci`);
8. caveats, and how to reproduce the report exactly.

Beside the pages, ``findings.csv`` and ``findings.parquet`` hold every finding as data, one row per
verdict (:func:`findings_frame`; read back with :func:`simlab.load_findings`).
"""
from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simlab.core.errors import SimlabError, make_folder

from simlab.measures.stats import Estimate
from simlab.report.charts import render_svg
from simlab.report.wording import (CHANGE, NUMBER, POINTS, SHARE, Band, ReportError, Verdict, bottom_line_problems,
                                   fmt_number, fmt_points, fmt_share)

MAX_BOTTOM_LINE = 3
CLAIMS = "claims.json"       # the bottom line's claims as values, beside the report
FINDINGS = "findings"        # findings.csv and findings.parquet: every finding as data, beside the report
ASSUMED_ITEM = "ASSUMED rule readings and component data"   # the rests-on item a robustness check replaces
# a finding about an option picked for being the most extreme of many cannot be judged against a band
EXTREME = re.compile(r"\b(easiest|hardest|best|worst|furthest|strongest|weakest|largest|smallest|most|least)\b",
                     re.I)


@dataclass
class Chart:
    name: str       # file stem: NAME.svg beside the report
    title: str      # its heading and table-of-contents entry
    caption: str
    drawing: object  # the SVG text, or its future while a renderer draws it (see ``svg``)

    @property
    def svg(self) -> str:
        if not isinstance(self.drawing, str):
            self.drawing = self.drawing.result()
        return self.drawing


@dataclass
class Table:
    title: str
    frame: pd.DataFrame   # as the pages show it (formatted text)
    note: str = ""
    name: str = ""        # file stem: NAME.csv beside the report
    show: bool = True     # False: CSV file only (long tables), named in the report
    data: pd.DataFrame | None = None   # the CSV's numbers (None: the frame holds no formatted number)


@dataclass(frozen=True)
class Claim:
    """One conclusion of the bottom line, reduced to a value that ``simlab robust`` can compare
    across assumptions: ``key`` names what is claimed ("removing Allen, hunter mirror: the change
    in the start player's share"), ``value`` the conclusion in words ("smaller than ±2 points"),
    ``decided`` is False for a tie or an unsettled reading (more games could decide it)."""

    key: str
    value: str
    decided: bool = True


@dataclass
class Report:
    """A report's parts. Plain text, escaped by the report: the title, chart titles and captions,
    table titles and cells. Markdown (``**bold**``, `` `code` ``), whose author escapes any
    user-supplied name with :func:`md_escape`: the question, bottom line, what it rests on,
    findings, table notes, caveats and reproduce lines."""

    title: str
    question: str
    study: str = ""                                        # what wrote it ("compare", "overview"): findings' first column
    bottom_line: list[str] = field(default_factory=list)   # at most 3 sentences
    rests_on: list[str] = field(default_factory=list)      # short items: strategies, assumptions that matter
    verdicts: list[Verdict] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)      # the bottom line's conclusions, for simlab robust
    findings: list[str] = field(default_factory=list)      # information in words, no band
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    reproduce: list[str] = field(default_factory=list)
    pages: dict[str, str] = field(default_factory=dict)    # file name -> a self-contained page beside the report
    renderer: object = field(default=None, repr=False, compare=False)  # a charts.Renderer drawing charts meanwhile

    def verdict(self, subject: str, estimate: Estimate, reference: float | None = None, band: Band | None = None,
                **kwargs) -> Verdict:
        if band is not None and EXTREME.search(subject):
            raise ReportError(f"finding {subject!r}: an option picked as the most extreme of many is outside any "
                              "band by construction; list the top and bottom options in a table instead")
        v = Verdict(subject, estimate, reference, band, **kwargs)
        self.verdicts.append(v)
        return v

    def claim(self, key: str, value: str, decided: bool = True) -> None:
        self.claims.append(Claim(key, str(value), bool(decided)))

    def chart(self, name: str, fig, caption: str, title: str = "") -> None:
        """Add a matplotlib figure (every axis labelled: see :mod:`.charts`) as NAME.svg."""
        title = title or name.replace("-", " ").strip().capitalize()
        self.charts.append(Chart(_slug(name), title, caption, render_svg(fig, self.renderer)))

    def drawn(self) -> None:
        """Wait for every chart a renderer is drawing (before the renderer closes)."""
        for c in self.charts:
            c.svg

    def table(self, title: str, frame: pd.DataFrame, note: str = "", name: str = "", show: bool = True) -> None:
        """Add a table: a frame from :func:`formatted` brings its numbers for the CSV file."""
        self.tables.append(Table(title, frame, note, _slug(name or title), show, frame.attrs.get(CSV_DATA)))

    # -----------------------------------------------------------------------------------------
    def fit(self) -> None:
        """Keep the bottom line a minute's reading whatever the data give: while it runs past its
        limits, its last sentence moves to the top of the findings (nothing is lost). The first
        sentence, the answer, must fit on its own: :meth:`check` refuses one that does not."""
        moved = []
        while len(self.bottom_line) > 1 and bottom_line_problems(self.bottom_line):
            moved.insert(0, self.bottom_line.pop())
        self.findings[:0] = moved

    def check(self) -> None:
        """The bottom line is one to three full sentences; what the answer rests on is stated."""
        if not 1 <= len(self.bottom_line) <= MAX_BOTTOM_LINE:
            raise ReportError(f"report {self.title!r}: the bottom line needs 1 to {MAX_BOTTOM_LINE} sentences, "
                              f"got {len(self.bottom_line)}")
        for s in self.bottom_line:
            if len(sentences(s)) != 1 or not s.rstrip().endswith((".", "!", "?")):
                raise ReportError(f"report {self.title!r}: each bottom-line item is one full sentence: {s!r}")
        problems = bottom_line_problems(self.bottom_line)
        if problems:
            raise ReportError(f"report {self.title!r}: the bottom line is not a one-minute answer: {'; '.join(problems)}: "
                              f"{' '.join(self.bottom_line)!r}")
        if not self.rests_on:
            raise ReportError(f"report {self.title!r}: say what the answer rests on (strategies, assumptions)")

    def _anchors(self) -> dict:
        """Heading anchors as GitHub computes them for the Markdown page (the HTML page uses the same),
        in document order, so that a repeated heading gets the same number on both pages."""
        seen: dict[str, int] = {}
        heads = [("title", self.title)] + [(k, SECTIONS[k]) for k in ("bottom", "rests", "contents", "findings")]
        heads += [("charts", SECTIONS["charts"])] + [(("chart", i), c.title) for i, c in enumerate(self.charts)]
        heads += [("tables", SECTIONS["tables"])] + [(("table", i), t.title) for i, t in enumerate(self.tables)]
        heads += [("caveats", SECTIONS["caveats"]), ("reproduce", SECTIONS["reproduce"])]
        return {key: anchor(text, seen) for key, text in heads
                if not (key == "charts" and not self.charts or key == "tables" and not self.tables)}

    def _contents(self, a: dict) -> list[tuple[int, str, str]]:
        """(depth, text, anchor) for the table of contents."""
        items = [(0, SECTIONS["findings"], a["findings"])]
        if self.charts:
            items.append((0, SECTIONS["charts"], a["charts"]))
            items += [(1, c.title, a[("chart", i)]) for i, c in enumerate(self.charts)]
        if self.tables:
            items.append((0, SECTIONS["tables"], a["tables"]))
            items += [(1, t.title, a[("table", i)]) for i, t in enumerate(self.tables)]
        return items + [(0, SECTIONS["caveats"], a["caveats"]), (0, SECTIONS["reproduce"], a["reproduce"])]

    def markdown(self) -> str:
        a = self._anchors()
        out = [f"# {md_escape(self.title)}", "", self.question, "", f"## {SECTIONS['bottom']}", "",
               " ".join(self.bottom_line), "", f"## {SECTIONS['rests']}", ""]
        out += [f"- {r}" for r in self.rests_on]
        out += ["", f"## {SECTIONS['contents']}", ""]
        out += [f"{'  ' * d}- [{md_escape(text)}](#{href})" for d, text, href in self._contents(a)]
        out += ["", f"## {SECTIONS['findings']}", ""]
        out += [f"- {v.sentence()}" for v in self.verdicts] + [f"- {f}" for f in self.findings]
        if self.charts:
            out += ["", f"## {SECTIONS['charts']}", ""]
            for c in self.charts:
                out += [f"### {md_escape(c.title)}", "", f"![{md_escape(c.caption)}]({c.name}.svg)", "",
                        f"*{md_escape(c.caption)}*", ""]
        if self.tables:
            out += ["", f"## {SECTIONS['tables']}", ""]
            for t in self.tables:
                out += [f"### {md_escape(t.title)}", ""]
                if t.note:
                    out += [t.note, ""]
                out += ([md_table(t.frame), "", f"(CSV: [{t.name}.csv]({t.name}.csv))", ""] if t.show else
                        [f"{len(t.frame)} rows, in the CSV file [{t.name}.csv]({t.name}.csv).", ""])
        out += ["", f"## {SECTIONS['caveats']}", ""] + [f"- {c}" for c in self.caveats]
        out += ["", f"## {SECTIONS['reproduce']}", ""] + [f"- {r}" for r in self.reproduce]
        return "\n".join(out) + "\n"

    def html(self) -> str:
        e = html.escape
        a = self._anchors()

        def h2(key):
            return f"<h2 id='{a[key]}'>{e(SECTIONS[key])}</h2>"

        parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
                 "<meta name='viewport' content='width=device-width, initial-scale=1'>",
                 f"<title>{e(self.title)}</title><style>{CSS}</style></head><body>",
                 f"<h1 id='{a['title']}'>{e(self.title)}</h1>", f"<p class='question'>{md_inline(self.question)}</p>",
                 f"<section class='bottom'>{h2('bottom')}<p>{md_inline(' '.join(self.bottom_line))}</p></section>",
                 h2("rests") + "<ul class='rests'>" + "".join(f"<li>{md_inline(r)}</li>" for r in self.rests_on) + "</ul>",
                 f"<nav class='toc'>{h2('contents')}{_html_contents(self._contents(a))}</nav>",
                 h2("findings") + "<ul class='verdicts'>"]
        parts += [f"<li class='{v.judgement.css}'>{md_inline(v.sentence())}</li>" for v in self.verdicts]
        parts += [f"<li class='info'>{md_inline(f)}</li>" for f in self.findings]
        parts.append("</ul>")
        if self.charts:
            parts.append(h2("charts"))
            for i, c in enumerate(self.charts):
                parts.append(f"<figure id='{a[('chart', i)]}'><h3>{e(c.title)}</h3>"
                             f"<object class='chart' type='image/svg+xml' data='{e(c.name)}.svg' "
                             f"aria-label='{e(c.caption)}'><a href='{e(c.name)}.svg'>{e(c.name)}.svg</a></object>"
                             f"<figcaption>{e(c.caption)}</figcaption></figure>")
        if self.tables:
            parts.append(h2("tables"))
            for i, t in enumerate(self.tables):
                parts.append(f"<h3 id='{a[('table', i)]}'>{e(t.title)}</h3>")
                if t.note:
                    parts.append(f"<p>{md_inline(t.note)}</p>")
                csv = f"<a href='{e(t.name)}.csv'>{e(t.name)}.csv</a>"
                parts.append(html_table(t.frame) + f"<p class='csv'>CSV: {csv}</p>" if t.show else
                             f"<p>{len(t.frame)} rows, in the CSV file {csv}.</p>")
        parts.append(h2("caveats") + "<ul>" + "".join(f"<li>{md_inline(c)}</li>" for c in self.caveats) + "</ul>")
        parts.append(h2("reproduce") + "<ul>" + "".join(f"<li>{md_inline(r)}</li>" for r in self.reproduce) + "</ul>")
        parts.append(f"<script>{SORT_JS}</script></body></html>")
        return "\n".join(parts)

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write report.md, report.html, one SVG per chart, one CSV per table and the extra pages into ``out_dir``."""
        self.fit()
        self.check()
        out = Path(out_dir)
        make_folder(out, "report folder")
        for c in self.charts:
            (out / f"{c.name}.svg").write_text(c.svg)
        for t in self.tables:
            numbers = t.frame if t.data is None else t.data
            text_numbers(numbers, f"table {t.title!r}")
            numbers.to_csv(out / f"{t.name}.csv", index=False)
        found = findings_frame(self)
        found.to_csv(out / f"{FINDINGS}.csv", index=False)
        found.to_parquet(out / f"{FINDINGS}.parquet", index=False)
        for name, text in self.pages.items():
            (out / name).write_text(text)
        if self.claims:   # what simlab robust compares its own default play with
            (out / CLAIMS).write_text(json.dumps([c.__dict__ for c in self.claims], indent=1) + "\n")
        (out / "report.md").write_text(self.markdown())
        (out / "report.html").write_text(self.html())
        return {"markdown": out / "report.md", "html": out / "report.html"}


SECTIONS = {"bottom": "Bottom line", "rests": "What it rests on", "contents": "Contents", "findings": "Findings",
            "charts": "Charts", "tables": "Tables", "caveats": "Caveats", "reproduce": "Reproduce"}

CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em;margin:1.4em 0 .4em}
p.question{font-size:1.05em;color:#333}
section.bottom{background:#eef4fa;border-left:6px solid #2c6fad;padding:.2em 1.2em .6em;margin:1.5em 0}
section.bottom h2{border:none;margin-top:.6em}section.bottom p{font-size:1.12em;margin:.3em 0}
nav.toc{background:#fafafa;border:1px solid #e4e4e4;padding:0 1.2em .6em}nav.toc h2{border:none;margin-top:.6em}
nav.toc ul{margin:.2em 0;padding-left:1.2em}nav.toc a{text-decoration:none}nav.toc a:hover{text-decoration:underline}
ul.verdicts li{margin:.4em 0;padding:.3em .5em;border-left:4px solid #bbb;list-style:none}
li.out{border-color:#c0392b!important;background:#fdecea}li.in{border-color:#27ae60!important}
li.und{border-color:#e67e22!important}li.note{border-color:#5b7da8!important}
figure{margin:1em 0}object.chart{display:block;max-width:100%;height:auto}
figcaption{font-style:italic;color:#555}table.tbl{border-collapse:collapse;font-size:.85em}
table.tbl td,table.tbl th{border:1px solid #ddd;padding:3px 6px;text-align:right}table.tbl td{white-space:nowrap}
div.scroll{overflow-x:auto;max-width:100%}
table.sortable th{cursor:pointer;background:#f4f6f8;user-select:none}table.sortable th:hover{background:#e6ebf0}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
p.csv{font-size:.8em;color:#666}code{background:#f4f4f4;padding:1px 3px}"""

# click (or Enter on) a column heading: sort by it, again to reverse; numbers by their leading value
SORT_JS = """function sortKey(c){var t=c.textContent.trim(),m=t.replace(/,/g,'').match(/^[+-]?(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?/i);
return m?[0,parseFloat(m[0])]:[t?1:2,t.toLowerCase()]}
function sortBy(th){var tb=th.closest('table'),body=tb.tBodies[0],i=th.cellIndex,
up=th.getAttribute('aria-sort')!=='ascending';
tb.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort')});
th.setAttribute('aria-sort',up?'ascending':'descending');
Array.from(body.rows).map(function(r){return [sortKey(r.cells[i]),r]}).sort(function(a,b){
var x=a[0],y=b[0];if(x[0]!==y[0])return x[0]-y[0];var d=x[0]===0?x[1]-y[1]:x[1].localeCompare(y[1]);
return up?d:-d}).forEach(function(p){body.appendChild(p[1])})}
document.querySelectorAll('table.sortable th').forEach(function(th){th.tabIndex=0;th.title='sort by this column';
th.addEventListener('click',function(){sortBy(th)});
th.addEventListener('keydown',function(e){if(e.key==='Enter')sortBy(th)})});"""


def sentences(text: str) -> list[str]:
    """Split at a full stop, question or exclamation mark followed by a space and a capital or digit."""
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", text.strip()) if s]


def anchor(text: str, seen: dict[str, int]) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to
    hyphens, a repeat numbered -1, -2, ..."""
    plain = re.sub(r"\\(.)", r"\1", text).replace("**", "").replace("`", "")
    slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else f"{slug}-{n}"


def _html_contents(items) -> str:
    out, depth = ["<ul>"], 0
    for d, text, href in items:
        if d > depth:
            out[-1] = out[-1].removesuffix("</li>")
            out.append("<ul>")
        elif d < depth:
            out.append("</ul></li>")
        depth = d
        out.append(f"<li><a href='#{href}'>{html.escape(text)}</a></li>")
    return "".join(out + ["</ul></li>"] * depth + ["</ul>"])


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "item"


def md_escape(text) -> str:
    """User-supplied text (a strategy name, a label) made literal in Markdown: its marks are escaped
    (brackets only where they could form a link, so that '[lo, hi]' intervals stay readable)."""
    t = re.sub(r"([\\`*<>|])", r"\\\1", str(text))
    return re.sub(r"([\[\]])", r"\\\1", t) if "](" in t else t


def md_inline(text: str) -> str:
    """Markdown text as HTML: escaped, with the marks reports use (**bold**, `code`, [links](file.html),
    backslash escapes)."""
    held: list[str] = []

    def hold(m):
        held.append(m.group(1))
        return f"\x00{len(held) - 1}\x00"

    t = html.escape(re.sub(r"\\([\\`*\[\]<>|])", hold, text))
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    t = re.sub(r"`(.+?)`", r"<code>\1</code>", t)
    t = re.sub(r"\[([^\]]+)\]\(([^()\s]+)\)", r"<a href='\2'>\1</a>", t)
    return re.sub("\x00(\\d+)\x00", lambda m: html.escape(held[int(m.group(1))]), t)


def _cell(v) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def md_table(frame: pd.DataFrame) -> str:
    cols = [md_escape(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(md_escape(_cell(v)).replace("\n", " ") for v in row) + " |")
    return "\n".join(lines)


def html_table(frame: pd.DataFrame) -> str:
    e = html.escape
    head = "".join(f"<th scope='col'>{e(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{e(_cell(v))}</td>" for v in row) + "</tr>"
                   for row in frame.itertuples(index=False))
    return (f"<div class='scroll'><table class='tbl sortable'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody>"
            "</table></div>")


def ci(row, value: str, lo: str = "lo", hi: str = "hi", unit: str = SHARE, digits: int | None = None) -> str:
    """'27.3% [26.9%, 27.7%]' (or points, or a number) from one row's value / lo / hi fields."""
    return in_unit(unit, row[value], row[lo], row[hi], digits)


def in_unit(unit: str, v, lo=None, hi=None, digits: int | None = None) -> str:
    """A value (with its interval when ``lo`` is given) in ``unit``: a share, points, a change or a
    number, with that unit's default digits."""
    if unit == SHARE:
        return fmt_share(v, lo, hi, 1 if digits is None else digits)
    if unit == POINTS:
        return fmt_points(v, lo, hi, 1 if digits is None else digits)
    return fmt_number(v, lo, hi, 2 if digits is None else digits, signed=unit == CHANGE)


CSV_DATA = "simlab_csv"      # a formatted frame's attrs key: the same table with numbers, for its CSV file
INTERVAL = re.compile(r"\s*\[95% CI\]|\s*\[simultaneous 95% CI\]")


@dataclass(frozen=True)
class Ci:
    """A column of values with their 95% intervals: '54.2% [53.4%, 54.9%]' on the page, and in the
    CSV file three numeric columns ``NAME``, ``NAME low``, ``NAME high`` (NAME: the heading without
    its '[95% CI]'), in the measure's own unit: a share or a change in shares as a fraction.
    ``unit`` may be a function of the row (a table mixing shares and scores)."""

    value: str
    lo: str = "lo"
    hi: str = "hi"
    unit: str | Callable = SHARE
    digits: int | None = None
    blank: Callable | None = None    # rows where the cell is empty (no value there)

    def text(self, row) -> str:
        if self.blank is not None and self.blank(row):
            return ""
        unit = self.unit(row) if callable(self.unit) else self.unit
        return ci(row, self.value, self.lo, self.hi, unit, self.digits(row) if callable(self.digits) else self.digits)

    def numbers(self, frame: pd.DataFrame, name: str) -> dict[str, pd.Series]:
        base = INTERVAL.sub("", name)
        empty = frame.apply(self.blank, axis=1).astype(bool) if self.blank is not None and len(frame) else None
        cols = {base: frame[self.value], f"{base} low": frame[self.lo], f"{base} high": frame[self.hi]}
        return {k: (v.astype(float).mask(empty) if empty is not None else v) for k, v in cols.items()}


@dataclass(frozen=True)
class Num:
    """A column of plain values (a share, a mean, a count) formatted on the page, a number in the CSV."""

    column: str
    unit: str = NUMBER
    digits: int | None = None
    blank: Callable | None = None    # rows where the cell is empty

    def text(self, row) -> str:
        v = row[self.column]
        if self.blank is not None and self.blank(row):
            return ""
        if self.unit == "g":      # a quantile: as short as it is ('4', '12.5')
            return f"{round(float(v), 2 if self.digits is None else self.digits):g}"
        return in_unit(self.unit, v, digits=self.digits)

    def numbers(self, frame: pd.DataFrame, name: str) -> dict[str, pd.Series]:
        col = frame[self.column]
        if self.blank is not None and len(frame):
            col = col.astype(float).mask(frame.apply(self.blank, axis=1).astype(bool))
        return {name: col}


def fields(key: str, e) -> dict[str, float]:
    """An estimate as a row's fields ``key``, ``key_lo``, ``key_hi``, for a :class:`Ci` column."""
    return {key: e.value, f"{key}_lo": e.lo, f"{key}_hi": e.hi}


def formatted(frame: pd.DataFrame, spec: dict[str, object]) -> pd.DataFrame:
    """Pick and format columns: ``spec`` maps output name -> source column, a :class:`Ci` or
    :class:`Num` (formatted on the page, numbers in the CSV file), or a callable on the row (a label:
    the same text in both). The frame's ``attrs`` carry the CSV's numbers (:meth:`Report.table`)."""
    out = pd.DataFrame(index=frame.index)
    data: dict[str, pd.Series] = {}
    for name, how in spec.items():
        if isinstance(how, (Ci, Num)):
            out[name] = frame.apply(how.text, axis=1) if len(frame) else pd.Series(dtype=object)
            data.update(how.numbers(frame, name))
        else:
            out[name] = frame.apply(how, axis=1) if callable(how) else frame[how]
            data[name] = out[name]
    out = out.reset_index(drop=True)
    out.attrs[CSV_DATA] = pd.DataFrame(data).reset_index(drop=True)
    return out


# a number formatted as text: '54.2%', '+6.6 points [+5.5, +7.3]', '1841 [1366, inf]' (a bare '8' or '0.25' reads
# back from a CSV file as the number it is, and is often a label: a parameter's value, a place)
NUMBER_TEXT = re.compile(r"^[+-]?(\d[\d,]*\.?\d*|\.\d+|inf)((%| points)( \[.*, .*\])?| \[.*, .*\])$")


def text_numbers(frame: pd.DataFrame, what: str) -> None:
    """Refuse a CSV column that holds numbers as text (a designer re-analysing it would have to parse
    them): an interval or a percentage belongs in numeric columns (:class:`Ci`, :class:`Num`)."""
    for col in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[col]) or pd.api.types.is_bool_dtype(frame[col]):
            continue
        cells = frame[col].dropna().astype(str)
        bad = cells[cells.str.match(NUMBER_TEXT)]
        if len(bad):
            raise ReportError(f"{what}: column {col!r} holds numbers as text ({bad.iloc[0]!r}); give it a Ci or Num "
                              "column so that its CSV holds numbers")


def findings_frame(rep: "Report") -> pd.DataFrame:
    """Every finding of a report as data, one row per verdict: what was measured (subject, measure
    key, players, arm), the estimate and its interval in the measure's unit (shares and changes in
    shares as fractions), the level and games it rests on, what it was read against (reference,
    band) and the verdict's code."""
    rows = []
    for v in rep.verdicts:
        e, b = v.estimate, v.band
        rows.append({"study": rep.study, "subject": v.subject, "measure": v.measure,
                     "players": v.players, "arm": v.arm, "unit": v.unit,
                     "estimate": e.value, "low": e.lo, "high": e.hi, "level": e.level, "games": e.n,
                     "method": e.method, "reference": v.reference,
                     "band": "" if b is None else b.kind, "band_low": None if b is None else b.lo,
                     "band_high": None if b is None or not math.isfinite(b.hi) else b.hi,
                     "smallest_change": None if b is None or b.kind != "effect" else (b.hi - b.lo) / 2,
                     "verdict": v.judgement.code})
    cols = ["study", "subject", "measure", "players", "arm", "unit", "estimate", "low", "high", "level", "games",
            "method", "reference", "band", "band_low", "band_high", "smallest_change", "verdict"]
    out = pd.DataFrame(rows, columns=cols)
    for c in ("estimate", "low", "high", "level", "reference", "band_low", "band_high", "smallest_change"):
        out[c] = pd.to_numeric(out[c], errors="coerce").astype(float)
    out["players"] = pd.array(out["players"], dtype="Int64")
    out["games"] = out["games"].astype("int64")
    return out


def load_findings(folder) -> pd.DataFrame:
    """A report folder's findings as a frame (``findings.parquet``, else ``findings.csv``)."""
    folder = Path(folder)
    if (folder / f"{FINDINGS}.parquet").is_file():
        return pd.read_parquet(folder / f"{FINDINGS}.parquet")
    if (folder / f"{FINDINGS}.csv").is_file():
        return pd.read_csv(folder / f"{FINDINGS}.csv")
    raise SimlabError(f"{folder}: no {FINDINGS}.csv here (not a simlab report folder, or written before findings)")


def pct(x) -> str:
    return fmt_share(x)


def num(x, d: int = 2) -> str:
    return fmt_number(x, digits=d)
