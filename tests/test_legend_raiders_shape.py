"""Legend Raiders (issue 13): the component set's *shape* is data, not code.

The rulebook gives no component data, so a designer must be able to try another set: more or
fewer symbol types, another die, longer maps, several expertise tools per board, missions that
ask for "N different symbols", more tiles and cards. Counts are parameters, the tables must match
them, and a table of the wrong shape is refused with one line naming the problem.
"""
import textwrap

import numpy as np
import pytest

from simlab.core.errors import SimlabError
from simlab.core.params import FACT, Param, ParamTable
from simlab.core.results import load
from simlab.core.runner import Prepared, RunConfig
from simlab.games.legend_raiders import check, rules, scoring
from simlab.games.legend_raiders import state as S
from simlab.games.legend_raiders.components import KIND_DISCOVERY, KIND_MISSION, PARAMS
from test_legend_raiders_games import _final_states
from test_legend_raiders_rules import base, cfg_of, fresh, give_card, give_done, give_tile, log_of, set_tools


def five_symbol_set() -> dict:
    """Another component set: 5 symbols, 30 tiles, 30 cards (one a '3 different symbols' mission,
    one an E discovery card), an 8-face die, 8-space maps with coins on the last two spaces and
    two expertise tools per board."""
    d = PARAMS.defaults()
    cost = list(d["tile_cost"]) + [1, 1, 0, 0, 0, 0, 1, 1]
    need = [v for c in range(28) for v in list(d["card_need"][4 * c:4 * c + 4]) + [0]]
    need += [0, 0, 0, 0, 0] + [0, 0, 0, 0, 1]
    return {
        "symbols": 5, "tiles": 30, "cards": 30, "die_sides": 8, "map_spaces": 8, "expertise_tools": 2,
        "tile_symbol": tuple(i % 5 for i in range(30)),
        "tile_cost": tuple(cost),
        "card_kind": tuple(d["card_kind"]) + (KIND_MISSION, KIND_DISCOVERY),
        "card_need": tuple(need),
        "card_points": tuple(d["card_points"]) + (5, 0),
        "card_different": (0,) * 28 + (3, 0),
        "die_faces": (0, 0, 1, 1, 2, 2, 2, 0),
        "map_coins": (0, 0, 0, 0, 0, 0, 1, 1) * 4,
        "expertise": (0, 1, 1, 2, 2, 3, 3, 0),
    }


def mission_points_by_hand(st, values, seat):
    """Mission scoring recomputed in plain Python from the final state (an independent oracle)."""
    ns = values["symbols"]
    b = S.P0 + seat * S.PB
    counts = [0] * ns
    for i in range(st[b + S.B_NDONE]):
        counts[values["tile_symbol"][st[b + S.B_DONE + i]]] += 1
    hand = [int(st[b + S.B_HAND + h]) for h in range(st[b + S.B_NHAND])]
    for c in hand:
        if values["card_kind"][c] == KIND_DISCOVERY:
            for s in range(ns):
                counts[s] += values["card_need"][c * ns + s]
    points = 0
    for c in hand:
        if values["card_kind"][c] != KIND_MISSION:
            continue
        need = values["card_need"][c * ns:c * ns + ns]
        if all(counts[s] >= need[s] for s in range(ns)) and \
                sum(k > 0 for k in counts) >= values["card_different"][c]:
            points += values["card_points"][c]
    return points


# ---- the params facility: tables of variable length ------------------------------------------------


def test_param_table_of_variable_length_packs_padded_at_fixed_offsets():
    table = ParamTable((Param("faces", (1, 2, 3), "a die", FACT, "test", low=0, high=9, max_size=5),
                        Param("after", 7, "the next parameter", FACT, "test")))
    assert table.offsets == {"faces": 0, "after": 5}          # the slot is the maximum, whatever the length
    values = table.resolve({"faces": "4,5"})
    assert values["faces"] == (4, 5)
    assert list(table.pack(values)) == [4, 5, 0, 0, 0, 7]
    assert table.resolve({"faces": [1, 2, 3, 4, 5]})["faces"] == (1, 2, 3, 4, 5)
    with pytest.raises(SimlabError, match="at most 5 values, got 6"):
        table.resolve({"faces": "1,1,1,1,1,1"})
    with pytest.raises(SimlabError, match="entry must be between 0 and 9, got 10"):
        table.resolve({"faces": "1,10"})
    fixed = ParamTable((Param("three", (1, 2, 3), "fixed length", FACT, "test"),))
    with pytest.raises(SimlabError, match="expected 3 values, got 2"):
        fixed.resolve({"three": "1,2"})


