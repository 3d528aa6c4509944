"""Loot Island as a step-interface game (the contract of ``simlab.core.model``), and built-in play through it.

The rules are resumable procedures on a stack kept in the state (``program.py``, ``flow.py``): a
decision asked from deep inside one (a treasure pick inside a loot inside phase 3) leaves the
procedure's place and locals in the state, ``legal`` lists its choices from there and ``apply``
resumes it and runs the game on (all chance from the streams by purpose) to the next decision.

What a seat may not see (``state.py`` lists it) is set to ``HIDDEN`` in its observation, which has
the state's layout, so the strategies read the same offsets as before. The rollout policy
(``rollout`` of the model) lives with the heuristics it calls, in ``strategies/loot_island.py``: the
game's modules never import strategies.
"""
import numpy as np
from numba import njit

from simlab.core.play import (COL_SCORE, EVENT_WIDTH, PLAY_SIGNATURE, REFUSAL_SIZE, check_refusal, lean, play_steps,
                              split_wins, win_key)
from simlab.core.rng import randint
from simlab.core.scratch import stack_scratch
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE,
                               RETURNS_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

from .board import EV_SCORE, log_ev, move_map
from .components import N_HEALER, N_MAP, N_TREASURE, O
from .flow import advance, choices, seat_score
from .preparation import setup
from .program import PR_GAME, call
from .rules import write_rows
from .state import (B_ELIM, B_FEE, B_GROSS, B_HAND_BITS, B_HAND_N, B_NET, ELIM_NONE, FACE_UP_EVENTS, FACE_UP_HEALERS,
                    HIDDEN, M_DRAW, M_HAND, MAX_LEGAL, P0, PB, PH_END, S_EVENT_SEQ, S_EVENTS_SEEN, S_HEALERS, S_MDRAW,
                    S_MDRAW_N, S_MLOC, S_NEV, S_PHASE, S_MDISC, S_PLAYERS, S_ROUND, S_STAGE, S_START, S_TDECK, S_TDISC,
                    S_TLOC, S_TURN, STATE_SIZE, T_DECK, X_CHOICE, X_FACE_UP, X_PENDING, X_TSHUFFLED)


@njit(cache=True)
def begin(state, cfg, n_players, streams, log):
    """Set up and run the game (traced when ``log`` has room) to its first decision."""
    setup(state, cfg, n_players, streams)
    call(state, PR_GAME)
    advance(state, cfg, streams, log, 0)


@njit(cache=True)
def new_game(state, cfg, n_players, streams):
    begin(state, cfg, n_players, streams, np.zeros((0, EVENT_WIDTH), np.int32))


@njit(TO_MOVE_SIGNATURE, cache=True, inline="always")
def to_move(state):
    return state[S_TURN] if state[X_PENDING] else -1


@njit(LEGAL_SIGNATURE, cache=True, inline="always")
def legal(state, cfg, out):
    return choices(state, cfg, out)


@njit(APPLY_SIGNATURE, cache=True, inline="always")
def apply(state, cfg, code, streams, log):
    """The pending decision takes ``code``; the game runs on to the next decision or its end."""
    state[X_CHOICE] = code
    state[X_PENDING] = 0
    advance(state, cfg, streams, log, 0)


@lean
def view(state, seat, obs):
    """``observe`` for an ``obs`` whose draw pile and treasure deck entries are HIDDEN already (the
    loop's own buffer): copy the rest of the state and hide the other parts ``seat`` may not see."""
    for j in range(S_MDRAW):   # element loops: a slice assignment copies its source first (an allocation)
        obs[j] = state[j]
    for j in range(S_MDISC, S_TDECK):
        obs[j] = state[j]
    for j in range(S_TDISC, S_MLOC):
        obs[j] = state[j]
    n = state[S_PLAYERS]
    for j in range(S_MLOC, S_MLOC + N_MAP):
        loc = state[j]
        obs[j] = HIDDEN if loc == M_DRAW or (M_HAND <= loc < M_HAND + n and loc != M_HAND + seat) else loc
    for j in range(S_MLOC + N_MAP, STATE_SIZE):
        obs[j] = state[j]
    for q in range(n):   # the other players' hands by colour, as their cards' places
        if q != seat:
            for c in range(4):
                obs[P0 + q * PB + B_HAND_BITS + c] = HIDDEN
    if not (state[X_FACE_UP] & FACE_UP_HEALERS) and state[S_PHASE] != PH_END:
        for i in range(5):
            obs[S_HEALERS + i] = HIDDEN
    later = state[S_ROUND]
    if later < 5:
        if state[X_FACE_UP] & FACE_UP_EVENTS:   # the set is known, not the order
            sort_range(obs, S_EVENT_SEQ + later, S_EVENT_SEQ + 5)
        else:
            obs[S_EVENT_SEQ + later:S_EVENT_SEQ + 5] = HIDDEN
    if seat != state[S_TURN]:
        obs[S_STAGE:S_STAGE + 22] = HIDDEN
    obs[X_CHOICE] = HIDDEN


