"""Loot Island strategies: uniform random, and three heuristics built differently.

* ``cautious``  keeps curses low: discards any treasure that would push it past its curse cap
  (``cap``, the risk appetite), values every cube it can shed, passes early for the start tile,
  joins a landing only near the bottom of its compass stack, and never draws A1's cursed cards.
* ``hunter``    a greedy treasure hunter: ranks treasures by gold per curse cube, keeps almost all,
  pushes landings on the explored coast to the loot count with chests and +1 cards, and uses
  Allen's cards whenever they complete a loot it shares in.
* ``collector`` a crown and set collector: values crosses (crown places) and jewel/skull/book set
  completion, plants compasses early on coming coasts to be first in their stacks, and plays
  Allen's cards only to deny his crowns or to reach loot it is first in.

All read only public information: a strategy receives its seat's observation, in which the hands of
others and face-down cards are hidden (face-down healers and events are read only under their
face-up variants). The face-up variants inform all
three heuristics: face-up healers set the price of a curse cube (``cube_rate``); face-up events
(shown at setup, their order hidden) tell which coast the ship may explore when, which sets the worth
of a compass planted early (``plant_value``). Choice codes are those of
``simlab.games.loot_island.state``.

* ``rollout`` and ``mcts``: the search players (``simlab.search.players``) through the game's step functions.
"""
from dataclasses import replace

from numba import njit

from simlab.core.bits import popcount
from simlab.core.rng import randint
from simlab.core.scratch import stack_scratch
from simlab.core.model import ROLLOUT_SIGNATURE, declare_play_out
from simlab.core.strategy import StrategyParam, strategy
from simlab.games.loot_island.components import (EV_B1, EV_B2, EV_B4, EV_B8, EV_B12, EV_B14, HM_CHEST, HM_DISCARD,
                                                 HM_DOUBLE, HM_ONE, I_BOTTOM, I_DISCARD, I_DRAW2, I_MOVE, I_SHIP,
                                                 I_TREASURE, N_TREASURE, O, SYM_CHEST, SYM_DISCARD, SYM_DOUBLE,
                                                 SYM_DRAW, T_AMULET, T_BOOK, T_CROWN, T_JEWEL, T_SKULL)
from simlab.games.loot_island.rules import (kept_ids, card_symbol, card_value, cards_needed, compass_pos,
                                            current_coast, event_now, fitting, healer_fee, last_is_one, near_landing,
                                            treasure_value)
from simlab.games.loot_island.state import (B_CURSES, B_PASSED, B_SUPPLY, B_TYPES, D_A1, D_A2, D_ACTION, D_B4, D_CARD,
                                            D_COPY, D_DISCARD, D_DO, D_HEALER, D_KEEP, D_PAY, D_PICK, D_SOURCE,
                                            D_TARGET, ISLET_ALLEN, ISLET_OWN, L0, L_CHESTS, L_COUNT, L_NCOMP, LB, P0,
                                            PASS, PB, PLAY_ALLEN, PLAY_OWN, S_ALLEN, S_DCTX, S_DKIND, S_EVENT_SEQ,
                                            S_FACING, S_FIRST_PASSED, S_HEALERS, S_PLAYERS, S_ROUND, S_STAGE,
                                            S_STAGE_N, SKIP, STOP, SUPPLY)

STYLE_CAUTIOUS, STYLE_HUNTER, STYLE_COLLECTOR = 0, 1, 2


@strategy("loot-island", "random", "uniform random legal choice at every decision", uniform=True)
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


# ---------------------------------------------------------------------------------------------------
# shared evaluation helpers
# ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def curses(state, seat):
    return state[P0 + seat * PB + B_CURSES]


@njit(cache=True)
def cube_cost(state, cfg, seat, k, w, per_cube):
    """Gold-equivalent cost of taking ``k`` more cubes: the healer's rate, a steep price past the
    cap ``w[0]``, and 60 gold for reaching the elimination threshold unless ``w[8]`` (heed_threshold) is 0."""
    now = curses(state, seat)
    after = now + k
    cap = w[0]
    cost = per_cube * k
    if after > cap:
        over = after - max(now, cap)
        cost += 6.0 * over
    if w[8] > 0 and after >= cfg[O.curse_threshold]:
        cost += 60.0
    return cost


