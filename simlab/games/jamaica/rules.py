"""Jamaica's rules as small numba functions over the flat state (see ``state.py``).

Every choice the rules leave to a player goes through :func:`ask`, which calls the deciding
seat's strategy (the captain or the other player when the ghost ship needs a decision). A
decision with a single legal option is taken without a call.

Rule references (seed = ``shared/seeds/003_...txt``, the authority): 2(1) dice, 2(2) cards,
2(3) actions in seat order, 2(4) refill, 3(1) loading and moving, 3(2) costs, 3(3) shortage,
3(4) battle, 4 end and scoring, 5 the two-player ghost ship.
"""
import numpy as np
from numba import njit

from simlab.core.kernel import COL_SCORE, COL_TIEBREAK, FIRST_GAME_COLUMN, PLAY_SIGNATURE, emit
from simlab.core.rng import randint, shuffle

from .components import (GHOST_DAY_FIRST, LAIR, MAX_HOLDS, N_CARDS, N_SPACES, N_TREASURES, O, PORT, PR,
                         R_CANNON, R_FOOD, R_GOLD, R_NONE, SEA, SIXTH, STAR, T_BETH, T_HOLD6, T_MAP, T_SABRE,
                         A_BACK, A_FWD)
from .state import (B_ATTACKS, B_CARD, B_COMBATS, B_DISC, B_DISC_N, B_DONE, B_DRAW, B_DRAW_N, B_FALL_FOOD,
                    B_FALL_GOLD, B_FINISH_ROUND, B_HAND, B_HAND_N, B_HN, B_HTYPE, B_LAIRS, B_LAP, B_POS, B_SPENT,
                    B_STEALS, B_WINS, BACKWARD_FLAG, DEC_CANNONS, DEC_CARD, DEC_DICE, DEC_GHOST, DEC_HOLD,
                    DEC_LOOT, DEC_MOVE, DEC_PAY, DEC_RETREAT, DEC_SABRE, DEC_TARGET, END_CAP, END_PORT_ROYAL,
                    END_RUNNING, GHOST, LOOT_BLIND, LOOT_CARD, LOOT_GIVE, LOOT_HOLD, LOOT_NONE, MAX_CHOICES,
                    MAX_TARGETS, N_SHIPS, OWN_DECK, OWN_REMOVED, S_BANK, S_BANK_SHORT, S_CAPTAIN, S_DAY, S_DEC,
                    S_DEC_A, S_DEC_B, S_DEC_C, S_DEC_SHIP, S_DIE1, S_DIE2, S_END, S_ENDER, S_GHOST, S_NIGHT,
                    S_PLAYERS, S_PREV_A, S_PREV_B, S_ROUND, S_STACK, S_TDECK, S_TDECK_N, S_TGT_DONE, S_TGT_LAP, S_TOKEN,
                    S_TOWNER, SB, SH0, STATE_SIZE)

# Event kinds of the trace log.
(EV_SETUP, EV_ROUND, EV_REVEAL, EV_LOAD, EV_IGNORED, EV_MOVE, EV_PAY, EV_SHORT, EV_RETREAT, EV_LAIR,
 EV_COMBAT, EV_ROLL, EV_SABRE, EV_RESULT, EV_LOOT, EV_FINISH, EV_END, EV_SCORE, EV_GHOST_DIR) = range(19)

# Result columns from FIRST_GAME_COLUMN on (declared with meanings in __init__).
(C_POSITION, C_SPACE_POINTS, C_GOLD, C_TREASURE_POINTS, C_TREASURE_CARDS, C_FINISHED, C_COMBATS, C_WINS,
 C_ATTACKS, C_FALL_FOOD, C_FALL_GOLD, C_CANNONS_SPENT, C_LAIRS, C_STEALS, C_FOOD, C_CANNONS, C_ROUNDS,
 C_END_REASON, C_ENDER, C_BANK_SHORT, C_GHOST_POSITION, C_GHOST_GOLD, C_GHOST_COMBATS, C_GHOST_WINS,
 C_GHOST_TREASURES) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 25)
N_COLUMNS = 25


# ---------------------------------------------------------------- small readers
@njit(cache=True, inline="always")
def base_of(ship):
    return SH0 + ship * SB


@njit(cache=True)
def owner(state, card):
    return state[S_TOWNER + card]


@njit(cache=True)
def hold_usable(state, cfg, ship, slot):
    """Regular holds 0..holds-1, and slot 5 while the ship owns the 6th Hold card."""
    if slot == SIXTH:
        return state[S_TOWNER + T_HOLD6] == ship
    return slot < cfg[O.holds]


@njit(cache=True)
def amount(state, ship, res):
    """Tokens of ``res`` in all of the ship's holds."""
    b = base_of(ship)
    t = 0
    for h in range(MAX_HOLDS):
        if state[b + B_HTYPE + h] == res:
            t += state[b + B_HN + h]
    return t


@njit(cache=True)
def space_cost(cfg, space):
    """(resource, amount) a ship pays for ending a move on ``space``: food at sea, gold in port."""
    kind = cfg[O.space_type + space]
    if kind == SEA:
        return R_FOOD, cfg[O.sea_food + space]
    if kind == PORT:
        return R_GOLD, cfg[O.port_gold + space]
    return R_NONE, 0


