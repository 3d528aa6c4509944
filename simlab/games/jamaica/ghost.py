"""The two-player ghost ship's turn (rules 5(4)-(5)).
"""
from numba import njit

from simlab.core.kernel import emit

from .components import GHOST_DAY_FIRST, GHOST_LEVEL_AHEAD, GHOST_LEVEL_BEHIND, O
from .state import (BACKWARD_FLAG, B_DONE, B_LAP, B_POS, DEC_GHOST, GHOST, MAX_TARGETS, S_CAPTAIN, S_DAY, S_NIGHT,
                    S_STACK, S_TGT_DONE, S_TGT_LAP)
from .common import EV_GHOST_DIR, ask, base_of, race_position
from .movement import arrive, place, walk
from .invariants import check_or_raise


@njit(cache=True)
def ghost_turn(state, cfg, seat_slot, fns, seat_params, streams, legal, log, ev):
    """The captain moves the ghost ship twice with the two dice (rules 5(4), 5(5)): forward
    when it is behind both players, backward when ahead of both, his choice otherwise. Ahead
    and behind are judged by the physical order along the track (``race_position``); a ghost
    level with a player counts as the ``ghost_level`` reading says."""
    b = base_of(GHOST)
    cap = state[S_CAPTAIN]
    tl = state[S_TGT_LAP:S_TGT_LAP + MAX_TARGETS]
    td = state[S_TGT_DONE:S_TGT_DONE + MAX_TARGETS]
    dest = state[S_STACK + 104:S_STACK + 112]
    lp = state[S_STACK + 112:S_STACK + 120]
    dn = state[S_STACK + 120:S_STACK + 128]
    fwd_ok = True
    back_ok = True
    for m in range(2):
        if state[b + B_DONE]:
            return
        first = S_DAY if cfg[O.ghost_die_order] == GHOST_DAY_FIRST else S_NIGHT
        die = state[first] if m == 0 else state[S_DAY + S_NIGHT - first]
        if m == 0 or cfg[O.ghost_recheck]:
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
            ev[0] = emit(log, ev[0], EV_GHOST_DIR, 1 if fwd_ok else 0, 1 if back_ok else 0, g, p0, p1)
        n = 0
        for d in range(2):
            if (d == 0 and not fwd_ok) or (d == 1 and not back_ok):
                continue
            k = walk(state, cfg, GHOST, state[b + B_POS], state[b + B_LAP], die, d == 1, dest, lp, dn)
            for j in range(k):
                legal[n] = dest[j] + BACKWARD_FLAG * d
                tl[n] = lp[j]
                td[n] = dn[j]
                n += 1
        i = ask(state, cfg, cap, DEC_GHOST, GHOST, die, 0, 0, legal, n, seat_slot, fns, seat_params, streams)
        code = legal[i]
        place(state, GHOST, code % BACKWARD_FLAG, tl[i], td[i], code >= BACKWARD_FLAG, die, log, ev)
        arrive(state, cfg, GHOST, seat_slot, fns, seat_params, streams, legal, log, ev)
        if cfg[O.check_invariants]:
            check_or_raise(state, cfg)
