"""Phase 3 (finding loot) on the explored coast, and the final exploration after round 5."""
import numpy as np
from numba import njit

from .board import (EV_B10_DISCARD, EV_CLEANUP, EV_DECKOUT, EV_EXPLORE, EV_FINAL, TAKE_LOOT, allen_choice, ask,
                    cards_needed, current_coast, discard_map, drop_curses, event_now, is_allen, lb, log_ev,
                    near_landing, remove_from_row, reveal_treasures, set_ctx, take_one)
from .components import EV_A4, EV_B10, EV_B11, EV_B12, EV_B13, EV_B14, O, UNCLAIMED_NOT_REVEALED
from .state import (B_LOOT_TURNS, B_SUPPLY, D_PICK, L_CARDS, L_CHESTS, L_COLOUR, L_COMP, L_COUNT, L_LAST, L_N, L_NCOMP,
                    P0, PB, PH_FINAL, PH_LOOT, S_DECKOUT, S_FACING, S_LANDING_DONE, S_PHASE, S_PLAYERS, S_REVEAL,
                    S_REVEAL_N, S_TDISC, S_TDISC_N, S_TLOC, T_DISC, T_REVEAL)


@njit(cache=True)
def distribute(state, cfg, seat_slot, fns, sp, rng, legal, log, landing, big):
    """Hand out the revealed treasures in compass order (bottom first; B13 top first)."""
    base = lb(landing)
    nc = state[base + L_NCOMP]
    if nc == 0:
        # Every compass left the landing after its cards went down (taken for another landing, islet T4,
        # event B4), so nobody takes the loot: reading `unclaimed_loot` = discarded.
        while state[S_REVEAL_N] > 0:
            t = state[S_REVEAL]
            remove_from_row(state, S_REVEAL, S_REVEAL_N, t)
            n = state[S_TDISC_N]
            state[S_TDISC + n] = t
            state[S_TDISC_N] = n + 1
            state[S_TLOC + t] = T_DISC
        return
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
    if k < 0 or (state[base + L_NCOMP] == 0 and cfg[O.unclaimed_loot] == UNCLAIMED_NOT_REVEALED):
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
