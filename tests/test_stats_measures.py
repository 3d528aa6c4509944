"""simlab.measures.balance on hand-made frames with known answers."""
import numpy as np
import pandas as pd
import pytest

from simlab.measures import balance as M


def frame(games):
    """games: list of (scores per seat, strategies per seat); ranks and wins as the engine computes them."""
    rows = []
    for g, (scores, strats) in enumerate(games):
        n = len(scores)
        for s in range(n):
            rank = 1 + sum(o > scores[s] for o in scores)
            win = rank == 1
            rows.append({"game": g, "seat": s, "players": n, "strategy": strats[s], "score": scores[s], "rank": rank,
                         "win": win, "shared_win": win and scores.count(max(scores)) > 1, "moves": scores[s] * 2,
                         "unused": 0, "rounds": 10 + g})
    return pd.DataFrame(rows)


def test_win_rate_by_seat_counts_shared_wins_and_uses_the_average_as_fair_reference():
    f = frame([([5, 3], "ab"), ([2, 4], "ba"), ([6, 6], "ab"), ([7, 1], "ba")])
    t = M.win_by_seat(f).set_index("seat")
    assert t.loc[1, "win_rate"] == 0.75 and t.loc[2, "win_rate"] == 0.5
    assert t.loc[1, "fair"] == pytest.approx(5 / 8)
    assert t.loc[1, "lo"] < 0.75 < t.loc[1, "hi"]


def test_tie_rate_margin_and_length():
    f = frame([([5, 3, 1], "abc"), ([4, 4, 0], "abc"), ([9, 2, 8], "abc")])
    assert M.tie_rate(f).iloc[0]["tie_rate"] == pytest.approx(1 / 3)
    assert list(M.margins(f)["margin"]) == [2, 0, 1]
    assert M.winning_margin(f).iloc[0]["close_games"] == pytest.approx(2 / 3)
    assert M.length_distribution(f, "rounds").iloc[0]["mean"] == pytest.approx(11)


def test_head_to_head_counts_finishing_ahead_with_ties_as_half_and_ranks_strategies():
    f = frame([([5, 3], "ab"), ([2, 4], "ba"), ([6, 6], "ab"), ([1, 7], "ab")])
    h = M.head_to_head(f).set_index(["a", "b"])
    assert h.loc[("a", "b"), "meetings"] == 4
    assert h.loc[("a", "b"), "a_ahead"] == pytest.approx((1 + 1 + 0.5 + 0) / 4)
    assert h.loc[("b", "a"), "a_ahead"] == pytest.approx(1 - 0.625)
    r = M.ranking(f)
    assert list(r["strategy"]) == ["a", "b"] and list(r["rank"]) == [1, 2]
    cov = r.attrs["covariance"]        # a's meeting is b's: their pooled shares move exactly against each other
    assert cov.loc["a", "b"] == pytest.approx(-cov.loc["a", "a"]) and cov.loc["a", "a"] > 0


def test_skill_share_is_zero_for_chance_and_one_for_a_sure_winner():
    sure = frame([([9, 1, 0], ["h", "random", "random"])] * 50)
    s = M.skill_share(sure, "h").iloc[0]
    assert s["skill"] == pytest.approx(1.0) and s["beats_random"] == pytest.approx(1.0)
    rng = np.random.default_rng(1)
    games = [(list(rng.permutation([3, 2, 1])), ["h", "random", "random"]) for _ in range(3000)]
    chance = M.skill_share(frame(games), "h").iloc[0]
    assert chance["skill_lo"] < 0 < chance["skill_hi"]


def test_usage_compares_winners_with_others_and_flags_columns_that_never_vary():
    f = frame([([5, 3], "ab"), ([2, 4], "ba"), ([6, 1], "ab"), ([1, 7], "ab")])
    u = M.usage(f, ["moves", "unused"]).set_index("column")
    assert u.loc["moves", "winners"] == pytest.approx(2 * (5 + 4 + 6 + 7) / 4)
    assert u.loc["moves", "others"] == pytest.approx(2 * (3 + 2 + 1 + 1) / 4)
    assert u.loc["moves", "std_diff"] > 1 and bool(u.loc["unused", "never_varies"])


def test_combine_keeps_game_ids_unique_across_runs():
    a = frame([([5, 3], "ab"), ([2, 4], "ba")])
    c = M.combine([a, a.copy()], ["r1", "r2"])
    assert c["game"].nunique() == 4 and set(c["run"]) == {"r1", "r2"}
    assert M.head_to_head(c).set_index(["a", "b"]).loc[("a", "b"), "meetings"] == 4
    assert M.chance_of(c).tolist() == c["run_game"].tolist()     # one seed: game g of each run drew the same chance


def test_usage_averages_only_counts_and_decodes_the_named_bits_of_bitmasks():
    """Issue 13: a mean of a bitmask or a category code is meaningless (the Loot Island overview
    printed a mean of 596,782 for a treasure bitmask); masks are decoded bit by bit instead."""
    from simlab.core.game import available_games, get_game

    karuba = get_game("karuba")
    cols = M.seat_columns(karuba)
    assert "bonus_tiles" not in cols and "home_round_blue" not in cols and "temples" in cols
    assert "bonus_tiles: fastest collector" in cols and "bonus_tiles: fastest runner" in cols
    f = pd.DataFrame({"bonus_tiles": [0, 1, 2, 9, 15]})
    d = M.decode_bits(f, karuba)
    assert d["bonus_tiles: fastest collector"].tolist() == [0, 1, 0, 1, 1]
    assert d["bonus_tiles: best collector"].tolist() == [0, 0, 1, 0, 1]
    assert d["bonus_tiles: fastest runner"].tolist() == [0, 0, 0, 1, 1]
    loot = M.seat_columns(get_game("loot-island"))
    assert not any(c.startswith("kept_") for c in loot) and "eliminated" not in loot and "healer" not in loot
    for name in available_games():           # every game declares what its columns are
        for c in get_game(name).columns:
            if "bitmask" in c.meaning:
                assert c.kind == "mask", c.name
            if "(0 = never)" in c.meaning or "(0 never)" in c.meaning:
                assert c.kind == "when", c.name


def test_a_column_of_an_unknown_kind_is_refused():
    from simlab.core.game import Column

    with pytest.raises(ValueError, match="kind"):
        Column("x", "something", kind="average")
