"""End of the game, steps 2-4: curse elimination, healers, treasure value (books, jewels, crowns,
skulls, start tile) and the healer fee (and, under the reading ``crown_ranking`` = after_fee, the
crown places ranked again without the players the fee eliminated)."""
import numpy as np
from numba import njit

from simlab.core.play import lean
from simlab.core.program import F_LABEL, F_LOCAL
from simlab.core.scratch import stack_scratch

from .board import EV_CROWNS, EV_ELIM, EV_HEALER, log_ev, n_actors, set_ctx
from .program import ask, ret
from .components import CROWNS_AFTER_FEE, N_TREASURE, O, T_BOOK, T_CROWN, T_JEWEL, T_SKULL
from .state import (B_CROSSES, B_CURSES, B_ELIM, B_FEE, B_GOLD, B_GROSS, B_HEALER, B_NET, D_HEALER, ELIM_CURSES,
                    ELIM_FEE, ELIM_NONE, MAX_ACTORS, P0, PB, PH_END, S_HEALER_OWNER, S_HEALERS, S_PHASE, S_PLAYERS,
                    S_START, S_TLOC, S_TURN, T_KEPT, X_CHOICE)


@lean
def _sort_desc(a, n):
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] < x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@lean
def book_value(cfg, ids, n):
    """Best pairing of books with other treasures' curse numbers (each used once, no book-book): both
    sorted high to low, paired rank by rank. Its lists are scratch on its stack: the search's
    play-outs score a held set at every treasure taken."""
    mult = stack_scratch(N_TREASURE)
    curse = stack_scratch(N_TREASURE)
    nb = 0
    nc = 0
    for j in range(n):
        t = ids[j]
        if cfg[O.treasure_type + t] == T_BOOK:
            mult[nb] = cfg[O.treasure_book + t]
            nb += 1
        else:
            curse[nc] = cfg[O.treasure_curse + t]
            nc += 1
    if nb == 0 or nc == 0:
        return 0
    _sort_desc(mult, nb)
    _sort_desc(curse, nc)
    total = 0
    for j in range(min(nb, nc)):
        total += mult[j] * curse[j]
    return total


