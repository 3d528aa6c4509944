"""Legend Raiders' rules as small numba functions over the flat state (see ``state.py``).

The pieces a turn is made of (draws, refills, a prepare, a card taken, a completion, a dice card
spent), the legal choices of each decision, and setup. The turn itself, which asks the players, is
the step machine of ``step.py``; the end of the game and the invariant checker are ``scoring.py``.
"""
import numpy as np
from numba import njit

from simlab.core.play import emit, lean
from simlab.core.program import call
from simlab.core.rng import randint, shuffle

from .components import (DECK_END, DECK_RESHUFFLE, EFFECT_COIN, EFFECT_TOOL, EFFECT_TORCH, HQ_COLUMN, KIND_DICE,
                         MAX_CARDS, MAX_TILES, N_COLUMNS, N_SLOTS, N_TOOL_TYPES, O, STACK_END, STACK_RESHUFFLE,
                         TIMING_ANY, USED_RESHUFFLED, VAR_NO_DICE)
from .state import (B_BOARD, B_CARDS, B_COIN_PTS, B_DICE_USED, B_DONE, B_EXP_PTS, B_HAND, B_HAND_RND, B_KNOWN,
                    B_NDONE, B_NHAND, B_PREPARES, B_SLOT, B_TILES_DISC, B_TOOLS, B_TOOLS_DISC, B_TORCH, B_TORCH_USES,
                    CHANGE_DIE, COMPLETE, DISCARD_TILE, EXTRA_DICE, HIDDEN, KEEP_ROLL, MAX_DONE, MAX_PLAYERS,
                    NO_EXTRA, NO_TORCH, P0, PB, PLACE_SLOT, PREPARE, PROGRAM, PR_TURN, RETURN_TOOL, R_BOARDS, R_DECK,
                    R_DRAW_TOOLS, R_HQ_TOOLS, R_REINSERT, R_TILES, STOP, S_BAG, S_CARDS_TURN, S_COIN_BONUS, S_DECK,
                    S_DECK_N, S_DECK_OUT, S_DISC, S_DISC_N, S_DONE_TURN, S_FACE, S_FACEUP, S_HQ_TILE, S_HQ_TOOLS,
                    S_NEW_TILE, S_PLAYERS, S_REMOVED, S_REMOVED_N, S_RESHUFFLES, S_ROLL, S_ROUND, S_STACK, S_STACK_N,
                    S_STACK_OUT, S_TOP_SYMBOL, S_TRIGGER, TAKE_BLIND, TAKE_FACEUP, TAKE_NOTHING, T_HAND, USE_CARD)

# Event kinds of the trace log.
(EV_BOARD, EV_REFILL, EV_FACEUP, EV_TURN, EV_ROLL, EV_CHANGE, EV_DRAW, EV_TORCH_ALL, EV_COIN, EV_PREPARE,
 EV_PLACE, EV_DISCARD_TILE, EV_RETURN_TOOL, EV_TAKE_CARD, EV_COMPLETE, EV_VCARD, EV_DIE_POINTS, EV_TRIGGER,
 EV_STACK_EMPTY, EV_END, EV_MISSION, EV_FINAL, EV_EXTRA_DICE, EV_DECK_OUT, EV_DECK_RESHUFFLE) = range(25)

# ---- tools -------------------------------------------------------------------------------------
@lean
def bag_draw(state, rng):
    """Draw one random tool type from the bag (-1 if the bag is empty)."""
    total = state[S_BAG] + state[S_BAG + 1] + state[S_BAG + 2] + state[S_BAG + 3]
    if total <= 0:
        return -1
    r = randint(rng, total)
    for t in range(N_TOOL_TYPES):
        if r < state[S_BAG + t]:
            state[S_BAG + t] -= 1
            return t
        r -= state[S_BAG + t]
    return -1


