"""The ``simlab experiment`` and ``simlab report`` commands (registered in :mod:`simlab.cli`)."""
from __future__ import annotations

import sys

import click


@click.group()
def experiment():
    """List and run experiments (designer questions answered with a report)."""


@experiment.command("list")
def list_experiments():
    """The experiments in the experiments/ package."""
    from .experiment import available_experiments

    for name, exp in sorted(available_experiments().items()):
        if isinstance(exp, str):
            click.echo(f"{name:<20}{exp}")
            continue
        game = exp.game or "any game (--game NAME)"
        click.echo(f"{name:<20}{exp.title} [{game}]")
        click.echo(f"{'':<20}{exp.question}")


@experiment.command("run")
@click.argument("name")
@click.option("--games", "-n", "games_n", type=int, default=10_000, show_default=True,
              help="games per run (every run of the experiment scales with it)")
@click.option("--game", "-g", help="the game, for experiments that work on any game (overview)")
@click.option("--seed", type=int, default=1, show_default=True, help="root seed (the same in every arm: common random numbers)")
@click.option("--workers", "-w", type=int, help="worker processes (default: all cores)")
@click.option("--out", "-o", type=click.Path(), help="report folder (default reports/NAME[/GAME]; runs then go to OUT/runs)")
@click.option("--runs", type=click.Path(), help="folder for the run directories (default runs/NAME[/GAME])")
@click.option("--executor", type=click.Choice(["processes", "serial"]), default="processes", show_default=True)
@click.option("--target-width", type=float,
              help="instead of a fixed --games, add games until the watched 95%% interval is at most this wide")
@click.option("--max-games", type=int, default=1_000_000, show_default=True, help="cap for --target-width")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
def run_experiment_cmd(name, games_n, game, seed, workers, out, runs, executor, target_width, max_games, quiet):
    """Run experiment NAME and write its report (Markdown + HTML + charts)."""
    from .experiment import run_experiment
    from .stats import StoppingRule

    rule = None
    if target_width is not None:
        unit = max(1000, games_n // 4)
        rule = StoppingRule(target_width, min_games=games_n, max_games=max(max_games, games_n), unit=unit)
    log = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    try:
        report, paths = run_experiment(name, games=games_n, out=out, runs=runs, game=game, seed=seed,
                                       workers=workers, executor=executor, rule=rule, progress=not quiet,
                                       log=log)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: finished chunks are kept; rerun the same command to continue", err=True)
        sys.exit(130)
    for v in report.verdicts[:12]:
        click.echo("- " + v.sentence().replace("**", ""))
    if len(report.verdicts) > 12:
        click.echo(f"... {len(report.verdicts) - 12} more verdicts in the report")
    click.echo(f"\nReport: {paths['markdown']} and {paths['html']}")


@click.command()
@click.argument("run_dir", type=click.Path())
@click.option("--out", "-o", type=click.Path(), help="report folder (default RUN_DIR/report)")
def report(run_dir, out):
    """Write a balance report (Markdown + HTML + charts) on a stored run directory."""
    from .single import report_run

    rep, paths = report_run(run_dir, out)
    for v in rep.verdicts[:8]:
        click.echo("- " + v.sentence().replace("**", ""))
    click.echo(f"\nReport: {paths['markdown']} and {paths['html']}")
