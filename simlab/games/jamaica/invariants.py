"""The invariant checker the tests (and ``check_invariants``) run after every action.
"""
import numpy as np
from numba import njit

from simlab.core.program import F_LABEL, top

from .components import LAIR, MAX_HOLDS, N_CARDS, N_SPACES, N_TREASURES, O, R_NONE
from .state import (B_CARD, B_DISC, B_DISC_N, B_DRAW, B_DRAW_N, B_HAND, B_HAND_N, B_HN, B_HTYPE, B_POS, N_SHIPS,
                    OWN_DECK, OWN_REMOVED, PC_HOLD_DONE, PROGRAM, S_BANK, S_PLAYERS, S_TDECK, S_TDECK_N, S_TOKEN,
                    S_TOWNER, X_LD_BANK, X_LD_COUNT, X_LD_RES, X_TCOUNT)
from .common import base_of, hold_usable, is_active


@njit(cache=True, _nrt=True)   # allocates (tallies of its own): counted even when a lean loop calls it
def check_state(state, cfg):
    """0 when every invariant holds, else a code naming the first breach:
    1 resources not conserved (bank + holds + loot on its way into a hold != printed stock),
    2 a hold with two kinds / a count without a kind / a negative count, 3 a 6th-hold slot
    without its card or an unused hold filled, 4 treasure cards not conserved (deck / owners /
    removed / the count each ship holds), 5 action cards not conserved (draw + hand + discard +
    played != the 11 cards), 6 a ship off the track, 7 a token off a lair."""
    n_players = state[S_PLAYERS]
    totals = np.zeros(4, dtype=np.int64)
    for ship in range(N_SHIPS):
        if not is_active(state, ship):
            continue
        b = base_of(ship)
        for h in range(MAX_HOLDS):
            t = state[b + B_HTYPE + h]
            c = state[b + B_HN + h]
            if c < 0 or t < 0 or t > 3 or (c == 0) != (t == R_NONE):
                return 2
            if c > 0 and not hold_usable(state, cfg, ship, h):
                return 3
            totals[t] += c
        if state[b + B_POS] < 0 or state[b + B_POS] >= N_SPACES:
            return 6
    if state[top(state, PROGRAM) + F_LABEL] == PC_HOLD_DONE and state[X_LD_BANK] == 0:   # loot on its way into the winner's hold
        totals[state[X_LD_RES]] += state[X_LD_COUNT]
    for r in range(1, 4):
        if totals[r] + state[S_BANK + r - 1] != cfg[O.bank + r - 1]:
            return 1
    nd = state[S_TDECK_N]
    if nd < 0 or nd > N_TREASURES:
        return 4
    in_deck = 0
    for k in range(N_TREASURES):
        o = state[S_TOWNER + k]
        if o == OWN_DECK:
            in_deck += 1
            found = 0
            for i in range(nd):
                found += state[S_TDECK + i] == k
            if found != 1:
                return 4
        elif o != OWN_REMOVED and not (0 <= o < N_SHIPS and is_active(state, o)):
            return 4
    if in_deck != nd:
        return 4
    for ship in range(N_SHIPS):
        held = 0
        for k in range(N_TREASURES):
            held += state[S_TOWNER + k] == ship
        if held != state[X_TCOUNT + ship]:
            return 4
    for p in range(n_players):
        b = base_of(p)
        seen = np.zeros(N_CARDS, dtype=np.int64)
        for i in range(state[b + B_DRAW_N]):
            seen[state[b + B_DRAW + i]] += 1
        for i in range(state[b + B_HAND_N]):
            seen[state[b + B_HAND + i]] += 1
        for i in range(state[b + B_DISC_N]):
            seen[state[b + B_DISC + i]] += 1
        if state[b + B_CARD] >= 0:
            seen[state[b + B_CARD]] += 1
        for k in range(N_CARDS):
            if seen[k] != 1:
                return 5
    for s in range(N_SPACES):
        if state[S_TOKEN + s] and cfg[O.space_type + s] != LAIR:
            return 7
    return 0


@njit(cache=True, _nrt=True)   # calls check_state (counted)
def check_or_raise(state, cfg):
    if check_state(state, cfg) != 0:
        raise ValueError("jamaica invariant breached (see rules.check_state for the codes)")
