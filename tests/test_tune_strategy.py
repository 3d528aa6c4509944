"""`simlab tune-strategy`: CMA-ES over a strategy's scaled parameters, paired evaluation on common
deals, tuned sets saved by name and played as BASE@SET wherever a strategy name is accepted."""
import numpy as np
import pytest

from simlab.core.errors import SimlabError
from simlab.core.fingerprint import code_change
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import Strategy, StrategyParam, get_strategy
from simlab.core.tuned_sets import ENV, save_tuned, tuned_sets
from simlab.studies.strategy_tuning import Setup, Space, deal_shares, search, validate

TOY = Strategy("toy", "toy", None, "a toy", (StrategyParam("weight", 1.0, "a real", -100, 100, search=(0, 10)),
                                            StrategyParam("count", 2, "a count", 0, 10, integer=True)))


@pytest.fixture
def tuned_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))
    return tmp_path


def test_cma_es_finds_a_known_optimum_inside_the_search_range_with_counts_whole():
    space = Space(TOY)
    seen = []

    def evaluate(candidates):
        seen.extend(candidates)
        return [-((c["weight"] - 6.3) ** 2 + (c["count"] - 7) ** 2) for c in candidates]

    state = search(space, evaluate, budget=150, seed=4)
    assert seen[0] == {"weight": 1.0, "count": 2} and state.default_fitness == -(5.3 ** 2 + 25)
    assert state.evaluations == len(seen) <= 150 and state.generations >= 10
    assert abs(state.best["weight"] - 6.3) < 0.2 and state.best["count"] == 7
    assert all(0 <= c["weight"] <= 10 and isinstance(c["count"], int) and 0 <= c["count"] <= 10 for c in seen)
    assert state.best_fitness == max(evaluate(list(seen)))


def test_points_outside_the_scaled_box_are_clipped_to_the_search_range_and_counts_rounded():
    space = Space(TOY)
    assert space.values([-3.0, 7.0]) == {"weight": 0.0, "count": 10}
    assert space.values([0.123456, 0.26]) == {"weight": 1.235, "count": 3}
    assert space.scaled({"weight": 50, "count": 5}).tolist() == [1.0, 0.5]
    with pytest.raises(SimlabError, match="has no parameter 'nerve'"):
        Space(TOY, ("nerve",))


SETUP = Setup("loot-island", "cautious", 2, ("hunter", "collector"))