@lean
def n_tools(state, seat):
    b = P0 + seat * PB + B_TOOLS
    return state[b] + state[b + 1] + state[b + 2] + state[b + 3]


@lean
def draw_tools(state, seat, k, streams, log, n_ev):
    """Draw ``k`` tools from the bag into the backpack (the tool limit is a step of its own)."""
    for _ in range(k):
        t = bag_draw(state, streams[R_DRAW_TOOLS])
        if t >= 0:
            state[P0 + seat * PB + B_TOOLS + t] += 1
            n_ev = emit(log, n_ev, EV_DRAW, seat, t)
    return n_ev


@lean
def tool_choices(state, seat, legal):
    """Over the backpack limit: return one tool of a type held (RETURN_TOOL + type)."""
    b = P0 + seat * PB + B_TOOLS
    n = 0
    for t in range(N_TOOL_TYPES):
        if state[b + t] > 0:
            legal[n] = RETURN_TOOL + t
            n += 1
    return n


@lean
def return_tool(state, seat, t, log, n_ev):
    state[P0 + seat * PB + B_TOOLS + t] -= 1
    state[S_BAG + t] += 1
    state[P0 + seat * PB + B_TOOLS_DISC] += 1
    return emit(log, n_ev, EV_RETURN_TOOL, seat, t)

# ---- tiles and the HQ -----------------------------------------------------------------------------
@lean
def stack_draw(state, cfg, streams, log, n_ev):
    """The next tile for a refill, applying ``empty_stack_rule`` when the stack is empty.

    Returns (tile or -1, n_ev).
    """
    if state[S_STACK_N] == 0:
        if state[S_STACK_OUT] == 0:
            state[S_STACK_OUT] = state[S_ROUND]
        rule = cfg[O.empty_stack_rule]
        if rule == STACK_RESHUFFLE and state[S_DISC_N] > 0:
            k = state[S_DISC_N]
            for i in range(k):
                state[S_STACK + i] = state[S_DISC + i]
                state[S_DISC + i] = -1
            state[S_DISC_N] = 0
            state[S_STACK_N] = k
            shuffle(streams[R_TILES], state[S_STACK:S_STACK + k], k)
            show_top(state, cfg)
            state[S_RESHUFFLES] += 1
            n_ev = emit(log, n_ev, EV_STACK_EMPTY, state[S_ROUND], 1, k)
        else:
            if rule == STACK_END and state[S_TRIGGER] == 0:
                state[S_TRIGGER] = -1
                n_ev = emit(log, n_ev, EV_STACK_EMPTY, state[S_ROUND], 2, 0)
            else:
                n_ev = emit(log, n_ev, EV_STACK_EMPTY, state[S_ROUND], 0, 0)
            return -1, n_ev
    state[S_STACK_N] -= 1
    k = state[S_STACK_N]
    tile = state[S_STACK + k]
    state[S_STACK + k] = -1
    show_top(state, cfg)
    return tile, n_ev


@lean
def show_top(state, cfg):
    """The symbol on the back of the stack's new top tile (public; -1 when the stack is empty)."""
    k = state[S_STACK_N]
    state[S_TOP_SYMBOL] = cfg[O.tile_symbol + state[S_STACK + k - 1]] if k > 0 else -1


@lean
def refill_column(state, cfg, col, streams, log, n_ev):
    """Refill one emptied HQ column: the top tile of the stack and ``column_tools`` tools (under
    ``hq_refill=tile_needed`` no tools without a tile)."""
    tile, n_ev = stack_draw(state, cfg, streams, log, n_ev)
    state[S_HQ_TILE + col] = tile
    packed = 0
    if tile >= 0 or cfg[O.hq_refill] == HQ_COLUMN:
        for _ in range(cfg[O.column_tools]):
            t = bag_draw(state, streams[R_HQ_TOOLS])
            if t >= 0:
                state[S_HQ_TOOLS + col * 4 + t] += 1
    for t in range(N_TOOL_TYPES):
        packed = packed * 10 + state[S_HQ_TOOLS + col * 4 + t]
    return emit(log, n_ev, EV_REFILL, col, tile, packed)


