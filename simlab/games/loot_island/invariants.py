"""The invariant checker run after every turn and exploration when ``check_invariants`` is on."""
import numpy as np
from numba import njit

from simlab.core.play import lean
from simlab.core.program import F_LOCAL, F_PROC

from .board import card_symbol, is_allen, lb, n_actors
from .components import N_MAP, N_TREASURE, O, PER_COLOUR, SYM_CHEST, SYM_DOUBLE, T_CROWN
from .program import PR_TAKE
from .state import (FW, X_DEPTH, X_FRAMES, B_CURSES, B_HAND_BITS, B_HAND_N, B_SUPPLY, L_CARDS, L_CHESTS, L_COLOUR,
                    L_COMP, L_COUNT, L_N, L_NCOMP, M_COL, M_DISC, M_DRAW, M_HAND, P0, PB, S_A2, S_A2_N, S_MDISC,
                    S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC, S_PLAYERS, S_REVEAL, S_REVEAL_N, S_TDECK, S_TDECK_N, S_TDISC,
                    S_TDISC_N, S_TLOC, T_A2, T_BOX, T_DECK, T_DISC, T_KEPT, T_REVEAL)


@lean
def pile_ok(state, start, count, loc, where, seen):
    """Every card of the pile at ``state[start : start + count]`` is counted in ``seen`` and records
    ``where`` as its place (``state[loc + card]``): a card listed in a pile it does not think it is in
    fails."""
    for j in range(count):
        c = state[start + j]
        seen[c] += 1
        if state[loc + c] != where:
            return False
    return True


@njit(cache=True, _nrt=True)   # allocates (tallies of its own): counted even when a lean loop calls it
def check_invariants(state, cfg):
    """0 when every map card and treasure is in exactly one place (and each hand's bits say what it
    holds), compasses are conserved, cubes are non-negative, columns are consistent and Allen holds
    only crowns; else an error code."""
    n = state[S_PLAYERS]
    na = n_actors(state)
    seen = np.zeros(N_MAP, dtype=np.int64)
    if not pile_ok(state, S_MDRAW, state[S_MDRAW_N], S_MLOC, M_DRAW, seen):
        return 1
    if not pile_ok(state, S_MDISC, state[S_MDISC_N], S_MLOC, M_DISC, seen):
        return 2
    for landing in range(8):
        base = lb(landing)
        cnt = 0
        chests = 0
        col = state[base + L_COLOUR]
        for j in range(state[base + L_N]):
            m = state[base + L_CARDS + j]
            seen[m] += 1
            if state[S_MLOC + m] != M_COL + landing:
                return 3
            if m // PER_COLOUR != col:
                return 4
            s = card_symbol(cfg, m)
            cnt += 2 if s == SYM_DOUBLE else 1
            chests += 1 if s == SYM_CHEST else 0
        if cnt != state[base + L_COUNT] or chests != state[base + L_CHESTS]:
            return 5
        if state[base + L_N] == 0 and col != -1:
            return 6
        if landing % 2 == 0 and col >= 0 and col == state[lb(landing + 1) + L_COLOUR]:
            return 7
    hand = np.zeros(6, dtype=np.int64)
    for m in range(N_MAP):
        loc = state[S_MLOC + m]
        if M_HAND <= loc < M_COL:
            if loc - M_HAND >= na:
                return 8
            hand[loc - M_HAND] += 1
            seen[m] += 1
        if seen[m] != 1:
            return 9
    for a in range(na):
        if hand[a] != state[P0 + a * PB + B_HAND_N]:
            return 10
        for c in range(4):
            bits = 0
            for k in range(PER_COLOUR):
                if state[S_MLOC + c * PER_COLOUR + k] == M_HAND + a:
                    bits |= 1 << k
            if bits != state[P0 + a * PB + B_HAND_BITS + c]:
                return 24
    tseen = np.zeros(N_TREASURE, dtype=np.int64)
    if not pile_ok(state, S_TDECK, state[S_TDECK_N], S_TLOC, T_DECK, tseen):
        return 11
    if not pile_ok(state, S_TDISC, state[S_TDISC_N], S_TLOC, T_DISC, tseen):
        return 12
    if not pile_ok(state, S_REVEAL, state[S_REVEAL_N], S_TLOC, T_REVEAL, tseen):
        return 13
    if not pile_ok(state, S_A2, state[S_A2_N], S_TLOC, T_A2, tseen):
        return 14
    if state[X_DEPTH] > 0:  # a treasure taken, its keeping being decided, lies in no pile (PR_TAKE holds it)
        f = X_FRAMES + (state[X_DEPTH] - 1) * FW
        if state[f + F_PROC] == PR_TAKE and state[S_TLOC + state[f + F_LOCAL + 1]] == T_REVEAL:
            tseen[state[f + F_LOCAL + 1]] += 1
    used = cfg[O.treasure_decks + n - 2]
    for t in range(N_TREASURE):
        loc = state[S_TLOC + t]
        in_use = (used >> (cfg[O.treasure_deck + t] - 1)) & 1
        if loc == T_BOX:
            tseen[t] += 1
            if in_use:
                return 15
        elif loc >= T_KEPT:
            tseen[t] += 1
            a = loc - T_KEPT
            if a >= na:
                return 16
            if is_allen(state, a) and cfg[O.treasure_type + t] != T_CROWN:
                return 17
        if tseen[t] != 1:
            return 18
    for a in range(na):
        base = P0 + a * PB
        on = 0
        for landing in range(8):
            c = 0
            for k in range(state[lb(landing) + L_NCOMP]):
                if state[lb(landing) + L_COMP + k] == a:
                    c += 1
            if c > 1:
                return 19
            on += c
        if on + state[base + B_SUPPLY] != cfg[O.compasses] or state[base + B_SUPPLY] < 0:
            return 20
        if state[base + B_CURSES] < 0:
            return 21
        if is_allen(state, a) and state[base + B_CURSES] != 0:
            return 22
    for landing in range(8):
        for k in range(state[lb(landing) + L_NCOMP]):
            if state[lb(landing) + L_COMP + k] >= na:
                return 23
    return 0
