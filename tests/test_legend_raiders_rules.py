"""Legend Raiders: one test per rule, on hand-built states calling the step functions directly."""
import numpy as np
import pytest
from numba import njit, types

from simlab.core.errors import SimlabError
from simlab.core.play import COL_SCORE, COL_TIEBREAK, FIRST_GAME_COLUMN, MAX_SEATS, legal_index
from simlab.core.params import ASSUMPTION, FACT, SETUP, VARIANT
from simlab.core.results import ranks
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, root_key, seed_streams
from simlab.core.strategy import DECIDE_SIGNATURE, DECIDE_TYPE
from simlab.games.legend_raiders import GAME, check, rules, scoring, step
from simlab.games.legend_raiders import state as S
from simlab.games.legend_raiders.components import (EFFECT_COIN, EFFECT_TOOL, EFFECT_TORCH, KIND_DICE,
                                                    KIND_DISCOVERY, KIND_MISSION, PARAMS)

# ---- helpers ------------------------------------------------------------------------------------------


def _scripted(state, cfg, seat, legal, n_legal, params, rng):
    """Pick the first code of ``params`` (in order, -1 ends the list) that is legal, else legal[0]."""
    for k in range(8):
        want = params[k]
        if want < 0:
            break
        for i in range(n_legal):
            if legal[i] == want:
                return i
    return 0


SCRIPT = njit(DECIDE_SIGNATURE, cache=True)(_scripted)
FNS = (SCRIPT,) * MAX_SEATS
FNS_T = types.UniTuple(DECIDE_TYPE, MAX_SEATS)
ARGS = (types.int32[::1], types.int64[::1], types.int64, FNS_T, types.float64[:, ::1], types.uint64[:, ::1],
        types.int32[:, ::1])


@njit(cache=True)
def finish_turn(state, cfg, fns, seat_params, streams, log, n_ev):
    """Answer the current seat's decisions with its strategy (a single choice without asking, as in
    play) until its turn is over; returns the trace count."""
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    seat = state[S.S_CUR]
    while state[S.S_STAGE] != S.ST_TURN_OVER:
        n = step.legal(state, cfg, legal)
        i = 0
        if n > 1:
            i = legal_index(fns[seat](state, cfg, seat, legal, n, seat_params[seat], streams[STRATEGY_STREAM + seat]),
                            n, seat, seat)
        n_ev = step.resolve(state, cfg, legal[i], streams, log, n_ev)
    return n_ev


@njit(types.int64(*ARGS), cache=True)
def run_turn(state, cfg, seat, fns, seat_params, streams, log):
    n_ev = step.start_turn(state, cfg, seat, streams, log, 0)
    return finish_turn(state, cfg, fns, seat_params, streams, log, n_ev)


@njit(types.int64(*ARGS), cache=True)
def run_rounds(state, cfg, seat, fns, seat_params, streams, log):
    """Finish the game from the turn of ``seat`` in the current round (that seat's turn included),
    checking the invariants after every turn; returns the first broken one (0: none)."""
    n_ev = step.start_turn(state, cfg, seat, streams, log, 0)
    while True:
        n_ev = finish_turn(state, cfg, fns, seat_params, streams, log, n_ev)
        code = scoring.check_invariants(state, cfg)
        if code != 0:
            return code
        n_ev = step.next_turn(state, cfg, streams, log, n_ev)
        if state[S.S_STAGE] == S.ST_OVER:
            return 0


@njit(types.int64(*ARGS), cache=True)
def run_new_tile(state, cfg, seat, fns, seat_params, streams, log):
    """A prepare's new tile (``S_NEW_TILE``) goes to the board, and the prepare ends (tool limit, refill
    of the column in ``S_PREP_COL``)."""
    state[S.S_CUR] = seat
    state[S.S_STAGE] = S.ST_TILE
    n_ev = step.advance(state, cfg, streams, log, 0)
    return finish_turn(state, cfg, fns, seat_params, streams, log, n_ev)


def cfg_of(**overrides):
    return PARAMS.pack(PARAMS.resolve(overrides))


def fresh(n_players=4, seed=7, **overrides):
    """A freshly set-up game (state, cfg, streams)."""
    cfg = cfg_of(**overrides)
    state = np.zeros(S.STATE_SIZE, np.int32)
    streams = np.zeros((N_STREAMS, 4), np.uint64)
    seed_streams(root_key(seed), 0, streams, len(GAME.chance_streams))
    rules.setup(state, cfg, n_players, streams, np.zeros((0, 8), np.int32), 0)
    return state, cfg, streams


def base(seat):
    return S.P0 + seat * S.PB


def plan(*rows):
    """Strategy parameter rows: the codes each seat prefers, in order."""
    sp = np.full((MAX_SEATS, 8), -1.0)
    for p, codes in enumerate(rows):
        sp[p, :len(codes)] = codes
    return sp


def log_of(n=400):
    return np.zeros((n, 8), np.int32)


def events(log, n, kind):
    return [tuple(int(x) for x in row) for row in log[:n] if row[0] == kind]


def tile_from_anywhere(state, tile):
    """Take ``tile`` out of the stack / HQ / discard pile (keeps every tile in one place)."""
    for k in range(state[S.S_STACK_N]):
        if state[S.S_STACK + k] == tile:
            last = state[S.S_STACK_N] - 1
            state[S.S_STACK + k] = state[S.S_STACK + last]
            state[S.S_STACK + last] = -1
            state[S.S_STACK_N] = last
            return
    for col in range(4):
        if state[S.S_HQ_TILE + col] == tile:
            state[S.S_HQ_TILE + col] = -1
            return
    raise AssertionError(f"tile {tile} not in the stack or the HQ")


def give_tile(state, seat, slot, tile):
    tile_from_anywhere(state, tile)
    state[base(seat) + S.B_SLOT + slot] = tile


def give_done(state, seat, tiles):
    for t in tiles:
        tile_from_anywhere(state, t)
        d = state[base(seat) + S.B_NDONE]
        state[base(seat) + S.B_DONE + d] = t
        state[base(seat) + S.B_NDONE] = d + 1


def set_tools(state, seat, counts):
    """Set a backpack, moving the difference from/to the bag."""
    for t in range(4):
        diff = counts[t] - state[base(seat) + S.B_TOOLS + t]
        state[S.S_BAG + t] -= diff
        state[base(seat) + S.B_TOOLS + t] = counts[t]


