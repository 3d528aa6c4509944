"""The one chunk loop every game shares, and the contract a game kernel fulfils.

A game supplies ``play_game`` compiled with :data:`PLAY_SIGNATURE`::

    play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log) -> n_events

* ``cfg``: the packed rule parameters (see :mod:`simlab.core.params`);
* ``seat_slot[s]``: which strategy slot plays seat ``s`` this game (seat rotation);
* ``fns`` / ``seat_params``: the strategies' decision functions and parameter rows, by slot (a
  row's ``BLIND_COLUMN`` says what the strategy reads, see :mod:`simlab.core.strategy`); a game
  asks a seat through :func:`play_steps` (or, checked, :func:`seat_choice`);
* ``streams``: ``uint64[N_STREAMS, 4]``, the game's random streams by purpose, already seeded
  (see :mod:`simlab.core.rng`): the game draws its chance from the rows it names for its purposes
  (``GameSpec.chance_streams``) and passes the strategy in slot ``k`` the row ``STRATEGY_STREAM + k``;
* ``rows``: ``int32[n_players, n_columns]``; the game writes score and tie-break into
  :data:`COL_SCORE` and :data:`COL_TIEBREAK` and its own columns from :data:`FIRST_GAME_COLUMN`;
* ``log``: ``int32[capacity, EVENT_WIDTH]``; when capacity > 0 the game records events for a
  trace (see :func:`emit`) and returns how many it wrote. Every game's log includes, at the end of
  each round, an :data:`EV_STANDINGS` event (see :func:`emit_standings`); its last one is the final
  score.

Passing ``play_game`` itself as a first-class function keeps this loop, and its compiled cache,
shared by all games.
"""
import numpy as np
from numba import njit, types

from .rng import N_STREAMS, STRATEGY_STREAM, randint, seed_streams
from .model import MAX_CHOICES
from .strategy import BLIND_COLUMN, DECIDE_TYPE, SEES, UNIFORM

MAX_SEATS = 6
EVENT_WIDTH = 8
COL_SLOT, COL_SCORE, COL_TIEBREAK = 0, 1, 2
FIRST_GAME_COLUMN = 3
# The win rule, as core/results.py ranks result rows: the most score wins, then the higher tie-break
# (a game's own column: tiles placed, the ship further ahead, the seat order); equal keys share.
WIN_SCALE, TIE_OFFSET = 65536, 32768
# The one event kind all games share: the standings at the end of a round, "the score each seat
# would have if the game ended now", fields (round, score of seat 0, ..., seat 5). Game-specific
# kinds count up from 0; this value stays clear of them.
EV_STANDINGS = 100
# How seats get their strategy slots, game by game (``seating`` of play_chunk).
FIXED, ROTATE, DUPLICATE = 0, 1, 2

PLAY_SIGNATURE = types.int64(
    types.int64[::1],
    types.int64,
    types.int64[::1],
    types.UniTuple(DECIDE_TYPE, MAX_SEATS),
    types.float64[:, ::1],
    types.uint64[:, ::1],
    types.int32[:, ::1],
    types.int32[:, ::1],
)


@njit(cache=True, inline="always")
def win_key(score, tiebreak):
    """A seat's key under the win rule (a float, exact: ``returns`` writes it into its output)."""
    return float(score) * WIN_SCALE + tiebreak + TIE_OFFSET


@njit(cache=True, inline="always")
def split_wins(out, n):
    """``returns``' last step in every game: ``out[:n]`` holds each seat's :func:`win_key` (``-inf``
    for a seat out of the game) and becomes its win share, a tie split evenly; all 0 when every seat
    is out."""
    best = -np.inf
    winners = 0
    for p in range(n):
        if out[p] > best:
            best = out[p]
            winners = 1
        elif out[p] == best:
            winners += 1
    for p in range(n):
        out[p] = 1.0 / winners if best > -np.inf and out[p] == best else 0.0


class IllegalChoice(ValueError):
    """A strategy returned an index outside ``legal[:n]``; args: (seat, slot, n_legal, index).

    The kernel only knows the decision; the runner adds the game id (by replaying the chunk game
    by game) and the strategy's label, and reports it as one line.
    """


@njit(cache=True, _nrt=True)   # raises with values: counted even when a lean rule calls it (Loot Island's decide)
def legal_index(i, n_legal, seat, slot):
    """``i`` when it indexes ``legal[:n_legal]``, else stop the game with :class:`IllegalChoice`."""
    if i < 0 or i >= n_legal:
        raise IllegalChoice(seat, slot, n_legal, i)
    return i


class InvariantBroken(ValueError):
    """A game's invariant checker found a breach (``check_invariants`` on): a rules bug; args: (the
    number of the broken invariant in the game's list)."""


@njit(cache=True, _nrt=True)   # raises with a value: counted even when a lean rule calls it
def invariants_broken(code):
    """Stop the game: invariant ``code`` of its checker (``StepModel.invariants``) is broken."""
    raise InvariantBroken(code)


