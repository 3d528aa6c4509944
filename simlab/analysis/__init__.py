"""Experiments, statistics, balance measures and reports built on the run engine.

* :mod:`.stats`: estimates with 95% intervals, paired differences, the sequential stopping rule;
* :mod:`.measures`: standard balance measures over result frames;
* :mod:`.report`: Markdown + self-contained HTML reports with charts and tables;
* :mod:`.sections`: standard report sections (seat advantage, ties, lengths, strategies, usage);
* :mod:`.experiment`: the experiment API (``Experiment``, ``Context``) and ``run_experiment``;
* :mod:`.single`: the report on one stored run (``simlab report RUN_DIR``).
"""
