"""Hand-built Karuba positions for rule tests: islands set up and tiles laid directly."""
import numpy as np

from simlab.core.rng import N_STREAMS, root_key, seed_streams
from simlab.games.karuba import rules
from simlab.games.karuba.components import PARAMS
from simlab.games.karuba.state import MAX_CHOICES, P0, PB, S_ROUND, S_TILE, STATE_SIZE

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
