"""Moving (rules 3(1)-(3)): where a move of exactly the die can end, where a ship that cannot pay
may fall back to, and putting it there. The move's course (cost, battle, falling back) is run by
the step machine (``step.py``).
"""
from simlab.core.play import emit, lean

from .components import O
from .state import B_DONE, B_FINISH_ROUND, B_LAP, B_POS, GHOST, S_ENDER, S_PREV_A, S_PREV_B, S_ROUND, S_STACK, X_EVENTS
from .common import EV_FINISH, EV_MOVE, base_of, payable


@lean
def _add_target(d, lap, done, out_dest, out_lap, out_done, n):
    for i in range(n):
        if out_dest[i] == d and out_lap[i] == lap and out_done[i] == done:
            return n
    out_dest[n] = d
    out_lap[n] = lap
    out_done[n] = done
    return n + 1


@lean
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


@lean
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


@lean
def finish(state, ship, log):
    b = base_of(ship)
    state[b + B_DONE] = 1
    state[b + B_FINISH_ROUND] = state[S_ROUND]
    if state[S_ENDER] < 0:
        state[S_ENDER] = ship
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_FINISH, ship, state[S_ROUND])


@lean
def place(state, ship, dest, lap, done, backward, steps, log):
    b = base_of(ship)
    start = state[b + B_POS]
    state[b + B_POS] = dest
    state[b + B_LAP] = lap
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_MOVE, ship, start, dest, backward, steps, lap, done)
    if done:
        finish(state, ship, log)
