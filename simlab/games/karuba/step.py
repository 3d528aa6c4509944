"""Karuba as a step-interface game (the contract of ``simlab.core.model``), and built-in play through it.

A round is simultaneous in the box: every seat decides on the same pre-round islands. Here the
seats decide one after the other (``S_TURN``), each choice is kept in the state's hidden tail
(``T_CHOSEN``, private to its seat) and the round is carried out, in seat order as before, when
the last seat has chosen. Islands only change then, so a later seat sees nothing of the earlier
seats' choices. All chance but a possible gold-shortage draw happens at setup: the only secret is
the order of the tiles still face down (``T_ORDER``).

The rollout policy (``rollout`` of the model) lives with the heuristics it calls, in
``strategies/karuba/``: the game's modules never import strategies.
"""
import numpy as np
from numba import njit

from simlab.core.play import (COL_SCORE, EVENT_WIDTH, PLAY_SIGNATURE, REFUSAL_SIZE, check_refusal, emit,
                              invariants_broken, keep_view, lean, play_steps, split_wins, win_key)
from simlab.core.rng import randint
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE,
                               REOPEN_SIGNATURE, RETURNS_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

from .components import N_TILES, O
from .invariants import check_invariants
from .rules import (EV_END, EV_SCORE, EV_SETUP, carry_out_round, legal_choices, reveal, score_parts, setup,
                    write_rows)
from .state import (B_PLACED, END_RUNNING, HIDDEN, MAX_CHOICES, MAX_PLAYERS, OBS_VIEW, P0, PB, S_BEACH,
                    S_END, S_PLAYERS, S_ROUND, S_SEQ, S_TEMPLE, S_TURN, STATE_SIZE, T_CHOSEN, T_EVENTS, T_ORDER)


@njit(cache=True)
def begin(state, cfg, n_players, streams, log):
    """Set up the islands and reveal the first tile (traced when ``log`` has room): seat 0 is to choose."""
    setup(state, cfg, n_players, streams)
    n_ev = 0
    for c in range(4):
        n_ev = emit(log, n_ev, EV_SETUP, c, 10 * (state[S_BEACH + c] + 1), 10 * (state[S_TEMPLE + c] + 1))
    state[T_EVENTS] = reveal(state, cfg, log, n_ev)
    state[S_TURN] = 0
    for p in range(MAX_PLAYERS):
        state[T_CHOSEN + p] = HIDDEN


@njit(cache=True)
def new_game(state, cfg, n_players, streams):
    begin(state, cfg, n_players, streams, np.zeros((0, EVENT_WIDTH), np.int32))


@njit(TO_MOVE_SIGNATURE, cache=True, inline="always")
def to_move(state):
    return state[S_TURN]


@njit(LEGAL_SIGNATURE, cache=True, inline="always")
def legal(state, cfg, out):
    return legal_choices(state, state[S_TURN], cfg, out)


@njit(APPLY_SIGNATURE, cache=True, inline="always")
def apply(state, cfg, code, streams, log):
    """Record the seat's choice; after the last seat, carry out the round and reveal the next tile."""
    seat = state[S_TURN]
    state[T_CHOSEN + seat] = code
    if seat + 1 < state[S_PLAYERS]:
        state[S_TURN] = seat + 1
        return
    n_ev = carry_out_round(state, cfg, streams, log, state[T_EVENTS])
    for p in range(MAX_PLAYERS):
        state[T_CHOSEN + p] = HIDDEN
    if state[S_END] == END_RUNNING:
        n_ev = reveal(state, cfg, log, n_ev)
        state[S_TURN] = 0
    else:
        state[S_TURN] = -1
    state[T_EVENTS] = n_ev
    if cfg[O.check_invariants]:
        broken = check_invariants(state, cfg)
        if broken:
            invariants_broken(broken)


@njit(OBSERVE_SIGNATURE, cache=True)
def observe(state, seat, obs):
    """The view (islands, revealed tiles, setup: all open), the seat's own choice this round, and
    HIDDEN for the tiles still face down and the other seats' choices."""
    obs[:OBS_VIEW] = state[:OBS_VIEW]
    for i in range(N_TILES):
        obs[T_ORDER + i] = HIDDEN
    for p in range(MAX_PLAYERS):
        obs[T_CHOSEN + p] = state[T_CHOSEN + p] if p == seat else HIDDEN
    obs[T_EVENTS] = state[T_EVENTS]


