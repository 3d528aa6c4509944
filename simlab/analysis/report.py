"""Balance reports: Markdown plus a self-contained HTML page, both in the same order.

1. verdicts in plain words (a number, its interval, the fair reference, inside or outside a
   stated fairness band);
2. charts (matplotlib, Agg backend, PNG files; embedded as base64 in the HTML, linked from the
   Markdown);
3. tables (also written as CSV files next to the report);
4. caveats: the strategies used, the ASSUMED rule readings and component data the result rests on,
   and the exact command, seeds and code version that reproduce it.
"""
from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .stats import Estimate


def _pct(x: float, d: int = 1) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}%}"


def _num(x: float, d: int = 2) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


@dataclass
class Verdict:
    """One plain-language finding: ``estimate`` against ``reference`` and a fairness ``band``.

    ``band`` is (low, high) in the same unit as the estimate. The status is "within the band" when
    the whole interval lies inside it, "OUTSIDE the band" when the whole interval lies outside,
    and "undecided" when the interval crosses an edge (more games would settle it).
    """

    subject: str                      # "Seat 1 (start player), 4 players, win rate"
    estimate: Estimate
    reference: float | None = None    # the fair value
    band: tuple[float, float] | None = None
    percent: bool = True
    note: str = ""                    # a plain-words reading, e.g. "the start player is favoured"
    reference_label: str = "fair reference"

    @property
    def status(self) -> str:
        if self.band is None:
            return "information"
        lo, hi = self.band
        e = self.estimate
        if e.lo >= lo and e.hi <= hi:
            return "within the band"
        if e.hi < lo or e.lo > hi:
            return "OUTSIDE the band"
        return "undecided"

    def sentence(self) -> str:
        f = _pct if self.percent else _num
        text = f"{self.subject}: {self.estimate.fmt(percent=self.percent)}"
        if self.reference is not None:
            text += f"; {self.reference_label} {f(self.reference)}"
        if self.band is not None:
            text += f"; fairness band {f(self.band[0])} to {f(self.band[1])}: **{self.status}**"
        if self.note:
            text += f". {self.note}"
        return text + "."


@dataclass
class Chart:
    name: str       # file stem
    caption: str
    png: bytes


@dataclass
class Table:
    title: str
    frame: pd.DataFrame   # already formatted (strings) or raw
    note: str = ""
    name: str = ""
    show: bool = True     # False: CSV file only (long tables), named in the report


