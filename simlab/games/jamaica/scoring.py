"""The end of the game (rules 4): scores, the tie-break and the result rows.
"""
from numba import njit

from simlab.core.play import COL_SCORE, COL_TIEBREAK, FIRST_GAME_COLUMN, lean

from .components import N_TREASURES, O, R_CANNON, R_FOOD, R_GOLD
from .state import (B_ATTACKS, B_COMBATS, B_DONE, B_FALL_FOOD, B_FALL_GOLD, B_FINISH_ROUND, B_LAIRS, B_LAP, B_POS,
                    B_SPENT, B_STEALS, B_WINS, GHOST, S_BANK_SHORT, S_END, S_ENDER, S_GHOST, S_PLAYERS, S_ROUND,
                    S_TOWNER)
from .common import amount, base_of, race_position


# Result columns from FIRST_GAME_COLUMN on (declared with meanings in __init__).
(C_POSITION, C_LAP, C_SPACE_POINTS, C_GOLD, C_TREASURE_POINTS, C_TREASURE_CARDS, C_FINISHED, C_COMBATS, C_WINS,
 C_ATTACKS, C_FALL_FOOD, C_FALL_GOLD, C_CANNONS_SPENT, C_LAIRS, C_STEALS, C_FOOD, C_CANNONS, C_ROUNDS,
 C_END_REASON, C_ENDER, C_BANK_SHORT, C_GHOST_POSITION, C_GHOST_LAP, C_GHOST_GOLD, C_GHOST_COMBATS, C_GHOST_WINS,
 C_GHOST_TREASURES) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 27)
N_COLUMNS = 27


@lean
def space_points(state, cfg, ship):
    """The white number under the ship (rules 4(1)); Port Royal scores only for a finished ship."""
    b = base_of(ship)
    if state[b + B_DONE]:
        return cfg[O.space_score + 0]
    if state[b + B_LAP] < 0:
        return cfg[O.behind_score]
    pos = state[b + B_POS]
    if pos == 0:
        return cfg[O.start_score]
    return cfg[O.space_score + pos]


@lean
def treasure_points(state, cfg, ship):
    t = 0
    for k in range(N_TREASURES):
        if state[S_TOWNER + k] == ship:
            t += cfg[O.treasure_values + k]
    return t


@lean
def treasure_count(state, ship):
    t = 0
    for k in range(N_TREASURES):
        t += state[S_TOWNER + k] == ship
    return t


@lean
def score(state, cfg, ship):
    """Final score = space + doubloons in holds + treasure cards (rules 4)."""
    return space_points(state, cfg, ship) + amount(state, ship, R_GOLD) + treasure_points(state, cfg, ship)


@njit(cache=True)
def write_rows(state, cfg, rows):
    n_players = state[S_PLAYERS]
    g = base_of(GHOST)
    for p in range(n_players):
        b = base_of(p)
        r = rows[p]
        r[COL_SCORE] = score(state, cfg, p)
        r[COL_TIEBREAK] = race_position(state, cfg, p)  # rules 4: the ship further ahead wins a tie
        r[C_POSITION] = state[b + B_POS]
        r[C_LAP] = state[b + B_LAP]
        r[C_SPACE_POINTS] = space_points(state, cfg, p)
        r[C_GOLD] = amount(state, p, R_GOLD)
        r[C_TREASURE_POINTS] = treasure_points(state, cfg, p)
        r[C_TREASURE_CARDS] = treasure_count(state, p)
        r[C_FINISHED] = state[b + B_FINISH_ROUND]
        r[C_COMBATS] = state[b + B_COMBATS]
        r[C_WINS] = state[b + B_WINS]
        r[C_ATTACKS] = state[b + B_ATTACKS]
        r[C_FALL_FOOD] = state[b + B_FALL_FOOD]
        r[C_FALL_GOLD] = state[b + B_FALL_GOLD]
        r[C_CANNONS_SPENT] = state[b + B_SPENT]
        r[C_LAIRS] = state[b + B_LAIRS]
        r[C_STEALS] = state[b + B_STEALS]
        r[C_FOOD] = amount(state, p, R_FOOD)
        r[C_CANNONS] = amount(state, p, R_CANNON)
        r[C_ROUNDS] = state[S_ROUND]
        r[C_END_REASON] = state[S_END]
        r[C_ENDER] = state[S_ENDER]
        r[C_BANK_SHORT] = state[S_BANK_SHORT]
        ghost = state[S_GHOST] == 1
        r[C_GHOST_POSITION] = state[g + B_POS] if ghost else -1
        r[C_GHOST_LAP] = state[g + B_LAP]
        r[C_GHOST_GOLD] = amount(state, GHOST, R_GOLD) if ghost else 0
        r[C_GHOST_COMBATS] = state[g + B_COMBATS]
        r[C_GHOST_WINS] = state[g + B_WINS]
        r[C_GHOST_TREASURES] = treasure_count(state, GHOST) if ghost else 0
