"""Loot Island's rules as small numba functions over the flat state (see ``state.py``).

Geometry: corners 0..3 clockwise; coast ``k`` runs from corner ``k`` to corner ``k + 1`` and holds
landing ``2k`` (next to corner k) and ``2k + 1`` (next to corner k + 1). A ship at corner ``c``
facing clockwise (+1) points its bow at coast ``c`` and moves to corner ``c + 1``; facing
counter-clockwise (-1) it points at coast ``c - 1`` and moves to ``c - 1``. So event B2 (turn the
ship 180 degrees) makes the bow point at the coast explored last round, as the seed says. The
landing "nearest the bow" of an explored coast is the first one met in the ship's direction.

Conventions for the many helpers: ``G``-style argument runs ``state, cfg, seat_slot, fns, sp, rng,
legal, log`` are passed through to every function that may ask a strategy or write a trace event.
Allen (2 players) is actor ``n``; his choices are made by the human whose turn it is.
"""
import numpy as np
from numba import njit, types

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK, FIRST_GAME_COLUMN, PLAY_SIGNATURE, emit, legal_index
from simlab.core.rng import randint, shuffle
from simlab.core.strategy import DECIDE_TYPE

from .components import (A3_ACTOR, COPY_ACTOR, EV_A1, EV_A2, EV_A3, EV_A4, EV_B1, EV_B2, EV_B3, EV_B4, EV_B5, EV_B6,
                         EV_B7, EV_B8, EV_B9, EV_B10, EV_B11, EV_B12, EV_B13, EV_B14, FACING_CW, I_BOTTOM,
                         I_DISCARD, I_DRAW2, I_MOVE, I_SHIP, N_HEALER, N_ISLET, N_MAP, N_TREASURE, O,
                         PER_COLOUR, SYM_CHEST, SYM_DISCARD, SYM_DOUBLE, SYM_DRAW, T_AMULET, T_BOOK, T_CROWN,
                         T_JEWEL, T_SKULL)
from .state import (B_A1, B_ALLEN_USES, B_CROSSES, B_CUBES_GONE, B_CUBES_TAKEN, B_CURSES, B_ELIM, B_FEE, B_GOLD,
                    B_GROSS, B_HAND_N, B_HEALER, B_ISLETS, B_KEPT, B_LOOT_TURNS, B_NET, B_PASS_ROUND1, B_PASSED,
                    B_PLAYED, B_START_TAKEN, B_SUPPLY, B_TAKEN, B_TDISCARDED, B_TYPES, COPY_SKIP, D_A1, D_A2, D_ACTION,
                    D_B4, D_CARD, D_COPY, D_DISCARD, D_DO, D_HEALER, D_KEEP, D_PAY, D_PICK, D_SOURCE, D_TARGET,
                    ELIM_CURSES, ELIM_FEE, ELIM_NONE, ISLET_ALLEN, ISLET_DOWN, ISLET_OUT, ISLET_OWN, ISLET_UP, L0,
                    L_CARDS, L_CHESTS, L_COLOUR, L_COMP, L_COUNT, L_LAST, L_N, L_NCOMP, LB, M_COL, M_DISC, M_DRAW,
                    M_HAND, MAX_LEGAL, P0, PASS, PB, PH_ACTION, PH_END, PH_FINAL, PH_LOOT, PH_PREP, PLAY_ALLEN,
                    PLAY_OWN, S_A2, S_A2_N, S_ALLEN, S_ALLEN_CROSSES, S_CORNER, S_DCTX, S_DECKOUT, S_DKIND,
                    S_EVENT, S_EVENT_SEQ, S_EVENTS_SEEN, S_FACING, S_FIRST_PASSED, S_HEALER_OWNER, S_HEALERS,
                    S_ISLET, S_ISLETS_USED, S_LANDING_DONE, S_MDISC, S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC,
                    S_MUST_PASS, S_NEV, S_PHASE, S_PLAYERS, S_REVEAL, S_REVEAL_N, S_ROUND, S_STAGE, S_STAGE_N,
                    S_START, S_TDECK, S_TDECK_N, S_TDISC, S_TDISC_N, S_TLOC, S_TURN, S_TURNS, SKIP, STATE_SIZE,
                    STOP, SUPPLY, T_A2, T_BOX, T_DECK, T_DISC, T_KEPT, T_REVEAL)

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

(C_CURSES, C_ELIM, C_HEALER, C_FEE, C_GROSS, C_NET, C_G_AMULET, C_G_MONEY, C_G_BOOK, C_G_JEWEL, C_G_CROWN, C_G_SKULL,
 C_G_START, C_N_AMULET, C_N_MONEY, C_N_BOOK, C_N_JEWEL, C_N_CROWN, C_N_SKULL, C_CROSSES, C_TAKEN, C_TDISCARDED,
 C_CUBES_TAKEN, C_CUBES_GONE, C_START_TILE, C_START_TAKEN, C_ISLETS, C_ALLEN_USES, C_PLAYED, C_A1, C_KEPT0, C_KEPT1,
 C_KEPT2, C_ALLEN_CROSSES, C_EVENTS, C_ISLETS_IN, C_ISLETS_USED, C_HEALERS_DEALT, C_NO_WINNER, C_DECKOUT, C_START_END,
 C_TURNS, C_ROUNDS) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 43)
N_RESULT_COLUMNS = 43
ELIM_SCORE = 0  # an eliminated player scores nothing; the run engine ranks them below all others


