"""Sea battles (rules 3(4), 5(7)): cannons, the combat die and Saran's Sabre, then the loot.
"""
from numba import njit

from simlab.core.kernel import emit
from simlab.core.rng import randint

from .components import MAX_HOLDS, N_TREASURES, O, R_CANNON, R_GOLD, R_NONE, STAR, T_BETH, T_SABRE
from .state import (B_ATTACKS, B_COMBATS, B_DONE, B_HN, B_HTYPE, B_POS, B_SPENT, B_STEALS, B_WINS, DEC_CANNONS,
                    DEC_LOOT, DEC_SABRE, DEC_TARGET, GHOST, LOOT_BLIND, LOOT_CARD, LOOT_GIVE, LOOT_HOLD, LOOT_NONE,
                    MAX_CHOICES, N_SHIPS, RNG_BLIND, RNG_COMBAT, RNG_GHOST_BATTLE, RNG_SABRE, S_BANK, S_TOWNER)
from .common import EV_COMBAT, EV_LOOT, EV_RESULT, EV_ROLL, EV_SABRE, amount, ask, base_of, decider_for, is_active
from .treasure import face_down, strength_bonus, transfer_card
from .holds import load, pay


@njit(cache=True)
def roll_face(cfg, rng):
    return cfg[O.combat_faces + randint(rng, 6)]


@njit(cache=True)
def battle_row(ship, other, row):
    """The stream a battle between ``ship`` and ``other`` draws its ``row`` chance from: a battle
    the ghost ship fights draws all its chance from the ghost's own row, so playing with or
    without it leaves the dice, re-rolls and blind steals of the players' battles as they were."""
    return RNG_GHOST_BATTLE if ship == GHOST or other == GHOST else row


@njit(cache=True)
def sabre_window(state, cfg, rolled, face, base, att, dfd, sabre_free, seat_slot, fns, seat_params, streams, legal, log,
                 ev):
    """Right after a roll, the sabre's owner (if fighting) may have that die re-rolled ([S3]:
    once per battle, right after the roll it changes).

    ``base`` is the rolled ship's strength without the die (cannons, Lady Beth), for the trace.
    Returns (face, sabre still unused)."""
    if not sabre_free:
        return face, False
    holder = state[S_TOWNER + T_SABRE]
    if holder != att and holder != dfd:
        return face, False
    legal[0] = 0
    legal[1] = 1
    use = legal[ask(state, cfg, holder, DEC_SABRE, holder, rolled, face, 0, legal, 2, seat_slot, fns,
                    seat_params, streams)]
    if use == 0:
        return face, True
    new = roll_face(cfg, streams[battle_row(att, dfd, RNG_SABRE)])
    ev[0] = emit(log, ev[0], EV_SABRE, holder, rolled, face, new, base + new)
    return new, False


@njit(cache=True)
def commit_cannons(state, cfg, ship, opp, defending, so_far, seat_slot, fns, seat_params, streams, legal):
    """The fighter takes any number of its cannons from its holds (3(4)); the ghost has none."""
    if ship == GHOST:
        return 0
    have = amount(state, ship, R_CANNON)
    if have == 0:
        return 0
    n = min(have + 1, MAX_CHOICES)
    for i in range(n):
        legal[i] = i
    c = legal[ask(state, cfg, ship, DEC_CANNONS, ship, opp, defending, so_far, legal, n, seat_slot, fns,
                  seat_params, streams)]
    pay(state, cfg, ship, R_CANNON, c, ship, seat_slot, fns, seat_params, streams, legal)
    state[base_of(ship) + B_SPENT] += c
    return c


@njit(cache=True)
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