@lean
def discard_tile(state, tile):
    state[S_DISC + state[S_DISC_N]] = tile
    state[S_DISC_N] += 1


@lean
def coins_visible(state, cfg, seat):
    """Coin icons showing on the board: empty dig-site slots and map spaces not yet covered."""
    base = P0 + seat * PB
    board = state[base + B_BOARD]
    v = 0
    for s in range(N_SLOTS):
        if state[base + B_SLOT + s] < 0:
            v += cfg[O.slot_coins + board * N_SLOTS + s]
    spaces = cfg[O.map_spaces]
    for k in range(state[base + B_NDONE], spaces):
        v += cfg[O.map_coins + board * spaces + k]
    return v


@njit(cache=True, inline="always")
def is_expertise(cfg, board, tool):
    """Is ``tool`` one of the board's expertise tools (``expertise_tools`` of them per board)?"""
    k = cfg[O.expertise_tools]
    for e in range(k):
        if cfg[O.expertise + board * k + e] == tool:
            return True
    return False


@lean
def n_held(state, seat):
    base = P0 + seat * PB + B_SLOT
    return (state[base] >= 0) + (state[base + 1] >= 0) + (state[base + 2] >= 0)



@lean
def slot_choice_open(state, cfg, seat):
    """May the player choose the new tile's slot? Only when the free slots' coins differ."""
    base = P0 + seat * PB
    board = state[base + B_BOARD]
    first_coin = -1
    for s in range(N_SLOTS):
        if state[base + B_SLOT + s] < 0:
            c = cfg[O.slot_coins + board * N_SLOTS + s]
            if first_coin < 0:
                first_coin = c
            elif c != first_coin:
                return True
    return False


@lean
def tile_choices(state, cfg, seat, legal):
    """Where the new tile (``S_NEW_TILE``) goes: a free slot (PLACE_SLOT + slot) or, at the tile
    limit, a discard (DISCARD_TILE + a held tile's slot, or + 3 for the new one)."""
    base = P0 + seat * PB
    n = 0
    if n_held(state, seat) < cfg[O.tile_limit]:
        for s in range(N_SLOTS):
            if state[base + B_SLOT + s] < 0:
                legal[n] = PLACE_SLOT + s
                n += 1
        return n
    for s in range(N_SLOTS):
        if state[base + B_SLOT + s] >= 0:
            legal[n] = DISCARD_TILE + s
            n += 1
    legal[n] = DISCARD_TILE + N_SLOTS
    return n + 1


@lean
def place_tile(state, seat, code, log, n_ev):
    """The new tile goes to slot PLACE_SLOT + s, or DISCARD_TILE + s is discarded (an old tile, whose
    slot the new one takes, or with s = 3 the new one)."""
    base = P0 + seat * PB
    tile = state[S_NEW_TILE]
    if code < PLACE_SLOT:
        s = code - DISCARD_TILE
        state[base + B_TILES_DISC] += 1
        if s == N_SLOTS:
            discard_tile(state, tile)
            n_ev = emit(log, n_ev, EV_DISCARD_TILE, seat, tile, 1)
        else:
            old = state[base + B_SLOT + s]
            discard_tile(state, old)
            n_ev = emit(log, n_ev, EV_DISCARD_TILE, seat, old, 0)
            state[base + B_SLOT + s] = tile
            n_ev = emit(log, n_ev, EV_PLACE, seat, tile, s)
    else:
        s = code - PLACE_SLOT
        state[base + B_SLOT + s] = tile
        n_ev = emit(log, n_ev, EV_PLACE, seat, tile, s)
    state[S_NEW_TILE] = -1
    return n_ev


