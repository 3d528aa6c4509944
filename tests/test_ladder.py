"""The rating ladder (experiments/ladder.py, simlab/measures/rating.py): Bradley-Terry ratings recover
known strengths, equal results give equal ratings, ties are called ties, the entrants come from the
strategy registry, and a tiny ladder run writes a report whose bottom line names the top entrant."""
import re

import numpy as np
import pandas as pd
import pytest

from experiments import ladder
from simlab.core.errors import SimlabError
from simlab.core.intervals import wilson
from simlab.core.strategy import strategies_for
from simlab.measures import rating
from simlab.measures.fairness import cluster_proportion
from simlab.report.page import Report


def synthetic(true: list[float], games: int, seed: int = 1):
    """Heads-up results drawn from Bradley-Terry with ratings ``true`` (Elo scale): per pair, one
    cluster per game (its id, its 0/1 result, one game), as the ladder feeds the bootstrap."""
    rng = np.random.default_rng(seed)
    clusters = {}
    for i in range(len(true)):
        for j in range(i + 1, len(true)):
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            clusters[(i, j)] = (np.arange(games), (rng.random(games) < p).astype(float), np.ones(games))
    return clusters


def totals(clusters, k):
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), (_, w, n) in clusters.items():
        wins[i, j], wins[j, i] = w.sum(), n.sum() - w.sum()
        games[i, j] = games[j, i] = n.sum()
    return wins, games


def test_bradley_terry_recovers_known_strengths_from_synthetic_results():
    true = [0.0, 150.0, 300.0, 420.0, 600.0]
    wins, games = totals(synthetic(true, 20_000), len(true))
    fitted = rating.bradley_terry(wins, games, anchor=0)
    assert fitted[0] == 0.0
    assert np.allclose(fitted, true, atol=20), fitted


def test_bootstrap_intervals_cover_the_true_ratings_and_narrow_with_games():
    true = [0.0, 100.0, 250.0]
    small = rating.bootstrap(synthetic(true, 500), 3, reps=400)
    large = rating.bootstrap(synthetic(true, 8000), 3, reps=400)
    for fit in (small, large):
        assert np.all(fit["lo"][1:] <= true[1:]) and np.all(np.array(true[1:]) <= fit["hi"][1:])
    assert np.all((large["hi"] - large["lo"])[1:] < (small["hi"] - small["lo"])[1:] / 2)


def test_the_bootstrap_draws_one_set_of_deals_for_every_pair():
    """Every pair plays the same deals, so a replicate resamples deals once for all pairs: entrants 1
    and 2, with the same results in every deal (against 0 on all deals, level with 3 on the first 40,
    as a search entrant plays) and level with each other, keep equal ratings in every replicate
    (resampled pair by pair they would not). A pair that plays only the first deals keeps its number
    of deals in every replicate."""
    rng = np.random.default_rng(4)
    deals = np.arange(400)
    w = rng.integers(0, 3, deals.size).astype(float)       # 0, 1 or 2 of the deal's two games
    two = np.full(deals.size, 2.0)
    clusters = {(0, 1): (deals, w, two), (0, 2): (deals, w, two), (1, 2): (deals, two / 2, two),
                (0, 3): (deals[:40], w[:40], two[:40]), (1, 3): (deals[:40], two[:40] / 2, two[:40]),
                (2, 3): (deals[:40], two[:40] / 2, two[:40])}
    lad = rating.bootstrap(clusters, 4, reps=300)
    r = lad["replicates"]
    assert r[:, 1].std() > 1 and np.allclose(r[:, 1], r[:, 2], atol=1e-9)
    played = np.array([np.ones(400, bool), np.arange(400) < 40])
    counts = rating.deal_draws(played, 300, rng)
    assert (counts.sum(1) == 400).all() and (counts[:, :40].sum(1) == 40).all()


def test_the_difference_intervals_hold_together():
    """Places and ties rest on every difference at once, so their intervals are simultaneous: wider
    than the marginal 95% percentile intervals of the same replicates, centred on the estimate."""
    lad = rating.bootstrap(synthetic([0.0, 30.0, 60.0, 90.0, 120.0, 150.0], 400, seed=6), 6, reps=500)
    rep = lad["replicates"]
    diff = rep[:, :, None] - rep[:, None, :]
    marginal = np.quantile(diff, 0.975, axis=0) - np.quantile(diff, 0.025, axis=0)
    off = ~np.eye(6, dtype=bool)
    assert ((lad["diff_hi"] - lad["diff_lo"])[off] > marginal[off]).all()
    est = lad["rating"][:, None] - lad["rating"][None, :]
    assert np.allclose((lad["diff_lo"] + lad["diff_hi"]) / 2, est)


def test_a_tie_only_matrix_gives_equal_ratings():
    k = 4
    games = np.full((k, k), 300.0) * (1 - np.eye(k))
    fitted = rating.bradley_terry(games / 2, games, anchor=2)
    assert np.allclose(fitted, 0.0, atol=1e-6)


