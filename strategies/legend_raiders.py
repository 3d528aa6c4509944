"""Legend Raiders strategies: uniform random, and three heuristics with different plans.

* ``hunter``  (mission hunter) collects mission cards and steers its tiles toward the symbols its
  missions need: prepares columns whose tile shows a wanted symbol, takes the face-up card worth
  most for its symbol collection.
* ``racer``   (fast finisher) races to the 6th discovery: prepares the cheapest tiles the tools in
  hand fit, batches completions, takes dice cards and already-met missions, otherwise blind cards.
* ``coiner``  (coin maximiser) keeps its dig sites empty: holds at most ``max_held`` tiles,
  completes each as soon as it can (so most coins show), prefers tiles paid with its expertise
  tool, and uses spare turns on cards.

Choice codes and decision phases are those of ``simlab.games.legend_raiders.state``. A strategy
receives the seat's observation (the state's view: the stack and deck orders and the other seats'
blind cards are not in it) and reads only public information plus its own board and hand.

* ``rollout`` and ``mcts``: the search players (``simlab.search.players``) through the game's step
  functions, with a uniform or heuristic play-out policy (``rollout``).
"""
from numba import njit

from simlab.core.rng import randint
from simlab.core.model import ROLLOUT_SIGNATURE, declare_play_out
from simlab.core.strategy import StrategyParam, strategy
from simlab.games.legend_raiders.components import KIND_DICE, KIND_DISCOVERY, KIND_MISSION, O
from simlab.games.legend_raiders.rules import is_expertise
from simlab.games.legend_raiders.state import (B_BOARD, B_DONE, B_HAND, B_NDONE, B_NHAND, B_SLOT, B_TOOLS, B_TORCH,
                                               CHANGE_DIE, COMPLETE, DISCARD_TILE, KEEP_ROLL, NO_CARD,
                                               NO_TORCH, P0, PB, PH_COMPLETE, PH_DIE_CARD,
                                               PH_EXTRA_DICE, PH_SLOT, PH_TILE_LIMIT, PH_TOOL_LIMIT,
                                               PH_VARIANT_CARD, PLACE_SLOT, PREPARE, RETURN_TOOL, S_FACEUP,
                                               S_HQ_TILE, S_HQ_TOOLS, S_NEW_TILE, S_PHASE, STOP, TAKE_BLIND,
                                               TAKE_FACEUP, USE_CARD)


@strategy("legend-raiders", "random", "uniform random legal play at every decision", uniform=True)
def random_play(state, cfg, seat, legal, n_legal, params, rng):
    return randint(rng, n_legal)


# ---- shared reading of the position ------------------------------------------------------------
@njit(cache=True)
def shortage(state, cfg, seat, tile):
    """Tools the seat still lacks to pay ``tile`` (the torch not counted)."""
    base = P0 + seat * PB
    m = 0
    for t in range(4):
        d = cfg[O.tile_cost + tile * 4 + t] - state[base + B_TOOLS + t]
        if d > 0:
            m += d
    return m


@njit(cache=True)
def tile_size(cfg, tile):
    return cfg[O.tile_cost + tile * 4] + cfg[O.tile_cost + tile * 4 + 1] + cfg[O.tile_cost + tile * 4 + 2] + \
        cfg[O.tile_cost + tile * 4 + 3]


@njit(cache=True)
def n_completable(state, cfg, seat):
    """Held tiles payable now on their own (the lit torch may cover one missing tool)."""
    base = P0 + seat * PB
    lit = state[base + B_TORCH]
    k = 0
    for s in range(3):
        tile = state[base + B_SLOT + s]
        if tile >= 0 and shortage(state, cfg, seat, tile) <= lit:
            k += 1
    return k


@njit(cache=True)
def n_held(state, seat):
    base = P0 + seat * PB + B_SLOT
    return (state[base] >= 0) + (state[base + 1] >= 0) + (state[base + 2] >= 0)


