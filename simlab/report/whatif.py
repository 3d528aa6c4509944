"""The sweep's what-if page: one self-contained HTML file (no network, no server, no library) with
a slider over the grid points that shows, at each point, its verdicts in words, every measure with
its 95% interval and its paired change from the first point, and charts with interval bands over
all points and the current point marked.

Everything is precomputed by :mod:`simlab.report.sweeps` in the report's own wording; the page's script only
shows the chosen point, so the page says exactly what the report says. The numbers sit in the page
as JSON (``<script type="application/json" id="whatif-data">``) for anyone to read back. A URL
hash selects a point on load (``whatif.html#point=3`` counts from 1; ``&players=3``) and follows
the slider, so a point can be linked to.
"""
from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass

import pandas as pd

from simlab.measures.stats import Estimate
from simlab.report.page import md_inline
from simlab.report.wording import TIE, Band, compare, fmt_share

FILE = "whatif.html"


@dataclass
class Panel:
    """One chart: a measure over the points at one player count, with the band it is read against."""

    measure: str
    share: bool
    band: Band | None = None


def _finite(x):
    """A JSON-safe number: NaN and infinities (an interval that could not be computed) as null."""
    return float(x) if x is not None and math.isfinite(float(x)) else None


def _reading(r) -> str:
    """The change from the first point read by its interval (a tie when it holds 0), never by its value."""
    said = compare(Estimate(r["change"], r["lo"], r["hi"], int(r["games"]), "paired"))
    return said if said == TIE else f"{said} than at the first point"


def entries(table: pd.DataFrame, shown: pd.DataFrame, summaries: dict, verdicts: dict) -> dict[str, list[dict]]:
    """players -> one entry per point: its label, summary and verdicts (HTML) and every measure's row,
    with the raw numbers and the same texts as the report's table (``shown``, aligned with ``table``)."""
    out: dict[str, list[dict]] = {}
    for (n, i), g in table.groupby(["players", "point"], sort=True):
        rows = [{"measure": r["measure"], "share": bool(r["share"]), "value": _finite(r["b"]),
                 "lo": _finite(r["b_lo"]), "hi": _finite(r["b_hi"]), "change": _finite(r["change"]) if i else None,
                 "change_lo": _finite(r["lo"]) if i else None, "change_hi": _finite(r["hi"]) if i else None,
                 "value_text": shown.loc[k, "value [95% CI]"],
                 "change_text": shown.loc[k, "change from the first point [95% CI]"],
                 "reading": _reading(r) if i else ""}
                for k, r in g.iterrows()]
        out.setdefault(str(n), []).append({
            "point": int(i), "label": g["label"].iloc[0], "summary": md_inline(summaries[n, i]),
            "verdicts": [{"css": v.judgement.css, "html": md_inline(v.sentence())} for v in verdicts.get((n, i), [])],
            "rows": rows})
    return out


def _ticks(lo: float, hi: float, count: int = 4) -> list[str]:
    """Round tick values covering [lo, hi] (steps of 1, 2, 2.5 or 5 times a power of ten), each with
    as many decimals as the step needs, so that neighbouring ticks never read alike."""
    raw = (hi - lo) / count
    power = math.floor(math.log10(raw))
    m = next(m for m in (1, 2, 2.5, 5, 10) if m * 10 ** power >= raw)
    step = m * 10 ** power
    digits = max(0, -power - (m == 10) + (m == 2.5))
    return [f"{k * step:.{digits}f}" for k in range(math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9) + 1)]