@lean
def prepare(state, seat, col, log, n_ev):
    """Action a: take the column's tile (to ``S_NEW_TILE``, placed next) and its tools."""
    base = P0 + seat * PB
    tile = state[S_HQ_TILE + col]
    packed = 0
    for t in range(N_TOOL_TYPES):
        k = state[S_HQ_TOOLS + col * 4 + t]
        packed = packed * 10 + k
        state[base + B_TOOLS + t] += k
        state[S_HQ_TOOLS + col * 4 + t] = 0
    state[S_HQ_TILE + col] = -1
    state[base + B_PREPARES] += 1
    state[S_NEW_TILE] = tile
    return emit(log, n_ev, EV_PREPARE, seat, col, tile, packed)
# ---- expedition cards ----------------------------------------------------------------------------
@lean
def rebuild_deck(state, streams, log, n_ev):
    """``empty_deck_rule=reshuffle``: the used dice cards that left the game become the new deck."""
    k = state[S_REMOVED_N]
    for i in range(k):
        state[S_DECK + i] = state[S_REMOVED + i]
        state[S_REMOVED + i] = -1
    state[S_REMOVED_N] = 0
    state[S_DECK_N] = k
    shuffle(streams[R_DECK], state[S_DECK:S_DECK + k], k)
    return emit(log, n_ev, EV_DECK_RESHUFFLE, state[S_ROUND], k)


@lean
def deck_draw(state, cfg, streams, log, n_ev):
    """The deck's top card, or -1 when it is empty (first rebuilt under ``empty_deck_rule=reshuffle``
    if it can be). Returns (card, n_ev)."""
    if state[S_DECK_N] == 0:
        if cfg[O.empty_deck_rule] != DECK_RESHUFFLE or state[S_REMOVED_N] == 0:
            return -1, n_ev
        n_ev = rebuild_deck(state, streams, log, n_ev)
    state[S_DECK_N] -= 1
    card = state[S_DECK + state[S_DECK_N]]
    state[S_DECK + state[S_DECK_N]] = -1
    return card, n_ev


@lean
def deck_out(state, cfg, log, n_ev):
    """The deck has run out for the first time: note the round; under ``empty_deck_rule=end_trigger``
    that triggers the end."""
    state[S_DECK_OUT] = state[S_ROUND]
    ends = cfg[O.empty_deck_rule] == DECK_END and state[S_TRIGGER] == 0
    if ends:
        state[S_TRIGGER] = -2
    return emit(log, n_ev, EV_DECK_OUT, state[S_ROUND], ends)


@lean
def refill_row(state, cfg, streams, log, n_ev):
    """Fill empty face-up places from the top of the deck while it lasts (see :func:`deck_out`)."""
    for k in range(cfg[O.faceup_cards]):
        if state[S_FACEUP + k] < 0:
            card, n_ev = deck_draw(state, cfg, streams, log, n_ev)
            if card < 0:
                break
            state[S_FACEUP + k] = card
            n_ev = emit(log, n_ev, EV_FACEUP, k, card)
    if state[S_DECK_N] == 0 and state[S_DECK_OUT] == 0:
        n_ev = deck_out(state, cfg, log, n_ev)
    return n_ev


@lean
def add_to_hand(state, seat, card, known):
    """The card joins the hand (and the true hand); ``known``: taken face up, so every seat saw it."""
    base = P0 + seat * PB
    h = state[base + B_NHAND]
    state[base + B_HAND + h] = card
    state[T_HAND + seat * MAX_CARDS + h] = card
    state[base + B_HAND_RND + h] = state[S_ROUND]
    state[base + B_KNOWN + h] = known
    state[base + B_NHAND] = h + 1
    state[base + B_CARDS] += 1