@njit(cache=True)
def payable(state, cfg, ship, space):
    """Can the ship pay the full cost of ``space`` (a lair or Port Royal always qualifies)?"""
    res, cost = space_cost(cfg, space)
    if res == R_NONE:
        return True
    return amount(state, ship, res) >= cost


@njit(cache=True)
def progress(state, cfg, ship):
    """How far along the race a ship is (finished ships highest, ships behind the line negative)."""
    b = base_of(ship)
    if state[b + B_DONE]:
        return 1000
    return state[b + B_LAP] * 64 + cfg[O.progress + state[b + B_POS]]


@njit(cache=True)
def hand_limit(state, cfg, ship):
    return cfg[O.map_hand_size] if state[S_TOWNER + T_MAP] == ship else cfg[O.hand_size]


@njit(cache=True)
def strength_bonus(state, cfg, ship):
    return cfg[O.beth_bonus] if state[S_TOWNER + T_BETH] == ship else 0


@njit(cache=True)
def face_down(state, ship, card):
    """Value cards lie face down; the ghost ship keeps every card but Lady Beth face down."""
    if ship == GHOST:
        return card != T_BETH
    return card > T_HOLD6


@njit(cache=True)
def is_active(state, ship):
    if ship == GHOST:
        return state[S_GHOST] == 1
    return ship < state[S_PLAYERS]


# ---------------------------------------------------------------- decisions
@njit(cache=True)
def ask(state, cfg, seat, kind, ship, a, b, c, legal, n, seat_slot, fns, seat_params, rng):
    """Ask ``seat``'s strategy to pick one of ``legal[:n]``; returns the index (0 without a call if n == 1)."""
    if n <= 1:
        return 0
    state[S_DEC] = kind
    state[S_DEC_SHIP] = ship
    state[S_DEC_A] = a
    state[S_DEC_B] = b
    state[S_DEC_C] = c
    slot = seat_slot[seat]
    i = fns[slot](state, cfg, seat, legal, n, seat_params[slot], rng)
    if i < 0 or i >= n:
        raise ValueError("a strategy returned an index outside its legal choices")
    return i


@njit(cache=True)
def decider_for(state, ship, role_other_than):
    """Seat that decides for ``ship``: itself, or for the ghost the captain (movement, targets)
    or, in a battle against player ``role_other_than``, the other player (seed 5(4), 5(7))."""
    if ship != GHOST:
        return ship
    if role_other_than >= 0:
        return 1 - role_other_than
    return state[S_CAPTAIN]


# ---------------------------------------------------------------- setup
@njit(cache=True)
def setup(state, cfg, n_players, rng):
    state[:] = 0
    state[S_PLAYERS] = n_players
    state[S_ENDER] = -1
    ghost = n_players == 2 and cfg[O.ghost_ship] != 0
    state[S_GHOST] = 1 if ghost else 0
    for r in range(3):
        state[S_BANK + r] = cfg[O.bank + r]
    for s in range(N_SPACES):
        state[S_PREV_A + s] = -1
        state[S_PREV_B + s] = -1
    for s in range(N_SPACES):
        for t in (cfg[O.next_outer + s], cfg[O.next_inner + s]):
            if t >= 0:
                if state[S_PREV_A + t] == -1:
                    state[S_PREV_A + t] = s
                else:
                    state[S_PREV_B + t] = s
        state[S_TOKEN + s] = 1 if cfg[O.space_type + s] == LAIR else 0
    # treasure cards: shuffle, remove some unseen, the rest is the draw pile (seed 1(1), 5(3))
    pile = np.empty(N_TREASURES, dtype=np.int32)
    n = 0
    for k in range(N_TREASURES):
        if ghost and k == T_BETH:
            state[S_TOWNER + k] = GHOST
        else:
            pile[n] = k
            n += 1
    shuffle(rng, pile, n)
    removed = min(n, cfg[O.ghost_removed] if ghost else cfg[O.treasure_removed])
    for i in range(n):
        state[S_TOWNER + pile[i]] = OWN_REMOVED if i < removed else OWN_DECK
    for i in range(removed, n):
        state[S_TDECK + i - removed] = pile[i]
    state[S_TDECK_N] = n - removed
    for p in range(n_players):
        b = base_of(p)
        for h in range(MAX_HOLDS):
            state[b + B_HTYPE + h] = R_NONE
        slot = 0
        for res, off in ((R_GOLD, O.start_gold), (R_FOOD, O.start_food), (R_CANNON, O.start_cannons)):
            if cfg[off] > 0:
                state[b + B_HTYPE + slot] = res
                state[b + B_HN + slot] = cfg[off]
                state[S_BANK + res - 1] -= cfg[off]
                slot += 1
        for k in range(N_CARDS):
            state[b + B_DRAW + k] = k
        shuffle(rng, state[b + B_DRAW:b + B_DRAW + N_CARDS], N_CARDS)
        state[b + B_DRAW_N] = N_CARDS
        state[b + B_CARD] = -1
        refill(state, cfg, p, rng)
    if ghost:
        b = base_of(GHOST)
        for h in range(MAX_HOLDS):
            state[b + B_HTYPE + h] = R_NONE
        for h in range(2):
            g = cfg[O.ghost_gold + h]
            if g > 0:
                state[b + B_HTYPE + h] = R_GOLD
                state[b + B_HN + h] = g
                state[S_BANK + R_GOLD - 1] -= g
        state[b + B_CARD] = -1


