"""Jamaica strategies: uniform random, and four heuristics built on one look-ahead evaluator.

Every heuristic scores a card by playing its day and night actions forward with the placed
dice on a sketch of its own ship (position, food, gold, cannons, free holds): progress along
the race, resources loaded against a target, costs it can or cannot pay, lairs with their
treasure, ships it would land on. What differs is what they want and how they fight:

* ``racer``    progress first: keeps a food reserve, takes the short channels it can pay for,
  never spends cannons attacking and only defends when it is cheap; loots food and gold.
* ``hoarder``  gold and treasure first: loads doubloons, detours to lairs, avoids ports (gold is
  points), never dumps gold for other goods; loots gold holds and treasure cards.
* ``fighter``  arms and hunts: keeps a cannon stock, steers onto other ships (and picks the one
  with most to lose), commits all its cannons when attacking; loots treasure and gold.
* ``balanced`` the same evaluator with all eight weights tunable (a tuning/sweep target).

Decision kinds and choice codes are those of ``simlab.games.jamaica.state``.
"""
import numpy as np
from numba import njit

from simlab.core.rng import randint
from simlab.core.model import ROLLOUT_SIGNATURE, declare_play_out
from simlab.core.strategy import StrategyParam, strategy
from simlab.games.jamaica.components import (A_BACK, A_CANNON, A_FOOD, A_FWD, A_GOLD, LAIR, MAX_HOLDS, N_SPACES,
                                             NEXT_INNER, NEXT_OUTER, O, PORT, PR, R_CANNON, R_FOOD, R_GOLD, SEA, STAR,
                                             T_BETH, T_HOLD6, T_MAP, T_SABRE)
from simlab.games.jamaica.common import amount, base_of, hold_usable
from simlab.games.jamaica.movement import walk
from simlab.games.jamaica.state import (B_DONE, B_HAND, B_HAND_N, B_HN, B_HTYPE, B_LAP, B_POS, BACKWARD_FLAG,
                                        DEC_CANNONS, DEC_CARD, DEC_DICE, DEC_GHOST, DEC_HOLD, DEC_LOOT, DEC_MOVE,
                                        DEC_PAY, DEC_RETREAT, DEC_SABRE, DEC_TARGET, GHOST, LOOT_BLIND, LOOT_CARD,
                                        LOOT_GIVE, LOOT_HOLD, LOOT_NONE, N_SHIPS, S_DAY, S_DEC, S_DEC_A, S_DEC_B,
                                        S_DEC_C, S_DEC_SHIP, S_GHOST, S_NIGHT, S_PLAYERS, S_SSCRATCH, S_TGT_DONE,
                                        S_TGT_LAP, S_TOKEN, S_TOWNER, X_TCOUNT)

# Weight vector layout shared by the heuristics.
W_PROG, W_GOLD, W_FOOD, W_CANNON, W_LAIR, W_FIGHT, FOOD_TARGET, CANNON_TARGET = range(8)
SHORT_PENALTY = 12.0       # a move that cannot be paid for: everything paid and a fall-back
FINISH_BONUS = 25.0        # reaching Port Royal: 15 points and the end of the game
STYLE_RACER, STYLE_HOARDER, STYLE_FIGHTER, STYLE_BALANCED = 0, 1, 2, 3
ATTACK_SHARE = np.array([0.0, 0.3, 1.0, 0.5])    # share of cannons committed when attacking, by style


def _moves_made():
    """Per space: 32 - fewest forward moves left to Port Royal (start = 0) on the printed track.

    The heuristics' worth of a position (what a move gains toward the finish), not a rule: the
    rules rank ships by the track's physical order (``track_order``)."""
    left = [0] * N_SPACES
    for s in range(N_SPACES - 1, 0, -1):   # every successor has a larger id except 49 -> 0
        best = 99
        for t in (NEXT_OUTER[s], NEXT_INNER[s]):
            if t == 0:
                best = 1
            elif t > 0:
                best = min(best, 1 + left[t])
        left[s] = best
    lap = 1 + left[NEXT_OUTER[0]]
    return np.array([0] + [lap - left[s] for s in range(1, N_SPACES)], dtype=np.int64)