@lean
def show_hands(state, seat):
    """Write the hands into the view as ``seat`` sees them: its own whole, of the others only the
    cards taken face up (the rest HIDDEN); ``seat`` = -1 reveals every hand (the end)."""
    for p in range(state[S_PLAYERS]):
        base = P0 + p * PB
        everything = p == seat or seat < 0
        for h in range(state[base + B_NHAND]):
            state[base + B_HAND + h] = state[T_HAND + p * MAX_CARDS + h] \
                if everything or state[base + B_KNOWN + h] else HIDDEN
@lean
def take_card(state, cfg, seat, code, event, streams, log, n_ev):
    """Step 1 of an expedition: a face-up card or the deck's top, face down in front of you (or none
    when none is left); logged as ``event``, then the row is refilled. Returns (card, n_ev)."""
    card = -1
    if code == TAKE_BLIND:
        card, n_ev = deck_draw(state, cfg, streams, log, n_ev)
    elif code < TAKE_BLIND:
        card = state[S_FACEUP + code - TAKE_FACEUP]
        state[S_FACEUP + code - TAKE_FACEUP] = -1
    if card >= 0:
        add_to_hand(state, seat, card, code != TAKE_BLIND)
    n_ev = emit(log, n_ev, event, seat, card, code - TAKE_FACEUP)
    return card, refill_row(state, cfg, streams, log, n_ev)


@lean
def usable_dice_card(state, cfg, seat):
    """Index in the hand of a dice card the seat may use now, or -1."""
    base = P0 + seat * PB
    same_turn = cfg[O.variant_same_turn] if cfg[O.variant] == VAR_NO_DICE else cfg[O.dice_card_same_turn]
    for h in range(state[base + B_NHAND]):
        card = state[base + B_HAND + h]
        if cfg[O.card_kind + card] == KIND_DICE and (same_turn or state[base + B_HAND_RND + h] < state[S_ROUND]):
            return h
    return -1


@lean
def spend_dice_card(state, cfg, seat, h, streams, log, n_ev):
    """Discard hand card ``h`` (a dice card): removed from the game, or shuffled back into the deck
    (where it refills an empty face-up place at once under ``returned_card_refills``)."""
    base = P0 + seat * PB
    card = state[base + B_HAND + h]
    last = state[base + B_NHAND] - 1
    true = T_HAND + seat * MAX_CARDS
    state[base + B_HAND + h] = state[base + B_HAND + last]
    state[true + h] = state[true + last]
    state[base + B_HAND_RND + h] = state[base + B_HAND_RND + last]
    state[base + B_KNOWN + h] = state[base + B_KNOWN + last]
    state[base + B_HAND + last] = -1
    state[true + last] = -1
    state[base + B_HAND_RND + last] = 0
    state[base + B_KNOWN + last] = 0
    state[base + B_NHAND] = last
    state[base + B_DICE_USED] += 1
    state[S_CARDS_TURN] += 1
    if cfg[O.variant] == VAR_NO_DICE or cfg[O.used_dice_cards] == USED_RESHUFFLED:
        # a uniform position in the deck, as a shuffle would give; the cards above it move up one,
        # so the other cards keep their order (a variant that spends dice cards leaves them paired)
        k = state[S_DECK_N]
        j = randint(streams[R_REINSERT], k + 1)
        for i in range(k, j, -1):
            state[S_DECK + i] = state[S_DECK + i - 1]
        state[S_DECK + j] = card
        state[S_DECK_N] = k + 1
        if cfg[O.returned_card_refills]:
            n_ev = refill_row(state, cfg, streams, log, n_ev)
    else:
        state[S_REMOVED + state[S_REMOVED_N]] = card
        state[S_REMOVED_N] += 1
    return n_ev


# ---- die effects ---------------------------------------------------------------------------------
@lean
def flip_all_torches(state):
    """The torch face: every player, the roller included, flips their torch."""
    for p in range(state[S_PLAYERS]):
        b = P0 + p * PB + B_TORCH
        state[b] = 1 - state[b]



