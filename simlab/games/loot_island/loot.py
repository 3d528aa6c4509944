"""Phase 3 (finding loot) on the explored coast, and the final exploration after round 5, as resumable
procedures (``program.py``)."""
from simlab.core.play import lean
from simlab.core.program import F_LABEL, F_LOCAL

from .board import (EV_B10_DISCARD, EV_CLEANUP, EV_DECKOUT, EV_EXPLORE, EV_FINAL, TAKE_LOOT, allen_choice,
                    cards_needed, current_coast, discard_map, drop_curses, event_now, is_allen, lb, log_ev,
                    near_landing, remove_from_row, reveal_treasures, set_ctx)
from .program import PR_COAST, PR_DISTRIBUTE, PR_LANDING, PR_TAKE, ask, call, ret
from .components import EV_A4, EV_B10, EV_B11, EV_B12, EV_B13, EV_B14, O, UNCLAIMED_NOT_REVEALED
from .state import (B_LOOT_TURNS, B_SUPPLY, D_PICK, L_CARDS, L_CHESTS, L_COLOUR, L_COMP, L_COUNT, L_LAST, L_N,
                    L_NCOMP, P0, PB, PH_FINAL, PH_LOOT, S_DECKOUT, S_FACING, S_LANDING_DONE, S_PHASE, S_PLAYERS,
                    S_REVEAL, S_REVEAL_N, S_TDISC, S_TDISC_N, S_TLOC, S_TURN, T_DISC, T_REVEAL, X_CHOICE, X_RET)


@lean
def distribute_step(state, cfg, streams, log, f):
    """Procedure PR_DISTRIBUTE (landing, big): hand out the revealed treasures in compass order (bottom
    first; B13 top first), each pick (D_PICK; Allen takes the highest number) kept or discarded by
    PR_TAKE. Locals 2-3: position in the compass stack of the next taker, bitmask of actors who got one."""
    landing = state[f + F_LOCAL]
    base = lb(landing)
    nc = state[base + L_NCOMP]
    label = state[f + F_LABEL]
    if label == 0 and nc == 0:
        # Every compass left the landing after its cards went down (taken for another landing, islet T4,
        # event B4), so nobody takes the loot: reading `unclaimed_loot` = discarded.
        while state[S_REVEAL_N] > 0:
            t = state[S_REVEAL]
            remove_from_row(state, S_REVEAL, S_REVEAL_N, t)
            n = state[S_TDISC_N]
            state[S_TDISC + n] = t
            state[S_TDISC_N] = n + 1
            state[S_TLOC + t] = T_DISC
        ret(state)
        return
    if label == 1:  # a pick
        take(state, f, state[S_TURN], state[X_CHOICE])
        return
    reverse = event_now(state, cfg) == EV_B13
    k = state[f + F_LOCAL + 2]
    if state[S_REVEAL_N] > 0:
        if k >= nc:
            k = 0
        a = state[base + L_COMP + (nc - 1 - k if reverse else k)]
        state[f + F_LOCAL + 2] = k + 1
        if is_allen(state, a):
            take(state, f, a, allen_choice(state, cfg))
        else:
            set_ctx(state, landing, state[f + F_LOCAL + 1])
            ask(state, f, 1, a, D_PICK)
        return
    got = state[f + F_LOCAL + 3]
    for a in range(6):
        if (got >> a) & 1:
            state[P0 + a * PB + B_LOOT_TURNS] += 1
    ret(state)


@lean
def take(state, f, a, t):
    """``a`` takes revealed treasure ``t`` (PR_TAKE); the distribution goes on after it (label 2)."""
    remove_from_row(state, S_REVEAL, S_REVEAL_N, t)
    state[f + F_LOCAL + 3] |= 1 << a
    state[f + F_LABEL] = 2
    call(state, PR_TAKE, a, t, 1, TAKE_LOOT)


@lean
def pick_choices(state, out):
    """D_PICK: the revealed treasures."""
    for j in range(state[S_REVEAL_N]):
        out[j] = state[S_REVEAL + j]
    return state[S_REVEAL_N]


