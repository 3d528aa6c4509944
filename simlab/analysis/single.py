"""The report on one stored run directory (``simlab report RUN_DIR``)."""
from __future__ import annotations

from pathlib import Path

from simlab.core.game import get_game
from simlab.core.results import load, read_manifest
from simlab.core.runner import RunConfig

from . import sections
from .caveats import add_caveats, run_command
from .experiment import Run
from .report import Report, md_escape
from .wording import fmt_count


def report_run(run_dir: str | Path, out: str | Path | None = None) -> tuple[Report, dict[str, Path]]:
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    config = RunConfig.from_dict(manifest["config"])
    frame = load(run_dir)
    spec = get_game(config.game)
    n_games = int(frame["game"].nunique())
    rep = Report(f"{spec.title}: report on run {run_dir.name}",
                 f"{fmt_count(n_games)} games, {config.players} players, seats {', '.join(md_escape(s) for s in config.seats)}"
                 + (" (duplicate: every deal in every seat rotation)" if config.duplicate else " (rotated)" if config.rotate else "") + (f", parameters {config.params}" if config.params else "")
                 + f", root seed {config.seed}.")
    if not frame.attrs.get("complete", True):
        rep.findings.append(f"The run is incomplete ({n_games:,} of {config.games:,} games); complete it with "
                            f"`simlab run ... --out {run_dir} --resume`.")
    mirror = len(set(config.seats)) == 1
    if mirror:   # seat fairness is read only where every seat plays the same strategy
        shares = sections.mirror_seats(rep, {config.seats[0]: frame})
        rep.bottom_line.append(sections.mirror_bottom_line(shares))
        rep.findings.insert(0, sections.mirror_detail(shares))
    else:
        rep.findings.append("No seat verdict: seat fairness is read only from a mirror match (every seat the same "
                            "strategy), and this run mixes " + ", ".join(md_escape(s) for s in sorted(set(config.seats)))
                            + f"; e.g. `simlab run {config.game} --players {config.players} --seats "
                            + ",".join([config.seats[0]] * config.players) + "`.")
    sections.key_outcomes(rep, frame, spec)
    sections.ties(rep, frame)
    sections.lengths_and_scores(rep, frame, spec.length_column)
    rank = sections.strategies(rep, frame)
    sections.usage(rep, frame, spec)
    if not mirror and not config.rotated:
        rep.caveats.append("Seats were not rotated: each strategy kept its seat, so strategy results mix seat and "
                           "strategy effects. Rerun with --rotate or --duplicate to separate them.")
    if rank is not None:
        rep.bottom_line.append(sections.strategies_bottom_line(rank))
    if not rep.bottom_line:
        rep.bottom_line.append("This run gives no seat verdict (it is not a mirror match) and no strategy ranking.")
    run = Run("run", config, run_dir)
    rep.rests_on = sections.rests_on([run], " (rotated through the seats)" if config.rotated else " (in fixed seats)")
    add_caveats(rep, [run], run_command(config, run_dir))
    paths = rep.write(Path(out) if out else run_dir / "report")
    return rep, paths