@njit(cache=True)
def refill(state, cfg, ship, rng):
    """Draw up to the hand size, shuffling the discard pile into a new draw pile when empty (2(4))."""
    b = base_of(ship)
    limit = hand_limit(state, cfg, ship)
    while state[b + B_HAND_N] < limit:
        if state[b + B_DRAW_N] == 0:
            nd = state[b + B_DISC_N]
            if nd == 0:
                return
            for i in range(nd):
                state[b + B_DRAW + i] = state[b + B_DISC + i]
            state[b + B_DISC_N] = 0
            state[b + B_DRAW_N] = nd
            shuffle(rng, state[b + B_DRAW:b + B_DRAW + nd], nd)
        nd = state[b + B_DRAW_N] - 1
        state[b + B_HAND + state[b + B_HAND_N]] = state[b + B_DRAW + nd]
        state[b + B_HAND_N] += 1
        state[b + B_DRAW_N] = nd


# ---------------------------------------------------------------- holds
@njit(cache=True)
def load_choices(state, cfg, ship, res, legal):
    """Holds a load of ``res`` may go into (3(1)): the empty ones (the regular holds being
    identical, only the first empty regular hold is listed, plus an empty 6th hold); with no
    empty hold, every hold holding another resource (it is emptied first). 0 = action ignored."""
    b = base_of(ship)
    n = 0
    regular = False
    for h in range(MAX_HOLDS):
        if hold_usable(state, cfg, ship, h) and state[b + B_HN + h] == 0:
            if h == SIXTH or not regular:
                legal[n] = h
                n += 1
                regular = regular or h != SIXTH
    if n > 0:
        return n
    for h in range(MAX_HOLDS):
        if hold_usable(state, cfg, ship, h) and state[b + B_HTYPE + h] != res:
            legal[n] = h
            n += 1
    return n


@njit(cache=True)
def load(state, cfg, ship, res, count, from_bank, decider, seat_slot, fns, seat_params, rng, legal, log, ev):
    """Put ``count`` tokens of ``res`` into one hold (from the bank, or loot from a beaten ship)."""
    if from_bank:
        left = state[S_BANK + res - 1]
        if left < count:
            state[S_BANK_SHORT] += 1
            if cfg[O.bank_limited]:
                count = max(left, 0)
    if count <= 0:
        return
    n = load_choices(state, cfg, ship, res, legal)
    if n == 0:  # every hold already holds this resource: the load is ignored
        if not from_bank:
            state[S_BANK + res - 1] += count
        ev[0] = emit(log, ev[0], EV_IGNORED, ship, res, count)
        return
    i = 0
    if ship != GHOST:
        i = ask(state, cfg, decider, DEC_HOLD, ship, res, count, 0, legal, n, seat_slot, fns, seat_params, rng)
    h = legal[i]
    b = base_of(ship)
    old_type = state[b + B_HTYPE + h]
    old_n = state[b + B_HN + h]
    if old_n > 0:
        state[S_BANK + old_type - 1] += old_n
    state[b + B_HTYPE + h] = res
    state[b + B_HN + h] = count
    if from_bank:
        state[S_BANK + res - 1] -= count
    ev[0] = emit(log, ev[0], EV_LOAD, ship, res, count, h, old_type if old_n > 0 else 0, old_n)


@njit(cache=True)
def pay(state, cfg, ship, res, cost, decider, seat_slot, fns, seat_params, rng, legal):
    """Pay ``cost`` tokens of ``res`` back to the bank from any holds (the owner picks the order:
    smallest holds first frees holds, largest first keeps them)."""
    if cost <= 0:
        return
    b = base_of(ship)
    slots = state[S_STACK + 96:S_STACK + 96 + MAX_HOLDS]
    k = 0
    total = 0
    for h in range(MAX_HOLDS):
        if state[b + B_HTYPE + h] == res and state[b + B_HN + h] > 0:
            c = state[b + B_HN + h]
            j = k
            while j > 0 and state[b + B_HN + slots[j - 1]] > c:
                slots[j] = slots[j - 1]
                j -= 1
            slots[j] = h
            k += 1
            total += c
    plan = 0
    if k >= 2 and cost < total and ship != GHOST:
        legal[0] = 0
        legal[1] = 1
        plan = legal[ask(state, cfg, decider, DEC_PAY, ship, res, cost, 0, legal, 2, seat_slot, fns, seat_params,
                         rng)]
    left = cost
    for j in range(k):
        h = slots[j] if plan == 0 else slots[k - 1 - j]
        take = min(left, state[b + B_HN + h])
        state[b + B_HN + h] -= take
        if state[b + B_HN + h] == 0:
            state[b + B_HTYPE + h] = R_NONE
        left -= take
        if left == 0:
            break
    state[S_BANK + res - 1] += cost - left