@njit(DETERMINIZE_SIGNATURE, cache=True)
def determinize(obs, seat, cfg, rng, state):
    """A full state the seat cannot tell from the true one.

    The face-down tiles are a uniform random order of those not yet shown (the order is uniform
    and nothing else tells them apart). The choices other seats already made this round
    are unknown: each is drawn uniformly from that seat's legal choices (the search players then
    reopen them, ``reopen``, and make them with their play-out policy). ``obs`` may also be just the view (``OBS_VIEW``
    entries, what built-in play hands a strategy): the seat's own earlier choice this round, if
    any, is then drawn too, and the trace count starts at 0.
    """
    state[:OBS_VIEW] = obs[:OBS_VIEW]
    rnd = state[S_ROUND]   # tiles shown
    seen = np.int64(0)
    for i in range(rnd):
        t = state[S_SEQ + i]
        state[T_ORDER + i] = t
        seen |= np.int64(1) << t
    k = rnd
    for t in range(1, N_TILES + 1):
        if not (seen >> t) & 1:
            state[T_ORDER + k] = t
            k += 1
    for i in range(N_TILES - 1, rnd, -1):  # Fisher-Yates over the face-down part
        j = rnd + randint(rng, i - rnd + 1)
        state[T_ORDER + i], state[T_ORDER + j] = state[T_ORDER + j], state[T_ORDER + i]
    full = obs.shape[0] >= STATE_SIZE
    state[T_EVENTS] = obs[T_EVENTS] if full else 0
    buf = np.empty(MAX_CHOICES, np.int32)
    for p in range(MAX_PLAYERS):
        if p == seat and full:
            state[T_CHOSEN + p] = obs[T_CHOSEN + p]
        elif p < state[S_TURN]:
            n = legal_choices(state, p, cfg, buf)
            state[T_CHOSEN + p] = buf[randint(rng, n)]
        else:
            state[T_CHOSEN + p] = HIDDEN


@njit(REOPEN_SIGNATURE, cache=True)
def reopen(state, seat):
    """Back to the start of the round's choices when earlier seats chose unseen by ``seat``: their
    choices are forgotten and seat 0 is to choose again. Islands only change once every seat has
    chosen, so they choose on the view they had: the round is the same, only their choices redrawn."""
    if state[S_TURN] != seat or seat == 0:
        return
    for p in range(seat):
        state[T_CHOSEN + p] = HIDDEN
    state[S_TURN] = 0


@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    """Tie-split win shares: most points wins, ties go to more tiles placed, then are shared."""
    for p in range(state[S_PLAYERS]):
        out[p] = win_key(score_parts(state, p, cfg)[4], state[P0 + p * PB + B_PLACED])
    split_wins(out, state[S_PLAYERS])


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return STATE_SIZE


@njit(cache=True)
def play_from(state, cfg, seat_slot, fns, seat_params, streams, log):
    """Play the game on from ``state`` to its end, the seats' strategies deciding (see ``play_on``)."""
    refusal = np.zeros(REFUSAL_SIZE, dtype=np.int64)
    play_on(state, cfg, seat_slot, fns, seat_params, streams, log, np.empty(MAX_CHOICES, dtype=np.int32), refusal)
    check_refusal(refusal)


@lean
def play_on(state, cfg, seat_slot, fns, seat_params, streams, log, buf, refusal):
    """``play_from``'s loop (``simlab.core.play.play_steps``), lean. A strategy receives the state's
    view (its first ``OBS_VIEW`` entries), which at every decision equals the deciding seat's
    observation there (the hidden tail lies beyond it), so no copy is made."""
    view = state[:OBS_VIEW]
    play_steps(to_move, legal, apply, keep_view, state, cfg, seat_slot, fns, seat_params, streams, log, buf, view,
               view, refusal)


@njit(cache=True)
def finish(state, cfg, rows, log):
    """After the last decision: the result rows, and the end and the scores traced; the event count."""
    n_ev = emit(log, state[T_EVENTS], EV_END, state[S_END], state[S_ROUND])
    write_rows(state, cfg, rows)
    for p in range(state[S_PLAYERS]):
        n_ev = emit(log, n_ev, EV_SCORE, p, rows[p, COL_SCORE])
    return n_ev


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """One game through the step interface: ``new_game``, then ``to_move`` / ``legal`` / ``apply``."""
    state = np.empty(STATE_SIZE, dtype=np.int32)
    begin(state, cfg, n_players, streams, log)   # new_game, traced
    play_from(state, cfg, seat_slot, fns, seat_params, streams, log)
    return finish(state, cfg, rows, log)

