"""What every phase of Jamaica's rules reads: the trace's event kinds, small readers of a
ship's state, and who decides for a ship.
"""
from numba import njit

from simlab.core.play import lean

from .components import MAX_HOLDS, O, PORT, R_FOOD, R_GOLD, R_NONE, RACE_LAP, SEA, SIXTH, T_HOLD6
from .state import B_DONE, B_HN, B_HTYPE, B_LAP, B_POS, GHOST, SB, SH0, S_CAPTAIN, S_GHOST, S_PLAYERS, S_TOWNER


# Event kinds of the trace log.
(EV_SETUP, EV_ROUND, EV_REVEAL, EV_LOAD, EV_IGNORED, EV_MOVE, EV_PAY, EV_SHORT, EV_RETREAT, EV_LAIR,
 EV_COMBAT, EV_ROLL, EV_SABRE, EV_RESULT, EV_LOOT, EV_FINISH, EV_END, EV_SCORE, EV_GHOST_DIR) = range(19)


@njit(cache=True, inline="always")
def base_of(ship):
    return SH0 + ship * SB


@lean
def hold_usable(state, cfg, ship, slot):
    """Regular holds 0..holds-1, and slot 5 while the ship owns the 6th Hold card."""
    if slot == SIXTH:
        return state[S_TOWNER + T_HOLD6] == ship
    return slot < cfg[O.holds]


@lean
def amount(state, ship, res):
    """Tokens of ``res`` in all of the ship's holds."""
    b = base_of(ship)
    t = 0
    for h in range(MAX_HOLDS):
        if state[b + B_HTYPE + h] == res:
            t += state[b + B_HN + h]
    return t


@lean
def space_cost(cfg, space):
    """(resource, amount) a ship pays for ending a move on ``space``: food at sea, gold in port."""
    kind = cfg[O.space_type + space]
    if kind == SEA:
        return R_FOOD, cfg[O.sea_food + space]
    if kind == PORT:
        return R_GOLD, cfg[O.port_gold + space]
    return R_NONE, 0


@lean
def payable(state, cfg, ship, space):
    """Can the ship pay the full cost of ``space`` (a lair or Port Royal always qualifies)?"""
    res, cost = space_cost(cfg, space)
    if res == R_NONE:
        return True
    return amount(state, ship, res) >= cost


@lean
def race_position(state, cfg, ship):
    """Where a ship is along the race in the track's physical order (``track_order``): laps first
    (behind the start line negative, the ghost sailing on past Port Royal one lap up), a finished
    ship at the end of its lap. Equal values: level (the same place)."""
    b = base_of(ship)
    lap = state[b + B_LAP]
    if state[b + B_DONE]:
        return (lap + 1) * RACE_LAP
    return lap * RACE_LAP + cfg[O.track_order + state[b + B_POS]]


@lean
def is_active(state, ship):
    if ship == GHOST:
        return state[S_GHOST] == 1
    return ship < state[S_PLAYERS]


@lean
def decider_for(state, ship, role_other_than):
    """Seat that decides for ``ship``: itself, or for the ghost the captain (movement, targets)
    or, in a battle against player ``role_other_than``, the other player (rules 5(4), 5(7))."""
    if ship != GHOST:
        return ship
    if role_other_than >= 0:
        return 1 - role_other_than
    return state[S_CAPTAIN]