# ---------------------------------------------------------------- the track
@njit(cache=True)
def _add_target(d, lap, done, out_dest, out_lap, out_done, n):
    for i in range(n):
        if out_dest[i] == d and out_lap[i] == lap and out_done[i] == done:
            return n
    out_dest[n] = d
    out_lap[n] = lap
    out_done[n] = done
    return n + 1


@njit(cache=True)
def walk(state, cfg, ship, pos, lap, steps, backward, out_dest, out_lap, out_done):
    """Every space a move of exactly ``steps`` can end on (one per branch choice at forks).

    Forward onto Port Royal on the race lap ends the race: the ship stops there (seed 4, [S5]);
    a ship behind the start line crosses it and carries on (A5); the ghost ship sails on unless
    ``ghost_ends_game``. Backward out of Port Royal puts a ship behind the start line.
    Writes destination / lap / finished into the out arrays; returns how many.
    """
    stack_s = state[S_STACK:S_STACK + 32]
    stack_l = state[S_STACK + 32:S_STACK + 64]
    stack_k = state[S_STACK + 64:S_STACK + 96]
    top = 1
    stack_s[0] = pos
    stack_l[0] = lap
    stack_k[0] = steps
    n = 0
    ghost_sails = ship == GHOST and cfg[O.ghost_ends_game] == 0
    while top > 0:
        top -= 1
        s = stack_s[top]
        lp = stack_l[top]
        k = stack_k[top]
        if k == 0:
            n = _add_target(s, lp, 0, out_dest, out_lap, out_done, n)
            continue
        if not backward:
            for t in (cfg[O.next_outer + s], cfg[O.next_inner + s]):
                if t < 0:
                    continue
                l2 = lp
                if t == 0:
                    if lp == 0 and not ghost_sails:
                        n = _add_target(0, 0, 1, out_dest, out_lap, out_done, n)
                        continue
                    l2 = lp + 1
                stack_s[top] = t
                stack_l[top] = l2
                stack_k[top] = k - 1
                top += 1
        else:
            if s == 0:
                stack_s[top] = state[S_PREV_A]
                stack_l[top] = lp - 1
                stack_k[top] = k - 1
                top += 1
            else:
                for t in (state[S_PREV_A + s], state[S_PREV_B + s]):
                    if t >= 0:
                        stack_s[top] = t
                        stack_l[top] = lp
                        stack_k[top] = k - 1
                        top += 1
    return n


@njit(cache=True)
def retreat_targets(state, cfg, ship, out_dest):
    """First spaces behind the ship whose full cost it can pay, one per branch (3(3)).

    Port Royal is free, so a retreat never crosses the start line backwards (A5)."""
    b = base_of(ship)
    stack = state[S_STACK:S_STACK + 16]
    stack[0] = state[b + B_POS]
    top = 1
    n = 0
    while top > 0:
        top -= 1
        s = stack[top]
        for t in (state[S_PREV_A + s], state[S_PREV_B + s]):
            if t < 0 or s == 0:
                continue
            if t == 0 or payable(state, cfg, ship, t):
                seen = False
                for i in range(n):
                    seen = seen or out_dest[i] == t
                if not seen:
                    out_dest[n] = t
                    n += 1
            else:
                stack[top] = t
                top += 1
    return n


# ---------------------------------------------------------------- treasure
@njit(cache=True)
def transfer_card(state, card, src, dst):
    """Hand a treasure card over; the 6th Hold takes its contents along ([S6]); the ghost ship
    keeps only doubloons (seed 5(7))."""
    state[S_TOWNER + card] = dst
    if card == T_HOLD6:
        bs = base_of(src)
        bd = base_of(dst)
        res = state[bs + B_HTYPE + SIXTH]
        cnt = state[bs + B_HN + SIXTH]
        state[bs + B_HTYPE + SIXTH] = R_NONE
        state[bs + B_HN + SIXTH] = 0
        if cnt > 0 and dst == GHOST and res != R_GOLD:
            state[S_BANK + res - 1] += cnt
        elif cnt > 0:
            state[bd + B_HTYPE + SIXTH] = res
            state[bd + B_HN + SIXTH] = cnt


@njit(cache=True)
def take_lair(state, ship, space, log, ev):
    """A lair with its token: remove the token, draw the top treasure card (3(2))."""
    if state[S_TOKEN + space] == 0:
        return
    state[S_TOKEN + space] = 0
    n = state[S_TDECK_N]
    card = -1
    if n > 0:
        card = state[S_TDECK + n - 1]
        state[S_TDECK_N] = n - 1
        state[S_TOWNER + card] = ship
        state[base_of(ship) + B_LAIRS] += 1
    ev[0] = emit(log, ev[0], EV_LAIR, ship, space, card)


# ---------------------------------------------------------------- battle
@njit(cache=True)
def roll_face(cfg, rng):
    return cfg[O.combat_faces + randint(rng, 6)]