@dataclass
class Report:
    title: str
    question: str
    verdicts: list[Verdict] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    reproduce: list[str] = field(default_factory=list)

    def verdict(self, *args, **kwargs) -> Verdict:
        v = Verdict(*args, **kwargs)
        self.verdicts.append(v)
        return v

    def chart(self, name: str, fig, caption: str) -> None:
        import matplotlib.pyplot as plt

        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        self.charts.append(Chart(_slug(name), caption, buf.getvalue()))

    def table(self, title: str, frame: pd.DataFrame, note: str = "", name: str = "", show: bool = True) -> None:
        self.tables.append(Table(title, frame, note, _slug(name or title), show))

    # -----------------------------------------------------------------------------------------
    def markdown(self) -> str:
        out = [f"# {self.title}", "", self.question, "", "## Verdicts", ""]
        out += [f"- {v.sentence()}" for v in self.verdicts]
        out += [f"- {f}" for f in self.findings]
        if self.charts:
            out += ["", "## Charts", ""]
            for c in self.charts:
                out += [f"![{c.caption}]({c.name}.png)", "", f"*{c.caption}*", ""]
        if self.tables:
            out += ["", "## Tables", ""]
            for t in self.tables:
                out += [f"### {t.title}", ""]
                if t.note:
                    out += [t.note, ""]
                out += ([md_table(t.frame), "", f"(CSV: `{t.name}.csv`)", ""] if t.show else
                        [f"{len(t.frame)} rows, in the CSV file `{t.name}.csv`.", ""])
        out += ["", "## Caveats", ""] + [f"- {c}" for c in self.caveats]
        out += ["", "## Reproduce", ""] + [f"- {r}" for r in self.reproduce]
        return "\n".join(out) + "\n"

    def html(self) -> str:
        e = html.escape
        parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(self.title)}</title>",
                 f"<style>{CSS}</style></head><body>", f"<h1>{e(self.title)}</h1>", f"<p>{_md_inline(self.question)}</p>",
                 "<h2>Verdicts</h2><ul class='verdicts'>"]
        for v in self.verdicts:
            cls = {"OUTSIDE the band": "out", "within the band": "in", "undecided": "und"}.get(v.status, "info")
            parts.append(f"<li class='{cls}'>{_md_inline(v.sentence())}</li>")
        parts += [f"<li class='info'>{_md_inline(f)}</li>" for f in self.findings]
        parts.append("</ul>")
        if self.charts:
            parts.append("<h2>Charts</h2>")
            for c in self.charts:
                b64 = base64.b64encode(c.png).decode()
                parts.append(f"<figure><img alt='{e(c.caption)}' src='data:image/png;base64,{b64}'>"
                             f"<figcaption>{e(c.caption)}</figcaption></figure>")
        if self.tables:
            parts.append("<h2>Tables</h2>")
            for t in self.tables:
                parts.append(f"<h3>{e(t.title)}</h3>")
                if t.note:
                    parts.append(f"<p>{_md_inline(t.note)}</p>")
                parts.append(t.frame.to_html(index=False, border=0, classes="tbl", na_rep="") if t.show else
                             f"<p>{len(t.frame)} rows, in the CSV file <code>{e(t.name)}.csv</code>.</p>")
        parts.append("<h2>Caveats</h2><ul>" + "".join(f"<li>{_md_inline(c)}</li>" for c in self.caveats) + "</ul>")
        parts.append("<h2>Reproduce</h2><ul>" + "".join(f"<li>{_md_inline(r)}</li>" for r in self.reproduce)
                     + "</ul></body></html>")
        return "\n".join(parts)

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write report.md, report.html, the PNG charts and one CSV per table into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for c in self.charts:
            (out / f"{c.name}.png").write_bytes(c.png)
        for t in self.tables:
            t.frame.to_csv(out / f"{t.name}.csv", index=False)
        (out / "report.md").write_text(self.markdown())
        (out / "report.html").write_text(self.html())
        return {"markdown": out / "report.md", "html": out / "report.html"}


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}
ul.verdicts li{margin:.4em 0;padding:.3em .5em;border-left:4px solid #999}
li.out{border-color:#c0392b!important;background:#fdecea}li.in{border-color:#27ae60!important}
li.und{border-color:#e67e22!important}figure{margin:1em 0}img{max-width:100%}
figcaption{font-style:italic;color:#555}table.tbl{border-collapse:collapse;font-size:.85em}
table.tbl td,table.tbl th{border:1px solid #ddd;padding:3px 6px;text-align:right}
code{background:#f4f4f4;padding:1px 3px}"""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "item"


def _md_inline(text: str) -> str:
    """Escape for HTML, then render the two Markdown marks reports use: **bold** and `code`."""
    t = html.escape(text)
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def md_table(frame: pd.DataFrame) -> str:
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join("" if (isinstance(v, float) and math.isnan(v)) else str(v).replace("|", "/")
                                       for v in row) + " |")
    return "\n".join(lines)


def ci(row, value: str, lo: str = "lo", hi: str = "hi", percent: bool = True, digits: int | None = None) -> str:
    """'27.3% [26.9%, 27.7%]' from one row's value / lo / hi fields."""
    if percent:
        d = 1 if digits is None else digits
        return f"{_pct(row[value], d)} [{_pct(row[lo], d)}, {_pct(row[hi], d)}]"
    d = 2 if digits is None else digits
    return f"{_num(row[value], d)} [{_num(row[lo], d)}, {_num(row[hi], d)}]"


def formatted(frame: pd.DataFrame, spec: dict[str, object]) -> pd.DataFrame:
    """Pick and format columns: ``spec`` maps output name -> source column, or -> (callable on row)."""
    out = pd.DataFrame(index=frame.index)
    for name, how in spec.items():
        out[name] = frame.apply(how, axis=1) if callable(how) else frame[how]
    return out.reset_index(drop=True)


def pct(x) -> str:
    return _pct(x)


def num(x, d: int = 2) -> str:
    return _num(x, d)


def new_figure(width: float = 7.0, height: float = 4.0, ncols: int = 1, nrows: int = 1):
    """A matplotlib figure on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False)
