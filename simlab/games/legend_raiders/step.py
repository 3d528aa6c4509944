"""Legend Raiders as a step-interface game (the contract of ``simlab.core.model``), and built-in play through it.

A turn is one seat's: the roll and its dice cards (or the variant's dice cards), the action, then a
prepare's new tile, tool limit and refill, or an expedition's card, extra dice card and
completions. The state stores where the turn stands (``S_STAGE``) and the decision pending
(``S_PHASE``); :func:`advance` carries the turn on (chance included) until a player must decide,
:func:`resolve` applies the answer and carries on, :func:`next_turn` begins the next turn, ends
the round, or ends and scores the game. Every decision is the current seat's (``S_CUR``).

Secret: the tile stack's order (its top's symbol shows), the expedition deck, and the cards each
seat took blind. A seat's observation is the view (``state.py``) with its own hand in full; built-in
play hands the seat to move ``state[:OBS_VIEW]`` itself, which is that observation.

The rollout policy (``rollout`` of the model) lives with the heuristics it calls, in
``strategies/legend_raiders.py``: the game's modules never import strategies.
"""
import numpy as np
from numba import njit

from simlab.core.play import (EVENT_WIDTH, PLAY_SIGNATURE, REFUSAL_SIZE, check_refusal, emit, invariants_broken,
                              keep_view, lean, play_steps, split_wins, win_key)
from simlab.core.program import call, ret
from simlab.core.rng import randint, shuffle
from simlab.core.scratch import stack_scratch
from simlab.core.model import (APPLY_SIGNATURE, DETERMINIZE_SIGNATURE, LEGAL_SIGNATURE, OBSERVE_SIGNATURE,
                               RETURNS_SIGNATURE, STATE_SIZE_SIGNATURE, TO_MOVE_SIGNATURE)

from .components import EFFECT_COIN, MAX_CARDS, MAX_TILES, N_COLUMNS, N_SLOTS, O, VAR_NO_DICE
from .rules import (EV_CHANGE, EV_DIE_POINTS, EV_END, EV_EXTRA_DICE, EV_FINAL, EV_ROLL, EV_TAKE_CARD, EV_TURN,
                    action_choices, apply_effect, cards_any_time, complete, completion_open, die_card_choices,
                    expedition_choices, extra_dice_choices, extra_dice_open, n_held, n_tools, place_tile, prepare,
                    refill_column, return_tool, setup, show_hands, slot_choice_open, spend_dice_card, take_card,
                    tile_choices, tool_choices, usable_dice_card, use_variant_card, variant_card_open,
                    variant_effects)
from .scoring import check_invariants, final_scoring, log_standings, total_score, write_rows
from .state import (B_COIN_PTS, B_DICE_PTS, B_DIE_PTS, B_DONE, B_EXPEDITIONS, B_EXP_PTS, B_HAND, B_KNOWN,
                    B_MISSION_PTS, B_NDONE, B_NHAND, B_SLOT, B_TURNS, CHANGE_DIE, COMPLETE, END_DECK, END_GUARD,
                    END_RUNNING, END_SIXTH, END_STACK, EXTRA_DICE, HIDDEN, KEEP_ROLL, MAX_CHOICES, MAX_PLAYERS,
                    NO_CARD, NO_EXTRA, OBS_VIEW, P0, PB, PH_ACTION, PH_COMPLETE, PH_DIE_CARD, PH_EXTRA_DICE, PH_SLOT,
                    PH_TILE_LIMIT, PH_TOOL_LIMIT, PH_VARIANT_CARD, PLACE_SLOT, PREPARE, PROGRAM, PR_TOOL_LIMIT,
                    RETURN_TOOL, R_DIE, STATE_SIZE, STOP, ST_ACTION, ST_CHANGE, ST_CHANGE_LATER, ST_COMPLETE,
                    ST_END_TURN, ST_EXTRA, ST_OVER, ST_REFILL, ST_TILE, ST_TURN_OVER, ST_VCARD, S_CARDS_TURN,
                    S_COIN_BONUS, S_CUR, S_DECK, S_DECK_N, S_DISC, S_DISC_N, S_DONE_TURN, S_END_REASON, S_FACE,
                    S_FACEUP, S_FACE_BEFORE, S_HQ_TILE, S_NEW_TILE, S_PHASE, S_PLAYERS, S_PREP_COL, S_REMOVED,
                    S_REMOVED_N, S_ROLL, S_ROUND, S_STACK, S_STACK_N, S_STAGE, S_TOP_SYMBOL, S_TRIGGER, TAKE_FACEUP,
                    T_EVENTS, T_HAND, USE_CARD, X_DEPTH)


