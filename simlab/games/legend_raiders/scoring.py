"""Legend Raiders' end of the game: final scoring, the standings, the result rows, and the invariant
checker (see ``state.py``)."""
import numpy as np
from numba import njit

from simlab.core.play import COL_SCORE, COL_TIEBREAK, EVENT_WIDTH, FIRST_GAME_COLUMN, emit, emit_standings, lean
from simlab.core.scratch import stack_scratch

from .components import (KIND_DICE, KIND_DISCOVERY, KIND_MISSION, MAX_CARDS, MAX_SYMBOLS, N_COLUMNS, N_SLOTS,
                         N_TOOL_TYPES, O)
from .rules import EV_MISSION, n_held, n_tools, show_hands
from .state import (B_COIN_PTS, B_DICE_PTS, B_DICE_USED, B_DIE_PTS, B_DONE, B_EXP_PTS, B_EXPEDITIONS, B_HAND,
                    B_MISSION_PTS, B_MISSIONS, B_NDONE, B_NHAND, B_PREPARES, B_SLOT, B_TILES_DISC, B_TOOLS,
                    B_TOOLS_DISC, B_TORCH, B_TORCH_USES, B_TURNS, B_CARDS, HIDDEN, MAX_DONE, P0, PB, S_BAG, S_DECK,
                    S_DECK_N, S_DECK_OUT, S_DISC, S_DISC_N, S_END_REASON, S_FACEUP, S_HQ_TILE, S_HQ_TOOLS,
                    S_NEW_TILE, S_PLAYERS, S_REMOVED, S_REMOVED_N, S_RESHUFFLES, S_ROUND, S_STACK, S_STACK_N,
                    S_STACK_OUT, S_STAGE, S_TRIGGER, ST_OVER, ST_TURN_OVER, T_HAND)

# Result columns the kernel writes from FIRST_GAME_COLUMN on (declared with meanings in __init__).
(C_DISCOVERIES, C_MISSION_PTS, C_MISSIONS, C_COIN_PTS, C_EXP_PTS, C_DIE_PTS, C_DICE_HELD, C_DICE_PTS,
 C_DICE_USED, C_TORCH_USES, C_TURNS, C_TRIGGERED, C_PREPARES, C_EXPEDITIONS, C_CARDS, C_DISCOVERY_CARDS,
 C_TILES_DISC, C_TOOLS_DISC, C_ROUNDS, C_TRIGGER_SEAT, C_END_REASON, C_STACK_OUT, C_RESHUFFLES,
 C_TILES_LEFT, C_DECK_OUT) = range(FIRST_GAME_COLUMN, FIRST_GAME_COLUMN + 25)


@lean
def symbol_counts(state, cfg, seat, counts):
    """Symbols of the completed tiles plus the held discovery cards (what missions check)."""
    base = P0 + seat * PB
    ns = cfg[O.symbols]
    counts[:] = 0
    for i in range(state[base + B_NDONE]):
        counts[cfg[O.tile_symbol + state[base + B_DONE + i]]] += 1
    for h in range(state[base + B_NHAND]):
        card = state[base + B_HAND + h]
        if cfg[O.card_kind + card] == KIND_DISCOVERY:
            for s in range(ns):
                counts[s] += cfg[O.card_need + card * ns + s]


@lean
def mission_met(cfg, card, counts):
    """Every symbol the mission shows is covered (a multiset), and it sees ``card_different``
    different symbols."""
    ns = cfg[O.symbols]
    different = 0
    for s in range(ns):
        if counts[s] < cfg[O.card_need + card * ns + s]:
            return False
        if counts[s] > 0:
            different += 1
    return different >= cfg[O.card_different + card]


