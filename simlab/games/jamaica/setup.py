"""Setting up (rules 1, 5(1)-(3)) and refilling hands (2(4)).
"""
import numpy as np
from numba import njit

from simlab.core.play import emit, lean
from simlab.core.program import call
from simlab.core.rng import shuffle

from .components import (LAIR, MAX_HOLDS, N_CARDS, N_SPACES, N_TREASURES, O, R_CANNON, R_FOOD, R_GOLD, R_NONE, T_BETH)
from .state import (B_CARD, B_DISC, B_DISC_N, B_DRAW, B_DRAW_N, B_HAND, B_HAND_N, B_HN, B_HTYPE, GHOST, N_SHIPS,
                    OWN_DECK, OWN_REMOVED, PC_ROUND, PROGRAM, RNG_DECK, RNG_TREASURE, S_BANK, S_ENDER, S_GHOST,
                    S_PLAYERS, S_PREV_A, S_PREV_B, S_TDECK, S_TDECK_N, S_TOKEN, S_TOWNER, X_EVENTS, X_PICKED,
                    X_TCOUNT)
from .common import EV_SETUP, amount, base_of, is_active
from .treasure import hand_limit


@njit(cache=True, _nrt=True)   # allocates (a treasure pile of its own)
def setup(state, cfg, n_players, streams):
    state[:] = 0
    call(state, PROGRAM, PC_ROUND, PC_ROUND)   # the round's program, the bottom frame (simlab.core.program)
    state[S_PLAYERS] = n_players
    state[S_ENDER] = -1
    ghost = n_players == 2 and cfg[O.ghost_ship] != 0
    state[S_GHOST] = 1 if ghost else 0
    for r in range(3):
        state[S_BANK + r] = cfg[O.bank + r]
    for s in range(N_SPACES):
        state[S_PREV_A + s] = -1
        state[S_PREV_B + s] = -1
    for s in range(N_SPACES):
        for t in (cfg[O.next_outer + s], cfg[O.next_inner + s]):
            if t >= 0:
                if state[S_PREV_A + t] == -1:
                    state[S_PREV_A + t] = s
                else:
                    state[S_PREV_B + t] = s
        state[S_TOKEN + s] = 1 if cfg[O.space_type + s] == LAIR else 0
    # treasure cards (rules 1(1), 5(3)): all 12 shuffled; with the ghost ship Lady Beth leaves the
    # sequence (the others keep their order); the bottom ones are removed unseen, the rest is the
    # pile. So the lairs draw the same cards in the same order with and without the ghost ship,
    # Lady Beth apart.
    pile = np.arange(N_TREASURES, dtype=np.int32)
    shuffle(streams[RNG_TREASURE], pile, N_TREASURES)
    n = 0
    for i in range(N_TREASURES):
        k = pile[i]
        if ghost and k == T_BETH:
            state[S_TOWNER + k] = GHOST
            state[X_TCOUNT + GHOST] = 1
        else:
            pile[n] = k
            n += 1
    removed = min(n, cfg[O.ghost_removed] if ghost else cfg[O.treasure_removed])
    for i in range(n):
        state[S_TOWNER + pile[i]] = OWN_REMOVED if i < removed else OWN_DECK
    for i in range(removed, n):
        state[S_TDECK + i - removed] = pile[i]
    state[S_TDECK_N] = n - removed
    for p in range(n_players):
        b = base_of(p)
        for h in range(MAX_HOLDS):
            state[b + B_HTYPE + h] = R_NONE
        slot = 0
        for res, off in ((R_GOLD, O.start_gold), (R_FOOD, O.start_food), (R_CANNON, O.start_cannons)):
            if cfg[off] > 0:
                state[b + B_HTYPE + slot] = res
                state[b + B_HN + slot] = cfg[off]
                state[S_BANK + res - 1] -= cfg[off]
                slot += 1
        for k in range(N_CARDS):  # the 11 cards start as a pile that the first refill shuffles
            state[b + B_DISC + k] = k
        state[b + B_DISC_N] = N_CARDS
        state[b + B_CARD] = -1
        state[X_PICKED + p] = -1
        refill(state, cfg, p, streams)
    if ghost:
        b = base_of(GHOST)
        for h in range(MAX_HOLDS):
            state[b + B_HTYPE + h] = R_NONE
        for h in range(2):
            g = cfg[O.ghost_gold + h]
            if g > 0:
                state[b + B_HTYPE + h] = R_GOLD
                state[b + B_HN + h] = g
                state[S_BANK + R_GOLD - 1] -= g
        state[b + B_CARD] = -1


@njit(cache=True, _nrt=True)   # allocates (a card order of its own): counted even when a lean loop calls it
def reshuffle(state, ship, streams):
    """Shuffle the discard pile into a new draw pile (2(4)). The seat's own stream orders all 11
    cards and the discarded ones take that order: the k-th reshuffle costs the same draws whatever
    was discarded, and any two cards come in the same order in two games that discarded different
    sets (the order of a uniform permutation restricted to a subset is uniform)."""
    b = base_of(ship)
    order = np.arange(N_CARDS, dtype=np.int32)
    shuffle(streams[RNG_DECK + ship], order, N_CARDS)
    discarded = 0
    for i in range(state[b + B_DISC_N]):
        discarded |= 1 << state[b + B_DISC + i]
    n = 0
    for i in range(N_CARDS):
        if (discarded >> order[i]) & 1:
            state[b + B_DRAW + n] = order[i]
            n += 1
    state[b + B_DISC_N] = 0
    state[b + B_DRAW_N] = n


@lean
def refill(state, cfg, ship, streams):
    """Draw up to the hand size, shuffling the discard pile into a new draw pile when empty (2(4))."""
    b = base_of(ship)
    limit = hand_limit(state, cfg, ship)
    while state[b + B_HAND_N] < limit:
        if state[b + B_DRAW_N] == 0:
            if state[b + B_DISC_N] == 0:
                return
            reshuffle(state, ship, streams)
        nd = state[b + B_DRAW_N] - 1
        state[b + B_HAND + state[b + B_HAND_N]] = state[b + B_DRAW + nd]
        state[b + B_HAND_N] += 1
        state[b + B_DRAW_N] = nd


@njit(cache=True)
def log_setup(state, log):
    for ship in range(N_SHIPS):
        if is_active(state, ship):
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_SETUP, ship, amount(state, ship, R_GOLD), amount(state, ship, R_FOOD),
                         state[S_TDECK_N])