@njit(cache=True)
def gain_of(state, cfg, seat, t, crown_w, set_w):
    """Marginal gold of keeping ``t`` (scored with the real rules) plus crown and set potential. Its
    treasure lists are scratch on its own stack: it runs at every treasure a play-out takes."""
    ids = stack_scratch(N_TREASURE)
    parts = stack_scratch(6)
    n = kept_ids(state, seat, ids)
    before = treasure_value(cfg, ids, n, parts)
    ids[n] = t
    after = treasure_value(cfg, ids, n + 1, parts)
    g = float(after - before)
    ty = cfg[O.treasure_type + t]
    base = P0 + seat * PB
    if ty == T_CROWN:
        g += crown_w * cfg[O.treasure_crosses + t]
    elif ty == T_JEWEL:
        k = state[base + B_TYPES + T_JEWEL]
        if k % 3 == 0:
            g += set_w * 3.0
    elif ty == T_SKULL:
        g += set_w * 1.0
    elif ty == T_BOOK and g == 0:
        g += set_w * 1.5 * cfg[O.treasure_book + t]
    elif ty == T_AMULET:
        g += 1.0
    return g


@njit(cache=True)
def cube_rate(state, cfg, w):
    """Gold per cube: the strategy's own estimate, blended with the dealt healers' mean per-cube
    rate when they lie face up (healer variant 1; otherwise they are hidden)."""
    if not cfg[O.healers_face_up]:
        return w[1]
    total = 0.0
    k = 0
    for i in range(state[S_PLAYERS]):
        h = state[S_HEALERS + i]
        if h >= 0:
            total += cfg[O.healer_per_cube + h]
            k += 1
    return 0.5 * w[1] + 0.5 * (total / k if k > 0 else w[1])


@njit(cache=True)
def keep_and_drop(state, cfg, seat, t, w):
    """(value of keeping, value of discarding) treasure ``t`` under weights ``w``."""
    cap = w[0]
    per_cube = cube_rate(state, cfg, w)
    keep = gain_of(state, cfg, seat, t, w[2], w[3])
    curse = cfg[O.treasure_curse + t]
    crossed = cfg[O.treasure_crossed + t]
    net = curse - crossed
    if net > 0:
        keep -= cube_cost(state, cfg, seat, net, w, per_cube)
    elif net < 0:
        keep += per_cube * min(-net, curses(state, seat) + curse)
    can = cfg[O.treasure_discard_cubes] + cfg[O.amulet_cubes] * state[P0 + seat * PB + B_TYPES + T_AMULET]
    drop = per_cube * min(can, curses(state, seat))
    if curses(state, seat) > cap:
        drop += 2.0 * min(can, curses(state, seat) - cap)
    return keep, drop


@njit(cache=True)
def explore_delay(state, cfg, landing):
    """Rounds until ``landing``'s coast is explored (0 this round); 9 = only the final exploration."""
    coast = landing // 2
    cur = current_coast(state)
    d = ((coast - cur) * state[S_FACING]) % 4
    if d == 1 and event_now(state, cfg) == EV_B14:
        return 0
    if d <= cfg[O.rounds] - state[S_ROUND]:
        return d
    return 9


@njit(cache=True)
def share(revealed, pos, n):
    """Treasures the compass at ``pos`` (0 = bottom) gets when ``revealed`` go round ``n`` compasses."""
    if n <= 0 or revealed <= pos:
        return 0
    return 1 + (revealed - pos - 1) // n


@njit(cache=True)
def active_others(state, seat):
    """Players other than ``seat`` who have not passed (Allen's cards count as one more hand)."""
    k = 0
    for q in range(state[S_PLAYERS]):
        if q != seat and state[P0 + q * PB + B_PASSED] == 0:
            k += 1
    return k + state[S_ALLEN]


@njit(cache=True)
def qualify_chance(state, cfg, seat, count):
    """Rough chance that a landing on the explored coast reaches the loot count this round."""
    need = cards_needed(cfg, state[S_PLAYERS])
    if count >= need:
        return 1.0
    expected = count + 0.9 * active_others(state, seat)
    if expected >= need:
        return 0.45
    return 0.1 * count / need