@lean
def die_card_choices(state, legal):
    """After the roll (or the expedition's card): keep the face in force, or a dice card to another."""
    face = state[S_FACE]
    legal[0] = KEEP_ROLL
    n = 1
    for e in range(3):
        if e != face:
            legal[n] = CHANGE_DIE + e
            n += 1
    return n


@lean
def apply_effect(state, cfg, seat, effect, streams, log, n_ev):
    """Apply the die effect (base game) in force this turn (the tool limit follows as its own step)."""
    if effect == EFFECT_TOOL:
        return draw_tools(state, seat, cfg[O.die_tools], streams, log, n_ev)
    if effect == EFFECT_TORCH:
        flip_all_torches(state)
        lit = 0
        for p in range(state[S_PLAYERS]):
            lit |= state[P0 + p * PB + B_TORCH] << p
        return emit(log, n_ev, EV_TORCH_ALL, seat, lit)
    state[S_COIN_BONUS] += 1
    return emit(log, n_ev, EV_COIN, seat)
@lean
def variant_card_open(state, cfg, seat):
    """No-dice variant: may the seat discard a dice card now (one it may use, within
    ``variant_cards_per_turn``)?"""
    limit = cfg[O.variant_cards_per_turn]
    return usable_dice_card(state, cfg, seat) >= 0 and (limit == 0 or state[S_CARDS_TURN] < limit)


@lean
def variant_effects(state, cfg, legal, n):
    """Append the effects a variant dice card may buy to ``legal[n:]`` (no second coin effect when
    ``variant_coin_stacks`` is off); returns the new count."""
    for e in range(3):
        if e != EFFECT_COIN or cfg[O.variant_coin_stacks] or state[S_COIN_BONUS] == 0:
            legal[n] = USE_CARD + e
            n += 1
    return n



@lean
def use_variant_card(state, cfg, seat, effect, streams, log, n_ev):
    """No-dice variant: discard a dice card (back into the deck) for 2 tools / relight / coin (the
    tool limit follows as its own step)."""
    n_ev = emit(log, n_ev, EV_VCARD, seat, effect)
    n_ev = spend_dice_card(state, cfg, seat, usable_dice_card(state, cfg, seat), streams, log, n_ev)
    if effect == EFFECT_TOOL:
        return draw_tools(state, seat, cfg[O.variant_tools], streams, log, n_ev)
    if effect == EFFECT_TORCH:
        state[P0 + seat * PB + B_TORCH] = 1
    else:
        state[S_COIN_BONUS] += 1
    return n_ev


@lean
def extra_dice_open(state, cfg):
    """variant_extra_dice_card: is a dice card face up, to take as an extra card?"""
    for k in range(cfg[O.faceup_cards]):
        c = state[S_FACEUP + k]
        if c >= 0 and cfg[O.card_kind + c] == KIND_DICE:
            return True
    return False


@lean
def extra_dice_choices(state, cfg, legal):
    """variant_extra_dice_card, after the expedition's card: a face-up dice card (EXTRA_DICE + k) or
    NO_EXTRA; 0 when there is none to take."""
    n = 0
    for k in range(cfg[O.faceup_cards]):
        c = state[S_FACEUP + k]
        if c >= 0 and cfg[O.card_kind + c] == KIND_DICE:
            legal[n] = EXTRA_DICE + k
            n += 1
    if n > 0:
        legal[n] = NO_EXTRA
        n += 1
    return n
# ---- completing discoveries ----------------------------------------------------------------------
@lean
def can_pay(state, cfg, seat, tile, pay):
    """Can the seat pay ``tile``'s cost with its tools, the lit torch replacing one tool of type
    ``pay`` (0..3), or with tools only (``pay`` = NO_TORCH)?"""
    base = P0 + seat * PB
    if pay != NO_TORCH:
        if state[base + B_TORCH] != 1 or cfg[O.tile_cost + tile * 4 + pay] < 1:
            return False
    for t in range(N_TOOL_TYPES):
        need = cfg[O.tile_cost + tile * 4 + t] - (1 if t == pay else 0)
        if state[base + B_TOOLS + t] < need:
            return False
    return True


