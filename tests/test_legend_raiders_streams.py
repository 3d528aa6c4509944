"""Legend Raiders: each source of chance draws from its own stream (common random numbers), and a
single legal choice is taken without asking the strategy."""
import numpy as np
import pytest
from numba import njit

from simlab.core.play import MAX_SEATS, REFUSAL_SIZE
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import DECIDE_SIGNATURE
from simlab.games.legend_raiders import GAME, rules, step
from simlab.games.legend_raiders import state as S

from test_legend_raiders_rules import fresh, log_of, plan, set_tools

MIX = ("hunter", "racer", "coiner", "random")
GAMES = 40


def chance(seats, params, games=GAMES):
    """Per game, what each chance stream produced, read from the trace: the boards dealt, the die
    rolls, the tiles drawn from the stack before any reshuffle, and the cards in the order they first
    left the deck (a dice card shuffled back may come out again: only its first draw counts, so the
    deck's own order is what is compared)."""
    prep = Prepared(RunConfig(game="legend-raiders", players=4, seats=seats, games=games, seed=5, params=params))
    out = []
    for g in range(games):
        _, log = prep.play(g, 1, log_capacity=4000)
        assert len(log) < 4000
        boards, die, tiles, cards = [], [], [], []
        reshuffled = False
        for ev in log:
            kind = ev[0]
            if kind == rules.EV_BOARD:
                boards.append(int(ev[2]))
            elif kind == rules.EV_ROLL:
                die.append(int(ev[2]))
            elif kind == rules.EV_STACK_EMPTY and ev[2] == 1:
                reshuffled = True
            elif kind == rules.EV_REFILL and ev[2] >= 0 and not reshuffled:
                tiles.append(int(ev[2]))
            elif kind == rules.EV_DECK_RESHUFFLE:
                break                                  # a rebuilt deck is no longer the setup's deck
            elif kind == rules.EV_FACEUP and ev[2] not in cards:
                cards.append(int(ev[2]))
            elif kind == rules.EV_TAKE_CARD and ev[3] == S.TAKE_BLIND - S.TAKE_FACEUP and ev[2] not in cards:
                cards.append(int(ev[2]))
        out.append((boards, die, tiles, cards))
    return out


def same_prefix(a, b):
    """The sequences agree as far as both go (games of different lengths draw different amounts)."""
    k = min(len(a), len(b))
    return a[:k] == b[:k]


def assert_chance_shared(base, other, compare=("boards", "die", "tiles", "cards")):
    lengths = {name: 0 for name in compare}
    for x, y in zip(base, other):
        for i, name in enumerate(("boards", "die", "tiles", "cards")):
            if name in compare:
                assert same_prefix(x[i], y[i]), name
                lengths[name] += min(len(x[i]), len(y[i]))
    for name in compare:
        assert lengths[name] > len(base), name         # the comparison saw real sequences


def test_streams_changing_one_seats_strategy_leaves_every_chance_sequence_unchanged():
    """The random seat (which draws a number at every decision) replaced by a heuristic, and a
    heuristic replaced by another: boards, die rolls, tile stack and deck are drawn as before."""
    base = chance(MIX, {})
    assert_chance_shared(base, chance(("hunter", "racer", "coiner", "hunter"), {}))
    assert_chance_shared(base, chance(("hunter", "coiner", "coiner", "random"), {}))


def test_streams_no_dice_variant_leaves_boards_tiles_and_deck_unchanged():
    """The no-dice variant rolls no die and shuffles spent dice cards back into the deck (its own
    stream; the other cards keep their order): the boards, the tile stack and the deck's own order
    are as in the base game."""
    base = chance(MIX, {})
    variant = chance(MIX, {"variant": "no_dice"})
    assert all(not v[1] for v in variant)              # no die rolled
    assert_chance_shared(base, variant, ("boards", "tiles", "cards"))


@pytest.mark.parametrize("params", [{"used_dice_cards": "reshuffled"}, {"empty_stack_rule": "tools_only"},
                                    {"empty_stack_rule": "end_trigger"}, {"empty_deck_rule": "reshuffle"},
                                    {"hq_refill": "tile_needed"}, {"dice_card_same_turn": True}])
def test_streams_rule_readings_that_add_or_remove_draws_leave_the_other_sequences_unchanged(params):
    assert_chance_shared(chance(MIX, {}), chance(MIX, params))


def test_streams_fixing_a_board_leaves_the_die_tiles_and_deck_unchanged():
    assert_chance_shared(chance(MIX, {}), chance(MIX, {"boards": (2, 0, 0, 0)}), ("die", "tiles", "cards"))


def test_streams_game_names_one_row_per_chance_purpose():
    rows = (S.R_TILES, S.R_DECK, S.R_REINSERT, S.R_BOARDS, S.R_HQ_TOOLS, S.R_DRAW_TOOLS, S.R_DIE)
    assert sorted(rows) == list(range(len(GAME.chance_streams)))


def _refuse_to_be_asked(state, cfg, seat, legal, n_legal, params, rng):
    return n_legal                                     # always outside legal[:n_legal]


def test_rule_a_single_legal_choice_is_taken_without_asking_the_strategy():
    """Over the tool limit with only one tool type held, returning that tool is the only choice:
    built-in play returns it without calling the strategy (which would answer out of range), and
    the first seat asked is the next seat, at its action; with two types held it is asked there."""
    refuse = (njit(DECIDE_SIGNATURE)(_refuse_to_be_asked),) * MAX_SEATS
    for tools in ((7, 0, 0, 0), (6, 1, 0, 0)):      # one over the backpack limit of 6: one type, then two
        state, cfg, streams = fresh(2)
        set_tools(state, 0, tools)
        state[S.S_CUR] = 0
        step.tools_then(state, S.ST_END_TURN)        # the tool limit, called by the turn
        step.advance(state, cfg, streams, log_of(), 0)
        refusal = np.zeros(REFUSAL_SIZE, np.int64)
        step.play_on(state, cfg, np.arange(2), refuse, plan(), streams, log_of(), np.zeros(S.MAX_CHOICES, np.int32),
                     refusal)
        seat, _, n, _ = refusal
        if tools[1] == 0:
            assert rules.n_tools(state, 0) == 6 and state[S.P0 + S.B_TOOLS] == 6
            assert seat == 1 and state[S.S_PHASE] == S.PH_ACTION      # asked next at seat 2's action
        else:                                          # a real choice, so the strategy is asked
            assert seat == 0 and n == 2 and state[S.S_PHASE] == S.PH_TOOL_LIMIT and rules.n_tools(state, 0) == 7