MOVES_MADE = _moves_made()


@strategy("jamaica", "random", "uniform random legal play at every decision", uniform=True)
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


# ---------------------------------------------------------------- the shared evaluator
@njit(cache=True)
def made(state, ship):
    """The ship's progress in MOVES_MADE units (finished ships highest, behind the line negative)."""
    b = base_of(ship)
    if state[b + B_DONE]:
        return 1000
    return state[b + B_LAP] * 64 + MOVES_MADE[state[b + B_POS]]


@njit(cache=True)
def occupied_by_other(state, seat, space):
    """Number of other active ships on ``space`` (never counts Port Royal)."""
    if space == 0:
        return 0
    n = 0
    for q in range(N_SHIPS):
        if q == seat:
            continue
        if q == GHOST and state[S_GHOST] == 0:
            continue
        if q != GHOST and q >= state[S_PLAYERS]:
            continue
        b = base_of(q)
        if state[b + B_POS] == space and state[b + B_DONE] == 0:
            n += 1
    return n


@njit(cache=True)
def dest_value(state, cfg, seat, cur_prog, dest, lap, done, food, gold, w):
    """(value, food after, gold after) of ending a move on ``dest``."""
    if done:
        return FINISH_BONUS + w[W_PROG] * 2.0, food, gold
    v = w[W_PROG] * (lap * 64 + MOVES_MADE[dest] - cur_prog)
    kind = cfg[O.space_type + dest]
    if kind == SEA:
        c = cfg[O.sea_food + dest]
        if food >= c:
            v -= 0.5 * w[W_FOOD] * c
            food -= c
        else:
            v -= SHORT_PENALTY
            food = 0
    elif kind == PORT:
        c = cfg[O.port_gold + dest]
        if gold >= c:
            v -= w[W_GOLD] * c
            gold -= c
        else:
            v -= SHORT_PENALTY
            gold = 0
    elif kind == LAIR and state[S_TOKEN + dest]:
        v += w[W_LAIR]
    if kind != PR and occupied_by_other(state, seat, dest) > 0:
        v += w[W_FIGHT]
    if lap < 0:
        v -= 5.0
    return v, food, gold


@njit(cache=True)
def free_holds(state, cfg, seat):
    b = base_of(seat)
    n = 0
    for h in range(MAX_HOLDS):
        if hold_usable(state, cfg, seat, h) and state[b + B_HN + h] == 0:
            n += 1
    return n


@njit(cache=True)
def card_value(state, cfg, seat, card, day_die, night_die, w):
    """Play the card's day then night action forward on a sketch of the ship; sum the gains."""
    b = base_of(seat)
    pos = state[b + B_POS]
    lap = state[b + B_LAP]
    food = amount(state, seat, R_FOOD)
    gold = amount(state, seat, R_GOLD)
    cannons = amount(state, seat, R_CANNON)
    free = free_holds(state, cfg, seat)
    out_d = state[S_SSCRATCH:S_SSCRATCH + 8]
    out_l = state[S_SSCRATCH + 8:S_SSCRATCH + 16]
    out_f = state[S_SSCRATCH + 16:S_SSCRATCH + 24]
    v = 0.0
    for half in range(2):
        action = cfg[O.card_day + card] if half == 0 else cfg[O.card_night + card]
        die = day_die if half == 0 else night_die
        if action == A_FWD or action == A_BACK:
            cur = lap * 64 + MOVES_MADE[pos]
            n = walk(state, cfg, seat, pos, lap, die, action == A_BACK, out_d, out_l, out_f)
            best = -1e18
            bi = 0
            bf = food
            bg = gold
            for i in range(n):
                dv, f2, g2 = dest_value(state, cfg, seat, cur, out_d[i], out_l[i], out_f[i], food, gold, w)
                if dv > best:
                    best = dv
                    bi = i
                    bf = f2
                    bg = g2
            v += best
            if out_f[bi]:
                return v
            pos = out_d[bi]
            lap = out_l[bi]
            food = bf
            gold = bg
        else:
            gain = 0.0
            if action == A_GOLD:
                gain = w[W_GOLD] * die
                gold += die
            elif action == A_FOOD:
                gain = w[W_FOOD] * min(die, max(0.0, w[FOOD_TARGET] - food)) + 0.05 * die
                food += die
            elif action == A_CANNON:
                gain = w[W_CANNON] * min(die, max(0.0, w[CANNON_TARGET] - cannons))
                cannons += die
            if free == 0:
                gain -= 0.5 * w[W_GOLD] * 2.0 + 0.5   # something must go overboard
            else:
                free -= 1
            v += gain
    return v