@njit(cache=True)
def bump(have, s, k):
    """``have`` with ``k`` more of symbol ``s``. Symbol counts live in a tuple of MAX_SYMBOLS (6)
    registers, so reading a position allocates nothing whatever the component set's symbol count."""
    return (have[0] + k * (s == 0), have[1] + k * (s == 1), have[2] + k * (s == 2), have[3] + k * (s == 3),
            have[4] + k * (s == 4), have[5] + k * (s == 5))


@njit(cache=True)
def have_symbols(state, cfg, seat, with_held):
    """Symbol counts (A, B, ...) of completed tiles + discovery cards (+ held tiles)."""
    base = P0 + seat * PB
    ns = cfg[O.symbols]
    have = (0, 0, 0, 0, 0, 0)
    for i in range(state[base + B_NDONE]):
        have = bump(have, cfg[O.tile_symbol + state[base + B_DONE + i]], 1)
    if with_held:
        for k in range(3):
            tile = state[base + B_SLOT + k]
            if tile >= 0:
                have = bump(have, cfg[O.tile_symbol + tile], 1)
    for h in range(state[base + B_NHAND]):
        card = state[base + B_HAND + h]
        if cfg[O.card_kind + card] == KIND_DISCOVERY:
            for sym in range(ns):
                k = cfg[O.card_need + card * ns + sym]
                if k > 0:
                    have = bump(have, sym, k)
    return have


@njit(cache=True)
def count_of(have, s):
    if s == 0:
        return have[0]
    if s == 1:
        return have[1]
    if s == 2:
        return have[2]
    if s == 3:
        return have[3]
    if s == 4:
        return have[4]
    return have[5]


@njit(cache=True)
def distinct(have, ns):
    """Different symbols among the first ``ns`` counts."""
    k = 0
    for s in range(ns):
        if count_of(have, s) > 0:
            k += 1
    return k


@njit(cache=True)
def wanted(state, cfg, seat, have, symbol):
    """How many more tiles of ``symbol`` the seat's held missions still need (summed over missions;
    a symbol not yet held counts once more for each mission still short of different symbols)."""
    base = P0 + seat * PB
    ns = cfg[O.symbols]
    w = 0
    for h in range(state[base + B_NHAND]):
        card = state[base + B_HAND + h]
        if cfg[O.card_kind + card] == KIND_MISSION:
            d = cfg[O.card_need + card * ns + symbol] - count_of(have, symbol)
            if d > 0:
                w += d
            different = cfg[O.card_different + card]
            if different > 0 and count_of(have, symbol) == 0 and distinct(have, ns) < different:
                w += 1
    return w


@njit(cache=True)
def card_value(state, cfg, seat, card, have):
    """Expected worth of a card for the seat: a mission by the share of its symbols in reach."""
    kind = cfg[O.card_kind + card]
    ns = cfg[O.symbols]
    if kind == KIND_DICE:
        return 1.5
    if kind == KIND_DISCOVERY:
        v = 1.0
        for s in range(ns):
            if cfg[O.card_need + card * ns + s] > 0:
                v += 1.5 * wanted(state, cfg, seat, have, s)
        return v
    need = 0
    met = 0
    for s in range(ns):
        k = cfg[O.card_need + card * ns + s]
        need += k
        met += min(k, count_of(have, s))
    different = cfg[O.card_different + card]
    if different > 0:
        need += different
        met += min(different, distinct(have, ns))
    if need == 0:
        return float(cfg[O.card_points + card])
    return cfg[O.card_points + card] * (met / need) ** 2


@njit(cache=True)
def best_card(state, cfg, seat, legal, n_legal, blind_value):
    """The face-up card worth most, or the blind draw if none beats ``blind_value``."""
    have = have_symbols(state, cfg, seat, True)
    best = -1
    best_v = -1e18
    blind = -1
    for i in range(n_legal):
        code = legal[i]
        if TAKE_FACEUP <= code < TAKE_BLIND:
            v = card_value(state, cfg, seat, state[S_FACEUP + code - TAKE_FACEUP], have)
            if v > best_v:
                best_v = v
                best = i
        elif code >= TAKE_FACEUP:
            blind = i
    if blind >= 0 and (best < 0 or best_v < blind_value):
        return blind
    return best


