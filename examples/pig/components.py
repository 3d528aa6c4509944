"""Pig's rule values as parameters: every number the kernels use is read from ``cfg`` through ``O``."""
from simlab.core.params import ASSUMPTION, CHECK_INVARIANTS, FACT, VARIANT, Param, ParamTable

SOURCE = "Neller & Presser, 'Optimal Play of Pig' (2004); Scarne (1945)"

PARAMS = ParamTable((
    Param("target", 100, "banked points that win the game", FACT, SOURCE, high=1000),
    Param("die_faces", 6, "faces of the die, numbered 1..die_faces", FACT, SOURCE, low=2, high=100),
    Param("bust_face", 1, "the face that loses the turn total and ends the turn (a 'pig out')", FACT, SOURCE,
          low=1, high=100),
    Param("equal_turns", False, "when a player reaches the target the round is finished, so every player has "
          "had as many turns; then the highest score wins and ties are shared", VARIANT, "a house rule"),
    Param("max_turns", 200, "turns per player after which a game nobody has won stops, the highest score "
          "winning (not a rule: a safety cap for strategies that never hold)", ASSUMPTION,
          "not a rule: no source needs one", low=1, high=10000, alternatives=(400,)),
    CHECK_INVARIANTS,
))

O = PARAMS.offset_tuple()