# ---- the turn as a step machine ------------------------------------------------------------------
@lean
def start_turn(state, cfg, seat, streams, log, n_ev):
    """Begin ``seat``'s turn: its hand shows, the die is rolled (base game), on to its first decision."""
    show_hands(state, seat)
    state[S_CUR] = seat
    state[S_FACE] = -1
    state[S_ROLL] = -1
    state[S_COIN_BONUS] = 0
    state[S_DONE_TURN] = 0
    state[S_CARDS_TURN] = 0
    n_ev = emit(log, n_ev, EV_TURN, seat, state[S_ROUND])
    if cfg[O.variant] == VAR_NO_DICE:
        state[S_STAGE] = ST_VCARD
    else:
        effect = cfg[O.die_faces + randint(streams[R_DIE], cfg[O.die_sides])]
        state[S_ROLL] = effect
        state[S_FACE] = effect
        n_ev = emit(log, n_ev, EV_ROLL, seat, effect)
        state[S_STAGE] = ST_CHANGE
    return advance(state, cfg, streams, log, n_ev)


@lean
def tools_then(state, resume):
    """Go on at ``resume`` once the backpack is within the tool limit: the turn calls the tool limit
    (``simlab.core.program``), which returns to it there."""
    state[S_STAGE] = resume
    call(state, PROGRAM, PR_TOOL_LIMIT)


@lean
def die_settled(state, cfg, seat, streams, log, n_ev):
    """No (more) dice card changes the die: its face takes effect. After the roll, then the action;
    after the expedition's card (``dice_card_same_turn``), a new face applies at once and a coin face
    turned away no longer pays (tools drawn and torches flipped stay), then the completions."""
    face = state[S_FACE]
    if state[S_STAGE] == ST_CHANGE:
        n_ev = apply_effect(state, cfg, seat, face, streams, log, n_ev)
        tools_then(state, ST_ACTION)
        return n_ev
    before = state[S_FACE_BEFORE]
    if face == before:
        state[S_STAGE] = ST_EXTRA
        return n_ev
    if before == EFFECT_COIN:
        state[S_COIN_BONUS] -= 1
    n_ev = apply_effect(state, cfg, seat, face, streams, log, n_ev)
    tools_then(state, ST_EXTRA)
    return n_ev