@njit(cache=True)
def first_expedition(legal, n_legal):
    for i in range(n_legal):
        if legal[i] >= TAKE_FACEUP:
            return i
    return -1


@njit(cache=True)
def column_deficit(state, cfg, seat, col, with_tile):
    """Tools still missing for all held tiles (and the column's tile) after taking the column."""
    base = P0 + seat * PB
    tile = state[S_HQ_TILE + col]
    m = 0
    for t in range(4):
        need = 0
        for s in range(3):
            h = state[base + B_SLOT + s]
            if h >= 0:
                need += cfg[O.tile_cost + h * 4 + t]
        if with_tile and tile >= 0:
            need += cfg[O.tile_cost + tile * 4 + t]
        d = need - state[base + B_TOOLS + t] - state[S_HQ_TOOLS + col * 4 + t]
        if d > 0:
            m += d
    return m


@njit(cache=True)
def column_tools_useful(state, cfg, seat, col):
    """Column tools of a type the seat's held tiles still need."""
    base = P0 + seat * PB
    k = 0
    for t in range(4):
        need = 0
        for s in range(3):
            h = state[base + B_SLOT + s]
            if h >= 0:
                need += cfg[O.tile_cost + h * 4 + t]
        d = need - state[base + B_TOOLS + t]
        if d > 0:
            k += min(d, state[S_HQ_TOOLS + col * 4 + t])
    return k


@njit(cache=True)
def expertise_cost(cfg, board, tile):
    """Tools of the board's expertise types in ``tile``'s cost (each scores expertise points)."""
    n_exp = cfg[O.expertise_tools]
    k = 0
    for e in range(n_exp):
        k += cfg[O.tile_cost + tile * 4 + cfg[O.expertise + board * n_exp + e]]
    return k


# ---- shared answers to the small decisions -------------------------------------------------------
@njit(cache=True)
def return_tool(state, cfg, seat, legal, n_legal):
    """Return the tool type with the largest surplus over what the held tiles need (the expertise
    tool last)."""
    base = P0 + seat * PB
    board = state[base + B_BOARD]
    best = 0
    best_v = -1e18
    for i in range(n_legal):
        t = legal[i] - RETURN_TOOL
        need = 0
        for s in range(3):
            h = state[base + B_SLOT + s]
            if h >= 0:
                need += cfg[O.tile_cost + h * 4 + t]
        v = state[base + B_TOOLS + t] - need - (0.5 if is_expertise(cfg, board, t) else 0.0)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True)
def discard_tile(state, cfg, seat, legal, n_legal, w_symbol):
    """Drop the tile furthest from being paid, keeping symbols the missions want."""
    base = P0 + seat * PB
    have = have_symbols(state, cfg, seat, False)
    best = 0
    best_v = -1e18
    for i in range(n_legal):
        s = legal[i] - DISCARD_TILE
        tile = state[S_NEW_TILE] if s == 3 else state[base + B_SLOT + s]
        v = shortage(state, cfg, seat, tile) + 0.1 * tile_size(cfg, tile) \
            - w_symbol * wanted(state, cfg, seat, have, cfg[O.tile_symbol + tile])
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True)
def cheapest_slot(state, cfg, seat, legal, n_legal):
    """Cover the free dig-site slot with the fewest coins."""
    board = state[P0 + seat * PB + B_BOARD]
    best = 0
    best_c = 1 << 30
    for i in range(n_legal):
        c = cfg[O.slot_coins + board * 3 + legal[i] - PLACE_SLOT]
        if c < best_c:
            best_c = c
            best = i
    return best