def card_from_deck(state, card):
    for k in range(state[S.S_DECK_N]):
        if state[S.S_DECK + k] == card:
            last = state[S.S_DECK_N] - 1
            state[S.S_DECK + k] = state[S.S_DECK + last]
            state[S.S_DECK + last] = -1
            state[S.S_DECK_N] = last
            return
    for k in range(4):
        if state[S.S_FACEUP + k] == card:
            state[S.S_FACEUP + k] = -1
            rules.refill_row(state, cfg_of(), np.zeros((N_STREAMS, 4), np.uint64), log_of(0), 0)
            return
    raise AssertionError(f"card {card} not in the deck or the row")


def give_card(state, seat, card, rnd=0):
    card_from_deck(state, card)
    h = state[base(seat) + S.B_NHAND]
    state[base(seat) + S.B_HAND + h] = card
    state[S.T_HAND + seat * S.MAX_CARDS + h] = card
    state[base(seat) + S.B_HAND_RND + h] = rnd
    state[base(seat) + S.B_NHAND] = h + 1


def cards_of_kind(kind):
    return [i for i, k in enumerate(PARAMS["card_kind"].default) if k == kind]


def tile_costing(cost):
    """The first tile whose cost is exactly ``cost`` (compass, map, shovel, rope)."""
    table = PARAMS["tile_cost"].default
    for i in range(28):
        if tuple(table[4 * i:4 * i + 4]) == tuple(cost):
            return i
    raise AssertionError(cost)


def force_die(cfg, effect):
    """Make every die face show ``effect``."""
    cfg = cfg.copy()
    cfg[PARAMS.offsets["die_faces"]:PARAMS.offsets["die_faces"] + 6] = effect
    return cfg


TOOLS_ONLY_PLAN = (S.TAKE_BLIND, S.STOP)  # go on an expedition and complete nothing


# ---- setup -----------------------------------------------------------------------------------------------


def test_rule_setup_hq_columns_bag_cards_and_lit_torches():
    state, cfg, _ = fresh(4)
    assert state[S.S_STACK_N] == 24                       # 28 tiles, 4 flipped onto the HQ
    assert all(state[S.S_HQ_TILE + c] >= 0 for c in range(4))
    for c in range(4):
        assert state[S.S_HQ_TOOLS + 4 * c:S.S_HQ_TOOLS + 4 * c + 4].sum() == 2
    assert state[S.S_BAG:S.S_BAG + 4].sum() == 36 - 8
    assert state[S.S_DECK_N] == 24 and all(state[S.S_FACEUP + k] >= 0 for k in range(4))
    boards = sorted(state[base(p) + S.B_BOARD] for p in range(4))
    assert boards == [0, 1, 2, 3]                         # one character board each
    for p in range(4):
        assert state[base(p) + S.B_TORCH] == 1
        assert state[base(p) + S.B_TOOLS:base(p) + S.B_TOOLS + 4].sum() == 0
    assert scoring.check_invariants(state, cfg) == 0


def test_rule_fixed_boards_setup_param():
    state, cfg, _ = fresh(3, boards=(3, 1, 0, 0))
    assert state[base(0) + S.B_BOARD] == 2 and state[base(1) + S.B_BOARD] == 0
    assert state[base(2) + S.B_BOARD] in (1, 3)


# ---- the die ------------------------------------------------------------------------------------------


def test_rule_die_tool_face_draws_one_tool_from_the_bag():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_TOOL)
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log)
    drawn = events(log, n, rules.EV_DRAW)
    assert len(drawn) == 1
    assert state[base(0) + S.B_TOOLS:base(0) + S.B_TOOLS + 4].sum() == 1
    assert state[S.S_BAG:S.S_BAG + 4].sum() == 36 - 8 - 1


def test_rule_die_tool_over_backpack_limit_returns_a_tool_of_the_players_choice():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_TOOL)
    set_tools(state, 0, (6, 0, 0, 0))
    bag_before = state[S.S_BAG:S.S_BAG + 4].copy()
    log = log_of()
    # the scripted player returns a compass (the drawn tool may be anything)
    run_turn(state, cfg, 0, FNS, plan((S.RETURN_TOOL + 0,) + TOOLS_ONLY_PLAN), streams, log)
    assert rules.n_tools(state, 0) == 6
    assert state[S.S_BAG:S.S_BAG + 4].sum() == bag_before.sum()
    assert state[base(0) + S.B_TOOLS_DISC] == 1


def test_rule_torch_face_flips_every_players_torch_including_the_roller():
    state, cfg, streams = fresh(4)
    cfg = force_die(cfg, EFFECT_TORCH)
    state[base(1) + S.B_TORCH] = 0
    state[base(3) + S.B_TORCH] = 0
    run_turn(state, cfg, 2, FNS, plan((), (), TOOLS_ONLY_PLAN), streams, log_of())
    assert [state[base(p) + S.B_TORCH] for p in range(4)] == [0, 1, 0, 1]
    run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log_of())
    assert [state[base(p) + S.B_TORCH] for p in range(4)] == [1, 0, 1, 0]


def test_rule_coin_face_scores_one_extra_point_per_discovery_completed_this_turn():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    a, b = tile_costing((1, 1, 0, 0)), tile_costing((0, 0, 1, 1))
    give_tile(state, 0, 0, a)
    give_tile(state, 0, 1, b)
    set_tools(state, 0, (1, 1, 1, 1))
    complete_all = (S.TAKE_BLIND, S.COMPLETE + 0 * 5 + 4, S.COMPLETE + 1 * 5 + 4)
    run_turn(state, cfg, 0, FNS, plan(complete_all), streams, log_of())
    assert state[base(0) + S.B_NDONE] == 2
    assert state[base(0) + S.B_DIE_PTS] == 2
    # the next turn, without completions, the coin face pays nothing
    run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log_of())
    assert state[base(0) + S.B_DIE_PTS] == 2


# ---- prepare an expedition --------------------------------------------------------------------------


def test_rule_prepare_takes_the_columns_tile_and_two_tools_then_refills_the_column():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    tile = state[S.S_HQ_TILE + 2]
    tools = state[S.S_HQ_TOOLS + 8:S.S_HQ_TOOLS + 12].copy()
    top = state[S.S_STACK + state[S.S_STACK_N] - 1]
    run_turn(state, cfg, 0, FNS, plan((S.PREPARE + 2,)), streams, log_of())
    assert tile in state[base(0) + S.B_SLOT:base(0) + S.B_SLOT + 3]
    assert list(state[base(0) + S.B_TOOLS:base(0) + S.B_TOOLS + 4]) == list(tools)
    assert state[S.S_HQ_TILE + 2] == top                  # the stack's top tile refills the column
    assert state[S.S_HQ_TOOLS + 8:S.S_HQ_TOOLS + 12].sum() == 2
    assert scoring.check_invariants(state, cfg) == 0


