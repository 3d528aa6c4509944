"""Karuba's invariant checker (``StepModel.invariants``): the contract tests run it after every step."""
import numpy as np
from numba import njit

from .components import N_CELLS, N_TILES, O
from .state import (AT_BEACH, AT_TEMPLE, B_CRYSTAL, B_DISCARDED, B_EXPL, B_FATE, B_GOLD, B_HOME, B_OCC, B_PLACED,
                    B_TILE, B_TREASURE, HIDDEN, P0, PB, S_PLAYERS, S_ROUND, S_SEQ, S_TAKEN, S_TILE, S_TURN, T_ORDER)


@njit(cache=True)
def check_invariants(state, cfg):
    """0 when the state is consistent, else the first broken invariant:
    1 the hidden tile order is not a permutation of the 36 tiles, 2 a shown tile differs from the
    order or a face-down one is shown, 3 a revealed tile is not used exactly once on an island
    (the tile of the round being chosen still pending), 4 the tiles on an island differ from those
    placed or the placed / discarded counts are off, 5 two explorers share a tile or one stands
    on no tile, 6 an explorer's home round disagrees with its place, 7 treasure is not conserved
    between placed tiles, the tiles and the explorers, 8 a negative counter, 9 temple tokens taken
    differ from the explorers that arrived or exceed the stack."""
    n = state[S_PLAYERS]
    rnd = state[S_ROUND]
    count = np.zeros(N_TILES + 1, np.int64)
    for i in range(N_TILES):
        t = state[T_ORDER + i]
        if t < 1 or t > N_TILES or count[t]:
            return 1
        count[t] = 1
    for i in range(N_TILES):
        if (i < rnd and state[S_SEQ + i] != state[T_ORDER + i]) or (i >= rnd and state[S_SEQ + i] != HIDDEN):
            return 2
    pending = state[S_TILE] if state[S_TURN] >= 0 else 0
    if pending and state[S_TILE] != state[S_SEQ + rnd - 1]:
        return 2
    used = np.zeros(N_TILES + 1, np.int64)
    for i in range(rnd):
        used[state[S_SEQ + i]] = 1
    used[pending] = 0
    for p in range(n):
        b = P0 + p * PB
        placed = discarded = 0
        on_board = np.zeros(N_TILES + 1, np.int64)
        for c in range(N_CELLS):
            on_board[state[b + B_TILE + c]] += 1
        for t in range(1, N_TILES + 1):
            fate = state[b + B_FATE + t - 1]
            if (fate != 0) != (used[t] == 1):
                return 3
            placed += fate == 1
            discarded += fate == 2
            if on_board[t] != (fate == 1):
                return 4
        if state[b + B_PLACED] != placed or state[b + B_DISCARDED] != discarded:
            return 4
        occupied = 0
        for c in range(4):
            x = state[b + B_EXPL + c]
            if x < AT_BEACH:
                if (occupied >> x) & 1 or state[b + B_TILE + x] == 0:
                    return 5
                occupied |= 1 << x
            if (x == AT_TEMPLE) != (state[b + B_HOME + c] > 0):
                return 6
        if state[b + B_OCC] != occupied:
            return 5
        for kind, at in ((1, B_CRYSTAL), (2, B_GOLD)):
            on_tiles = collected = lying = 0
            for t in range(1, N_TILES + 1):
                on_tiles += state[b + B_FATE + t - 1] == 1 and cfg[O.tile_treasure + t - 1] == kind
            for c in range(4):
                collected += state[b + at + c]
            for c in range(N_CELLS):
                lying += state[b + B_TREASURE + c] == kind
            if on_tiles != collected + lying:
                return 7
        for k in range(PB):
            if state[b + k] < 0:
                return 8
    for c in range(4):
        home = 0
        for p in range(n):
            home += state[P0 + p * PB + B_EXPL + c] == AT_TEMPLE
        if state[S_TAKEN + c] != home or home > n:
            return 9
    return 0
