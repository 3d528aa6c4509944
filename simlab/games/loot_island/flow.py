"""The game as a whole: the top procedure (setup's deal, five rounds of phases 1-3, the final
exploration, the end steps), the driver that runs the procedures on the state's stack up to the next
decision, and the legal choices of the decision pending (``program.py`` explains the procedures)."""
import numpy as np
from numba import njit

from simlab.core.play import EVENT_WIDTH, emit_standings, lean
from simlab.core.program import F_LABEL, F_LOCAL, F_PROC

from .actions import a2_choices, action_choices, card_choices, copy_choices, pass_step, phase2_step, play_step, \
    source_choices
from .board import EV_HAND, EV_ROUND, EV_SETUP, current_coast, keep_choices, log_ev, n_actors, take_step
from .components import O, PER_COLOUR
from .events import b4_choices, b4_step, event_step
from .invariants import check_invariants
from .islets import islet_choices, islet_step
from .loot import coast_step, distribute_step, final_step, landing_step, phase3_step, pick_choices
from .preparation import deal_step, hand_choices, phase1_step
from .program import (PR_B4, PR_COAST, PR_DEAL, PR_DISTRIBUTE, PR_EVENT, PR_FINAL, PR_ISLET, PR_LANDING,
                      PR_PASS, PR_PHASE1, PR_PHASE2, PR_PHASE3, PR_PLAY, PR_SCORING, PR_TAKE, call, ret, top)
from .scoring import final_scoring_by_fee, healer_choices, scoring_step
from .state import (B_ELIM, B_NET, ELIM_NONE, M_HAND, P0, PB, S_ALLEN, S_CORNER, S_DECKOUT, S_FACING, S_EVENT, S_MLOC,
                    S_NEV, S_PLAYERS, S_ROUND, S_START, S_TURN, X_DEPTH, X_PENDING, X_RET)

ELIM_SCORE = 0  # an eliminated player scores nothing; the run engine ranks them below all others


@lean
def seat_score(state, p):
    """A scored seat's result: its net gold, or ``ELIM_SCORE`` once eliminated."""
    base = P0 + p * PB
    return state[base + B_NET] if state[base + B_ELIM] == ELIM_NONE else ELIM_SCORE


@njit(cache=True, _nrt=True)   # scores a copy of the state: counted even when a lean loop calls it
def log_standings(state, cfg, log, final):
    """The standings after a round; only when the game is traced.

    ``final``: the state is scored already (the end steps have run). Otherwise the end steps
    (curse elimination, healers, treasure values with crown places and sets, the start tile, the
    fee) run on a copy of the state, on the treasures kept so far and the curses held now. One part
    cannot be known mid-game, the healer each player will choose: the copy gives each the cheapest
    healer left, in the rules' order, as the built-in strategies do; a strategy that chooses
    otherwise can end with another fee.
    """
    if log.shape[0] == 0:
        return
    now = state
    if not final:
        now = state.copy()
        final_scoring_by_fee(now, cfg, np.zeros((0, EVENT_WIDTH), dtype=np.int32))
    n = state[S_PLAYERS]
    scores = np.zeros(n, dtype=np.int64)
    for p in range(n):
        scores[p] = seat_score(now, p)
    state[S_NEV] = emit_standings(log, state[S_NEV], state[S_ROUND], scores, n)


@lean
def hand_mask(state, a, c):
    """Bitmask over the 22 slots of colour ``c`` held by actor ``a`` (trace only)."""
    mask = 0
    for m in range(c * PER_COLOUR, (c + 1) * PER_COLOUR):
        if state[S_MLOC + m] == M_HAND + a:
            mask |= 1 << (m - c * PER_COLOUR)
    return mask


@lean
def log_hands(state, log):
    if log.shape[0] == 0:
        return
    for a in range(n_actors(state)):
        log_ev(state, log, EV_HAND, a, hand_mask(state, a, 0), hand_mask(state, a, 1), hand_mask(state, a, 2),
               hand_mask(state, a, 3))


@njit(cache=True, _nrt=True)   # raises with a value: counted even when a lean loop calls it
def debug_check(state, cfg, where):
    if cfg[O.check_invariants] and check_invariants(state, cfg) != 0:
        raise ValueError(where)


