"""The event cards' parts that act at a moment of their own: the immediate part of the event revealed
at the start of a round (A1, A2, B1, B2, B3) and B4's returned compasses at the start of phase 2.

Events that change a rule while they are in force are read where that rule is (``event_now``):
A2 and B8 when passing, B4 and B6 in ``actions``; A3, B7, B9 and B13 in ``islets``; A4 and B10-B14
in ``loot``; B5 in ``preparation``.
"""
from simlab.core.play import lean

from simlab.core.rng import randint
from simlab.core.program import F_LABEL, F_LOCAL

from .board import (CW_B4, EV_A1_DRAW, EV_A2_REVEAL, EV_COMPASS, EV_EVENT, EV_ISLET_FLIP, EV_SHIP, SHIP_B1, SHIP_B2,
                    compass_pos, current_coast, draw_map, log_ev, move_ship, n_actors, on_island, pull_compass,
                    reveal_treasures, set_ctx, take_curses)
from .program import ask, ret
from .components import EV_A1, EV_A2, EV_B1, EV_B2, EV_B3, N_ISLET, O
from .state import (B_A1, B_SUPPLY, D_A1, D_B4, ISLET_DOWN, ISLET_UP, P0, PB, R_ISLET_FLIP, S_A2, S_A2_N, S_ALLEN,
                    S_CORNER, S_EVENT, S_DCTX, S_EVENT_SEQ, S_EVENTS_SEEN, S_FACING, S_ISLET, S_PLAYERS, S_ROUND,
                    S_START, T_A2, X_CHOICE)


@lean
def event_step(state, cfg, streams, log, f):
    """Procedure PR_EVENT: reveal this round's event and carry out its immediate part (A1, A2, B1, B2,
    B3). Local: k, the player deciding on A1, in turn order."""
    n = state[S_PLAYERS]
    if state[f + F_LABEL] == 0:
        r = state[S_ROUND]
        e = state[S_EVENT_SEQ + r - 1]
        state[S_EVENT] = e
        if e < 0:
            ret(state)
            return
        state[S_EVENTS_SEEN] |= 1 << e
        log_ev(state, log, EV_EVENT, e, r)
        if e == EV_A2:
            k = n + (1 if (state[S_ALLEN] and cfg[O.a2_count_allen]) else 0)
            reveal_treasures(state, streams, k, T_A2)
            for j in range(state[S_A2_N]):
                log_ev(state, log, EV_A2_REVEAL, state[S_A2 + j])
        elif e == EV_B1:
            move_ship(state, log, SHIP_B1)
        elif e == EV_B2:
            state[S_FACING] = -state[S_FACING]
            log_ev(state, log, EV_SHIP, state[S_CORNER], state[S_FACING], SHIP_B2, current_coast(state))
        elif e == EV_B3:
            k = 0
            for i in range(N_ISLET):
                if state[S_ISLET + i] == ISLET_UP:
                    k += 1
            if k > 0:
                pick = randint(streams[R_ISLET_FLIP], k)
                for i in range(N_ISLET):
                    if state[S_ISLET + i] == ISLET_UP:
                        if pick == 0:
                            state[S_ISLET + i] = ISLET_DOWN
                            log_ev(state, log, EV_ISLET_FLIP, i)
                            break
                        pick -= 1
        if e != EV_A1:
            ret(state)
            return
    else:  # A1: the player k has chosen
        p = (state[S_START] + state[f + F_LOCAL]) % n
        if state[X_CHOICE] == 1:
            draw_map(state, streams, p, 2)
            take_curses(state, p, 2)
            state[P0 + p * PB + B_A1] = 1
            log_ev(state, log, EV_A1_DRAW, p)
        state[f + F_LOCAL] += 1
    k = state[f + F_LOCAL]
    if k < n:
        set_ctx(state, 0)
        ask(state, f, 1, (state[S_START] + k) % n, D_A1)
        return
    ret(state)


@lean
def b4_step(state, cfg, streams, log, f):
    """Procedure PR_B4, event B4: anyone with 3 compasses on the island takes one back (Allen's by the
    start player). Local: k, the actor in turn order (Allen last)."""
    n = state[S_PLAYERS]
    if state[f + F_LABEL] == 1:
        a = state[S_DCTX]
        landing = state[X_CHOICE]
        pull_compass(state, landing, a)
        state[P0 + a * PB + B_SUPPLY] += 1
        log_ev(state, log, EV_COMPASS, a, landing, -1, CW_B4)
    k = state[f + F_LOCAL]
    while k < n_actors(state):
        a = (state[S_START] + k) % n if k < n else n
        if on_island(state, cfg, a) > 2:
            state[f + F_LOCAL] = k
            set_ctx(state, a)
            ask(state, f, 1, a if a < n else state[S_START], D_B4)
            return
        k += 1
    ret(state)


@lean
def b4_choices(state, out):
    """D_B4: the landings holding a compass of the actor it concerns."""
    a = state[S_DCTX]
    m = 0
    for landing in range(8):
        if compass_pos(state, landing, a) >= 0:
            out[m] = landing
            m += 1
    return m