# ---------------------------------------------------------------------------------------------------
# small accessors
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def log_ev(state, log, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    if log.shape[0] > 0:
        state[S_NEV] = emit(log, state[S_NEV], kind, a, b, c, d, e, f, g)


@njit(cache=True)
def n_actors(state):
    return state[S_PLAYERS] + state[S_ALLEN]


@njit(cache=True)
def is_allen(state, a):
    return state[S_ALLEN] == 1 and a == state[S_PLAYERS]


@njit(cache=True)
def card_value(cfg, m):
    return cfg[O.map_values + m % PER_COLOUR]


@njit(cache=True)
def card_symbol(cfg, m):
    return cfg[O.map_symbols + m % PER_COLOUR]


@njit(cache=True)
def event_now(state, cfg):
    """The event in force (-1 none); during the final exploration only if ``events_in_final``."""
    if state[S_PHASE] == PH_FINAL and not cfg[O.events_in_final]:
        return -1
    return state[S_EVENT]


@njit(cache=True)
def cards_needed(cfg, n_players):
    return cfg[O.cards_needed + n_players - 2]


@njit(cache=True)
def hand_target(state, cfg):
    n = state[S_PLAYERS]
    h = cfg[O.hand_size_2p] if n == 2 else cfg[O.hand_size]
    return h


@njit(cache=True)
def current_coast(state):
    if state[S_FACING] > 0:
        return state[S_CORNER]
    return (state[S_CORNER] + 3) % 4


@njit(cache=True)
def near_landing(state, coast):
    """The landing of ``coast`` nearest the bow (first in the ship's direction)."""
    return 2 * coast if state[S_FACING] > 0 else 2 * coast + 1


@njit(cache=True)
def move_ship(state, log, why):
    state[S_CORNER] = (state[S_CORNER] + state[S_FACING] + 4) % 4
    log_ev(state, log, EV_SHIP, state[S_CORNER], state[S_FACING], why, current_coast(state))


@njit(cache=True)
def lb(landing):
    return L0 + landing * LB


@njit(cache=True)
def compass_pos(state, landing, a):
    base = lb(landing)
    for k in range(state[base + L_NCOMP]):
        if state[base + L_COMP + k] == a:
            return k
    return -1


@njit(cache=True)
def on_island(state, cfg, a):
    return cfg[O.compasses] - state[P0 + a * PB + B_SUPPLY]


@njit(cache=True)
def push_compass(state, landing, a):
    base = lb(landing)
    k = state[base + L_NCOMP]
    state[base + L_COMP + k] = a
    state[base + L_NCOMP] = k + 1


@njit(cache=True)
def pull_compass(state, landing, a):
    """Remove ``a``'s compass from a landing's stack (the compasses above it move down)."""
    base = lb(landing)
    k = compass_pos(state, landing, a)
    n = state[base + L_NCOMP]
    for j in range(k, n - 1):
        state[base + L_COMP + j] = state[base + L_COMP + j + 1]
    state[base + L_COMP + n - 1] = 0
    state[base + L_NCOMP] = n - 1


@njit(cache=True)
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


# ---------------------------------------------------------------------------------------------------
# curses, map cards, treasures
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def take_curses(state, a, k):
    if is_allen(state, a) or k <= 0:
        return
    state[P0 + a * PB + B_CURSES] += k
    state[P0 + a * PB + B_CUBES_TAKEN] += k


@njit(cache=True)
def drop_curses(state, a, k):
    """Discard up to ``k`` cubes (never below zero); returns how many went."""
    if is_allen(state, a) or k <= 0:
        return 0
    base = P0 + a * PB
    d = min(k, state[base + B_CURSES])
    state[base + B_CURSES] -= d
    state[base + B_CUBES_GONE] += d
    return d


@njit(cache=True)
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


@njit(cache=True)
def draw_map(state, rng, a, k):
    """Draw ``k`` map cards into ``a``'s hand, reshuffling the discards when the pile runs out."""
    got = 0
    for _ in range(k):
        if state[S_MDRAW_N] == 0 and reshuffle(state, rng, S_MDISC, S_MDISC_N, S_MDRAW, S_MDRAW_N, S_MLOC, M_DRAW) == 0:
            return got
        n = state[S_MDRAW_N] - 1
        m = state[S_MDRAW + n]
        state[S_MDRAW_N] = n
        state[S_MLOC + m] = M_HAND + a
        state[P0 + a * PB + B_HAND_N] += 1
        got += 1
    return got


@njit(cache=True)
def discard_map(state, m):
    """Put map card ``m`` (from a hand or a column) on the discard pile."""
    loc = state[S_MLOC + m]
    if M_HAND <= loc < M_COL:
        state[P0 + (loc - M_HAND) * PB + B_HAND_N] -= 1
    n = state[S_MDISC_N]
    state[S_MDISC + n] = m
    state[S_MDISC_N] = n + 1
    state[S_MLOC + m] = M_DISC


@njit(cache=True)
def reveal_treasures(state, rng, k, dest):
    """Reveal ``k`` treasures onto the reveal row (T_REVEAL) or event A2's row (T_A2).

    When the deck runs dry the discards are shuffled into a new deck; if that is still not enough
    the treasure deck is exhausted: ``S_DECKOUT`` is set (game end step 2 follows). Returns the
    number revealed.
    """
    got = 0
    for _ in range(k):
        if state[S_TDECK_N] == 0 and reshuffle(state, rng, S_TDISC, S_TDISC_N, S_TDECK, S_TDECK_N, S_TLOC, T_DECK) == 0:
            state[S_DECKOUT] = 1
            return got
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


@njit(cache=True)
def remove_from_row(state, row, row_n, t):
    n = state[row_n]
    for j in range(n):
        if state[row + j] == t:
            state[row + j] = state[row + n - 1]
            state[row + n - 1] = 0
            state[row_n] = n - 1
            return


@njit(cache=True)
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


@njit(cache=True)
def bury_treasure(state, cfg, a, t):
    """Discard treasure ``t`` just taken: up to 2 cubes go, plus 1 per amulet owned."""
    n = state[S_TDISC_N]
    state[S_TDISC + n] = t
    state[S_TDISC_N] = n + 1
    state[S_TLOC + t] = T_DISC
    base = P0 + a * PB
    state[base + B_TDISCARDED] += 1
    drop_curses(state, a, cfg[O.treasure_discard_cubes] + cfg[O.amulet_cubes] * state[base + B_TYPES + T_AMULET])


@njit(cache=True)
def allen_choice(state, cfg):
    """Allen takes the revealed treasure with the highest lower-left number."""
    best = -1
    for j in range(state[S_REVEAL_N]):
        t = state[S_REVEAL + j]
        if t > best:
            best = t
    return best


# ---------------------------------------------------------------------------------------------------
# asking a strategy
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def ask(state, cfg, seat_slot, fns, sp, rng, legal, seat, kind, n):
    """Let ``seat``'s strategy pick one of ``legal[:n]`` for a decision of ``kind``; returns the code."""
    state[S_DKIND] = kind
    state[S_TURN] = seat
    if n == 1:
        return legal[0]
    if n < 1:
        raise ValueError("a decision with no legal choice")
    slot = seat_slot[seat]
    i = fns[slot](state, cfg, seat, legal, n, sp[slot], rng)
    i = legal_index(i, n, seat, slot)
    return legal[i]


@njit(cache=True)
def set_ctx(state, a, b=0, c=0, d=0):
    state[S_DCTX] = a
    state[S_DCTX + 1] = b
    state[S_DCTX + 2] = c
    state[S_DCTX + 3] = d


@njit(cache=True)
def take_one(state, cfg, seat_slot, fns, sp, rng, legal, log, a, t, may_discard, source):
    """Actor ``a`` has taken treasure ``t``: keep it or discard it (Allen keeps crowns only)."""
    base = P0 + a * PB
    state[base + B_TAKEN] += 1
    if is_allen(state, a):
        keep = 1 if cfg[O.treasure_type + t] == T_CROWN else 0
    else:
        set_ctx(state, t, 1 if may_discard else 0)
        legal[0] = 1
        n = 1
        if may_discard:
            legal[1] = 0
            n = 2
        keep = ask(state, cfg, seat_slot, fns, sp, rng, legal, a, D_KEEP, n)
    if keep == 1:
        keep_treasure(state, cfg, a, t)
    else:
        bury_treasure(state, cfg, a, t)
    log_ev(state, log, EV_TAKE, a, t, keep, state[base + B_CURSES], source)


# ---------------------------------------------------------------------------------------------------
# setup and phase 1
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def setup(state, cfg, n_players, rng):
    """Board, decks, hands, healers, events, islets and player areas (seed 'game setup')."""
    state[:] = 0
    state[S_PLAYERS] = n_players
    allen = 1 if (n_players == 2 and cfg[O.allen]) else 0
    state[S_ALLEN] = allen
    state[S_EVENT] = -1
    corner = cfg[O.forced_ship]
    facing = cfg[O.forced_ship + 1]
    if corner < 0:
        corner = randint(rng, 4)
    if facing == 0:
        facing = 1 if (cfg[O.ship_facing] == FACING_CW or randint(rng, 2) == 0) else -1
    state[S_CORNER] = corner
    state[S_FACING] = facing
    # treasure deck: IV at the bottom, then III, II, I on top; each deck shuffled on its own
    used = cfg[O.treasure_decks + n_players - 2]
    for t in range(N_TREASURE):
        state[S_TLOC + t] = 0
    for d in range(4, 0, -1):
        if not (used >> (d - 1)) & 1:
            continue
        start = state[S_TDECK_N]
        for t in range(N_TREASURE):
            if cfg[O.treasure_deck + t] == d:
                state[S_TDECK + state[S_TDECK_N]] = t
                state[S_TDECK_N] += 1
                state[S_TLOC + t] = T_DECK
        k = state[S_TDECK_N] - start
        shuffle(rng, state[S_TDECK + start:S_TDECK + start + k], k)
    # map deck
    for m in range(N_MAP):
        state[S_MDRAW + m] = m
        state[S_MLOC + m] = M_DRAW
    state[S_MDRAW_N] = N_MAP
    shuffle(rng, state[S_MDRAW:S_MDRAW + N_MAP], N_MAP)
    # landings
    for landing in range(8):
        state[lb(landing) + L_COLOUR] = -1
    # healers: as many as players, face down (or up in variant 1)
    pool = np.arange(N_HEALER)
    for i in range(n_players):
        j = i + randint(rng, N_HEALER - i)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
        state[S_HEALERS + i] = pool[i]
        state[S_HEALER_OWNER + i] = -1
    for i in range(n_players, 5):
        state[S_HEALERS + i] = -1
        state[S_HEALER_OWNER + i] = -1
    # events: one A face up over four random B (forced_events may fix any round)
    for r in range(5):
        state[S_EVENT_SEQ + r] = -1
    if cfg[O.events_enabled]:
        taken = 0
        for r in range(5):
            f = cfg[O.forced_events + r]
            if f > 0:
                state[S_EVENT_SEQ + r] = f - 1
                taken |= 1 << (f - 1)
        for r in range(5):
            if state[S_EVENT_SEQ + r] >= 0:
                continue
            lo = 0 if r == 0 else 4
            hi = 4 if r == 0 else 18
            k = 0
            for e in range(lo, hi):
                if cfg[O.event_pool + e] and not (taken >> e) & 1:
                    k += 1
            if k == 0:  # every event of this kind left out or used: no event this round
                continue
            pick = randint(rng, k)
            for e in range(lo, hi):
                if cfg[O.event_pool + e] and not (taken >> e) & 1:
                    if pick == 0:
                        state[S_EVENT_SEQ + r] = e
                        taken |= 1 << e
                        break
                    pick -= 1
    # islets
    for i in range(N_ISLET):
        state[S_ISLET + i] = ISLET_UP if n_players >= cfg[O.islet_min_players + i] else ISLET_OUT
    # players (and Allen)
    for a in range(n_players + allen):
        base = P0 + a * PB
        state[base + B_SUPPLY] = cfg[O.compasses]
        state[base + B_HEALER] = -1
        state[base + B_PASS_ROUND1] = -1
        if a < n_players:
            state[base + B_CURSES] = cfg[O.start_curses]
    state[S_START] = 0
    state[S_ROUND] = 1


@njit(cache=True)
def deal_hands(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Deal the start hands (start-hand variant: later seats get more and discard down)."""
    n = state[S_PLAYERS]
    size = hand_target(state, cfg)
    for k in range(n):
        p = (state[S_START] + k) % n
        extra = k * cfg[O.start_hand_extra] if cfg[O.start_hand_variant] else 0
        draw_map(state, rng, p, size + extra)
        while state[P0 + p * PB + B_HAND_N] > size:
            set_ctx(state, 1)
            m = hand_choices(state, p, legal, False)
            code = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_DISCARD, m)
            discard_map(state, code)
    if state[S_ALLEN]:
        draw_map(state, rng, n, cfg[O.allen_hand])


@njit(cache=True)
def hand_choices(state, a, legal, with_stop):
    n = 0
    for m in range(N_MAP):
        if state[S_MLOC + m] == M_HAND + a:
            legal[n] = m
            n += 1
    if with_stop:
        legal[n] = STOP
        n += 1
    return n


@njit(cache=True)
def start_event(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Reveal this round's event and carry out its immediate part (A1, A2, B1, B2, B3)."""
    r = state[S_ROUND]
    e = state[S_EVENT_SEQ + r - 1]
    state[S_EVENT] = e
    if e < 0:
        return
    state[S_EVENTS_SEEN] |= 1 << e
    log_ev(state, log, EV_EVENT, e, r)
    n = state[S_PLAYERS]
    if e == EV_A1:
        for k in range(n):
            p = (state[S_START] + k) % n
            legal[0] = 0
            legal[1] = 1
            set_ctx(state, 0)
            if ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_A1, 2) == 1:
                draw_map(state, rng, p, 2)
                take_curses(state, p, 2)
                state[P0 + p * PB + B_A1] = 1
                log_ev(state, log, EV_A1_DRAW, p)
    elif e == EV_A2:
        k = n + (1 if (state[S_ALLEN] and cfg[O.a2_count_allen]) else 0)
        reveal_treasures(state, rng, k, T_A2)
        for j in range(state[S_A2_N]):
            log_ev(state, log, EV_A2_REVEAL, state[S_A2 + j])
    elif e == EV_B1:
        move_ship(state, log, SHIP_B1)
    elif e == EV_B2:
        state[S_FACING] = -state[S_FACING]
        log_ev(state, log, EV_SHIP, state[S_CORNER], state[S_FACING], SHIP_B2, current_coast(state))
    elif e == EV_B3:
        k = 0
        for i in range(N_ISLET):
            if state[S_ISLET + i] == ISLET_UP:
                k += 1
        if k > 0:
            pick = randint(rng, k)
            for i in range(N_ISLET):
                if state[S_ISLET + i] == ISLET_UP:
                    if pick == 0:
                        state[S_ISLET + i] = ISLET_DOWN
                        log_ev(state, log, EV_ISLET_FLIP, i)
                        break
                    pick -= 1


@njit(cache=True)
def phase1(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Preparation: ship moves, islets turn face up, next event, discard and refill hands."""
    state[S_PHASE] = PH_PREP
    move_ship(state, log, SHIP_PHASE1)
    for i in range(N_ISLET):
        if state[S_ISLET + i] == ISLET_DOWN:
            state[S_ISLET + i] = ISLET_UP
    start_event(state, cfg, seat_slot, fns, sp, rng, legal, log)
    fewer = 1 if state[S_EVENT] == EV_B5 else 0
    n = state[S_PLAYERS]
    size = hand_target(state, cfg) - fewer
    for k in range(n):
        p = (state[S_START] + k) % n
        gone = 0
        while True:
            set_ctx(state, 0)
            m = hand_choices(state, p, legal, True)
            code = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_DISCARD, m)
            if code == STOP:
                break
            discard_map(state, code)
            gone += 1
        need = size - state[P0 + p * PB + B_HAND_N]
        got = draw_map(state, rng, p, need) if need > 0 else 0
        log_ev(state, log, EV_REFILL, p, gone, got)
    if state[S_ALLEN]:
        a = n
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + a:
                discard_map(state, m)
        draw_map(state, rng, a, cfg[O.allen_hand] - fewer)
        log_ev(state, log, EV_REFILL, a, -1, state[P0 + a * PB + B_HAND_N])


# ---------------------------------------------------------------------------------------------------
# phase 2: playing map cards
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def last_is_one(state, cfg, landing):
    """Is the column empty or does it end in a 1 (placing a 1 normally)?"""
    base = lb(landing)
    n = state[base + L_N]
    if n == 0:
        return True
    if state[base + L_LAST] != 1:
        return False
    last = state[base + L_CARDS + n - 1]
    return card_value(cfg, last) == 1 or cfg[O.wild_one_is_one]


@njit(cache=True)
def eligible(state, cfg, landing, m):
    """May map card ``m`` be part of a play on ``landing`` (colour aside)?"""
    v = card_value(cfg, m)
    return v == 0 or v == 1 or v >= state[lb(landing) + L_LAST]


@njit(cache=True)
def colour_ok(state, landing, c):
    col = state[lb(landing) + L_COLOUR]
    if col >= 0:
        return col == c
    return state[lb(landing ^ 1) + L_COLOUR] != c


@njit(cache=True)
def action_choices(state, cfg, p, legal):
    """The phase-2 turn options of seat ``p`` (own cards, and Allen's cards in the 2-player game)."""
    n = 0
    legal[n] = PASS
    n += 1
    if state[S_MUST_PASS]:
        return n
    e = event_now(state, cfg)
    owners = 2 if state[S_ALLEN] else 1
    low = np.zeros(4, dtype=np.int64)       # per colour: has a 1 or a wild
    top = np.zeros(4, dtype=np.int64)       # per colour: highest numbered value
    cnt = np.zeros(4, dtype=np.int64)
    for o in range(owners):
        h = p if o == 0 else state[S_PLAYERS]
        low[:] = 0
        top[:] = 0
        cnt[:] = 0
        total = 0
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + h:
                c = m // PER_COLOUR
                v = card_value(cfg, m)
                cnt[c] += 1
                total += 1
                if v <= 1:
                    low[c] = 1
                elif v > top[c]:
                    top[c] = v
        if total == 0:
            continue
        base_play = PLAY_OWN if o == 0 else PLAY_ALLEN
        for landing in range(8):
            last = state[lb(landing) + L_LAST]
            for c in range(4):
                if cnt[c] == 0 or not colour_ok(state, landing, c):
                    continue
                if low[c] or top[c] >= last:
                    legal[n] = base_play + landing * 4 + c
                    n += 1
        base_islet = ISLET_OWN if o == 0 else ISLET_ALLEN
        need = 1 if e == EV_B9 else 2
        extra = 1 if e == EV_B7 else 0
        for i in range(N_ISLET):
            if state[S_ISLET + i] != ISLET_UP:
                continue
            for c in range(4):
                if cnt[c] >= need and total >= need + extra:
                    legal[n] = base_islet + i * 4 + c
                    n += 1
    return n


@njit(cache=True)
def place_compass(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, landing, reason):
    """Put ``h``'s compass on top at ``landing``: from the supply, else moved from another landing."""
    base = P0 + h * PB
    limit_ok = event_now(state, cfg) != EV_B4 or on_island(state, cfg, h) < 2
    if state[base + B_SUPPLY] > 0 and limit_ok:
        state[base + B_SUPPLY] -= 1
        push_compass(state, landing, h)
        log_ev(state, log, EV_COMPASS, h, landing, SUPPLY, reason)
        return
    n = 0
    for l2 in range(8):
        if l2 != landing and compass_pos(state, l2, h) >= 0:
            legal[n] = l2
            n += 1
    set_ctx(state, landing, 1 if is_allen(state, h) else 0)
    src = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_SOURCE, n)
    pull_compass(state, src, h)
    push_compass(state, landing, h)
    log_ev(state, log, EV_COMPASS, h, landing, src, reason)


@njit(cache=True)
def everyone_curse(state, log):
    """A 1 placed normally: every player (on the landing or not, passed or not) takes a cube."""
    for q in range(state[S_PLAYERS]):
        take_curses(state, q, 1)
    log_ev(state, log, EV_EFFECT, FX_ONE_CURSE, -1, 1)


@njit(cache=True)
def discard_amount(state, cfg):
    return 2 if event_now(state, cfg) == EV_B6 else 1


@njit(cache=True)
def landing_effect(state, cfg, rng, log, landing, sym):
    """A played card's draw or discard symbol: every human with a compass there gets it."""
    base = lb(landing)
    for k in range(state[base + L_NCOMP]):
        q = state[base + L_COMP + k]
        if is_allen(state, q):
            continue
        if sym == SYM_DRAW:
            got = draw_map(state, rng, q, 1)
            log_ev(state, log, EV_EFFECT, FX_DRAW, q, got)
        else:
            d = drop_curses(state, q, discard_amount(state, cfg))
            log_ev(state, log, EV_EFFECT, FX_DISCARD, q, d)


@njit(cache=True)
def put_card(state, cfg, landing, m, front):
    """Move card ``m`` from its hand into the column (at the front or the end) and update counts."""
    base = lb(landing)
    loc = state[S_MLOC + m]
    state[P0 + (loc - M_HAND) * PB + B_HAND_N] -= 1
    n = state[base + L_N]
    if front:
        for j in range(n, 0, -1):
            state[base + L_CARDS + j] = state[base + L_CARDS + j - 1]
        state[base + L_CARDS] = m
    else:
        state[base + L_CARDS + n] = m
        v = card_value(cfg, m)
        if v == 0:
            v = state[base + L_LAST] if n > 0 else 1
        state[base + L_LAST] = v
    state[base + L_N] = n + 1
    sym = card_symbol(cfg, m)
    state[base + L_COUNT] += 2 if sym == SYM_DOUBLE else 1
    if sym == SYM_CHEST:
        state[base + L_CHESTS] += 1
    state[base + L_COLOUR] = m // PER_COLOUR
    state[S_MLOC + m] = M_COL + landing


@njit(cache=True)
def copy_choices(state, cfg, landing, legal):
    """What a 1 placed at the front may copy: COPY_SKIP and each effect present in the column."""
    base = lb(landing)
    has_draw = False
    has_disc = False
    for j in range(state[base + L_N]):
        m = state[base + L_CARDS + j]
        v = card_value(cfg, m)
        if v <= 1:  # a wild has no effect of its own; a 1 has none to copy
            continue
        s = card_symbol(cfg, m)
        if s == SYM_DRAW:
            has_draw = True
        elif s == SYM_DISCARD:
            has_disc = True
    n = 0
    legal[n] = COPY_SKIP
    n += 1
    if has_draw:
        legal[n] = SYM_DRAW
        n += 1
    if has_disc:
        legal[n] = SYM_DISCARD
        n += 1
    return n


@njit(cache=True)
def place_one_card(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, landing, m):
    """Place one card of a play and carry out its effect (the two placements of a 1 included)."""
    v = card_value(cfg, m)
    if v == 1 and not last_is_one(state, cfg, landing):
        put_card(state, cfg, landing, m, True)
        log_ev(state, log, EV_CARD, h, landing, m, 1, 1)
        if is_allen(state, h) and cfg[O.one_copy_allen] != COPY_ACTOR:
            return
        n = copy_choices(state, cfg, landing, legal)
        if n == 1:
            return
        set_ctx(state, landing, 1 if is_allen(state, h) else 0)
        sym = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_COPY, n)
        if sym == SYM_DRAW:
            got = draw_map(state, rng, p, 1)
            log_ev(state, log, EV_EFFECT, FX_COPY_DRAW, p, got)
        elif sym == SYM_DISCARD:
            d = drop_curses(state, p, discard_amount(state, cfg))
            log_ev(state, log, EV_EFFECT, FX_COPY_DISCARD, p, d)
        return
    put_card(state, cfg, landing, m, False)
    log_ev(state, log, EV_CARD, h, landing, m, 0, state[lb(landing) + L_LAST])
    if v == 1:
        everyone_curse(state, log)
        return
    if v == 0:
        return
    s = card_symbol(cfg, m)
    if s == SYM_DRAW or s == SYM_DISCARD:
        landing_effect(state, cfg, rng, log, landing, s)


@njit(cache=True)
def play_cards(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, landing, c):
    """Seat ``p`` plays cards of colour ``c`` from ``h``'s hand (``h`` = p, or Allen) to ``landing``."""
    if compass_pos(state, landing, h) < 0:
        place_compass(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, landing, CW_PLAY)
    state[S_STAGE_N] = 0
    while True:  # choose the cards one at a time; the set goes down in ascending order
        n = 0
        for m in range(c * PER_COLOUR, (c + 1) * PER_COLOUR):
            if state[S_MLOC + m] != M_HAND + h or not eligible(state, cfg, landing, m):
                continue
            staged = False
            for j in range(state[S_STAGE_N]):
                if state[S_STAGE + j] == m:
                    staged = True
            if not staged:
                legal[n] = m
                n += 1
        if state[S_STAGE_N] > 0:
            legal[n] = STOP
            n += 1
        if n == 0:
            break
        set_ctx(state, landing, c, 1 if is_allen(state, h) else 0, state[S_STAGE_N])
        code = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_CARD, n)
        if code == STOP:
            break
        state[S_STAGE + state[S_STAGE_N]] = code
        state[S_STAGE_N] += 1
    k = state[S_STAGE_N]
    order = np.empty(k, dtype=np.int64)
    for j in range(k):  # numbered cards ascending, wilds last
        m = state[S_STAGE + j]
        v = card_value(cfg, m)
        order[j] = (v if v > 0 else 11) * 256 + m
    order.sort()
    log_ev(state, log, EV_PLAY, p, h, landing, c, k)
    for j in range(k):
        place_one_card(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, landing, order[j] % 256)
    state[P0 + h * PB + B_PLAYED] += k
    if is_allen(state, h):
        state[P0 + p * PB + B_ALLEN_USES] += 1
    state[S_STAGE_N] = 0


