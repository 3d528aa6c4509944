"""Helpers for the Loot Island tests: hand-built states, scripted strategies, one rule step at a time."""
import numpy as np

from simlab.core.play import MAX_SEATS
from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.core.strategy import MAX_STRATEGY_PARAMS, StrategyParam, get_strategy, strategy
from simlab.games.loot_island import rules
from simlab.games.loot_island.components import PARAMS, PER_COLOUR
from simlab.games.loot_island.state import (B_CURSES, B_HAND_N, B_SUPPLY, D_KEEP, L0, LB, M_HAND, P0, PB, S_DKIND,
                                            S_MDRAW, S_MDRAW_N, S_MLOC, S_NEV, S_TDECK, S_TDECK_N, S_TLOC, STATE_SIZE,
                                            T_DECK)


@strategy("loot-island", "t_prefer",
          "test script: the first legal code found among params[0..7] (in that order), else legal[0]",
          tuple(StrategyParam(f"c{k}", -1.0, "preferred code") for k in range(8)))
def t_prefer(state, cfg, seat, legal, n_legal, params, rng):
    for k in range(8):
        want = params[k]
        if want < 0:
            continue
        for i in range(n_legal):
            if legal[i] == want:
                return i
    return 0


@strategy("loot-island", "t_last", "test script: always the last legal choice")
def t_last(state, cfg, seat, legal, n_legal, params, rng):
    return n_legal - 1


@strategy("loot-island", "t_discard", "test script: legal[0] everywhere, but discards every treasure it takes")
def t_discard(state, cfg, seat, legal, n_legal, params, rng):
    if state[S_DKIND] == D_KEEP:
        for i in range(n_legal):
            if legal[i] == 0:
                return i
    return 0


class Game:
    """A hand-built game state plus everything needed to run rule steps on it."""

    def __init__(self, n=4, seed=7, prefs=None, strategy_name="t_prefer", deal=False, **overrides):
        self.values = PARAMS.resolve(overrides)
        self.cfg = PARAMS.pack(self.values)
        self.n = n
        self.streams = np.zeros((N_STREAMS, 4), dtype=np.uint64)
        seed_streams(root_key(seed), 0, self.streams)
        self.state = np.zeros(STATE_SIZE, dtype=np.int32)
        rules.setup(self.state, self.cfg, n, self.streams)
        strat = get_strategy("loot-island", strategy_name)
        self.fns = tuple([strat.decide] * MAX_SEATS)
        self.sp = np.full((MAX_SEATS, MAX_STRATEGY_PARAMS), -1.0)
        for seat, codes in (prefs or {}).items():
            self.prefer(seat, codes)
        self.seat_slot = np.arange(n, dtype=np.int64)
        self.legal = np.zeros(128, dtype=np.int32)
        self.log = np.zeros((4000, 8), dtype=np.int32)
        if deal:
            self.run(rules.OP_DEAL)

    def prefer(self, seat, codes):
        self.sp[seat, :] = -1.0
        for k, c in enumerate(codes):
            self.sp[seat, k] = c

    def run(self, op, a=0, b=0, c=0, d=0):
        return rules.step(self.state, self.cfg, self.seat_slot, self.fns, self.sp, self.streams, self.legal, self.log,
                          op, a, b, c, d)

    # --- building a state by hand ---
    def give(self, actor, card):
        """Move map card ``card`` from the draw pile into ``actor``'s hand."""
        s = self.state
        n = s[S_MDRAW_N]
        pile = list(s[S_MDRAW:S_MDRAW + n])
        j = pile.index(card)
        pile[j], pile[-1] = pile[-1], pile[j]
        s[S_MDRAW:S_MDRAW + n] = pile
        s[S_MDRAW_N] = n - 1
        rules.move_map(s, card, M_HAND + actor)
        s[P0 + actor * PB + B_HAND_N] += 1

    def column(self, landing, cards, owner=None):
        """Lay ``cards`` at ``landing`` as if played earlier (no effects)."""
        for m in cards:
            self.give(0, m)
            rules.put_card(self.state, self.cfg, landing, m, False)

    def compass(self, landing, actor):
        rules.push_compass(self.state, landing, actor)
        self.state[P0 + actor * PB + B_SUPPLY] -= 1

    def stack(self, landing):
        base = L0 + landing * LB
        return [int(x) for x in self.state[base + 6:base + 6 + self.state[base + 5]]]

    def cards_at(self, landing):
        base = L0 + landing * LB
        return [int(x) for x in self.state[base + 12:base + 12 + self.state[base]]]

    def treasure_top(self, ids):
        """Put treasures ``ids`` on top of the treasure deck, ``ids[0]`` revealed first."""
        s = self.state
        n = s[S_TDECK_N]
        pile = [int(x) for x in s[S_TDECK:S_TDECK + n] if x not in ids]
        pile = pile + list(reversed(ids))
        for t in ids:
            s[S_TLOC + t] = T_DECK
        s[S_TDECK:S_TDECK + len(pile)] = pile
        s[S_TDECK_N] = len(pile)

    def curses(self, actor):
        return int(self.state[P0 + actor * PB + B_CURSES])

    def set_curses(self, actor, k):
        self.state[P0 + actor * PB + B_CURSES] = k

    def hand(self, actor):
        return [m for m in range(88) if self.state[S_MLOC + m] == M_HAND + actor]

    def at(self, offset, actor=None):
        if actor is None:
            return int(self.state[offset])
        return int(self.state[P0 + actor * PB + offset])

    def events(self):
        n = int(self.state[S_NEV])
        return self.log[:n]

    def check(self):
        return int(rules.check_invariants(self.state, self.cfg))


def card(colour, value, copy=0):
    """Map card id: value 1..10, or 0 for a wild; copy 0 is the one carrying the symbol
    (docs/rules/loot_island.md section 5.2)."""
    slot = 20 + copy if value == 0 else 2 * (value - 1) + copy
    return colour * PER_COLOUR + slot


def play_code(landing, colour, allen=False):
    return (200 if allen else 100) + landing * 4 + colour


def islet_code(islet, colour, allen=False):
    return (400 if allen else 300) + islet * 4 + colour


def recompute(row, allen_crosses, alive_crosses, values=None):
    """A game's final score from its own rows only: kept bitmasks, healer, curses, crosses, start tile,
    under the rule values ``values`` (the defaults unless given)."""
    v = values or PARAMS.defaults()
    ids = [t for t in range(25) if row.kept_1_25 >> t & 1] + [25 + t for t in range(25) if row.kept_26_50 >> t & 1] + \
          [50 + t for t in range(24) if row.kept_51_74 >> t & 1]
    parts = np.zeros(6, dtype=np.int64)
    cfg = PARAMS.pack(v)
    total = int(rules.treasure_value(cfg, np.array(ids + [0], dtype=np.int64), len(ids), parts))
    crosses = list(alive_crosses) + ([allen_crosses] if allen_crosses >= 0 else [])
    mine = row.crosses
    prize = 0
    if mine > 0:
        better = sum(c > mine for c in crosses)
        tied = sum(c == mine for c in crosses)
        prize = sum(v["crown_prizes"][k] for k in range(better, better + tied)) // tied
    fee = 0
    if row.healer:
        h = row.healer - 1
        fee = v["healer_per_cube"][h] * row.curses + v["healer_fixed"][h]
    return total + prize + v["start_tile_bonus"] * row.start_tile - fee