@lean
def completion_choices(state, cfg, seat, legal):
    """Fill ``legal`` with the COMPLETE codes open to the seat now; returns their count."""
    base = P0 + seat * PB
    n = 0
    for s in range(N_SLOTS):
        tile = state[base + B_SLOT + s]
        if tile < 0:
            continue
        for pay in range(NO_TORCH + 1):
            if can_pay(state, cfg, seat, tile, pay):
                legal[n] = COMPLETE + s * 5 + pay
                n += 1
    return n



@lean
def cards_any_time(state, cfg, seat):
    """No-dice variant with variant_card_timing=any_time: may a dice card be used among the completions?"""
    return cfg[O.variant] == VAR_NO_DICE and cfg[O.variant_card_timing] == TIMING_ANY and \
        variant_card_open(state, cfg, seat)


@lean
def completion_open(state, cfg, seat):
    """Is any completion payable now?"""
    base = P0 + seat * PB
    for s in range(N_SLOTS):
        tile = state[base + B_SLOT + s]
        if tile >= 0:
            for pay in range(NO_TORCH + 1):
                if can_pay(state, cfg, seat, tile, pay):
                    return True
    return False


@lean
def expedition_choices(state, cfg, seat, legal):
    """The expedition's completions (and, under variant_card_timing=any_time, a variant dice card)
    or STOP; 0 when there is nothing but stopping."""
    n = completion_choices(state, cfg, seat, legal)
    if cards_any_time(state, cfg, seat):
        n = variant_effects(state, cfg, legal, n)
    if n == 0:
        return 0
    legal[n] = STOP
    return n + 1
@lean
def complete(state, cfg, seat, slot, pay, log, n_ev):
    """Complete the tile on ``slot``: tools back to the bag (the torch as one wild, flipped unlit),
    the tile face down to the map, then score the visible coins and the expertise tools spent."""
    base = P0 + seat * PB
    tile = state[base + B_SLOT + slot]
    for t in range(N_TOOL_TYPES):
        k = cfg[O.tile_cost + tile * 4 + t] - (1 if t == pay else 0)
        state[base + B_TOOLS + t] -= k
        state[S_BAG + t] += k
    n_exp = cfg[O.expertise_tools]
    spent_exp = 0
    for e in range(n_exp):  # the board's expertise tools are distinct (checked at setup)
        t = cfg[O.expertise + state[base + B_BOARD] * n_exp + e]
        spent_exp += cfg[O.tile_cost + tile * 4 + t] - (1 if t == pay else 0)
    if pay != NO_TORCH:
        state[base + B_TORCH] = 0
        state[base + B_TORCH_USES] += 1
    state[base + B_SLOT + slot] = -1
    d = state[base + B_NDONE]
    state[base + B_DONE + d] = tile
    state[base + B_NDONE] = d + 1
    coins = coins_visible(state, cfg, seat)  # after the tile has left its slot: that slot counts
    exp_pts = spent_exp * cfg[O.expertise_points]
    state[base + B_COIN_PTS] += coins
    state[base + B_EXP_PTS] += exp_pts
    state[S_DONE_TURN] += 1
    n_ev = emit(log, n_ev, EV_COMPLETE, seat, tile, slot, pay, coins, exp_pts, d + 1)
    if d + 1 >= cfg[O.end_discoveries] and state[S_TRIGGER] == 0:
        state[S_TRIGGER] = seat + 1
        n_ev = emit(log, n_ev, EV_TRIGGER, seat, d + 1)
    return n_ev


