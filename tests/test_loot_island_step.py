"""Loot Island through the step interface: honest observations, determinisation, copyable states, and the
search player."""
import numpy as np
import pytest
from numba import njit

from simlab.core.play import IllegalChoice
from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.runner import Prepared, RunConfig
from simlab.core.strategy import BLIND_COLUMN, DECIDE_SIGNATURE, SEAT_PARAMS_WIDTH, SEES, UNIFORM, get_strategy
from simlab.games.loot_island import rules, step
from simlab.games.loot_island.components import MAP_SYMBOLS_WILD_CHESTS, N_MAP, N_TREASURE, PARAMS
from simlab.games.loot_island.state import (B_HAND_BITS, B_HAND_N, HIDDEN, M_DRAW, M_HAND, MAX_LEGAL, P0, PB,
                                            PH_END, S_ALLEN, S_EVENT_SEQ, S_HEALERS, S_MDRAW, S_MDRAW_N, S_MLOC,
                                            S_PHASE, S_PLAYERS, S_ROUND, S_TDECK, S_TDECK_N, STATE_SIZE)
from simlab.games.loot_island import GAME

from step_points import decision_points

BUILT_IN = ("random", "cautious", "hunter", "collector")
NO_LOG = np.zeros((0, 8), dtype=np.int32)


def make_cfg(**values):
    return PARAMS.pack(PARAMS.resolve(values))


def streams(deal=0, seed=1):
    """A game's block of random streams, seeded as the kernel seeds deal ``deal`` of a run with root seed ``seed``."""
    block = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(seed), deal, block)
    return block


def choose(name, state, cfg, seat, legal, n, rng, copy=True):
    """Index the built-in strategy ``name`` picks (drawing from a copy of ``rng`` unless ``copy`` is False)."""
    strat = get_strategy("loot-island", name)
    return strat.decide(state, cfg, seat, legal, n, strat.vector({}), rng.copy() if copy else rng)


def test_observation_hides_the_piles_the_other_hands_later_events_and_face_down_healers():
    """Hidden information (rules: the map and treasure piles lie face down, each player's hand is secret,
    Allen's lies open, the B events and the healers are dealt face down): a seat's observation shows its
    own hand, Allen's and the public board; the draw pile's and treasure deck's cards, where the other
    players' cards are, the events of later rounds and the healers are HIDDEN. Everything else is the
    state's own, at the same offsets."""
    obs = np.zeros(STATE_SIZE, dtype=np.int32)
    hidden_hand = ends = 0
    for k, (state, seat, _, _) in enumerate(decision_points(GAME, 2, {}, 1, seed=3, single=True)):
        if k % 4 and state[S_PHASE] != PH_END:
            continue
        n = state[S_PLAYERS]
        for viewer in range(n):
            step.observe(state, viewer, obs)
            assert (obs[S_MDRAW:S_MDRAW + N_MAP] == HIDDEN).all() and (obs[S_TDECK:S_TDECK + N_TREASURE] == HIDDEN).all()
            assert obs[S_MDRAW_N] == state[S_MDRAW_N] and obs[S_TDECK_N] == state[S_TDECK_N]
            for m in range(N_MAP):
                loc = state[S_MLOC + m]
                secret = loc == M_DRAW or (M_HAND <= loc < M_HAND + n and loc != M_HAND + viewer)
                assert obs[S_MLOC + m] == (HIDDEN if secret else loc)
                hidden_hand += secret and loc != M_DRAW
            for a in range(n + 1):   # each hand's bits by colour: the other players' hidden, Allen's open
                bits = obs[P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4]
                assert (bits == HIDDEN).all() if a < n and a != viewer else (bits == state[
                    P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4]).all()
            end = state[S_PHASE] == PH_END   # the end steps reveal the healers
            assert (obs[S_HEALERS:S_HEALERS + 5] == (state[S_HEALERS:S_HEALERS + 5] if end else HIDDEN)).all()
            ends += end
            later = state[S_ROUND]
            assert (obs[S_EVENT_SEQ + later:S_EVENT_SEQ + 5] == HIDDEN).all()
            assert (obs[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)] == state[S_EVENT_SEQ:S_EVENT_SEQ + min(later, 5)]).all()
            same = obs == state
            same[S_MDRAW:S_MDRAW + N_MAP] = same[S_TDECK:S_TDECK + N_TREASURE] = True
            same[S_MLOC:S_MLOC + N_MAP] = same[S_HEALERS:S_HEALERS + 5] = same[S_EVENT_SEQ:S_EVENT_SEQ + 5] = True
            for a in range(n):
                same[P0 + a * PB + B_HAND_BITS:P0 + a * PB + B_HAND_BITS + 4] = True
            assert (~same).sum() <= 1 + 22     # the choice just applied, and others' staged cards
        assert state[S_ALLEN] == 1
    assert hidden_hand > 0 and ends > 0


def play_randomly(state, cfg, block, pick):
    """Play on to the end, choice ``pick(n)`` at each decision; the invariants hold after every step."""
    legal = np.zeros(MAX_LEGAL, dtype=np.int32)
    steps = 0
    while step.to_move(state) >= 0:
        n = step.legal(state, cfg, legal)
        assert n >= 1
        step.apply(state, cfg, legal[pick(n)], block, NO_LOG)
        assert rules.check_invariants(state, cfg) == 0
        steps += 1
    return steps


@njit(DECIDE_SIGNATURE)
def sees_nothing(state, cfg, seat, legal, n_legal, params, rng):
    """Picks the first choice while every entry it is given is HIDDEN; answers outside the list otherwise."""
    for j in range(state.shape[0]):
        if state[j] != HIDDEN:
            return -1
    return 0


