"""Legend Raiders through the step interface: honest observations, determinisation, copyable states,
and the search player."""
import numpy as np

from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.strategy import get_strategy
from simlab.games.legend_raiders import GAME, step
from simlab.games.legend_raiders import state as S
from simlab.games.legend_raiders.components import O

from step_points import decision_points

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
    for state, seat, _, cfg in decision_points(GAME, 4, {}, 2, seed=1, single=True):
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

