"""Game setup, the deal of the start hands, and phase 1 (preparation) of rounds 2-5."""
import numpy as np
from numba import njit

from simlab.core.rng import randint, shuffle

from .board import EV_REFILL, SHIP_PHASE1, ask, discard_map, draw_map, hand_target, lb, log_ev, move_ship, set_ctx
from .components import EV_B5, FACING_CW, N_HEALER, N_ISLET, N_MAP, N_TREASURE, O
from .events import start_event
from .state import (B_CURSES, B_HAND_N, B_HEALER, B_PASS_ROUND1, B_SUPPLY, D_DISCARD, ISLET_DOWN, ISLET_OUT, ISLET_UP,
                    L_COLOUR, M_DRAW, M_HAND, P0, PB, PH_PREP, S_ALLEN, S_CORNER, S_EVENT, S_EVENT_SEQ, S_FACING,
                    S_HEALER_OWNER, S_HEALERS, S_ISLET, S_MDRAW, S_MDRAW_N, S_MLOC, S_PHASE, S_PLAYERS, S_ROUND,
                    S_START, S_TDECK, S_TDECK_N, S_TLOC, STOP, T_DECK)


@njit(cache=True)
def setup(state, cfg, n_players, rng):
    """Board, decks, hands, healers, events, islets and player areas (rulebook 'game setup')."""
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
    """Deal the start hands (start-hand variant: the 2nd..5th player in turn order get the fixed
    ``start_hand_deal`` whatever the player count, and discard down to the hand size)."""
    n = state[S_PLAYERS]
    size = hand_target(state, cfg)
    for k in range(n):
        p = (state[S_START] + k) % n
        dealt = cfg[O.start_hand_deal + k - 1] if (cfg[O.start_hand_variant] and k > 0) else size
        draw_map(state, rng, p, dealt)
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