@lean
def sort_range(a, lo, hi):
    """Sort ``a[lo:hi]`` in place (a few entries: insertion sort, which allocates nothing, unlike
    numba's ``ndarray.sort``)."""
    for i in range(lo + 1, hi):
        v = a[i]
        j = i - 1
        while j >= lo and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@lean
def shuffle_range(state, start, k, rng):
    for i in range(k - 1, 0, -1):
        j = randint(rng, i + 1)
        state[start + i], state[start + j] = state[start + j], state[start + i]


@lean
def order_events(state, cfg, later, rng):
    """Face-up events of rounds after this one: the known set in a random order, forced ones at the
    rounds the settings give them."""
    seq = stack_scratch(5)
    k = 5 - later
    for i in range(k):
        seq[i] = state[S_EVENT_SEQ + later + i]
    for j in range(later, 5):   # forced ones out of the set
        f = cfg[O.forced_events + j] - 1
        if f < 0:
            continue
        for i in range(k):
            if seq[i] == f:
                seq[i] = seq[k - 1]
                k -= 1
                break
    for i in range(k - 1, 0, -1):
        j = randint(rng, i + 1)
        seq[i], seq[j] = seq[j], seq[i]
    i = 0
    for j in range(later, 5):
        f = cfg[O.forced_events + j] - 1
        if f >= 0:
            state[S_EVENT_SEQ + j] = f
        else:
            state[S_EVENT_SEQ + j] = seq[i]
            i += 1


@lean
def deal_events(state, cfg, later, rng):
    """Face-down events of rounds after this one, drawn as setup draws them: forced ones where the
    settings put them, the others uniformly from the B events of the pool not seen or forced."""
    if not cfg[O.events_enabled]:
        return
    taken = np.int64(state[S_EVENTS_SEEN])
    for r in range(5):
        f = cfg[O.forced_events + r]
        if f > 0:
            taken |= np.int64(1) << (f - 1)
            if r >= later:
                state[S_EVENT_SEQ + r] = f - 1
    for r in range(later, 5):
        if cfg[O.forced_events + r] > 0:
            continue
        k = 0
        for e in range(4, 18):
            if cfg[O.event_pool + e] and not (taken >> e) & 1:
                k += 1
        state[S_EVENT_SEQ + r] = -1
        if k == 0:
            continue
        pick = randint(rng, k)
        for e in range(4, 18):
            if cfg[O.event_pool + e] and not (taken >> e) & 1:
                if pick == 0:
                    state[S_EVENT_SEQ + r] = e
                    taken |= np.int64(1) << e
                    break
                pick -= 1


@njit(OBSERVE_SIGNATURE, cache=True)
def observe(state, seat, obs):
    """The state as ``seat`` sees it: the draw pile, the treasure deck, later events (under the
    face-up variant: their set, in ascending order), face-down healers, where the cards of the draw
    pile and the other players' hands are, and others' staged cards are HIDDEN."""
    obs[S_MDRAW:S_MDISC] = HIDDEN
    obs[S_TDECK:S_TDISC] = HIDDEN
    view(state, seat, obs)


