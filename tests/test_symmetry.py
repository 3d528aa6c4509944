"""Symmetry checks (issue 12 item 6): relabelling what the rules treat as interchangeable must not
change results beyond chance. Here: which strategy stream plays which seat at a fixed deal.

In a duplicate mirror match every deal is played in all n rotations; the rotations differ only in
which slot's random stream each seat's (identical) strategy draws from. A seat's win share must
therefore agree across rotations, deal by deal: a game or strategy that read its slot, or leaked
one seat's stream into another's chance, would break it. (Karuba's colour symmetry has its own test
with the Karuba strategies.)"""
import pytest

from simlab.core.game import available_games, get_game
from simlab.core.runner import Prepared, RunConfig
from simlab.measures.fairness import clustered_difference, win_share

DEALS = 1500


@pytest.mark.parametrize("game", available_games())
def test_relabelling_strategy_streams_at_a_fixed_deal_changes_no_seat(game):
    n = max(get_game(game).min_players, 3 if game != "jamaica" else 2)
    frame = Prepared(RunConfig(game, n, ("random",) * n, games=n * DEALS, seed=41, duplicate=True)).frame(0, n * DEALS)
    frame = frame.assign(win_share=win_share(frame), rotation=frame["game"] % n)
    for seat in range(n):
        rows = frame[frame["seat"] == seat]
        for r in range(1, n):
            pair = rows[rows["rotation"].isin((0, r))]
            d = clustered_difference(pair["win_share"], pair["deal"], pair["rotation"] == r, level=0.999)
            assert d.lo <= 0 <= d.hi, f"{game}: seat {seat + 1} wins {d.value:+.3f} more in rotation {r} than 0"
