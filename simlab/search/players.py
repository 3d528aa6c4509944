"""The search players, registered for a game from its step functions: one definition for every game.

A game with a step interface (``simlab/games/<game>/step.py``) and a play-out policy (``rollout``
beside its heuristics: 0 uniform, k its k-th heuristic) gets both players with one call at the end
of its strategies file::

    register_search_players("karuba", step, rollout, ("builder", "racer", "collector"),
                            "the face-down tile order and the choices other seats already made this round")

* ``rollout``: the rollout algorithm (:mod:`.proposals`): the heuristics propose, each distinct
  proposal is played out with a heuristic in every seat, on common chance; the strongest player.
* ``mcts``: SO-ISMCTS (:mod:`.ismcts`) over every legal choice.

Each is compiled for the game's functions, which it holds as values: numba can neither cache that
compilation nor key a cache entry by them, so each is compiled once per process, on the first
decision of a seat that plays it.
"""
from __future__ import annotations

from numba import njit

from simlab.core.strategy import StrategyParam, strategy

from .ismcts import ismcts
from .proposals import proposals_search


def register_search_players(game: str, step, rollout, heuristics: tuple[str, ...], hidden: str,
                            play_out: int = 1) -> None:
    """Register ``mcts`` and ``rollout`` for ``game`` (see the module docstring); ``heuristics`` are
    the play-out policies 1..K in ``rollout``'s order, ``play_out`` the one ``rollout`` plays out with
    by default (the strongest: its choice wins ties), ``hidden`` says what a determinisation samples."""
    tree_search = njit(getattr(ismcts, "py_func", ismcts))   # (plain Python when the JIT is disabled)
    proposal_search = njit(getattr(proposals_search, "py_func", proposals_search))
    to_move, legal_fn, apply, observe, determinize, returns, state_size = (
        step.to_move, step.legal, step.apply, step.observe, step.determinize, step.returns, step.state_size)
    k = len(heuristics)
    policies = ", ".join(f"{i} {h}" for i, h in enumerate(heuristics, 1))

    def mcts(state, cfg, seat, legal, n_legal, params, rng):
        model = (to_move, legal_fn, apply, observe, determinize, returns, rollout, state_size)
        return tree_search(model, state, cfg, seat, legal, n_legal, params, rng)

    def rollout_player(state, cfg, seat, legal, n_legal, params, rng):
        model = (to_move, legal_fn, apply, observe, determinize, returns, rollout, state_size)
        return proposal_search(model, state, cfg, seat, legal, n_legal, params, rng)

    strategy(game, "rollout",
             f"the rollout algorithm: each heuristic proposes its choice; each distinct proposal is played out from "
             f"sampled hidden information ({hidden}) with a heuristic in every seat, all on the same chance, and the "
             "best mean win share is played (ties: the play-out heuristic's own choice)",
             (StrategyParam("samples", 24.0, "determinisations, each playing out every distinct proposal", 1, 1e5),
              StrategyParam("policy", float(play_out), f"play-out heuristic for every seat: {policies} (0: uniform random)",
                            0, k),
              StrategyParam("proposers", float(k), f"heuristics 1..N that propose a choice ({policies})", 1, k)),
             search=True)(rollout_player)
    strategy(game, "mcts",
             f"information-set Monte Carlo tree search (SO-ISMCTS) over every legal choice: samples {hidden}, "
             "looks ahead through the game's step functions",
             (StrategyParam("iters", 200.0, "search iterations (determinisations and play-outs) per decision", 1, 1e6),
              StrategyParam("explore", 0.7, "UCB exploration constant (results are win shares in 0..1)", 0, 100),
              StrategyParam("policy", 0.0, f"play-out policy: 0 uniform random, {policies}", 0, k)),
             search=True)(mcts)