@pytest.mark.parametrize("discard", [0, 1, 2, 3])
def test_rule_tile_limit_three_discard_an_old_tile_or_the_new_one(discard):
    state, cfg, streams = fresh(2)
    for s, t in enumerate(state[S.S_STACK:S.S_STACK + 3].copy()):
        give_tile(state, 0, s, t)
    old = list(state[base(0) + S.B_SLOT:base(0) + S.B_SLOT + 3])
    new = state[S.S_HQ_TILE]
    tile_from_anywhere(state, new)
    state[S.S_NEW_TILE] = new
    run_new_tile(state, cfg, 0, FNS, plan((S.DISCARD_TILE + discard,)), streams, log_of())
    slots = list(state[base(0) + S.B_SLOT:base(0) + S.B_SLOT + 3])
    gone = new if discard == 3 else old[discard]
    assert gone not in slots and state[S.S_DISC + 0] == gone and state[S.S_DISC_N] == 1
    assert sorted(slots) == sorted([t for t in old + [new] if t != gone])
    assert state[base(0) + S.B_TILES_DISC] == 1


def test_rule_tool_limit_six_after_prepare_discards_to_the_bag():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    set_tools(state, 0, (2, 2, 1, 1))
    run_turn(state, cfg, 0, FNS, plan((S.PREPARE + 0, S.RETURN_TOOL + 0)), streams, log_of())
    assert rules.n_tools(state, 0) == 6
    assert state[base(0) + S.B_TOOLS_DISC] == 2
    assert scoring.check_invariants(state, cfg) == 0


def test_rule_new_tile_slot_is_the_players_choice_only_when_coins_differ():
    state, cfg, streams = fresh(2, slot_coins=(0, 1, 2) * 4)
    state[S.S_NEW_TILE] = state[S.S_HQ_TILE]
    tile_from_anywhere(state, state[S.S_HQ_TILE])
    log = log_of()
    run_new_tile(state, cfg, 0, FNS, plan((S.PLACE_SLOT + 2,)), streams, log)
    assert state[base(0) + S.B_SLOT + 2] >= 0
    assert state[S.S_PHASE] == S.PH_SLOT                  # the strategy was asked
    state2, cfg2, streams2 = fresh(2)
    state2[S.S_NEW_TILE] = state2[S.S_HQ_TILE]
    tile_from_anywhere(state2, state2[S.S_HQ_TILE])
    run_new_tile(state2, cfg2, 0, FNS, plan((S.PLACE_SLOT + 2,)), streams2, log_of())
    assert state2[base(0) + S.B_SLOT + 0] >= 0            # equal coins: the first free slot, no question
    assert state2[S.S_PHASE] != S.PH_SLOT


# ---- go on an expedition ---------------------------------------------------------------------------


def test_rule_expedition_takes_a_faceup_card_and_refills_the_row():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    card = state[S.S_FACEUP + 1]
    top = state[S.S_DECK + state[S.S_DECK_N] - 1]
    run_turn(state, cfg, 0, FNS, plan((S.TAKE_FACEUP + 1, S.STOP)), streams, log_of())
    assert state[base(0) + S.B_HAND] == card and state[base(0) + S.B_NHAND] == 1
    assert state[S.S_FACEUP + 1] == top and state[S.S_DECK_N] == 23


def test_rule_expedition_may_take_the_deck_top_blind():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    top = state[S.S_DECK + state[S.S_DECK_N] - 1]
    row = state[S.S_FACEUP:S.S_FACEUP + 4].copy()
    run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log_of())
    assert state[base(0) + S.B_HAND] == top
    assert list(state[S.S_FACEUP:S.S_FACEUP + 4]) == list(row)


def test_rule_expedition_without_cards_left_skips_the_card_step():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    state[S.S_DECK_N] = 0
    for k in range(4):
        give_card(state, 1, state[S.S_FACEUP + k])  # the row is empty and cannot refill
    state[S.S_DECK:S.S_DECK + 28] = -1
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    n = rules.action_choices(state, cfg, legal)
    assert S.TAKE_NOTHING in legal[:n] and S.TAKE_BLIND not in legal[:n]
    run_turn(state, cfg, 0, FNS, plan((S.TAKE_NOTHING, S.STOP)), streams, log_of())
    assert state[base(0) + S.B_EXPEDITIONS] == 1 and state[base(0) + S.B_NHAND] == 0


def test_rule_completion_returns_the_paid_tools_to_the_bag_and_moves_the_tile_to_the_map():
    state, cfg, _ = fresh(2)
    tile = tile_costing((1, 1, 1, 1))
    give_tile(state, 0, 1, tile)
    set_tools(state, 0, (2, 1, 1, 1))
    bag = state[S.S_BAG:S.S_BAG + 4].copy()
    rules.complete(state, cfg, 0, 1, S.NO_TORCH, log_of(), 0)
    assert list(state[base(0) + S.B_TOOLS:base(0) + S.B_TOOLS + 4]) == [1, 0, 0, 0]
    assert list(state[S.S_BAG:S.S_BAG + 4] - bag) == [1, 1, 1, 1]
    assert state[base(0) + S.B_SLOT + 1] == -1 and state[base(0) + S.B_DONE] == tile
    assert state[base(0) + S.B_NDONE] == 1 and state[base(0) + S.B_TORCH] == 1


def test_rule_lit_torch_is_a_wild_for_one_tool_and_turns_unlit():
    state, cfg, _ = fresh(2)
    tile = tile_costing((1, 1, 0, 0))
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, (1, 0, 0, 0))
    assert not rules.can_pay(state, cfg, 0, tile, S.NO_TORCH)
    assert rules.can_pay(state, cfg, 0, tile, 1)          # the torch stands in for the map
    assert not rules.can_pay(state, cfg, 0, tile, 2)      # not for a tool the tile does not need
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    n = rules.completion_choices(state, cfg, 0, legal)
    assert list(legal[:n]) == [S.COMPLETE + 0 * 5 + 1]
    rules.complete(state, cfg, 0, 0, 1, log_of(), 0)
    assert state[base(0) + S.B_TORCH] == 0 and state[base(0) + S.B_TORCH_USES] == 1
    assert state[base(0) + S.B_TOOLS:base(0) + S.B_TOOLS + 4].sum() == 0
    give_tile(state, 0, 0, tile_costing((0, 0, 1, 1)))
    set_tools(state, 0, (0, 0, 1, 0))
    assert rules.completion_choices(state, cfg, 0, legal) == 0   # an unlit torch is no wild