@njit(cache=True)
def sabre_window(state, cfg, rolled, face, att, dfd, sabre_free, seat_slot, fns, seat_params, rng, legal, log,
                 ev):
    """Right after a roll, the sabre's owner (if fighting) may have that die re-rolled (A8).

    Returns (face, sabre still unused)."""
    if not sabre_free:
        return face, False
    holder = state[S_TOWNER + T_SABRE]
    if holder != att and holder != dfd:
        return face, False
    legal[0] = 0
    legal[1] = 1
    use = legal[ask(state, cfg, holder, DEC_SABRE, holder, rolled, face, 0, legal, 2, seat_slot, fns,
                    seat_params, rng)]
    if use == 0:
        return face, True
    new = roll_face(cfg, rng)
    ev[0] = emit(log, ev[0], EV_SABRE, holder, rolled, face, new)
    return new, False


@njit(cache=True)
def commit_cannons(state, cfg, ship, opp, defending, so_far, seat_slot, fns, seat_params, rng, legal):
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
                  seat_params, rng)]
    pay(state, cfg, ship, R_CANNON, c, ship, seat_slot, fns, seat_params, rng, legal)
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
def take_loot(state, cfg, winner, loser, code, decider, seat_slot, fns, seat_params, rng, legal, log, ev):
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
        card = legal[randint(rng, n)]
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
    load(state, cfg, winner, res, cnt, False, decider, seat_slot, fns, seat_params, rng, legal, log, ev)


@njit(cache=True)
def battle(state, cfg, att, space, seat_slot, fns, seat_params, rng, legal, log, ev):
    """Sea battle on ``space`` (3(4)): the attacker picks an opponent there, commits cannons and
    rolls, then the defender; a star wins outright; higher strength wins; a tie does nothing."""
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
    dfd = legal[ask(state, cfg, who, DEC_TARGET, att, space, 0, 0, legal, n, seat_slot, fns, seat_params, rng)]
    ba = base_of(att)
    bd = base_of(dfd)
    state[ba + B_COMBATS] += 1
    state[bd + B_COMBATS] += 1
    state[ba + B_ATTACKS] += 1
    ev[0] = emit(log, ev[0], EV_COMBAT, att, dfd, space)
    sabre_free = state[S_TOWNER + T_SABRE] != GHOST
    ac = commit_cannons(state, cfg, att, dfd, 0, 0, seat_slot, fns, seat_params, rng, legal)
    af = roll_face(cfg, rng)
    ev[0] = emit(log, ev[0], EV_ROLL, att, ac, af, ac + af + strength_bonus(state, cfg, att))
    af, sabre_free = sabre_window(state, cfg, att, af, att, dfd, sabre_free, seat_slot, fns, seat_params, rng,
                                  legal, log, ev)
    winner = -1
    if af == STAR:
        winner = att
    else:
        a_str = ac + af + strength_bonus(state, cfg, att)
        dc = commit_cannons(state, cfg, dfd, att, 1, a_str, seat_slot, fns, seat_params, rng, legal)
        df = roll_face(cfg, rng)
        ev[0] = emit(log, ev[0], EV_ROLL, dfd, dc, df, dc + df + strength_bonus(state, cfg, dfd))
        df, sabre_free = sabre_window(state, cfg, dfd, df, att, dfd, sabre_free, seat_slot, fns, seat_params, rng,
                                      legal, log, ev)
        if df == STAR:
            winner = dfd
        else:
            d_str = dc + df + strength_bonus(state, cfg, dfd)
            if a_str > d_str:
                winner = att
            elif d_str > a_str:
                winner = dfd
    if winner < 0:
        ev[0] = emit(log, ev[0], EV_RESULT, -1, -1, att, dfd)
        return
    loser = dfd if winner == att else att
    state[base_of(winner) + B_WINS] += 1
    ev[0] = emit(log, ev[0], EV_RESULT, winner, loser, att, dfd)
    n = loot_choices(state, cfg, winner, loser, legal)
    if n == 0:
        return
    who = decider_for(state, winner, loser)
    code = legal[ask(state, cfg, who, DEC_LOOT, winner, loser, 0, 0, legal, n, seat_slot, fns, seat_params, rng)]
    take_loot(state, cfg, winner, loser, code, who, seat_slot, fns, seat_params, rng, legal, log, ev)


# ---------------------------------------------------------------- arriving, moving
@njit(cache=True)
def arrive(state, cfg, ship, seat_slot, fns, seat_params, rng, legal, log, ev):
    """Resolve the end of a move: battle if occupied (never in Port Royal), then the space's
    cost; short of it, pay everything and fall back to the first payable space (3(2), 3(3))."""
    b = base_of(ship)
    while True:
        s = state[b + B_POS]
        if state[b + B_DONE] or cfg[O.space_type + s] == PR:
            return
        battle(state, cfg, ship, s, seat_slot, fns, seat_params, rng, legal, log, ev)
        kind = cfg[O.space_type + s]
        if kind == LAIR:
            take_lair(state, ship, s, log, ev)
            return
        if ship == GHOST:  # the ghost ship never pays (5(6))
            return
        res, cost = space_cost(cfg, s)
        have = amount(state, ship, res)
        if have >= cost:
            pay(state, cfg, ship, res, cost, ship, seat_slot, fns, seat_params, rng, legal)
            ev[0] = emit(log, ev[0], EV_PAY, ship, res, cost, s)
            return
        pay(state, cfg, ship, res, have, ship, seat_slot, fns, seat_params, rng, legal)
        ev[0] = emit(log, ev[0], EV_SHORT, ship, res, cost, have, s)
        if res == R_FOOD:
            state[b + B_FALL_FOOD] += 1
        else:
            state[b + B_FALL_GOLD] += 1
        n = retreat_targets(state, cfg, ship, legal)
        i = ask(state, cfg, ship, DEC_RETREAT, ship, res, 0, 0, legal, n, seat_slot, fns, seat_params, rng)
        state[b + B_POS] = legal[i]
        ev[0] = emit(log, ev[0], EV_RETREAT, ship, s, legal[i])


