"""The ``simlab experiment`` and ``simlab report`` commands (registered in :mod:`simlab.cli`)."""
from __future__ import annotations

import functools
import sys

import click

from simlab.core.errors import Interrupted, SimlabError, check_folder
from simlab.core.executors import EXECUTORS, placement
from simlab.core.params import integer

from simlab.report.wording import TIE, fmt_points


def where_options(workers_help: str = "worker processes (default: all cores)"):
    """The options that say where a command's games play, the same for every command that plays
    games: ``--workers``, ``--executor``, ``--scheduler``, ``--dask-local``. The command gets them
    checked together as ``where`` (a :class:`~simlab.core.executors.Placement`)."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, executor, scheduler, dask_local, workers, **kwargs):
            return fn(*args, where=placement(executor, scheduler, dask_local, workers), **kwargs)

        for opt in reversed([
            click.option("--workers", "-w", type=int, help=workers_help),
            click.option("--executor", type=click.Choice(EXECUTORS),
                         help="where games play: local worker processes (default), this process (serial), or Dask"),
            click.option("--scheduler", help="play on the Dask cluster at this address, e.g. tls://host:8786"),
            click.option("--dask-local", type=int, metavar="N", help="start a local Dask cluster of N workers and play on it"),
        ]):
            wrapper = opt(wrapper)
        return wrapper
    return decorate


@click.group()
def experiment():
    """List and run experiments (designer questions answered with a report)."""


@experiment.command("list")
def list_experiments():
    """The experiments in the experiments/ package."""
    from simlab.studies.experiment import available_experiments

    for name, exp in sorted(available_experiments().items()):
        if isinstance(exp, str):
            click.echo(f"{name:<20}{exp}")
            continue
        game = exp.game or ("several games" if exp.several_games else "any game (--game NAME)")
        click.echo(f"{name:<20}{exp.title} [{game}]")
        click.echo(f"{'':<20}{exp.question}")
        for o in exp.options:
            click.echo(f"{'':<20}--option {o.name}=... (default {o.default}): {o.meaning}")


@experiment.command("run")
@click.argument("name")
@click.option("--games", "-n", "games_n", type=int, default=10_000, show_default=True,
              help="games per run (every run of the experiment scales with it)")
@click.option("--game", "-g", help="the game, for experiments that work on any game (overview)")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed (the same in every arm: common random numbers)")
@where_options()
@click.option("--out", "-o", type=click.Path(), help="report folder (default reports/NAME[/GAME]; runs then go to OUT/runs)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/NAME[/GAME])")
@click.option("--target-width", type=float,
              help="instead of a fixed --games, add games until the watched 95%% interval is at most this wide")
@click.option("--max-games", type=int, default=1_000_000, show_default=True, help="cap for --target-width")
@click.option("--accept-code-change", is_flag=True,
              help="reuse, resume or extend stored runs played by other code (recorded in their provenance)")
@click.option("--robust", "robust_games", type=int, metavar="GAMES",
              help="first rerun the experiment at GAMES games per run under each plausible alternative of its "
                   "ASSUMED rule readings (as `simlab robust`), so the report's caveats name only those that matter")
@click.option("--option", "-x", "options", multiple=True, metavar="NAME=VALUE",
              help="a setting of this experiment's own (`simlab experiment list` shows them); repeatable")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="play every run under the game's variant NAME (`simlab games GAME` lists them); repeatable")
@click.option("--set", "sets", multiple=True, metavar="PARAM=VALUE",
              help="play every run with this rule parameter changed; repeatable")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
def run_experiment_cmd(name, games_n, game, seed, where, out, runs, target_width, max_games,
                       accept_code_change, robust_games, options, variants, sets, quiet):
    """Run experiment NAME and write its report (Markdown + HTML + charts)."""
    from simlab.studies.experiment import run_experiment
    from simlab.measures.stats import StoppingRule

    settings = {}
    for item in options:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SimlabError(f"--option {item!r}: write NAME=VALUE")
        settings[key.strip()] = value.strip()
    if robust_games is not None:
        from simlab.studies.robust import run_robust

        if variants or sets:
            raise SimlabError("--robust checks the printed rules' assumptions: leave out --variant and --set")

        integer(robust_games, "--robust", 1)
        _ad_hoc(run_robust, quiet, name, games=robust_games, out=None if out is None else f"{out}/robust",
                runs=runs or (None if out is None else f"{out}/runs"), game=game, seed=seed, **placed(where),
                accept_code_change=accept_code_change, options=settings)

    integer(max_games, "--max-games", 1)
    rule = None
    if target_width is not None:
        if not 0 < target_width <= 1:   # the width of a 95% interval on a share
            raise SimlabError(f"--target-width must be above 0 and at most 1, got {target_width:g}")
        unit = max(1000, games_n // 4)
        rule = StoppingRule(target_width, min_games=games_n, max_games=max(max_games, games_n), unit=unit)
    log = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    try:
        report, paths = run_experiment(name, games=games_n, out=out, runs=runs, game=game, seed=seed,
                                       **placed(where), rule=rule, progress=not quiet,
                                       log=log, accept_code_change=accept_code_change, options=settings,
                                       variants=tuple(variants), sets=tuple(sets))
    except Interrupted as exc:
        click.echo(("" if quiet else "\n") + "interrupted: finished chunks are kept; rerun the same command to "
                   "continue", err=True)
        sys.exit(128 + exc.signum)
    for v in report.verdicts[:12]:
        click.echo("- " + v.sentence().replace("**", ""))
    if len(report.verdicts) > 12:
        click.echo(f"... {len(report.verdicts) - 12} more verdicts in the report")
    click.echo(f"\nReport: {paths['markdown']} and {paths['html']}")


def placed(where) -> dict:
    """A placement as the keyword arguments of the functions that run studies."""
    return dict(workers=where.workers, executor=where.executor, scheduler=where.scheduler)


def _ad_hoc(run, quiet: bool, *args, **kwargs) -> None:
    """Run an ad-hoc experiment (compare, sweep) and print its bottom line and where the report is."""
    log = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    try:
        rep, paths = run(*args, progress=not quiet, log=log, **kwargs)
    except Interrupted as exc:
        click.echo("interrupted: finished chunks are kept; rerun the same command to continue", err=True)
        sys.exit(128 + exc.signum)
    click.echo(" ".join(rep.bottom_line).replace("**", ""))
    click.echo(f"\nReport: {paths['markdown']} and {paths['html']}")


def _arm_options(fn):
    for arm in ("b", "a"):
        for opt in reversed([
            click.option(f"--{arm}-set", f"{arm}_sets", multiple=True, metavar="NAME=VALUE",
                         help=f"a rule parameter of arm {arm.upper()} (as `simlab run --set`)"),
            click.option(f"--{arm}-variant", f"{arm}_variants", multiple=True,
                         help=f"a named variant in arm {arm.upper()}"),
            click.option(f"--{arm}-seats", f"{arm}_seats",
                         help=f"arm {arm.upper()}'s seats (as `--seats`; one name: every seat, a mirror match)"),
        ]):
            fn = opt(fn)
    return fn


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=int, multiple=True, help="player count; repeat for several (default: the most)")
@click.option("--seats", "-s", help="both arms' seats unless --a-seats/--b-seats (one name: a mirror match; "
                                    "default: the game's heuristic mix)")
@click.option("--mirrors", metavar="A,B,...", help="several mirror matches in one comparison: each strategy in every seat "
                                                    "of both arms, on the same deals, read together")
@_arm_options
@click.option("--games", "-n", "games_n", type=int, default=10_000, show_default=True, help="games per arm")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed of both arms (common random numbers)")
@click.option("--min-effect", type=float, default=2.0, show_default=True,
              help="the smallest change in a win rate or share that matters, in percentage points")
@click.option("--out", "-o", type=click.Path(), help="report folder (default reports/compare/GAME; runs then go "
                                                     "to OUT/runs)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/compare/GAME)")
@click.option("--strong", default="none", show_default=True,
              help="recheck a comparison of mirror matches with stronger players in every seat: 'auto' (the search "
                   "player rollout and every tuned set) or names, comma-separated")
@click.option("--strong-games", type=int, default=500, show_default=True,
              help="a search player's first batch of games per arm in --strong (at most --games); doubled on the "
                   "same deals until its verdict is decided")
@click.option("--strong-minutes", default="5", show_default=True,
              help="time budget of a search player's recheck in --strong, in minutes ('none': until decided or "
                   "every deal is played)")
@where_options()
@click.option("--quiet", "-q", is_flag=True, help="no progress")
def compare(game, players, seats, mirrors, a_sets, a_variants, a_seats, b_sets, b_variants, b_seats, games_n, seed,
            min_effect, out, runs, strong, strong_games, strong_minutes, where, quiet):
    """Compare two arms of GAME (variants, rule parameters or seats) played on the same deals."""
    from simlab.studies.compare import Arm, parse_mirrors, run_compare

    arm_a = Arm("A", tuple(a_variants), tuple(a_sets), a_seats or seats)
    arm_b = Arm("B", tuple(b_variants), tuple(b_sets), b_seats or seats)
    _ad_hoc(run_compare, quiet, game, tuple(players), arm_a, arm_b, games=games_n, seed=seed, min_effect=min_effect,
            out=out, runs=runs, **placed(where), strong=strong, strong_games=strong_games,
            strong_minutes=strong_minutes, mirrors=parse_mirrors(mirrors, seats or a_seats or b_seats, strong))


@click.command()
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUES",
              help="a rule parameter to sweep: a,b,c or lo..hi[/step]; a vector's values separated by ; (6,4,2,1;5,4,3,2)")
@click.option("--players", "-p", type=int, multiple=True, help="player count; repeat for several (default: the most)")
@click.option("--seats", "-s", help="seats at every point (one name: a mirror match; default: the game's heuristic mix)")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="a rule parameter fixed at every point")
@click.option("--variant", "variants", multiple=True, help="a named variant at every point")
@click.option("--games", "-n", "games_n", type=int, default=10_000, show_default=True, help="games per point")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed of every point (common random numbers)")
@click.option("--min-effect", type=float, default=2.0, show_default=True,
              help="the smallest change in a win rate or share that matters, in percentage points")
@click.option("--out", "-o", type=click.Path(), help="report folder (default reports/sweep/GAME; runs then go to OUT/runs)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/sweep/GAME)")
@where_options()
@click.option("--quiet", "-q", is_flag=True, help="no progress")
def sweep(game, params, players, seats, sets, variants, games_n, seed, min_effect, out, runs, where, quiet):
    """Sweep GAME over a grid of rule parameters, every point on the same deals."""
    from simlab.studies.compare import Arm
    from simlab.studies.sweep import run_sweep

    _ad_hoc(run_sweep, quiet, game, tuple(players), tuple(params), Arm("A", tuple(variants), tuple(sets), seats),
            games=games_n, seed=seed, min_effect=min_effect, out=out, runs=runs, **placed(where))


@click.command()
@click.argument("game")
@click.option("--param", "param", required=True, metavar="NAME=VALUES",
              help="the rule parameter to tune and its candidate values: a,b,c or lo..hi[/step]")
@click.option("--target", required=True, metavar='"MEASURE in [LO, HI]"',
              help="the band the measure should lie in; shares and points as 0.02 or 2%.  MEASURE: "
                   "elimination_rate, curse_elimination_rate (Loot Island), start_edge (start player's win share "
                   "minus 1/n; needs --seats NAME), shared_wins, length, score, win:STRATEGY, or a countable "
                   "column of the game (mean per game)")
@click.option("--players", "-p", type=int, help="player count (default: the most)")
@click.option("--seats", "-s", help="seats (one name: a mirror match; default: the game's heuristic mix)")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="a rule parameter fixed at every value")
@click.option("--variant", "variants", multiple=True, help="a named variant at every value")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed of every value (common random numbers)")
@click.option("--batch", type=int, default=2000, show_default=True, help="games added to an undecided value per step")
@click.option("--max-games", type=int, default=100_000, show_default=True, help="games per value before it is "
                                                                                  "left undecided")
@click.option("--out", "-o", type=click.Path(), help="report folder (default reports/tune/GAME; runs then go to OUT/runs)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/tune/GAME)")
@where_options()
@click.option("--quiet", "-q", is_flag=True, help="no progress")
def tune(game, param, target, players, seats, sets, variants, seed, batch, max_games, out, runs, where, quiet):
    """Find the values of a rule parameter of GAME whose measure lies in a target band, with 95% confidence.

    Games go in batches to the values still undecided; a value is IN when its interval lies wholly in
    the band, OUT when wholly outside, UNDECIDED at --max-games. The intervals are Bonferroni-corrected
    over values x looks, so all verdicts hold together with at least 95% confidence.
    """
    from simlab.studies.compare import Arm
    from simlab.studies.rule_tuning import run_tune

    _ad_hoc(run_tune, quiet, game, players, param, target, Arm("A", tuple(variants), tuple(sets), seats),
            batch=batch, max_games=max_games, seed=seed, out=out, runs=runs, **placed(where))


@click.command("tune-strategy")
@click.argument("game")
@click.argument("strategy")
@click.option("--players", "-p", type=int, default=2, show_default=True, help="player count of every table")
@click.option("--opponents", help="comma-separated opponents, each name[:param=value...] "
                                  "(default: every heuristic of the game, the tuned one at its defaults included)")
@click.option("--param", "names", multiple=True, metavar="NAME",
              help="a parameter to search (repeat for several; default: all of the strategy's)")
@click.option("--budget", type=int, default=60, show_default=True,
              help="candidate evaluations in all (whole generations; the default set is the first)")
@click.option("--games-per-eval", "-g", type=int, default=240, show_default=True,
              help="games per evaluation, shared equally by the opponents, in duplicate")
@click.option("--validate-games", type=int, default=4000, show_default=True,
              help="fresh games (seed + 1) the best set and the defaults play, paired, at the end")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed of the search deals (the same for every candidate)")
@click.option("--name", default="tuned", show_default=True, help="the saved set's name: play it as STRATEGY@NAME")
@where_options("worker processes (default 1: play in this process, fastest at small --games-per-eval)")
@click.option("--strategies", "strategy_files", multiple=True, type=click.Path(),
              help="Python file registering extra strategies")
@click.option("--quiet", "-q", is_flag=True, help="no progress")
def tune_strategy(game, strategy, players, opponents, names, budget, games_per_eval, validate_games, seed, name,
                  where, strategy_files, quiet):
    """Search STRATEGY's parameters with CMA-ES for the most wins against a pool of opponents; save the set.

    Every candidate plays the same deals (common random numbers) in duplicate; the best set is then
    compared with the defaults on fresh deals, paired, and saved (with a warning unless it is better)
    as STRATEGY@NAME in strategies/tuned/GAME.toml ($SIMLAB_TUNED_DIR for a folder of your own).
    Ctrl-C ends the search with the best set so far. Not `simlab tune`, which tunes rule parameters.
    """
    from pathlib import Path

    from simlab.studies.strategy_tuning import tune_strategy as run

    echo = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    record = run(game, strategy, players=players, names=tuple(names), budget=budget, games_per_eval=games_per_eval,
                 seed=seed, validate_games=validate_games, name=name, where=where,
                 opponents=tuple(o.strip() for o in opponents.split(",")) if opponents else (),
                 strategy_files=tuple(str(Path(f).resolve()) for f in strategy_files), echo=echo)
    v = record["provenance"]["validation"]
    click.echo(f"{strategy}@{name}: " + ", ".join(f"{k}={x:g}" for k, x in record["params"].items())
               + f"; {verdict_phrase(v)}")


def verdict_phrase(v: dict) -> str:
    """'better than the default (+2.1 points [+0.8, +3.4], 4,000 fresh games)' from a saved validation."""
    word = "a statistical tie with" if v["verdict"] == TIE else f"{v['verdict']} than"
    return (f"{word} the default ({fmt_points(v['difference'], v['lo'], v['hi'])}, "
            f"{v['games']:,} fresh games)")


@click.command()
@click.argument("name")
@click.option("--games", "-n", "games_n", type=int, default=4000, show_default=True,
              help="games per run, the same for the default and every alternative")
@click.option("--game", "-g", help="the game, for experiments that work on any game (overview)")
@click.option("--assumption", "assumptions", multiple=True, metavar="NAME",
              help="check only this ASSUMPTION (repeat for several; default: every one of the experiment's games)")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed of every rerun (common random numbers)")
@where_options()
@click.option("--out", "-o", type=click.Path(), help="report folder (default: the experiment's report folder + /robust)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/NAME[/GAME])")
@click.option("--accept-code-change", is_flag=True,
              help="reuse, resume or extend stored runs played by other code (recorded in their provenance)")
@click.option("--quiet", "-q", is_flag=True, help="no progress")
def robust(name, games_n, game, assumptions, seed, where, out, runs, accept_code_change, quiet):
    """Rerun experiment NAME under each plausible alternative of its ASSUMED rule readings and data.

    One assumption changes at a time, every rerun on the same seed. The report says whether the
    answer holds under all of them or which alternative flips which conclusion, and the experiment's
    own report then names only the assumptions that matter.
    """
    from simlab.studies.robust import run_robust

    _ad_hoc(run_robust, quiet, name, games=games_n, out=out, runs=runs, game=game, seed=seed, **placed(where),
            assumptions=tuple(assumptions), accept_code_change=accept_code_change)


@click.command()
@click.argument("run_dir", type=click.Path())
@click.option("--out", "-o", type=click.Path(), help="report folder (default RUN_DIR/report)")
def report(run_dir, out):
    """Write a balance report (Markdown + HTML + charts) on a stored run directory."""
    from pathlib import Path

    from simlab.studies.single import report_run

    if out is not None:
        check_folder(out, "folder", "--out")
    elif Path(run_dir).is_dir():
        check_folder(Path(run_dir) / "report", "report folder")
    rep, paths = report_run(run_dir, out)
    for v in rep.verdicts[:8]:
        click.echo("- " + v.sentence().replace("**", ""))
    click.echo(f"\nReport: {paths['markdown']} and {paths['html']}")
