"""The two-player ghost ship's turn (rules 5(4)-(5)): which way it may sail, and where to.

The captain moves the ghost ship twice, with the two dice; the step machine (``step.py``) runs
the two moves (each a DEC_GHOST decision, then the end of the move as for any ship).
"""
from simlab.core.play import emit, lean

from .components import GHOST_DAY_FIRST, GHOST_LEVEL_AHEAD, GHOST_LEVEL_BEHIND, O
from .state import (BACKWARD_FLAG, B_LAP, B_POS, GHOST, S_DAY, S_NIGHT, S_STACK, S_TGT_DONE, S_TGT_LAP, X_BACK_OK,
                    X_EVENTS, X_FWD_OK, X_GM)
from .common import EV_GHOST_DIR, base_of, race_position
from .movement import walk


@lean
def ghost_die(state, cfg):
    """The die of the ghost's move X_GM: the day die first or the night die first (``ghost_die_order``)."""
    first = S_DAY if cfg[O.ghost_die_order] == GHOST_DAY_FIRST else S_NIGHT
    return state[first] if state[X_GM] == 0 else state[S_DAY + S_NIGHT - first]


@lean
def ghost_course(state, cfg, log):
    """Which way the ghost may sail (into X_FWD_OK / X_BACK_OK): forward when it is behind both
    players, backward when ahead of both, the captain's choice otherwise. Ahead and behind are
    judged by the physical order along the track (``race_position``); a ghost level with a player
    counts as the ``ghost_level`` reading says. Judged before the first move, and before the
    second too under ``ghost_recheck``."""
    if state[X_GM] != 0 and not cfg[O.ghost_recheck]:
        return
    g = race_position(state, cfg, GHOST)
    p0 = race_position(state, cfg, 0)
    p1 = race_position(state, cfg, 1)
    level = cfg[O.ghost_level]
    if level == GHOST_LEVEL_BEHIND:
        behind_both = g <= p0 and g <= p1
    else:
        behind_both = g < p0 and g < p1
    if level == GHOST_LEVEL_AHEAD:
        ahead_of_both = g >= p0 and g >= p1
    else:
        ahead_of_both = g > p0 and g > p1
    fwd_ok = not ahead_of_both
    back_ok = not behind_both
    state[X_FWD_OK] = 1 if fwd_ok else 0
    state[X_BACK_OK] = 1 if back_ok else 0
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_GHOST_DIR, 1 if fwd_ok else 0, 1 if back_ok else 0, g, p0, p1)


@lean
def ghost_targets(state, cfg, die, legal):
    """Where the ghost's move of ``die`` may end, in the allowed directions: codes destination +
    BACKWARD_FLAG * backward in ``legal``, their lap / finish in S_TGT_LAP / S_TGT_DONE."""
    b = base_of(GHOST)
    dest = state[S_STACK + 104:S_STACK + 112]
    lp = state[S_STACK + 112:S_STACK + 120]
    dn = state[S_STACK + 120:S_STACK + 128]
    n = 0
    for d in range(2):
        if (d == 0 and not state[X_FWD_OK]) or (d == 1 and not state[X_BACK_OK]):
            continue
        k = walk(state, cfg, GHOST, state[b + B_POS], state[b + B_LAP], die, d == 1, dest, lp, dn)
        for j in range(k):
            legal[n] = dest[j] + BACKWARD_FLAG * d
            state[S_TGT_LAP + n] = lp[j]
            state[S_TGT_DONE + n] = dn[j]
            n += 1
    return n