@pytest.mark.parametrize("held,expected", [(1, 3), (2, 2), (3, 1)])
def test_rule_coins_are_counted_after_the_tile_leaves_its_slot(held, expected):
    state, cfg, _ = fresh(2)
    tiles = [tile_costing((1, 1, 0, 0)), tile_costing((0, 0, 1, 1)), tile_costing((0, 2, 0, 0))][:held]
    for s, t in enumerate(tiles):
        give_tile(state, 0, s, t)
    set_tools(state, 0, (1, 1, 0, 0))
    rules.complete(state, cfg, 0, 0, S.NO_TORCH, log_of(), 0)
    assert state[base(0) + S.B_COIN_PTS] == expected      # 1 coin per empty dig site, the freed one included


def test_rule_coin_layout_and_map_spaces_are_parameters():
    state, cfg, _ = fresh(2, slot_coins=(0, 1, 2) * 4, map_coins=(0, 0, 3, 0, 0, 0) * 4)
    a, b = tile_costing((1, 1, 0, 0)), tile_costing((0, 0, 1, 1))
    give_done(state, 0, [next(t for t in state[S.S_STACK:S.S_STACK + state[S.S_STACK_N]] if t not in (a, b))])
    give_tile(state, 0, 0, a)
    give_tile(state, 0, 2, b)
    set_tools(state, 0, (1, 1, 0, 0))
    rules.complete(state, cfg, 0, 0, S.NO_TORCH, log_of(), 0)
    # slots 0 (0 coins) and 1 (1 coin) are empty; the 2nd discovery covers map space 2, space 3 still shows 3
    assert state[base(0) + S.B_COIN_PTS] == 0 + 1 + 3


def test_rule_expertise_scores_one_per_expertise_tool_spent_not_for_the_torch():
    state, cfg, _ = fresh(2, boards=(1, 2, 0, 0))        # seat 1: board 1, expertise compass
    tile = tile_costing((2, 0, 1, 0))
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, (2, 0, 1, 0))
    rules.complete(state, cfg, 0, 0, S.NO_TORCH, log_of(), 0)
    assert state[base(0) + S.B_EXP_PTS] == 2
    state2, cfg2, _ = fresh(2, boards=(1, 2, 0, 0))
    give_tile(state2, 0, 0, tile)
    set_tools(state2, 0, (1, 0, 1, 0))
    rules.complete(state2, cfg2, 0, 0, 0, log_of(), 0)   # the torch replaces one compass
    assert state2[base(0) + S.B_EXP_PTS] == 1


def test_rule_sixth_discovery_triggers_the_end_and_the_round_is_finished():
    state, cfg, streams = fresh(4)
    cfg = force_die(cfg, EFFECT_COIN)
    tile = tile_costing((1, 1, 0, 0))
    give_done(state, 1, [t for t in state[S.S_STACK:S.S_STACK + state[S.S_STACK_N]] if t != tile][:5])
    give_tile(state, 1, 0, tile)
    set_tools(state, 1, (1, 1, 0, 0))
    for p in range(4):
        state[base(p) + S.B_TURNS] = 0
    rows = plan((S.PREPARE,), (S.TAKE_BLIND, S.COMPLETE + 4), (S.PREPARE,), (S.PREPARE,))
    log = log_of(2000)
    assert run_rounds(state, cfg, 1, FNS, rows, streams, log) == 0
    assert state[S.S_TRIGGER] == 2 and state[S.S_END_REASON] == S.END_SIXTH
    # seat 2 triggered: seats 3 and 4 still play the round, seat 1 (the start player) does not
    assert [state[base(p) + S.B_TURNS] for p in range(4)] == [0, 1, 1, 1]
    trig = events(log, 2000, rules.EV_TRIGGER)
    assert trig[0][1] == 1 and trig[0][2] == 6


def test_rule_everyone_has_the_same_number_of_turns_in_every_game():
    from simlab.core.runner import Prepared, RunConfig
    for n in (2, 3, 4):
        prep = Prepared(RunConfig("legend-raiders", n, ("random", "racer", "hunter", "coiner")[:n], 300, seed=5))
        f = prep.frame(0, 300)
        per_game = f.groupby("game")["turns"].agg(["min", "max"])
        assert (per_game["min"] == per_game["max"]).all()
        assert (f["turns"] == f["rounds"]).all()
        trig = f[f["triggered_end"] == 1]
        assert (trig["discoveries"] >= 6).all()
        assert (f.groupby("game")["triggered_end"].sum() <= 1).all()


def test_rule_final_scoring_missions_one_tile_serves_many_missions():
    state, cfg, _ = fresh(2)
    sym = PARAMS["tile_symbol"].default
    a_tiles = [t for t in range(28) if sym[t] == 0][:2]
    b_tile = [t for t in range(28) if sym[t] == 1][0]
    give_done(state, 0, a_tiles + [b_tile])
    need = PARAMS["card_need"].default
    pts = PARAMS["card_points"].default

    def mission(req):
        return next(c for c in cards_of_kind(KIND_MISSION) if tuple(need[4 * c:4 * c + 4]) == req)
    for c in (mission((1, 1, 0, 0)), mission((2, 0, 0, 0)), mission((2, 1, 0, 0)), mission((1, 1, 1, 0))):
        give_card(state, 0, c)
    scoring.final_scoring(state, cfg, log_of(), 0)
    met = pts[mission((1, 1, 0, 0))] + pts[mission((2, 0, 0, 0))] + pts[mission((2, 1, 0, 0))]
    assert state[base(0) + S.B_MISSION_PTS] == met and state[base(0) + S.B_MISSIONS] == 3


def test_rule_discovery_card_counts_as_a_completed_tile_for_missions_only():
    state, cfg, _ = fresh(2)
    need = PARAMS["card_need"].default
    aa = next(c for c in cards_of_kind(KIND_MISSION) if tuple(need[4 * c:4 * c + 4]) == (2, 0, 0, 0))
    disc_a = [c for c in cards_of_kind(KIND_DISCOVERY) if need[4 * c] == 1]
    give_card(state, 0, aa)
    give_card(state, 0, disc_a[0])
    give_card(state, 0, disc_a[1])
    scoring.final_scoring(state, cfg, log_of(), 0)
    assert state[base(0) + S.B_MISSION_PTS] == PARAMS["card_points"].default[aa]
    assert state[base(0) + S.B_NDONE] == 0                # not a discovery for coins or the end trigger