@njit(cache=True)
def complete_choice(state, cfg, seat, legal, n_legal, w_symbol, stop_below):
    """Pick the completion to make: tools-only payments first (the torch is kept), the most
    expertise tools and wanted symbols; STOP when there is none or fewer options than wished."""
    base = P0 + seat * PB
    board = state[base + B_BOARD]
    have = have_symbols(state, cfg, seat, False)
    best = -1
    best_v = -1e18
    stop = -1
    use_tool = -1
    use_torch = -1
    n_complete = 0
    for i in range(n_legal):
        code = legal[i]
        if code == STOP:
            stop = i
            continue
        if code >= USE_CARD:
            if code == USE_CARD:
                use_tool = i
            elif code == USE_CARD + 1:
                use_torch = i
            continue
        n_complete += 1
        slot = (code - COMPLETE) // 5
        pay = (code - COMPLETE) % 5
        tile = state[base + B_SLOT + slot]
        v = expertise_cost(cfg, board, tile) * cfg[O.expertise_points] \
            + w_symbol * wanted(state, cfg, seat, have, cfg[O.tile_symbol + tile]) + 0.01 * tile_size(cfg, tile)
        if pay != NO_TORCH:
            v -= 100.0 + (1.0 if is_expertise(cfg, board, pay) else 0.0)
        if v > best_v:
            best_v = v
            best = i
    if best >= 0 and n_complete >= stop_below:
        return best
    # no completion: a variant dice card may unlock one (relight for a 1-tool gap, 2 tools for 2)
    if use_torch >= 0 or use_tool >= 0:
        gap = 99
        for s in range(3):
            tile = state[base + B_SLOT + s]
            if tile >= 0:
                gap = min(gap, shortage(state, cfg, seat, tile))
        if gap == 1 and state[base + B_TORCH] == 0 and use_torch >= 0:
            return use_torch
        if gap <= cfg[O.variant_tools] and use_tool >= 0:
            return use_tool
    return stop


@njit(cache=True)
def die_card_choice(state, cfg, seat, legal, n_legal, coin_at):
    """Base game after the roll: turn it into the coin face when enough completions are ready, into
    the tool face rather than lose a torch that a completion needs; otherwise keep the roll."""
    base = P0 + seat * PB
    c = n_completable(state, cfg, seat)
    keep = 0
    to_coin = -1
    to_tool = -1
    for i in range(n_legal):
        if legal[i] == KEEP_ROLL:
            keep = i
        elif legal[i] == CHANGE_DIE + 2:
            to_coin = i
        elif legal[i] == CHANGE_DIE:
            to_tool = i
    if to_coin >= 0 and c >= coin_at:
        return to_coin
    if to_tool >= 0 and to_coin >= 0 and state[base + B_TORCH] == 1:  # rolled the torch face
        lit_needed = False
        for s in range(3):
            tile = state[base + B_SLOT + s]
            if tile >= 0 and shortage(state, cfg, seat, tile) == 1:
                lit_needed = True
        if lit_needed:
            return to_tool
    return keep


@njit(cache=True)
def variant_card_choice(state, cfg, seat, legal, n_legal, coin_at):
    """No-dice variant, start of turn: the coin effect when enough completions are ready."""
    if n_completable(state, cfg, seat) >= coin_at:
        for i in range(n_legal):
            if legal[i] == USE_CARD + 2:
                return i
    for i in range(n_legal):
        if legal[i] == NO_CARD:
            return i
    return 0


@njit(cache=True)
def small_decision(state, cfg, seat, legal, n_legal, w_symbol, coin_at):
    """Answer every decision but the action and the completions the same way for all heuristics."""
    phase = state[S_PHASE]
    if phase == PH_TOOL_LIMIT:
        return return_tool(state, cfg, seat, legal, n_legal)
    if phase == PH_TILE_LIMIT:
        return discard_tile(state, cfg, seat, legal, n_legal, w_symbol)
    if phase == PH_SLOT:
        return cheapest_slot(state, cfg, seat, legal, n_legal)
    if phase == PH_DIE_CARD:
        return die_card_choice(state, cfg, seat, legal, n_legal, coin_at)
    if phase == PH_VARIANT_CARD:
        return variant_card_choice(state, cfg, seat, legal, n_legal, coin_at)
    if phase == PH_EXTRA_DICE:
        return 0  # a dice card is worth a point and an effect: take it
    return -1