def chart(panel: Panel, rows: pd.DataFrame, ticks: list[str], axis: str) -> str:
    """An inline SVG: the measure at every point with its 95% band, one hidden marker per point that
    the script shows for the current one; hover a dot for its value and interval."""
    w, h, left, right, top, bottom = 330, 250, 54, 12, 24, 74
    pw, ph = w - left - right, h - top - bottom
    scale = 100.0 if panel.share else 1.0
    v, lo, hi = (rows[c].astype(float).to_numpy() * scale for c in ("b", "b_lo", "b_hi"))
    lo, hi = [a if math.isfinite(a) else b for a, b in zip(lo, v)], [a if math.isfinite(a) else b for a, b in zip(hi, v)]
    ys = lo + hi + ([panel.band.lo * scale, panel.band.hi * scale] if panel.band else [])
    y0, y1 = min(ys), max(ys)
    pad = (y1 - y0) * 0.08 or max(abs(y0) * 0.05, 0.5)
    y0, y1 = y0 - pad, y1 + pad
    n = len(v)

    def x(i):
        return left + pw * (i + 0.5) / n

    def y(val):
        return top + ph * (y1 - val) / (y1 - y0)

    e = html.escape
    unit = " (%)" if panel.share else ""
    out = [f"<svg class='chart' viewBox='0 0 {w} {h}' width='{w}' height='{h}' role='img' "
           f"aria-label='{e(panel.measure)} at every point with its 95% interval band'>",
           f"<text class='title' x='{w / 2:.1f}' y='14' text-anchor='middle'>{e(panel.measure)}</text>",
           f"<rect class='frame' x='{left}' y='{top}' width='{pw}' height='{ph}'/>"]
    if panel.band:
        b0, b1 = y(panel.band.hi * scale), y(panel.band.lo * scale)
        out.append(f"<rect class='fair' x='{left}' y='{b0:.1f}' width='{pw}' height='{b1 - b0:.1f}'>"
                   f"<title>{e(panel.band.describe())}</title></rect>")
    for t in _ticks(y0, y1):
        at = y(float(t))
        out.append(f"<line class='grid' x1='{left}' x2='{left + pw}' y1='{at:.1f}' y2='{at:.1f}'/>"
                   f"<text class='tick' x='{left - 4}' y='{at + 3.5:.1f}' text-anchor='end'>{t}</text>")
    band = [f"{x(i):.1f},{y(a):.1f}" for i, a in enumerate(lo)] + [f"{x(i):.1f},{y(b):.1f}" for i, b in
                                                                   reversed(list(enumerate(hi)))]
    out.append(f"<polygon class='band' points='{' '.join(band)}'/>")
    out.append(f"<polyline class='line' points='{' '.join(f'{x(i):.1f},{y(a):.1f}' for i, a in enumerate(v))}'/>")
    step = max(1, math.ceil(n / 16))   # at most 16 tick labels; the current point's always shows
    for i, (a, b0, b1) in enumerate(zip(v, lo, hi)):
        said = (fmt_share(a / 100, b0 / 100, b1 / 100) if panel.share else f"{a:.2f} [{b0:.2f}, {b1:.2f}]")
        out.append(f"<g class='mark' data-i='{i}'><line x1='{x(i):.1f}' x2='{x(i):.1f}' y1='{top}' "
                   f"y2='{top + ph}'/><line class='bar' x1='{x(i):.1f}' x2='{x(i):.1f}' y1='{y(b0):.1f}' "
                   f"y2='{y(b1):.1f}'/><circle cx='{x(i):.1f}' cy='{y(a):.1f}' r='6'/></g>"
                   f"<circle class='dot' cx='{x(i):.1f}' cy='{y(a):.1f}' r='3'><title>point {i + 1}, "
                   f"{e(str(rows['label'].iloc[i]))}: {e(said)}</title></circle>")
        tx, ty = x(i), top + ph + 10
        out.append(f"<text class='xtick{'' if i % step == 0 else ' extra'}' data-i='{i}' x='{tx:.1f}' y='{ty}' "
                   f"text-anchor='end' transform='rotate(-40 {tx:.1f} {ty})'>{e(ticks[i])}</text>")
    out.append(f"<text class='label' x='{left + pw / 2:.1f}' y='{h - 3}' text-anchor='middle'>{e(axis)}</text>"
               f"<text class='label' transform='rotate(-90)' x='{-(top + ph / 2):.1f}' y='12' "
               f"text-anchor='middle'>{e(panel.measure + unit)}</text></svg>")
    return "".join(out)


