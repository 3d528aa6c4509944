"""Helpers for the Jamaica tests: hand-built states, a scripted strategy, step-function contexts."""
import numpy as np
from numba import njit

from simlab.core.play import EVENT_WIDTH, legal_index
from simlab.core.rng import N_STREAMS, STRATEGY_STREAM, randint, root_key, seed_streams
from simlab.core.strategy import DECIDE_SIGNATURE
from simlab.games.jamaica import invariants, program, setup
from simlab.games.jamaica.components import MAX_HOLDS, PARAMS, R_NONE
from simlab.games.jamaica.state import (B_HAND_N, B_HN, B_HTYPE, B_LAP, B_POS, PC_GHOST, PC_HALT, PC_PICK, PC_ROUND,
                                        PC_ROUND_END, PC_TURN, RNG_COMBAT, SB, SH0, STATE_SIZE, S_BANK, S_DEC,
                                        S_PLAYERS, S_SSCRATCH, S_TDECK, S_TDECK_N, S_TOWNER, X_BREAK, X_B_ATT,
                                        X_B_DFD, X_B_SFREE, X_CHOICES, X_EVENTS, X_GM, X_K, X_NCHOICES, X_SW_FACE,
                                        X_SW_FREE, X_TCOUNT, X_TURN)
from strategies.jamaica import fighter

ASKED = 12      # state[S_SSCRATCH + ASKED + kind] = number of options the last such decision offered
SAME_STATE = 0  # state[S_SSCRATCH + SAME_STATE] = smallest hand any player held while someone picked a card
MODE = 7        # params[MODE] of a seat: SCRIPTED, RANDOM, or FIGHTER (the built-in heuristic, params[0:2])
SCRIPTED, RANDOM, FIGHTER = 0, 1, 2


@njit(DECIDE_SIGNATURE)
def scripted(state, cfg, seat, legal, n_legal, params, rng):
    """Pick the code written in state[S_SSCRATCH + kind] (stored + 1; 0 = take the first option);
    a seat whose params[MODE] says so plays at random or as the built-in fighter instead."""
    if params[MODE] == RANDOM:
        return randint(rng, n_legal)
    if params[MODE] == FIGHTER:
        return fighter(state, cfg, seat, legal, n_legal, params, rng)
    kind = state[S_DEC]
    state[S_SSCRATCH + ASKED + kind] = n_legal
    if kind == 2:  # DEC_CARD: record the smallest hand any player holds right now
        low = 99
        for p in range(state[S_PLAYERS]):
            low = min(low, state[SH0 + p * SB + B_HAND_N])
        state[S_SSCRATCH + SAME_STATE] = min(state[S_SSCRATCH + SAME_STATE], low)
    want = state[S_SSCRATCH + kind]
    if want > 0:
        for i in range(n_legal):
            if legal[i] == want - 1:
                return i
    return 0


@njit(DECIDE_SIGNATURE)
def out_of_range(state, cfg, seat, legal, n_legal, params, rng):
    return n_legal


