"""Loot Island's game: the result rows, and ``step`` (one rule procedure run on a hand-built state,
for tests and tools).

The rules themselves live by phase: ``board`` (ship, landings, piles, cubes, treasures),
``preparation`` (setup, deal, phase 1), ``events``, ``actions`` (phase 2), ``islets``, ``loot``
(phase 3 and the final exploration), ``scoring`` (end steps 2-4), ``flow`` (the game as a whole, and
the driver of the resumable procedures of ``program``) and ``invariants``; ``step`` offers the game
through the step interface. This module re-exports the rule functions strategies and tests call, so
``rules.<name>`` names any of them.
"""
from numba import njit, types

from simlab.core.play import COL_SCORE, COL_TIEBREAK, FIRST_GAME_COLUMN, lean, seat_choice
from simlab.core.strategy import DECIDE_TYPE

from .actions import (action_choices, copy_choices, copy_effect, fitting, last_is_one, place_one_card, put_card)
from .board import (TAKE_LOOT, card_symbol, card_value, cards_needed, compass_pos, current_coast, discard_map,
                    draw_map, event_now, keep_treasure, move_map, n_actors, near_landing, push_compass,
                    reveal_treasures)
from .components import N_ISLET, N_TREASURE, O
from .flow import ELIM_SCORE, advance, choices, seat_score
from .invariants import check_invariants
from .preparation import setup
from .program import (PR_B4, PR_COAST, PR_DEAL, PR_EVENT, PR_FINAL, PR_GAME, PR_ISLET, PR_LANDING, PR_PASS, PR_PHASE1,
                      PR_PHASE2, PR_PHASE3, PR_PLAY, PR_SCORING, PR_TAKE, call)
from .scoring import crown_prizes, healer_fee, jewel_bonus, kept_ids, skull_bonus, treasure_value
from .state import (B_A1, B_ALLEN_USES, B_CROSSES, B_CUBES_GONE, B_CUBES_TAKEN, B_CURSES, B_ELIM, B_FEE, B_GOLD,
                    B_GROSS, B_HEALER, B_ISLETS, B_NET, B_PLAYED, B_START_TAKEN, B_TAKEN, B_TDISCARDED, B_TYPES,
                    D_COPY, ELIM_NONE, ISLET_OUT, P0, PB, S_ALLEN, S_DECKOUT, S_DKIND, S_EVENTS_SEEN, S_HEALERS,
                    S_ISLET, S_ISLETS_USED, S_PLAYERS, S_ROUND, S_START, S_TLOC, S_TURN, S_TURNS, T_KEPT, X_DEPTH,
                    X_CHOICE, X_PENDING, X_RET)

__all__ = [  # the rule functions called from outside the game's modules, wherever they live
    "action_choices", "card_symbol", "card_value", "cards_needed", "check_invariants", "compass_pos", "copy_choices",
    "crown_prizes", "current_coast", "discard_map", "draw_map", "ELIM_SCORE", "event_now", "fitting",
    "healer_fee",
    "jewel_bonus", "keep_treasure", "kept_ids", "last_is_one", "move_map", "near_landing", "push_compass", "put_card",
    "reveal_treasures", "setup", "skull_bonus", "step", "treasure_value", "write_rows",
]

(C_CURSES, C_ELIM, C_HEALER, C_FEE, C_GROSS, C_NET, C_G_AMULET, C_G_MONEY, C_G_BOOK, C_G_JEWEL, C_G_CROWN, C_G_SKULL,
 C_G_START, C_N_AMULET, C_N_MONEY, C_N_BOOK, C_N_JEWEL, C_N_CROWN, C_N_SKULL, C_CROSSES, C_TAKEN, C_TDISCARDED,
 C_CUBES_TAKEN, C_CUBES_GONE, C_START_TILE, C_START_TAKEN, C_ISLETS, C_ALLEN_USES, C_PLAYED, C_A1, C_KEPT0, C_KEPT1,
 C_KEPT2, C_ALLEN_CROSSES, C_EVENTS, C_ISLETS_IN, C_ISLETS_USED, C_HEALERS_DEALT, C_NO_WINNER, C_DECKOUT, C_START_END,
 C_TURNS, C_ROUNDS) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 43)
N_RESULT_COLUMNS = 43


@lean
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
        r[COL_SCORE] = seat_score(state, p)
        r[COL_TIEBREAK] = n - (p - start + n) % n if elim == ELIM_NONE else 0
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


STEP_SIGNATURE = types.int64(types.int32[::1], types.int64[::1], types.int64[::1], types.UniTuple(DECIDE_TYPE, 6),
                             types.float64[:, ::1], types.uint64[:, ::1], types.int32[::1], types.int32[:, ::1],
                             types.int64, types.int64, types.int64, types.int64, types.int64)
(OP_PLAY, OP_ISLET, OP_PASS, OP_PHASE1, OP_PHASE2, OP_COAST, OP_FINAL, OP_SCORING, OP_EVENT, OP_DEAL, OP_CARD,
 OP_TAKE, OP_RUN, OP_LANDING, OP_B4, OP_PHASE3) = range(16)
OP_PROC = (PR_PLAY, PR_ISLET, PR_PASS, PR_PHASE1, PR_PHASE2, PR_COAST, PR_FINAL, PR_SCORING, PR_EVENT, PR_DEAL, -1,
           PR_TAKE, PR_GAME, PR_LANDING, PR_B4, PR_PHASE3)


@lean
def decide(state, cfg, seat_slot, fns, sp, streams, legal, seat, n):
    """The code ``seat``'s strategy picks among ``legal[:n]`` (the only one when n is 1)."""
    if n == 1:
        return legal[0]
    if n < 1:
        raise ValueError("a decision with no legal choice")
    return legal[seat_choice(fns, seat_slot[seat], state, cfg, seat, legal, n, sp, streams)]


@njit(STEP_SIGNATURE, cache=True)
def step(state, cfg, seat_slot, fns, sp, streams, legal, log, op, a, b, c, d):
    """Run one rule procedure (OP_*) on a hand-built state to its end, the seats' strategies deciding
    (handed the state itself), for tests and tools; returns the procedure's result."""
    if op == OP_CARD:  # one card of a play laid down (and a front 1's copy)
        if place_one_card(state, cfg, streams, log, a, b, c, d):
            state[S_DKIND] = D_COPY
            state[S_TURN] = a
            n = copy_choices(state, cfg, c, legal)
            copy_effect(state, cfg, streams, log, a, decide(state, cfg, seat_slot, fns, sp, streams, legal, a, n))
        return 0
    floor = state[X_DEPTH]
    if op == OP_PASS:
        call(state, PR_PASS, a, b)
    elif op == OP_COAST:
        call(state, PR_COAST, a)
    elif op == OP_TAKE:
        call(state, PR_TAKE, a, b, 1 if c == 1 else 0, TAKE_LOOT)
    elif op == OP_LANDING:
        call(state, PR_LANDING, a, 1 if b == 1 else 0)
    else:
        call(state, OP_PROC[op], a, b, c, d)
    advance(state, cfg, streams, log, floor)
    while state[X_PENDING]:
        n = choices(state, cfg, legal)
        state[X_PENDING] = 0
        state[X_CHOICE] = decide(state, cfg, seat_slot, fns, sp, streams, legal, state[S_TURN], n)
        advance(state, cfg, streams, log, floor)
    return state[X_RET]
