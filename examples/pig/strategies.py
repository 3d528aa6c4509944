"""Pig's strategies: uniform random, one hold-at-N heuristic, and the search players' play-out policy."""
from numba import njit

from simlab.core.rng import randint
from simlab.core.model import ROLLOUT_SIGNATURE, declare_play_out
from simlab.core.strategy import StrategyParam, strategy

from .components import O
from .state import HOLD, ROLL, S_PLAYERS, S_REACHED, S_SCORE, S_TOTAL


@strategy("pig", "random", "uniform random: roll again or hold, a coin flip at every decision", uniform=True)
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


HOLD_AT_PARAMS = (
    StrategyParam("at", 20.0, "hold once the turn total reaches this (20: the hold that maximises a turn's "
                  "expected gain with a 6-sided die)", 1, 1000, integer=True, search=(5, 40)),
    StrategyParam("chase", 0.0, "raise `at` by this much per 10 points behind the leader", 0, 100, search=(0, 10)),
)


@strategy("pig", "hold_at", "rolls until the turn total reaches `at` (raised by `chase` when behind), and holds "
          "at once when banking wins; in an equal-turns last round, rolls until ahead of the leader",
          HOLD_AT_PARAMS, lean=True)
def hold_at(state, cfg, seat, legal, n_legal, params, rng):
    score, total = state[S_SCORE + seat], state[S_TOTAL]
    lead = 0
    for p in range(state[S_PLAYERS]):
        if p != seat:
            lead = max(lead, state[S_SCORE + p])
    if state[S_REACHED] >= 0:      # equal turns, last round: only passing the leader counts
        want = HOLD if score + total > lead else ROLL
    elif score + total >= cfg[O.target]:
        want = HOLD
    else:
        want = HOLD if total >= params[0] + params[1] * max(0, lead - score) / 10 else ROLL
    for i in range(n_legal):
        if legal[i] == want:
            return i
    return 0


@njit(ROLLOUT_SIGNATURE, cache=True)
def rollout(state, cfg, seat, legal, n_legal, heuristic, params, rng):
    """The search's play-out policy: 1 ``hold_at`` with ``params``, 0 uniform random."""
    if heuristic == 1:
        return hold_at(state, cfg, seat, legal, n_legal, params, rng)
    return randint(rng, n_legal)


declare_play_out("pig", rollout, ("hold_at",))