def page(title: str, question: str, facts: list[str], bottom_line: list[str], axes: dict[str, list[str]],
         table: pd.DataFrame, shown: pd.DataFrame, summaries: dict, verdicts: dict,
         panels: dict[int, list[Panel]], command: str) -> str:
    """The page as one HTML string. ``axes``: swept parameter -> its values as labels, in grid order
    (the first varies slowest); ``table``/``shown``: the sweep's raw and formatted measure tables;
    ``summaries`` and ``verdicts`` by (players, point), in Markdown and as wording verdicts;
    ``panels``: the charts per player count."""
    e = html.escape
    data = {"axes": [{"name": k, "values": vs} for k, vs in axes.items()],
            "players": [int(n) for n in panels], "entries": entries(table, shown, summaries, verdicts)}
    tick = (lambda p: p.split("=", 1)[1]) if len(axes) == 1 else (lambda p: " / ".join(s.split("=", 1)[1] for s in
                                                                                         p.split(", ")))
    charts = []
    for n, ps in panels.items():
        t = table[table["players"] == n]
        labels = list(t.drop_duplicates("point").sort_values("point")["label"])
        figs = "".join(chart(p, t[t["measure"] == p.measure].sort_values("point"), [tick(s) for s in labels],
                             " / ".join(axes)) for p in ps)
        charts.append(f"<div class='charts' data-players='{n}'>{figs}</div>")
    players = ("<label>Players <select id='players'>" + "".join(f"<option value='{n}'>{n}</option>" for n in panels)
               + "</select></label>") if len(panels) > 1 else ""
    sliders = "".join(f"<label class='axis'><span>{e(k)}</span><input type='range' class='slider' data-axis='{j}' "
                      f"min='0' max='{len(vs) - 1}' step='1' value='0' aria-label='{e(k)}'><output "
                      f"id='value-{j}'></output></label>" for j, (k, vs) in enumerate(axes.items()))
    blob = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")
    return "\n".join([
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>What if: {e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>What if: {e(title)}</h1><p class='question'>{md_inline(question)}</p>",
        "<ul class='facts'>" + "".join(f"<li>{md_inline(f)}</li>" for f in facts) + "</ul>",
        f"<section class='bottom'><h2>Bottom line of the whole sweep</h2><p>{md_inline(' '.join(bottom_line))}</p>"
        "</section>",
        f"<section class='controls'><p class='how'>Move the slider{'s' if len(axes) > 1 else ''} (or focus "
        f"{'one' if len(axes) > 1 else 'it'} and press the arrow keys) to step through the points; everything "
        f"below shows the chosen point.</p>{players}{sliders}<p id='where' aria-live='polite'></p></section>",
        "<section id='point'><h2>At this point</h2><p id='summary'></p><ul id='verdicts' class='verdicts'></ul>",
        "<h2>Charts</h2><p class='note'>Each measure at every point with its 95% interval band (every point on the "
        "same deals); the ring and the dashed line mark the chosen point" + ("; green: the fairness band"
                                                                             if any(p.band for ps in panels.values()
                                                                                    for p in ps) else "")
        + ". Hover a dot for its value.</p>" + "".join(charts),
        "<h2>Every measure at this point</h2><p class='note'>The change from the first point is the mean of "
        "per-game differences, clustered by deal (every point on the same root seed).</p>"
        "<div class='scroll'><table class='tbl'><thead><tr><th scope='col'>measure</th><th scope='col'>value [95% CI]"
        "</th><th scope='col'>change from the first point [95% CI]</th><th scope='col'>reading</th></tr></thead>"
        "<tbody id='rows'></tbody></table></div></section>",
        f"<p class='note'>Made with <code>{e(command)}</code>; the same numbers as "
        "<a href='report.html'>report.html</a> beside this page.</p>",
        f"<script type='application/json' id='whatif-data'>{blob}</script>",
        f"<script>{JS}</script></body></html>"])


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}p.question{font-size:1.05em}
ul.facts{color:#333}section.bottom{background:#eef4fa;border-left:6px solid #2c6fad;padding:.2em 1.2em .6em;margin:1.2em 0}
section.bottom h2{border:none;margin-top:.6em}
section.controls{position:sticky;top:0;z-index:1;background:#fff;border:1px solid #d8dee6;border-radius:6px;
padding:.4em 1em .6em;box-shadow:0 2px 6px rgba(0,0,0,.06)}p.how{margin:.2em 0 .5em;color:#555;font-size:.9em}
label.axis{display:flex;align-items:center;gap:.8em;margin:.3em 0}label.axis span{min-width:9em;font-family:monospace}
label.axis input{flex:1;max-width:32em}label.axis output{font-family:monospace;min-width:8em;font-weight:bold}
#where{font-size:1.1em;font-weight:bold;margin:.4em 0 0}select{font-size:1em;margin-bottom:.3em}
ul.verdicts{padding:0}ul.verdicts li{margin:.4em 0;padding:.3em .5em;border-left:4px solid #bbb;list-style:none}
li.out{border-color:#c0392b!important;background:#fdecea}li.in{border-color:#27ae60!important}
li.und{border-color:#e67e22!important}li.note{border-color:#5b7da8!important}
p.note{color:#555;font-size:.9em}div.charts{display:flex;flex-wrap:wrap;gap:6px}div.charts[hidden]{display:none}
svg.chart{font-size:10px;background:#fff}svg.chart text.title{font-size:11px;font-weight:bold}
svg.chart .frame{fill:none;stroke:#999}svg.chart .grid{stroke:#e6e6e6}svg.chart .fair{fill:green;fill-opacity:.13}
svg.chart .band{fill:#1f77b4;fill-opacity:.2}svg.chart .line{fill:none;stroke:#1f77b4;stroke-width:1.5}
svg.chart .dot{fill:#1f77b4}svg.chart .mark{display:none}svg.chart .mark.on{display:inline}
svg.chart .mark line{stroke:#d62728;stroke-dasharray:3 3}svg.chart .mark line.bar{stroke-dasharray:none;stroke-width:3}
svg.chart .mark circle{fill:none;stroke:#d62728;stroke-width:2}svg.chart text.xtick.extra{display:none}
svg.chart text.xtick.on{display:inline;font-weight:bold;fill:#d62728}
table.tbl{border-collapse:collapse;font-size:.85em}table.tbl td,table.tbl th{border:1px solid #ddd;padding:3px 6px;text-align:right}
table.tbl th{background:#f4f6f8}table.tbl td:first-child{text-align:left}div.scroll{overflow-x:auto}
code{background:#f4f4f4;padding:1px 3px}"""

# show the chosen point: the data are precomputed, the script only picks an entry and fills it in
JS = """var D=JSON.parse(document.getElementById('whatif-data').textContent);
var sliders=Array.from(document.querySelectorAll('input.slider')),sel=document.getElementById('players');
var sizes=D.axes.map(function(a){return a.values.length}),count=sizes.reduce(function(a,b){return a*b},1);
var S={players:D.players[0],point:0};
function digits(p){var out=[];for(var j=sizes.length-1;j>=0;j--){out.unshift(p%sizes[j]);p=Math.floor(p/sizes[j])}return out}
function show(){var E=D.entries[S.players][S.point],d=digits(S.point);
sliders.forEach(function(s,j){s.value=d[j];var v=D.axes[j].values[d[j]];s.setAttribute('aria-valuetext',v);
document.getElementById('value-'+j).textContent=v});
if(sel)sel.value=S.players;
document.getElementById('where').textContent='Point '+(S.point+1)+' of '+count+': '+E.label+
(D.players.length>1?', '+S.players+' players':'')+(S.point?'':' (the first point, which every change is read from)');
document.getElementById('summary').innerHTML=E.summary;
document.getElementById('verdicts').innerHTML=E.verdicts.map(function(v){return "<li class='"+v.css+"'>"+v.html+'</li>'}).join('');
var tb=document.getElementById('rows');tb.textContent='';
E.rows.forEach(function(r){var tr=tb.insertRow();[r.measure,r.value_text,r.change_text,r.reading].forEach(function(t){tr.insertCell().textContent=t})});
document.querySelectorAll('div.charts').forEach(function(c){c.hidden=c.dataset.players!=String(S.players)});
document.querySelectorAll('svg.chart .mark, svg.chart text.xtick').forEach(function(m){m.classList.toggle('on',m.dataset.i==String(S.point))});
var h='#point='+(S.point+1)+(D.players.length>1?'&players='+S.players:'');
if(location.hash!==h){try{history.replaceState(null,'',h)}catch(e){}}}
function fromHash(){var m=/point=(\\d+)/.exec(location.hash),q=/players=(\\d+)/.exec(location.hash);
if(m)S.point=Math.min(Math.max(parseInt(m[1],10)-1,0),count-1);
if(q&&D.players.indexOf(parseInt(q[1],10))>=0)S.players=parseInt(q[1],10)}
sliders.forEach(function(s){s.addEventListener('input',function(){S.point=sliders.reduce(function(p,t,j){return p*sizes[j]+parseInt(t.value,10)},0);show()})});
if(sel)sel.addEventListener('change',function(){S.players=parseInt(sel.value,10);show()});
window.addEventListener('hashchange',function(){fromHash();show()});
fromHash();show();"""
