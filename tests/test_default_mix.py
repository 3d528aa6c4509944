"""The default mixes (issue 13): heuristics only, and in Karuba no two seats alike."""
from simlab.core.game import available_games, get_game
from simlab.core.runner import Prepared, RunConfig


def test_default_mixes_hold_no_random_seat_at_three_or_more_players():
    """A random seat is a near-certain loser: it would distort every measure of the mix."""
    for name in available_games():
        spec = get_game(name)
        for n in range(max(3, spec.min_players), spec.max_players + 1):
            assert "random" not in spec.default_seats[:n], (name, n)


def test_karuba_default_mix_has_no_two_seats_alike_so_no_seats_tie_by_construction():
    """Karuba's players place the same tile at the same time on identical islands: two seats
    with the same deterministic strategy build the same island and always tie."""
    seats = get_game("karuba").default_seats
    assert len(set(seats)) == len(seats)
    twin = Prepared(RunConfig("karuba", 4, ("builder", "racer", "collector", "builder"), games=200, seed=1)).frame(0, 200)
    a, b = (twin[twin["seat"] == s].set_index("game")["score"] for s in (0, 3))
    assert (a == b).all()                       # the clone pair: identical every game
    mix = Prepared(RunConfig("karuba", 4, seats, games=200, seed=1)).frame(0, 200)
    scores = mix.pivot(index="game", columns="seat", values="score")
    assert not any((scores[i] == scores[j]).all() for i in range(4) for j in range(i + 1, 4))
