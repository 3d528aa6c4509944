"""``simlab calibrate``: measure every interval's coverage and every family's error against a known truth."""
from __future__ import annotations

import time
from pathlib import Path

import click
import pandas as pd

from simlab.core.errors import SimlabError

from simlab.calibration import COVERAGE, TIERS, run_check, seconds_text, table_text
from simlab.calibration.checks import CHECKS


@click.command()
@click.option("--tier", type=click.Choice(TIERS), default="thorough", show_default=True,
              help="thorough: thousands of samples per check, the measured rate must lie in the target; fast: the "
                   "test suite's few hundred, which only rule a broken method out")
@click.option("--only", "only", multiple=True, metavar="TEXT",
              help="only the checks whose estimator or setting contains TEXT (repeatable)")
@click.option("--samples", type=int, help="samples per check instead of the tier's own")
@click.option("--seed", type=int, help="another seed for every check (default: each check's own)")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="also write the table here")
@click.option("--list", "list_only", is_flag=True, help="list the checks and stop")
def calibrate(tier, only, samples, seed, csv_path, list_only):
    """Does every stated 95% interval hold the truth 95% of the time, and every family of verdicts
    err at most 5% of the time, under the dependence this tool creates (duplicate deals, seats at
    one table, shared deals, rare events, small samples)? Synthetic games with a known truth, each
    sample handed to the project's own estimator; prints one row per estimator, setting and
    quantity: its target, the measured rate with its own 95% interval, and whether it keeps it."""
    chosen = [c for c in CHECKS if not only or any(t.lower() in c.name.lower() for t in only)]
    if not chosen:
        raise SimlabError(f"--only {', '.join(only)}: no check matches (simlab calibrate --list names them)")
    if samples is not None and samples < 10:
        raise SimlabError(f"--samples {samples}: at least 10")
    if list_only:
        for c in chosen:
            click.echo(f"{c.estimator} | {c.setting}  ({c.fast:,} fast, {c.thorough:,} thorough samples)")
        return
    if csv_path:
        folder = Path(csv_path).resolve().parent
        if not folder.is_dir():
            raise SimlabError(f"--csv {csv_path}: the folder {folder} does not exist")
    start = time.perf_counter()
    parts = []
    for i, c in enumerate(chosen, 1):
        click.echo(f"[{i}/{len(chosen)}] {c.name} ...", err=True)
        parts.append(run_check(c, tier, samples, seed))
    results = pd.concat(parts, ignore_index=True)
    click.echo(table_text(results))
    bad = results[~results["ok"]]
    cov = results[results["kind"] == COVERAGE]
    click.echo(f"\n{len(results)} rows from {len(chosen)} checks in {seconds_text(time.perf_counter() - start)} "
               f"({tier} tier)"
               + (f": coverage {cov['measured'].min():.1%} to {cov['measured'].max():.1%}" if len(cov) else "")
               + (f"; {len(bad)} outside the target" if len(bad) else "; every row keeps its target") + ".")
    if csv_path:
        results.to_csv(csv_path, index=False)
    if len(bad):
        raise SystemExit(1)
