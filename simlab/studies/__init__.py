"""What to play, and in what order: the experiment API (context, runs, arms), ``compare``, ``sweep``,
``tune`` of rules and of strategies, ``robust``, the stronger players' rechecks and the report on
one stored run. A study plays through :mod:`simlab.core`, measures with :mod:`simlab.measures` and
writes with :mod:`simlab.report`."""