class Table:
    """A game state plus everything the rules need, built by hand; its methods run one procedure of
    the rules (the step machine from that procedure's label until it returns), asking the table's
    strategies, handed the full state, at each decision."""

    def __init__(self, players=4, seed=1, decide=scripted, **overrides):
        self.values = PARAMS.resolve(overrides)
        self.cfg = PARAMS.pack(self.values)
        self.state = np.zeros(STATE_SIZE, dtype=np.int32)
        self.streams = np.zeros((N_STREAMS, 4), dtype=np.uint64)
        seed_streams(root_key(seed), 0, self.streams)
        setup.setup(self.state, self.cfg, players, self.streams)
        self.state[S_SSCRATCH + SAME_STATE] = 99
        self.seat_slot = np.arange(6, dtype=np.int64)
        self.fns = (decide,) * 6
        self.seat_params = np.zeros((6, 8), dtype=np.float64)
        self.legal = np.zeros(64, dtype=np.int32)
        self.log = np.zeros((4000, EVENT_WIDTH), dtype=np.int32)

    @property
    def n_events(self):
        return int(self.state[X_EVENTS])

    # -- running the rules
    def drive(self, stop=PC_HALT):
        """Run from the label the program stands at until it reaches ``stop`` (or the game ends)."""
        st = self.state
        st[X_BREAK] = stop
        program.run(st, self.cfg, -1, self.streams, self.log)
        while st[X_TURN] >= 0:
            seat = int(st[X_TURN])
            n = int(st[X_NCHOICES])
            self.legal[:n] = st[X_CHOICES:X_CHOICES + n]
            slot = self.seat_slot[seat]
            i = self.fns[slot](st, self.cfg, seat, self.legal, n, self.seat_params[slot],
                               self.streams[STRATEGY_STREAM + slot])
            program.run(st, self.cfg, self.legal[legal_index(i, n, seat, slot)], self.streams, self.log)
        st[X_BREAK] = 0

    def play_round(self):
        program.goto(self.state, PC_ROUND)
        self.drive(PC_ROUND)

    def roll_and_place_dice(self):
        program.goto(self.state, PC_ROUND)
        self.drive(PC_PICK)

    def pick_cards(self):
        self.state[X_K] = 0
        program.goto(self.state, PC_PICK)
        self.drive(PC_TURN)

    def ghost_turn(self):
        self.state[X_GM] = 0
        program.goto(self.state, PC_GHOST)
        self.drive(PC_ROUND_END)

    def move(self, ship, steps, backward=False):
        program.call_move(self.state, ship, steps, backward, PC_HALT)
        self.drive()

    def load(self, ship, res, count, from_bank=True, decider=None):
        program.call_load(self.state, ship, res, count, 1 if from_bank else 0, ship if decider is None else decider,
                       PC_HALT)
        self.drive()

    def pay(self, ship, res, cost):
        program.call_pay(self.state, ship, res, cost, PC_HALT)
        self.drive()

    def battle(self, att, space):
        program.call_battle(self.state, att, space, PC_HALT)
        self.drive()

    def sabre_window(self, rolled, face, base, att, dfd, sabre_free):
        """(face after the window, Sabre still unused) of a roll in a battle between att and dfd."""
        st = self.state
        st[X_B_ATT], st[X_B_DFD], st[X_B_SFREE] = att, dfd, 1 if sabre_free else 0
        program.call_sabre(st, rolled, face, base, PC_HALT)
        self.drive()
        return int(st[X_SW_FACE]), bool(st[X_SW_FREE])

    def want(self, kind, code):
        self.state[S_SSCRATCH + kind] = code + 1

    def asked(self, kind):
        return int(self.state[S_SSCRATCH + ASKED + kind])

    def b(self, ship):
        return SH0 + ship * SB

    def set_holds(self, ship, holds):
        """holds: list of (resource, count) for slots 0.. (the rest emptied)."""
        b = self.b(ship)
        for h in range(MAX_HOLDS):
            r, c = holds[h] if h < len(holds) else (R_NONE, 0)
            old_r, old_c = self.state[b + B_HTYPE + h], self.state[b + B_HN + h]
            if old_c:
                self.state[S_BANK + old_r - 1] += old_c
            self.state[b + B_HTYPE + h] = r if c else R_NONE
            self.state[b + B_HN + h] = c
            if c:
                self.state[S_BANK + r - 1] -= c

    def holds(self, ship):
        b = self.b(ship)
        return [(int(self.state[b + B_HTYPE + h]), int(self.state[b + B_HN + h])) for h in range(MAX_HOLDS)]

    def put(self, ship, space, lap=0):
        self.state[self.b(ship) + B_POS] = space
        self.state[self.b(ship) + B_LAP] = lap

    def pos(self, ship):
        return int(self.state[self.b(ship) + B_POS])

    def events(self, kind=None):
        evs = self.log[:self.n_events]
        return [tuple(int(x) for x in e) for e in evs if kind is None or e[0] == kind]

    def give(self, card, ship):
        """Hand a treasure card to a ship, taking it out of the draw pile if it lies there."""
        st = self.state
        n = int(st[S_TDECK_N])
        deck = [int(st[S_TDECK + i]) for i in range(n)]
        if card in deck:
            deck.remove(card)
            for i, k in enumerate(deck):
                st[S_TDECK + i] = k
            st[S_TDECK_N] = n - 1
        if st[S_TOWNER + card] >= 0:
            st[X_TCOUNT + st[S_TOWNER + card]] -= 1
        st[S_TOWNER + card] = ship
        st[X_TCOUNT + ship] += 1

    def check(self):
        return int(invariants.check_state(self.state, self.cfg))


def seed_where(first_star, second_star):
    """A seed whose first battle between players rolls / does not roll a star for the attacker and
    for the defender as asked (faces 2,4,6,8,10,star)."""
    for seed in range(1, 500):
        t = Table(2, seed=seed, ghost_ship=False)
        probe = t.streams[RNG_COMBAT].copy()
        a, b = randint(probe, 6) == 5, randint(probe, 6) == 5
        if a == first_star and b == second_star:
            return seed
    raise AssertionError("no seed found")
