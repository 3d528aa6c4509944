"""Holds (rules 3(1), 3(2)): loading a resource under the loading rules and paying a cost.

A load or a payment may wait for its owner's choice of hold (DEC_HOLD) or order (DEC_PAY): each is
two halves around that decision, run by the step machine (``step.py``) from the X_LD / X_PY registers.
"""
from simlab.core.play import emit, lean

from .components import MAX_HOLDS, O, R_NONE, SIXTH
from .state import (B_HN, B_HTYPE, S_BANK, S_BANK_SHORT, X_EVENTS, X_LD_BANK, X_LD_COUNT, X_LD_RES, X_LD_SHIP,
                    X_PY_COST, X_PY_K, X_PY_RES, X_PY_SHIP, X_PY_SLOTS)
from .common import EV_IGNORED, EV_LOAD, base_of, hold_usable


@lean
def load_choices(state, cfg, ship, res, legal):
    """Holds a load of ``res`` may go into (3(1)): the empty ones (the regular holds being
    identical, only the first empty regular hold is listed, plus an empty 6th hold); with no
    empty hold, every hold holding another resource (it is emptied first). 0 = action ignored."""
    b = base_of(ship)
    n = 0
    regular = False
    for h in range(MAX_HOLDS):
        if hold_usable(state, cfg, ship, h) and state[b + B_HN + h] == 0:
            if h == SIXTH or not regular:
                legal[n] = h
                n += 1
                regular = regular or h != SIXTH
    if n > 0:
        return n
    for h in range(MAX_HOLDS):
        if hold_usable(state, cfg, ship, h) and state[b + B_HTYPE + h] != res:
            legal[n] = h
            n += 1
    return n


@lean
def load_begin(state, cfg, legal, log):
    """Start the load in the X_LD registers: the bank's stock (3(1)), then the holds it may go
    into. Returns how many (written to ``legal``); 0 when the load is over (nothing to load, or
    ignored because every hold already holds that resource)."""
    ship = state[X_LD_SHIP]
    res = state[X_LD_RES]
    count = state[X_LD_COUNT]
    from_bank = state[X_LD_BANK]
    if from_bank:
        left = state[S_BANK + res - 1]
        if left < count:
            state[S_BANK_SHORT] += 1
            if cfg[O.bank_limited]:
                count = max(left, 0)
                state[X_LD_COUNT] = count
    if count <= 0:
        return 0
    n = load_choices(state, cfg, ship, res, legal)
    if n == 0:  # every hold already holds this resource: the load is ignored
        if not from_bank:
            state[S_BANK + res - 1] += count
        state[X_EVENTS] = emit(log, state[X_EVENTS], EV_IGNORED, ship, res, count)
    return n


@lean
def load_into(state, h, log):
    """Put the X_LD load into hold ``h`` (emptied back to the bank first)."""
    ship = state[X_LD_SHIP]
    res = state[X_LD_RES]
    count = state[X_LD_COUNT]
    b = base_of(ship)
    old_type = state[b + B_HTYPE + h]
    old_n = state[b + B_HN + h]
    if old_n > 0:
        state[S_BANK + old_type - 1] += old_n
    state[b + B_HTYPE + h] = res
    state[b + B_HN + h] = count
    if state[X_LD_BANK]:
        state[S_BANK + res - 1] -= count
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOAD, ship, res, count, h, old_type if old_n > 0 else 0, old_n)


@lean
def pay_holds(state):
    """The holds that can pay the X_PY payment, fewest tokens first (in X_PY_SLOTS, how many in
    X_PY_K); returns the tokens they hold."""
    b = base_of(state[X_PY_SHIP])
    res = state[X_PY_RES]
    k = 0
    total = 0
    for h in range(MAX_HOLDS):
        if state[b + B_HTYPE + h] == res and state[b + B_HN + h] > 0:
            c = state[b + B_HN + h]
            j = k
            while j > 0 and state[b + B_HN + state[X_PY_SLOTS + j - 1]] > c:
                state[X_PY_SLOTS + j] = state[X_PY_SLOTS + j - 1]
                j -= 1
            state[X_PY_SLOTS + j] = h
            k += 1
            total += c
    state[X_PY_K] = k
    return total


@lean
def pay_out(state, plan):
    """Pay the X_PY cost back to the bank from the holds (the owner picks the order: ``plan`` 0
    smallest holds first frees holds, 1 largest first keeps them)."""
    b = base_of(state[X_PY_SHIP])
    res = state[X_PY_RES]
    cost = state[X_PY_COST]
    k = state[X_PY_K]
    left = cost
    for j in range(k):
        h = state[X_PY_SLOTS + j] if plan == 0 else state[X_PY_SLOTS + k - 1 - j]
        take = min(left, state[b + B_HN + h])
        state[b + B_HN + h] -= take
        if state[b + B_HN + h] == 0:
            state[b + B_HTYPE + h] = R_NONE
        left -= take
        if left == 0:
            break
    state[S_BANK + res - 1] += cost - left
