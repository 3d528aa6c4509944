"""``simlab robust``: does a report's answer survive the rule readings and card data nobody can confirm?

Every ASSUMPTION parameter of a game declares its plausible alternatives
(:meth:`~simlab.core.params.Param.plausible_alternatives`). The experiment is played once as it
stands and once per alternative, one assumption changed at a time, all on the same seed (so game g
of every rerun starts from the same random streams as the default's game g), and its conclusions
are compared:

* the bottom line's **claims** (:class:`~simlab.report.page.Claim`: "removing Allen changes the
  hunter mirror's start share by less than 2 points") and
* every **finding judged against a band** (inside / outside / smaller / larger / undecided).

A conclusion *holds* when it reads the same, *flips* when it reads differently and both readings are
decided, *weakens* when a decided reading becomes undecided (more games might restore it) and
*firms up* the other way round; an undecided reading that reads differently but still undecided
*shifts*. An assumption *matters* to the report when one of its alternatives flips a claim or a
finding; a claim that only weakens under some alternatives is *fragile* (it sits near its band's
edge), which the report says of the claim. An alternative that changes no game of any run is said
so: it cannot change anything in this experiment.

The summary goes to ``robust/robust.json`` beside the experiment's report, so the report's caveats
then name only the assumptions that matter.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.params import ASSUMPTION

from simlab.report.caveats import ROBUSTNESS, add_caveats
from simlab.report.charts import new_figure
from simlab.report.page import CLAIMS, Report, md_escape
from simlab.report.wording import join
from simlab.studies.experiment import Context, analyse_experiment, prepare_experiment, warm_pool

HOLDS, FLIPS, WEAKENS, FIRMS, SHIFTS, MISSING = "holds", "flips", "weakens", "firms up", "shifts", "not measured"
# a number, share or interval inside a finding's subject ("(1.5% -> 0.2%)") is not part of what it is about
_NUMBERS = re.compile(r"\s*\([^()]*\d[^()]*\)")


@dataclass(frozen=True)
class Reading:
    """A conclusion as one run of the experiment reads it."""

    kind: str       # "claim" (the bottom line) or "finding" (judged against a band)
    key: str
    value: str
    decided: bool


def readings(report: Report) -> dict[tuple[str, str], Reading]:
    """The report's comparable conclusions: its claims and its findings judged against a band."""
    out: dict[tuple[str, str], Reading] = {}
    for c in report.claims:
        out[("claim", c.key)] = Reading("claim", c.key, c.value, c.decided)
    for v in report.verdicts:
        if v.band is None:
            continue
        key = _NUMBERS.sub("", v.subject).strip()
        j = v.judgement
        out.setdefault(("finding", key), Reading("finding", key, j.text, j.css != "und"))
    return out


def change(default: Reading, alternative: Reading | None) -> str:
    if alternative is None:
        return MISSING
    if alternative.value == default.value:
        return HOLDS
    if default.decided and alternative.decided:
        return FLIPS
    if default.decided or alternative.decided:
        return WEAKENS if default.decided else FIRMS
    return SHIFTS


def describe(param, value) -> str:
    """An alternative in words: a long table by the entries it changes from the default."""
    text = param.describe_value(value)
    if not isinstance(value, tuple) or len(value) <= 8:
        return text
    diff = [(i, a, b) for i, (a, b) in enumerate(zip(param.default, value)) if a != b]
    if len(diff) <= 6:
        return "entries " + ", ".join(f"{i + 1}: {a}->{b}" for i, a, b in diff)
    return f"{len(diff)} of {len(value)} entries changed (total {sum(param.default)} -> {sum(value)})"


def same_games(a: Context, b: Context) -> bool:
    """Whether every run of the rerun played exactly the games of the default run of the same point."""
    mine = {r.point: r for r in a.runs}
    for r in b.runs:
        d = mine.get(r.point)
        if d is None or not d.frame().reset_index(drop=True).equals(r.frame().reset_index(drop=True)):
            return False
    return True