@lean
def game_step(state, cfg, streams, log, f):
    """Procedure PR_GAME: the deal, rounds 1-5 of phases 1-3 (round 1 opens with its event only), the
    final exploration unless the treasure deck ran dry, and the end steps. Labels: 1 dealt, 2 phase 1
    done, 3 phase 2 done, 4 phase 3 done, 5 explorations over, 6 scored."""
    label = state[f + F_LABEL]
    if label == 0:
        state[f + F_LABEL] = 1
        call(state, PR_DEAL)
        return
    if label == 1:
        log_ev(state, log, EV_SETUP, state[S_PLAYERS], state[S_ALLEN], state[S_CORNER], state[S_FACING],
               state[S_START])
        log_hands(state, log)
        start_round(state, f, 1)
        return
    if label == 2:
        debug_check(state, cfg, "invariant broken after phase 1")
        log_ev(state, log, EV_ROUND, state[S_ROUND], state[S_CORNER], state[S_FACING], current_coast(state),
               state[S_EVENT])
        log_hands(state, log)
        if state[S_DECKOUT]:
            label = 5
        else:
            state[f + F_LABEL] = 3
            call(state, PR_PHASE2)
            return
    elif label == 3:
        if state[S_DECKOUT]:
            label = 5
        else:
            state[f + F_LABEL] = 4
            call(state, PR_PHASE3)
            return
    elif label == 4:
        ok = state[X_RET]
        debug_check(state, cfg, "invariant broken after phase 3")
        if not ok:
            label = 5
        else:
            log_standings(state, cfg, log, False)
            r = state[S_ROUND] + 1
            if r <= cfg[O.rounds]:
                start_round(state, f, r)
                return
            state[S_ROUND] = 6
            state[f + F_LABEL] = 5
            call(state, PR_FINAL)
            return
    if label == 5:
        debug_check(state, cfg, "invariant broken at game end")
        state[f + F_LABEL] = 6
        call(state, PR_SCORING)
        return
    log_standings(state, cfg, log, True)
    state[S_TURN] = -1
    ret(state)


@lean
def start_round(state, f, r):
    """Round ``r`` begins: its phase 1 (round 1: only its event)."""
    state[S_ROUND] = r
    state[f + F_LABEL] = 2
    call(state, PR_PHASE1 if r > 1 else PR_EVENT)


@lean
def advance(state, cfg, streams, log, floor):
    """Run the procedures until a decision is pending or fewer than ``floor`` + 1 are on the stack."""
    while state[X_PENDING] == 0 and state[X_DEPTH] > floor:
        f = top(state)
        proc = state[f + F_PROC]
        if proc == PR_PHASE2:
            phase2_step(state, cfg, streams, log, f)
        elif proc == PR_PLAY:
            play_step(state, cfg, streams, log, f)
        elif proc == PR_TAKE:
            take_step(state, cfg, streams, log, f)
        elif proc == PR_DISTRIBUTE:
            distribute_step(state, cfg, streams, log, f)
        elif proc == PR_PASS:
            pass_step(state, cfg, streams, log, f)
        elif proc == PR_ISLET:
            islet_step(state, cfg, streams, log, f)
        elif proc == PR_LANDING:
            landing_step(state, cfg, streams, log, f)
        elif proc == PR_COAST:
            coast_step(state, cfg, streams, log, f)
        elif proc == PR_PHASE3:
            phase3_step(state, cfg, streams, log, f)
        elif proc == PR_PHASE1:
            phase1_step(state, cfg, streams, log, f)
        elif proc == PR_EVENT:
            event_step(state, cfg, streams, log, f)
        elif proc == PR_B4:
            b4_step(state, cfg, streams, log, f)
        elif proc == PR_FINAL:
            final_step(state, cfg, streams, log, f)
        elif proc == PR_SCORING:
            scoring_step(state, cfg, streams, log, f)
        elif proc == PR_DEAL:
            deal_step(state, cfg, streams, log, f)
        else:
            game_step(state, cfg, streams, log, f)


@lean
def choices(state, cfg, out):
    """The legal codes of the pending decision (0 when none is pending), in the order the rules list
    them (a strategy's answer is an index into this list)."""
    if state[X_PENDING] == 0:
        return 0
    f = top(state)
    proc = state[f + F_PROC]
    label = state[f + F_LABEL]
    seat = state[S_TURN]
    if proc == PR_PHASE2:
        return action_choices(state, cfg, seat, out)
    if proc == PR_PLAY:
        if label == 1:
            return source_choices(state, f, out)
        if label == 2:
            return card_choices(state, cfg, f, out)
        return copy_choices(state, cfg, state[f + F_LOCAL + 2], out)
    if proc == PR_TAKE:
        return keep_choices(state, f, out)
    if proc == PR_DISTRIBUTE:
        return pick_choices(state, out)
    if proc == PR_ISLET:
        return islet_choices(state, cfg, f, out)
    if proc == PR_PASS:
        return a2_choices(state, out)
    if proc == PR_PHASE1:
        return hand_choices(state, seat, out, True)
    if proc == PR_DEAL:
        return hand_choices(state, seat, out, False)
    if proc == PR_EVENT:
        out[0] = 0
        out[1] = 1
        return 2
    if proc == PR_B4:
        return b4_choices(state, out)
    if proc == PR_SCORING:
        return healer_choices(state, out)
    raise ValueError("no decision of this procedure")
