"""The parts of Loot Island every phase touches: the ship and the landings' compass stacks, the map
and treasure piles, curse cubes, keeping or burying a treasure (the procedure
PR_TAKE), and the trace log.

Geometry: corners 0..3 clockwise; coast ``k`` runs from corner ``k`` to corner ``k + 1`` and holds
landing ``2k`` (next to corner k) and ``2k + 1`` (next to corner k + 1). A ship at corner ``c``
facing clockwise (+1) points its bow at coast ``c`` and moves to corner ``c + 1``; facing
counter-clockwise (-1) it points at coast ``c - 1`` and moves to ``c - 1``. So event B2 (turn the
ship 180 degrees) makes the bow point at the coast explored last round, as the rulebook says. The
landing "nearest the bow" of an explored coast is the first one met in the ship's direction.

Procedures that ask the players are resumable (``program.py``): ``xxx_step(state, cfg, streams, log, f)``
runs the procedure whose frame is at ``f`` from its label; ``streams`` are the random streams by
purpose (rows R_* of state.py), ``log`` the trace (capacity 0: none).
Allen (2 players) is actor ``n``; his choices are made by the human whose turn it is.
"""
from simlab.core.play import emit, lean
from simlab.core.rng import shuffle
from simlab.core.program import F_LABEL, F_LOCAL

from .components import O, PER_COLOUR, T_AMULET, T_CROWN
from .program import ask, ret
from .state import (B_CROSSES, B_CUBES_GONE, B_CUBES_TAKEN, B_CURSES, B_HAND_BITS, B_HAND_N, B_KEPT, B_SUPPLY, B_TAKEN,
                    B_TDISCARDED, B_TYPES, D_KEEP, L0, L_COMP, L_NCOMP, LB, M_COL, M_DISC, M_DRAW, M_HAND, P0, PB,
                    PH_FINAL, R_MAP, R_TREASURE, S_A2, S_A2_N, S_ALLEN, S_ALLEN_CROSSES, S_CORNER, S_DCTX, S_DECKOUT,
                    S_EVENT, S_FACING, S_MDISC, S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC, S_NEV, S_PHASE, S_PLAYERS,
                    S_REVEAL, S_REVEAL_N, S_TDECK, S_TDECK_N, S_TDISC, S_TDISC_N, S_TLOC, T_A2, T_DECK, T_DISC,
                    T_KEPT, X_CHOICE, X_TSHUFFLED)


# Trace event kinds.
(EV_SETUP, EV_ROUND, EV_EVENT, EV_SHIP, EV_ISLET_FLIP, EV_A1_DRAW, EV_A2_REVEAL, EV_PLAY, EV_CARD, EV_COMPASS,
 EV_EFFECT, EV_ISLET, EV_PASS, EV_EXPLORE, EV_TAKE, EV_CLEANUP, EV_DECKOUT, EV_ELIM, EV_HEALER, EV_SCORE, EV_REFILL,
 EV_FINAL, EV_CROWNS, EV_B10_DISCARD, EV_HAND, EV_ISLET_RESULT) = range(26)
# EV_EFFECT kinds
FX_ONE_CURSE, FX_DRAW, FX_DISCARD, FX_COPY_DRAW, FX_COPY_DISCARD, FX_ISLET_CUBES, FX_ISLET_DRAW, FX_B8, FX_A3 = range(9)
# EV_COMPASS reasons
CW_PLAY, CW_ISLET_MOVE, CW_BOTTOM, CW_TOP, CW_B4 = range(5)
# EV_SHIP reasons
SHIP_PHASE1, SHIP_B1, SHIP_B2, SHIP_ISLET = range(4)
# EV_TAKE sources
TAKE_LOOT, TAKE_ISLET, TAKE_A2 = range(3)


