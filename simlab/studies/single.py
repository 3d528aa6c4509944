"""The report on one stored run directory (``simlab report RUN_DIR``)."""
from __future__ import annotations

from pathlib import Path

from simlab.core.game import get_game
from simlab.core.model import PLAY_OUTS
from simlab.core.recorded import load_recorded
from simlab.core.results import load, read_manifest
from simlab.core.runner import RunConfig, prepared
from simlab.core.strategy import HUMAN, strategies_for

from simlab.report import sections
from simlab.report.caveats import add_caveats, run_command
from simlab.report.page import Report, md_escape
from simlab.report.wording import fmt_count, join
from simlab.studies.experiment import Run


def report_run(run_dir: str | Path, out: str | Path | None = None) -> tuple[Report, dict[str, Path]]:
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    load_recorded(manifest["config"], manifest["code"], manifest["provenance"].get("plugins"), f"the run in {run_dir}")
    config = RunConfig.from_dict(manifest["config"])
    frame = load(run_dir)
    spec = get_game(config.game)
    if HUMAN in config.seats:
        return report_playtest(run_dir, out, config, frame, spec)
    n_games = int(frame["game"].nunique())
    rep = Report(f"{spec.title}: report on run {run_dir.name}", study="run", question=
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


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def report_playtest(run_dir: Path, out, config: RunConfig, frame, spec) -> tuple[Report, dict[str, Path]]:
    """A playtest's report (``simlab play``'s record): how the game went for the people, and what the
    best heuristic scores in their seats on the same deal. One game is an anecdote, so the report
    states results and gives no verdict."""
    people = [i for i, s in enumerate(config.seats) if s == HUMAN]
    rows = frame.sort_values("seat")
    n = config.players
    rep = Report(f"{spec.title}: playtest {run_dir.name}", study="playtest", question=
                 f"One game played by {'a person' if len(people) == 1 else f'{len(people)} people'} against "
                 f"{join(sorted({md_escape(s) for s in config.seats if s != HUMAN})) or 'nobody'}, {n} players, "
                 f"root seed {config.seed}" + (f", parameters {config.params}" if config.params else "") + ".")
    winners = [r for r in rows.itertuples() if r.win]
    won = join([("the person" if r.strategy == HUMAN else str(r.strategy)) + f" in seat {r.seat + 1}" for r in winners])
    person = "; ".join(f"the person in seat {r.seat + 1} finished {_ordinal(int(r.rank))} of {n} with "
                       f"{int(r.score)} points" for r in rows.itertuples() if r.strategy == HUMAN)
    rep.bottom_line.append(f"{won[0].upper() + won[1:]} won{' (a shared win)' if len(winners) > 1 else ''} with "
                           f"{int(winners[0].score)} points; {person}." if winners else f"Nobody won; {person}.")
    strategies_for(spec.name)   # (loads the game's strategies, which declare the best heuristic)
    best = PLAY_OUTS[spec.name].default if spec.name in PLAY_OUTS else None
    if best is not None:
        bots = prepared(dict(config.to_dict(), seats=[best if s == HUMAN else s for s in config.seats]))
        same_deal = bots.frame(0, 1).sort_values("seat")
        them = "; ".join(f"in seat {r.seat + 1} it would have scored {int(r.score)} and finished {_ordinal(int(r.rank))}"
                         for r in same_deal.itertuples() if r.seat in people)
        rep.bottom_line.append(f"On the same deal, the best heuristic ({md_escape(best)}) playing for the "
                               f"{'person' if len(people) == 1 else 'people'}: {them}.")
        rep.table("The same deal with the best heuristic in the people's seats",
                  same_deal[["seat", "strategy", "score", "rank", "win"]].assign(seat=lambda f: f["seat"] + 1))
    rep.findings.append("One game is an anecdote, not a measurement: this report states what happened and gives no "
                        "verdict. Compare strategies over thousands of games with `simlab run` or `simlab compare`.")
    shown = rows.assign(seat=rows["seat"] + 1).drop(columns=["game", "players"])
    rep.table("The game, one row per seat", shown)
    run = Run("playtest", config, run_dir)
    rep.rests_on = [f"The bots: {join(sorted({md_escape(s) for s in config.seats if s != HUMAN})) or 'none'} "
                    "(the results describe these heuristics and the people who played, once)."]
    add_caveats(rep, [run], run_command(config, run_dir))
    paths = rep.write(Path(out) if out else run_dir / "report")
    return rep, paths
