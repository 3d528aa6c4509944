"""The search players (simlab.search.players) of every game with a step model: tiny budgets play
whole games through the engine, every choice legal (an illegal index would stop the run), and the
same seed gives the same frames. Each game at its smallest player count, and Loot Island at 4 (a
game without Allen): compiling a search player is most of the cost, the player count changes little.
Their play-out policies include the game's tuned sets, read from the tuned-sets file."""
import numpy as np
import pytest

from simlab.core.game import available_games, get_game
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import get_strategy, strategies_for
from simlab.core.tuned_sets import ENV, save_tuned, tuned_sets
from simlab.search.players import play_out_policies

SEARCH = ("mcts:iters=8", "rollout:samples=2")


def cases():
    for game in available_games():
        spec = get_game(game)
        if spec.model is None:
            continue
        for players in sorted({spec.min_players} | ({4} if game == "loot-island" else set())):
            for search in SEARCH:
                yield pytest.param(game, players, search, id=f"{game}-{players}p-{search.split(':')[0]}")


@pytest.mark.parametrize("game,players,search", list(cases()))
def test_search_players_play_legal_moves_to_the_end_and_are_reproducible(game, players, search):
    spec = get_game(game)
    others = [s for s in spec.default_seats if s != "random"] + ["random"]
    assert {"rollout", "mcts"} <= set(strategies_for(game))      # every game with a step model has them
    seats = tuple([search, others[0], search + ":policy=0"] + others[1:] + ["random"] * players)[:players]
    config = RunConfig(spec.name, players, seats, 2, seed=17)
    a = Prepared(config).frame(0, 2)
    b = Prepared(config).frame(0, 2)
    assert a.equals(b)
    assert a.strategy.astype(str).str.startswith(search.split(":")[0]).any()
    assert (a[spec.length_column] >= 1).all()


def test_a_tuned_set_is_a_play_out_policy_after_the_heuristics():
    """Loot Island's policy 4 is cautious@tuned: its heuristic (cautious, 1) with the saved set's vector."""
    names, (heuristic, weights) = play_out_policies("loot-island", ("cautious", "hunter", "collector"))
    assert names == ("cautious", "hunter", "collector", "cautious@tuned")
    assert list(heuristic) == [0, 1, 2, 3, 1]
    assert np.array_equal(weights[4], get_strategy("loot-island", "cautious@tuned").vector({}))
    assert np.array_equal(weights[2], get_strategy("loot-island", "hunter").vector({}))


def test_rollout_with_the_tuned_policy_alone_plays_exactly_as_the_tuned_set():
    """rollout:policy=4:proposers=0 plays the play-out policy's own choice at every decision, computed on
    a determinisation: the same games as cautious@tuned, decision for decision, at 2 players (Allen) and 3."""
    for players in (2, 3):
        seats = ("hunter", "collector", "cautious")[:players - 1]
        frames = [Prepared(RunConfig("loot-island", players, (me,) + seats, 12, seed=5, rotate=True)).frame(0, 12)
                  for me in ("rollout:policy=4:proposers=0", "cautious@tuned")]
        a, b = (f.drop(columns="strategy") for f in frames)
        assert a.equals(b)


def test_a_retuned_set_flows_into_the_policies_and_the_search_seats_code_identity(tmp_path, monkeypatch):
    """A set saved after the package was written (a retune, or one of a user's own) is a policy too, and a
    search seat's run identity changes with it: it plays out with every saved set."""
    config = RunConfig("loot-island", 2, ("rollout", "hunter"), 2)
    before = Prepared(config).code["id"]
    monkeypatch.setenv(ENV, str(tmp_path))
    assert tuned_sets("loot-island") == {}
    save_tuned("loot-island", "hunter", "bold", {"cap": 14}, {"seed": 2})
    names, (heuristic, weights) = play_out_policies("loot-island", ("cautious", "hunter", "collector"))
    assert names[3:] == ("hunter@bold",) and heuristic[4] == 2 and weights[4][0] == 14
    assert Prepared(config).code["id"] != before
    assert "tuned set" not in str(Prepared(RunConfig("loot-island", 2, ("cautious", "hunter"), 2)).code)


def test_a_search_seats_run_identity_includes_the_search_code(monkeypatch):
    """Issue 31's reproducibility bug: a run with a search seat plays what simlab/search decides, so a
    change there must not let the run be resumed or reused as if nothing changed; a run of heuristics
    only keeps its identity whatever the search code."""
    from simlab.core import fingerprint, runner

    search = RunConfig("loot-island", 2, ("rollout", "hunter"), 2)
    heuristics = RunConfig("loot-island", 2, ("cautious", "hunter"), 2)
    before = [Prepared(c).code for c in (search, heuristics)]
    assert before[0]["strategy_files"][fingerprint.SEARCH_CODE] == fingerprint.search_code()
    monkeypatch.setattr(runner, "search_code", lambda: "0123456789ab")     # as if simlab/search had changed
    after = [Prepared(c).code for c in (search, heuristics)]
    assert after[0]["id"] != before[0]["id"] and after[1] == before[1]
    assert fingerprint.code_change(before[0], after[0], "loot-island") == (
        "the search players' code (simlab/search) changed")


@pytest.mark.parametrize("game", ["karuba", "legend-raiders"])
def test_mcts_with_the_heuristics_prior_expands_what_they_propose_first(game):
    """mcts's prior (issue 32): with one iteration the search expands one root choice and plays it,
    and with the prior on that is the choice most of the heuristics propose on a determinisation;
    where they all agree on the true state (nothing hidden changes their view), it is theirs."""
    from simlab.search.players import SEARCH_MODELS

    spec = get_game(game)
    mcts = get_strategy(game, "mcts")
    m = SEARCH_MODELS[game]
    rng_of = lambda: np.array([5, 6, 7, 8], np.uint64)   # noqa: E731
    params = mcts.vector({"iters": 1.0})
    plain = mcts.vector({"iters": 1.0, "bias": 0.0})
    checked = agreed_differently = 0
    from step_points import decision_points
    for state, seat, legal, cfg in decision_points(spec, 2, {}, 2, seed=3):
        obs = np.zeros_like(state)
        m.step.observe(state, seat, obs)
        n = len(legal)
        picks = {int(m.model[6](state.copy(), cfg, seat, legal.copy(), n, m.policies[0][k], m.policies[1][k].copy(),
                                np.array([1, 2, 3, 4], np.uint64))) for k in range(1, len(m.names) + 1)}
        if len(picks) != 1 or spec.name == "karuba" and seat > 0:   # (Karuba: earlier seats' choices are hidden)
            continue
        (pick,) = picks
        assert mcts.decide(obs, cfg, seat, legal, n, params, rng_of()) == pick
        agreed_differently += mcts.decide(obs, cfg, seat, legal, n, plain, rng_of()) != pick
        checked += 1
    assert checked >= 10 and agreed_differently > 0
