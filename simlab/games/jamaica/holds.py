"""Holds (rules 3(1), 3(2)): loading a resource under the loading rules and paying a cost.
"""
from numba import njit

from simlab.core.kernel import emit

from .components import MAX_HOLDS, O, R_NONE, SIXTH
from .state import B_HN, B_HTYPE, DEC_HOLD, DEC_PAY, GHOST, S_BANK, S_BANK_SHORT, S_STACK
from .common import EV_IGNORED, EV_LOAD, ask, base_of, hold_usable


@njit(cache=True)
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


@njit(cache=True)
def load(state, cfg, ship, res, count, from_bank, decider, seat_slot, fns, seat_params, streams, legal, log, ev):
    """Put ``count`` tokens of ``res`` into one hold (from the bank, or loot from a beaten ship)."""
    if from_bank:
        left = state[S_BANK + res - 1]
        if left < count:
            state[S_BANK_SHORT] += 1
            if cfg[O.bank_limited]:
                count = max(left, 0)
    if count <= 0:
        return
    n = load_choices(state, cfg, ship, res, legal)
    if n == 0:  # every hold already holds this resource: the load is ignored
        if not from_bank:
            state[S_BANK + res - 1] += count
        ev[0] = emit(log, ev[0], EV_IGNORED, ship, res, count)
        return
    i = 0
    if ship != GHOST:
        i = ask(state, cfg, decider, DEC_HOLD, ship, res, count, 0, legal, n, seat_slot, fns, seat_params, streams)
    h = legal[i]
    b = base_of(ship)
    old_type = state[b + B_HTYPE + h]
    old_n = state[b + B_HN + h]
    if old_n > 0:
        state[S_BANK + old_type - 1] += old_n
    state[b + B_HTYPE + h] = res
    state[b + B_HN + h] = count
    if from_bank:
        state[S_BANK + res - 1] -= count
    ev[0] = emit(log, ev[0], EV_LOAD, ship, res, count, h, old_type if old_n > 0 else 0, old_n)


@njit(cache=True)
def pay(state, cfg, ship, res, cost, decider, seat_slot, fns, seat_params, streams, legal):
    """Pay ``cost`` tokens of ``res`` back to the bank from any holds (the owner picks the order:
    smallest holds first frees holds, largest first keeps them)."""
    if cost <= 0:
        return
    b = base_of(ship)
    slots = state[S_STACK + 96:S_STACK + 96 + MAX_HOLDS]
    k = 0
    total = 0
    for h in range(MAX_HOLDS):
        if state[b + B_HTYPE + h] == res and state[b + B_HN + h] > 0:
            c = state[b + B_HN + h]
            j = k
            while j > 0 and state[b + B_HN + slots[j - 1]] > c:
                slots[j] = slots[j - 1]
                j -= 1
            slots[j] = h
            k += 1
            total += c
    plan = 0
    if k >= 2 and cost < total and ship != GHOST:
        legal[0] = 0
        legal[1] = 1
        plan = legal[ask(state, cfg, decider, DEC_PAY, ship, res, cost, 0, legal, 2, seat_slot, fns, seat_params,
                         streams)]
    left = cost
    for j in range(k):
        h = slots[j] if plan == 0 else slots[k - 1 - j]
        take = min(left, state[b + B_HN + h])
        state[b + B_HN + h] -= take
        if state[b + B_HN + h] == 0:
            state[b + B_HTYPE + h] = R_NONE
        left -= take
        if left == 0:
            break
    state[S_BANK + res - 1] += cost - left
