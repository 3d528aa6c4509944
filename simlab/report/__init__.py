"""From findings to words to pages: the wording rules, tables and charts, the standard sections, the
caveats and the pages (Markdown, HTML, findings.csv). Reads :mod:`simlab.measures`; plays nothing.

* :mod:`.page`: a report (bottom line first) with tables, charts and its findings table;
* :mod:`.wording`: the wording rules (bands named for what they judge, shares and points, ties);
* :mod:`.charts`: chart helpers (integer bins, dots with intervals, labelled axes, hover values);
* :mod:`.sections`: the standard sections (seat advantage, ties, lengths, strategies, usage);
* :mod:`.rechecks`: a stronger player's reading of a verdict, and how it is said;
* :mod:`.caveats`: what a report rests on, and how to reproduce it;
* :mod:`.whatif`: the sweep's what-if page.
"""
