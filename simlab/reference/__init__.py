"""Lean reference implementations: yardsticks for the engines' speed, and second readings of their rules."""
