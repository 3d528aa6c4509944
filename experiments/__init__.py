"""Experiments: one module per designer question, each declaring ``EXPERIMENT``.

``simlab experiment list`` lists them; ``simlab experiment run NAME [--games N]`` runs one and
writes ``reports/<name>/report.md`` and ``report.html``. A module holds::

    from simlab.analysis.experiment import Experiment

    def analyse(ctx):          # ctx: simlab.analysis.experiment.Context
        ...runs via ctx.run / ctx.compare / ctx.sweep, sections and measures, returns a Report

    EXPERIMENT = Experiment("name", "Title", "The question, in a designer's words.", analyse, game="...")

Hooks for the Loot Island studies (to be written once that engine is in):

* ``allen-effect``: ``arms = ctx.compare("allen", ctx.config(2, seats, {"allen": True}), {"allen": False})``
  gives both arms on common random numbers; ``sections.variant_effect(rep, arms.base.frame(),
  arms.variant.frame(), "Allen off", columns=("score", "curses", "eliminated"))`` writes the paired
  effect on each seat's win rate and on those columns (verdicts, chart, table);
  ``sections.seat_advantage`` / ``sections.lengths_and_scores`` on each arm add the rest.
* ``curse-threshold``: ``runs = ctx.sweep("threshold", ctx.config(n, ctx.seats(n)), "curse_threshold",
  range(10, 17))`` for each player count; ``measures.proportion`` of "eliminated" and the
  winners-vs-others ``measures.usage(frame, ["curses"])`` per threshold give the curve.
"""