# ---- the three heuristics --------------------------------------------------------------------------
HUNTER_PARAMS = (
    StrategyParam("symbol", 3.0, "weight of a column tile's symbol per missing mission symbol", 0, 100,
                  search=(0, 10)),
    StrategyParam("fit", 1.0, "penalty per tool still missing after taking a column", 0, 100, search=(0, 5)),
    StrategyParam("blind", 1.5, "take the blind card when no face-up card is worth this", -100, 100,
                  search=(-5, 10)),
    StrategyParam("coin_at", 2.0, "change the die to coins when this many completions are ready", 0, 4,
                  integer=True),
    StrategyParam("card_turn", 3.0, "with nothing to complete, go for a card if the best is worth this",
                  -100, 100, search=(-5, 10)))
RACER_PARAMS = (
    StrategyParam("batch", 1.0, "go on an expedition once this many held tiles are payable", 1, 3, integer=True),
    StrategyParam("coin_at", 2.0, "change the die to coins when this many completions are ready", 0, 4,
                  integer=True))
COINER_PARAMS = (
    StrategyParam("max_held", 1.0, "tiles it is willing to hold at once", 1, 3, integer=True),
    StrategyParam("expertise", 1.0, "weight per expertise tool in a tile's cost", 0, 100, search=(0, 5)),
    StrategyParam("card_at", 2.0, "with a full hand of tiles and nothing payable, take a card worth this",
                  -100, 100, search=(-5, 10)))


@strategy("legend-raiders", "hunter",
          "mission hunter: takes the missions its symbols fit, prepares tiles of the symbols its missions want",
          HUNTER_PARAMS, lean=True)
def hunter(state, cfg, seat, legal, n_legal, params, rng):
    small = small_decision(state, cfg, seat, legal, n_legal, params[0], params[3])
    if small >= 0:
        return small
    if state[S_PHASE] == PH_COMPLETE:
        return complete_choice(state, cfg, seat, legal, n_legal, params[0], 1)
    # the action
    if n_completable(state, cfg, seat) > 0:
        e = best_card(state, cfg, seat, legal, n_legal, params[2])
        if e >= 0:
            return e
    have = have_symbols(state, cfg, seat, True)
    best = -1
    best_v = -1e18
    for i in range(n_legal):
        code = legal[i]
        if code >= TAKE_FACEUP:
            continue
        col = code - PREPARE
        tile = state[S_HQ_TILE + col]
        v = -params[1] * column_deficit(state, cfg, seat, col, n_held(state, seat) < 3)
        if tile >= 0:
            v += params[0] * wanted(state, cfg, seat, have, cfg[O.tile_symbol + tile]) + 1.0
        if v > best_v:
            best_v = v
            best = i
    e = best_card(state, cfg, seat, legal, n_legal, params[2])
    if e >= 0 and (best < 0 or n_held(state, seat) == 3):
        if TAKE_FACEUP <= legal[e] < TAKE_BLIND and \
                card_value(state, cfg, seat, state[S_FACEUP + legal[e] - TAKE_FACEUP], have) >= params[4]:
            return e
    return best if best >= 0 else e


@strategy("legend-raiders", "racer",
          "fast finisher: cheapest tiles that fit its tools, batches completions, races to the 6th discovery",
          RACER_PARAMS, lean=True)
