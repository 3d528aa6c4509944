"""Hand-built Karuba positions for rule tests: islands set up and tiles laid directly."""
import numpy as np

from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.games.karuba import rules
from simlab.games.karuba.components import PARAMS
from simlab.games.karuba.state import (AT_BEACH, AT_TEMPLE, B_CRYSTAL, B_DISCARDED, B_EXPL, B_FATE, B_GOLD, B_HOME,
                                       B_OCC, B_PLACED, B_TILE, B_TREASURE, HIDDEN, MAX_CHOICES, P0, PB, S_PLAYERS,
                                       S_ROUND, S_SEQ, S_TAKEN, S_TILE, S_TURN, STATE_SIZE, T_ORDER)

BROWN, BLUE, PURPLE, YELLOW = range(4)
# The seed's example setup: blue 20/100, yellow 90/10, purple 110/60, brown 60/70.
SEED_BEACHES = (60, 20, 110, 90)
SEED_TEMPLES = (70, 100, 60, 10)


def cell(row, col):
    """Cell index from the 1-based row/column the trace prints (r1c1 = north-west)."""
    return (row - 1) * 6 + (col - 1)


def streams(deal=0, seed=1):
    """A game's block of random streams (chance purposes and strategy slots), seeded as the kernel
    seeds deal ``deal`` of a run with root seed ``seed``."""
    block = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(root_key(seed), deal, block)
    return block


def make_cfg(**overrides):
    values = PARAMS.resolve({"beaches": SEED_BEACHES, "temples": SEED_TEMPLES, **overrides})
    return PARAMS.pack(values)


def new_game(n_players=4, **overrides):
    cfg = make_cfg(**overrides)
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    rules.setup(state, cfg, n_players, streams())
    return state, cfg


def lay(state, cfg, seat, tile, row, col):
    """Place ``tile`` on the seat's island as if it had been revealed and placed."""
    state[S_TILE] = tile
    rules.apply_choice(state, seat, cell(row, col), cfg)


def legal(state, cfg, seat, tile):
    state[S_TILE] = tile
    buf = np.zeros(MAX_CHOICES, dtype=np.int32)
    n = rules.legal_choices(state, seat, cfg, buf)
    return set(int(c) for c in buf[:n])


def move_code(colour, dest):
    return 32 + colour * 32 + dest


def block(seat):
    return P0 + seat * PB


def next_round(state):
    state[S_ROUND] += 1


def check_invariants(state, cfg):
    """Karuba's invariants at any step: tiles conserved (each revealed tile placed or discarded once
    per island, the one just revealed still pending while a round's choices are being made; the
    hidden order a permutation that agrees with the revealed tiles), explorers on tiles, treasure
    conserved, tokens one per arrival."""
    n = state[S_PLAYERS]
    rnd = state[S_ROUND]
    assert sorted(state[T_ORDER:T_ORDER + 36]) == list(range(1, 37)), "the tile order is a permutation"
    shown = rnd
    assert (state[S_SEQ:S_SEQ + shown] == state[T_ORDER:T_ORDER + shown]).all(), "shown tiles as in the order"
    assert (state[S_SEQ + shown:S_SEQ + 36] == HIDDEN).all(), "face-down tiles are not shown"
    used = set(int(t) for t in state[S_SEQ:S_SEQ + rnd])
    if state[S_TURN] >= 0:   # the current tile: chosen for, not yet carried out
        assert state[S_TILE] == state[S_SEQ + rnd - 1]
        used.discard(int(state[S_TILE]))
    for p in range(n):
        b = P0 + p * PB
        fate = state[b + B_FATE:b + B_FATE + 36]
        assert {t + 1 for t in np.flatnonzero(fate)} == used, "each revealed tile used exactly once"
        board = state[b + B_TILE:b + B_TILE + 30]
        assert sorted(board[board > 0]) == sorted(t + 1 for t in np.flatnonzero(fate == 1))
        assert state[b + B_PLACED] == (fate == 1).sum() and state[b + B_DISCARDED] == (fate == 2).sum()
        cells = [state[b + B_EXPL + c] for c in range(4) if state[b + B_EXPL + c] < AT_BEACH]
        assert len(cells) == len(set(cells)), "one explorer per tile"
        assert all(board[c] > 0 for c in cells), "explorers stand on tiles"
        assert state[b + B_OCC] == sum(1 << c for c in cells)
        for c in range(4):
            assert (state[b + B_EXPL + c] == AT_TEMPLE) == (state[b + B_HOME + c] > 0)
        printed = PARAMS.defaults()["tile_treasure"]
        for kind, collected in ((1, state[b + B_CRYSTAL:b + B_CRYSTAL + 4]), (2, state[b + B_GOLD:b + B_GOLD + 4])):
            placed = sum(1 for t in np.flatnonzero(fate == 1) if printed[t] == kind)
            lying = (state[b + B_TREASURE:b + B_TREASURE + 30] == kind).sum()
            assert placed == collected.sum() + lying, "treasure conserved between tiles and explorers"
        assert (state[b:b + PB] >= 0).all(), "no counter ever negative"
    for c in range(4):
        home = sum(state[P0 + p * PB + B_EXPL + c] == AT_TEMPLE for p in range(n))
        assert state[S_TAKEN + c] == home <= n, "one token per arrival, never more than the stack"