@lean
def advance(state, cfg, streams, log, n_ev):
    """Carry the turn on from ``S_STAGE`` until the current seat must decide (``S_PHASE`` set) or the
    turn is over (``ST_TURN_OVER``)."""
    seat = state[S_CUR]
    while True:
        if state[X_DEPTH] > 1:          # the tool limit the turn called (tools_then) is on top
            if n_tools(state, seat) > cfg[O.tool_limit]:
                state[S_PHASE] = PH_TOOL_LIMIT
                return n_ev
            ret(state, PROGRAM)
            continue
        stage = state[S_STAGE]
        if stage == ST_CHANGE or stage == ST_CHANGE_LATER:
            if state[S_CARDS_TURN] < cfg[O.dice_cards_per_roll] and usable_dice_card(state, cfg, seat) >= 0:
                state[S_PHASE] = PH_DIE_CARD
                return n_ev
            n_ev = die_settled(state, cfg, seat, streams, log, n_ev)
        elif stage == ST_VCARD:
            if variant_card_open(state, cfg, seat):
                state[S_PHASE] = PH_VARIANT_CARD
                return n_ev
            state[S_STAGE] = ST_ACTION
        elif stage == ST_ACTION:
            state[S_PHASE] = PH_ACTION
            return n_ev
        elif stage == ST_TILE:
            if state[S_NEW_TILE] < 0:   # the column had tools only
                tools_then(state, ST_REFILL)
            elif n_held(state, seat) >= cfg[O.tile_limit]:
                state[S_PHASE] = PH_TILE_LIMIT
                return n_ev
            elif slot_choice_open(state, cfg, seat):
                state[S_PHASE] = PH_SLOT
                return n_ev
            else:   # the free slots' coins are equal: nothing to decide, the first free slot
                s = 0
                while state[P0 + seat * PB + B_SLOT + s] >= 0:
                    s += 1
                n_ev = place_tile(state, seat, PLACE_SLOT + s, log, n_ev)
                tools_then(state, ST_REFILL)
        elif stage == ST_REFILL:
            n_ev = refill_column(state, cfg, state[S_PREP_COL], streams, log, n_ev)
            state[S_STAGE] = ST_END_TURN
        elif stage == ST_EXTRA:
            if cfg[O.variant] == VAR_NO_DICE and cfg[O.variant_extra_dice_card] and extra_dice_open(state, cfg):
                state[S_PHASE] = PH_EXTRA_DICE
                return n_ev
            state[S_STAGE] = ST_COMPLETE
        elif stage == ST_COMPLETE:
            if completion_open(state, cfg, seat) or cards_any_time(state, cfg, seat):
                state[S_PHASE] = PH_COMPLETE
                return n_ev
            state[S_STAGE] = ST_END_TURN
        else:  # ST_END_TURN: the coin effect pays per discovery completed this turn
            base = P0 + seat * PB
            bonus = state[S_COIN_BONUS] * state[S_DONE_TURN] * cfg[O.die_coin_points]
            if bonus > 0:
                state[base + B_DIE_PTS] += bonus
                n_ev = emit(log, n_ev, EV_DIE_POINTS, seat, bonus, state[S_DONE_TURN])
            state[base + B_TURNS] += 1
            state[S_STAGE] = ST_TURN_OVER
            return n_ev