@njit(cache=True)
def use_islet(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, i, c):
    """Seat ``p`` pays with ``h``'s cards, flips islet ``i`` and may carry out its action."""
    e = event_now(state, cfg)
    allen = is_allen(state, h)
    need = 1 if e == EV_B9 else 2
    for k in range(need + (1 if e == EV_B7 else 0)):
        colour = c if k < need else -1
        n = 0
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + h and (colour < 0 or m // PER_COLOUR == colour):
                legal[n] = m
                n += 1
        set_ctx(state, i, colour, 1 if allen else 0)
        m = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_PAY, n)
        discard_map(state, m)
    if e == EV_A3:
        if not allen:
            take_curses(state, p, 1)
            log_ev(state, log, EV_EFFECT, FX_A3, p, 1)
        elif cfg[O.a3_with_allen] == A3_ACTOR:
            take_curses(state, p, 1)
            log_ev(state, log, EV_EFFECT, FX_A3, p, 1)
    state[S_ISLET + i] = ISLET_DOWN
    state[S_ISLETS_USED] |= 1 << i
    if allen:
        state[P0 + p * PB + B_ALLEN_USES] += 1
    else:
        state[P0 + p * PB + B_ISLETS] += 1
    action = cfg[O.islet_action + i]
    value = cfg[O.islet_value + i]
    log_ev(state, log, EV_ISLET, p, h, i, action, value)
    result = 0
    if action == I_DISCARD:
        result = drop_curses(state, h, value)
    elif action == I_DRAW2:
        if not allen:  # Allen never draws in phase 2
            result = draw_map(state, rng, h, value)
    elif action == I_BOTTOM or action == I_MOVE:
        n = 0
        for landing in range(8):
            has = compass_pos(state, landing, h) >= 0
            if (action == I_BOTTOM) == has:
                legal[n] = landing
                n += 1
        can_move = True
        if action == I_MOVE:  # is there a compass to move?
            sup = cfg[O.islet_move_from_supply] and state[P0 + h * PB + B_SUPPLY] > 0 and (
                e != EV_B4 or on_island(state, cfg, h) < 2)
            can_move = sup or on_island(state, cfg, h) > 0
        if not can_move:
            n = 0
        legal[n] = SKIP
        n += 1
        set_ctx(state, i, action, 1 if allen else 0)
        target = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_TARGET, n)
        result = target
        if target != SKIP:
            if action == I_BOTTOM:
                top = e == EV_B13
                compass_to_end(state, target, h, top)
                log_ev(state, log, EV_COMPASS, h, target, target, CW_TOP if top else CW_BOTTOM)
            else:
                base = P0 + h * PB
                n = 0
                if cfg[O.islet_move_from_supply] and state[base + B_SUPPLY] > 0 and (
                        e != EV_B4 or on_island(state, cfg, h) < 2):
                    legal[n] = SUPPLY
                    n += 1
                for l2 in range(8):
                    if compass_pos(state, l2, h) >= 0:
                        legal[n] = l2
                        n += 1
                set_ctx(state, target, 1 if allen else 0)
                src = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_SOURCE, n)
                if src == SUPPLY:
                    state[base + B_SUPPLY] -= 1
                else:
                    pull_compass(state, src, h)
                push_compass(state, target, h)
                log_ev(state, log, EV_COMPASS, h, target, src, CW_ISLET_MOVE)
    else:  # I_TREASURE or I_SHIP: carry it out or not
        legal[0] = 1
        legal[1] = 0
        set_ctx(state, i, action, 1 if allen else 0)
        result = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_DO, 2)
        if result == 1:
            if action == I_SHIP:
                move_ship(state, log, SHIP_ISLET)
            else:
                take_curses(state, h, value)
                got = reveal_treasures(state, rng, 1, T_REVEAL)
                if got == 1:
                    t = state[S_REVEAL]
                    state[S_REVEAL_N] = 0
                    state[S_REVEAL] = 0
                    take_one(state, cfg, seat_slot, fns, sp, rng, legal, log, h, t, True, TAKE_ISLET)
    log_ev(state, log, EV_ISLET_RESULT, h, action, result)
    if e == EV_B9:
        state[S_MUST_PASS] = 1


