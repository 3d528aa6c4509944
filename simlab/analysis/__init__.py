"""Experiments, statistics, balance measures and reports built on the run engine.

* :mod:`.stats`: estimates with 95% intervals, paired differences, the sequential stopping rule;
* :mod:`.measures`: standard balance measures over result frames;
* :mod:`.wording`: the wording rules (bands named for what they judge, shares and points, ties);
* :mod:`.charts`: chart helpers (integer bins, dots with intervals, labelled axes, hover values);
* :mod:`.report`: Markdown + HTML reports (bottom line first) with SVG charts and sortable tables;
* :mod:`.sections`: standard report sections (seat advantage, ties, lengths, strategies, usage);
* :mod:`.experiment`: the experiment API (``Experiment``, ``Context``) and ``run_experiment``;
* :mod:`.single`: the report on one stored run (``simlab report RUN_DIR``).
"""