@lean
def jewel_bonus(cfg, k):
    """Best split of ``k`` jewels into sets of 2 and 3."""
    best = 0
    for t3 in range(k // 3 + 1):
        rest = k - 3 * t3
        for t2 in range(rest // 2 + 1):
            v = t3 * cfg[O.jewel_bonus + 1] + t2 * cfg[O.jewel_bonus]
            if v > best:
                best = v
    return best


@lean
def skull_bonus(cfg, k1, k2, k3, others):
    """Best split of skulls of three kinds into sets of distinct kinds, times other types owned."""
    b1 = cfg[O.skull_bonus]
    b2 = cfg[O.skull_bonus + 1]
    b3 = cfg[O.skull_bonus + 2]
    best = 0
    for s3 in range(min(k1, min(k2, k3)) + 1):
        r1 = k1 - s3
        r2 = k2 - s3
        r3 = k3 - s3
        for s12 in range(min(r1, r2) + 1):
            for s13 in range(min(r1 - s12, r3) + 1):
                for s23 in range(min(r2 - s12, r3 - s13) + 1):
                    singles = (r1 - s12 - s13) + (r2 - s12 - s23) + (r3 - s13 - s23)
                    v = s3 * b3 + (s12 + s13 + s23) * b2 + singles * b1
                    if v > best:
                        best = v
    return best * others


@lean
def treasure_value(cfg, ids, n, parts):
    """Gold of a set of kept treasures, without crown places and start tile.

    ``parts[0..5]`` receive gold by type (amulet, money, book, jewel, crown base, skull). Counts in
    scalars, not arrays of its own: the search's play-outs score a held set at every treasure taken."""
    jewels = skulls = kind1 = kind2 = kind3 = 0
    owned = 0   # bit ty: a treasure of type ty (amulet to crown) is in the set
    for j in range(6):
        parts[j] = 0
    for j in range(n):
        t = ids[j]
        ty = cfg[O.treasure_type + t]
        parts[ty] += cfg[O.treasure_gold + t]
        if ty == T_SKULL:
            skulls += 1
            kind = cfg[O.treasure_skull + t]
            kind1 += kind == 1
            kind2 += kind == 2
            kind3 += kind == 3
        else:
            owned |= 1 << ty
            jewels += ty == T_JEWEL
    parts[T_BOOK] += book_value(cfg, ids, n)
    parts[T_JEWEL] += jewel_bonus(cfg, jewels)
    if skulls > 0:
        others = 0
        for ty in range(T_SKULL):
            others += (owned >> ty) & 1
        parts[T_SKULL] += skull_bonus(cfg, kind1, kind2, kind3, others)
    total = 0
    for j in range(6):
        total += parts[j]
    return total


@lean
def crown_prizes(cfg, crosses, active, n, prize):
    """Crown places among the ``active`` entries: ties share the places' prizes, rounded down;
    0 crosses get nothing."""
    for j in range(n):
        prize[j] = 0
    for j in range(n):
        if not active[j] or crosses[j] <= 0:
            continue
        better = 0
        tied = 0
        for q in range(n):
            if not active[q]:
                continue
            if crosses[q] > crosses[j]:
                better += 1
            elif crosses[q] == crosses[j]:
                tied += 1
        s = 0
        for place in range(better, better + tied):
            if place < 6:
                s += cfg[O.crown_prizes + place]
        prize[j] = s // tied


@lean
def healer_fee(cfg, h, cubes):
    return cfg[O.healer_per_cube + h] * cubes + cfg[O.healer_fixed + h]


@lean
def kept_ids(state, a, ids):
    n = 0
    for t in range(N_TREASURE):
        if state[S_TLOC + t] == T_KEPT + a:
            ids[n] = t
            n += 1
    return n


@lean
def cheapest_healer(cfg, legal, k, cubes):
    """The first of ``legal[:k]`` with the lowest fee for ``cubes`` curse cubes."""
    best = legal[0]
    for i in range(1, k):
        if healer_fee(cfg, legal[i], cubes) < healer_fee(cfg, best, cubes):
            best = legal[i]
    return best


@lean
def eliminate(state, cfg, log):
    """End step 2: players with too many curse cubes are out."""
    state[S_PHASE] = PH_END
    for p in range(state[S_PLAYERS]):
        base = P0 + p * PB
        if state[base + B_CURSES] >= cfg[O.curse_threshold]:
            state[base + B_ELIM] = ELIM_CURSES
            log_ev(state, log, EV_ELIM, p, ELIM_CURSES, state[base + B_CURSES])


@lean
def healer_taker(state, j):
    """The ``j``-th player to take a healer (fewest cubes first, ties by nearness to the start player
    clockwise; players still in with cubes only), or -1 when fewer take one."""
    n = state[S_PLAYERS]
    start = state[S_START]
    order = stack_scratch(MAX_ACTORS)
    m = 0
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_ELIM] == ELIM_NONE and state[base + B_CURSES] > 0:
            order[m] = state[base + B_CURSES] * 16 + (p - start + n) % n
            m += 1
    if j >= m:
        return -1
    _sort_desc(order, m)   # the keys differ (their offsets do): the j-th lowest is the j-th from the end
    return (order[m - 1 - j] % 16 + start) % n


@lean
def healer_choices(state, out):
    """D_HEALER: the dealt healers nobody has taken yet."""
    k = 0
    for i in range(state[S_PLAYERS]):
        if state[S_HEALER_OWNER + i] < 0:
            out[k] = state[S_HEALERS + i]
            k += 1
    return k


@lean
def take_healer(state, cfg, log, p, h):
    for i in range(state[S_PLAYERS]):
        if state[S_HEALERS + i] == h:
            state[S_HEALER_OWNER + i] = p
    state[P0 + p * PB + B_HEALER] = h
    fee = healer_fee(cfg, h, state[P0 + p * PB + B_CURSES])
    state[P0 + p * PB + B_FEE] = fee
    log_ev(state, log, EV_HEALER, p, h, fee, state[P0 + p * PB + B_CURSES])


@lean
def scoring_step(state, cfg, streams, log, f):
    """Procedure PR_SCORING, end steps 2-4: curse elimination, each player's healer (D_HEALER), treasure
    value, fee (elimination below 0). Local: healers taken."""
    if state[f + F_LABEL] == 0:
        eliminate(state, cfg, log)
    else:
        take_healer(state, cfg, log, state[S_TURN], state[X_CHOICE])
        state[f + F_LOCAL] += 1
    p = healer_taker(state, state[f + F_LOCAL])
    if p >= 0:
        set_ctx(state, 0)
        ask(state, f, 1, p, D_HEALER)
        return
    score_treasures(state, cfg, log)
    ret(state)


@njit(cache=True, _nrt=True)   # works in arrays of its own: counted even when a lean loop calls it
def final_scoring_by_fee(state, cfg, log):
    """The end steps with each player taking the cheapest healer left (what the built-in strategies
    choose), for standings scored on a copy mid-game without asking anyone."""
    eliminate(state, cfg, log)
    legal = np.empty(5, dtype=np.int32)
    j = 0
    while True:
        p = healer_taker(state, j)
        if p < 0:
            break
        k = healer_choices(state, legal)
        take_healer(state, cfg, log, p, cheapest_healer(cfg, legal, k, state[P0 + p * PB + B_CURSES]))
        j += 1
    score_treasures(state, cfg, log)


@lean
def score_treasures(state, cfg, log):
    """End steps 3-4: crown places, treasure values, the start tile, the fee. Its work arrays are
    scratch on its stack: every play-out of the search ends here."""
    n = state[S_PLAYERS]
    # crowns: every player still in (and Allen)
    na = n_actors(state)
    crosses = stack_scratch(MAX_ACTORS)
    active = stack_scratch(MAX_ACTORS)
    prize = stack_scratch(MAX_ACTORS)
    for a in range(MAX_ACTORS):
        crosses[a] = 0
        active[a] = 0
        prize[a] = 0
    for a in range(na):
        crosses[a] = state[P0 + a * PB + B_CROSSES]
        active[a] = 1 if state[P0 + a * PB + B_ELIM] == ELIM_NONE else 0
    crown_prizes(cfg, crosses, active, na, prize)
    log_ev(state, log, EV_CROWNS, crosses[0], crosses[1], crosses[2], crosses[3], crosses[4], prize[0], prize[1])
    ids = stack_scratch(N_TREASURE)
    parts = stack_scratch(6)
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_ELIM] != ELIM_NONE:
            continue
        k = kept_ids(state, p, ids)
        treasure_value(cfg, ids, k, parts)
        parts[T_CROWN] += prize[p]
        total = 0
        for j in range(6):
            state[base + B_GOLD + j] = parts[j]
            total += parts[j]
        st = cfg[O.start_tile_bonus] if state[S_START] == p else 0
        state[base + B_GOLD + 6] = st
        total += st
        state[base + B_GROSS] = total
        state[base + B_NET] = total - state[base + B_FEE]
        if state[base + B_NET] < 0:
            state[base + B_ELIM] = ELIM_FEE
            log_ev(state, log, EV_ELIM, p, ELIM_FEE, state[base + B_NET])
    if cfg[O.crown_ranking] == CROWNS_AFTER_FEE:
        rerank_crowns(state, cfg, crosses, active, prize)


@lean
def rerank_crowns(state, cfg, crosses, active, prize):
    """Reading ``crown_ranking`` = after_fee: the crown places are given again among the players the
    healer fee left in. Prizes never rise with the place (``check``), so removing a player never
    lowers anyone's prize and one re-ranking cannot eliminate anybody else."""
    n = state[S_PLAYERS]
    out = False
    for p in range(n):
        if state[P0 + p * PB + B_ELIM] == ELIM_FEE:
            active[p] = 0
            out = True
    if not out:
        return
    before = stack_scratch(MAX_ACTORS)
    for a in range(MAX_ACTORS):
        before[a] = prize[a]
    crown_prizes(cfg, crosses, active, n_actors(state), prize)
    for p in range(n):
        base = P0 + p * PB
        if state[base + B_ELIM] == ELIM_NONE:
            gain = prize[p] - before[p]
            state[base + B_GOLD + T_CROWN] += gain
            state[base + B_GROSS] += gain
            state[base + B_NET] += gain