@njit(DECIDE_SIGNATURE)
def sees_its_hand(state, cfg, seat, legal, n_legal, params, rng):
    """Picks the first choice while it is shown the player count and its own hand's cards; answers
    outside the list otherwise."""
    if state[S_PLAYERS] == HIDDEN or state[P0 + seat * PB + B_HAND_N] == HIDDEN:
        return -1
    return 0


def test_a_blind_strategy_is_shown_nothing_and_the_others_their_observation():
    """A strategy registered blind (uniform random) is spared the observation's copy: play_from hands it
    a buffer in which every entry is HIDDEN, never the state or another seat's observation; a strategy
    not marked blind gets its seat's observation. The runner marks the slot from the registry."""
    assert get_strategy("loot-island", "random").blind
    assert not any(get_strategy("loot-island", s).blind for s in BUILT_IN if s != "random")
    assert list(Prepared(RunConfig("loot-island", 2, ("random", "hunter"), 1)).seat_params[:2, BLIND_COLUMN]) == [UNIFORM, SEES]
    cfg = make_cfg()
    slots = np.arange(3, dtype=np.int64)
    for blind_slot, fns in ((0, (sees_nothing, sees_its_hand, sees_its_hand) * 2),
                            (1, (sees_its_hand, sees_nothing, sees_its_hand) * 2)):
        seat_params = np.zeros((6, SEAT_PARAMS_WIDTH))
        seat_params[blind_slot, BLIND_COLUMN] = 1
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, streams(blind_slot, 8))
        step.play_from(state, cfg, slots, fns, seat_params, streams(blind_slot, 8), NO_LOG)
        assert step.to_move(state) == -1
        seat_params[blind_slot, BLIND_COLUMN] = 0   # not marked blind: shown its observation, not nothing
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, 3, streams(blind_slot, 8))
        with pytest.raises(IllegalChoice):
            step.play_from(state, cfg, slots, fns, seat_params, streams(blind_slot, 8), NO_LOG)



OTHER_VALUES = (0, 1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 0)   # slots not in order of value


@pytest.mark.parametrize("values", [{}, {"map_symbols": MAP_SYMBOLS_WILD_CHESTS, "map_values": OTHER_VALUES}],
                         ids=["printed cards", "other card data"])
def test_the_hand_masks_read_a_hand_as_a_scan_of_its_cards_would(values):
    """The turn options (rules: a colour may go to a landing when one of its cards fits there: a wild
    or a 1 always, otherwise a value at least the landing's last; an islet wants 2 cards of a colour,
    B9 1, B7 one more of any colour) and the heuristics' reading of a hand come from the hand's bits
    and the ``hand_masks`` derived from the card data in force. At every third decision of real
    games, under the printed cards and under card data a designer changed, both agree with a scan of
    every card in the hand."""
    from simlab.games.loot_island.actions import colour_ok
    from simlab.games.loot_island.components import (EV_B7, EV_B9, N_ISLET, PER_COLOUR, SYM_CHEST, SYM_DISCARD,
                                                     SYM_DOUBLE)
    from simlab.games.loot_island.state import (ISLET_ALLEN, ISLET_OWN, ISLET_UP, L0, L_LAST, LB, PASS, PLAY_ALLEN,
                                                PLAY_OWN, S_ISLET, S_MUST_PASS)
    from strategies.loot_island import hand_scan

    cfg = make_cfg(**values)
    checked = beaten = options = 0
    for state, seat, _, _ in decision_points(GAME, 2, values, games=6, seed=3, every=3):
        legal = np.zeros(MAX_LEGAL, np.int32)
        n = rules.action_choices(state, cfg, seat, legal)
        event = rules.event_now(state, cfg)
        want = [PASS]
        for o, owner in enumerate([seat] + ([state[S_PLAYERS]] if state[S_ALLEN] else [])):
            hand = [m for m in range(N_MAP) if state[S_MLOC + m] == M_HAND + owner]
            for landing in range(8):
                for c in range(4):
                    last = state[L0 + landing * LB + L_LAST]    # the rule: a wild or a 1, or at least the last
                    fit = [m for m in hand if m // PER_COLOUR == c and (rules.card_value(cfg, m) <= 1
                                                                       or rules.card_value(cfg, m) >= last)]
                    if fit and colour_ok(state, landing, c):
                        want.append((PLAY_ALLEN if o else PLAY_OWN) + landing * 4 + c)
                    symbols = [rules.card_symbol(cfg, m) for m in fit]
                    ones = sum(rules.card_value(cfg, m) == 1 for m in fit) * rules.last_is_one(state, cfg, landing)
                    assert hand_scan(state, cfg, owner, landing, c) == (
                        len(fit), len(fit) + symbols.count(SYM_DOUBLE), symbols.count(SYM_CHEST), ones,
                        symbols.count(SYM_DISCARD))
                    beaten += len(fit) < sum(m // PER_COLOUR == c for m in hand)   # a card too low to join
                    checked += 1
            need, extra = (1 if event == EV_B9 else 2), (1 if event == EV_B7 else 0)
            for i in range(N_ISLET):
                for c in range(4):
                    if (state[S_ISLET + i] == ISLET_UP and len(hand) >= need + extra
                            and sum(m // PER_COLOUR == c for m in hand) >= need):
                        want.append((ISLET_ALLEN if o else ISLET_OWN) + i * 4 + c)
        if state[S_MUST_PASS] == 0:
            assert list(legal[:n]) == want
            options += 1
    assert checked > 1000 and beaten > 50 and options > 100