@njit(cache=True)
def do_pass(state, cfg, seat_slot, fns, sp, rng, legal, log, p, order):
    """Seat ``p`` passes: the first passer takes the start tile (B8: the others take 2 cubes);
    under A2 the passer must take and keep one of the face-up treasures."""
    base = P0 + p * PB
    state[base + B_PASSED] = 1
    state[S_MUST_PASS] = 0
    took = 1 if state[S_FIRST_PASSED] == 0 else 0
    log_ev(state, log, EV_PASS, p, took, state[base + B_HAND_N])
    if took:
        state[S_FIRST_PASSED] = 1
        state[S_START] = p
        state[base + B_START_TAKEN] += 1
        if event_now(state, cfg) == EV_B8:
            for q in range(state[S_PLAYERS]):
                if q != p:
                    take_curses(state, q, 2)
            log_ev(state, log, EV_EFFECT, FX_B8, p, 2)
    if state[S_ROUND] == 1:
        state[base + B_PASS_ROUND1] = order
    if event_now(state, cfg) == EV_A2 and state[S_A2_N] > 0:
        n = 0
        for j in range(state[S_A2_N]):
            legal[n] = state[S_A2 + j]
            n += 1
        set_ctx(state, 0)
        t = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_A2, n)
        remove_from_row(state, S_A2, S_A2_N, t)
        state[base + B_TAKEN] += 1
        keep_treasure(state, cfg, p, t)
        log_ev(state, log, EV_TAKE, p, t, 1, state[base + B_CURSES], TAKE_A2)


