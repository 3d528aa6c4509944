"""Using an islet in phase 2: paying with two same-coloured map cards (B7, B9 change the price),
flipping the tile, and its action (or none: a player may use an islet only to block it)."""
from simlab.core.play import lean
from simlab.core.program import F_LABEL, F_LOCAL

from .board import (CW_BOTTOM, CW_ISLET_MOVE, CW_TOP, EV_COMPASS, EV_EFFECT, EV_ISLET, EV_ISLET_RESULT, FX_A3,
                    SHIP_ISLET, TAKE_ISLET, compass_pos, compass_to_end, discard_map, draw_map, drop_curses,
                    event_now, is_allen, log_ev, move_ship, on_island, pull_compass, push_compass, reveal_treasures,
                    set_ctx, take_curses)
from .program import PR_TAKE, ask, call, ret
from .components import (A3_ACTOR, EV_A3, EV_B13, EV_B4, EV_B7, EV_B9, I_BOTTOM, I_DISCARD, I_DRAW2, I_MOVE, I_SHIP,
                         N_MAP, O, PER_COLOUR)
from .state import (B_ALLEN_USES, B_ISLETS, B_SUPPLY, D_DO, D_PAY, D_SOURCE, D_TARGET, ISLET_DOWN, M_HAND, P0, PB,
                    S_DCTX, S_ISLET, S_ISLETS_USED, S_MLOC, S_MUST_PASS, S_REVEAL, S_REVEAL_N, SKIP, SUPPLY, T_REVEAL,
                    X_CHOICE)


@lean
def islet_step(state, cfg, streams, log, f):
    """Procedure PR_ISLET (p, h, islet, colour): seat ``p`` pays with ``h``'s cards (D_PAY, 1-3 times),
    flips the islet and may carry out its action: a target landing (D_TARGET) and, for a move, where
    the compass comes from (D_SOURCE); or whether to do it (D_DO; a treasure then goes to PR_TAKE).
    Locals 4-6: payments made, the action's result (for the trace), the move's target."""
    p = state[f + F_LOCAL]
    h = state[f + F_LOCAL + 1]
    i = state[f + F_LOCAL + 2]
    c = state[f + F_LOCAL + 3]
    label = state[f + F_LABEL]
    e = event_now(state, cfg)
    allen = is_allen(state, h)
    action = cfg[O.islet_action + i]
    if label == 1:  # a payment chosen
        discard_map(state, state[X_CHOICE])
        state[f + F_LOCAL + 4] += 1
    if label <= 1:
        need = 1 if e == EV_B9 else 2
        k = state[f + F_LOCAL + 4]
        if k < need + (1 if e == EV_B7 else 0):
            set_ctx(state, i, c if k < need else -1, 1 if allen else 0)
            ask(state, f, 1, p, D_PAY)
            return
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
        value = cfg[O.islet_value + i]
        log_ev(state, log, EV_ISLET, p, h, i, action, value)
        if action == I_DISCARD:
            state[f + F_LOCAL + 5] = drop_curses(state, h, value)
        elif action == I_DRAW2:
            if not allen:  # Allen never draws in phase 2
                state[f + F_LOCAL + 5] = draw_map(state, streams, h, value)
        elif action == I_BOTTOM or action == I_MOVE:
            set_ctx(state, i, action, 1 if allen else 0)
            ask(state, f, 2, p, D_TARGET)
            return
        else:  # I_TREASURE or I_SHIP: carry it out or not
            set_ctx(state, i, action, 1 if allen else 0)
            ask(state, f, 4, p, D_DO)
            return
    elif label == 2:  # the target
        target = state[X_CHOICE]
        state[f + F_LOCAL + 5] = target
        if target != SKIP:
            if action == I_BOTTOM:
                top = e == EV_B13
                compass_to_end(state, target, h, top)
                log_ev(state, log, EV_COMPASS, h, target, target, CW_TOP if top else CW_BOTTOM)
            else:
                state[f + F_LOCAL + 6] = target
                set_ctx(state, target, 1 if allen else 0)
                ask(state, f, 3, p, D_SOURCE)
                return
    elif label == 3:  # where the moved compass comes from
        target = state[f + F_LOCAL + 6]
        src = state[X_CHOICE]
        if src == SUPPLY:
            state[P0 + h * PB + B_SUPPLY] -= 1
        else:
            pull_compass(state, src, h)
        push_compass(state, target, h)
        log_ev(state, log, EV_COMPASS, h, target, src, CW_ISLET_MOVE)
    elif label == 4:  # carry it out or not
        result = state[X_CHOICE]
        state[f + F_LOCAL + 5] = result
        if result == 1:
            if action == I_SHIP:
                move_ship(state, log, SHIP_ISLET)
            else:
                take_curses(state, h, cfg[O.islet_value + i])
                got = reveal_treasures(state, streams, 1, T_REVEAL)
                if got == 1:
                    t = state[S_REVEAL]
                    state[S_REVEAL_N] = 0
                    state[S_REVEAL] = 0
                    state[f + F_LABEL] = 5
                    call(state, PR_TAKE, h, t, 1, TAKE_ISLET)
                    return
    log_ev(state, log, EV_ISLET_RESULT, h, action, state[f + F_LOCAL + 5])
    if e == EV_B9:
        state[S_MUST_PASS] = 1
    ret(state)


@lean
def can_move(state, cfg, h, e):
    """Islet T4 (move a compass): may ``h``'s compass come from the supply, and is there one to move?"""
    sup = cfg[O.islet_move_from_supply] != 0 and state[P0 + h * PB + B_SUPPLY] > 0 and (
        e != EV_B4 or on_island(state, cfg, h) < 2)
    return sup, sup or on_island(state, cfg, h) > 0


@lean
def islet_choices(state, cfg, f, out):
    """The pending decision of PR_ISLET: D_PAY (the owner's cards, of the colour for the first two),
    D_TARGET (landings, SKIP last), D_SOURCE (SUPPLY first, then landings) or D_DO (1, 0)."""
    h = state[f + F_LOCAL + 1]
    label = state[f + F_LABEL]
    n = 0
    if label == 1:
        colour = state[S_DCTX + 1]
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + h and (colour < 0 or m // PER_COLOUR == colour):
                out[n] = m
                n += 1
    elif label == 2:
        action = cfg[O.islet_action + state[f + F_LOCAL + 2]]
        for landing in range(8):
            has = compass_pos(state, landing, h) >= 0
            if (action == I_BOTTOM) == has:
                out[n] = landing
                n += 1
        if action == I_MOVE and not can_move(state, cfg, h, event_now(state, cfg))[1]:
            n = 0
        out[n] = SKIP
        n += 1
    elif label == 3:
        if can_move(state, cfg, h, event_now(state, cfg))[0]:
            out[n] = SUPPLY
            n += 1
        for l2 in range(8):
            if compass_pos(state, l2, h) >= 0:
                out[n] = l2
                n += 1
    else:
        out[0] = 1
        out[1] = 0
        n = 2
    return n
