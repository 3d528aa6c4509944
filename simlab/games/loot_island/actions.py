"""Phase 2 (actions): the turn options, playing map cards to a landing (compasses, the two placements
of a 1, card effects), passing, and the turn loop, as resumable procedures (``program.py``). Islets
are in ``islets``."""
import numpy as np

from simlab.core.bits import bit_index, popcount
from simlab.core.play import lean
from simlab.core.program import F_LABEL, F_LOCAL

from .board import (CW_PLAY, EV_CARD, EV_COMPASS, EV_EFFECT, EV_PASS, EV_PLAY, EV_TAKE, FX_B8, FX_COPY_DISCARD,
                    FX_COPY_DRAW, FX_DISCARD, FX_DRAW, FX_ONE_CURSE, TAKE_A2, card_symbol, card_value, compass_pos,
                    draw_map, drop_curses, event_now, is_allen, keep_treasure, lb, log_ev, move_map, on_island,
                    pull_compass, push_compass, remove_from_row, set_ctx, take_curses)
from .components import (COPY_ACTOR, EV_A2, EV_B4, EV_B6, EV_B7, EV_B8, EV_B9, HM_AT_LEAST, HM_LOW, N_ISLET, O,
                         PER_COLOUR, SYM_CHEST, SYM_DISCARD, SYM_DOUBLE, SYM_DRAW)
from .invariants import check_invariants
from .program import PR_B4, PR_ISLET, PR_PASS, PR_PLAY, ask, call, ret
from .state import (B_ALLEN_USES, B_CURSES, B_HAND_BITS, B_HAND_N, B_PASS_ROUND1, B_PASSED, B_PLAYED, B_START_TAKEN,
                    B_SUPPLY, B_TAKEN, COPY_SKIP, D_A2, D_ACTION, D_CARD, D_COPY, D_SOURCE, ISLET_ALLEN, ISLET_OWN,
                    ISLET_UP, L_CARDS, L_CHESTS, L_COLOUR, L_COMP, L_COUNT, L_LAST, L_N, L_NCOMP, M_COL, M_HAND, P0,
                    PASS, PB, PH_ACTION, PLAY_ALLEN, PLAY_OWN, S_A2, S_A2_N, S_ALLEN, S_DECKOUT, S_FIRST_PASSED,
                    S_ISLET, S_MLOC, S_MUST_PASS, S_PHASE, S_PLAYERS, S_ROUND, S_STAGE, S_STAGE_N, S_START, S_TURNS,
                    STOP, SUPPLY, X_CHOICE)


@lean
def last_is_one(state, cfg, landing):
    """Is the column empty or does it end in a 1 (placing a 1 normally)?"""
    base = lb(landing)
    n = state[base + L_N]
    if n == 0:
        return True
    if state[base + L_LAST] != 1:
        return False
    last = state[base + L_CARDS + n - 1]
    return card_value(cfg, last) == 1 or cfg[O.wild_one_is_one]


@lean
def fitting(state, cfg, h, landing, c):
    """Actor ``h``'s cards of colour ``c`` that may be part of a play on ``landing`` (a wild or a 1, or
    a value at least its last card's), as bits of their slots (bit k: card ``c * PER_COLOUR + k``):
    the hand's bits against the ``hand_masks``."""
    return np.int64(state[P0 + h * PB + B_HAND_BITS + c]) & (
        cfg[O.hand_masks + HM_LOW] | cfg[O.hand_masks + HM_AT_LEAST + state[lb(landing) + L_LAST]])


@lean
def colour_ok(state, landing, c):
    col = state[lb(landing) + L_COLOUR]
    if col >= 0:
        return col == c
    return state[lb(landing ^ 1) + L_COLOUR] != c