@njit(cache=True)
def b4_returns(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Event B4: anyone with 3 compasses on the island takes one back (Allen's by the start player)."""
    n = state[S_PLAYERS]
    for k in range(n_actors(state)):
        a = (state[S_START] + k) % n if k < n else n
        while on_island(state, cfg, a) > 2:
            m = 0
            for landing in range(8):
                if compass_pos(state, landing, a) >= 0:
                    legal[m] = landing
                    m += 1
            set_ctx(state, a)
            decider = a if a < n else state[S_START]
            landing = ask(state, cfg, seat_slot, fns, sp, rng, legal, decider, D_B4, m)
            pull_compass(state, landing, a)
            state[P0 + a * PB + B_SUPPLY] += 1
            log_ev(state, log, EV_COMPASS, a, landing, -1, CW_B4)


@njit(cache=True)
def phase2(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Actions: from the start player clockwise until everyone has passed."""
    state[S_PHASE] = PH_ACTION
    n = state[S_PLAYERS]
    state[S_FIRST_PASSED] = 0
    state[S_MUST_PASS] = 0
    for p in range(n):
        state[P0 + p * PB + B_PASSED] = 0
    if event_now(state, cfg) == EV_B4:
        b4_returns(state, cfg, seat_slot, fns, sp, rng, legal, log)
    first = state[S_START]
    passed = 0
    turns = 0
    k = 0
    while passed < n:
        p = (first + k) % n
        k += 1
        if state[P0 + p * PB + B_PASSED]:
            continue
        turns += 1
        if turns > 10000:
            raise ValueError("phase 2 does not end")
        state[S_TURNS] += 1
        while True:  # one turn (B9: the islet user passes right after)
            m = action_choices(state, cfg, p, legal)
            set_ctx(state, 0)
            code = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_ACTION, m)
            if code == PASS:
                do_pass(state, cfg, seat_slot, fns, sp, rng, legal, log, p, passed)
                passed += 1
                break
            h = p if (code < PLAY_ALLEN or (ISLET_OWN <= code < ISLET_ALLEN)) else n
            if code < ISLET_OWN:
                x = (code - PLAY_OWN) % 100
                play_cards(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, x // 4, x % 4)
            else:
                x = (code - ISLET_OWN) % 100
                use_islet(state, cfg, seat_slot, fns, sp, rng, legal, log, p, h, x // 4, x % 4)
            if cfg[O.debug_checks]:
                err = check_invariants(state, cfg)
                if err != 0:
                    raise ValueError("invariant broken in phase 2")
            if state[S_DECKOUT]:
                return
            if not state[S_MUST_PASS]:
                break


# ---------------------------------------------------------------------------------------------------
# phase 3: finding loot
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def distribute(state, cfg, seat_slot, fns, sp, rng, legal, log, landing, big):
    """Hand out the revealed treasures in compass order (bottom first; B13 top first)."""
    base = lb(landing)
    nc = state[base + L_NCOMP]
    reverse = event_now(state, cfg) == EV_B13
    got_any = np.zeros(6, dtype=np.int64)
    while state[S_REVEAL_N] > 0:
        for k in range(nc):
            if state[S_REVEAL_N] == 0:
                break
            a = state[base + L_COMP + (nc - 1 - k if reverse else k)]
            if is_allen(state, a):
                t = allen_choice(state, cfg)
            else:
                n = 0
                for j in range(state[S_REVEAL_N]):
                    legal[n] = state[S_REVEAL + j]
                    n += 1
                set_ctx(state, landing, 1 if big else 0)
                t = ask(state, cfg, seat_slot, fns, sp, rng, legal, a, D_PICK, n)
            remove_from_row(state, S_REVEAL, S_REVEAL_N, t)
            got_any[a] = 1
            take_one(state, cfg, seat_slot, fns, sp, rng, legal, log, a, t, True, TAKE_LOOT)
        if nc == 0:  # nobody to take them (cannot happen with compasses; kept safe)
            while state[S_REVEAL_N] > 0:
                t = state[S_REVEAL]
                remove_from_row(state, S_REVEAL, S_REVEAL_N, t)
                n = state[S_TDISC_N]
                state[S_TDISC + n] = t
                state[S_TDISC_N] = n + 1
                state[S_TLOC + t] = T_DISC
    for a in range(6):
        if got_any[a]:
            state[P0 + a * PB + B_LOOT_TURNS] += 1


@njit(cache=True)
def explore_landing(state, cfg, seat_slot, fns, sp, rng, legal, log, landing, big):
    """Reveal and hand out a big or small loot; returns False when the treasure deck ran dry."""
    e = event_now(state, cfg)
    base = lb(landing)
    k = state[base + L_CHESTS]
    if big:
        k += state[base + L_NCOMP]
        if e == EV_A4:
            k -= 1
    elif e == EV_A4:
        k += 1
    if e == EV_B11:
        k -= 1
    if k < 0:
        k = 0
    got = reveal_treasures(state, rng, k, T_REVEAL)
    log_ev(state, log, EV_EXPLORE, landing, 1 if big else 2, state[base + L_COUNT], state[base + L_CHESTS],
           state[base + L_NCOMP], got)
    if state[S_DECKOUT]:
        log_ev(state, log, EV_DECKOUT, got)
        if not cfg[O.deck_out_distribute]:
            return False
    distribute(state, cfg, seat_slot, fns, sp, rng, legal, log, landing, big)
    if not big and e == EV_B10:
        for j in range(state[base + L_NCOMP]):
            a = state[base + L_COMP + j]
            if not is_allen(state, a):
                d = drop_curses(state, a, 2)
                log_ev(state, log, EV_B10_DISCARD, a, d)
    return state[S_DECKOUT] == 0


@njit(cache=True)
def clean_landing(state, landing):
    """Compasses go back to their owners, the column's cards to the discard pile."""
    base = lb(landing)
    for k in range(state[base + L_NCOMP]):
        a = state[base + L_COMP + k]
        state[P0 + a * PB + B_SUPPLY] += 1
        state[base + L_COMP + k] = 0
    state[base + L_NCOMP] = 0
    for j in range(state[base + L_N]):
        discard_map(state, state[base + L_CARDS + j])
        state[base + L_CARDS + j] = 0
    state[base + L_N] = 0
    state[base + L_COUNT] = 0
    state[base + L_CHESTS] = 0
    state[base + L_LAST] = 0
    state[base + L_COLOUR] = -1


@njit(cache=True)
def explore_coast(state, cfg, seat_slot, fns, sp, rng, legal, log, coast):
    """Phase 3 on one coast: big loot at the landing with more cards (B12: fewer), then small loot."""
    need = cards_needed(cfg, state[S_PLAYERS])
    la = near_landing(state, coast)
    lb_ = la ^ 1
    ca = state[lb(la) + L_COUNT]
    cb = state[lb(lb_) + L_COUNT]
    qa = ca >= need
    qb = cb >= need
    ok = True
    if qa or qb:
        big = la
        if qa and qb:
            if event_now(state, cfg) == EV_B12:
                big = lb_ if cb < ca else la
            else:
                big = lb_ if cb > ca else la
        elif qb:
            big = lb_
        small = big ^ 1
        ok = explore_landing(state, cfg, seat_slot, fns, sp, rng, legal, log, big, True)
        if ok and state[lb(small) + L_COUNT] >= need:
            ok = explore_landing(state, cfg, seat_slot, fns, sp, rng, legal, log, small, False)
        elif ok:
            log_ev(state, log, EV_EXPLORE, small, 0, state[lb(small) + L_COUNT], 0, 0, 0)
    else:
        log_ev(state, log, EV_EXPLORE, la, 0, ca, 0, 0, 0)
        log_ev(state, log, EV_EXPLORE, lb_, 0, cb, 0, 0, 0)
    clean_landing(state, la)
    clean_landing(state, lb_)
    log_ev(state, log, EV_CLEANUP, coast)
    return ok


@njit(cache=True)
def phase3(state, cfg, seat_slot, fns, sp, rng, legal, log):
    state[S_PHASE] = PH_LOOT
    coast = current_coast(state)
    ok = explore_coast(state, cfg, seat_slot, fns, sp, rng, legal, log, coast)
    if ok and event_now(state, cfg) == EV_B14:
        ok = explore_coast(state, cfg, seat_slot, fns, sp, rng, legal, log, (coast + state[S_FACING] + 4) % 4)
    return ok


@njit(cache=True)
def final_exploration(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """After round 5: every remaining landing, from the one nearest the bow in the ship's direction,
    is a small loot if it holds enough cards."""
    state[S_PHASE] = PH_FINAL
    log_ev(state, log, EV_FINAL)
    need = cards_needed(cfg, state[S_PLAYERS])
    first = near_landing(state, current_coast(state))
    step = 1 if state[S_FACING] > 0 else -1
    for k in range(8):
        landing = (first + step * k + 8) % 8
        state[S_LANDING_DONE] |= 1 << landing
        if state[lb(landing) + L_COUNT] >= need:
            if not explore_landing(state, cfg, seat_slot, fns, sp, rng, legal, log, landing, False):
                return False
        clean_landing(state, landing)
    return True


# ---------------------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def _sort_desc(a, n):
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] < x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def book_value(cfg, ids, n):
    """Best pairing of books with other treasures' curse numbers (each used once, no book-book)."""
    mult = np.zeros(n + 1, dtype=np.int64)
    curse = np.zeros(n + 1, dtype=np.int64)
    nb = 0
    nc = 0
    for j in range(n):
        t = ids[j]
        if cfg[O.treasure_type + t] == T_BOOK:
            mult[nb] = cfg[O.treasure_book + t]
            nb += 1
        else:
            curse[nc] = cfg[O.treasure_curse + t]
            nc += 1
    _sort_desc(mult, nb)
    _sort_desc(curse, nc)
    total = 0
    for j in range(min(nb, nc)):
        total += mult[j] * curse[j]
    return total


@njit(cache=True)
def jewel_bonus(cfg, k):
    """Best split of ``k`` jewels into sets of 2 and 3."""
    best = 0
    for t3 in range(k // 3 + 1):
        rest = k - 3 * t3
        for t2 in range(rest // 2 + 1):
            v = t3 * cfg[O.jewel_bonus + 1] + t2 * cfg[O.jewel_bonus]
            if v > best:
                best = v
    return best


@njit(cache=True)
def skull_bonus(cfg, k1, k2, k3, others):
    """Best split of skulls of three kinds into sets of distinct kinds, times other types owned."""
    b1 = cfg[O.skull_bonus]
    b2 = cfg[O.skull_bonus + 1]
    b3 = cfg[O.skull_bonus + 2]
    best = 0
    for s3 in range(min(k1, min(k2, k3)) + 1):
        r1 = k1 - s3
        r2 = k2 - s3
        r3 = k3 - s3
        for s12 in range(min(r1, r2) + 1):
            for s13 in range(min(r1 - s12, r3) + 1):
                for s23 in range(min(r2 - s12, r3 - s13) + 1):
                    singles = (r1 - s12 - s13) + (r2 - s12 - s23) + (r3 - s13 - s23)
                    v = s3 * b3 + (s12 + s13 + s23) * b2 + singles * b1
                    if v > best:
                        best = v
    return best * others


@njit(cache=True)
def treasure_value(cfg, ids, n, parts):
    """Gold of a set of kept treasures, without crown places and start tile.

    ``parts[0..5]`` receive gold by type (amulet, money, book, jewel, crown base, skull)."""
    types = np.zeros(6, dtype=np.int64)
    kinds = np.zeros(4, dtype=np.int64)
    for j in range(6):
        parts[j] = 0
    for j in range(n):
        t = ids[j]
        ty = cfg[O.treasure_type + t]
        types[ty] += 1
        parts[ty] += cfg[O.treasure_gold + t]
        if ty == T_SKULL:
            kinds[cfg[O.treasure_skull + t]] += 1
    parts[T_BOOK] += book_value(cfg, ids, n)
    parts[T_JEWEL] += jewel_bonus(cfg, types[T_JEWEL])
    others = 0
    for ty in range(5):
        if types[ty] > 0:
            others += 1
    if types[T_SKULL] > 0:
        parts[T_SKULL] += skull_bonus(cfg, kinds[1], kinds[2], kinds[3], others)
    total = 0
    for j in range(6):
        total += parts[j]
    return total


@njit(cache=True)
def crown_prizes(cfg, crosses, active, n, prize):
    """Crown places among the ``active`` entries: ties share the places' prizes, rounded down;
    0 crosses get nothing."""
    for j in range(n):
        prize[j] = 0
    for j in range(n):
        if not active[j] or crosses[j] <= 0:
            continue
        better = 0
        tied = 0
        for q in range(n):
            if not active[q]:
                continue
            if crosses[q] > crosses[j]:
                better += 1
            elif crosses[q] == crosses[j]:
                tied += 1
        s = 0
        for place in range(better, better + tied):
            if place < 6:
                s += cfg[O.crown_prizes + place]
        prize[j] = s // tied


@njit(cache=True)
def healer_fee(cfg, h, cubes):
    return cfg[O.healer_per_cube + h] * cubes + cfg[O.healer_fixed + h]


@njit(cache=True)
def kept_ids(state, a, ids):
    n = 0
    for t in range(N_TREASURE):
        if state[S_TLOC + t] == T_KEPT + a:
            ids[n] = t
            n += 1
    return n


@njit(cache=True)
def final_scoring(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """End steps 2-4: curse elimination, healer choice, treasure value, fee (elimination below 0)."""
    state[S_PHASE] = PH_END
    n = state[S_PLAYERS]
    start = state[S_START]
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_CURSES] >= cfg[O.curse_threshold]:
            state[base + B_ELIM] = ELIM_CURSES
            log_ev(state, log, EV_ELIM, p, ELIM_CURSES, state[base + B_CURSES])
    # healers: fewest cubes first, ties by nearness to the start player clockwise
    order = np.empty(n, dtype=np.int64)
    m = 0
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_ELIM] == ELIM_NONE and state[base + B_CURSES] > 0:
            order[m] = state[base + B_CURSES] * 16 + (p - start + n) % n
            m += 1
    sub = order[:m]
    sub.sort()
    for j in range(m):
        p = (sub[j] % 16 + start) % n
        k = 0
        for i in range(n):
            if state[S_HEALER_OWNER + i] < 0:
                legal[k] = state[S_HEALERS + i]
                k += 1
        set_ctx(state, 0)
        h = ask(state, cfg, seat_slot, fns, sp, rng, legal, p, D_HEALER, k)
        for i in range(n):
            if state[S_HEALERS + i] == h:
                state[S_HEALER_OWNER + i] = p
        state[P0 + p * PB + B_HEALER] = h
        fee = healer_fee(cfg, h, state[P0 + p * PB + B_CURSES])
        state[P0 + p * PB + B_FEE] = fee
        log_ev(state, log, EV_HEALER, p, h, fee, state[P0 + p * PB + B_CURSES])
    # crowns: every player still in (and Allen)
    na = n_actors(state)
    crosses = np.zeros(6, dtype=np.int64)
    active = np.zeros(6, dtype=np.int64)
    prize = np.zeros(6, dtype=np.int64)
    for a in range(na):
        crosses[a] = state[P0 + a * PB + B_CROSSES]
        active[a] = 1 if state[P0 + a * PB + B_ELIM] == ELIM_NONE else 0
    crown_prizes(cfg, crosses, active, na, prize)
    log_ev(state, log, EV_CROWNS, crosses[0], crosses[1], crosses[2], crosses[3], crosses[4], prize[0], prize[1])
    ids = np.zeros(N_TREASURE, dtype=np.int64)
    parts = np.zeros(6, dtype=np.int64)
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_ELIM] != ELIM_NONE:
            continue
        k = kept_ids(state, p, ids)
        treasure_value(cfg, ids, k, parts)
        parts[T_CROWN] += prize[p]
        total = 0
        for j in range(6):
            state[base + B_GOLD + j] = parts[j]
            total += parts[j]
        st = cfg[O.start_tile_bonus] if state[S_START] == p else 0
        state[base + B_GOLD + 6] = st
        total += st
        state[base + B_GROSS] = total
        state[base + B_NET] = total - state[base + B_FEE]
        if state[base + B_NET] < 0:
            state[base + B_ELIM] = ELIM_FEE
            log_ev(state, log, EV_ELIM, p, ELIM_FEE, state[base + B_NET])


# ---------------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def check_invariants(state, cfg):
    """0 when every map card and treasure is in exactly one place, compasses are conserved, cubes
    are non-negative, columns are consistent and Allen holds only crowns; else an error code."""
    n = state[S_PLAYERS]
    na = n_actors(state)
    seen = np.zeros(N_MAP, dtype=np.int64)
    for j in range(state[S_MDRAW_N]):
        m = state[S_MDRAW + j]
        seen[m] += 1
        if state[S_MLOC + m] != M_DRAW:
            return 1
    for j in range(state[S_MDISC_N]):
        m = state[S_MDISC + j]
        seen[m] += 1
        if state[S_MLOC + m] != M_DISC:
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
    tseen = np.zeros(N_TREASURE, dtype=np.int64)
    for j in range(state[S_TDECK_N]):
        t = state[S_TDECK + j]
        tseen[t] += 1
        if state[S_TLOC + t] != T_DECK:
            return 11
    for j in range(state[S_TDISC_N]):
        t = state[S_TDISC + j]
        tseen[t] += 1
        if state[S_TLOC + t] != T_DISC:
            return 12
    for j in range(state[S_REVEAL_N]):
        t = state[S_REVEAL + j]
        tseen[t] += 1
        if state[S_TLOC + t] != T_REVEAL:
            return 13
    for j in range(state[S_A2_N]):
        t = state[S_A2 + j]
        tseen[t] += 1
        if state[S_TLOC + t] != T_A2:
            return 14
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


# ---------------------------------------------------------------------------------------------------
# the game
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def write_rows(state, cfg, rows):
    n = state[S_PLAYERS]
    na = n_actors(state)
    start = state[S_START]
    alive = 0
    for p in range(n):
        if state[P0 + p * PB + B_ELIM] == ELIM_NONE:
            alive += 1
    islets_in = 0
    for i in range(N_ISLET):
        if state[S_ISLET + i] != ISLET_OUT:
            islets_in |= 1 << i
    dealt = 0
    for i in range(n):
        dealt |= 1 << state[S_HEALERS + i]
    for p in range(n):
        base = P0 + p * PB
        r = rows[p]
        elim = state[base + B_ELIM]
        if elim == ELIM_NONE:
            r[COL_SCORE] = state[base + B_NET]
            r[COL_TIEBREAK] = n - (p - start + n) % n
        else:
            r[COL_SCORE] = ELIM_SCORE
            r[COL_TIEBREAK] = 0
        r[C_CURSES] = state[base + B_CURSES]
        r[C_ELIM] = elim
        r[C_HEALER] = state[base + B_HEALER] + 1
        r[C_FEE] = state[base + B_FEE]
        r[C_GROSS] = state[base + B_GROSS]
        r[C_NET] = state[base + B_NET]
        for j in range(7):
            r[C_G_AMULET + j] = state[base + B_GOLD + j]
        for j in range(6):
            r[C_N_AMULET + j] = state[base + B_TYPES + j]
        r[C_CROSSES] = state[base + B_CROSSES]
        r[C_TAKEN] = state[base + B_TAKEN]
        r[C_TDISCARDED] = state[base + B_TDISCARDED]
        r[C_CUBES_TAKEN] = state[base + B_CUBES_TAKEN]
        r[C_CUBES_GONE] = state[base + B_CUBES_GONE]
        r[C_START_TILE] = 1 if start == p else 0
        r[C_START_TAKEN] = state[base + B_START_TAKEN]
        r[C_ISLETS] = state[base + B_ISLETS]
        r[C_ALLEN_USES] = state[base + B_ALLEN_USES]
        r[C_PLAYED] = state[base + B_PLAYED]
        r[C_A1] = state[base + B_A1]
        k0 = 0
        k1 = 0
        k2 = 0
        for t in range(N_TREASURE):
            if state[S_TLOC + t] == T_KEPT + p:
                if t < 25:
                    k0 |= 1 << t
                elif t < 50:
                    k1 |= 1 << (t - 25)
                else:
                    k2 |= 1 << (t - 50)
        r[C_KEPT0] = k0
        r[C_KEPT1] = k1
        r[C_KEPT2] = k2
        r[C_ALLEN_CROSSES] = state[P0 + n * PB + B_CROSSES] if state[S_ALLEN] else -1
        r[C_EVENTS] = state[S_EVENTS_SEEN]
        r[C_ISLETS_IN] = islets_in
        r[C_ISLETS_USED] = state[S_ISLETS_USED]
        r[C_HEALERS_DEALT] = dealt
        r[C_NO_WINNER] = 1 if alive == 0 else 0
        r[C_DECKOUT] = state[S_DECKOUT]
        r[C_START_END] = start
        r[C_TURNS] = state[S_TURNS]
        r[C_ROUNDS] = min(state[S_ROUND], cfg[O.rounds])
    return na


@njit(cache=True)
def hand_mask(state, a, c):
    """Bitmask over the 22 slots of colour ``c`` held by actor ``a`` (trace only)."""
    mask = 0
    for m in range(c * PER_COLOUR, (c + 1) * PER_COLOUR):
        if state[S_MLOC + m] == M_HAND + a:
            mask |= 1 << (m - c * PER_COLOUR)
    return mask


@njit(cache=True)
def run_game(state, cfg, seat_slot, fns, sp, rng, legal, log):
    """Setup, 5 rounds of phases 1-3, the final exploration and the end steps."""
    deal_hands(state, cfg, seat_slot, fns, sp, rng, legal, log)
    log_ev(state, log, EV_SETUP, state[S_PLAYERS], state[S_ALLEN], state[S_CORNER], state[S_FACING], state[S_START])
    for a in range(n_actors(state)):
        log_ev(state, log, EV_HAND, a, hand_mask(state, a, 0), hand_mask(state, a, 1), hand_mask(state, a, 2),
               hand_mask(state, a, 3))
    ok = True
    for r in range(1, cfg[O.rounds] + 1):
        state[S_ROUND] = r
        if r > 1:
            phase1(state, cfg, seat_slot, fns, sp, rng, legal, log)
        else:
            start_event(state, cfg, seat_slot, fns, sp, rng, legal, log)
        if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
            raise ValueError("invariant broken after phase 1")
        log_ev(state, log, EV_ROUND, r, state[S_CORNER], state[S_FACING], current_coast(state), state[S_EVENT])
        for a in range(n_actors(state)):
            log_ev(state, log, EV_HAND, a, hand_mask(state, a, 0), hand_mask(state, a, 1), hand_mask(state, a, 2),
                   hand_mask(state, a, 3))
        if state[S_DECKOUT]:
            ok = False
            break
        phase2(state, cfg, seat_slot, fns, sp, rng, legal, log)
        if state[S_DECKOUT]:
            ok = False
            break
        ok = phase3(state, cfg, seat_slot, fns, sp, rng, legal, log)
        if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
            raise ValueError("invariant broken after phase 3")
        if not ok:
            break
    if ok:
        state[S_ROUND] = 6
        final_exploration(state, cfg, seat_slot, fns, sp, rng, legal, log)
    if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
        raise ValueError("invariant broken at game end")
    final_scoring(state, cfg, seat_slot, fns, sp, rng, legal, log)


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    rng = streams[0]  # one stream for all chance and every strategy, until the game names its purposes
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    setup(state, cfg, n_players, rng)
    run_game(state, cfg, seat_slot, fns, seat_params, rng, legal, log)
    write_rows(state, cfg, rows)
    for p in range(n_players):
        log_ev(state, log, EV_SCORE, p, state[P0 + p * PB + B_ELIM], state[P0 + p * PB + B_GROSS],
               state[P0 + p * PB + B_FEE], state[P0 + p * PB + B_NET], rows[p, COL_SCORE])
    return state[S_NEV]


STEP_SIGNATURE = types.int64(types.int32[::1], types.int64[::1], types.int64[::1], types.UniTuple(DECIDE_TYPE, 6),
                             types.float64[:, ::1], types.uint64[::1], types.int32[::1], types.int32[:, ::1],
                             types.int64, types.int64, types.int64, types.int64, types.int64)
(OP_PLAY, OP_ISLET, OP_PASS, OP_PHASE1, OP_PHASE2, OP_COAST, OP_FINAL, OP_SCORING, OP_EVENT, OP_DEAL, OP_CARD,
 OP_TAKE, OP_RUN, OP_LANDING, OP_B4, OP_PHASE3) = range(16)


@njit(STEP_SIGNATURE, cache=True)
def step(state, cfg, seat_slot, fns, sp, rng, legal, log, op, a, b, c, d):
    """Run one rule step on a hand-built state (for tests and tools); returns the step's result."""
    if op == OP_PLAY:
        play_cards(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b, c, d)
    elif op == OP_ISLET:
        use_islet(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b, c, d)
    elif op == OP_PASS:
        do_pass(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b)
    elif op == OP_PHASE1:
        phase1(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_PHASE2:
        phase2(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_COAST:
        return 1 if explore_coast(state, cfg, seat_slot, fns, sp, rng, legal, log, a) else 0
    elif op == OP_FINAL:
        return 1 if final_exploration(state, cfg, seat_slot, fns, sp, rng, legal, log) else 0
    elif op == OP_SCORING:
        final_scoring(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_EVENT:
        start_event(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_DEAL:
        deal_hands(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_CARD:
        place_one_card(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b, c, d)
    elif op == OP_TAKE:
        take_one(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b, c == 1, TAKE_LOOT)
    elif op == OP_RUN:
        run_game(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_LANDING:
        return 1 if explore_landing(state, cfg, seat_slot, fns, sp, rng, legal, log, a, b == 1) else 0
    elif op == OP_B4:
        b4_returns(state, cfg, seat_slot, fns, sp, rng, legal, log)
    elif op == OP_PHASE3:
        return 1 if phase3(state, cfg, seat_slot, fns, sp, rng, legal, log) else 0
    return 0
