"""Legend Raiders through the step interface: honest observations, determinisation, copyable states,
and the search player."""
import numpy as np
import pytest

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK
from simlab.core.results import ranks
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, root_key, seed_streams
from simlab.core.strategy import get_strategy
from simlab.games.legend_raiders import GAME, scoring, step
from simlab.games.legend_raiders import state as S
from simlab.games.legend_raiders.components import O

BUILT_IN = ("random", "hunter", "racer", "coiner")
NO_LOG = np.zeros((0, 8), dtype=np.int32)
# every decision kind turns up: the variant's dice cards and extra card, unequal slot coins, the
# later die change, dice cards going back into the deck
SETTINGS = ({}, {"variant": "no_dice", "variant_extra_dice_card": True, "slot_coins": (0, 1, 2) * 4},
            {"dice_card_same_turn": True, "used_dice_cards": "reshuffled", "dice_cards_per_roll": 2})


def make_cfg(**values):
    return GAME.params.pack(GAME.params.resolve(values))


def streams(deal=0, seed=1):
    block = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(seed), deal, block, len(GAME.chance_streams))
    return block


def choose(name, view, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("legend-raiders", name)
    return strat.decide(view, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def decision_points(players, games, seed, seats=("hunter", "random", "coiner", "racer"), **values):
    """(state, seat, legal codes, cfg) at every decision of games played through the step functions."""
    cfg = make_cfg(**values)
    legal = np.zeros(S.MAX_CHOICES, dtype=np.int32)
    for g in range(games):
        block = streams(g, seed)
        state = np.zeros(S.STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while (seat := step.to_move(state)) >= 0:
            n = step.legal(state, cfg, legal)
            yield state.copy(), seat, legal[:n].copy(), cfg
            i = choose(seats[seat], state[:S.OBS_VIEW], cfg, seat, legal, n, block[STRATEGY_STREAM + seat],
                       copy=False) if n > 1 else 0
            step.apply(state, cfg, legal[i], block, NO_LOG)


def blind_cards(state, seat):
    base = S.P0 + seat * S.PB
    return sum(1 for h in range(state[base + S.B_NHAND]) if not state[base + S.B_KNOWN + h])


def allowed(state):
    """Invariant codes a state may show at a decision: the backpack may be over the limit (4) while
    tools are being returned, and during a prepare until its new tile is placed (the tools are
    returned after)."""
    over = state[S.S_PHASE] in (S.PH_TOOL_LIMIT, S.PH_SLOT, S.PH_TILE_LIMIT) and state[S.S_STAGE] != S.ST_OVER
    return (0, 4) if over else (0,)


def test_observation_hides_the_stack_the_deck_and_the_other_seats_blind_cards_and_nothing_else():
    """Hidden information (rules: the tiles lie face down, their top's symbol showing; the deck is face
    down; a card taken blind is seen only by its taker, one taken from the row by everyone): a
    seat's observation shows its own hand, the cards others took face up, and HIDDEN for their
    blind cards, the stack and the deck. For the seat to move it is the view built-in play hands
    the strategy without copying (the state's first OBS_VIEW entries)."""
    obs = np.zeros(S.STATE_SIZE, dtype=np.int32)
    hidden_seen = 0
    for state, seat, _, cfg in decision_points(4, 2, seed=1):
        truth = state[S.T_HAND:S.T_HAND + 4 * S.MAX_CARDS].reshape(4, S.MAX_CARDS)
        for viewer in range(4):
            step.observe(state, viewer, obs)
            if viewer == seat:
                assert (obs[:S.OBS_VIEW] == state[:S.OBS_VIEW]).all()
            assert (obs[S.OBS_VIEW:S.T_EVENTS] == S.HIDDEN).all()
            top = state[S.S_STACK + state[S.S_STACK_N] - 1]
            assert obs[S.S_TOP_SYMBOL] == (cfg[O.tile_symbol + top] if state[S.S_STACK_N] else -1)
            for p in range(4):
                base = S.P0 + p * S.PB
                for h in range(state[base + S.B_NHAND]):
                    shown = obs[base + S.B_HAND + h]
                    if p == viewer or state[base + S.B_KNOWN + h]:
                        assert shown == truth[p, h]
                    else:
                        assert shown == S.HIDDEN
                        hidden_seen += 1
            without_hands = obs[:S.OBS_VIEW].copy()
            same = state[:S.OBS_VIEW].copy()
            for p in range(4):
                base = S.P0 + p * S.PB
                without_hands[base + S.B_HAND:base + S.B_HAND + S.MAX_CARDS] = 0
                same[base + S.B_HAND:base + S.B_HAND + S.MAX_CARDS] = 0
            assert (without_hands == same).all()
    assert hidden_seen > 0


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_determinized_state_looks_the_same_to_the_seat_and_every_built_in_strategy_chooses_the_same(players,
                                                                                                     setting):
    """Hidden information: at decision points of real games (heuristics and random; base game, the
    no-dice variant, dice cards reshuffled), re-sample what the deciding seat cannot see (several rng
    seeds): the seat's observation of the sample equals its observation of the true state, and
    every built-in strategy, handed the full sampled state, chooses what it chose on the true state
    (so none reads the stack, the deck or the other seats' blind cards). Strategies do not write
    into what they receive."""
    obs = np.zeros(S.STATE_SIZE, dtype=np.int32)
    again = np.zeros(S.STATE_SIZE, dtype=np.int32)
    sample = np.zeros(S.STATE_SIZE, dtype=np.int32)
    checked = 0
    differs = 0
    for k, (state, seat, legal, cfg) in enumerate(decision_points(players, 2, seed=players, **SETTINGS[setting])):
        if k % 4 or len(legal) < 2:
            continue
        step.observe(state, seat, obs)
        rng = np.array([k + 1, 7, 11, 13], dtype=np.uint64)
        for name in BUILT_IN:
            before = state.copy()
            truth = choose(name, state, cfg, seat, legal, len(legal), rng)
            assert (state == before).all(), f"{name} wrote into the state it was given"
            for s in range(3):
                step.determinize(obs, seat, cfg, np.array([s + 1, k, 3, 5], dtype=np.uint64), sample)
                step.observe(sample, seat, again)
                assert (again == obs).all()
                assert choose(name, sample, cfg, seat, legal, len(legal), rng) == truth, (name, k, s)
                differs += (sample[S.S_STACK:S.T_EVENTS] != state[S.S_STACK:S.T_EVENTS]).any()
        checked += 1
    assert checked > 20 and differs > 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_determinized_states_are_valid_and_random_play_reaches_the_end(players, setting):
    """determinize gives a state the rules accept: every invariant holds (tools, tiles and cards each
    in exactly one place, the hands' view agreeing with the true hands), the stack's top shows the
    symbol the seat saw, the other seats keep as many blind cards, and uniform random play from it
    reaches the end, the invariants holding after every step (the tool limit aside while tools are
    due back)."""
    sample = np.zeros(S.STATE_SIZE, dtype=np.int32)
    obs = np.zeros(S.STATE_SIZE, dtype=np.int32)
    legal = np.zeros(S.MAX_CHOICES, dtype=np.int32)
    rng = np.array([3, 1, 4, 1], dtype=np.uint64)
    tried = 0
    for k, (state, seat, _, cfg) in enumerate(decision_points(players, 1, seed=7, **SETTINGS[setting])):
        if k % 11:
            continue
        step.observe(state, seat, obs)
        step.determinize(obs if k % 2 else obs[:S.OBS_VIEW].copy(), seat, cfg, rng, sample)
        assert scoring.check_invariants(sample, cfg) in allowed(state)
        if sample[S.S_STACK_N]:
            assert cfg[O.tile_symbol + sample[S.S_STACK + sample[S.S_STACK_N] - 1]] == state[S.S_TOP_SYMBOL]
        for p in range(players):
            assert blind_cards(sample, p) == blind_cards(state, p)
        block = streams(k, 99)
        while step.to_move(sample) >= 0:
            n = step.legal(sample, cfg, legal)
            step.apply(sample, cfg, legal[k % n], block, NO_LOG)
            assert scoring.check_invariants(sample, cfg) in allowed(sample)
        assert scoring.check_invariants(sample, cfg) == 0
        tried += 1
    assert tried > 3


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_apply_of_every_legal_code_from_mid_game_states_gives_a_valid_state(setting):
    """The step interface: from states met in real games, each legal choice applied to a copy gives a
    state that keeps the invariants (the tool limit aside while tools are due back), with a
    decision of the same seat pending or the next seat's turn begun (or the game over)."""
    legal = np.zeros(S.MAX_CHOICES, dtype=np.int32)
    for k, (state, seat, codes, cfg) in enumerate(decision_points(3, 1, seed=4, **SETTINGS[setting])):
        if k % 5:
            continue
        for code in codes:
            s = state.copy()
            step.apply(s, cfg, code, streams(k), NO_LOG)
            assert scoring.check_invariants(s, cfg) in allowed(s)
            nxt = step.to_move(s)
            if nxt < 0:
                assert s[S.S_STAGE] == S.ST_OVER and s[S.S_END_REASON] != S.END_RUNNING
            else:
                assert nxt in (seat, (seat + 1) % 3) and step.legal(s, cfg, legal) >= 1
                assert nxt == seat or s[S.S_PHASE] in (S.PH_ACTION, S.PH_DIE_CARD, S.PH_VARIANT_CARD,
                                                       S.PH_TOOL_LIMIT)


def test_a_copy_of_a_mid_game_state_with_the_same_streams_finishes_identically():
    """The state is the whole game: a copy taken mid-turn, played on with copies of the same streams
    and strategies, ends in the same state and the same result rows."""
    cfg = make_cfg(variant="no_dice")   # reinsertion draws: chance that decisions trigger
    names = ("racer", "random", "coiner")
    fns = tuple(get_strategy("legend-raiders", s).decide for s in names * 2)
    seat_params = np.array([get_strategy("legend-raiders", s).vector({}) for s in names] * 2)
    slots = np.arange(3, dtype=np.int64)
    legal = np.zeros(S.MAX_CHOICES, dtype=np.int32)
    for g in range(4):
        block = streams(g, 21)
        state = np.zeros(S.STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, block)
        for _ in range(60 + 7 * g):
            step.apply(state, cfg, legal[(g * 7) % step.legal(state, cfg, legal)], block, NO_LOG)
        ends = []
        for _ in range(2):
            s, b = state.copy(), block.copy()
            step.play_from(s, cfg, slots, fns, seat_params, b, NO_LOG)
            rows = np.zeros((3, 3 + len(GAME.columns)), dtype=np.int32)
            scoring.write_rows(s, cfg, rows)
            ends.append((s, rows))
        assert (ends[0][0] == ends[1][0]).all() and (ends[0][1] == ends[1][1]).all()
        assert step.to_move(ends[0][0]) == -1


def test_returns_are_the_win_shares_of_the_result_rows():
    """The search's utility: the winner of the result rows (most points, a tie to the later seat)
    gets 1, everyone else 0."""
    legal = np.zeros(S.MAX_CHOICES, dtype=np.int32)
    out = np.zeros(4, dtype=np.float64)
    tied = 0
    for g in range(60):
        players = 2 + g % 3
        cfg = make_cfg()
        block = streams(g, 5)
        state = np.zeros(S.STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, block)
        while step.to_move(state) >= 0:
            n = step.legal(state, cfg, legal)
            i = choose("random", state, cfg, 0, legal, n, block[STRATEGY_STREAM], copy=False)
            step.apply(state, cfg, legal[i], block, NO_LOG)
        rows = np.zeros((players, 3 + len(GAME.columns)), dtype=np.int32)
        scoring.write_rows(state, cfg, rows)
        win = ranks(rows[None, :, COL_SCORE], rows[None, :, COL_TIEBREAK])[0] == 1
        step.returns(state, cfg, out)
        assert np.allclose(out[:players], win / win.sum())
        tied += len(set(rows[:, COL_SCORE])) < players
    assert tied > 0