@njit(cache=True)
def finish(state, ship, log, ev):
    b = base_of(ship)
    state[b + B_DONE] = 1
    state[b + B_FINISH_ROUND] = state[S_ROUND]
    if state[S_ENDER] < 0:
        state[S_ENDER] = ship
    ev[0] = emit(log, ev[0], EV_FINISH, ship, state[S_ROUND])


@njit(cache=True)
def place(state, ship, dest, lap, done, backward, steps, log, ev):
    b = base_of(ship)
    start = state[b + B_POS]
    state[b + B_POS] = dest
    state[b + B_LAP] = lap
    ev[0] = emit(log, ev[0], EV_MOVE, ship, start, dest, backward, steps, lap, done)
    if done:
        finish(state, ship, log, ev)


@njit(cache=True)
def move(state, cfg, ship, steps, backward, seat_slot, fns, seat_params, rng, legal, log, ev):
    """A move action: exactly the die's spaces, the ship chooses the branch at forks."""
    b = base_of(ship)
    tl = state[S_TGT_LAP:S_TGT_LAP + MAX_TARGETS]
    td = state[S_TGT_DONE:S_TGT_DONE + MAX_TARGETS]
    n = walk(state, cfg, ship, state[b + B_POS], state[b + B_LAP], steps, backward, legal, tl, td)
    if backward:
        for i in range(n):
            legal[i] += BACKWARD_FLAG
    i = ask(state, cfg, ship, DEC_MOVE, ship, steps, 1 if backward else 0, 0, legal, n, seat_slot, fns,
            seat_params, rng)
    place(state, ship, legal[i] % BACKWARD_FLAG, tl[i], td[i], backward, steps, log, ev)
    arrive(state, cfg, ship, seat_slot, fns, seat_params, rng, legal, log, ev)


@njit(cache=True)
def do_action(state, cfg, ship, action, die, seat_slot, fns, seat_params, rng, legal, log, ev):
    if action == A_FWD or action == A_BACK:
        move(state, cfg, ship, die, action == A_BACK, seat_slot, fns, seat_params, rng, legal, log, ev)
    else:
        load(state, cfg, ship, action, die, True, ship, seat_slot, fns, seat_params, rng, legal, log, ev)


@njit(cache=True)
def ghost_turn(state, cfg, seat_slot, fns, seat_params, rng, legal, log, ev):
    """The captain moves the ghost ship twice with the two dice (seed 5(4), 5(5)): forward
    when it is behind both players, backward when ahead of both, his choice otherwise."""
    b = base_of(GHOST)
    cap = state[S_CAPTAIN]
    tl = state[S_TGT_LAP:S_TGT_LAP + MAX_TARGETS]
    td = state[S_TGT_DONE:S_TGT_DONE + MAX_TARGETS]
    dest = state[S_STACK + 104:S_STACK + 112]
    lp = state[S_STACK + 112:S_STACK + 120]
    dn = state[S_STACK + 120:S_STACK + 128]
    fwd_ok = True
    back_ok = True
    for m in range(2):
        if state[b + B_DONE]:
            return
        first = S_DAY if cfg[O.ghost_die_order] == GHOST_DAY_FIRST else S_NIGHT
        die = state[first] if m == 0 else state[S_DAY + S_NIGHT - first]
        if m == 0 or cfg[O.ghost_recheck]:
            g = progress(state, cfg, GHOST)
            p0 = progress(state, cfg, 0)
            p1 = progress(state, cfg, 1)
            fwd_ok = not (g > p0 and g > p1)
            back_ok = not (g < p0 and g < p1)
            ev[0] = emit(log, ev[0], EV_GHOST_DIR, 1 if fwd_ok else 0, 1 if back_ok else 0, g, p0, p1)
        n = 0
        for d in range(2):
            if (d == 0 and not fwd_ok) or (d == 1 and not back_ok):
                continue
            k = walk(state, cfg, GHOST, state[b + B_POS], state[b + B_LAP], die, d == 1, dest, lp, dn)
            for j in range(k):
                legal[n] = dest[j] + BACKWARD_FLAG * d
                tl[n] = lp[j]
                td[n] = dn[j]
                n += 1
        i = ask(state, cfg, cap, DEC_GHOST, GHOST, die, 0, 0, legal, n, seat_slot, fns, seat_params, rng)
        code = legal[i]
        place(state, GHOST, code % BACKWARD_FLAG, tl[i], td[i], code >= BACKWARD_FLAG, die, log, ev)
        arrive(state, cfg, GHOST, seat_slot, fns, seat_params, rng, legal, log, ev)
        if cfg[O.check_invariants]:
            check_or_raise(state, cfg)