@lean
def action_choices(state, cfg, legal):
    """Prepare (any column with something on it) or an expedition (a face-up card, the deck's top,
    or, once both are gone, no card; a deck that ``empty_deck_rule=reshuffle`` can rebuild counts as
    a deck)."""
    n = 0
    for col in range(N_COLUMNS):
        if state[S_HQ_TILE + col] >= 0 or (state[S_HQ_TOOLS + col * 4] + state[S_HQ_TOOLS + col * 4 + 1]
                                           + state[S_HQ_TOOLS + col * 4 + 2] + state[S_HQ_TOOLS + col * 4 + 3]) > 0:
            legal[n] = PREPARE + col
            n += 1
    any_card = False
    for k in range(cfg[O.faceup_cards]):
        if state[S_FACEUP + k] >= 0:
            legal[n] = TAKE_FACEUP + k
            n += 1
            any_card = True
    if state[S_DECK_N] > 0 or (cfg[O.empty_deck_rule] == DECK_RESHUFFLE and state[S_REMOVED_N] > 0):
        legal[n] = TAKE_BLIND
        n += 1
        any_card = True
    if not any_card:
        legal[n] = TAKE_NOTHING
        n += 1
    return n


# ---- setup ----------------------------------------------------------------------------------------
@njit(cache=True, _nrt=True)   # allocates (a tool pool of its own): counted even when a lean loop calls it
def setup(state, cfg, n_players, streams, log, n_ev):
    """Boards and lit torches, the shuffled tile stack and 4 HQ columns, the bag, the card row."""
    state[:] = 0
    call(state, PROGRAM, PR_TURN)     # the turn's frame: its label is S_STAGE
    state[S_PLAYERS] = n_players
    state[S_ROUND] = 1
    state[S_NEW_TILE] = -1
    state[S_FACE] = -1
    state[S_ROLL] = -1
    n_tiles = cfg[O.tiles]
    n_cards = cfg[O.cards]
    for i in range(MAX_TILES):
        state[S_STACK + i] = i if i < n_tiles else -1
        state[S_DISC + i] = -1
    for i in range(MAX_CARDS):
        state[S_DECK + i] = i if i < n_cards else -1
        state[S_REMOVED + i] = -1
    for i in range(MAX_PLAYERS * MAX_CARDS):
        state[T_HAND + i] = -1
    shuffle(streams[R_TILES], state[S_STACK:S_STACK + n_tiles], n_tiles)
    shuffle(streams[R_DECK], state[S_DECK:S_DECK + n_cards], n_cards)
    state[S_STACK_N] = n_tiles
    show_top(state, cfg)
    state[S_DECK_N] = n_cards
    for t in range(N_TOOL_TYPES):
        state[S_BAG + t] = cfg[O.tools_per_type]
    # boards: fixed ones first, the rest dealt at random from those left
    pool = np.zeros(4, dtype=np.int64)
    used = 0
    for p in range(n_players):
        b = cfg[O.boards + p]
        if b > 0:
            used |= 1 << (b - 1)
    m = 0
    for b in range(4):
        if not (used >> b) & 1:
            pool[m] = b
            m += 1
    shuffle(streams[R_BOARDS], pool, m)
    k = 0
    for p in range(n_players):
        base = P0 + p * PB
        b = cfg[O.boards + p]
        if b > 0:
            state[base + B_BOARD] = b - 1
        else:
            state[base + B_BOARD] = pool[k]
            k += 1
        state[base + B_TORCH] = 1
        for s in range(N_SLOTS):
            state[base + B_SLOT + s] = -1
        for i in range(MAX_DONE):
            state[base + B_DONE + i] = -1
        for i in range(MAX_CARDS):
            state[base + B_HAND + i] = -1
        n_ev = emit(log, n_ev, EV_BOARD, p, state[base + B_BOARD],
                    cfg[O.expertise + state[base + B_BOARD] * cfg[O.expertise_tools]])
    for col in range(N_COLUMNS):
        n_ev = refill_column(state, cfg, col, streams, log, n_ev)
    for k in range(4):
        state[S_FACEUP + k] = -1
    return refill_row(state, cfg, streams, log, n_ev)