@njit(cache=True)
def take_loot(state, cfg, winner, loser, code, decider, seat_slot, fns, seat_params, streams, legal, log, ev):
    if code == LOOT_NONE:
        ev[0] = emit(log, ev[0], EV_LOOT, winner, loser, LOOT_NONE)
        return
    state[base_of(winner) + B_STEALS] += 1
    if code >= LOOT_GIVE:
        card = code - LOOT_GIVE
        transfer_card(state, card, winner, loser)
        ev[0] = emit(log, ev[0], EV_LOOT, winner, loser, LOOT_GIVE, card)
        return
    if code >= LOOT_BLIND:
        n = 0
        for k in range(N_TREASURES):
            if state[S_TOWNER + k] == loser and face_down(state, loser, k) and not (loser == GHOST and k == T_BETH):
                legal[n] = k
                n += 1
        card = legal[randint(streams[battle_row(winner, loser, RNG_BLIND)], n)]
        transfer_card(state, card, loser, winner)
        ev[0] = emit(log, ev[0], EV_LOOT, winner, loser, LOOT_BLIND, card)
        return
    if code >= LOOT_CARD:
        card = code - LOOT_CARD
        transfer_card(state, card, loser, winner)
        ev[0] = emit(log, ev[0], EV_LOOT, winner, loser, LOOT_CARD, card)
        return
    h = code - LOOT_HOLD
    bl = base_of(loser)
    res = state[bl + B_HTYPE + h]
    cnt = state[bl + B_HN + h]
    state[bl + B_HTYPE + h] = R_NONE
    state[bl + B_HN + h] = 0
    ev[0] = emit(log, ev[0], EV_LOOT, winner, loser, LOOT_HOLD, res, cnt)
    if winner == GHOST and res != R_GOLD:  # the ghost throws food and cannons back (5(7))
        state[S_BANK + res - 1] += cnt
        return
    load(state, cfg, winner, res, cnt, False, decider, seat_slot, fns, seat_params, streams, legal, log, ev)


@njit(cache=True)
def battle(state, cfg, att, space, seat_slot, fns, seat_params, streams, legal, log, ev):
    """Sea battle on ``space`` (3(4)): the attacker picks an opponent there, commits cannons and
    rolls, then the defender; a star wins outright; higher strength wins; a tie does nothing.
    Every battle spends two faces of its dice stream, the defender's even when an attacker's star
    leaves it unrolled, so the k-th battle rolls the same dice whatever happened in earlier ones."""
    n = 0
    for q in range(N_SHIPS):
        if q != att and is_active(state, q):
            bq = base_of(q)
            if state[bq + B_POS] == space and state[bq + B_DONE] == 0:
                legal[n] = q
                n += 1
    if n == 0:
        return
    who = decider_for(state, att, -1)
    dfd = legal[ask(state, cfg, who, DEC_TARGET, att, space, 0, 0, legal, n, seat_slot, fns, seat_params, streams)]
    ba = base_of(att)
    bd = base_of(dfd)
    state[ba + B_COMBATS] += 1
    state[bd + B_COMBATS] += 1
    state[ba + B_ATTACKS] += 1
    ev[0] = emit(log, ev[0], EV_COMBAT, att, dfd, space)
    sabre_free = state[S_TOWNER + T_SABRE] != GHOST
    dice = streams[battle_row(att, dfd, RNG_COMBAT)]
    ac = commit_cannons(state, cfg, att, dfd, 0, 0, seat_slot, fns, seat_params, streams, legal)
    a_base = ac + strength_bonus(state, cfg, att)
    af = roll_face(cfg, dice)
    ev[0] = emit(log, ev[0], EV_ROLL, att, ac, af, a_base + af)
    af, sabre_free = sabre_window(state, cfg, att, af, a_base, att, dfd, sabre_free, seat_slot, fns, seat_params,
                                  streams, legal, log, ev)
    # the outcome is only known once the Sabre's window after each roll has closed
    winner = -1
    star = af == STAR
    a_str = a_base + af
    d_str = 0
    if star:
        winner = att
        randint(dice, 6)  # the defender's face, spent unrolled
    else:
        dc = commit_cannons(state, cfg, dfd, att, 1, a_str, seat_slot, fns, seat_params, streams, legal)
        d_base = dc + strength_bonus(state, cfg, dfd)
        df = roll_face(cfg, dice)
        ev[0] = emit(log, ev[0], EV_ROLL, dfd, dc, df, d_base + df)
        df, sabre_free = sabre_window(state, cfg, dfd, df, d_base, att, dfd, sabre_free, seat_slot, fns,
                                      seat_params, streams, legal, log, ev)
        star = df == STAR
        d_str = d_base + df
        if star:
            winner = dfd
        elif a_str > d_str:
            winner = att
        elif d_str > a_str:
            winner = dfd
    if winner < 0:
        ev[0] = emit(log, ev[0], EV_RESULT, -1, -1, att, dfd, 0, a_str, d_str)
        return
    loser = dfd if winner == att else att
    state[base_of(winner) + B_WINS] += 1
    ev[0] = emit(log, ev[0], EV_RESULT, winner, loser, att, dfd, 1 if star else 0, a_str, d_str)
    n = loot_choices(state, cfg, winner, loser, legal)
    if n == 0:
        return
    who = decider_for(state, winner, loser)
    code = legal[ask(state, cfg, who, DEC_LOOT, winner, loser, 0, 0, legal, n, seat_slot, fns, seat_params, streams)]
    take_loot(state, cfg, winner, loser, code, who, seat_slot, fns, seat_params, streams, legal, log, ev)