# ---------------------------------------------------------------- invariants
@njit(cache=True)
def check_state(state, cfg):
    """0 when every invariant holds, else a code naming the first breach:
    1 resources not conserved (bank + holds != printed stock), 2 a hold with two kinds / a count
    without a kind / a negative count, 3 a 6th-hold slot without its card or an unused hold
    filled, 4 treasure cards not conserved (deck / owners / removed), 5 action cards not
    conserved (draw + hand + discard + played != the 11 cards), 6 a ship off the track,
    7 a token off a lair."""
    n_players = state[S_PLAYERS]
    totals = np.zeros(4, dtype=np.int64)
    for ship in range(N_SHIPS):
        if not is_active(state, ship):
            continue
        b = base_of(ship)
        for h in range(MAX_HOLDS):
            t = state[b + B_HTYPE + h]
            c = state[b + B_HN + h]
            if c < 0 or t < 0 or t > 3 or (c == 0) != (t == R_NONE):
                return 2
            if c > 0 and not hold_usable(state, cfg, ship, h):
                return 3
            totals[t] += c
        if state[b + B_POS] < 0 or state[b + B_POS] >= N_SPACES:
            return 6
    for r in range(1, 4):
        if totals[r] + state[S_BANK + r - 1] != cfg[O.bank + r - 1]:
            return 1
    nd = state[S_TDECK_N]
    if nd < 0 or nd > N_TREASURES:
        return 4
    in_deck = 0
    for k in range(N_TREASURES):
        o = state[S_TOWNER + k]
        if o == OWN_DECK:
            in_deck += 1
            found = 0
            for i in range(nd):
                found += state[S_TDECK + i] == k
            if found != 1:
                return 4
        elif o != OWN_REMOVED and not (0 <= o < N_SHIPS and is_active(state, o)):
            return 4
    if in_deck != nd:
        return 4
    for p in range(n_players):
        b = base_of(p)
        seen = np.zeros(N_CARDS, dtype=np.int64)
        for i in range(state[b + B_DRAW_N]):
            seen[state[b + B_DRAW + i]] += 1
        for i in range(state[b + B_HAND_N]):
            seen[state[b + B_HAND + i]] += 1
        for i in range(state[b + B_DISC_N]):
            seen[state[b + B_DISC + i]] += 1
        if state[b + B_CARD] >= 0:
            seen[state[b + B_CARD]] += 1
        for k in range(N_CARDS):
            if seen[k] != 1:
                return 5
    for s in range(N_SPACES):
        if state[S_TOKEN + s] and cfg[O.space_type + s] != LAIR:
            return 7
    return 0


@njit(cache=True)
def check_or_raise(state, cfg):
    if check_state(state, cfg) != 0:
        raise ValueError("jamaica invariant breached (see rules.check_state for the codes)")


# ---------------------------------------------------------------- the round
@njit(cache=True)
def roll_and_place_dice(state, cfg, seat_slot, fns, seat_params, rng, legal):
    """2(1): the captain rolls both action dice and puts one on day, one on night."""
    d1 = 1 + randint(rng, 6)
    d2 = 1 + randint(rng, 6)
    state[S_DIE1] = d1
    state[S_DIE2] = d2
    legal[0] = d1 * 8 + d2
    legal[1] = d2 * 8 + d1
    n = 1 if d1 == d2 else 2
    cap = state[S_CAPTAIN]
    code = legal[ask(state, cfg, cap, DEC_DICE, cap, d1, d2, 0, legal, n, seat_slot, fns, seat_params, rng)]
    state[S_DAY] = code // 8
    state[S_NIGHT] = code % 8


@njit(cache=True)
def pick_cards(state, cfg, seat_slot, fns, seat_params, rng, legal, chosen):
    """2(2): every player picks a card on the same state, then all are played face down."""
    n_players = state[S_PLAYERS]
    for p in range(n_players):
        b = base_of(p)
        n = state[b + B_HAND_N]
        for i in range(n):
            legal[i] = state[b + B_HAND + i]
        chosen[p] = legal[ask(state, cfg, p, DEC_CARD, p, 0, 0, 0, legal, n, seat_slot, fns, seat_params, rng)]
    for p in range(n_players):
        b = base_of(p)
        n = state[b + B_HAND_N]
        for i in range(n):
            if state[b + B_HAND + i] == chosen[p]:
                state[b + B_HAND + i] = state[b + B_HAND + n - 1]
                state[b + B_HAND_N] = n - 1
                break
        state[b + B_CARD] = chosen[p]