def test_rule_dice_cards_held_at_the_end_score_one_point_each():
    state, cfg, _ = fresh(2)
    for c in cards_of_kind(KIND_DICE)[:3]:
        give_card(state, 1, c)
    scoring.final_scoring(state, cfg, log_of(), 0)
    assert state[base(1) + S.B_DICE_PTS] == 3 and scoring.total_score(state, 1) == 3


def test_rule_tie_goes_to_the_later_seat_in_turn_order():
    state, cfg, _ = fresh(3)
    for p in range(3):
        state[base(p) + S.B_COIN_PTS] = 10
    state[base(2) + S.B_COIN_PTS] = 4
    rows = np.zeros((3, FIRST_GAME_COLUMN + len(GAME.columns)), np.int32)
    scoring.write_rows(state, cfg, rows)
    assert list(rows[:, COL_SCORE]) == [10, 10, 4]
    r = ranks(rows[None, :, COL_SCORE], rows[None, :, COL_TIEBREAK])[0]
    assert list(r) == [2, 1, 3]                           # seat 2 beats seat 1 on the tie


def test_rule_score_is_the_sum_of_coins_expertise_coin_effect_missions_and_dice_cards():
    state, cfg, _ = fresh(2)
    for k, v in ((S.B_COIN_PTS, 5), (S.B_EXP_PTS, 3), (S.B_DIE_PTS, 2), (S.B_MISSION_PTS, 7), (S.B_DICE_PTS, 1)):
        state[base(0) + k] = v
    assert scoring.total_score(state, 0) == 18


# ---- dice cards --------------------------------------------------------------------------------------


def test_rule_dice_card_changes_the_roll_but_only_from_a_later_turn():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_TOOL)
    dice = cards_of_kind(KIND_DICE)[0]
    give_card(state, 0, dice, rnd=1)                      # taken this round: not usable yet
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.CHANGE_DIE + EFFECT_COIN,) + TOOLS_ONLY_PLAN), streams, log)
    assert events(log, n, rules.EV_CHANGE) == [] and state[base(0) + S.B_DICE_USED] == 0
    state[S.S_ROUND] = 2
    n = run_turn(state, cfg, 0, FNS, plan((S.CHANGE_DIE + EFFECT_COIN, S.TAKE_BLIND, S.STOP)), streams, log)
    assert events(log, n, rules.EV_CHANGE)[0][2:4] == (EFFECT_TOOL, EFFECT_COIN)
    assert events(log, n, rules.EV_DRAW) == []            # the tool face no longer applies
    assert state[base(0) + S.B_DICE_USED] == 1
    assert state[S.S_REMOVED_N] == 1 and state[S.S_REMOVED] == dice   # base game: removed from the game
    assert scoring.check_invariants(state, cfg) == 0


def test_rule_used_dice_cards_reshuffled_reading_puts_the_card_back_into_the_deck():
    state, cfg, streams = fresh(2, used_dice_cards="reshuffled")
    cfg = force_die(cfg, EFFECT_TOOL)
    dice = cards_of_kind(KIND_DICE)[0]
    give_card(state, 0, dice, rnd=0)
    deck = state[S.S_DECK_N]
    run_turn(state, cfg, 0, FNS, plan((S.CHANGE_DIE + EFFECT_TORCH, S.PREPARE)), streams, log_of())
    assert state[base(0) + S.B_DICE_USED] == 1 and state[base(0) + S.B_TORCH] == 0
    assert state[S.S_DECK_N] == deck + 1 and dice in state[S.S_DECK:S.S_DECK + state[S.S_DECK_N]]


# ---- the no-dice variant -----------------------------------------------------------------------------


def test_rule_no_dice_variant_skips_the_roll():
    state, cfg, streams = fresh(2, variant="no_dice")
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log)
    assert events(log, n, rules.EV_ROLL) == [] and state[S.S_ROLL] == -1


@pytest.mark.parametrize("effect", [0, 1, 2])
def test_rule_no_dice_variant_dice_card_effects_two_tools_own_torch_or_coins(effect):
    state, cfg, streams = fresh(3, variant="no_dice")
    for p in range(3):
        state[base(p) + S.B_TORCH] = 0
    dice = cards_of_kind(KIND_DICE)[0]
    give_card(state, 0, dice, rnd=1)
    tile = tile_costing((1, 1, 0, 0))
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, (1, 1, 0, 0))
    deck = state[S.S_DECK_N]
    run_turn(state, cfg, 0, FNS, plan((S.USE_CARD + effect, S.TAKE_BLIND, S.COMPLETE + 4)), streams, log_of())
    assert state[base(0) + S.B_DICE_USED] == 1
    assert state[S.S_DECK_N] == deck                      # shuffled back in, one blind card taken
    assert dice in state[S.S_DECK:S.S_DECK + state[S.S_DECK_N]] or dice == state[base(0) + S.B_HAND]
    tools = rules.n_tools(state, 0)
    assert tools == (2 if effect == 0 else 0)             # the tile used the 2 tools it had
    assert [state[base(p) + S.B_TORCH] for p in range(3)] == ([1, 0, 0] if effect == 1 else [0, 0, 0])
    assert state[base(0) + S.B_DIE_PTS] == (1 if effect == 2 else 0)


def test_rule_no_dice_variant_card_usable_during_the_expedition_and_extra_card_switch():
    state, cfg, streams = fresh(2, variant="no_dice", variant_extra_dice_card=True)
    dice = cards_of_kind(KIND_DICE)
    for k in range(2):
        card_from_deck(state, dice[k])
        old = state[S.S_FACEUP + k]
        state[S.S_FACEUP + k] = dice[k]
        state[S.S_DECK + state[S.S_DECK_N]] = old
        state[S.S_DECK_N] += 1
    tile = tile_costing((1, 1, 0, 0))
    give_tile(state, 0, 0, tile)
    set_tools(state, 0, (1, 0, 0, 0))
    state[base(0) + S.B_TORCH] = 0
    # take face-up dice card 1, then the extra face-up dice card 2, relight mid-expedition, complete
    run_turn(state, cfg, 0, FNS, plan((S.NO_CARD, S.TAKE_FACEUP + 0, S.EXTRA_DICE + 1, S.COMPLETE + 1,
                                       S.USE_CARD + 1)), streams, log_of())
    assert state[base(0) + S.B_CARDS] == 2
    assert state[base(0) + S.B_NDONE] == 1 and state[base(0) + S.B_TORCH_USES] == 1
    assert state[base(0) + S.B_DICE_USED] == 2             # the plan then also spends the second card
    assert scoring.check_invariants(state, cfg) == 0