@lean
def action_choices(state, cfg, p, legal):
    """The phase-2 turn options of seat ``p`` (own cards, and Allen's cards in the 2-player game):
    a colour may go to a landing when one of its cards is ``fitting`` there."""
    n = 0
    legal[n] = PASS
    n += 1
    if state[S_MUST_PASS]:
        return n
    e = event_now(state, cfg)
    owners = 2 if state[S_ALLEN] else 1
    for o in range(owners):
        h = p if o == 0 else state[S_PLAYERS]
        hand = P0 + h * PB + B_HAND_BITS
        total = 0
        for c in range(4):
            total += popcount(np.int64(state[hand + c]))
        if total == 0:
            continue
        base_play = PLAY_OWN if o == 0 else PLAY_ALLEN
        for landing in range(8):
            for c in range(4):
                if fitting(state, cfg, h, landing, c) and colour_ok(state, landing, c):
                    legal[n] = base_play + landing * 4 + c
                    n += 1
        base_islet = ISLET_OWN if o == 0 else ISLET_ALLEN
        need = 1 if e == EV_B9 else 2
        extra = 1 if e == EV_B7 else 0
        for i in range(N_ISLET):
            if state[S_ISLET + i] != ISLET_UP:
                continue
            for c in range(4):
                if popcount(np.int64(state[hand + c])) >= need and total >= need + extra:
                    legal[n] = base_islet + i * 4 + c
                    n += 1
    return n


@lean
def everyone_curse(state, log):
    """A 1 placed normally: every player (on the landing or not, passed or not) takes a cube."""
    for q in range(state[S_PLAYERS]):
        take_curses(state, q, 1)
    log_ev(state, log, EV_EFFECT, FX_ONE_CURSE, -1, 1)


@lean
def discard_amount(state, cfg):
    return 2 if event_now(state, cfg) == EV_B6 else 1


@lean
def landing_effect(state, cfg, streams, log, landing, sym):
    """A played card's draw or discard symbol: every human with a compass there gets it."""
    base = lb(landing)
    for k in range(state[base + L_NCOMP]):
        q = state[base + L_COMP + k]
        if is_allen(state, q):
            continue
        if sym == SYM_DRAW:
            got = draw_map(state, streams, q, 1)
            log_ev(state, log, EV_EFFECT, FX_DRAW, q, got)
        else:
            d = drop_curses(state, q, discard_amount(state, cfg))
            log_ev(state, log, EV_EFFECT, FX_DISCARD, q, d)


@lean
def put_card(state, cfg, landing, m, front):
    """Move card ``m`` from its hand into the column (at the front or the end) and update counts."""
    base = lb(landing)
    loc = state[S_MLOC + m]
    state[P0 + (loc - M_HAND) * PB + B_HAND_N] -= 1
    n = state[base + L_N]
    if front:
        for j in range(n, 0, -1):
            state[base + L_CARDS + j] = state[base + L_CARDS + j - 1]
        state[base + L_CARDS] = m
    else:
        state[base + L_CARDS + n] = m
        v = card_value(cfg, m)
        if v == 0:
            v = state[base + L_LAST] if n > 0 else 1
        state[base + L_LAST] = v
    state[base + L_N] = n + 1
    sym = card_symbol(cfg, m)
    state[base + L_COUNT] += 2 if sym == SYM_DOUBLE else 1
    if sym == SYM_CHEST:
        state[base + L_CHESTS] += 1
    state[base + L_COLOUR] = m // PER_COLOUR
    move_map(state, m, M_COL + landing)


@lean
def copy_flags(state, cfg, landing):
    """(a draw symbol, a discard symbol) in the column that a 1 placed at the front may copy."""
    base = lb(landing)
    has_draw = False
    has_disc = False
    for j in range(state[base + L_N]):
        m = state[base + L_CARDS + j]
        v = card_value(cfg, m)
        if v <= 1:  # a wild has no effect of its own; a 1 has none to copy
            continue
        s = card_symbol(cfg, m)
        if s == SYM_DRAW:
            has_draw = True
        elif s == SYM_DISCARD:
            has_disc = True
    return has_draw, has_disc


