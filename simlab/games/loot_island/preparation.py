"""Game setup, the deal of the start hands, and phase 1 (preparation) of rounds 2-5."""
import numpy as np
from numba import njit

from simlab.core.play import lean

from simlab.core.rng import randint, shuffle
from simlab.core.program import F_LABEL, F_LOCAL

from .board import (EV_REFILL, SHIP_PHASE1, discard_map, draw_map, hand_target, lb, log_ev, move_map, move_ship,
                    set_ctx)
from .components import EV_B5, FACING_CW, N_HEALER, N_ISLET, N_MAP, N_TREASURE, O
from .program import PR_EVENT, ask, call, ret
from .state import (FACE_UP_EVENTS, FACE_UP_HEALERS, X_FACE_UP, B_CURSES, B_HAND_N, B_HEALER, B_PASS_ROUND1, B_SUPPLY,
                    D_DISCARD, ISLET_DOWN, ISLET_OUT, ISLET_UP, L_COLOUR, M_DRAW, R_CORNER, R_EVENT_A, R_EVENTS_B,
                    R_FACING, R_HEALERS, R_MAP, R_TIER, M_HAND, P0, PB, PH_PREP, S_ALLEN, S_CORNER, S_EVENT,
                    S_EVENT_SEQ, S_FACING, S_HEALER_OWNER, S_HEALERS, S_ISLET, S_MDRAW, S_MDRAW_N, S_MLOC, S_PHASE,
                    S_PLAYERS, S_ROUND, S_START, S_TDECK, S_TDECK_N, S_TLOC, STOP, T_DECK, X_CHOICE)


@njit(cache=True, _nrt=True)   # allocates (a healer pool of its own): counted even when a lean loop calls it
def setup(state, cfg, n_players, streams):
    """Board, decks, hands, healers, events, islets and player areas (rulebook 'game setup'); each
    source of chance draws from its own row of ``streams`` (R_* in state.py)."""
    state[:] = 0
    state[S_PLAYERS] = n_players
    allen = 1 if (n_players == 2 and cfg[O.allen]) else 0
    state[S_ALLEN] = allen
    state[S_EVENT] = -1
    corner = cfg[O.forced_ship]
    facing = cfg[O.forced_ship + 1]
    if corner < 0:
        corner = randint(streams[R_CORNER], 4)
    if facing == 0:
        facing = 1 if (cfg[O.ship_facing] == FACING_CW or randint(streams[R_FACING], 2) == 0) else -1
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
        shuffle(streams[R_TIER + d - 1], state[S_TDECK + start:S_TDECK + start + k], k)
    # map deck
    for m in range(N_MAP):
        state[S_MDRAW + m] = m
        move_map(state, m, M_DRAW)
    state[S_MDRAW_N] = N_MAP
    shuffle(streams[R_MAP], state[S_MDRAW:S_MDRAW + N_MAP], N_MAP)
    # landings
    for landing in range(8):
        state[lb(landing) + L_COLOUR] = -1
    # healers: as many as players, face down (or up in variant 1)
    pool = np.arange(N_HEALER)
    for i in range(n_players):
        j = i + randint(streams[R_HEALERS], N_HEALER - i)
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
            pick = randint(streams[R_EVENT_A if r == 0 else R_EVENTS_B], k)
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
    state[X_FACE_UP] = (FACE_UP_HEALERS if cfg[O.healers_face_up] else 0) | (
        FACE_UP_EVENTS if cfg[O.events_face_up] else 0)


@lean
def deal_step(state, cfg, streams, log, f):
    """Procedure PR_DEAL: deal the start hands (start-hand variant: the 2nd..5th player in turn order
    get the fixed ``start_hand_deal`` whatever the player count, and discard down to the hand size).
    Local: k, the seat being dealt to, in turn order."""
    n = state[S_PLAYERS]
    size = hand_target(state, cfg)
    fresh = state[f + F_LABEL] == 0
    if not fresh:
        discard_map(state, state[X_CHOICE])
    k = state[f + F_LOCAL]
    while k < n:
        p = (state[S_START] + k) % n
        if fresh:
            dealt = cfg[O.start_hand_deal + k - 1] if (cfg[O.start_hand_variant] and k > 0) else size
            draw_map(state, streams, p, dealt)
        if state[P0 + p * PB + B_HAND_N] > size:
            state[f + F_LOCAL] = k
            set_ctx(state, 1)
            ask(state, f, 1, p, D_DISCARD)
            return
        fresh = True
        k += 1
    if state[S_ALLEN]:
        draw_map(state, streams, n, cfg[O.allen_hand])
    ret(state)


@lean
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


@lean
def phase1_step(state, cfg, streams, log, f):
    """Procedure PR_PHASE1, preparation: ship moves, islets turn face up, next event (PR_EVENT), then
    each player from the start player discards any cards and refills the hand. Locals: k (the
    player, in turn order), gone (cards discarded, for the trace)."""
    label = state[f + F_LABEL]
    if label == 0:
        state[S_PHASE] = PH_PREP
        move_ship(state, log, SHIP_PHASE1)
        for i in range(N_ISLET):
            if state[S_ISLET + i] == ISLET_DOWN:
                state[S_ISLET + i] = ISLET_UP
        state[f + F_LABEL] = 1
        call(state, PR_EVENT)
        return
    n = state[S_PLAYERS]
    k = state[f + F_LOCAL]
    if label == 2:
        p = (state[S_START] + k) % n
        code = state[X_CHOICE]
        if code != STOP:
            discard_map(state, code)
            state[f + F_LOCAL + 1] += 1
        else:
            size = hand_target(state, cfg) - (1 if state[S_EVENT] == EV_B5 else 0)
            need = size - state[P0 + p * PB + B_HAND_N]
            got = draw_map(state, streams, p, need) if need > 0 else 0
            log_ev(state, log, EV_REFILL, p, state[f + F_LOCAL + 1], got)
            k += 1
            state[f + F_LOCAL] = k
            state[f + F_LOCAL + 1] = 0
    if k < n:
        set_ctx(state, 0)
        ask(state, f, 2, (state[S_START] + k) % n, D_DISCARD)
        return
    if state[S_ALLEN]:
        a = n
        for m in range(N_MAP):
            if state[S_MLOC + m] == M_HAND + a:
                discard_map(state, m)
        draw_map(state, streams, a, cfg[O.allen_hand] - (1 if state[S_EVENT] == EV_B5 else 0))
        log_ev(state, log, EV_REFILL, a, -1, state[P0 + a * PB + B_HAND_N])
    ret(state)