def test_an_entrant_that_wins_every_game_gets_a_finite_rating():
    wins = np.array([[0.0, 0.0], [500.0, 0.0]])
    games = np.array([[0.0, 500.0], [500.0, 0.0]])
    r = rating.bradley_terry(wins, games)
    assert np.isfinite(r).all() and r[1] > 800


def test_entrants_whose_difference_interval_includes_zero_are_called_tied():
    """Two equal entrants well below a strong one: places 2-3 for both, 1 for the strong one, and
    the bottom line says the equal pair is tied while the strongest stands alone."""
    clusters = synthetic([0.0, 0.0, 400.0], 600, seed=3)
    lad = rating.bootstrap(clusters, 3, reps=500)
    assert rating.places(lad["rating"], lad["diff_lo"], lad["diff_hi"]) == [(2, 3), (2, 3), (1, 1)]
    names = ["random", "calm", "bold"]
    runs = {(names[i], names[j]): type("R", (), {"games": 600})() for (i, j) in clusters}
    table = ladder.ladder_table(names, lad, runs, set())
    assert list(table["place"]) == ["1", "2-3", "2-3"]
    assert table.set_index("entrant").loc["calm", "tied"] == "random"
    rep = Report("t", "q")
    ladder.write_bottom_line(rep, table, lad, names, set(), "Toy")
    assert rep.bottom_line[0].startswith("bold is strongest, ") and "points above the best of the rest, calm" in rep.bottom_line[0]
    assert any("every other entrant statistically below it" in f for f in rep.findings)
    assert any("Statistical ties" in f and "calm and random" in f for f in rep.findings)
    assert rep.claims[0].key == "strongest" and rep.claims[0].decided


def test_entrants_tied_at_the_top_are_said_tied_for_strongest():
    clusters = synthetic([0.0, 300.0, 300.0], 300, seed=5)
    lad = rating.bootstrap(clusters, 3, reps=500)
    names = ["random", "calm", "bold"]
    runs = {(names[i], names[j]): type("R", (), {"games": 300})() for (i, j) in clusters}
    table = ladder.ladder_table(names, lad, runs, set())
    rep = Report("t", "q")
    ladder.write_bottom_line(rep, table, lad, names, set(), "Toy")
    assert "are tied for strongest" in rep.bottom_line[0]
    assert not rep.claims[0].decided


@pytest.mark.parametrize("game", ["karuba", "loot-island", "jamaica", "legend-raiders"])
def test_entrants_come_from_the_registry(game):
    """Random play, every heuristic, every tuned set; a search player at both budgets exactly when the
    game registers one."""
    known = strategies_for(game)
    names = ladder.entrants(game, (50, 200))
    heuristics = {n for n, s in known.items() if not s.search}
    assert names[0] == "random" and heuristics <= set(names)
    from simlab.core.tuned_sets import tuned_sets
    assert set(tuned_sets(game)) <= set(names)
    searchers = [n for n, s in known.items() if s.search]
    for s in searchers:   # the budget is the player's first parameter (mcts iters, rollout samples)
        first = known[s].params[0].name
        assert f"{s}:{first}=50" in names and f"{s}:{first}=200" in names
    assert len(names) == len(heuristics) + len(tuned_sets(game)) + 2 * len(searchers)


def test_a_new_search_player_and_a_new_tuned_set_join_the_ladder(tmp_path, monkeypatch):
    from simlab.core.strategy import load_strategy_file

    before = ladder.entrants("loot-island", (5, 9))
    assert not any(n.startswith("looker") or "@bold" in n for n in before)
    (tmp_path / "loot_island.toml").write_text("[hunter.bold]\nparams = { cap = 9 }\n")
    monkeypatch.setenv("SIMLAB_TUNED_DIR", str(tmp_path))
    f = tmp_path / "looker.py"
    f.write_text("from simlab.core.strategy import strategy, StrategyParam\n"
                 "@strategy('loot-island', 'looker', 'a toy search player', "
                 "(StrategyParam('iters', 10.0, 'budget', 1, 1e6),), search=True)\n"
                 "def looker(state, cfg, seat, legal, n_legal, params, rng):\n    return 0\n")
    load_strategy_file(f)
    names = ladder.entrants("loot-island", (5, 9))
    assert set(names) - set(before) == {"hunter@bold", "looker:iters=5", "looker:iters=9"}


def test_pair_clusters_count_half_a_win_for_a_shared_rank_and_name_the_deals():
    """Per deal: its id (the key that lines the pairs' deals up for the joint bootstrap), a's wins
    (a shared rank half) and the games."""
    frame = pd.DataFrame({"game": [20, 20, 21, 21, 22, 22, 23, 23], "deal": [10, 10, 10, 10, 11, 11, 11, 11],
                          "seat": [0, 1] * 4, "strategy": ["a", "b", "b", "a", "a", "b", "b", "a"],
                          "rank": [1, 2, 1, 2, 1, 1, 2, 1]})
    deals, w, n = ladder.pair_clusters(frame, "a", "b")
    assert list(deals) == [10, 11] and list(w) == [1.0, 1.5] and list(n) == [2.0, 2.0]