@lean
def copy_choices(state, cfg, landing, legal):
    """What a 1 placed at the front may copy: COPY_SKIP and each effect present in the column."""
    has_draw, has_disc = copy_flags(state, cfg, landing)
    n = 0
    legal[n] = COPY_SKIP
    n += 1
    if has_draw:
        legal[n] = SYM_DRAW
        n += 1
    if has_disc:
        legal[n] = SYM_DISCARD
        n += 1
    return n


@lean
def place_one_card(state, cfg, streams, log, p, h, landing, m):
    """Place one card of a play and carry out its effect (the two placements of a 1 included).
    Returns True when a 1 went to the front with something to copy: seat ``p`` then decides what
    (D_COPY, context set; the effect is :func:`copy_effect`)."""
    v = card_value(cfg, m)
    if v == 1 and not last_is_one(state, cfg, landing):
        put_card(state, cfg, landing, m, True)
        log_ev(state, log, EV_CARD, h, landing, m, 1, 1)
        if is_allen(state, h) and cfg[O.one_copy_allen] != COPY_ACTOR:
            return False
        has_draw, has_disc = copy_flags(state, cfg, landing)
        if not has_draw and not has_disc:
            return False
        set_ctx(state, landing, 1 if is_allen(state, h) else 0)
        return True
    put_card(state, cfg, landing, m, False)
    log_ev(state, log, EV_CARD, h, landing, m, 0, state[lb(landing) + L_LAST])
    if v == 1:
        everyone_curse(state, log)
        return False
    if v == 0:
        return False
    s = card_symbol(cfg, m)
    if s == SYM_DRAW or s == SYM_DISCARD:
        landing_effect(state, cfg, streams, log, landing, s)
    return False


@lean
def copy_effect(state, cfg, streams, log, p, sym):
    """The effect a front 1 copies for seat ``p`` (D_COPY's choice)."""
    if sym == SYM_DRAW:
        got = draw_map(state, streams, p, 1)
        log_ev(state, log, EV_EFFECT, FX_COPY_DRAW, p, got)
    elif sym == SYM_DISCARD:
        d = drop_curses(state, p, discard_amount(state, cfg))
        log_ev(state, log, EV_EFFECT, FX_COPY_DISCARD, p, d)


@lean
def source_choices(state, f, out):
    """D_SOURCE of a play: the other landings holding a compass of the cards' owner."""
    h = state[f + F_LOCAL + 1]
    landing = state[f + F_LOCAL + 2]
    n = 0
    for l2 in range(8):
        if l2 != landing and compass_pos(state, l2, h) >= 0:
            out[n] = l2
            n += 1
    return n


@lean
def card_choices(state, cfg, f, out):
    """D_CARD: the owner's cards of the play's colour that may join it and are not staged yet; STOP
    once one is staged."""
    h = state[f + F_LOCAL + 1]
    landing = state[f + F_LOCAL + 2]
    c = state[f + F_LOCAL + 3]
    n = 0
    bits = fitting(state, cfg, h, landing, c)
    while bits:
        one = bits & -bits
        bits ^= one
        m = c * PER_COLOUR + bit_index(one)
        staged = False
        for j in range(state[S_STAGE_N]):
            if state[S_STAGE + j] == m:
                staged = True
        if not staged:
            out[n] = m
            n += 1
    if state[S_STAGE_N] > 0:
        out[n] = STOP
        n += 1
    return n


@lean
def lay_order(cfg, m):
    """Where card ``m`` is laid down in a play: numbered cards ascending, wilds last (ids break ties)."""
    v = card_value(cfg, m)
    return (v if v > 0 else 11) * 256 + m


