"""Using an islet in phase 2: paying with two same-coloured map cards (B7, B9 change the price),
flipping the tile, and its action (or none: a player may use an islet only to block it)."""
from numba import njit

from .board import (CW_BOTTOM, CW_ISLET_MOVE, CW_TOP, EV_COMPASS, EV_EFFECT, EV_ISLET, EV_ISLET_RESULT, FX_A3,
                    SHIP_ISLET, TAKE_ISLET, ask, compass_pos, compass_to_end, discard_map, draw_map, drop_curses,
                    event_now, is_allen, log_ev, move_ship, on_island, pull_compass, push_compass, reveal_treasures,
                    set_ctx, take_curses, take_one)
from .components import (A3_ACTOR, EV_A3, EV_B13, EV_B4, EV_B7, EV_B9, I_BOTTOM, I_DISCARD, I_DRAW2, I_MOVE, I_SHIP,
                         N_MAP, O, PER_COLOUR)
from .state import (B_ALLEN_USES, B_ISLETS, B_SUPPLY, D_DO, D_PAY, D_SOURCE, D_TARGET, ISLET_DOWN, M_HAND, P0, PB,
                    S_ISLET, S_ISLETS_USED, S_MLOC, S_MUST_PASS, S_REVEAL, S_REVEAL_N, SKIP, SUPPLY, T_REVEAL)


@njit(cache=True)
def use_islet(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, i, c):
    """Seat ``p`` pays with ``h``'s cards, flips islet ``i`` and may carry out its action."""
    e = event_now(state, cfg)
    allen = is_allen(state, h)
    need = 1 if e == EV_B9 else 2
    for k in range(need + (1 if e == EV_B7 else 0)):
        colour = c if k < need else -1
        n = 0
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + h and (colour < 0 or m // PER_COLOUR == colour):
                legal[n] = m
                n += 1
        set_ctx(state, i, colour, 1 if allen else 0)
        m = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_PAY, n)
        discard_map(state, m)
    if e == EV_A3 and (not allen or cfg[O.a3_with_allen] == A3_ACTOR):
        # the acting player uses the islet, also with Allen's cards (as under B9); Allen never takes cubes
        take_curses(state, p, 1)
        log_ev(state, log, EV_EFFECT, FX_A3, p, 1)
    state[S_ISLET + i] = ISLET_DOWN
    state[S_ISLETS_USED] |= 1 << i
    if allen:
        state[P0 + p * PB + B_ALLEN_USES] += 1
    else:
        state[P0 + p * PB + B_ISLETS] += 1
    action = cfg[O.islet_action + i]
    value = cfg[O.islet_value + i]
    log_ev(state, log, EV_ISLET, p, h, i, action, value)
    result = 0
    if action == I_DISCARD:
        result = drop_curses(state, h, value)
    elif action == I_DRAW2:
        if not allen:  # Allen never draws in phase 2
            result = draw_map(state, rng, h, value)
    elif action == I_BOTTOM or action == I_MOVE:
        n = 0
        for landing in range(8):
            has = compass_pos(state, landing, h) >= 0
            if (action == I_BOTTOM) == has:
                legal[n] = landing
                n += 1
        can_move = True
        if action == I_MOVE:  # is there a compass to move?
            sup = cfg[O.islet_move_from_supply] and state[P0 + h * PB + B_SUPPLY] > 0 and (
                e != EV_B4 or on_island(state, cfg, h) < 2)
            can_move = sup or on_island(state, cfg, h) > 0
        if not can_move:
            n = 0
        legal[n] = SKIP
        n += 1
        set_ctx(state, i, action, 1 if allen else 0)
        target = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_TARGET, n)
        result = target
        if target != SKIP:
            if action == I_BOTTOM:
                top = e == EV_B13
                compass_to_end(state, target, h, top)
                log_ev(state, log, EV_COMPASS, h, target, target, CW_TOP if top else CW_BOTTOM)
            else:
                base = P0 + h * PB
                n = 0
                if cfg[O.islet_move_from_supply] and state[base + B_SUPPLY] > 0 and (
                        e != EV_B4 or on_island(state, cfg, h) < 2):
                    legal[n] = SUPPLY
                    n += 1
                for l2 in range(8):
                    if compass_pos(state, l2, h) >= 0:
                        legal[n] = l2
                        n += 1
                set_ctx(state, target, 1 if allen else 0)
                src = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_SOURCE, n)
                if src == SUPPLY:
                    state[base + B_SUPPLY] -= 1
                else:
                    pull_compass(state, src, h)
                push_compass(state, target, h)
                log_ev(state, log, EV_COMPASS, h, target, src, CW_ISLET_MOVE)
    else:  # I_TREASURE or I_SHIP: carry it out or not
        legal[0] = 1
        legal[1] = 0
        set_ctx(state, i, action, 1 if allen else 0)
        result = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_DO, 2)
        if result == 1:
            if action == I_SHIP:
                move_ship(state, log, SHIP_ISLET)
            else:
                take_curses(state, h, value)
                got = reveal_treasures(state, rng, 1, T_REVEAL)
                if got == 1:
                    t = state[S_REVEAL]
                    state[S_REVEAL_N] = 0
                    state[S_REVEAL] = 0
                    take_one(state, cfg, seat_slot, fns, sp, rng, legal, log, h, t, True, TAKE_ISLET)
    log_ev(state, log, EV_ISLET_RESULT, h, action, result)
    if e == EV_B9:
        state[S_MUST_PASS] = 1