@njit(DETERMINIZE_SIGNATURE, cache=True, _nrt=False)   # lean (simlab.core.play.lean): once a play-out
def determinize(obs, seat, cfg, rng, state):
    """A full state ``seat`` cannot tell from the true one, the hidden parts drawn uniformly given
    what the seat knows.

    * Map cards it cannot place (draw pile and the other players' hands) are dealt again at random,
      the pile and each hand keeping its size. A simplification: after a reshuffle of the discards,
      the draw pile can only hold reshuffled cards, which this ignores.
    * The treasure deck's cards (their set is known) in a random order: before any reshuffle each
      deck I-IV is shuffled on its own, IV at the bottom and I on top (as dealt); after one, wholly.
    * Face-down healers: distinct random ones of the 14.
    * Later events: face up, their known set in a random order; face down, drawn as the setup draws
      them from the events not seen yet (``forced_events`` are known from the settings).
    Staged cards are the deciding seat's own: ``obs`` is that of the seat to move (another seat's
    observation leaves them HIDDEN).
    """
    for i in range(state.shape[0]):   # (a slice copy would allocate when it cannot rule out an overlap)
        state[i] = obs[i]
    n = state[S_PLAYERS]
    # map cards
    unknown = stack_scratch(N_MAP)
    k = 0
    for m in range(N_MAP):
        if obs[S_MLOC + m] == HIDDEN:
            unknown[k] = m
            k += 1
    for i in range(k - 1, 0, -1):
        j = randint(rng, i + 1)
        unknown[i], unknown[j] = unknown[j], unknown[i]
    pile = state[S_MDRAW_N]
    for j in range(N_MAP):
        state[S_MDRAW + j] = unknown[j] if j < pile else 0
        if j < pile:
            move_map(state, unknown[j], M_DRAW)
    at = pile
    for q in range(n):
        if q == seat:
            continue
        for c in range(4):   # (HIDDEN in the observation)
            state[P0 + q * PB + B_HAND_BITS + c] = 0
        for _ in range(state[P0 + q * PB + B_HAND_N]):
            move_map(state, unknown[at], M_HAND + q)
            at += 1
    # treasure deck
    k = 0
    for tier in range(4, 0, -1):
        start = k
        for t in range(N_TREASURE):
            if obs[S_TLOC + t] == T_DECK and (state[X_TSHUFFLED] or cfg[O.treasure_deck + t] == tier):
                state[S_TDECK + k] = t
                k += 1
        shuffle_range(state, S_TDECK + start, k - start, rng)
        if state[X_TSHUFFLED]:
            break
    state[S_TDECK + k:S_TDECK + N_TREASURE] = 0
    # healers
    if obs[S_HEALERS] == HIDDEN:
        taken = np.int64(0)
        for i in range(n):
            h = randint(rng, N_HEALER)
            while (taken >> h) & 1:
                h = randint(rng, N_HEALER)
            taken |= np.int64(1) << h
            state[S_HEALERS + i] = h
    # later events
    later = state[S_ROUND]
    if later < 5:
        if state[X_FACE_UP] & FACE_UP_EVENTS:
            order_events(state, cfg, later, rng)
        else:
            deal_events(state, cfg, later, rng)
    state[X_CHOICE] = 0



@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    """Win shares: the player still in with the most gold wins, ties to the one nearest the start
    player's right (the result rows' tie-break: never a tie); nobody when all are eliminated."""
    n = state[S_PLAYERS]
    for p in range(n):
        out[p] = (win_key(seat_score(state, p), n - (p - state[S_START] + n) % n)
                  if state[P0 + p * PB + B_ELIM] == ELIM_NONE else -np.inf)
    split_wins(out, n)


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return STATE_SIZE


@njit(cache=True)
def play_from(state, cfg, seat_slot, fns, seat_params, streams, log):
    """Play the game on from ``state`` to its end, the seats' strategies deciding (see ``play_on``)."""
    refusal = np.zeros(REFUSAL_SIZE, dtype=np.int64)
    play_on(state, cfg, seat_slot, fns, seat_params, streams, log, np.empty(MAX_LEGAL, dtype=np.int32),
            np.full(STATE_SIZE, HIDDEN, dtype=np.int32), np.full(STATE_SIZE, HIDDEN, dtype=np.int32), refusal)
    check_refusal(refusal)


@lean
def play_on(state, cfg, seat_slot, fns, seat_params, streams, log, buf, obs, nothing, refusal):
    """``play_from``'s loop (``simlab.core.play.play_steps``), lean. A strategy receives the deciding
    seat's observation in ``obs`` (``view``: a copy; its draw pile and treasure deck stay HIDDEN), a
    blind one (e.g. uniform random) ``nothing``, a buffer that shows nothing, sparing the copy."""
    play_steps(to_move, legal, apply, view, state, cfg, seat_slot, fns, seat_params, streams, log, buf, obs,
               nothing, refusal)


@njit(cache=True)
def finish(state, cfg, rows, log):
    """After the last decision: the result rows, and each seat's score traced; the event count."""
    write_rows(state, cfg, rows)
    for p in range(state[S_PLAYERS]):
        log_ev(state, log, EV_SCORE, p, state[P0 + p * PB + B_ELIM], state[P0 + p * PB + B_GROSS],
               state[P0 + p * PB + B_FEE], state[P0 + p * PB + B_NET], rows[p, COL_SCORE])
    return state[S_NEV]


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """One game through the step interface: ``begin``, then ``to_move`` / ``legal`` / ``apply``, then ``finish``."""
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    begin(state, cfg, n_players, streams, log)   # new_game, traced
    play_from(state, cfg, seat_slot, fns, seat_params, streams, log)
    return finish(state, cfg, rows, log)