# ---- the tile stack runs out ---------------------------------------------------------------------------


def _empty_stack(rule, **overrides):
    state, cfg, streams = fresh(2, empty_stack_rule=rule, **overrides)
    for t in list(state[S.S_STACK:S.S_STACK + state[S.S_STACK_N]]):
        tile_from_anywhere(state, t)
        rules.discard_tile(state, t)
    return state, cfg, streams


def test_rule_empty_stack_reshuffles_the_discarded_tiles():
    state, cfg, streams = _empty_stack("reshuffle")
    log = log_of()
    tile, n = rules.stack_draw(state, cfg, streams, log, 0)
    assert tile >= 0 and state[S.S_DISC_N] == 0 and state[S.S_STACK_N] == 23 and state[S.S_RESHUFFLES] == 1
    state[S.S_STACK_N] = 0
    state[S.S_STACK:S.S_STACK + 28] = -1
    tile, n = rules.stack_draw(state, cfg, streams, log, 0)
    assert tile == -1                                      # both empty: the column gets tools only


def test_rule_empty_stack_tools_only_reading():
    state, cfg, streams = _empty_stack("tools_only")
    tile, _ = rules.stack_draw(state, cfg, streams, log_of(), 0)
    assert tile == -1 and state[S.S_DISC_N] == 24 and state[S.S_TRIGGER] == 0 and state[S.S_STACK_OUT] == 1


def test_rule_empty_stack_end_trigger_reading():
    state, cfg, streams = _empty_stack("end_trigger")
    tile, _ = rules.stack_draw(state, cfg, streams, log_of(), 0)
    assert tile == -1 and state[S.S_TRIGGER] == -1


def test_rule_column_without_tile_can_still_be_prepared_for_its_tools():
    state, cfg, streams = _empty_stack("tools_only")
    cfg = force_die(cfg, EFFECT_COIN)
    gone = state[S.S_HQ_TILE + 3]
    tile_from_anywhere(state, gone)
    rules.discard_tile(state, gone)
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    n = rules.action_choices(state, cfg, legal)
    assert S.PREPARE + 3 in legal[:n]
    run_turn(state, cfg, 0, FNS, plan((S.PREPARE + 3,)), streams, log_of())
    assert rules.n_held(state, 0) == 0 and rules.n_tools(state, 0) == 2
    assert state[S.S_HQ_TILE + 3] == -1 and state[S.S_HQ_TOOLS + 12:S.S_HQ_TOOLS + 16].sum() == 2
    assert scoring.check_invariants(state, cfg) == 0


# ---- strategies and parameters ---------------------------------------------------------------------------


def test_rule_a_strategy_answer_outside_the_legal_choices_is_refused():
    def bad(state, cfg, seat, legal, n_legal, params, rng):
        return n_legal
    bad_fn = njit(DECIDE_SIGNATURE)(bad)
    state, cfg, streams = fresh(2)
    with pytest.raises(ValueError):
        run_turn(state, cfg, 0, (bad_fn,) * MAX_SEATS, plan(), streams, log_of())


def test_params_every_component_value_is_marked_fact_or_assumption():
    for p in PARAMS.params:
        assert p.status in (FACT, ASSUMPTION, VARIANT, SETUP) and p.meaning and p.source
    for name in ("tile_symbol", "tile_cost", "card_kind", "card_need", "card_points", "expertise", "slot_coins",
                 "map_coins", "die_faces", "empty_stack_rule", "empty_deck_rule", "hq_refill", "dice_card_same_turn",
                 "variant_cards_per_turn", "variant_coin_stacks", "variant_card_timing", "returned_card_refills"):
        assert PARAMS[name].status == ASSUMPTION
    assert PARAMS["variant"].status == VARIANT and GAME.variants["no-dice"] == {"variant": "no_dice"}
    assert "ASSUMED" in GAME.summary


def test_params_assumed_component_data_matches_the_rules_doc_tables():
    cost = np.array(PARAMS["tile_cost"].default).reshape(28, 4)
    assert list(cost.sum(axis=0)) == [21, 21, 21, 21]     # rules doc section 5.4: each tool 21 times
    assert sorted(cost.sum(axis=1)) == sorted([2, 2, 3, 3, 3, 4, 4] * 4)
    assert list(np.bincount(PARAMS["tile_symbol"].default)) == [7, 7, 7, 7]
    assert list(np.bincount(PARAMS["card_kind"].default)) == [16, 8, 4]
    assert sorted(PARAMS["card_points"].default)[-16:] == sorted([3] * 4 + [4] * 4 + [5] * 4 + [6] * 4)


def test_params_setup_check_refuses_unplayable_tables():
    values = PARAMS.resolve({})
    check(values, 4)
    with pytest.raises(SimlabError):
        check(PARAMS.resolve({"tile_cost": (0,) * 112}), 4)
    with pytest.raises(SimlabError):
        check(PARAMS.resolve({"boards": (1, 1, 0, 0)}), 4)
    bad = list(PARAMS["card_need"].default)
    bad[16 * 4:16 * 4 + 4] = [1, 1, 0, 0]                  # card 17 is a discovery card
    with pytest.raises(SimlabError):
        check(PARAMS.resolve({"card_need": tuple(bad)}), 4)


def test_rule_worked_example_up_to_eight_discoveries_five_plus_three_on_the_last_turn():
    state, cfg, streams = fresh(2)
    cfg = force_die(cfg, EFFECT_COIN)
    mine = [tile_costing(c) for c in ((1, 1, 0, 0), (0, 0, 1, 1), (0, 2, 0, 0))]
    give_done(state, 0, [t for t in state[S.S_STACK:S.S_STACK + state[S.S_STACK_N]] if t not in mine][:5])
    for s, t in enumerate(mine):
        give_tile(state, 0, s, t)
    set_tools(state, 0, (1, 3, 1, 1))
    finish = (S.TAKE_BLIND, S.COMPLETE + 0 * 5 + 4, S.COMPLETE + 1 * 5 + 4, S.COMPLETE + 2 * 5 + 4)
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan(finish), streams, log)
    assert state[base(0) + S.B_NDONE] == 8 and state[S.S_TRIGGER] == 1
    assert [e[7] for e in events(log, n, rules.EV_COMPLETE)] == [6, 7, 8]
    # coins: 1 slot empty after the first, 2 after the second, 3 after the third; +1 each for the coin face
    assert state[base(0) + S.B_COIN_PTS] == 1 + 2 + 3 and state[base(0) + S.B_DIE_PTS] == 3