@lean
def play_step(state, cfg, streams, log, f):
    """Procedure PR_PLAY (p, h, landing, colour): seat ``p`` plays cards of the colour from ``h``'s
    hand (``h`` = p, or Allen) to the landing: a compass there first (from the supply, else moved:
    D_SOURCE), then the cards chosen one at a time (D_CARD, staged in S_STAGE), then laid down in
    ascending order, wilds last (a front 1 may copy: D_COPY). Local 4: cards laid down so far."""
    p = state[f + F_LOCAL]
    h = state[f + F_LOCAL + 1]
    landing = state[f + F_LOCAL + 2]
    c = state[f + F_LOCAL + 3]
    label = state[f + F_LABEL]
    if label == 0:
        if compass_pos(state, landing, h) < 0:
            base = P0 + h * PB
            limit_ok = event_now(state, cfg) != EV_B4 or on_island(state, cfg, h) < 2
            if state[base + B_SUPPLY] > 0 and limit_ok:
                state[base + B_SUPPLY] -= 1
                push_compass(state, landing, h)
                log_ev(state, log, EV_COMPASS, h, landing, SUPPLY, CW_PLAY)
            else:
                set_ctx(state, landing, 1 if is_allen(state, h) else 0)
                ask(state, f, 1, p, D_SOURCE)
                return
        label = 1
        state[S_STAGE_N] = 0
    elif label == 1:
        src = state[X_CHOICE]
        pull_compass(state, src, h)
        push_compass(state, landing, h)
        log_ev(state, log, EV_COMPASS, h, landing, src, CW_PLAY)
        state[S_STAGE_N] = 0
    elif label == 2:
        code = state[X_CHOICE]
        if code != STOP:
            state[S_STAGE + state[S_STAGE_N]] = code
            state[S_STAGE_N] += 1
        else:
            label = 3
    if label < 3:  # choose the cards one at a time
        if state[S_STAGE_N] > 0 or fitting(state, cfg, h, landing, c):
            set_ctx(state, landing, c, 1 if is_allen(state, h) else 0, state[S_STAGE_N])
            ask(state, f, 2, p, D_CARD)
            return
        label = 3
    k = state[S_STAGE_N]
    j = state[f + F_LOCAL + 4]
    if label == 3:  # lay them down: numbered cards ascending, wilds last
        for i in range(1, k):   # insertion sort in place: a few cards, no array to allocate
            m = state[S_STAGE + i]
            key = lay_order(cfg, m)
            q = i
            while q > 0 and lay_order(cfg, state[S_STAGE + q - 1]) > key:
                state[S_STAGE + q] = state[S_STAGE + q - 1]
                q -= 1
            state[S_STAGE + q] = m
        log_ev(state, log, EV_PLAY, p, h, landing, c, k)
    elif label == 4:
        copy_effect(state, cfg, streams, log, p, state[X_CHOICE])
        j += 1
    while j < k:
        if place_one_card(state, cfg, streams, log, p, h, landing, state[S_STAGE + j]):
            state[f + F_LOCAL + 4] = j
            ask(state, f, 4, p, D_COPY)
            return
        j += 1
    state[P0 + h * PB + B_PLAYED] += k
    if is_allen(state, h):
        state[P0 + p * PB + B_ALLEN_USES] += 1
    state[S_STAGE_N] = 0
    ret(state)


