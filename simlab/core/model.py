"""The step interface every game offers: its forward model, as numba first-class functions.

A game is played one decision at a time (the Pgx / OpenSpiel shape). Its state is one flat int32
array that holds the pending decision (who decides, what kind, its context, and whatever the rules
need to resume), so it can be copied and played forward from anywhere. The functions, with the
exact types below so that generic code (the search player) can take any game's as arguments::

    to_move(state) -> seat                      # the seat whose decision is pending; -1: game over
    legal(state, cfg, out) -> n                 # the pending decision's legal choice codes
    apply(state, cfg, code, streams, log)       # apply one, then advance (chance from the streams,
                                                #   automatic steps) to the next decision or the end
    observe(state, seat, obs)                   # what `seat` may see; hidden entries never leave
    determinize(obs, seat, cfg, rng, state)     # a full state consistent with `seat`'s observation
    returns(state, cfg, out)                    # each seat's tie-split win share (the utility)
    rollout(state, cfg, seat, legal, n, heuristic, params, rng) -> index
                                                # the play-out policy: the game's heuristic-th built-in
                                                #   heuristic (1..K; 0 = uniform) with parameters params
                                                #   (its defaults or a tuned set's: the search's table)
    state_size() -> int                         # entries of a state (and of an observation)
    reopen(state, seat)                         # (optional) hand back to the seats before `seat` the
                                                #   choices they made this round that `seat` cannot see
                                                #   (a simultaneous round asked in seat order): the search
                                                #   makes them again with its play-out policy instead of
                                                #   keeping determinize's uniform draws; default: none

A game declares them, with ``new_game`` and its invariant checker, as a :class:`StepModel` in its
``GameSpec`` (``model=``), next to its rules; every game with a model gets the search players
(:mod:`simlab.search`). The search receives them as one tuple (``reopen`` last, ``no_reopen`` where
a game has none), the game's *model* (TAG's forward model), so that a search player looks ahead
without a single engine change and without ever seeing the true hidden state (it only gets its
observation and samples the rest). The play-out policy is the strategies' part: a game's
strategies module declares it with :func:`declare_play_out`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from .rng import randint

# Games hand their step functions, and kernels their strategies, around as first-class functions:
# numba calls the feature experimental and warns once per process; it is how the project works.
warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)

STATE = types.int32[::1]
CFG = types.int64[::1]
STREAMS = types.uint64[:, ::1]
LOG = types.int32[:, ::1]
RNG = types.uint64[::1]

TO_MOVE_SIGNATURE = types.int64(STATE)
LEGAL_SIGNATURE = types.int64(STATE, CFG, types.int32[::1])
APPLY_SIGNATURE = types.none(STATE, CFG, types.int64, STREAMS, LOG)
OBSERVE_SIGNATURE = types.none(STATE, types.int64, types.int32[::1])
DETERMINIZE_SIGNATURE = types.none(types.int32[::1], types.int64, CFG, RNG, STATE)
RETURNS_SIGNATURE = types.none(STATE, CFG, types.float64[::1])
ROLLOUT_SIGNATURE = types.int64(STATE, CFG, types.int64, types.int32[::1], types.int64, types.int64,
                                types.float64[::1], RNG)
STATE_SIZE_SIGNATURE = types.int64()
REOPEN_SIGNATURE = types.none(STATE, types.int64)

MODEL_SIGNATURES = (TO_MOVE_SIGNATURE, LEGAL_SIGNATURE, APPLY_SIGNATURE, OBSERVE_SIGNATURE,
                    DETERMINIZE_SIGNATURE, RETURNS_SIGNATURE, ROLLOUT_SIGNATURE, STATE_SIZE_SIGNATURE,
                    REOPEN_SIGNATURE)
MODEL_TYPE = types.Tuple(tuple(types.FunctionType(s) for s in MODEL_SIGNATURES))

# Index of each function in a model tuple.
TO_MOVE, LEGAL, APPLY, OBSERVE, DETERMINIZE, RETURNS, ROLLOUT, STATE_SIZE, REOPEN = range(9)

MAX_CHOICES = 1024       # no game lists more legal choices at one decision
CODE_LIMIT = 1 << 16     # choice codes are below this (the search indexes marks by code)


@njit(REOPEN_SIGNATURE, cache=True)
def no_reopen(state, seat):
    """``reopen`` of a game whose seats never decide unseen of each other within a round."""


@dataclass(frozen=True)
class StepModel:
    """A game's step functions (signatures above), declared in its ``GameSpec``.

    ``new_game(state, cfg, n_players, streams)`` deals a game into a zeroed state of
    ``state_size()`` entries; ``invariants(state, cfg) -> code`` is 0 when the state is consistent
    (cards conserved, counts in range), else the number of the first broken invariant (the
    game's own list): the contract tests run it after every step of random play. ``hidden`` says
    in words what a determinisation samples (the reports and the search players' help say it);
    ``scratch`` the entries a strategy may write into the observation it is handed.
    """

    new_game: object
    to_move: object
    legal: object
    apply: object
    observe: object
    determinize: object
    returns: object
    state_size: object
    invariants: object
    hidden: str
    reopen: object = no_reopen
    scratch: range = range(0)    # entries a strategy may write into the observation it is handed (scratch)

    def search_tuple(self, rollout) -> tuple:
        """The model as the search receives it, with the strategies' play-out policy ``rollout``."""
        return (self.to_move, self.legal, self.apply, self.observe, self.determinize, self.returns, rollout,
                self.state_size, self.reopen)


@dataclass(frozen=True)
class PlayOut:
    """The play-out policy a game's strategies offer the search: ``rollout`` (signature above) plays
    heuristic k (1..K) of ``heuristics``; ``default`` the policy ``rollout`` plays out with by
    default (a heuristic or a tuned set ``BASE@SET``: the strongest)."""

    rollout: object
    heuristics: tuple[str, ...]
    default: str


PLAY_OUTS: dict[str, PlayOut] = {}


def declare_play_out(game: str, rollout, heuristics: tuple[str, ...], default: str | None = None) -> None:
    """Called by a game's strategies module: the search players play out with ``rollout``."""
    PLAY_OUTS[game] = PlayOut(rollout, tuple(heuristics), default or heuristics[0])


@njit(ROLLOUT_SIGNATURE, cache=True)
def uniform_rollout(state, cfg, seat, legal, n, heuristic, params, rng):
    """The play-out policy of a game whose strategies declare none: uniform random."""
    return randint(rng, n)

