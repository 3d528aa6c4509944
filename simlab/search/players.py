"""The search players, one definition for every game with a step model (``GameSpec.model``).

The registry calls :func:`register_for` for each such game once its strategies are loaded; the
play-out policy is the one the game's strategies declare (``simlab.core.model.declare_play_out``:
``rollout`` beside its heuristics, heuristic 0 uniform, k its k-th heuristic with a given
parameter vector), or uniform random where they declare none.

* ``rollout``: the rollout algorithm (``proposals_search`` in :mod:`.algorithms`): the heuristics
  propose, each distinct proposal is played out with a heuristic in every seat, on common chance;
  the strongest player.
* ``mcts``: SO-ISMCTS (``ismcts`` in :mod:`.algorithms`) over every legal choice.

Their play-out policies are numbered 1..K for the game's heuristics at their defaults, in the order
given, then K+1.. for every tuned set of one of them saved in the game's tuned-sets file
(:mod:`simlab.core.tuned_sets`), by name: Loot Island's 4 is ``cautious@tuned``. The sets are read when
the strategies load, so a retune flows through with no edit; the runner counts them in a search
seat's code identity.

Each is compiled from the game's own copy of :mod:`.algorithms` (:mod:`.specialise`), in which the
game's step functions and its table of play-out policies are bound by name: numba compiles it on
the first decision of a seat that plays it and caches it like any kernel, so later processes (pool
and Dask workers too) read it from the cache.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.core.game import GameSpec
from simlab.core.model import PLAY_OUTS, PlayOut, StepModel, uniform_rollout
from simlab.core.strategy import MAX_STRATEGY_PARAMS, StrategyParam, get_strategy, strategy
from simlab.core.tuned_sets import tuned_sets

from .specialise import specialise


def play_out_policies(game: str, heuristics: tuple[str, ...]) -> tuple[tuple[str, ...], tuple]:
    """The names of the play-out policies 1.. (the heuristics, then their tuned sets) and the table
    the search reads, ``(heuristic, weights)``: row k holds policy k's heuristic index in the model's
    ``rollout`` and its parameter vector; row 0 is uniform random."""
    names = (*heuristics, *sorted(k for k in tuned_sets(game) if k.partition("@")[0] in heuristics))
    heuristic = np.zeros(len(names) + 1, np.int64)
    weights = np.zeros((len(names) + 1, MAX_STRATEGY_PARAMS), np.float64)
    for k, name in enumerate(names, 1):
        heuristic[k] = heuristics.index(name.partition("@")[0]) + 1
        weights[k] = get_strategy(game, name).vector({})
    return names, (heuristic, weights)


@dataclass(frozen=True)
class SearchModel:
    """What the search players of a game were registered with (for ``simlab bench --search``)."""
    step: StepModel               # the game's step functions
    model: tuple                  # the model the search receives (``StepModel.search_tuple``)
    names: tuple[str, ...]        # play-out policies 1.. by name
    policies: tuple               # the table (heuristic, weights) the search reads
    play_out: str                 # the policy ``rollout`` plays out with by default
    search: object                # the game's copy of simlab.search.algorithms, compiled and cached


SEARCH_MODELS: dict[str, SearchModel] = {}
SAMPLES = 24     # rollout's default determinisations per decision
MCTS_BIAS = 5.0     # mcts: the weight of the heuristics' prior (progressive bias); Karuba, 200 games: 0.2 / 5 beat 0.3 / 3 and 0.5 / 3
MCTS_EXPLORE = 0.2  # mcts: the UCB exploration constant


def register_for(spec: GameSpec) -> None:
    """Register ``mcts`` and ``rollout`` for ``spec``'s game (see the module docstring)."""
    game, step = spec.name, spec.model
    declared = PLAY_OUTS.get(game) or PlayOut(uniform_rollout, (), "")
    model = step.search_tuple(declared.rollout)
    names, policies = play_out_policies(game, declared.heuristics)
    n = len(names)
    listed = ", ".join(f"{i} {h}" for i, h in enumerate(names, 1)) or "none declared"
    play_out = (declared.default if declared.default in names else declared.default.partition("@")[0]) or ""
    hidden = step.hidden
    search = specialise(game, model, policies)
    SEARCH_MODELS[game] = SearchModel(step, model, names, policies, play_out, search)
    default_policy = float(names.index(play_out) + 1) if play_out else 0.0

    strategy(game, "rollout",
             f"the rollout algorithm: each heuristic proposes its choice; each distinct proposal is played out from "
             f"sampled hidden information ({hidden}) with a heuristic in every seat, all on the same chance, and the "
             "best mean win share is played (ties: the play-out heuristic's own choice)",
             (StrategyParam("samples", float(SAMPLES), "determinisations, each playing out every distinct proposal",
                            1, 1e5),
              StrategyParam("policy", default_policy,
                            f"play-out heuristic for every seat: {listed} (0: uniform random)", 0, n),
              StrategyParam("proposers", float(n), f"policies 1..N that propose a choice ({listed}), besides the "
                            "play-out heuristic (0: none, so it plays the play-out heuristic itself)", 0, n)),
             search=True)(search.proposals_search)
    strategy(game, "mcts",
             f"information-set Monte Carlo tree search (SO-ISMCTS) over every legal choice: samples {hidden}, "
             "looks ahead through the game's step functions; the heuristics' proposals at each node are its prior "
             "(tried first, and a progressive bias that fades with visits), the strongest heuristic plays out",
             (StrategyParam("iters", 200.0, "search iterations (determinisations and play-outs) per decision", 1, 1e6),
              StrategyParam("explore", MCTS_EXPLORE, "UCB exploration constant (results are win shares in 0..1)", 0, 100),
              StrategyParam("policy", default_policy, f"play-out policy: 0 uniform random, {listed}", 0, n),
              StrategyParam("bias", MCTS_BIAS, "weight of the heuristics' prior: a choice proposed by every heuristic "
                            "gains bias / (visits + 1) (0: plain SO-ISMCTS, untried choices expanded at random)",
                            0, 100)),
             search=True)(search.ismcts)
