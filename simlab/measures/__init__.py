"""From frames to findings: estimates with their intervals, balance measures, key outcomes, ratings and
the catalogue of measures a study reads. Numbers only: nothing here words a finding or writes a page
(:mod:`simlab.report`), nor decides what to play (:mod:`simlab.studies`).

* :mod:`.stats`: estimates with 95% intervals, paired differences, the sequential stopping rule;
* :mod:`.fairness`: win shares, clustered intervals, seat spread, skill and luck;
* :mod:`.balance`: standard balance measures over result frames;
* :mod:`.outcomes`: each game's key outcomes, and whether a change changed play;
* :mod:`.rating`: Bradley-Terry ratings from round-robin play;
* :mod:`.unfold`: the standings after every round of a sample of games;
* :mod:`.catalogue`: every measure a study reads, declared once.
"""