def test_rule_worked_example_mission_aab_needs_two_a_and_one_b():
    state, cfg, _ = fresh(2)
    need = PARAMS["card_need"].default
    aab = next(c for c in cards_of_kind(KIND_MISSION) if tuple(need[4 * c:4 * c + 4]) == (2, 1, 0, 0))
    counts = np.zeros(4, np.int64)
    for have, met in (((2, 1, 0, 0), True), ((1, 2, 3, 3), False), ((3, 0, 0, 0), False), ((5, 1, 0, 0), True)):
        counts[:] = have
        assert scoring.mission_met(cfg, aab, counts) == met


# ---- open readings: the expedition deck runs out, the HQ refill (issue 14) -----------------------------


def deck_down_to(state, k, seat=1):
    """Give all but ``k`` deck cards to ``seat`` (keeps every card in one place)."""
    while state[S.S_DECK_N] > k:
        give_card(state, seat, state[S.S_DECK])


def test_rule_empty_deck_skip_reading_records_the_round_and_plays_on():
    state, cfg, streams = fresh(3)
    cfg = force_die(cfg, EFFECT_COIN)
    state[S.S_ROUND] = 5
    deck_down_to(state, 1)
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.TAKE_FACEUP + 2, S.STOP)), streams, log)
    assert state[S.S_DECK_N] == 0 and state[S.S_DECK_OUT] == 5 and state[S.S_TRIGGER] == 0
    assert events(log, n, rules.EV_DECK_OUT) == [(rules.EV_DECK_OUT, 5, 0, 0, 0, 0, 0, 0)]
    n = run_turn(state, cfg, 1, FNS, plan((), (S.TAKE_FACEUP + 1, S.STOP)), streams, log)
    assert state[S.S_FACEUP + 1] == -1                    # the place stays empty
    assert events(log, n, rules.EV_DECK_OUT) == []        # said once
    assert scoring.check_invariants(state, cfg) == 0


def test_rule_empty_deck_end_trigger_reading_the_last_card_drawn_ends_the_game():
    state, cfg, streams = fresh(3, empty_deck_rule="end_trigger")
    cfg = force_die(cfg, EFFECT_COIN)
    deck_down_to(state, 1)
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log)
    assert state[S.S_DECK_N] == 0 and state[S.S_TRIGGER] == -2
    assert events(log, n, rules.EV_DECK_OUT)[0][2] == 1
    from simlab.core.runner import Prepared, RunConfig
    f = Prepared(RunConfig("legend-raiders", 4, ("random",) * 4, 200, seed=3,
                           params={"empty_deck_rule": "end_trigger"})).frame(0, 200)
    ended = f[f.end_reason == 4]
    assert len(ended) > 0 and (ended.trigger_seat == -1).all()
    assert (ended.rounds == ended.deck_out_round).all() and (ended.turns == ended.rounds).all()


def test_rule_empty_deck_reshuffle_reading_rebuilds_the_deck_from_the_used_dice_cards():
    state, cfg, streams = fresh(2, empty_deck_rule="reshuffle")
    cfg = force_die(cfg, EFFECT_COIN)
    dice = cards_of_kind(KIND_DICE)
    for c in dice[:2]:
        card_from_deck(state, c)
        state[S.S_REMOVED + state[S.S_REMOVED_N]] = c
        state[S.S_REMOVED_N] += 1
    deck_down_to(state, 0)
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    assert S.TAKE_BLIND in legal[:rules.action_choices(state, cfg, legal)]
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan(TOOLS_ONLY_PLAN), streams, log)
    assert state[base(0) + S.B_HAND] in dice[:2]
    assert state[S.S_REMOVED_N] == 0 and state[S.S_DECK_N] == 1
    assert events(log, n, rules.EV_DECK_RESHUFFLE)[0][2] == 2
    assert scoring.check_invariants(state, cfg) == 0
    state2, cfg2, _ = fresh(2)                              # skip: the used cards stay out of the game
    state2[S.S_REMOVED + 0] = state2[S.S_DECK + state2[S.S_DECK_N] - 1]
    state2[S.S_REMOVED_N] = 1
    state2[S.S_DECK_N] -= 1
    deck_down_to(state2, 0)
    assert S.TAKE_BLIND not in legal[:rules.action_choices(state2, cfg2, legal)]


@pytest.mark.parametrize("reading,tools", [("column", 2), ("tile_needed", 0)])
def test_rule_hq_refill_reading_a_column_without_a_tile(reading, tools):
    state, cfg, streams = _empty_stack("tools_only", hq_refill=reading)
    cfg = force_die(cfg, EFFECT_COIN)
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.PREPARE + 1,)), streams, log)
    assert state[S.S_HQ_TILE + 1] == -1
    assert state[S.S_HQ_TOOLS + 4:S.S_HQ_TOOLS + 8].sum() == tools
    assert scoring.check_invariants(state, cfg) == 0
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    assert (S.PREPARE + 1 in legal[:rules.action_choices(state, cfg, legal)]) == (tools > 0)
    assert events(log, n, rules.EV_REFILL)[0][1:3] == (1, -1)


# ---- dice cards: timing and the no-dice variant's details (issue 15) ---------------------------------


def dice_face_up(state, place, card):
    """Put dice card ``card`` face up on ``place`` (the card there goes back into the deck)."""
    card_from_deck(state, card)
    old = state[S.S_FACEUP + place]
    state[S.S_FACEUP + place] = card
    state[S.S_DECK + state[S.S_DECK_N]] = old
    state[S.S_DECK_N] += 1