@lean
def final_scoring(state, cfg, log, n_ev):
    """Reveal the cards: missions met (one tile may serve many), 1 point per dice card held. The
    symbol counts are scratch on its stack: every play-out of the search ends here."""
    counts = stack_scratch(MAX_SYMBOLS)
    for p in range(state[S_PLAYERS]):
        base = P0 + p * PB
        symbol_counts(state, cfg, p, counts)
        for h in range(state[base + B_NHAND]):
            card = state[base + B_HAND + h]
            kind = cfg[O.card_kind + card]
            if kind == KIND_MISSION:
                met = mission_met(cfg, card, counts)
                if met:
                    state[base + B_MISSION_PTS] += cfg[O.card_points + card]
                    state[base + B_MISSIONS] += 1
                n_ev = emit(log, n_ev, EV_MISSION, p, card, met)
            elif kind == KIND_DICE:
                state[base + B_DICE_PTS] += cfg[O.dice_card_points]
    return n_ev


@lean
def total_score(state, seat):
    base = P0 + seat * PB
    return (state[base + B_COIN_PTS] + state[base + B_EXP_PTS] + state[base + B_DIE_PTS]
            + state[base + B_MISSION_PTS] + state[base + B_DICE_PTS])


@njit(cache=True, _nrt=True)   # allocates (scores a copy of the state): counted even when a lean loop calls it
def log_standings(state, cfg, log, n_ev):
    """The standings after a round: the end scoring (:func:`final_scoring`: missions met by what is
    held now, dice cards held) applied to a copy of the state, so the game itself is untouched;
    only when the game is traced."""
    if log.shape[0] == 0:
        return n_ev
    now = state.copy()
    show_hands(now, -1)
    final_scoring(now, cfg, np.zeros((0, EVENT_WIDTH), dtype=np.int32), 0)
    n_players = state[S_PLAYERS]
    scores = np.zeros(n_players, dtype=np.int64)
    for p in range(n_players):
        scores[p] = total_score(now, p)
    return emit_standings(log, n_ev, state[S_ROUND], scores, n_players)


@njit(cache=True, _nrt=True)   # allocates (tallies of its own): counted even when a lean loop calls it
def check_invariants(state, cfg):
    """0 if the state is consistent, else the number of the first broken invariant:

    1 tools not conserved (bag + HQ + backpacks != tools_per_type of each type) or a count < 0;
    2 a tile not in exactly one place (stack, HQ, dig sites, maps, discard pile, a prepare's new tile);
    3 a card not in exactly one place (deck, face-up row, hands, removed), or a hand's view
      (``B_HAND``) showing another card than the true hand (``T_HAND``);
    4 a backpack over the tool limit or a board over the tile limit between turns (a turn gives them
      back before it ends);
    5 a torch not 0/1, a negative score part, or a pile size out of range.
    """
    n_players = state[S_PLAYERS]
    for t in range(N_TOOL_TYPES):
        total = state[S_BAG + t]
        if state[S_BAG + t] < 0:
            return 1
        for col in range(N_COLUMNS):
            total += state[S_HQ_TOOLS + col * 4 + t]
            if state[S_HQ_TOOLS + col * 4 + t] < 0:
                return 1
        for p in range(n_players):
            k = state[P0 + p * PB + B_TOOLS + t]
            if k < 0:
                return 1
            total += k
        if total != cfg[O.tools_per_type]:
            return 1
    n_tiles = cfg[O.tiles]
    n_cards = cfg[O.cards]
    if not (0 <= state[S_STACK_N] <= n_tiles and 0 <= state[S_DISC_N] <= n_tiles
            and 0 <= state[S_DECK_N] <= n_cards and 0 <= state[S_REMOVED_N] <= n_cards):
        return 5
    seen = np.zeros(n_tiles, dtype=np.int64)
    for i in range(state[S_STACK_N]):
        seen[state[S_STACK + i]] += 1
    for i in range(state[S_DISC_N]):
        seen[state[S_DISC + i]] += 1
    for col in range(N_COLUMNS):
        if state[S_HQ_TILE + col] >= 0:
            seen[state[S_HQ_TILE + col]] += 1
    if state[S_NEW_TILE] >= 0:   # a prepare's tile while its place is decided
        seen[state[S_NEW_TILE]] += 1
    for p in range(n_players):
        base = P0 + p * PB
        for s in range(N_SLOTS):
            if state[base + B_SLOT + s] >= 0:
                seen[state[base + B_SLOT + s]] += 1
        if not 0 <= state[base + B_NDONE] <= MAX_DONE:
            return 5
        for i in range(state[base + B_NDONE]):
            seen[state[base + B_DONE + i]] += 1
    for i in range(n_tiles):
        if seen[i] != 1:
            return 2
    cards = np.zeros(n_cards, dtype=np.int64)
    for i in range(state[S_DECK_N]):
        cards[state[S_DECK + i]] += 1
    for i in range(state[S_REMOVED_N]):
        cards[state[S_REMOVED + i]] += 1
    for k in range(4):
        if state[S_FACEUP + k] >= 0:
            cards[state[S_FACEUP + k]] += 1
    for p in range(n_players):
        base = P0 + p * PB
        for h in range(state[base + B_NHAND]):
            card = state[T_HAND + p * MAX_CARDS + h]
            shown = state[base + B_HAND + h]
            if card < 0 or card >= n_cards or (shown != card and shown != HIDDEN):
                return 3
            cards[card] += 1
    for i in range(n_cards):
        if cards[i] != 1:
            return 3
    for p in range(n_players):
        base = P0 + p * PB
        between_turns = state[S_STAGE] == ST_TURN_OVER or state[S_STAGE] == ST_OVER   # (a turn gives back later)
        if between_turns and (n_tools(state, p) > cfg[O.tool_limit] or n_held(state, p) > cfg[O.tile_limit]):
            return 4
        if state[base + B_TORCH] != 0 and state[base + B_TORCH] != 1:
            return 5
        for k in (B_COIN_PTS, B_EXP_PTS, B_DIE_PTS, B_MISSION_PTS, B_DICE_PTS):
            if state[base + k] < 0:
                return 5
    return 0


