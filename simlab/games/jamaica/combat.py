"""Sea battles (rules 3(4), 5(7)): cannons, the combat die and Saran's Sabre, then the loot.

A battle's course (target, cannons, rolls, Sabre windows, loot) waits for choices at several
points, so it is run by the step machine (``step.py``); here are its pieces.
"""
from simlab.core.play import emit, lean
from simlab.core.rng import randint

from .components import MAX_HOLDS, N_TREASURES, O, R_GOLD, R_NONE, T_BETH
from .state import (B_DONE, B_HN, B_HTYPE, B_POS, B_STEALS, GHOST, LOOT_BLIND, LOOT_CARD, LOOT_GIVE, LOOT_HOLD,
                    LOOT_NONE, N_SHIPS, RNG_BLIND, RNG_GHOST_BATTLE, S_BANK, S_TOWNER, X_EVENTS, X_LD_BANK, X_LD_COUNT,
                    X_LD_RES, X_LD_SHIP)
from .common import EV_LOOT, base_of, is_active
from .treasure import face_down, transfer_card


@lean
def roll_face(cfg, rng):
    return cfg[O.combat_faces + randint(rng, 6)]


@lean
def battle_row(ship, other, row):
    """The stream a battle between ``ship`` and ``other`` draws its ``row`` chance from: a battle
    the ghost ship fights draws all its chance from the ghost's own row, so playing with or
    without it leaves the dice, re-rolls and blind steals of the players' battles as they were."""
    return RNG_GHOST_BATTLE if ship == GHOST or other == GHOST else row


@lean
def opponents(state, att, space, legal):
    """Ships the attacker may fight on ``space`` (3(4)): every other active ship there still racing."""
    n = 0
    for q in range(N_SHIPS):
        if q != att and is_active(state, q):
            bq = base_of(q)
            if state[bq + B_POS] == space and state[bq + B_DONE] == 0:
                legal[n] = q
                n += 1
    return n


@lean
def loot_choices(state, cfg, winner, loser, legal):
    """What the winner may take (3(4), 5(7)): a hold's contents, a treasure card (face-down ones
    blind when ``steal_blind``; never the ghost's Lady Beth), or give a cursed card (not the ghost)."""
    n = 0
    if cfg[O.may_decline_loot]:
        legal[n] = LOOT_NONE
        n += 1
    bl = base_of(loser)
    for h in range(MAX_HOLDS):
        if state[bl + B_HN + h] > 0:
            legal[n] = LOOT_HOLD + h
            n += 1
    blind = False
    for k in range(N_TREASURES):
        if state[S_TOWNER + k] != loser or (loser == GHOST and k == T_BETH):
            continue
        if face_down(state, loser, k) and cfg[O.steal_blind]:
            blind = True
        else:
            legal[n] = LOOT_CARD + k
            n += 1
    if blind:
        legal[n] = LOOT_BLIND
        n += 1
    if winner != GHOST:
        for k in range(N_TREASURES):
            if state[S_TOWNER + k] == winner and cfg[O.treasure_values + k] < 0:
                legal[n] = LOOT_GIVE + k
                n += 1
    return n


@lean
def take_loot(state, cfg, winner, loser, code, streams, legal, log):
    """The winner's loot ``code`` (see DEC_LOOT). Returns 1 when a hold's contents are to be loaded
    into the winner's holds (the load is then set in the X_LD registers), else 0."""
    if code == LOOT_NONE:
        state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOOT, winner, loser, LOOT_NONE)
        return 0
    state[base_of(winner) + B_STEALS] += 1
    if code >= LOOT_GIVE:
        card = code - LOOT_GIVE
        transfer_card(state, card, winner, loser)
        state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOOT, winner, loser, LOOT_GIVE, card)
        return 0
    if code >= LOOT_BLIND:
        n = 0
        for k in range(N_TREASURES):
            if state[S_TOWNER + k] == loser and face_down(state, loser, k) and not (loser == GHOST and k == T_BETH):
                legal[n] = k
                n += 1
        card = legal[randint(streams[battle_row(winner, loser, RNG_BLIND)], n)]
        transfer_card(state, card, loser, winner)
        state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOOT, winner, loser, LOOT_BLIND, card)
        return 0
    if code >= LOOT_CARD:
        card = code - LOOT_CARD
        transfer_card(state, card, loser, winner)
        state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOOT, winner, loser, LOOT_CARD, card)
        return 0
    h = code - LOOT_HOLD
    bl = base_of(loser)
    res = state[bl + B_HTYPE + h]
    cnt = state[bl + B_HN + h]
    state[bl + B_HTYPE + h] = R_NONE
    state[bl + B_HN + h] = 0
    state[X_EVENTS] = emit(log, state[X_EVENTS], EV_LOOT, winner, loser, LOOT_HOLD, res, cnt)
    if winner == GHOST and res != R_GOLD:  # the ghost throws food and cannons back (5(7))
        state[S_BANK + res - 1] += cnt
        return 0
    state[X_LD_SHIP] = winner
    state[X_LD_RES] = res
    state[X_LD_COUNT] = cnt
    state[X_LD_BANK] = 0
    return 1