def assumptions_of(games: list[str], names: tuple[str, ...]) -> list[tuple[str, str, tuple]]:
    """(game, parameter, alternatives) for every ASSUMPTION of the games that has alternatives, or for
    those named (naming one that can have none is an error)."""
    out, known = [], {}
    for g in games:
        for p in get_game(g).params.params:
            if p.status == ASSUMPTION:
                known.setdefault(p.name, []).append((g, p))
    for n in names:
        if n not in known:
            raise SimlabError(f"--assumption {n!r} is not an ASSUMPTION of {join(games)}; known: {', '.join(known)}")
    for name, entries in known.items():
        if names and name not in names:
            continue
        for g, p in entries:
            alts = p.plausible_alternatives()
            if alts:
                out.append((g, name, alts))
            elif names or not p.no_alternative:
                raise SimlabError(f"{g}: ASSUMPTION {name!r} has no plausible alternative to try"
                                  + (f": {p.no_alternative}" if p.no_alternative else " (Param.alternatives)"))
    return out


def run_robust(name: str, games: int = 4000, out: str | Path | None = None, runs: str | Path | None = None,
               game: str | None = None, seed: int = 1, workers: int | None = None, executor: str = "processes",
               scheduler: str | None = None, assumptions: tuple[str, ...] = (), progress: bool = True, log: Callable[[str], None] = print,
               accept_code_change: bool = False, options: dict[str, str] | None = None) -> tuple[Report, dict[str, Path]]:
    """Rerun experiment ``name`` (with its own settings ``options``) under each plausible alternative of its
    ASSUMPTION parameters and write the robustness report into ``<the experiment's report>/robust`` (or ``out``)."""
    setup = prepare_experiment(name, games, None, runs, game, seed, workers, options=options)
    if any(o.name == "strong" for o in setup.experiment.options) and "strong" not in setup.options:
        setup.options["strong"] = "none"    # the stronger players' reruns (minutes each) only where asked for
    out_dir = Path(out) if out else setup.out_dir / ROBUSTNESS.parent
    quiet_log = (lambda m: None)
    if setup.game:      # a fixed game: check the names before anything is played
        assumptions_of([setup.game], tuple(assumptions))
    with warm_pool(workers, executor, scheduler) as pool:
        kwargs = dict(executor=executor, progress=progress, accept_code_change=accept_code_change, pool=pool)
        log(f"{setup.experiment.name}: as the rules stand")
        base, base_ctx = analyse_experiment(setup, log=log, **kwargs)
        played = sorted({r.config.game for r in base_ctx.runs})
        todo = assumptions_of(played, tuple(assumptions))
        rows = []
        for i, (g, param, alts) in enumerate(todo):
            p = get_game(g).params[param]
            for alt in alts:
                shown = describe(p, alt)
                log(f"[{i + 1}/{len(todo)}] {g}: {param} = {shown}")
                rep, ctx = analyse_experiment(setup, log=quiet_log, assume={g: {param: alt}},
                                              runs_dir=setup.runs_dir / "robust" / _folder(param, p.describe_value(alt)),
                                              **kwargs)
                rows.append((g, param, shown, rep, same_games(base_ctx, ctx)))
    report, summary = robust_report(setup.experiment.name, setup.experiment.title, base, rows, played, games,
                                    sum(r.games for r in base_ctx.runs), len(base_ctx.runs),
                                    reported=reported_claims(setup.out_dir))
    add_caveats(report, base_ctx.runs, setup.command, robustness=summary)
    command = " ".join(["simlab robust", setup.experiment.name, "--games", str(games), "--seed", str(seed)]
                       + [f"--assumption {a}" for a in assumptions])
    report.reproduce[0] = f"Command: `{command}`; it plays the experiment as `{setup.command}` does, then once per alternative"
    paths = report.write(out_dir)
    (out_dir / ROBUSTNESS.name).write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    paths["json"] = out_dir / ROBUSTNESS.name
    return report, paths