@lean
def write_rows(state, cfg, rows):
    """One result row per seat: score, tie-break (the later seat wins a tie) and the game columns."""
    n_players = state[S_PLAYERS]
    for p in range(n_players):
        base = P0 + p * PB
        r = rows[p]
        r[COL_SCORE] = total_score(state, p)
        r[COL_TIEBREAK] = p
        dice_held = 0
        disc_cards = 0
        for h in range(state[base + B_NHAND]):
            kind = cfg[O.card_kind + state[base + B_HAND + h]]
            dice_held += kind == KIND_DICE
            disc_cards += kind == KIND_DISCOVERY
        r[C_DISCOVERIES] = state[base + B_NDONE]
        r[C_MISSION_PTS] = state[base + B_MISSION_PTS]
        r[C_MISSIONS] = state[base + B_MISSIONS]
        r[C_COIN_PTS] = state[base + B_COIN_PTS]
        r[C_EXP_PTS] = state[base + B_EXP_PTS]
        r[C_DIE_PTS] = state[base + B_DIE_PTS]
        r[C_DICE_HELD] = dice_held
        r[C_DICE_PTS] = state[base + B_DICE_PTS]
        r[C_DICE_USED] = state[base + B_DICE_USED]
        r[C_TORCH_USES] = state[base + B_TORCH_USES]
        r[C_TURNS] = state[base + B_TURNS]
        r[C_TRIGGERED] = state[S_TRIGGER] == p + 1
        r[C_PREPARES] = state[base + B_PREPARES]
        r[C_EXPEDITIONS] = state[base + B_EXPEDITIONS]
        r[C_CARDS] = state[base + B_CARDS]
        r[C_DISCOVERY_CARDS] = disc_cards
        r[C_TILES_DISC] = state[base + B_TILES_DISC]
        r[C_TOOLS_DISC] = state[base + B_TOOLS_DISC]
        r[C_ROUNDS] = state[S_ROUND]
        r[C_TRIGGER_SEAT] = state[S_TRIGGER] - 1 if state[S_TRIGGER] > 0 else -1
        r[C_END_REASON] = state[S_END_REASON]
        r[C_STACK_OUT] = state[S_STACK_OUT]
        r[C_RESHUFFLES] = state[S_RESHUFFLES]
        r[C_TILES_LEFT] = state[S_STACK_N]
        r[C_DECK_OUT] = state[S_DECK_OUT]

