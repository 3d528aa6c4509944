"""One sub-package per game, each with the same parts: components, state, rules, trace, GAME."""
