"""The search players (simlab.search.players) of every game with a step interface: tiny budgets play
whole games through the engine at every player count, every choice legal (an illegal index would
stop the run), and the same seed gives the same frames."""
import pytest

from simlab.core.game import get_game
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import strategies_for

SEARCH = ("mcts:iters=8", "rollout:samples=2")


def cases():
    for game in ("karuba", "loot-island", "jamaica", "legend-raiders"):
        if "rollout" not in strategies_for(game):
            continue
        spec = get_game(game)
        for players in range(spec.min_players, spec.max_players + 1):
            for search in SEARCH:
                yield pytest.param(game, players, search, id=f"{game}-{players}p-{search.split(':')[0]}")


@pytest.mark.parametrize("game,players,search", list(cases()))
def test_search_players_play_legal_moves_to_the_end_and_are_reproducible(game, players, search):
    spec = get_game(game)
    others = [s for s in spec.default_seats if s != "random"] + ["random"]
    seats = tuple([search, others[0], search + ":policy=2"] + others[1:] + ["random"] * players)[:players]
    config = RunConfig(spec.name, players, seats, 2, seed=17)
    a = Prepared(config).frame(0, 2)
    b = Prepared(config).frame(0, 2)
    assert a.equals(b)
    assert a.strategy.astype(str).str.startswith(search.split(":")[0]).any()
    assert (a[spec.length_column] >= 1).all()
