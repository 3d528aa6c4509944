"""Loot Island's game: setup, five rounds of phases 1-3, the final exploration and the end steps, the
result rows, and ``step`` (one rule step on a hand-built state, for tests and tools).

The rules themselves live by phase: ``board`` (ship, landings, piles, cubes, treasures, asking a
strategy), ``preparation`` (setup, deal, phase 1), ``events``, ``actions`` (phase 2), ``islets``,
``loot`` (phase 3 and the final exploration), ``scoring`` (end steps 2-4) and ``invariants``. This
module re-exports the rule functions strategies and tests call, so ``rules.<name>`` names any of them.
"""
import numpy as np
from numba import njit, types

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK, EVENT_WIDTH, FIRST_GAME_COLUMN, PLAY_SIGNATURE, emit_standings
from simlab.core.strategy import DECIDE_TYPE

from .actions import (action_choices, copy_choices, do_pass, eligible, last_is_one, phase2, place_one_card, play_cards,
                      put_card)
from .board import (EV_HAND, EV_ROUND, EV_SCORE, EV_SETUP, TAKE_LOOT, card_symbol, card_value, cards_needed,
                    compass_pos, current_coast, discard_map, draw_map, event_now, keep_treasure, log_ev, n_actors,
                    near_landing, push_compass, reveal_treasures, take_one)
from .components import N_ISLET, N_TREASURE, O, PER_COLOUR
from .events import b4_returns, start_event
from .invariants import check_invariants
from .islets import use_islet
from .loot import explore_coast, explore_landing, final_exploration, phase3
from .preparation import deal_hands, phase1, setup
from .scoring import crown_prizes, final_scoring, healer_fee, jewel_bonus, kept_ids, skull_bonus, treasure_value
from .state import (B_A1, B_ALLEN_USES, B_CROSSES, B_CUBES_GONE, B_CUBES_TAKEN, B_CURSES, B_ELIM, B_FEE, B_GOLD,
                    B_GROSS, B_HEALER, B_ISLETS, B_NET, B_PLAYED, B_START_TAKEN, B_TAKEN, B_TDISCARDED, B_TYPES,
                    ELIM_NONE, ISLET_OUT, M_HAND, MAX_LEGAL, P0, PB, S_ALLEN, S_CORNER, S_DECKOUT, S_EVENT,
                    S_EVENTS_SEEN, S_FACING, S_HEALERS, S_ISLET, S_ISLETS_USED, S_MLOC, S_NEV, S_PLAYERS, S_ROUND,
                    S_START, S_TLOC, S_TURNS, STATE_SIZE, T_KEPT)

__all__ = [  # the rule functions called from outside the game's modules, wherever they live
    "action_choices", "card_symbol", "card_value", "cards_needed", "check_invariants", "compass_pos", "copy_choices",
    "crown_prizes", "current_coast", "discard_map", "draw_map", "eligible", "event_now", "healer_fee", "jewel_bonus",
    "keep_treasure", "kept_ids", "last_is_one", "near_landing", "play_game", "push_compass", "put_card",
    "reveal_treasures", "setup", "skull_bonus", "step", "treasure_value", "write_rows",
]

(C_CURSES, C_ELIM, C_HEALER, C_FEE, C_GROSS, C_NET, C_G_AMULET, C_G_MONEY, C_G_BOOK, C_G_JEWEL, C_G_CROWN, C_G_SKULL,
 C_G_START, C_N_AMULET, C_N_MONEY, C_N_BOOK, C_N_JEWEL, C_N_CROWN, C_N_SKULL, C_CROSSES, C_TAKEN, C_TDISCARDED,
 C_CUBES_TAKEN, C_CUBES_GONE, C_START_TILE, C_START_TAKEN, C_ISLETS, C_ALLEN_USES, C_PLAYED, C_A1, C_KEPT0, C_KEPT1,
 C_KEPT2, C_ALLEN_CROSSES, C_EVENTS, C_ISLETS_IN, C_ISLETS_USED, C_HEALERS_DEALT, C_NO_WINNER, C_DECKOUT, C_START_END,
 C_TURNS, C_ROUNDS) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 43)
N_RESULT_COLUMNS = 43
ELIM_SCORE = 0  # an eliminated player scores nothing; the run engine ranks them below all others


@njit(cache=True)
def seat_score(state, p):
    """A scored seat's result: its net gold, or ``ELIM_SCORE`` once eliminated."""
    base = P0 + p * PB
    return state[base + B_NET] if state[base + B_ELIM] == ELIM_NONE else ELIM_SCORE


@njit(cache=True)
def log_standings(state, cfg, seat_slot, fns, sp, streams, log, final):
    """The standings after a round; only when the game is traced.

    ``final``: the state is scored already (the end steps have run). Otherwise the end steps
    (:func:`final_scoring`: curse elimination, healers, treasure values with crown places and
    sets, the start tile, the fee) run on a copy of the state, on the treasures kept so far and
    the curses held now. One part cannot be known mid-game, the healer each player will choose:
    the copy gives each the cheapest healer left, in the rules' order, as the built-in
    strategies do; a strategy that chooses otherwise can end with another fee.
    """
    if log.shape[0] == 0:
        return
    now = state
    if not final:
        now = state.copy()
        final_scoring(now, cfg, seat_slot, fns, sp, streams, np.zeros(MAX_LEGAL, dtype=np.int32),
                      np.zeros((0, EVENT_WIDTH), dtype=np.int32), True)
    n = state[S_PLAYERS]
    scores = np.zeros(n, dtype=np.int64)
    for p in range(n):
        scores[p] = seat_score(now, p)
    state[S_NEV] = emit_standings(log, state[S_NEV], state[S_ROUND], scores, n)


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