@njit(cache=True, inline="always")
def sight(seat_params, slot):
    """What the strategy in ``slot`` reads (``SEES``, ``BLIND`` or ``UNIFORM``); ``SEES`` for parameter
    rows without a ``BLIND_COLUMN`` (a caller that builds its own)."""
    return seat_params[slot, BLIND_COLUMN] if seat_params.shape[1] > BLIND_COLUMN else SEES


@njit(cache=True, inline="always")
def seat_pick(fns, slot, seen, cfg, seat, legal, n, seat_params, streams):
    """The answer of the strategy in ``slot`` for ``seat``: an index meant for ``legal[:n]``, unchecked.

    A ``UNIFORM`` strategy's draw is made here, the very draw it would make from its own stream, so
    uniform play costs no call through the function pointer.
    """
    if sight(seat_params, slot) == UNIFORM:
        return randint(streams[STRATEGY_STREAM + slot], n)
    return fns[slot](seen, cfg, seat, legal, n, seat_params[slot], streams[STRATEGY_STREAM + slot])


@njit(cache=True, inline="always")
def seat_choice(fns, slot, seen, cfg, seat, legal, n, seat_params, streams):
    """:func:`seat_pick`, checked: an answer outside ``legal[:n]`` stops the game with :class:`IllegalChoice`."""
    return legal_index(seat_pick(fns, slot, seen, cfg, seat, legal, n, seat_params, streams), n, seat, slot)


@njit(cache=True, inline="always")
def play_steps(to_move, legal, apply, observe, state, cfg, seat_slot, fns, seat_params, streams, log, buf, obs,
               nothing, refusal):
    """Every game's built-in play, from ``state`` to the end through its step functions (a game's
    ``play_on`` calls it with its own; inlined, so each game compiles its own loop, lean).

    A seat with one legal choice is not asked. A strategy that reads the state is handed ``obs``
    after ``observe(state, seat, obs)``: a buffer the loop owns, or, for a game whose state's
    first entries are at every decision what the deciding seat may see, that view of the state
    itself with :func:`keep_view` as ``observe`` (no copy: strategies must not write into it); a
    blind one is handed ``nothing``. An illegal answer is recorded in ``refusal`` and the loop
    returns (:func:`lean` code raises nothing with values; its caller does)."""
    seat = to_move(state)
    while seat >= 0:
        n = legal(state, cfg, buf)
        i = 0
        if n > 1:
            slot = seat_slot[seat]
            seen = nothing
            if sight(seat_params, slot) == SEES:
                observe(state, seat, obs)
                seen = obs
            i = seat_pick(fns, slot, seen, cfg, seat, buf, n, seat_params, streams)
            if i < 0 or i >= n:
                refuse(refusal, seat, slot, n, i)
                return
        elif n < 1:
            raise ValueError("a decision with no legal choice")
        apply(state, cfg, buf[i], streams, log)
        seat = to_move(state)


@njit(cache=True, inline="always")
def keep_view(state, seat, obs):
    """``observe`` for :func:`play_steps` when ``obs`` is the state's own view: nothing to copy."""


def lean(fn):
    """Compile ``fn`` without numba's reference counting (its runtime, NRT, off) for a game's hot loop.

    With NRT on, every array that changes hands between compiled functions is counted with an
    atomic increment and decrement, and numba's pruning leaves most of those pairs in loops: they
    were 40-50% of random play's time. A lean function, and everything it calls (compiled for it
    in the same mode), may neither allocate nor raise an exception carrying values; it may call
    strategies through their function pointers (compiled apart, with NRT). Its arrays are its
    caller's, alive for the whole call, so no count is needed; for the same reason no function it
    calls may return an array (an NRT caller of the same compiled code would release a reference
    never taken). A function that must allocate says ``_nrt=True`` in its decorator and keeps its
    counts when a lean one calls it. A loop that meets an illegal answer records it (:func:`refuse`)
    and returns; its caller, compiled with NRT, raises (:func:`check_refusal`).

    Numba compiles a function once per argument types, in the mode of whichever caller typed it
    first: a rule function also reached from NRT code (``begin``, the search) may be compiled with
    counts before the lean loop asks for it. Hot rules therefore say ``@lean`` themselves, as
    Karuba's ``legal_choices`` and ``carry_out_round`` do.
    """
    return njit(cache=True, _nrt=False)(fn)


REFUSAL_SIZE = 4   # seat, slot, legal choices, the answer given (0 choices: none refused)


@njit(cache=True, inline="always")
def refuse(refusal, seat, slot, n, i):
    """Record an illegal answer in a lean loop, which then returns."""
    refusal[0], refusal[1], refusal[2], refusal[3] = seat, slot, n, i


@njit(cache=True)
def check_refusal(refusal):
    """Raise :class:`IllegalChoice` for the answer a lean loop refused (nothing when none was)."""
    if refusal[2] > 0:
        legal_index(refusal[3], refusal[2], refusal[0], refusal[1])


