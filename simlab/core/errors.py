"""The one exception type a user sees: its message is printed as a single line, exit code 2."""


class SimlabError(Exception):
    """Bad input (unknown game, strategy or option, illegal setup, foreign run directory...)."""
