"""Experiments: one module per designer question, each declaring ``EXPERIMENT``.

``simlab experiment list`` lists them; ``simlab experiment run NAME [--games N]`` runs one and
writes ``reports/<name>/report.md`` and ``report.html``. A module holds::

    from simlab.studies.experiment import Experiment

    def analyse(ctx):          # ctx: simlab.studies.experiment.Context
        ...runs via ctx.run / ctx.compare / ctx.sweep, sections and measures, returns a Report

    EXPERIMENT = Experiment("name", "Title", "The question, in a designer's words.", analyse, game="...")

``allen-effect`` and ``curse-threshold`` show the two common shapes: ``ctx.compare`` plays a
variant against its baseline on common random numbers, ``ctx.sweep`` runs one point per value of
a parameter.
"""