@njit(cache=True)
def landing_picks(state, cfg, landing, seat, add_count, add_chests, joiner, extra_comp):
    """Picks ``seat`` expects at ``landing`` explored now after ``joiner`` adds cards (big or small
    loot), weighted by the chance that the landing reaches the loot count."""
    base = L0 + landing * LB
    need = cards_needed(cfg, state[S_PLAYERS])
    cnt = state[base + L_COUNT] + add_count
    chance = qualify_chance(state, cfg, seat, cnt)
    if chance <= 0.0:
        return 0.0
    nc = state[base + L_NCOMP]
    pos = compass_pos(state, landing, seat)
    n = nc + extra_comp
    if pos < 0:
        if seat != joiner:
            return 0.0
        pos = nc
    other = state[L0 + (landing ^ 1) * LB + L_COUNT]
    eff = max(cnt, need)
    near = near_landing(state, landing // 2) == landing
    big = eff > other or (eff == other and near)
    if event_now(state, cfg) == EV_B12 and other >= need:
        big = eff < other or (eff == other and near)
    revealed = state[base + L_CHESTS] + add_chests + (n if big else 0)
    return chance * share(revealed, pos, n)


@njit(cache=True)
def next_event_chance(state, cfg, e):
    """Chance that next round's event is ``e``. Only the events-face-up variant shows the B events (at
    setup, then shuffled, so their order stays hidden): each one not revealed yet is as likely as any
    other to come next. 0 when the events are face down."""
    if not cfg[O.events_face_up]:
        return 0.0
    k = 0
    hit = 0
    for j in range(state[S_ROUND], 5):  # the event slots of the rounds after this one
        ev = state[S_EVENT_SEQ + j]
        if ev >= 0:
            k += 1
            if ev == e:
                hit += 1
    return hit / k if k > 0 else 0.0


@njit(cache=True)
def compass_worth(vt, k, nc, delay):
    """A new compass at a landing whose coast is explored in ``delay`` rounds (9: only at the final
    exploration, as a small loot): a share ``k`` of a pick, split with the ``nc`` compasses there."""
    if delay < 9:
        return vt * k / (1.0 + nc) / (1.0 + 0.5 * delay)
    return vt * 0.2 / (1.0 + nc) if nc < 2 else 0.0


@njit(cache=True)
def plant_value(state, cfg, landing, vt, k, nc, delay):
    """``compass_worth`` of a new compass at ``landing``, explored in ``delay`` rounds as the ship sails.
    Under events-face-up it is averaged over the events that may come next: B1 sails past the next
    coast, B2 turns back to the coast just explored (the others then come in reverse order), B14 also
    explores the coast after the next one."""
    worth = compass_worth(vt, k, nc, delay)
    if not cfg[O.events_face_up]:
        return worth
    left = cfg[O.rounds] - state[S_ROUND]
    d = ((landing // 2 - current_coast(state)) * state[S_FACING]) % 4
    p1 = next_event_chance(state, cfg, EV_B1)
    p2 = next_event_chance(state, cfg, EV_B2)
    p14 = next_event_chance(state, cfg, EV_B14)
    b1 = d - 1 if d >= 2 else 4
    b2 = 5 - d
    b14 = 1 if d == 2 else d
    total = (1.0 - p1 - p2 - p14) * worth
    total += p1 * compass_worth(vt, k, nc, b1 if b1 <= left else 9)
    total += p2 * compass_worth(vt, k, nc, b2 if b2 <= left else 9)
    total += p14 * compass_worth(vt, k, nc, b14 if b14 <= left else 9)
    return total


@njit(cache=True)
def hand_scan(state, cfg, owner, landing, colour):
    """Eligible cards of ``colour`` in ``owner``'s hand for ``landing``: (cards, loot count (doubles
    count 2), chests, plain 1s that would curse everybody, discard symbols), from the bits of the
    ``fitting`` cards and the ``hand_masks``."""
    fit = fitting(state, cfg, owner, landing, colour)   # (the owner is the seat or Allen: in sight)
    masks = O.hand_masks
    cards = popcount(fit)
    ones = popcount(fit & cfg[masks + HM_ONE]) if last_is_one(state, cfg, landing) else 0
    return (cards, cards + popcount(fit & cfg[masks + HM_DOUBLE]), popcount(fit & cfg[masks + HM_CHEST]), ones,
            popcount(fit & cfg[masks + HM_DISCARD]))


@njit(cache=True)
def play_value(state, cfg, seat, code, w, style):
    """Heuristic value of a PLAY code (own cards or Allen's)."""
    allen = code >= PLAY_ALLEN
    if allen and w[6] <= 0:
        return -1e9
    x = (code - PLAY_OWN) % 100
    landing = x // 4
    colour = x % 4
    owner = state[S_PLAYERS] if allen else seat
    cards, loot, chests_held, ones, discards = hand_scan(state, cfg, owner, landing, colour)
    need = cards_needed(cfg, state[S_PLAYERS])
    base = L0 + landing * LB
    cnt = state[base + L_COUNT]
    nc = state[base + L_NCOMP]
    pos = compass_pos(state, landing, seat)
    delay = explore_delay(state, cfg, landing)
    vt = w[4]
    # plan: just enough cards to reach the loot count now, else one card to claim a place
    missing = need - cnt
    if delay == 0 and missing > 0:
        use = min(cards, missing)
        add = min(loot, max(missing, 1))
    else:
        use = 1
        add = 1
    chests = chests_held if (style == STYLE_HUNTER or use >= cards) else 0
    supply = state[P0 + owner * PB + B_SUPPLY]
    if event_now(state, cfg) == EV_B4 and cfg[O.compasses] - supply >= 2:
        supply = 0  # event B4: a new landing means moving a compass off another one
    v = 0.0
    if delay == 0:
        if allen:
            extra = 0 if compass_pos(state, landing, owner) >= 0 else 1
            mine = landing_picks(state, cfg, landing, seat, add, chests, -1, extra)
            had = landing_picks(state, cfg, landing, seat, 0, 0, -1, 0)
            v = (mine - had) * vt
            opp_gain = 0.0
            for q in range(state[S_PLAYERS]):
                if q != seat:
                    opp_gain += landing_picks(state, cfg, landing, q, add, chests, -1, extra) - landing_picks(
                        state, cfg, landing, q, 0, 0, -1, 0)
            v -= opp_gain * vt * 0.8
            v = v * w[6] - 0.1
        else:
            after = landing_picks(state, cfg, landing, seat, add, chests, seat, 1 if pos < 0 else 0)
            before = landing_picks(state, cfg, landing, seat, 0, 0, -1, 0) if pos >= 0 else 0.0
            v = (after - before) * vt - w[5] * use
            if pos < 0 and supply == 0:
                v -= 0.5 * vt  # a compass would have to leave another landing
    elif allen or supply == 0:
        v = -1.0
    elif pos < 0:
        v = plant_value(state, cfg, landing, vt, 0.6 if style == STYLE_COLLECTOR else 0.35, nc, delay) - w[5] * use
    elif delay < 9:
        v = 0.05 * vt - w[5] * use
    else:
        v = -w[5] * use
    if ones > 0 and cards == ones:
        v -= cube_cost(state, cfg, seat, 1, w, w[1])
    if discards > 0 and (pos >= 0 or not allen) and curses(state, seat) > 0:
        v += 0.5 * w[1]
    return v


@njit(cache=True)
def islet_value(state, cfg, seat, code, w, style):
    allen = code >= ISLET_ALLEN
    i = ((code - ISLET_OWN) % 100) // 4
    action = cfg[O.islet_action + i]
    value = cfg[O.islet_value + i]
    cost = 0.0 if allen else 2.0 * w[5] + 1.0
    v = 0.0
    if action == I_DISCARD:
        if not allen:
            v = w[1] * min(value, curses(state, seat)) * (1.5 if style == STYLE_CAUTIOUS else 1.0)
    elif action == I_TREASURE:
        if allen:
            v = 0.3
        else:
            v = w[4] - cube_cost(state, cfg, seat, value + 1, w, w[1])
    elif action == I_BOTTOM:
        best = 0.0
        owner = state[S_PLAYERS] if allen else seat
        for landing in range(8):
            pos = compass_pos(state, landing, owner)
            if pos > 0 and explore_delay(state, cfg, landing) == 0 and owner == seat:
                p_now = landing_picks(state, cfg, landing, seat, 0, 0, -1, 0)
                if p_now > 0:
                    best = max(best, 0.5 * w[4] * pos / (1.0 + pos))
        v = best
    elif action == I_DRAW2:
        v = 0.0 if allen else 0.8 * value * w[5]
    elif action == I_MOVE or action == I_SHIP:
        v = 0.0
    if allen:  # Allen's cards follow allen_weight like every other use of them; 0 = never
        return v * w[6] if w[6] > 0 else -1e9
    return v - cost


@njit(cache=True)
def pass_value(state, cfg, seat, w, style):
    """Passing: the pass bias, plus the start tile when nobody has passed yet (its +5 only counts if it
    is still held at the end, so it weighs most in the last round) and B8's cubes for the others."""
    v = w[7]
    if state[S_FIRST_PASSED] == 0:
        last = state[S_ROUND] >= cfg[O.rounds]
        v += (0.8 if last else 0.15) * cfg[O.start_tile_bonus] * (1.3 if style == STYLE_CAUTIOUS else 1.0)
        if event_now(state, cfg) == EV_B8:
            v += w[1] * (state[S_PLAYERS] - 1)
    return v


@njit(cache=True)
def choose_action(state, cfg, seat, legal, n_legal, w, style):
    best = 0
    best_v = -1e9
    for i in range(n_legal):
        code = legal[i]
        if code == PASS:
            v = pass_value(state, cfg, seat, w, style)
        elif code < ISLET_OWN:
            v = play_value(state, cfg, seat, code, w, style)
        else:
            v = islet_value(state, cfg, seat, code, w, style)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True)
def card_score(state, cfg, seat, m, landing, allen, style, w):
    s = card_symbol(cfg, m)
    v = card_value(cfg, m)
    score = 1.0
    if s == SYM_DOUBLE:
        score += 2.0
    elif s == SYM_CHEST:
        score += 1.5 if style == STYLE_HUNTER else 0.3
    elif s == SYM_DISCARD:
        score += 0.8 if curses(state, seat) > 0 else 0.0
    elif s == SYM_DRAW:
        score += 0.6
    if v == 1:
        if last_is_one(state, cfg, landing):
            score -= 2.0 + (3.0 if style == STYLE_CAUTIOUS else 0.0)
        else:
            score += 0.5
    elif v == 0:
        score -= 0.5  # keep wilds for later
    else:
        score -= 0.04 * v
    return score


@njit(cache=True)
def choose_card(state, cfg, seat, legal, n_legal, w, style):
    landing = state[S_DCTX]
    allen = state[S_DCTX + 2] == 1
    staged = state[S_STAGE_N]
    need = cards_needed(cfg, state[S_PLAYERS])
    cnt = state[L0 + landing * LB + L_COUNT]
    for j in range(staged):
        cnt += 2 if card_symbol(cfg, state[S_STAGE + j]) == SYM_DOUBLE else 1
    delay = explore_delay(state, cfg, landing)
    stop = -1
    for i in range(n_legal):
        if legal[i] == STOP:
            stop = i
    if stop >= 0:
        if delay != 0 and not allen:
            return stop
        if cnt >= need and not (style == STYLE_HUNTER and compass_pos(state, landing, seat) == 0):
            return stop
    best = -1
    best_v = -1e9
    for i in range(n_legal):
        m = legal[i]
        if m == STOP:
            continue
        v = card_score(state, cfg, seat, m, landing, allen, style, w)
        if cnt >= need:  # extra cards only for chests
            v = 1.0 if card_symbol(cfg, m) == SYM_CHEST else -1.0
        if v > best_v:
            best_v = v
            best = i
    if best < 0 or (best_v < 0 and stop >= 0):
        return stop if stop >= 0 else 0
    return best


@njit(cache=True)
def landing_worth(state, cfg, seat, landing, owner):
    """How much ``owner``'s compass at ``landing`` is worth to ``seat`` (for moving one away)."""
    pos = compass_pos(state, landing, owner)
    if pos < 0:
        return -1.0
    delay = explore_delay(state, cfg, landing)
    p = landing_picks(state, cfg, landing, owner, 0, 0, -1, 0) if delay == 0 else 0.0
    return p * 3.0 + 1.0 / (1.0 + pos) + (1.0 if delay < 9 else 0.0) / (1.0 + delay)


@njit(cache=True)
def decide_all(state, cfg, seat, legal, n_legal, w, style):
    kind = state[S_DKIND]
    if kind == D_ACTION:
        return choose_action(state, cfg, seat, legal, n_legal, w, style)
    if kind == D_CARD:
        return choose_card(state, cfg, seat, legal, n_legal, w, style)
    if kind == D_PICK or kind == D_A2:
        best = 0
        best_v = -1e9
        for i in range(n_legal):
            keep, drop = keep_and_drop(state, cfg, seat, legal[i], w)
            v = keep if kind == D_A2 else max(keep, drop)
            if style == STYLE_HUNTER and kind == D_PICK:
                v = max(keep, drop - 1.0)
            if v > best_v:
                best_v = v
                best = i
        return best
    if kind == D_KEEP:
        t = state[S_DCTX]
        keep, drop = keep_and_drop(state, cfg, seat, t, w)
        if style == STYLE_CAUTIOUS:
            net = cfg[O.treasure_curse + t] - cfg[O.treasure_crossed + t]
            if curses(state, seat) + net > w[0]:
                keep = -1e9
        want = 1 if keep >= drop else 0
        for i in range(n_legal):
            if legal[i] == want:
                return i
        return 0
    if kind == D_A1:
        ok = curses(state, seat) + 2 <= w[0] - 3 and style != STYLE_CAUTIOUS
        for i in range(n_legal):
            if legal[i] == (1 if ok else 0):
                return i
        return 0
    if kind == D_COPY:
        best = 0
        for i in range(n_legal):
            if legal[i] == SYM_DISCARD and curses(state, seat) > 0:
                return i
            if legal[i] == SYM_DRAW:
                best = i
        return best
    if kind == D_HEALER:
        best = 0
        best_v = 1 << 30
        c = curses(state, seat)
        for i in range(n_legal):
            fee = healer_fee(cfg, legal[i], c)
            if fee < best_v:
                best_v = fee
                best = i
        return best
    if kind == D_DISCARD:
        if state[S_DCTX] == 0:  # phase 1: drop plain 1s (curse traps) when cautious, else keep all
            for i in range(n_legal):
                m = legal[i]
                if m != STOP and style == STYLE_CAUTIOUS and card_value(cfg, m) == 1:
                    return i
            for i in range(n_legal):
                if legal[i] == STOP:
                    return i
            return 0
        worst = 0
        worst_v = 1e9
        for i in range(n_legal):
            m = legal[i]
            v = 1.0 + (2.0 if card_symbol(cfg, m) != 0 else 0.0) - (1.0 if card_value(cfg, m) == 1 else 0.0)
            if v < worst_v:
                worst_v = v
                worst = i
        return worst
    if kind == D_PAY:
        worst = 0
        worst_v = 1e9
        for i in range(n_legal):
            m = legal[i]
            v = card_score(state, cfg, seat, m, 0, False, style, w) + (2.0 if card_value(cfg, m) == 0 else 0.0)
            if v < worst_v:
                worst_v = v
                worst = i
        return worst
    if kind == D_SOURCE or kind == D_B4:
        owner = state[S_PLAYERS] if (kind == D_SOURCE and state[S_DCTX + 1] == 1) else seat
        if kind == D_B4:
            owner = state[S_DCTX]
        best = 0
        best_v = 1e9
        for i in range(n_legal):
            if legal[i] == SUPPLY:
                return i
            v = landing_worth(state, cfg, seat, legal[i], owner)
            if v < best_v:
                best_v = v
                best = i
        return best
    if kind == D_TARGET:
        action = state[S_DCTX + 1]
        allen = state[S_DCTX + 2] == 1
        best = -1
        best_v = 0.0
        for i in range(n_legal):
            landing = legal[i]
            if landing == SKIP:
                continue
            if action == I_BOTTOM:
                if allen:
                    continue
                pos = compass_pos(state, landing, seat)
                v = pos * landing_picks(state, cfg, landing, seat, 0, 0, -1, 0)
            else:
                if allen:
                    continue
                v = landing_picks(state, cfg, landing, seat, 0, 0, seat, 1) if explore_delay(
                    state, cfg, landing) == 0 else 0.0
            if v > best_v:
                best_v = v
                best = i
        if best >= 0:
            return best
        for i in range(n_legal):
            if legal[i] == SKIP:
                return i
        return 0
    if kind == D_DO:
        action = state[S_DCTX + 1]
        allen = state[S_DCTX + 2] == 1
        do = False
        if action == I_TREASURE:
            do = allen or w[4] > cube_cost(state, cfg, seat, cfg[O.islet_value + state[S_DCTX]] + 1, w, w[1])
        elif action == I_SHIP:
            cur = current_coast(state)
            nxt = (cur + state[S_FACING]) % 4
            here = landing_picks(state, cfg, 2 * cur, seat, 0, 0, -1, 0) + landing_picks(
                state, cfg, 2 * cur + 1, seat, 0, 0, -1, 0)
            there = landing_picks(state, cfg, 2 * nxt, seat, 0, 0, -1, 0) + landing_picks(
                state, cfg, 2 * nxt + 1, seat, 0, 0, -1, 0)
            do = there > here
        for i in range(n_legal):
            if legal[i] == (1 if do else 0):
                return i
        return 0
    return 0


_COMMON = (   # search: the range simlab tune-strategy explores, a few times each built-in default
    StrategyParam("per_cube", 1.6, "gold a curse cube is worth (healer rate) when keeping or shedding cubes", 0, 20,
                  search=(0, 5)),
    StrategyParam("crown_weight", 2.0, "extra gold per crown cross (hope of a crown place)", 0, 20, search=(0, 8)),
    StrategyParam("set_weight", 1.0, "weight of jewel/skull/book set potential", 0, 20, search=(0, 5)),
    StrategyParam("treasure_gold", 5.0, "gold one treasure pick is expected to bring", 0, 50, search=(0, 15)),
    StrategyParam("card_cost", 0.8, "gold-equivalent of spending one own map card", 0, 20, search=(0, 4)),
    StrategyParam("allen_weight", 1.0, "how readily Allen's cards are played (2 players; 0 = never)", 0, 10,
                  search=(0, 4)),
    StrategyParam("pass_bias", 0.3, "value of passing (higher = passes earlier)", -20, 20, search=(-3, 3)),
)


HEED_THRESHOLD = StrategyParam(
    "heed_threshold", 1.0, "1 = prices a pick that would reach the elimination threshold at 60 gold (never takes "
    "it willingly); 0 = threshold-blind: weighs cubes only by the healer rate and the cap (curse-threshold studies)",
    0, 1, integer=True)


def _params(cap, per_cube, crown, sets, gold, card, allen, pass_bias):
    """cap first, the common weights, and heed_threshold last (appended, so that existing vectors keep their places)."""
    defaults = (per_cube, crown, sets, gold, card, allen, pass_bias)
    return ((StrategyParam("cap", cap, "risk appetite: most curse cubes the player accepts (curse-threshold studies)",
                           0, 40, integer=True, search=(2, 20)),)
            + tuple(replace(p, default=d) for p, d in zip(_COMMON, defaults)) + (HEED_THRESHOLD,))


CAUTIOUS_PARAMS = _params(6.0, 2.0, 1.5, 0.8, 5.0, 0.6, 0.8, 0.0)
HUNTER_PARAMS = _params(11.0, 1.2, 1.5, 0.8, 6.0, 0.6, 1.5, -0.2)
COLLECTOR_PARAMS = _params(9.0, 1.6, 4.0, 2.5, 5.0, 0.8, 0.7, 0.1)


@strategy("loot-island", "cautious",
          "keeps curses low: discards treasures past its curse cap, sheds cubes, passes early, joins low in stacks",
          CAUTIOUS_PARAMS, lean=True)
def cautious(state, cfg, seat, legal, n_legal, params, rng):
    return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_CAUTIOUS)


@strategy("loot-island", "hunter",
          "greedy treasure hunter: keeps most treasure, pushes explored landings to loot with chests, uses Allen freely",
          HUNTER_PARAMS, lean=True)
def hunter(state, cfg, seat, legal, n_legal, params, rng):
    return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_HUNTER)