# ---- wrong shapes are refused in one line -----------------------------------------------------------


@pytest.mark.parametrize("overrides,message", [
    ({"symbols": 5}, "card_need has 112 values, but cards=28 x symbols=5 needs 140"),
    ({"die_sides": 8}, "die_faces has 6 values, but die_sides=8 needs 8"),
    ({"die_faces": "0,1,2,0,1,2,0,1"}, "die_faces has 8 values, but die_sides=6 needs 6"),
    ({"tiles": 30}, "tile_symbol has 28 values, but tiles=30 needs 30"),
    ({"cards": 27}, "card_kind has 28 values, but cards=27 needs 27"),
    ({"map_spaces": 8}, "map_coins has 24 values, but 4 x map_spaces=8 needs 32"),
    ({"expertise_tools": 2}, "expertise has 4 values, but 4 x expertise_tools=2 needs 8"),
    ({"symbols": 3, "card_need": (1, 0, 0) * 28}, "tile_symbol: tile 22 shows symbol 3, but symbols=3"),
    ({"expertise": "0,1,2,2,2,3,3,0", "expertise_tools": 2}, "expertise: board 2 lists the shovel twice"),
    ({"card_different": (0,) * 27 + (5,)}, "card_different: card 28 asks for 5 different symbols, but symbols=4"),
])
def test_shape_a_table_that_does_not_fit_its_counts_is_refused_naming_it(overrides, message):
    with pytest.raises(SimlabError) as err:
        check(PARAMS.resolve(overrides), 4)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_shape_wrong_shape_on_the_command_line_exits_2_with_one_line(cli_run):
    code, out, err = cli_run("run", "legend-raiders", "-n", "10", "--set", "symbols=5", "--executor", "serial", "-q")
    assert code == 2
    assert "card_need has 112 values, but cards=28 x symbols=5 needs 140" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


# ---- another shape plays valid games ----------------------------------------------------------------


@pytest.mark.parametrize("n_players,seats", [(2, ("random", "random")), (4, ("hunter", "racer", "coiner", "random")),
                                             (3, ("hunter", "hunter", "racer"))])
def test_shape_five_symbols_eight_face_die_different_symbols_mission_play_valid_games(n_players, seats):
    values = PARAMS.resolve(five_symbol_set())
    check(values, n_players)
    finals, cfg = _final_states(five_symbol_set(), n_players, seats, 300)   # invariants after every step
    used_new_tile = scored_new_mission = False
    for st in finals:
        assert st[S.S_END_REASON] in (S.END_SIXTH, S.END_STACK, S.END_GUARD)
        for p in range(n_players):
            b = S.P0 + p * S.PB
            assert st[b + S.B_MISSION_PTS] == mission_points_by_hand(st, values, p)
            done = st[b + S.B_DONE:b + S.B_DONE + st[b + S.B_NDONE]]
            used_new_tile |= bool((done >= 28).any())
            hand = list(st[b + S.B_HAND:b + S.B_HAND + st[b + S.B_NHAND]])
            scored_new_mission |= 28 in hand and mission_points_by_hand(st, values, p) >= 5
    assert used_new_tile and scored_new_mission


def test_shape_eight_face_die_rolls_every_face():
    prep = Prepared(RunConfig("legend-raiders", 2, ("racer", "racer"), 1, seed=6,
                              params={"die_sides": 8, "die_faces": (0, 0, 0, 0, 0, 0, 2, 2)}))
    rolls = []
    for g in range(30):
        _, log = prep.play(g, 1, 20000)
        rolls += [int(e[2]) for e in log if e[0] == rules.EV_ROLL]
    coins = sum(r == 2 for r in rolls)
    assert set(rolls) == {0, 2} and 0.15 < coins / len(rolls) < 0.35     # faces 7 and 8: a quarter of the rolls