@njit(cache=True)
def play_round(state, cfg, seat_slot, fns, seat_params, rng, legal, chosen, log, ev):
    n_players = state[S_PLAYERS]
    state[S_ROUND] += 1
    roll_and_place_dice(state, cfg, seat_slot, fns, seat_params, rng, legal)
    cap = state[S_CAPTAIN]
    ev[0] = emit(log, ev[0], EV_ROUND, state[S_ROUND], cap, state[S_DIE1], state[S_DIE2], state[S_DAY],
                 state[S_NIGHT])
    pick_cards(state, cfg, seat_slot, fns, seat_params, rng, legal, chosen)
    check = cfg[O.check_invariants] != 0
    for k in range(n_players):  # 2(3): in turn from the captain, day action then night action
        p = (cap + k) % n_players
        b = base_of(p)
        if state[b + B_DONE]:
            continue
        card = state[b + B_CARD]
        day = cfg[O.card_day + card]
        night = cfg[O.card_night + card]
        ev[0] = emit(log, ev[0], EV_REVEAL, p, card, day, night)
        do_action(state, cfg, p, day, state[S_DAY], seat_slot, fns, seat_params, rng, legal, log, ev)
        if check:
            check_or_raise(state, cfg)
        if state[b + B_DONE] == 0:  # reaching Port Royal ends the ship's turn (seed 4, [S5])
            do_action(state, cfg, p, night, state[S_NIGHT], seat_slot, fns, seat_params, rng, legal, log, ev)
            if check:
                check_or_raise(state, cfg)
    if state[S_GHOST]:
        ghost_turn(state, cfg, seat_slot, fns, seat_params, rng, legal, log, ev)
    for p in range(n_players):  # 2(4): discard, refill, pass the compass
        b = base_of(p)
        if state[b + B_CARD] >= 0:
            state[b + B_DISC + state[b + B_DISC_N]] = state[b + B_CARD]
            state[b + B_DISC_N] += 1
            state[b + B_CARD] = -1
        refill(state, cfg, p, rng)
    if check:
        check_or_raise(state, cfg)
    state[S_CAPTAIN] = (cap + 1) % n_players
    if state[S_ENDER] >= 0:
        state[S_END] = END_PORT_ROYAL
    elif state[S_ROUND] >= cfg[O.max_rounds]:
        state[S_END] = END_CAP


# ---------------------------------------------------------------- scoring
@njit(cache=True)
def space_points(state, cfg, ship):
    """The white number under the ship (seed 4(1)); Port Royal scores only for a finished ship."""
    b = base_of(ship)
    if state[b + B_DONE]:
        return cfg[O.space_score + 0]
    if state[b + B_LAP] < 0:
        return cfg[O.behind_score]
    pos = state[b + B_POS]
    if pos == 0:
        return cfg[O.start_score]
    return cfg[O.space_score + pos]


@njit(cache=True)
def treasure_points(state, cfg, ship):
    t = 0
    for k in range(N_TREASURES):
        if state[S_TOWNER + k] == ship:
            t += cfg[O.treasure_values + k]
    return t


@njit(cache=True)
def treasure_count(state, ship):
    t = 0
    for k in range(N_TREASURES):
        t += state[S_TOWNER + k] == ship
    return t


@njit(cache=True)
def score(state, cfg, ship):
    """Final score = space + doubloons in holds + treasure cards (seed 4)."""
    return space_points(state, cfg, ship) + amount(state, ship, R_GOLD) + treasure_points(state, cfg, ship)


@njit(cache=True)
def write_rows(state, cfg, rows):
    n_players = state[S_PLAYERS]
    g = base_of(GHOST)
    for p in range(n_players):
        b = base_of(p)
        r = rows[p]
        r[COL_SCORE] = score(state, cfg, p)
        r[COL_TIEBREAK] = progress(state, cfg, p)  # seed 4: the ship further along wins a tie
        r[C_POSITION] = state[b + B_POS]
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
        r[C_GHOST_GOLD] = amount(state, GHOST, R_GOLD) if ghost else 0
        r[C_GHOST_COMBATS] = state[g + B_COMBATS]
        r[C_GHOST_WINS] = state[g + B_WINS]
        r[C_GHOST_TREASURES] = treasure_count(state, GHOST) if ghost else 0


@njit(cache=True)
def log_setup(state, log, ev):
    for ship in range(N_SHIPS):
        if is_active(state, ship):
            ev[0] = emit(log, ev[0], EV_SETUP, ship, amount(state, ship, R_GOLD), amount(state, ship, R_FOOD),
                         state[S_TDECK_N])


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    rng = streams[0]  # one stream for all chance and every strategy, until the game names its purposes
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    chosen = np.zeros(n_players, dtype=np.int32)
    ev = np.zeros(1, dtype=np.int64)
    setup(state, cfg, n_players, rng)
    log_setup(state, log, ev)
    while state[S_END] == END_RUNNING:
        play_round(state, cfg, seat_slot, fns, seat_params, rng, legal, chosen, log, ev)
    ev[0] = emit(log, ev[0], EV_END, state[S_END], state[S_ROUND], state[S_ENDER])
    write_rows(state, cfg, rows)
    for p in range(n_players):
        ev[0] = emit(log, ev[0], EV_SCORE, p, space_points(state, cfg, p), amount(state, p, R_GOLD),
                     treasure_points(state, cfg, p), rows[p, COL_SCORE], state[base_of(p) + B_POS],
                     state[base_of(p) + B_DONE])
    return ev[0]