@lean
def pass_step(state, cfg, streams, log, f):
    """Procedure PR_PASS (p, order): seat ``p`` passes: the first passer takes the start tile (B8:
    the others take 2 cubes); under A2 the passer must take and keep one of the face-up treasures
    (D_A2)."""
    p = state[f + F_LOCAL]
    base = P0 + p * PB
    if state[f + F_LABEL] == 1:
        t = state[X_CHOICE]
        remove_from_row(state, S_A2, S_A2_N, t)
        state[base + B_TAKEN] += 1
        keep_treasure(state, cfg, p, t)
        log_ev(state, log, EV_TAKE, p, t, 1, state[base + B_CURSES], TAKE_A2)
        ret(state)
        return
    state[base + B_PASSED] = 1
    state[S_MUST_PASS] = 0
    took = 1 if state[S_FIRST_PASSED] == 0 else 0
    log_ev(state, log, EV_PASS, p, took, state[base + B_HAND_N])
    if took:
        state[S_FIRST_PASSED] = 1
        state[S_START] = p
        state[base + B_START_TAKEN] += 1
        if event_now(state, cfg) == EV_B8:
            for q in range(state[S_PLAYERS]):
                if q != p:
                    take_curses(state, q, 2)
            log_ev(state, log, EV_EFFECT, FX_B8, p, 2)
    if state[S_ROUND] == 1:
        state[base + B_PASS_ROUND1] = state[f + F_LOCAL + 1]
    if event_now(state, cfg) == EV_A2 and state[S_A2_N] > 0:
        set_ctx(state, 0)
        ask(state, f, 1, p, D_A2)
        return
    ret(state)


@lean
def a2_choices(state, out):
    """D_A2: the face-up treasures of event A2."""
    for j in range(state[S_A2_N]):
        out[j] = state[S_A2 + j]
    return state[S_A2_N]


@lean
def phase2_step(state, cfg, streams, log, f):
    """Procedure PR_PHASE2, actions: from the start player clockwise until everyone has passed (event
    B4's returns first). Locals: first (the start player as the phase began), passed, turns, k (turns
    looked at, the next seat is first + k), p (the seat whose turn it is)."""
    n = state[S_PLAYERS]
    label = state[f + F_LABEL]
    if label == 0:
        state[S_PHASE] = PH_ACTION
        state[S_FIRST_PASSED] = 0
        state[S_MUST_PASS] = 0
        for q in range(n):
            state[P0 + q * PB + B_PASSED] = 0
        state[f + F_LABEL] = 1
        if event_now(state, cfg) == EV_B4:
            call(state, PR_B4)
            return
        label = 1
    if label == 1:
        state[f + F_LOCAL] = state[S_START]
    elif label == 2:  # the turn's choice
        p = state[f + F_LOCAL + 4]
        code = state[X_CHOICE]
        if code == PASS:
            state[f + F_LABEL] = 3
            call(state, PR_PASS, p, state[f + F_LOCAL + 1])
            return
        state[f + F_LABEL] = 4
        h = p if (code < PLAY_ALLEN or (ISLET_OWN <= code < ISLET_ALLEN)) else n
        if code < ISLET_OWN:
            x = (code - PLAY_OWN) % 100
            call(state, PR_PLAY, p, h, x // 4, x % 4)
        else:
            x = (code - ISLET_OWN) % 100
            call(state, PR_ISLET, p, h, x // 4, x % 4)
        return
    elif label == 3:  # passed
        state[f + F_LOCAL + 1] += 1
    elif label == 4:  # played or used an islet
        if cfg[O.check_invariants]:
            err = check_invariants(state, cfg)
            if err != 0:
                raise ValueError("invariant broken in phase 2")
        if state[S_DECKOUT]:
            ret(state)
            return
        if state[S_MUST_PASS]:  # B9: the islet user passes right after
            set_ctx(state, 0)
            ask(state, f, 2, state[f + F_LOCAL + 4], D_ACTION)
            return
    first = state[f + F_LOCAL]
    k = state[f + F_LOCAL + 3]
    while state[f + F_LOCAL + 1] < n:
        p = (first + k) % n
        k += 1
        if state[P0 + p * PB + B_PASSED]:
            continue
        state[f + F_LOCAL + 2] += 1
        if state[f + F_LOCAL + 2] > 10000:
            raise ValueError("phase 2 does not end")
        state[S_TURNS] += 1
        state[f + F_LOCAL + 3] = k
        state[f + F_LOCAL + 4] = p
        set_ctx(state, 0)
        ask(state, f, 2, p, D_ACTION)
        return
    ret(state)
