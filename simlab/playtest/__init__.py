"""A person at the table: ``simlab play`` in the terminal and the browser (see :mod:`.session`)."""