def test_a_candidate_s_share_is_its_win_share_with_ties_split_averaged_over_each_deal():
    config = SETUP.configs({"cap": 8}, deals=30, seed=5)[0]
    shares = deal_shares(config.to_dict())
    frame = Prepared(config).frame(0, config.games)
    winners = frame.groupby("game").win.transform("sum")
    frame["share"] = np.where(winners > 0, frame.win / winners.clip(lower=1), 0.0)
    mine = frame[frame.strategy == "cautious:cap=8"].groupby("game").share.sum()
    assert np.allclose(shares, mine.groupby(mine.index // 2).mean().to_numpy())
    assert len(shares) == 30 and frame.deal.nunique() == 30


def test_paired_evaluation_plays_the_same_deals_default_against_default_differs_by_exactly_zero():
    defaults = Space(get_strategy("loot-island", "cautious")).defaults()
    result = validate(SETUP, defaults, defaults, deals=20, seed=3)
    assert result.difference.value == 0 and result.difference.lo == 0 and result.difference.hi == 0
    assert result.verdict == "a statistical tie" and result.games == 80
    # the pairing is the seed's doing: other deals give other shares
    other = validate(SETUP, defaults, defaults, deals=20, seed=4)
    assert other.tuned.value != result.tuned.value


def test_a_saved_set_reads_back_and_keeps_the_other_sets(tuned_dir):
    save_tuned("loot-island", "cautious", "bold", {"cap": 9, "pass_bias": -0.5},
               {"opponents": ["hunter"], "seed": 2, "validation": {"verdict": "better", "lo": 0.01}})
    save_tuned("loot-island", "hunter", "calm", {"cap": 5}, {"seed": 3}, warning="not better than the default")
    sets = tuned_sets("loot-island")
    assert sets["cautious@bold"]["params"] == {"cap": 9, "pass_bias": -0.5}
    assert sets["cautious@bold"]["provenance"]["validation"] == {"verdict": "better", "lo": 0.01}
    assert sets["hunter@calm"]["warning"] == "not better than the default"
    st = get_strategy("loot-island", "cautious@bold")
    assert st.name == "cautious@bold" and {p.name: p.default for p in st.params}["cap"] == 9


def test_a_tuned_seat_plays_the_same_games_as_its_base_with_those_parameters_given_explicitly(tuned_dir):
    save_tuned("loot-island", "cautious", "bold", {"cap": 9, "pass_bias": -0.5}, {"seed": 2})
    tuned = Prepared(RunConfig("loot-island", 3, ("cautious@bold", "hunter", "cautious@bold:cap=4"), 60, seed=7,
                               rotate=True))
    given = Prepared(RunConfig("loot-island", 3, ("cautious:cap=9:pass_bias=-0.5", "hunter",
                                                  "cautious:cap=4:pass_bias=-0.5"), 60, seed=7, rotate=True))
    a, b = tuned.frame(0, 60), given.frame(0, 60)
    assert (a.drop(columns="strategy") == b.drop(columns="strategy")).all().all()
    assert set(a.strategy) == {"cautious@bold", "hunter", "cautious@bold:cap=4"}
    assert tuned.provenance()["strategies"]["cautious@bold"]["params"]["cap"] == 9
    # the set's values are part of the run's code identity: a run cannot be resumed with a changed set
    before = tuned.code["id"]
    save_tuned("loot-island", "cautious", "bold", {"cap": 10}, {"seed": 2})
    after = Prepared(tuned.config)
    assert after.code["id"] != before and "the tuned set cautious@bold changed" in code_change(tuned.code, after.code,
                                                                                                 "loot-island")
    assert "tuned set" not in str(Prepared(RunConfig("loot-island", 2, ("cautious", "hunter"), 6)).code)


def test_a_tiny_real_tuning_run_saves_a_set_in_bounds_that_games_lists_and_run_plays(cli_run, tuned_dir, tmp_path):
    code, out, err = cli_run("tune-strategy", "loot-island", "cautious", "--param", "cap", "--param", "pass_bias",
                             "--opponents", "hunter", "--budget", "13", "-g", "8", "--validate-games", "16",
                             "--name", "tiny")
    assert code == 0, err
    assert "generation 1:" in err and "generation 2:" in err and "saved as cautious@tiny" in err
    record = tuned_sets("loot-island")["cautious@tiny"]
    cap, bias = record["params"]["cap"], record["params"]["pass_bias"]
    assert isinstance(cap, int) and 2 <= cap <= 20 and -3 <= bias <= 3
    prov = record["provenance"]
    assert prov["evaluations"] == 13 and prov["generations"] == 2   # the default, then two generations of 6 and prov["games_per_evaluation"] == 8
    assert prov["validation"]["games"] == 16 and prov["validation"]["seed"] == 2
    assert prov["validation"]["lo"] <= prov["validation"]["difference"] <= prov["validation"]["hi"]
    assert ("warning" in record) == (prov["validation"]["verdict"] != "better")
    assert "cautious@tiny: cap=" in out
    code, out, err = cli_run("games", "loot-island")
    assert code == 0 and "cautious@tiny" in out and "fresh games" in out
    code, out, err = cli_run("run", "loot-island", "-s", "cautious@tiny,hunter", "-n", "20", "-o",
                             str(tmp_path / "r"), "-q", "--executor", "serial")
    assert code == 0 and "cautious@tiny" in out, err


def test_the_validation_s_win_shares_stay_in_range_and_keep_their_confidence_on_few_deals():
    """A win share over a handful of deals: a normal interval left 0-100% (12.5% [-3.5%, 28.5%] on
    16 games); the deal-clustered Wilson interval stays inside and covers the true share of a
    known model (deals of 2 seatings that go together, true share 0.2) in at least 93% of 2,000 tries."""
    import numpy as np

    from simlab.studies.strategy_tuning import deal_share

    rng = np.random.default_rng(5)
    covered = 0
    for _ in range(2000):
        p_deal = rng.beta(1.0, 4.0, size=8)                  # a deal's chance for the candidate (mean 0.2)
        shares = rng.binomial(2, p_deal) / 2                 # its two seatings
        e = deal_share(shares, 2)
        assert 0.0 <= e.lo <= e.value <= e.hi <= 1.0
        covered += e.lo <= 0.2 <= e.hi
    assert covered / 2000 >= 0.93, covered / 2000