def test_shape_mission_n_different_symbols():
    cfg = cfg_of(**five_symbol_set())
    counts = np.zeros(6, np.int64)
    for have, met in (((1, 1, 1, 0, 0), True), ((3, 0, 0, 0, 0), False), ((0, 2, 0, 0, 1), False),
                      ((0, 0, 1, 1, 1), True)):
        counts[:5] = have
        assert scoring.mission_met(cfg, 28, counts) == met
    # both at once: AA and 3 different symbols
    cfg2 = cfg_of(card_different=(0,) * 4 + (3,) + (0,) * 23)   # card 5 is the AA mission
    for have, met in (((2, 1, 1, 0), True), ((1, 1, 1, 0), False), ((2, 1, 0, 0), False)):
        counts[:] = 0
        counts[:4] = have
        assert scoring.mission_met(cfg2, 4, counts) == met


def test_shape_two_expertise_tools_per_board_both_score():
    state, cfg, _ = fresh(2, boards=(1, 2, 0, 0), expertise_tools=2, expertise="0,1,1,2,2,3,3,0")
    tile = next(i for i in range(28) if tuple(PARAMS["tile_cost"].default[4 * i:4 * i + 4]) == (1, 1, 1, 1))
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, (1, 1, 1, 1))
    rules.complete(state, cfg, 0, 0, S.NO_TORCH, log_of(), 0)
    assert state[base(0) + S.B_EXP_PTS] == 2                  # board 1: compass and map


def test_shape_longer_map_coins_show_until_covered():
    state, cfg, _ = fresh(2, map_spaces=8, map_coins=(0, 0, 0, 0, 0, 0, 2, 3) * 4, slot_coins=(0, 0, 0) * 4)
    give_done(state, 0, list(state[S.S_STACK:S.S_STACK + 6]))
    tile = state[S.S_HQ_TILE]
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, PARAMS["tile_cost"].default[4 * tile:4 * tile + 4])
    rules.complete(state, cfg, 0, 0, S.NO_TORCH, log_of(), 0)
    assert state[base(0) + S.B_COIN_PTS] == 3                 # the 7th discovery covers space 7; space 8 shows 3


def test_shape_from_a_toml_config_file(cli_run, tmp_path):
    shape = five_symbol_set()
    lines = "\n".join(f"{k} = {list(v) if isinstance(v, tuple) else v}" for k, v in shape.items())
    config = tmp_path / "five.toml"
    config.write_text(textwrap.dedent("""
        game = "legend-raiders"
        players = 3
        seats = ["hunter", "racer", "coiner"]
        games = 300
        seed = 2
        [params]
    """) + lines + "\n")
    code, out, err = cli_run("run", "--config", str(config), "--out", str(tmp_path / "r"), "--executor", "serial",
                             "-q")
    assert code == 0, err
    frame = load(tmp_path / "r")
    params = frame.attrs["simlab"]["config"]["params"]
    assert params["symbols"] == 5 and params["die_sides"] == 8 and len(params["card_need"]) == 150
    assert len(frame) == 900 and (frame.discoveries >= 0).all()
    code, _, err = cli_run("trace", "--config", str(config), "--every", "0")
    assert code == 0, err


def test_shape_default_counts_are_the_rulebooks_and_the_placeholder_set():
    d = PARAMS.defaults()
    assert (d["tiles"], d["cards"], d["die_sides"], d["map_spaces"], d["expertise_tools"]) == (28, 28, 6, 6, 1)
    assert d["symbols"] == 4 and PARAMS["symbols"].status == "assumption"
    check(PARAMS.resolve({}), 4)
    state, cfg, _ = fresh(4)
    give_card(state, 0, 0)
    assert scoring.check_invariants(state, cfg) == 0
