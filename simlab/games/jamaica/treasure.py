"""Treasure cards (rules 3(2), 3(4), 5(6)): who holds which, what a power does for its holder,
drawing at a lair and handing a card over.
"""
from simlab.core.play import emit, lean

from .components import O, R_GOLD, R_NONE, SIXTH, T_BETH, T_HOLD6, T_MAP
from .state import B_HN, B_HTYPE, B_LAIRS, GHOST, S_BANK, S_TDECK, S_TDECK_N, S_TOKEN, S_TOWNER, X_EVENTS, X_TCOUNT
from .common import EV_LAIR, base_of


@lean
def hand_limit(state, cfg, ship):
    return cfg[O.map_hand_size] if state[S_TOWNER + T_MAP] == ship else cfg[O.hand_size]


@lean
def strength_bonus(state, cfg, ship):
    return cfg[O.beth_bonus] if state[S_TOWNER + T_BETH] == ship else 0


@lean
def face_down(state, ship, card):
    """Value cards lie face down; the ghost ship keeps every card but Lady Beth face down."""
    if ship == GHOST:
        return card != T_BETH
    return card > T_HOLD6


@lean
def transfer_card(state, card, src, dst):
    """Hand a treasure card over; the 6th Hold takes its contents along ([S6]); the ghost ship
    keeps only doubloons (rules 5(7))."""
    state[S_TOWNER + card] = dst
    state[X_TCOUNT + src] -= 1
    state[X_TCOUNT + dst] += 1
    if card == T_HOLD6:
        bs = base_of(src)
        bd = base_of(dst)
        res = state[bs + B_HTYPE + SIXTH]
        cnt = state[bs + B_HN + SIXTH]
        state[bs + B_HTYPE + SIXTH] = R_NONE
        state[bs + B_HN + SIXTH] = 0
        if cnt > 0 and dst == GHOST and res != R_GOLD:
            state[S_BANK + res - 1] += cnt
        elif cnt > 0:
            state[bd + B_HTYPE + SIXTH] = res
            state[bd + B_HN + SIXTH] = cnt


@lean
def take_lair(state, ship, space, log):
    """A lair with its token: remove the token, draw the top treasure card (3(2))."""
    if state[S_TOKEN + space] == 0:
        return
    state[S_TOKEN + space] = 0
    n = state[S_TDECK_N]
    card = -1
    if n > 0:
        card = state[S_TDECK + n - 1]
        state[S_TDECK_N] = n - 1
        state[S_TOWNER + card] = ship
        state[X_TCOUNT + ship] += 1
        state[base_of(ship) + B_LAIRS] += 1
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LAIR, ship, space, card)