@njit(cache=True)
def best_card(state, cfg, seat, day_die, night_die, w):
    b = base_of(seat)
    best = -1e18
    for i in range(state[b + B_HAND_N]):
        v = card_value(state, cfg, seat, state[b + B_HAND + i], day_die, night_die, w)
        if v > best:
            best = v
    return best


@njit(cache=True)
def hold_worth(state, seat, h, w):
    """What a hold's contents are worth to its owner (to pick one to dump or to plunder)."""
    b = base_of(seat)
    r = state[b + B_HTYPE + h]
    c = state[b + B_HN + h]
    if r == R_GOLD:
        return 1.0 * c
    if r == R_FOOD:
        return 0.4 * c
    if r == R_CANNON:
        return 0.15 * c + 0.1 * c * w[W_CANNON]
    return 0.0


@njit(cache=True)
def card_worth(state, cfg, holder, card):
    """Rough worth of a treasure card (powers by use, values by points)."""
    if card == T_MAP:
        return 2.0
    if card == T_SABRE:
        return 2.0
    if card == T_BETH:
        return 3.0
    if card == T_HOLD6:
        b = base_of(holder)
        r = state[b + B_HTYPE + 5]
        c = state[b + B_HN + 5]
        return 2.0 + (c if r == R_GOLD else 0.4 * c)
    return float(cfg[O.treasure_values + card])


@njit(cache=True)
def blind_worth(state, cfg):
    """Mean value of the value cards not seen face up (a blind steal)."""
    t = 0.0
    n = 0
    for k in range(T_HOLD6 + 1, 12):
        t += cfg[O.treasure_values + k]
        n += 1
    return t / n


