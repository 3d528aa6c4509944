"""A hint at a person's decision: what the best heuristic would choose, and what the search player
(``rollout``) makes of each heuristic's proposal, with its estimated win share after it.

The hint reads only the person's observation, like any bot, and draws its random numbers from a
stream of its own (seeded by the game's seed and the number of choices made), so asking for one
changes nothing in the game and the same question gets the same answer.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.strategy import MAX_STRATEGY_PARAMS, SEAT_PARAMS_WIDTH, get_strategy

HINT_SAMPLES = 200      # play-outs of each candidate: a share's standard error is at most 3.5 points
HINT_DEAL = 1 << 40     # hint streams are seeded as deals no run plays


@dataclass(frozen=True)
class Hint:
    heuristic: str                          # the game's best heuristic (the search's play-out policy)
    heuristic_choice: int                   # its choice, an index into the decision's legal codes
    candidates: tuple[tuple[int, float], ...]   # (index, estimated win share), best first
    samples: int

    @property
    def search_choice(self) -> int:
        return self.candidates[0][0]


def _row(vector) -> np.ndarray:
    row = np.zeros(SEAT_PARAMS_WIDTH, np.float64)
    row[:MAX_STRATEGY_PARAMS] = vector
    return row


def hint(session, decision, samples: int = HINT_SAMPLES) -> Hint:
    """The hint at ``decision`` (``session.pending``); the first one in a process compiles the search."""
    from simlab.search.players import SEARCH_MODELS

    game = session.spec.name
    rollout = get_strategy(game, "rollout")        # (registers the game's search players)
    searched = SEARCH_MODELS[game]
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(root_key(session.config.seed), HINT_DEAL + len(session.choices), streams)
    legal, n = decision.legal.astype(np.int32), len(decision.legal)
    best = searched.play_out or "random"
    heuristic = get_strategy(game, best)
    pick = int(heuristic.decide(decision.obs.copy(), session.cfg, decision.seat, legal, n,
                                _row(heuristic.vector({})), streams[0]))
    params = _row(rollout.vector({"samples": float(samples)}))
    cand = np.zeros(len(searched.names) + 1, np.int64)
    total = np.zeros(len(searched.names) + 1, np.float64)
    k = searched.search.play_out_proposals(decision.obs.copy(), session.cfg, decision.seat, legal, n, params, streams[1],
                                           cand, total, True)
    shares = [(int(cand[c]), float(total[c]) / samples) for c in range(k)]
    order = sorted(range(k), key=lambda c: (-shares[c][1], c))   # ties: the earlier proposal, as the search
    return Hint(best, pick, tuple(shares[c] for c in order), samples)