def racer(state, cfg, seat, legal, n_legal, params, rng):
    small = small_decision(state, cfg, seat, legal, n_legal, 0.0, params[1])
    if small >= 0:
        return small
    if state[S_PHASE] == PH_COMPLETE:
        return complete_choice(state, cfg, seat, legal, n_legal, 0.0, 1)
    c = n_completable(state, cfg, seat)
    held = n_held(state, seat)
    if c > 0 and (c >= params[0] or c >= held or held >= cfg[O.tile_limit]):
        pick = -1
        for i in range(n_legal):  # a dice card, else a mission already met, else blind
            code = legal[i]
            if TAKE_FACEUP <= code < TAKE_BLIND:
                card = state[S_FACEUP + code - TAKE_FACEUP]
                if cfg[O.card_kind + card] == KIND_DICE:
                    return i
                if pick < 0 and cfg[O.card_kind + card] == KIND_MISSION:
                    have = have_symbols(state, cfg, seat, True)
                    if card_value(state, cfg, seat, card, have) >= cfg[O.card_points + card]:
                        pick = i
        if pick >= 0:
            return pick
        e = best_card(state, cfg, seat, legal, n_legal, 1e9)
        if e >= 0:
            return e
    best = -1
    best_v = -1e18
    for i in range(n_legal):
        code = legal[i]
        if code >= TAKE_FACEUP:
            continue
        col = code - PREPARE
        tile = state[S_HQ_TILE + col]
        v = -float(column_deficit(state, cfg, seat, col, held < cfg[O.tile_limit]))
        if tile >= 0 and held < cfg[O.tile_limit]:
            v += 2.0 - 0.2 * tile_size(cfg, tile)
        if v > best_v:
            best_v = v
            best = i
    return best if best >= 0 else first_expedition(legal, n_legal)


@strategy("legend-raiders", "coiner",
          "coin maximiser: keeps its dig sites empty (few tiles held, each completed at once) and prefers tiles "
          "paid with its expertise tool",
          COINER_PARAMS, lean=True)
def coiner(state, cfg, seat, legal, n_legal, params, rng):
    small = small_decision(state, cfg, seat, legal, n_legal, 0.0, 1.0)
    if small >= 0:
        return small
    if state[S_PHASE] == PH_COMPLETE:
        return complete_choice(state, cfg, seat, legal, n_legal, 0.0, 1)
    if n_completable(state, cfg, seat) > 0:
        e = best_card(state, cfg, seat, legal, n_legal, 1.5)
        if e >= 0:
            return e
    held = n_held(state, seat)
    board = state[P0 + seat * PB + B_BOARD]
    if held >= params[0]:
        e = best_card(state, cfg, seat, legal, n_legal, 1.5)
        if e >= 0 and TAKE_FACEUP <= legal[e] < TAKE_BLIND:
            have = have_symbols(state, cfg, seat, True)
            if card_value(state, cfg, seat, state[S_FACEUP + legal[e] - TAKE_FACEUP], have) >= params[2]:
                return e
    best = -1
    best_v = -1e18
    for i in range(n_legal):
        code = legal[i]
        if code >= TAKE_FACEUP:
            continue
        col = code - PREPARE
        tile = state[S_HQ_TILE + col]
        if held >= params[0]:  # tools for the tile in hand; the extra tile is a cost
            v = 2.0 * column_tools_useful(state, cfg, seat, col) - (0.5 * tile_size(cfg, tile) if tile >= 0 else 0.0)
        else:
            v = -float(column_deficit(state, cfg, seat, col, True))
            if tile >= 0:
                v += params[1] * expertise_cost(cfg, board, tile) + 1.0
        if v > best_v:
            best_v = v
            best = i
    return best if best >= 0 else first_expedition(legal, n_legal)


# ---- search players (simlab.search.players) ---------------------------------------------

@njit(ROLLOUT_SIGNATURE, cache=True, _nrt=False)   # lean, as the heuristics it calls are (simlab.core.play.lean)
def rollout(state, cfg, seat, legal, n_legal, heuristic, params, rng):
    """Legend Raiders' play-out policy for the search (the model's ``rollout``): 0 uniform random,
    1 hunter, 2 racer, 3 coiner, with ``params`` (the search's table: defaults or a tuned set). It
    lives here, beside the heuristics it calls, because the game's modules never import strategies."""
    if heuristic == 1:
        return hunter(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 2:
        return racer(state, cfg, seat, legal, n_legal, params, rng)
    if heuristic == 3:
        return coiner(state, cfg, seat, legal, n_legal, params, rng)
    return randint(rng, n_legal)


declare_play_out("legend-raiders", rollout, ("hunter", "racer", "coiner"))