# ---------------------------------------------------------------- one decision routine per kind
@njit(cache=True)
def decide_with(state, cfg, seat, legal, n_legal, w, style, rng):
    kind = state[S_DEC]
    if kind == DEC_CARD:
        best = 0
        bv = -1e18
        for i in range(n_legal):
            v = card_value(state, cfg, seat, legal[i], state[S_DAY], state[S_NIGHT], w)
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_DICE:
        best = 0
        bv = -1e18
        for i in range(n_legal):
            v = best_card(state, cfg, seat, legal[i] // 8, legal[i] % 8, w)
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_MOVE:
        cur = made(state, seat)
        food = amount(state, seat, R_FOOD)
        gold = amount(state, seat, R_GOLD)
        best = 0
        bv = -1e18
        for i in range(n_legal):
            v, f2, g2 = dest_value(state, cfg, seat, cur, legal[i] % BACKWARD_FLAG, state[S_TGT_LAP + i],
                                   state[S_TGT_DONE + i], food, gold, w)
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_RETREAT:
        best = 0
        bv = -1e18
        for i in range(n_legal):
            d = legal[i]
            v = MOVES_MADE[d] + (w[W_LAIR] if state[S_TOKEN + d] else 0.0)
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_HOLD:
        ship = state[S_DEC_SHIP]
        best = 0
        bv = 1e18
        for i in range(n_legal):
            h = legal[i]
            v = hold_worth(state, ship, h, w)
            if style == STYLE_HOARDER and state[base_of(ship) + B_HTYPE + h] == R_GOLD:
                v += 100.0
            if h == 5:
                v += 0.25   # the 6th hold goes with its card when stolen
            if v < bv:
                bv = v
                best = i
        return best
    if kind == DEC_PAY:
        return 0
    if kind == DEC_TARGET:
        best = 0
        bv = -1e18
        for i in range(n_legal):
            q = legal[i]
            v = amount(state, q, R_GOLD) - 0.5 * amount(state, q, R_CANNON) + 1.5 * state[X_TCOUNT + q]
            if q == seat:
                v = -1e9
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_CANNONS:
        have = n_legal - 1
        beth = cfg[O.beth_bonus] if state[S_TOWNER + T_BETH] == seat else 0
        if state[S_DEC_B] == 0:   # attacking
            c = int(ATTACK_SHARE[style] * have + 0.5)
            return min(c, have)
        need = state[S_DEC_C] - beth - 5   # to beat the attacker with an average roll
        if need <= 0:
            return 0
        if need > have:
            return have if style == STYLE_FIGHTER else 0
        if style == STYLE_RACER and need > 3:
            return 0
        return need
    if kind == DEC_SABRE:
        rolled = state[S_DEC_A]
        face = state[S_DEC_B]
        if rolled == seat:
            return 1 if face != STAR and face <= 4 else 0
        return 1 if face == STAR or face >= 8 else 0
    if kind == DEC_LOOT:
        loser = state[S_DEC_A]
        winner = state[S_DEC_SHIP]
        best = 0
        bv = -1e18
        for i in range(n_legal):
            code = legal[i]
            if code == LOOT_NONE:
                v = 0.0
            elif code >= LOOT_GIVE:
                v = -1.5 * cfg[O.treasure_values + code - LOOT_GIVE]
            elif code >= LOOT_BLIND:
                v = blind_worth(state, cfg) + (1.0 if style == STYLE_HOARDER or style == STYLE_FIGHTER else 0.0)
            elif code >= LOOT_CARD:
                v = card_worth(state, cfg, loser, code - LOOT_CARD)
                if style != STYLE_RACER:
                    v += 0.5
            else:
                h = code - LOOT_HOLD
                r = state[base_of(loser) + B_HTYPE + h]
                v = hold_worth(state, loser, h, w)
                if winner == seat and free_holds(state, cfg, seat) == 0:
                    v -= 1.0
                if style == STYLE_RACER and r == R_FOOD:
                    v += 0.5 * state[base_of(loser) + B_HN + h]
                if style == STYLE_HOARDER and r == R_GOLD:
                    v += 1.0
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DEC_GHOST:
        opp = 1 - seat
        op = state[base_of(opp) + B_POS]
        mine = state[base_of(seat) + B_POS]
        opp_prog = made(state, opp)
        best = 0
        bv = -1e18
        for i in range(n_legal):
            d = legal[i] % BACKWARD_FLAG
            v = -0.2 * abs(state[S_TGT_LAP + i] * 64 + MOVES_MADE[d] - opp_prog)
            if d != 0 and d == op:
                v += 10.0
            if d != 0 and d == mine:
                v -= 10.0
            if state[S_TOKEN + d]:
                v += 1.0
            if v > bv:
                bv = v
                best = i
        return best
    return randint(rng, n_legal)


# ---------------------------------------------------------------- the registered heuristics
# Weights are passed as a tuple (no allocation per decision); order W_PROG .. CANNON_TARGET.

RACER_PARAMS = (
    StrategyParam("food_reserve", 8.0, "food it loads up to before food stops paying", 0, 30, integer=True),
    StrategyParam("progress", 3.0, "weight of one space of race progress", 0, 20))


@strategy("jamaica", "racer",
          "progress first: keeps a food reserve, short channels when affordable, avoids battles, loots food and gold",
          RACER_PARAMS, lean=True)
def racer(state, cfg, seat, legal, n_legal, params, rng):
    w = (params[1], 0.6, 1.2, 0.0, 1.0, -2.0, params[0], 0.0)
    return decide_with(state, cfg, seat, legal, n_legal, w, STYLE_RACER, rng)


HOARDER_PARAMS = (
    StrategyParam("gold", 1.5, "weight of one doubloon loaded or kept", 0, 20),
    StrategyParam("lair", 4.0, "bonus for ending on a lair that still has its treasure", 0, 50))


@strategy("jamaica", "hoarder",
          "gold and treasure first: loads doubloons, detours to lairs, avoids ports, never dumps gold, loots gold",
          HOARDER_PARAMS, lean=True)
def hoarder(state, cfg, seat, legal, n_legal, params, rng):
    w = (1.2, params[0], 1.0, 0.2, params[1], -1.0, 6.0, 2.0)
    return decide_with(state, cfg, seat, legal, n_legal, w, STYLE_HOARDER, rng)


FIGHTER_PARAMS = (
    StrategyParam("cannon_stock", 8.0, "cannons it loads up to", 0, 40, integer=True, search=(0, 20)),
    StrategyParam("hunt", 4.0, "bonus for ending a move on another ship", -20, 50))


@strategy("jamaica", "fighter",
          "arms and hunts: keeps a cannon stock, steers onto other ships, commits all its cannons, loots treasure",
          FIGHTER_PARAMS, lean=True)
def fighter(state, cfg, seat, legal, n_legal, params, rng):
    w = (1.5, 0.8, 1.0, 1.2, 1.5, params[1], 6.0, params[0])
    return decide_with(state, cfg, seat, legal, n_legal, w, STYLE_FIGHTER, rng)


BALANCED_PARAMS = (
    StrategyParam("progress", 2.0, "weight of one space of race progress", 0, 20),
    StrategyParam("gold", 1.0, "weight of one doubloon loaded (spending one costs the same)", 0, 20),
    StrategyParam("food", 1.0, "weight of one food loaded below the reserve", 0, 20),
    StrategyParam("cannon", 0.5, "weight of one cannon loaded below the stock", 0, 20),
    StrategyParam("lair", 2.0, "bonus for ending on a lair with its treasure", 0, 50),
    StrategyParam("fight", 0.0, "bonus (or malus) for ending a move on another ship", -50, 50),
    StrategyParam("food_reserve", 7.0, "food it loads up to", 0, 30, integer=True),
    StrategyParam("cannon_stock", 4.0, "cannons it loads up to", 0, 40, integer=True, search=(0, 20)))


@strategy("jamaica", "balanced",
          "the shared look-ahead evaluator with every weight tunable (for sweeps); commits half its cannons attacking",
          BALANCED_PARAMS, lean=True)
def balanced(state, cfg, seat, legal, n_legal, params, rng):
    w = (params[0], params[1], params[2], params[3], params[4], params[5], params[6], params[7])
    return decide_with(state, cfg, seat, legal, n_legal, w, STYLE_BALANCED, rng)


# ---------------------------------------------------------------- search players (simlab.search.players)
@njit(ROLLOUT_SIGNATURE, cache=True, _nrt=False)   # lean, as the heuristics it calls are (simlab.core.play.lean)
def rollout(state, cfg, seat, legal, n_legal, heuristic, params, rng):
    """Jamaica's play-out policy for the search (the model's ``rollout``): 0 uniform random, 1 racer,
    2 hoarder, 3 fighter, 4 balanced, with ``params`` (the search's table: defaults or a tuned set).
    It lives here, beside the heuristics it calls, because the game's modules never import
    strategies. The heuristics write their scratch into the play-out's own state (S_STACK,
    S_SSCRATCH: nothing reads them later)."""
    if heuristic == 1:
        return racer(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 2:
        return hoarder(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 3:
        return fighter(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 4:
        return balanced(state, cfg, seat, legal, n_legal, params, rng)
    return randint(rng, n_legal)


declare_play_out("jamaica", rollout, ("racer", "hoarder", "fighter", "balanced"))