def reported_claims(report_dir: Path) -> dict[str, str] | None:
    """The claims of the experiment's own report (its ``claims.json``), key -> value, if it has been written."""
    path = Path(report_dir) / CLAIMS
    try:
        return {c["key"]: c["value"] for c in json.loads(path.read_text())}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _folder(param: str, shown: str) -> str:
    """The alternative's run folder: its value, or a digest of a long one. The digest must be the same
    in every process (Python's ``hash`` of a string is not), so that a rerun finds the stored runs."""
    text = f"{param}={shown}"
    return text if len(text) <= 60 else f"{param}={hashlib.sha1(shown.encode()).hexdigest()[:12]}"


def robust_report(exp_name: str, exp_title: str, base: Report, rows: list, games: list[str], games_per_run: int,
                  total_games: int, n_runs: int, reported: dict[str, str] | None = None) -> tuple[Report, dict]:
    """The robustness report and its JSON summary from the default report and one report per alternative
    (``rows``: game, parameter, alternative in words, report, whether it played the same games).

    ``reported``: the claims of the experiment's own report. A claim that the default play here reads
    otherwise is not resolved at these games (the check has fewer games than the report), so no
    alternative can be said to flip it: it is left out of the comparison, and the report says so."""
    ref = readings(base)
    unresolved = {k: (ref[k].value, reported[k[1]]) for k in list(ref)
                  if k[0] == "claim" and reported is not None and k[1] in reported and reported[k[1]] != ref[k].value}
    for k in unresolved:
        del ref[k]
    if not ref:
        raise SimlabError(f"experiment {exp_name} states no claim and judges no finding against a band: "
                          "nothing to check")
    rep = Report(f"Robustness: {exp_title}",
                 f"Does the answer of `{exp_name}` hold under every plausible alternative of the rule readings and "
                 "component values that no published source confirms (one ASSUMPTION changed at a time)?",
                 study="robust")
    table, cells, seen, keys = [], {}, {}, list(ref)
    for g, param, shown, r, same in rows:
        now = readings(r)
        what = {k: change(v, now.get(k)) for k, v in ref.items()}
        for k, w in what.items():
            cells[(k, f"{param} = {shown}")] = w
            seen[(k, f"{param} = {shown}")] = now[k].value if k in now else "-"
        count = {kind: {w: sum(1 for (kk, _), x in what.items() if kk == kind and x == w) for w in (FLIPS, WEAKENS)}
                 for kind in ("claim", "finding")}
        table.append({"game": g, "assumption": param, "alternative": shown,
                      "games changed": "no" if same else "yes",
                      "claims flipped": count["claim"][FLIPS], "claims weakened": count["claim"][WEAKENS],
                      "findings flipped": count["finding"][FLIPS], "findings weakened": count["finding"][WEAKENS],
                      "what changes": "; ".join(f"{w} '{k[1]}' ({ref[k].value} -> {now[k].value if k in now else '-'})"
                                                for k, w in what.items() if w in (FLIPS, WEAKENS) and
                                                (k[0] == "claim" or w == FLIPS))})
    frame = pd.DataFrame(table)
    alt_of = {f"{p} = {a}": (g, p) for g, p, a, *_ in rows}
    n_claims = sum(1 for k in ref if k[0] == "claim")
    n_findings = len(ref) - n_claims
    params = list(dict.fromkeys((g, p) for g, p, *_ in rows))
    n_alt = len(rows)
    idle = int((frame["games changed"] == "no").sum()) if len(frame) else 0
    flips = {kind: [(k, alt) for (k, alt), w in cells.items() if k[0] == kind and w == FLIPS]
             for kind in ("claim", "finding")}
    fragile: dict[str, list[str]] = {}
    for (k, alt), w in cells.items():
        if k[0] == "claim" and w == WEAKENS:
            fragile.setdefault(k[1], []).append(alt_of[alt][1])
    matter: dict[str, dict[str, list[str]]] = {}
    for kind in flips:
        for k, alt in flips[kind]:
            g, param = alt_of[alt]
            matter.setdefault(g, {}).setdefault(param, []).append(
                f"flips '{k[1]}' ({ref[k].value} -> {seen[(k, alt)]}) when {alt}")
    weak: dict[str, dict[str, list[str]]] = {}
    for (k, alt), w in cells.items():
        if k[0] == "claim" and w == WEAKENS:
            g, param = alt_of[alt]
            weak.setdefault(g, {}).setdefault(param, []).append(f"'{k[1]}' becomes unsettled")

    names = sorted({p for g in matter for p in matter[g]})
    finding_flips = len(flips["finding"])
    # the answer, short (every claim and alternative in the findings, the details first among them)
    if flips["claim"]:
        movers = sorted({alt_of[alt][1] for _, alt in flips["claim"]})
        flipped = len({k for k, _ in flips["claim"]})
        rep.bottom_line.append(f"The answer does not hold everywhere: {flipped} of its {n_claims} claims "
                               f"{'flips' if flipped == 1 else 'flip'} under {join([f'`{p}`' for p in movers])}.")
        detail = "The claims that flip: " + "; ".join(f"'{k[1]}' from {ref[k].value} to {seen[(k, alt)]} when {alt}"
                                                      for k, alt in flips["claim"]) + "."
    else:
        claims = "its claim reads" if n_claims == 1 else f"its {n_claims} claims read"
        rep.bottom_line.append(f"No plausible alternative flips the bottom line: {claims} the same under all {n_alt} "
                               f"alternatives of {len(params)} assumptions"
                               + (f", or only lose{'s its' if n_claims == 1 else ' their'} decision" if fragile else "")
                               + ".")
        detail = ""
    if fragile:
        rep.bottom_line.append(f"Near a band's edge, {len(fragile)} claim{'s' if len(fragile) > 1 else ''} become"
                               f"{'' if len(fragile) > 1 else 's'} unsettled under some alternatives of "
                               f"{join(sorted({f'`{p}`' for ps in fragile.values() for p in ps}))}.")
    rep.bottom_line.append(
        (f"Findings judged against a band flip under {join([f'`{n}`' for n in names])}" if finding_flips else
         f"No alternative flips any of the {n_findings} findings judged against a band")
        + (f", and {idle} of the {n_alt} alternatives change no game at all." if idle else "."))
    rep.findings[:0] = [x for x in (
        detail,
        ("Fragile, near its band's edge: " + "; ".join(
            f"'{claim}' becomes unsettled under {len(ps)} of the {n_alt} alternatives "
            f"({join(sorted({f'`{p}`' for p in ps}))})" for claim, ps in fragile.items()) + ".") if fragile else "",
        (f"The assumptions that flip a conclusion: {join([f'`{n}`' for n in names])} ("
         + (f"{finding_flips} of the {n_findings * n_alt} readings of findings judged against a band flip"
            if finding_flips else "claims only") + f"); the other {len(params) - len(names)} flip none.") if names else "",
        (f"{len(unresolved)} more claims are left out: at {games_per_run:,} games per run they read otherwise than in "
         "the report itself, so these games cannot test them.") if unresolved else "") if x]
    rep.rests_on.append(f"The experiment `{exp_name}` at {games_per_run:,} games per run ({n_runs} runs, "
                        f"{total_games:,} games) as the rules stand, and once more per alternative: "
                        f"{n_alt + 1} plays of it in all, one assumption changed at a time, every play on the same seed.")
    rep.rests_on.append("A conclusion flips when it reads differently and both readings are decided; it weakens when "
                        "a decided reading becomes undecided. Fewer games than the report's own widen the intervals, "
                        "so some readings are undecided here that are decided in the report.")
    for k, (here, there) in unresolved.items():
        rep.findings.append(f"Claim '{k[1]}': {there} in the report, {here} at {games_per_run:,} games per run as the "
                            "rules stand: not resolved at these games, so left out (rerun with more `--games`).")
    for k in keys:
        if k[0] != "claim":
            continue
        moved = [(alt, cells[(k, alt)]) for alt in [f"{p} = {a}" for _, p, a, *_ in rows] if cells[(k, alt)] != HOLDS]
        rep.findings.append(f"Claim '{k[1]}': {ref[k].value}" + (" (undecided at these games)" if not ref[k].decided
                                                                  else "") + " as the rules stand; " +
                            ("the same under every alternative." if not moved else
                             "; ".join(f"{w} ({seen[(k, alt)]}) when {alt}" for alt, w in moved) + "."))
    rep.findings += [f"{md_escape(param)} = {md_escape(alt)}: changes no game of any run of this experiment."
                     for g, param, alt, _, same in rows if same]
    rep.table("Each alternative: what it changes", frame,
              note="'games changed': whether any game of any run differs from the game as the rules stand; a claim "
                   "is a conclusion of the report's bottom line, a finding a number judged against a band.")
    grid = pd.DataFrame([{"conclusion": ("claim: " if k[0] == "claim" else "") + k[1],
                          "as the rules stand": ref[k].value,
                          **{alt: cells[(k, alt)] for _, p, a, *_ in rows for alt in [f"{p} = {a}"]}} for k in keys])
    rep.table("Every conclusion under every alternative", grid, show=False, name="conclusions-by-alternative")
    rep.table("Bottom-line claims as the rules stand",
              pd.DataFrame([{"claim": k[1], "reading": ref[k].value, "decided": "yes" if ref[k].decided else "no"}
                            for k in keys if k[0] == "claim"]))
    _status_chart(rep, keys, ref, rows, cells)
    summary = {"experiment": exp_name, "games_per_run": games_per_run, "by_game": {},
               "unresolved_claims": sorted(k[1] for k in unresolved)}
    for g in games:
        mine = [(p, a) for gg, p, a, *_ in rows if gg == g]
        summary["by_game"][g] = {"checked": sorted({p for p, _ in mine}), "alternatives": len(mine),
                                 "games_per_run": games_per_run,
                                 "matters": {p: "; ".join(v) for p, v in sorted(matter.get(g, {}).items())},
                                 "weakens": {p: "; ".join(sorted(set(v))) for p, v in sorted(weak.get(g, {}).items())}}
    return rep, summary