@lean
def landing_step(state, cfg, streams, log, f):
    """Procedure PR_LANDING (landing, big): reveal and hand out a big or small loot (PR_DISTRIBUTE);
    returns 0 when the treasure deck ran dry, else 1."""
    landing = state[f + F_LOCAL]
    big = state[f + F_LOCAL + 1] == 1
    e = event_now(state, cfg)
    base = lb(landing)
    if state[f + F_LABEL] == 0:
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
        got = reveal_treasures(state, streams, k, T_REVEAL)
        log_ev(state, log, EV_EXPLORE, landing, 1 if big else 2, state[base + L_COUNT], state[base + L_CHESTS],
               state[base + L_NCOMP], got)
        if state[S_DECKOUT]:
            log_ev(state, log, EV_DECKOUT, got)
            if not cfg[O.deck_out_distribute]:
                ret(state, 0)
                return
        state[f + F_LABEL] = 1
        call(state, PR_DISTRIBUTE, landing, 1 if big else 0)
        return
    if not big and e == EV_B10:
        for j in range(state[base + L_NCOMP]):
            a = state[base + L_COMP + j]
            if not is_allen(state, a):
                d = drop_curses(state, a, 2)
                log_ev(state, log, EV_B10_DISCARD, a, d)
    ret(state, 1 if state[S_DECKOUT] == 0 else 0)


@lean
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


@lean
def coast_step(state, cfg, streams, log, f):
    """Procedure PR_COAST (coast): phase 3 on one coast: big loot at the landing with more cards (B12:
    fewer), then small loot, then both landings are cleaned; returns 0 when the treasure deck ran dry.
    Locals 1-2: the landing nearest the bow, the small-loot landing."""
    coast = state[f + F_LOCAL]
    need = cards_needed(cfg, state[S_PLAYERS])
    label = state[f + F_LABEL]
    ok = 1
    if label == 0:
        la = near_landing(state, coast)
        state[f + F_LOCAL + 1] = la
        lb_ = la ^ 1
        ca = state[lb(la) + L_COUNT]
        cb = state[lb(lb_) + L_COUNT]
        qa = ca >= need
        qb = cb >= need
        if qa or qb:
            big = la
            if qa and qb:
                if event_now(state, cfg) == EV_B12:
                    big = lb_ if cb < ca else la
                else:
                    big = lb_ if cb > ca else la
            elif qb:
                big = lb_
            state[f + F_LOCAL + 2] = big ^ 1
            state[f + F_LABEL] = 1
            call(state, PR_LANDING, big, 1)
            return
        log_ev(state, log, EV_EXPLORE, la, 0, ca, 0, 0, 0)
        log_ev(state, log, EV_EXPLORE, lb_, 0, cb, 0, 0, 0)
    elif label == 1:
        ok = state[X_RET]
        small = state[f + F_LOCAL + 2]
        if ok and state[lb(small) + L_COUNT] >= need:
            state[f + F_LABEL] = 2
            call(state, PR_LANDING, small, 0)
            return
        elif ok:
            log_ev(state, log, EV_EXPLORE, small, 0, state[lb(small) + L_COUNT], 0, 0, 0)
    else:
        ok = state[X_RET]
    la = state[f + F_LOCAL + 1]
    clean_landing(state, la)
    clean_landing(state, la ^ 1)
    log_ev(state, log, EV_CLEANUP, coast)
    ret(state, ok)


@lean
def phase3_step(state, cfg, streams, log, f):
    """Procedure PR_PHASE3: finding loot on the explored coast (B14: and on the next one); returns 0
    when the treasure deck ran dry. Local: the coast explored first."""
    label = state[f + F_LABEL]
    if label == 0:
        state[S_PHASE] = PH_LOOT
        coast = current_coast(state)
        state[f + F_LOCAL] = coast
        state[f + F_LABEL] = 1
        call(state, PR_COAST, coast)
        return
    ok = state[X_RET]
    if label == 1 and ok and event_now(state, cfg) == EV_B14:
        state[f + F_LABEL] = 2
        call(state, PR_COAST, (state[f + F_LOCAL] + state[S_FACING] + 4) % 4)
        return
    ret(state, ok)


@lean
def final_step(state, cfg, streams, log, f):
    """Procedure PR_FINAL, the final exploration after round 5: every remaining landing, from the one
    nearest the bow in the ship's direction, is a small loot if it holds enough cards; returns 0 when
    the treasure deck ran dry. Local: landings done."""
    need = cards_needed(cfg, state[S_PLAYERS])
    first = near_landing(state, current_coast(state))
    step = 1 if state[S_FACING] > 0 else -1
    k = state[f + F_LOCAL]
    if state[f + F_LABEL] == 0:
        state[S_PHASE] = PH_FINAL
        log_ev(state, log, EV_FINAL)
    else:
        if not state[X_RET]:
            ret(state, 0)
            return
        clean_landing(state, (first + step * k + 8) % 8)
        k += 1
    while k < 8:
        landing = (first + step * k + 8) % 8
        state[S_LANDING_DONE] |= 1 << landing
        if state[lb(landing) + L_COUNT] >= need:
            state[f + F_LOCAL] = k
            state[f + F_LABEL] = 1
            call(state, PR_LANDING, landing, 0)
            return
        clean_landing(state, landing)
        k += 1
    ret(state, 1)