@strategy("loot-island", "collector",
          "crown and set collector: values crosses and set completion, plants compasses early on coming coasts",
          COLLECTOR_PARAMS, lean=True)
def collector(state, cfg, seat, legal, n_legal, params, rng):
    return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_COLLECTOR)


# ---------------------------------------------------------------------------------------------------
# search players (simlab.search.players)
# ---------------------------------------------------------------------------------------------------

@njit(ROLLOUT_SIGNATURE, cache=True, _nrt=False)   # lean, as the heuristics it calls are (simlab.core.play.lean)
def rollout(state, cfg, seat, legal, n_legal, heuristic, params, rng):
    """Loot Island's play-out policy for the search (the model's ``rollout``): 0 uniform random,
    1 cautious, 2 hunter, 3 collector, with ``params`` (the search's table: defaults or a tuned set,
    such as cautious@tuned). It lives here, beside the heuristics it calls, because the game's modules
    never import strategies."""
    if heuristic == 1:
        return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_CAUTIOUS)
    if heuristic == 2:
        return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_HUNTER)
    if heuristic == 3:
        return decide_all(state, cfg, seat, legal, n_legal, params, STYLE_COLLECTOR)
    return randint(rng, n_legal)


declare_play_out("loot-island", rollout, ("cautious", "hunter", "collector"), "cautious@tuned")
