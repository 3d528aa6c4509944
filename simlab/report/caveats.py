"""What a report rests on and the caveats it states: the assumed data and the robustness check, the
number of intervals read together, and the command that reproduces it (every experiment, compare,
sweep and tune report ends with them)."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from simlab.core.errors import SimlabError
from simlab.core.game import GameSpec, get_game
from simlab.core.params import ASSUMPTION
from simlab.core.runner import RunConfig
from simlab.core.strategy import HUMAN

from simlab.report.page import ASSUMED_ITEM, Report

def rests_on_robustness(report: Report, robustness: dict) -> None:
    """Put what ``simlab robust`` found in place of the list of every assumed reading in "What it rests on":
    the assumptions that flip a conclusion, and those that can leave a claim unsettled."""
    items = []
    for g, checked in sorted(robustness.get("by_game", {}).items()):
        matters, weakens = list(checked.get("matters", {})), list(checked.get("weakens", {}))
        items.append(f"ASSUMED data that matters ({get_game(g).title}; `simlab robust` tried "
                     f"{checked.get('alternatives', 0)} plausible alternatives of {len(checked.get('checked', []))} "
                     f"readings at {checked.get('games_per_run', 0):,} games per run): "
                     + (", ".join(f"`{k}`" for k in matters) + (" flips" if len(matters) == 1 else " flip")
                        + " a conclusion" if matters else
                        "no alternative flips a conclusion")
                     + ("; " + ", ".join(f"`{k}`" for k in weakens if k not in matters) + " can leave a claim "
                        "unsettled" if any(k not in matters for k in weakens) else "")
                     + " (caveats and `robust/report.md`).")
    keep = [r for r in report.rests_on if not r.startswith(ASSUMED_ITEM)]
    report.rests_on[:] = keep + items


def assumption_caveat(spec: GameSpec, assumed: list[str], checked: dict | None) -> str:
    """The caveat on a game's ASSUMED readings: which matter to the report if ``simlab robust`` has
    checked them (``checked``: its summary for this game), otherwise their names and how to check."""
    where = f" (values, sources and plausible alternatives: `{spec.rules_file}`)" if spec.rules_file else ""
    if not checked:
        return (f"{spec.title}: {len(assumed)} rule readings and component values are ASSUMED, with no published "
                f"source{where}: {', '.join(f'`{a}`' for a in assumed)}. Not yet checked for this report: "
                f"`simlab robust` reruns it under each plausible alternative and names the ones that change a "
                "conclusion.")
    matters = checked.get("matters", {})
    tried = checked.get("checked", [])
    head = (f"{spec.title}: `simlab robust` reran this report under the plausible alternatives of "
            f"{len(tried)} of its {len(assumed)} ASSUMED readings ({checked.get('alternatives', 0)} alternatives, "
            f"{checked.get('games_per_run', 0):,} games per run; `robust/report.md`){where}")
    unchecked = [a for a in assumed if a not in tried]
    why = {a: spec.params[a].no_alternative for a in unchecked if spec.params[a].no_alternative}
    tail = (f" Not checked: {', '.join(f'`{a}`' + (f' ({why[a]})' if a in why else '') for a in unchecked)}."
            if unchecked else "")
    by_claim: dict[str, list[str]] = {}
    for k, v in checked.get("weakens", {}).items():
        if k not in matters:
            for claim in v.split("; "):
                by_claim.setdefault(claim, []).append(f"`{k}`")
    fragile = ("".join(f" {claim[0].upper() + claim[1:]} under an alternative of {', '.join(ks)}, without flipping."
                       for claim, ks in by_claim.items()))
    if not matters:
        return head + ": none flips a conclusion." + fragile + tail
    return (head + ". These flip a conclusion: " + "; ".join(f"`{k}` ({v})" for k, v in matters.items())
            + f". The other {len(tried) - len(matters)} flip none." + fragile + tail)


def run_command(config: RunConfig, run_dir: Path | str) -> str:
    """The `simlab run` command line that reproduces a run's rows exactly (a playtest's: its replay)."""
    if HUMAN in config.seats:   # a person's decisions are in the record, not in any code
        return shlex.join(["simlab", "trace", "--record", str(run_dir)])
    parts = ["simlab", "run", config.game, "--players", str(config.players), "--seats", ",".join(config.seats),
             "--games", str(config.games), "--seed", str(config.seed)]
    if config.rotate:
        parts.append("--rotate")
    if config.duplicate:
        parts.append("--duplicate")
    for k, v in sorted(config.params.items()):
        parts += ["--set", f"{k}={','.join(str(x) for x in v) if isinstance(v, (tuple, list)) else v}"]
    for f in config.strategy_files:
        parts += ["--strategies", f]
    return shlex.join(parts + ["--out", str(run_dir)])


ROBUSTNESS = Path("robust", "robust.json")   # beside an experiment's report: what simlab robust found


def read_robustness(out_dir: Path) -> dict | None:
    """What ``simlab robust`` found for the report in ``out_dir`` (None when it has not been run)."""
    path = Path(out_dir) / ROBUSTNESS
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def multiplicity_caveat(intervals: int) -> str:
    """Many intervals, each at 95% on its own: a designer should know that some miss by chance."""
    return (f"Each of the report's {intervals} stated intervals is a 95% interval on its own: read together, about "
            f"one in twenty may miss its true value by chance (here about {intervals / 20:.1f} of them), so a single "
            "surprising finding among many deserves a rerun with more games. The verdicts that form one claim, the "
            "best of several options, a ladder's places, tune's IN and OUT, are held to 95% together and say so. "
            "How each interval keeps its stated confidence: docs/statistics.md (`simlab calibrate` measures it).")


def add_caveats(report: Report, runs: list, command: str, robustness: dict | None = None) -> None:
    """Strategies used, assumed rule readings in force, and how to reproduce: from the provenance of
    ``runs`` (the runs of the experiment, :class:`~simlab.studies.experiment.Run`).

    The assumed readings are named, not spelled out (their values, sources and alternatives are in
    the game's rules document); with a robustness check beside the report (``simlab robust``), only
    those that change a conclusion are named."""
    if not runs:
        return
    for g in sorted({r.config.game for r in runs}, reverse=True):     # placeholder data is said first, not last
        spec = get_game(g)
        said = f"The component data of {spec.title} is ASSUMED: {spec.assumed_data}"
        if spec.assumed_data and said not in report.rests_on:
            report.rests_on.insert(0, said)
    provs = [r.provenance for r in runs]
    games = sorted({r.config.game for r in runs})
    strategies: dict[str, dict] = {}
    for p in provs:
        strategies.update(p.get("strategies", {}))
    from simlab.core.strategy import get_strategy

    for g in games:
        for label, s in sorted(strategies.items()):
            try:   # a built-in, a user's or a tuned set (BASE@SET); one no longer known is left out
                st = get_strategy(g, s["strategy"])
            except SimlabError:
                continue
            params = ", ".join(f"{k}={v:g}" for k, v in s["params"].items())
            report.caveats.append(f"Strategy `{label}` ({g}): {st.description}" + (f" (parameters: {params})" if params else "")
                                  + ". Results describe these heuristics, not expert human play.")
    for g in games:
        spec = get_game(g)
        assumed = [p.name for p in spec.params.params if p.status == ASSUMPTION]
        if assumed:
            report.caveats.append(assumption_caveat(spec, assumed, (robustness or {}).get("by_game", {}).get(g)))
        setups = sorted({f"{k}={v}" for r in runs if r.config.game == g for k, v in r.config.params.items()})
        if setups:
            report.caveats.append(f"{spec.title}: parameters changed from the defaults in some runs: {', '.join(setups)}.")
    if len(report.verdicts) > 1:
        report.caveats.append(multiplicity_caveat(len(report.verdicts)))
    commits = sorted({str(b.get("git_commit")) for p in provs for b in p.get("batches", [p])})
    seeds = sorted({r.config.seed for r in runs})
    total = sum(r.games for r in runs)
    report.reproduce.append(f"Command: `{command}`")
    report.reproduce.append(f"Root seed(s): {', '.join(map(str, seeds))}; {len(runs)} runs, {total:,} games in all; "
                            f"game g of every run draws its random stream from (root seed, g).")
    report.reproduce.append(f"Code version (git commit from the run provenance): {', '.join(commits)}"
                            + (" (several versions: runs were extended or reused across commits)" if len(commits) > 1 else "")
                            + (" (uncommitted changes were present)" if any("dirty" in c for c in commits) else "")
                            + f"; simlab {provs[0].get('simlab_version')}, numba {provs[0].get('numba_version')}.")
    for r in runs:
        extra = f" ({r.sequential.describe()})" if r.sequential else ""
        if r.stored > r.games:
            extra += (f" (the first {r.games:,} of {r.stored:,} games stored in `{r.run_dir}`: game ids 0 to "
                      f"{r.games - 1:,}, exactly the rows of a {r.games:,}-game run)")
        report.reproduce.append(f"Run `{r.point}`: {r.config.games:,} games{extra}; rows: `{run_command(r.config, r.run_dir)}`")

