"""Moving (rules 3(1)-(3)): where a move of exactly the die can end, the cost of the space it
ends on, and falling back when the ship cannot pay it.
"""
from numba import njit

from simlab.core.kernel import emit

from .components import LAIR, O, PR, R_FOOD
from .state import (BACKWARD_FLAG, B_DONE, B_FALL_FOOD, B_FALL_GOLD, B_FINISH_ROUND, B_LAP, B_POS, DEC_MOVE,
                    DEC_RETREAT, GHOST, MAX_TARGETS, S_ENDER, S_PREV_A, S_PREV_B, S_ROUND, S_STACK, S_TGT_DONE,
                    S_TGT_LAP)
from .common import EV_FINISH, EV_MOVE, EV_PAY, EV_RETREAT, EV_SHORT, amount, ask, base_of, payable, space_cost
from .treasure import take_lair
from .holds import pay
from .combat import battle


@njit(cache=True)
def _add_target(d, lap, done, out_dest, out_lap, out_done, n):
    for i in range(n):
        if out_dest[i] == d and out_lap[i] == lap and out_done[i] == done:
            return n
    out_dest[n] = d
    out_lap[n] = lap
    out_done[n] = done
    return n + 1


@njit(cache=True)
def walk(state, cfg, ship, pos, lap, steps, backward, out_dest, out_lap, out_done):
    """Every space a move of exactly ``steps`` can end on (one per branch choice at forks).

    Forward onto Port Royal on the race lap ends the race: the ship stops there (rules 4, [S5]);
    a ship behind the start line crosses it and carries on (``behind_score``); the ghost ship sails on unless
    ``ghost_ends_game``. Backward out of Port Royal puts a ship behind the start line.
    Writes destination / lap / finished into the out arrays; returns how many.
    """
    stack_s = state[S_STACK:S_STACK + 32]
    stack_l = state[S_STACK + 32:S_STACK + 64]
    stack_k = state[S_STACK + 64:S_STACK + 96]
    top = 1
    stack_s[0] = pos
    stack_l[0] = lap
    stack_k[0] = steps
    n = 0
    ghost_sails = ship == GHOST and cfg[O.ghost_ends_game] == 0
    while top > 0:
        top -= 1
        s = stack_s[top]
        lp = stack_l[top]
        k = stack_k[top]
        if k == 0:
            n = _add_target(s, lp, 0, out_dest, out_lap, out_done, n)
            continue
        if not backward:
            for t in (cfg[O.next_outer + s], cfg[O.next_inner + s]):
                if t < 0:
                    continue
                l2 = lp
                if t == 0:
                    if lp == 0 and not ghost_sails:
                        n = _add_target(0, 0, 1, out_dest, out_lap, out_done, n)
                        continue
                    l2 = lp + 1
                stack_s[top] = t
                stack_l[top] = l2
                stack_k[top] = k - 1
                top += 1
        else:
            if s == 0:
                stack_s[top] = state[S_PREV_A]
                stack_l[top] = lp - 1
                stack_k[top] = k - 1
                top += 1
            else:
                for t in (state[S_PREV_A + s], state[S_PREV_B + s]):
                    if t >= 0:
                        stack_s[top] = t
                        stack_l[top] = lp
                        stack_k[top] = k - 1
                        top += 1
    return n


@njit(cache=True)
def retreat_targets(state, cfg, ship, out_dest):
    """First spaces behind the ship whose full cost it can pay, one per branch (3(3)).

    Port Royal is free, so a retreat never crosses the start line backwards."""
    b = base_of(ship)
    stack = state[S_STACK:S_STACK + 16]
    stack[0] = state[b + B_POS]
    top = 1
    n = 0
    while top > 0:
        top -= 1
        s = stack[top]
        for t in (state[S_PREV_A + s], state[S_PREV_B + s]):
            if t < 0 or s == 0:
                continue
            if t == 0 or payable(state, cfg, ship, t):
                seen = False
                for i in range(n):
                    seen = seen or out_dest[i] == t
                if not seen:
                    out_dest[n] = t
                    n += 1
            else:
                stack[top] = t
                top += 1
    return n


@njit(cache=True)
def arrive(state, cfg, ship, seat_slot, fns, seat_params, streams, legal, log, ev):
    """Resolve the end of a move: battle if occupied (never in Port Royal), then the space's
    cost; short of it, pay everything and fall back to the first payable space (3(2), 3(3))."""
    b = base_of(ship)
    while True:
        s = state[b + B_POS]
        if state[b + B_DONE] or cfg[O.space_type + s] == PR:
            return
        battle(state, cfg, ship, s, seat_slot, fns, seat_params, streams, legal, log, ev)
        kind = cfg[O.space_type + s]
        if kind == LAIR:
            take_lair(state, ship, s, log, ev)
            return
        if ship == GHOST:  # the ghost ship never pays (5(6))
            return
        res, cost = space_cost(cfg, s)
        have = amount(state, ship, res)
        if have >= cost:
            pay(state, cfg, ship, res, cost, ship, seat_slot, fns, seat_params, streams, legal)
            ev[0] = emit(log, ev[0], EV_PAY, ship, res, cost, s)
            return
        pay(state, cfg, ship, res, have, ship, seat_slot, fns, seat_params, streams, legal)
        ev[0] = emit(log, ev[0], EV_SHORT, ship, res, cost, have, s)
        if res == R_FOOD:
            state[b + B_FALL_FOOD] += 1
        else:
            state[b + B_FALL_GOLD] += 1
        n = retreat_targets(state, cfg, ship, legal)
        i = ask(state, cfg, ship, DEC_RETREAT, ship, res, 0, 0, legal, n, seat_slot, fns, seat_params, streams)
        state[b + B_POS] = legal[i]
        ev[0] = emit(log, ev[0], EV_RETREAT, ship, s, legal[i])


@njit(cache=True)
def finish(state, ship, log, ev):
    b = base_of(ship)
    state[b + B_DONE] = 1
    state[b + B_FINISH_ROUND] = state[S_ROUND]
    if state[S_ENDER] < 0:
        state[S_ENDER] = ship
    ev[0] = emit(log, ev[0], EV_FINISH, ship, state[S_ROUND])


@njit(cache=True)
def place(state, ship, dest, lap, done, backward, steps, log, ev):
    b = base_of(ship)
    start = state[b + B_POS]
    state[b + B_POS] = dest
    state[b + B_LAP] = lap
    ev[0] = emit(log, ev[0], EV_MOVE, ship, start, dest, backward, steps, lap, done)
    if done:
        finish(state, ship, log, ev)


@njit(cache=True)
def move(state, cfg, ship, steps, backward, seat_slot, fns, seat_params, streams, legal, log, ev):
    """A move action: exactly the die's spaces, the ship chooses the branch at forks."""
    b = base_of(ship)
    tl = state[S_TGT_LAP:S_TGT_LAP + MAX_TARGETS]
    td = state[S_TGT_DONE:S_TGT_DONE + MAX_TARGETS]
    n = walk(state, cfg, ship, state[b + B_POS], state[b + B_LAP], steps, backward, legal, tl, td)
    if backward:
        for i in range(n):
            legal[i] += BACKWARD_FLAG
    i = ask(state, cfg, ship, DEC_MOVE, ship, steps, 1 if backward else 0, 0, legal, n, seat_slot, fns,
            seat_params, streams)
    place(state, ship, legal[i] % BACKWARD_FLAG, tl[i], td[i], backward, steps, log, ev)
    arrive(state, cfg, ship, seat_slot, fns, seat_params, streams, legal, log, ev)