STATUS_COLOURS = {HOLDS: "#d9ead3", FIRMS: "#cfe2f3", SHIFTS: "#d9d2e9", WEAKENS: "#fce5cd", FLIPS: "#e06666",
                  MISSING: "#eeeeee"}


def _status_chart(rep: Report, keys: list, ref: dict, rows: list, cells: dict) -> None:
    """A grid of conclusions (rows: claims first) by alternative (columns), coloured by what happens."""
    claims = [k for k in keys if k[0] == "claim"]
    moved = [k for k in keys if k[0] == "finding" and any(cells[(k, f"{p} = {a}")] != HOLDS for _, p, a, *_ in rows)]
    shown = claims + moved
    alts = [f"{p} = {a}" for _, p, a, *_ in rows]
    if not shown or not alts:
        return
    order = list(STATUS_COLOURS)
    z = np.array([[order.index(cells[(k, a)]) for a in alts] for k in shown])
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    fig, axes = new_figure(min(7 + 0.3 * len(alts), 30), 3.2 + 0.28 * len(shown))
    ax = axes[0][0]
    ax.pcolormesh(z, cmap=ListedColormap([STATUS_COLOURS[s] for s in order]), vmin=-0.5, vmax=len(order) - 0.5,
                  edgecolors="white", linewidth=1.5)
    ax.invert_yaxis()
    ax.set_xticks(np.arange(len(alts)) + 0.5, [a if len(a) <= 40 else a[:37] + "..." for a in alts], rotation=70, ha="right",
                  rotation_mode="anchor", fontsize=7)
    ax.set_yticks(np.arange(len(shown)) + 0.5, [("claim: " if k[0] == "claim" else "") + (k[1] if len(k[1]) <= 70 else
                                                                                 k[1][:67] + "...") for k in shown],
                  fontsize=7)
    ax.set_xlabel("plausible alternative (one assumption changed)")
    ax.set_ylabel("conclusion")
    ax.legend(handles=[Patch(color=STATUS_COLOURS[s], label=s) for s in order], fontsize=7, ncols=len(order),
              loc="lower left", bbox_to_anchor=(0, 1.01), frameon=False)
    rep.chart("conclusions-by-alternative", fig,
              "What each alternative does to each bottom-line claim and to every finding that changes under some "
              "alternative (findings that hold everywhere are left out).", title="Conclusions by alternative")