def test_the_head_to_head_interval_counts_deals_not_games():
    """A deal's two games share all chance: when they always agree, the pair has half as many
    independent results as games, and its interval is as wide as the Wilson interval over deals."""
    rng = np.random.default_rng(7)
    won = (rng.random(500) < 0.7) * 2.0
    e = cluster_proportion(won, np.full(500, 2.0))
    lo, hi = wilson(won.sum() / 2, 500)
    assert e.n == 500 and np.isclose(e.lo, lo, atol=2e-3) and np.isclose(e.hi, hi, atol=2e-3)
    sweep = cluster_proportion(np.full(500, 2.0), np.full(500, 2.0))
    assert sweep.value == 1.0 and sweep.lo == pytest.approx(wilson(500, 500)[0], abs=1e-3)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from simlab.studies.experiment import run_experiment

    out = tmp_path_factory.mktemp("ladder")
    report, paths = run_experiment("ladder", games=24, game="karuba", out=out, executor="serial", progress=False,
                                   log=lambda m: None, options={"budgets": "4,8", "search-games": "4",
                                                                "pilot-games": "2"})
    return out, report, paths


def test_a_tiny_ladder_run_writes_a_report_naming_the_top_entrant(tiny):
    out, report, paths = tiny
    table = pd.read_csv(out / "ratings.csv")
    top = table["entrant"].iloc[0]
    md = paths["markdown"].read_text()
    bottom = md[md.index("## Bottom line"):md.index("## What it rests on")]
    assert top in bottom and "strongest" in bottom
    for budget in (4, 8):
        assert any(e.startswith(f"mcts:iters={budget}:policy=") for e in table["entrant"])
    assert len(table) == len(strategies_for("karuba")) + 2     # each search player at two budgets in place of one entry
    assert (out / "ladder.svg").stat().st_size > 1000 and (out / "strategy-matrix.svg").exists()
    assert "--option budgets=4,8" in md and "pilot of 2 games per policy" in md
    # "what it rests on" names the rated entrants as its strategies, and the pilot's other policies apart
    rests = md[md.index("## What it rests on"):].replace("\\_", "_")
    strategies = rests[rests.index("- Strategies: ") + 14:rests.index(" (every pair heads-up")].split(", ")
    assert sorted(strategies) == sorted(table["entrant"])
    line = rests[rests.index("- Pilot only"):].split("\n")[0]
    piloted = line[line.index("not rated): ") + 12:].rstrip(".").split(", ")
    assert piloted and all("policy=" in p and p not in strategies for p in piloted)
    # each search entrant's measured time a decision, and that it is rated at its budget, not at equal time:
    # a finding (a machine's timing in a table would make the tables differ between machines)
    timing = next(line for line in md.split("\n") if "Time a decision, one core of this machine" in line)
    plain = timing.replace("\\", "")                         # the report escapes markdown characters
    searchers = [e for e in table["entrant"] if e.startswith(("mcts", "rollout"))]
    assert searchers and all(re.search(re.escape(e) + r" [0-9.]+ ms", plain) for e in searchers)
    assert "not at equal time per decision" in timing and "ms a decision" not in table.columns


def test_a_search_players_time_a_decision_grows_with_its_budget():
    """ms_per_decision times every seat on the same states: more iterations take longer."""
    from simlab.search.speed import ms_per_decision

    ms = ms_per_decision("karuba", ["mcts:iters=4", "mcts:iters=64"], n_states=20)
    assert 0 < ms["mcts:iters=4"] < ms["mcts:iters=64"]


def test_an_unknown_option_is_a_one_line_error(cli_run):
    code, out, err = cli_run("experiment", "run", "ladder", "--game", "karuba", "--option", "budget=5")
    assert code == 2 and "has no option 'budget'" in err and "Traceback" not in err
    code, out, err = cli_run("experiment", "run", "ladder", "--game", "karuba", "--option", "budgets=5,5",
                             "--games", "2", "--out", "/tmp/never-written-ladder")
    assert code == 2 and "two different budgets" in err


def test_the_search_option_chooses_which_search_players_enter():
    """``--option search=rollout`` leaves mcts out (it is weak and slow at small budgets); a name that is
    not a search player of the game is refused by name."""
    chosen = ladder.search_players("karuba", "rollout")
    assert chosen == ["rollout"]
    names = ladder.entrants("karuba", (8, 50), searchers=chosen)
    assert "rollout:samples=8" in names and not any(n.startswith("mcts") for n in names)
    assert ladder.search_players("karuba") == ["mcts", "rollout"]
    with pytest.raises(SimlabError, match="'builder' is not a search player of karuba"):
        ladder.search_players("karuba", "rollout,builder")