@lean
def resolve(state, cfg, code, streams, log, n_ev):
    """Apply the current seat's answer ``code`` to the pending decision and carry the turn on."""
    seat = state[S_CUR]
    phase = state[S_PHASE]
    if phase == PH_ACTION:
        if code < TAKE_FACEUP:      # prepare: the column's tile and tools, then the tile's place
            state[S_PREP_COL] = code - PREPARE
            n_ev = prepare(state, seat, code - PREPARE, log, n_ev)
            state[S_STAGE] = ST_TILE
        else:                       # an expedition: the card first
            state[P0 + seat * PB + B_EXPEDITIONS] += 1
            card, n_ev = take_card(state, cfg, seat, code, EV_TAKE_CARD, streams, log, n_ev)
            if cfg[O.variant] != VAR_NO_DICE and cfg[O.dice_card_same_turn]:
                state[S_FACE_BEFORE] = state[S_FACE]
                state[S_STAGE] = ST_CHANGE_LATER
            else:
                state[S_STAGE] = ST_EXTRA
    elif phase == PH_COMPLETE:
        if code == STOP:
            state[S_STAGE] = ST_END_TURN
        elif code >= USE_CARD:
            n_ev = use_variant_card(state, cfg, seat, code - USE_CARD, streams, log, n_ev)
            tools_then(state, ST_COMPLETE)
        else:
            n_ev = complete(state, cfg, seat, (code - COMPLETE) // 5, (code - COMPLETE) % 5, log, n_ev)
    elif phase == PH_TOOL_LIMIT:
        n_ev = return_tool(state, seat, code - RETURN_TOOL, log, n_ev)
    elif phase == PH_DIE_CARD:
        if code == KEEP_ROLL:
            n_ev = die_settled(state, cfg, seat, streams, log, n_ev)
        else:
            n_ev = emit(log, n_ev, EV_CHANGE, seat, state[S_FACE], code - CHANGE_DIE)
            n_ev = spend_dice_card(state, cfg, seat, usable_dice_card(state, cfg, seat), streams, log, n_ev)
            state[S_FACE] = code - CHANGE_DIE
    elif phase == PH_VARIANT_CARD:
        if code == NO_CARD:
            state[S_STAGE] = ST_ACTION
        else:
            n_ev = use_variant_card(state, cfg, seat, code - USE_CARD, streams, log, n_ev)
            tools_then(state, ST_VCARD)
    elif phase == PH_EXTRA_DICE:
        if code != NO_EXTRA:
            card, n_ev = take_card(state, cfg, seat, TAKE_FACEUP + code - EXTRA_DICE, EV_EXTRA_DICE, streams, log,
                                   n_ev)
        state[S_STAGE] = ST_COMPLETE
    else:                           # PH_SLOT, PH_TILE_LIMIT
        n_ev = place_tile(state, seat, code, log, n_ev)
        tools_then(state, ST_REFILL)
    return advance(state, cfg, streams, log, n_ev)


@lean
def choices(state, cfg, out):
    """The pending decision's legal codes, in the order the rules have always listed them."""
    phase = state[S_PHASE]
    seat = state[S_CUR]
    if phase == PH_ACTION:
        return action_choices(state, cfg, out)
    if phase == PH_COMPLETE:
        return expedition_choices(state, cfg, seat, out)
    if phase == PH_TOOL_LIMIT:
        return tool_choices(state, seat, out)
    if phase == PH_DIE_CARD:
        return die_card_choices(state, out)
    if phase == PH_VARIANT_CARD:
        n = variant_effects(state, cfg, out, 0)
        out[n] = NO_CARD
        return n + 1
    if phase == PH_EXTRA_DICE:
        return extra_dice_choices(state, cfg, out)
    return tile_choices(state, cfg, seat, out)


@lean
def next_turn(state, cfg, streams, log, n_ev):
    """After a turn: the next seat's turn, or the end of the round (the triggering round is played to
    its end, so everyone has had the same number of turns), or the end and the final scoring."""
    seat = state[S_CUR] + 1
    if seat < state[S_PLAYERS]:
        return start_turn(state, cfg, seat, streams, log, n_ev)
    n_ev = log_standings(state, cfg, log, n_ev)
    if state[S_TRIGGER] > 0:
        state[S_END_REASON] = END_SIXTH
    elif state[S_TRIGGER] == -1:
        state[S_END_REASON] = END_STACK
    elif state[S_TRIGGER] == -2:
        state[S_END_REASON] = END_DECK
    elif state[S_ROUND] >= cfg[O.max_rounds]:
        state[S_END_REASON] = END_GUARD
    if state[S_END_REASON] == END_RUNNING:
        state[S_ROUND] += 1
        return start_turn(state, cfg, 0, streams, log, n_ev)
    n_ev = emit(log, n_ev, EV_END, state[S_END_REASON], state[S_ROUND], state[S_TRIGGER])
    show_hands(state, -1)
    n_ev = final_scoring(state, cfg, log, n_ev)
    for p in range(state[S_PLAYERS]):
        base = P0 + p * PB
        n_ev = emit(log, n_ev, EV_FINAL, p, state[base + B_COIN_PTS], state[base + B_EXP_PTS],
                    state[base + B_DIE_PTS], state[base + B_MISSION_PTS], state[base + B_DICE_PTS],
                    total_score(state, p))
    state[S_STAGE] = ST_OVER
    return n_ev


# ---- the contract ------------------------------------------------------------------------------
@njit(cache=True)
def begin(state, cfg, n_players, streams, log):
    """Set up (traced when ``log`` has room) and play on to seat 0's first decision."""
    n_ev = setup(state, cfg, n_players, streams, log, 0)
    state[T_EVENTS] = start_turn(state, cfg, 0, streams, log, n_ev)


@njit(cache=True)
def new_game(state, cfg, n_players, streams):
    begin(state, cfg, n_players, streams, np.zeros((0, EVENT_WIDTH), np.int32))


@njit(TO_MOVE_SIGNATURE, cache=True, inline="always")
def to_move(state):
    return -1 if state[S_STAGE] == ST_OVER else state[S_CUR]


@njit(LEGAL_SIGNATURE, cache=True, inline="always")
def legal(state, cfg, out):
    return choices(state, cfg, out)


@njit(APPLY_SIGNATURE, cache=True, inline="always")
def apply(state, cfg, code, streams, log):
    """Apply the choice, then play on (chance, automatic steps, the next turns) to the next decision."""
    n_ev = resolve(state, cfg, code, streams, log, state[T_EVENTS])
    if state[S_STAGE] == ST_TURN_OVER:
        if cfg[O.check_invariants]:
            broken = check_invariants(state, cfg)
            if broken:
                invariants_broken(broken)
        n_ev = next_turn(state, cfg, streams, log, n_ev)
    state[T_EVENTS] = n_ev


@njit(OBSERVE_SIGNATURE, cache=True)
def observe(state, seat, obs):
    """The view with ``seat``'s own hand in full and the other seats' blind cards HIDDEN; HIDDEN for
    the stack and deck orders and the true hands (the stack's top symbol is in the view)."""
    obs[:OBS_VIEW] = state[:OBS_VIEW]
    for p in range(state[S_PLAYERS]):
        base = P0 + p * PB
        for h in range(state[base + B_NHAND]):
            obs[base + B_HAND + h] = state[T_HAND + p * MAX_CARDS + h] \
                if p == seat or state[base + B_KNOWN + h] or state[S_STAGE] == ST_OVER else HIDDEN
    obs[OBS_VIEW:T_EVENTS] = HIDDEN
    obs[T_EVENTS] = state[T_EVENTS]


IN_SIGHT = MAX_TILES + MAX_CARDS   # determinize's marks: a constant, as the size of scratch must be


@njit(DETERMINIZE_SIGNATURE, cache=True, _nrt=False)   # lean (simlab.core.play.lean): once a play-out
def determinize(obs, seat, cfg, rng, state):
    """A full state the seat cannot tell from the true one.

    The stack is a uniform order of the tiles nowhere in sight, its top drawn among those with the
    symbol that shows. The cards nowhere in sight (not face up, removed, in the seat's hand or known
    in another's) are dealt uniformly to the other seats' blind cards and the deck. A simplification:
    under ``used_dice_cards=reshuffled`` and in the no-dice variant a seat saw which dice card went
    back into the deck; the sample does not keep it there. ``obs`` may also be just the view
    (``OBS_VIEW`` entries, what built-in play hands a strategy): the trace count then starts at 0.
    """
    for i in range(OBS_VIEW):   # (a slice copy would allocate when it cannot rule out an overlap)
        state[i] = obs[i]
    state[T_EVENTS] = obs[T_EVENTS] if obs.shape[0] >= STATE_SIZE else 0
    n_players = state[S_PLAYERS]
    # tiles
    n_tiles = cfg[O.tiles]
    seen = stack_scratch(IN_SIGHT)   # tiles, then (below) cards in sight; scratch on the stack
    seen[:] = 0
    for col in range(N_COLUMNS):
        if state[S_HQ_TILE + col] >= 0:
            seen[state[S_HQ_TILE + col]] = 1
    for i in range(state[S_DISC_N]):
        seen[state[S_DISC + i]] = 1
    if state[S_NEW_TILE] >= 0:
        seen[state[S_NEW_TILE]] = 1
    for p in range(n_players):
        base = P0 + p * PB
        for s in range(N_SLOTS):
            if state[base + B_SLOT + s] >= 0:
                seen[state[base + B_SLOT + s]] = 1
        for i in range(state[base + B_NDONE]):
            seen[state[base + B_DONE + i]] = 1
    k = state[S_STACK_N]
    m = 0
    top = -1
    n_top = 0
    for t in range(n_tiles):
        if not seen[t]:
            state[S_STACK + m] = t
            if cfg[O.tile_symbol + t] == state[S_TOP_SYMBOL]:   # reservoir pick of the top tile
                n_top += 1
                if randint(rng, n_top) == 0:
                    top = m
            m += 1
    if k > 0 and top >= 0:
        state[S_STACK + top], state[S_STACK + m - 1] = state[S_STACK + m - 1], state[S_STACK + top]
        shuffle(rng, state[S_STACK:S_STACK + m - 1], m - 1)
    else:
        shuffle(rng, state[S_STACK:S_STACK + m], m)
    for i in range(k, MAX_TILES):
        state[S_STACK + i] = -1
    # cards
    n_cards = cfg[O.cards]
    seen[:] = 0
    for i in range(4):
        if state[S_FACEUP + i] >= 0:
            seen[state[S_FACEUP + i]] = 1
    for i in range(state[S_REMOVED_N]):
        seen[state[S_REMOVED + i]] = 1
    for p in range(n_players):
        base = P0 + p * PB
        for h in range(state[base + B_NHAND]):
            if state[base + B_HAND + h] >= 0:
                seen[state[base + B_HAND + h]] = 1
    pool = stack_scratch(MAX_CARDS)
    m = 0
    for c in range(n_cards):
        if not seen[c]:
            pool[m] = c
            m += 1
    shuffle(rng, pool, m)
    m = 0
    for p in range(MAX_PLAYERS):
        base = P0 + p * PB
        for h in range(MAX_CARDS):
            card = -1
            if p < n_players and h < state[base + B_NHAND]:
                card = state[base + B_HAND + h]
                if card < 0:
                    card = pool[m]
                    m += 1
            state[T_HAND + p * MAX_CARDS + h] = card
    for i in range(MAX_CARDS):
        if i < state[S_DECK_N]:
            state[S_DECK + i] = pool[m]
            m += 1
        else:
            state[S_DECK + i] = -1
    show_hands(state, -1 if state[S_STAGE] == ST_OVER else state[S_CUR])


@njit(RETURNS_SIGNATURE, cache=True)
def returns(state, cfg, out):
    """Win shares: most points wins, a tie goes to the later seat (as the result rows' tie-break),
    so exactly one seat wins."""
    for p in range(state[S_PLAYERS]):
        out[p] = win_key(total_score(state, p), p)
    split_wins(out, state[S_PLAYERS])


@njit(STATE_SIZE_SIGNATURE, cache=True)
def state_size():
    return STATE_SIZE


# ---- built-in play -----------------------------------------------------------------------------
@njit(cache=True)
def play_from(state, cfg, seat_slot, fns, seat_params, streams, log):
    """Play the game on from ``state`` to its end, the seats' strategies deciding (see ``play_on``)."""
    refusal = np.zeros(REFUSAL_SIZE, dtype=np.int64)
    play_on(state, cfg, seat_slot, fns, seat_params, streams, log, np.empty(MAX_CHOICES, dtype=np.int32), refusal)
    check_refusal(refusal)


@lean
def play_on(state, cfg, seat_slot, fns, seat_params, streams, log, buf, refusal):
    """``play_from``'s loop (``simlab.core.play.play_steps``), lean. A strategy receives the state's
    view (its first ``OBS_VIEW`` entries), which at every decision is the deciding seat's
    observation (``observe``), so no copy is made."""
    view = state[:OBS_VIEW]
    play_steps(to_move, legal, apply, keep_view, state, cfg, seat_slot, fns, seat_params, streams, log, buf, view,
               view, refusal)


@njit(cache=True)
def finish(state, cfg, rows, log):
    """After the last decision: the result rows; the event count. The end and the final scoring were
    traced by the last decision's step (``next_turn``), so no event is written here."""
    write_rows(state, cfg, rows)
    return state[T_EVENTS]


@njit(PLAY_SIGNATURE, cache=True)
def play_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """One game through the step interface: ``new_game``, then ``to_move`` / ``legal`` / ``apply``."""
    state = np.empty(STATE_SIZE, dtype=np.int32)
    begin(state, cfg, n_players, streams, log)   # new_game, traced
    play_from(state, cfg, seat_slot, fns, seat_params, streams, log)
    return finish(state, cfg, rows, log)