@lean
def log_ev(state, log, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    if log.shape[0] > 0:
        state[S_NEV] = emit(log, state[S_NEV], kind, a, b, c, d, e, f, g)


@lean
def n_actors(state):
    return state[S_PLAYERS] + state[S_ALLEN]


@lean
def is_allen(state, a):
    return state[S_ALLEN] == 1 and a == state[S_PLAYERS]


@lean
def move_map(state, m, loc):
    """Map card ``m`` goes to ``loc`` (S_MLOC), and the hands' bits (B_HAND_BITS) follow it: every
    move of a map card goes through here."""
    colour = m // PER_COLOUR
    bit = 1 << (m - colour * PER_COLOUR)
    old = state[S_MLOC + m]
    if M_HAND <= old < M_COL:
        state[P0 + (old - M_HAND) * PB + B_HAND_BITS + colour] &= ~bit
    if M_HAND <= loc < M_COL:
        state[P0 + (loc - M_HAND) * PB + B_HAND_BITS + colour] |= bit
    state[S_MLOC + m] = loc


@lean
def card_value(cfg, m):
    return cfg[O.map_values + m % PER_COLOUR]


@lean
def card_symbol(cfg, m):
    return cfg[O.map_symbols + m % PER_COLOUR]


@lean
def event_now(state, cfg):
    """The event in force (-1 none); during the final exploration only if ``events_in_final``."""
    if state[S_PHASE] == PH_FINAL and not cfg[O.events_in_final]:
        return -1
    return state[S_EVENT]


@lean
def cards_needed(cfg, n_players):
    return cfg[O.cards_needed + n_players - 2]


@lean
def hand_target(state, cfg):
    n = state[S_PLAYERS]
    h = cfg[O.hand_size_2p] if n == 2 else cfg[O.hand_size]
    return h


@lean
def current_coast(state):
    if state[S_FACING] > 0:
        return state[S_CORNER]
    return (state[S_CORNER] + 3) % 4


@lean
def near_landing(state, coast):
    """The landing of ``coast`` nearest the bow (first in the ship's direction)."""
    return 2 * coast if state[S_FACING] > 0 else 2 * coast + 1


@lean
def move_ship(state, log, why):
    state[S_CORNER] = (state[S_CORNER] + state[S_FACING] + 4) % 4
    log_ev(state, log, EV_SHIP, state[S_CORNER], state[S_FACING], why, current_coast(state))


@lean
def lb(landing):
    return L0 + landing * LB


@lean
def compass_pos(state, landing, a):
    base = lb(landing)
    for k in range(state[base + L_NCOMP]):
        if state[base + L_COMP + k] == a:
            return k
    return -1


@lean
def on_island(state, cfg, a):
    return cfg[O.compasses] - state[P0 + a * PB + B_SUPPLY]


@lean
def push_compass(state, landing, a):
    base = lb(landing)
    k = state[base + L_NCOMP]
    state[base + L_COMP + k] = a
    state[base + L_NCOMP] = k + 1


@lean
def pull_compass(state, landing, a):
    """Remove ``a``'s compass from a landing's stack (the compasses above it move down)."""
    base = lb(landing)
    k = compass_pos(state, landing, a)
    n = state[base + L_NCOMP]
    for j in range(k, n - 1):
        state[base + L_COMP + j] = state[base + L_COMP + j + 1]
    state[base + L_COMP + n - 1] = 0
    state[base + L_NCOMP] = n - 1


@lean
def compass_to_end(state, landing, a, top):
    """Move ``a``'s compass to the bottom (``top`` False) or top of its stack."""
    pull_compass(state, landing, a)
    base = lb(landing)
    n = state[base + L_NCOMP]
    if top:
        state[base + L_COMP + n] = a
    else:
        for j in range(n, 0, -1):
            state[base + L_COMP + j] = state[base + L_COMP + j - 1]
        state[base + L_COMP] = a
    state[base + L_NCOMP] = n + 1


@lean
def take_curses(state, a, k):
    if is_allen(state, a) or k <= 0:
        return
    state[P0 + a * PB + B_CURSES] += k
    state[P0 + a * PB + B_CUBES_TAKEN] += k


@lean
def drop_curses(state, a, k):
    """Discard up to ``k`` cubes (never below zero); returns how many went."""
    if is_allen(state, a) or k <= 0:
        return 0
    base = P0 + a * PB
    d = min(k, state[base + B_CURSES])
    state[base + B_CURSES] -= d
    state[base + B_CUBES_GONE] += d
    return d


@lean
def reshuffle(state, rng, pile, pile_n, deck, deck_n, loc, at):
    """Shuffle a discard pile into its empty deck (each card's location becomes ``at``).

    Returns the new deck size; 0 means the pile was empty too.
    """
    n = state[pile_n]
    for j in range(n):
        card = state[pile + j]
        state[deck + j] = card
        state[loc + card] = at
    state[pile_n] = 0
    state[deck_n] = n
    shuffle(rng, state[deck:deck + n], n)
    return n


@lean
def draw_map(state, streams, a, k):
    """Draw ``k`` map cards into ``a``'s hand, reshuffling the discards when the pile runs out.

    Allen draws from the bottom of the face-down pile, the players from the top. Nobody knows the
    pile's order, so this is the same game in law; but the players' k-th card no longer depends on
    how many cards Allen drew, so the same deal with Allen on and off gives the players the same
    cards until their own draws differ or the pile is reshuffled (common random numbers).
    """
    got = 0
    for _ in range(k):
        if state[S_MDRAW_N] == 0 and reshuffle(state, streams[R_MAP], S_MDISC, S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC,
                                               M_DRAW) == 0:
            return got
        n = state[S_MDRAW_N] - 1
        m = state[S_MDRAW + n]
        if is_allen(state, a):
            m = state[S_MDRAW]
            for i in range(n):   # the pile moves up one place (front to back: no overlap to copy)
                state[S_MDRAW + i] = state[S_MDRAW + i + 1]
        state[S_MDRAW_N] = n
        move_map(state, m, M_HAND + a)
        state[P0 + a * PB + B_HAND_N] += 1
        got += 1
    return got


@lean
def discard_map(state, m):
    """Put map card ``m`` (from a hand or a column) on the discard pile."""
    loc = state[S_MLOC + m]
    if M_HAND <= loc < M_COL:
        state[P0 + (loc - M_HAND) * PB + B_HAND_N] -= 1
    n = state[S_MDISC_N]
    state[S_MDISC + n] = m
    state[S_MDISC_N] = n + 1
    move_map(state, m, M_DISC)


@lean
def reveal_treasures(state, streams, k, dest):
    """Reveal ``k`` treasures onto the reveal row (T_REVEAL) or event A2's row (T_A2).

    When the deck runs dry the discards are shuffled into a new deck; if that is still not enough
    the treasure deck is exhausted: ``S_DECKOUT`` is set (game end step 2 follows). Returns the
    number revealed.
    """
    got = 0
    for _ in range(k):
        if state[S_TDECK_N] == 0:
            if reshuffle(state, streams[R_TREASURE], S_TDISC, S_TDISC_N, S_TDECK, S_TDECK_N, S_TLOC, T_DECK) == 0:
                state[S_DECKOUT] = 1
                return got
            state[X_TSHUFFLED] = 1
        n = state[S_TDECK_N] - 1
        t = state[S_TDECK + n]
        state[S_TDECK_N] = n
        if dest == T_A2:
            j = state[S_A2_N]
            state[S_A2 + j] = t
            state[S_A2_N] = j + 1
        else:
            j = state[S_REVEAL_N]
            state[S_REVEAL + j] = t
            state[S_REVEAL_N] = j + 1
        state[S_TLOC + t] = dest
        got += 1
    return got


@lean
def remove_from_row(state, row, row_n, t):
    n = state[row_n]
    for j in range(n):
        if state[row + j] == t:
            state[row + j] = state[row + n - 1]
            state[row + n - 1] = 0
            state[row_n] = n - 1
            return


@lean
def keep_treasure(state, cfg, a, t):
    """Keep treasure ``t``: take its curse, then discard its crossed-out cubes."""
    state[S_TLOC + t] = T_KEPT + a
    base = P0 + a * PB
    state[base + B_KEPT] += 1
    state[base + B_TYPES + cfg[O.treasure_type + t]] += 1
    state[base + B_CROSSES] += cfg[O.treasure_crosses + t]
    if is_allen(state, a):
        state[S_ALLEN_CROSSES] = state[base + B_CROSSES]
        return
    take_curses(state, a, cfg[O.treasure_curse + t])
    drop_curses(state, a, cfg[O.treasure_crossed + t])


@lean
def bury_treasure(state, cfg, a, t):
    """Discard treasure ``t`` just taken: up to 2 cubes go, plus 1 per amulet owned."""
    n = state[S_TDISC_N]
    state[S_TDISC + n] = t
    state[S_TDISC_N] = n + 1
    state[S_TLOC + t] = T_DISC
    base = P0 + a * PB
    state[base + B_TDISCARDED] += 1
    drop_curses(state, a, cfg[O.treasure_discard_cubes] + cfg[O.amulet_cubes] * state[base + B_TYPES + T_AMULET])


@lean
def allen_choice(state, cfg):
    """Allen takes the revealed treasure with the highest lower-left number."""
    best = -1
    for j in range(state[S_REVEAL_N]):
        t = state[S_REVEAL + j]
        if t > best:
            best = t
    return best


@lean
def set_ctx(state, a, b=0, c=0, d=0):
    state[S_DCTX] = a
    state[S_DCTX + 1] = b
    state[S_DCTX + 2] = c
    state[S_DCTX + 3] = d


@lean
def take_step(state, cfg, streams, log, f):
    """Procedure PR_TAKE (actor, treasure, may discard, source): the actor has taken the treasure and
    keeps it or discards it (Allen keeps crowns only)."""
    a = state[f + F_LOCAL]
    t = state[f + F_LOCAL + 1]
    base = P0 + a * PB
    if state[f + F_LABEL] == 0:
        state[base + B_TAKEN] += 1
        if not is_allen(state, a):
            set_ctx(state, t, state[f + F_LOCAL + 2])
            ask(state, f, 1, a, D_KEEP)
            return
        keep = 1 if cfg[O.treasure_type + t] == T_CROWN else 0
    else:
        keep = state[X_CHOICE]
    if keep == 1:
        keep_treasure(state, cfg, a, t)
    else:
        bury_treasure(state, cfg, a, t)
    log_ev(state, log, EV_TAKE, a, t, keep, state[base + B_CURSES], state[f + F_LOCAL + 3])
    ret(state)


@lean
def keep_choices(state, f, out):
    """D_KEEP: keep (1), or discard (0) when allowed."""
    out[0] = 1
    if state[f + F_LOCAL + 2]:
        out[1] = 0
        return 2
    return 1