@njit(cache=True)
def hand_mask(state, a, c):
    """Bitmask over the 22 slots of colour ``c`` held by actor ``a`` (trace only)."""
    mask = 0
    for m in range(c * PER_COLOUR, (c + 1) * PER_COLOUR):
        if state[S_MLOC + m] == M_HAND + a:
            mask |= 1 << (m - c * PER_COLOUR)
    return mask


@njit(cache=True)
def run_game(state, cfg, seat_slot, fns, sp, streams, legal, log):
    """Setup, 5 rounds of phases 1-3, the final exploration and the end steps."""
    deal_hands(state, cfg, seat_slot, fns, sp, streams, legal, log)
    log_ev(state, log, EV_SETUP, state[S_PLAYERS], state[S_ALLEN], state[S_CORNER], state[S_FACING], state[S_START])
    for a in range(n_actors(state)):
        log_ev(state, log, EV_HAND, a, hand_mask(state, a, 0), hand_mask(state, a, 1), hand_mask(state, a, 2),
               hand_mask(state, a, 3))
    ok = True
    for r in range(1, cfg[O.rounds] + 1):
        state[S_ROUND] = r
        if r > 1:
            phase1(state, cfg, seat_slot, fns, sp, streams, legal, log)
        else:
            start_event(state, cfg, seat_slot, fns, sp, streams, legal, log)
        if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
            raise ValueError("invariant broken after phase 1")
        log_ev(state, log, EV_ROUND, r, state[S_CORNER], state[S_FACING], current_coast(state), state[S_EVENT])
        for a in range(n_actors(state)):
            log_ev(state, log, EV_HAND, a, hand_mask(state, a, 0), hand_mask(state, a, 1), hand_mask(state, a, 2),
                   hand_mask(state, a, 3))
        if state[S_DECKOUT]:
            ok = False
            break
        phase2(state, cfg, seat_slot, fns, sp, streams, legal, log)
        if state[S_DECKOUT]:
            ok = False
            break
        ok = phase3(state, cfg, seat_slot, fns, sp, streams, legal, log)
        if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
            raise ValueError("invariant broken after phase 3")
        if not ok:
            break
        log_standings(state, cfg, seat_slot, fns, sp, streams, log, False)
    if ok:
        state[S_ROUND] = 6
        final_exploration(state, cfg, seat_slot, fns, sp, streams, legal, log)
    if cfg[O.debug_checks] and check_invariants(state, cfg) != 0:
        raise ValueError("invariant broken at game end")
    final_scoring(state, cfg, seat_slot, fns, sp, streams, legal, log)
    log_standings(state, cfg, seat_slot, fns, sp, streams, log, True)


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    setup(state, cfg, n_players, streams)
    run_game(state, cfg, seat_slot, fns, seat_params, streams, legal, log)
    write_rows(state, cfg, rows)
    for p in range(n_players):
        log_ev(state, log, EV_SCORE, p, state[P0 + p * PB + B_ELIM], state[P0 + p * PB + B_GROSS],
               state[P0 + p * PB + B_FEE], state[P0 + p * PB + B_NET], rows[p, COL_SCORE])
    return state[S_NEV]


STEP_SIGNATURE = types.int64(types.int32[::1], types.int64[::1], types.int64[::1], types.UniTuple(DECIDE_TYPE, 6),
                             types.float64[:, ::1], types.uint64[:, ::1], types.int32[::1], types.int32[:, ::1],
                             types.int64, types.int64, types.int64, types.int64, types.int64)
(OP_PLAY, OP_ISLET, OP_PASS, OP_PHASE1, OP_PHASE2, OP_COAST, OP_FINAL, OP_SCORING, OP_EVENT, OP_DEAL, OP_CARD,
 OP_TAKE, OP_RUN, OP_LANDING, OP_B4, OP_PHASE3) = range(16)


@njit(STEP_SIGNATURE, cache=True)
def step(state, cfg, seat_slot, fns, sp, streams, legal, log, op, a, b, c, d):
    """Run one rule step on a hand-built state (for tests and tools); returns the step's result."""
    if op == OP_PLAY:
        play_cards(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b, c, d)
    elif op == OP_ISLET:
        use_islet(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b, c, d)
    elif op == OP_PASS:
        do_pass(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b)
    elif op == OP_PHASE1:
        phase1(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_PHASE2:
        phase2(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_COAST:
        return 1 if explore_coast(state, cfg, seat_slot, fns, sp, streams, legal, log, a) else 0
    elif op == OP_FINAL:
        return 1 if final_exploration(state, cfg, seat_slot, fns, sp, streams, legal, log) else 0
    elif op == OP_SCORING:
        final_scoring(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_EVENT:
        start_event(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_DEAL:
        deal_hands(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_CARD:
        place_one_card(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b, c, d)
    elif op == OP_TAKE:
        take_one(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b, c == 1, TAKE_LOOT)
    elif op == OP_RUN:
        run_game(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_LANDING:
        return 1 if explore_landing(state, cfg, seat_slot, fns, sp, streams, legal, log, a, b == 1) else 0
    elif op == OP_B4:
        b4_returns(state, cfg, seat_slot, fns, sp, streams, legal, log)
    elif op == OP_PHASE3:
        return 1 if phase3(state, cfg, seat_slot, fns, sp, streams, legal, log) else 0
    return 0
