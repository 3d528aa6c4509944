"""The event cards' parts that act at a moment of their own: the immediate part of the event revealed
at the start of a round (A1, A2, B1, B2, B3) and B4's returned compasses at the start of phase 2.

Events that change a rule while they are in force are read where that rule is (``event_now``):
A2 and B8 when passing, B4 and B6 in ``actions``; A3, B7, B9 and B13 in ``islets``; A4 and B10-B14
in ``loot``; B5 in ``preparation``.
"""
from numba import njit

from simlab.core.rng import randint

from .board import (CW_B4, EV_A1_DRAW, EV_A2_REVEAL, EV_COMPASS, EV_EVENT, EV_ISLET_FLIP, EV_SHIP, SHIP_B1, SHIP_B2,
                    ask, compass_pos, current_coast, draw_map, log_ev, move_ship, n_actors, on_island, pull_compass,
                    reveal_treasures, set_ctx, take_curses)
from .components import EV_A1, EV_A2, EV_B1, EV_B2, EV_B3, N_ISLET, O
from .state import (B_A1, B_SUPPLY, D_A1, D_B4, ISLET_DOWN, ISLET_UP, P0, PB, S_A2, S_A2_N, S_ALLEN, S_CORNER, S_EVENT,
                    S_EVENT_SEQ, S_EVENTS_SEEN, S_FACING, S_ISLET, S_PLAYERS, S_ROUND, S_START, T_A2)


@njit(cache=True)
def start_event(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Reveal this round's event and carry out its immediate part (A1, A2, B1, B2, B3)."""
    r = state[S_ROUND]
    e = state[S_EVENT_SEQ + r - 1]
    state[S_EVENT] = e
    if e < 0:
        return
    state[S_EVENTS_SEEN] |= 1 << e
    log_ev(state, log, EV_EVENT, e, r)
    n = state[S_PLAYERS]
    if e == EV_A1:
        for k in range(n):
            p = (state[S_START] + k) % n
            legal[0] = 0
            legal[1] = 1
            set_ctx(state, 0)
            if ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_A1, 2) == 1:
                draw_map(state, rng, p, 2)
                take_curses(state, p, 2)
                state[P0 + p * PB + B_A1] = 1
                log_ev(state, log, EV_A1_DRAW, p)
    elif e == EV_A2:
        k = n + (1 if (state[S_ALLEN] and cfg[O.a2_count_allen]) else 0)
        reveal_treasures(state, rng, k, T_A2)
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
            pick = randint(rng, k)
            for i in range(N_ISLET):
                if state[S_ISLET + i] == ISLET_UP:
                    if pick == 0:
                        state[S_ISLET + i] = ISLET_DOWN
                        log_ev(state, log, EV_ISLET_FLIP, i)
                        break
                    pick -= 1


@njit(cache=True)
def b4_returns(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Event B4: anyone with 3 compasses on the island takes one back (Allen's by the start player)."""
    n = state[S_PLAYERS]
    for k in range(n_actors(state)):
        a = (state[S_START] + k) % n if k < n else n
        while on_island(state, cfg, a) > 2:
            m = 0
            for landing in range(8):
                if compass_pos(state, landing, a) >= 0:
                    legal[m] = landing
                    m += 1
            set_ctx(state, a)
            decider = a if a < n else state[S_START]
            landing = ask(state, cfg, seat_slot, fns, sp, rng, legal, decider, D_B4, m)
            pull_compass(state, landing, a)
            state[P0 + a * PB + B_SUPPLY] += 1
            log_ev(state, log, EV_COMPASS, a, landing, -1, CW_B4)