@pytest.mark.parametrize("same_turn", [False, True])
def test_rule_dice_card_same_turn_reading_a_card_just_taken_changes_the_die(same_turn):
    state, cfg, streams = fresh(2, dice_card_same_turn=same_turn)
    cfg = force_die(cfg, EFFECT_TOOL)
    dice = cards_of_kind(KIND_DICE)[0]
    dice_face_up(state, 0, dice)
    give_tile(state, 0, 0, tile_costing((1, 1, 0, 0)))
    set_tools(state, 0, (1, 1, 0, 0))
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.TAKE_FACEUP + 0, S.CHANGE_DIE + EFFECT_COIN, S.COMPLETE + 4)), streams,
                 log)
    assert state[base(0) + S.B_NDONE] == 1 and len(events(log, n, rules.EV_DRAW)) == 1   # the tool face applied
    if same_turn:
        assert events(log, n, rules.EV_CHANGE)[0][2:4] == (EFFECT_TOOL, EFFECT_COIN)
        assert state[base(0) + S.B_DIE_PTS] == 1 and state[base(0) + S.B_DICE_USED] == 1
        assert state[base(0) + S.B_NHAND] == 0 and state[S.S_REMOVED] == dice
    else:
        assert events(log, n, rules.EV_CHANGE) == [] and state[base(0) + S.B_DIE_PTS] == 0
        assert state[base(0) + S.B_HAND] == dice


def test_rule_dice_card_same_turn_reading_a_coin_face_turned_away_pays_nothing():
    state, cfg, streams = fresh(2, dice_card_same_turn=True)
    cfg = force_die(cfg, EFFECT_COIN)
    dice_face_up(state, 0, cards_of_kind(KIND_DICE)[0])
    give_tile(state, 0, 0, tile_costing((1, 1, 0, 0)))
    set_tools(state, 0, (1, 1, 0, 0))
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.TAKE_FACEUP + 0, S.CHANGE_DIE + EFFECT_TOOL, S.COMPLETE + 4)), streams,
                 log)
    assert state[base(0) + S.B_NDONE] == 1 and state[base(0) + S.B_DIE_PTS] == 0
    assert len(events(log, n, rules.EV_DRAW)) == 1 and rules.n_tools(state, 0) == 1


def test_rule_dice_cards_per_roll_counts_every_change_in_the_turn():
    state, cfg, streams = fresh(2, dice_card_same_turn=True)
    cfg = force_die(cfg, EFFECT_TOOL)
    state[S.S_ROUND] = 2
    dice = cards_of_kind(KIND_DICE)
    give_card(state, 0, dice[0], rnd=1)
    dice_face_up(state, 0, dice[1])
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.CHANGE_DIE + EFFECT_COIN, S.TAKE_FACEUP + 0, S.STOP)), streams, log)
    assert len(events(log, n, rules.EV_CHANGE)) == 1       # the roll used the turn's one card
    assert state[base(0) + S.B_NHAND] == 1 and state[base(0) + S.B_HAND] == dice[1]


def variant_with_dice_cards(k, **overrides):
    state, cfg, streams = fresh(2, variant="no_dice", **overrides)
    state[S.S_ROUND] = 2
    for c in cards_of_kind(KIND_DICE)[:k]:
        give_card(state, 0, c, rnd=1)
    return state, cfg, streams


@pytest.mark.parametrize("limit,used", [(0, 3), (1, 1), (2, 2)])
def test_rule_variant_cards_per_turn_reading(limit, used):
    state, cfg, streams = variant_with_dice_cards(3, variant_cards_per_turn=limit)
    give_tile(state, 0, 0, tile_costing((1, 1, 0, 0)))
    set_tools(state, 0, (1, 1, 0, 0))
    run_turn(state, cfg, 0, FNS, plan((S.USE_CARD + 2, S.TAKE_BLIND, S.COMPLETE + 4)), streams, log_of())
    assert state[base(0) + S.B_DICE_USED] == used
    assert state[base(0) + S.B_DIE_PTS] == used            # coin effects stack by default: +1 each


@pytest.mark.parametrize("stacks", [True, False])
def test_rule_variant_coin_stacks_reading(stacks):
    state, cfg, streams = variant_with_dice_cards(2, variant_coin_stacks=stacks)
    legal = np.zeros(S.MAX_CHOICES, np.int32)
    assert list(legal[:rules.variant_effects(state, cfg, legal, 0)]) == [S.USE_CARD, S.USE_CARD + 1, S.USE_CARD + 2]
    state[S.S_COIN_BONUS] = 1
    n = rules.variant_effects(state, cfg, legal, 0)
    assert (S.USE_CARD + 2 in legal[:n]) == stacks
    state[S.S_COIN_BONUS] = 0
    give_tile(state, 0, 0, tile_costing((1, 1, 0, 0)))
    set_tools(state, 0, (1, 1, 0, 0))
    run_turn(state, cfg, 0, FNS, plan((S.USE_CARD + 2, S.NO_CARD, S.TAKE_BLIND, S.COMPLETE + 4, S.STOP)), streams,
             log_of())
    assert state[base(0) + S.B_DIE_PTS] == (2 if stacks else 1)
    assert state[base(0) + S.B_DICE_USED] == (2 if stacks else 1)


@pytest.mark.parametrize("timing,used", [("any_time", 1), ("turn_start", 0)])
def test_rule_variant_card_timing_reading(timing, used):
    state, cfg, streams = variant_with_dice_cards(1, variant_card_timing=timing, variant_same_turn=False)
    state[base(0) + S.B_TORCH] = 0
    log = log_of()
    n = run_turn(state, cfg, 0, FNS, plan((S.NO_CARD, S.TAKE_BLIND, S.USE_CARD + 1, S.STOP)), streams, log)
    assert state[base(0) + S.B_DICE_USED] == used and state[base(0) + S.B_TORCH] == used
    assert len(events(log, n, rules.EV_VCARD)) == used


@pytest.mark.parametrize("refills", [True, False])
def test_rule_returned_card_refills_reading(refills):
    state, cfg, streams = variant_with_dice_cards(1, returned_card_refills=refills)
    dice = state[base(0) + S.B_HAND]
    deck_down_to(state, 0)
    give_card(state, 1, state[S.S_FACEUP + 2])             # place 3 empties, the deck cannot refill it
    assert state[S.S_FACEUP + 2] == -1
    log = log_of()
    n = rules.spend_dice_card(state, cfg, 0, 0, streams, log, 0)
    if refills:
        assert state[S.S_FACEUP + 2] == dice and state[S.S_DECK_N] == 0
        assert events(log, n, rules.EV_FACEUP) == [(rules.EV_FACEUP, 2, dice, 0, 0, 0, 0, 0)]   # not silent
    else:
        assert state[S.S_FACEUP + 2] == -1 and state[S.S_DECK_N] == 1 and n == 0
    assert scoring.check_invariants(state, cfg) == 0