@njit(cache=True)
def emit(log, n, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append one trace event when logging is on; returns the new event count."""
    if n < log.shape[0]:
        row = log[n]
        row[0] = kind
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = d
        row[5] = e
        row[6] = f
        row[7] = g
        return n + 1
    return n


@njit(cache=True)
def emit_standings(log, n, rnd, scores, n_players):
    """Append the standings after round ``rnd`` (``scores[:n_players]``, seats beyond it 0)."""
    s = np.zeros(MAX_SEATS, dtype=np.int64)
    for p in range(n_players):
        s[p] = scores[p]
    return emit(log, n, EV_STANDINGS, rnd, s[0], s[1], s[2], s[3], s[4], s[5])


def standings_words(event, n_players: int, when: str | None = None) -> str:
    """A trace line for an :data:`EV_STANDINGS` event: ``Standings after round 3: seat 1 12, seat 2 9.``"""
    scores = ", ".join(f"seat {p + 1} {int(event[2 + p])}" for p in range(n_players))
    return f"  Standings after {when or f'round {int(event[1])}'}: {scores}."


# Typed explicitly so that the game's play_game arrives as a plain function pointer: typed from
# the dispatcher object instead, the cache would miss in every new process.
CHUNK_SIGNATURE = types.int64(
    types.FunctionType(PLAY_SIGNATURE),
    types.uint64[::1],
    types.int64,
    types.int64[::1],
    types.int64,
    types.int64,
    types.int64,
    types.UniTuple(DECIDE_TYPE, MAX_SEATS),
    types.float64[:, ::1],
    types.int32[:, :, ::1],
    types.int32[:, ::1],
    types.int64[::1],
)


@njit(CHUNK_SIGNATURE, cache=True)
def play_chunk(play_game, key, first_game, cfg, n_players, seating, n_chance, fns, seat_params, out, log, ends):
    """Play games ``first_game .. first_game + len(out) - 1`` into ``out[g, seat, column]``.

    ``seating``: FIXED, slot ``s`` plays seat ``s``; ROTATE, the slots turn one seat per game, so
    each strategy sits in each seat equally often; DUPLICATE, as in duplicate bridge, every deal
    (all chance) is played ``n_players`` times in a row, once in each rotation: game ``g`` is
    rotation ``g % n`` of deal ``g // n``, so seat and strategy effects are measured within deals.
    The strategy in slot ``k`` draws from its own stream, the same whatever seat it sits in;
    ``n_chance`` is the number of chance streams the game names.

    Logging: with ``ends`` empty only game 0 logs (a trace; the regression digests); with one
    entry per game every game logs, each after the one before, as if alone in what room is left,
    and ``ends[g]`` is the event count after game ``g`` (a game after which the log is full may
    have lost events: the caller plays it again with more room). Returns the events written.
    """
    streams = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seat_slot = np.zeros(n_players, dtype=np.int64)
    no_log = np.zeros((0, EVENT_WIDTH), dtype=np.int32)
    n_events = 0
    every_game = ends.shape[0] > 0
    for g in range(out.shape[0]):
        game_id = first_game + g
        deal = game_id // n_players if seating == DUPLICATE else game_id
        seed_streams(key, deal, streams, n_chance, n_players)
        shift = game_id % n_players if seating != FIXED else 0
        for s in range(n_players):
            seat_slot[s] = (s + shift) % n_players
        rows = out[g]
        rows[:, :] = 0
        if g == 0 or every_game:
            n_events += play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log[n_events:])
            if every_game:
                ends[g] = n_events
        else:
            play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, no_log)
        for s in range(n_players):
            rows[s, COL_SLOT] = seat_slot[s]
    return n_events


def play_through(model, cfg, n_players: int, streams, choose, check: bool = True, state=None):
    """Play one game through ``model`` from its deal (or from ``state``, played on in place) to the
    end and return the final state: ``choose(state, seat, legal, n) -> index`` answers each decision
    with more than one choice. With ``check``, the model's invariants are checked after the deal and
    after every step; a breach raises ``InvariantBroken(code, steps)``. A Python loop over the
    compiled steps: for tests and tools, not for speed."""
    if state is None:
        state = np.zeros(model.state_size(), np.int32)
        model.new_game(state, cfg, n_players, streams)
    legal = np.zeros(MAX_CHOICES, np.int32)
    no_log = np.zeros((0, EVENT_WIDTH), np.int32)
    steps = 0
    while True:
        if check and (broken := model.invariants(state, cfg)):
            raise InvariantBroken(int(broken), steps)
        seat = model.to_move(state)
        if seat < 0:
            return state
        n = model.legal(state, cfg, legal)
        if n < 1:
            raise ValueError(f"a decision with no legal choice after {steps} steps")
        model.apply(state, cfg, legal[choose(state, seat, legal, n) if n > 1 else 0], streams, no_log)
        steps += 1
