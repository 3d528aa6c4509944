"""Loot Island at the table (``simlab.core.table``): a seat's island, hand and rivals drawn from its
observation, its choices in words.

A seat sees its own hand, Allen's open hand (2 players), every column, compass stack, kept treasure
and curse cube, the piles' sizes and the treasures turned up; it does not see the other players'
hands (only how many cards they hold), the draw pile, the treasure deck's order, the events of
later rounds (under ``events_face_up`` their set) or the healers before the end (unless
``healers_face_up``). The screen reads only the observation, where all that is HIDDEN.
"""
import textwrap

import numpy as np

from simlab.core.play import EV_STANDINGS
from simlab.core.program import F_LOCAL
from simlab.core.table import UNSEEN, Table

from . import step
from .board import EV_CROWNS, EV_HAND, EV_SETUP, TAKE_ISLET
from .components import (COLOUR_NAMES, EV_B5, EV_B6, EV_B7, EV_B9, EV_B13, EVENT_NAMES, I_BOTTOM, I_DISCARD, I_DRAW2,
                         I_MOVE, I_TREASURE, N_MAP, N_TREASURE, PARAMS, SYM_DRAW, T_AMULET)
from .scoring import crown_prizes, treasure_value
from .state import (B_CROSSES, B_CURSES, B_HAND_N, B_PASSED, B_SUPPLY, COPY_SKIP, D_A1, D_A2, D_ACTION, D_B4, D_CARD,
                    D_COPY, D_DISCARD, D_DO, D_HEALER, D_KEEP, D_PAY, D_PICK, D_SOURCE, D_TARGET, FACE_UP_EVENTS,
                    FACE_UP_HEALERS, FW, ISLET_ALLEN, ISLET_DOWN, ISLET_OUT, ISLET_OWN, L0, L_CARDS,
                    L_CHESTS, L_COLOUR, L_COMP, L_COUNT, L_LAST, L_N, L_NCOMP, LB, M_HAND, P0, PASS, PB, PH_ACTION,
                    PH_END, PH_FINAL, PH_SETUP, PLAY_ALLEN, PLAY_OWN, S_A2, S_A2_N, S_ALLEN, S_CORNER, S_DCTX, S_DKIND,
                    S_EVENT,
                    S_EVENT_SEQ, S_EVENTS_SEEN, S_FACING, S_FIRST_PASSED, S_HEALER_OWNER, S_HEALERS, S_ISLET,
                    S_MDISC_N, S_MDRAW_N, S_MLOC, S_MUST_PASS, S_PHASE, S_PLAYERS, S_REVEAL, S_REVEAL_N, S_ROUND,
                    S_STAGE, S_STAGE_N, S_START, S_TDECK_N, S_TDISC_N, S_TLOC, S_TURN, SKIP, STOP, SUPPLY, T_KEPT,
                    X_DEPTH, X_FACE_UP, X_FRAMES)
from .trace import EVENT_TEXT, card_name, landing_name, treasure_name

WIDTH = 120   # the screen's lines are folded to this width
PHASES = ("setup (the deal and round 1's event)", "phase 1 (preparation)", "phase 2 (actions)",
          "phase 3 (finding loot)", "the final exploration", "the end of the game")   # by S_PHASE


def _owner(allen) -> str:
    return "Allen's" if allen else "your"


def _allen(obs, a) -> bool:
    return bool(obs[S_ALLEN]) and a == obs[S_PLAYERS]


def _who(obs, a, seat) -> str:
    """``you``, ``seat 2`` or ``Allen`` (the rules' name of the 2-player game's open third player)."""
    return "Allen" if _allen(obs, a) else "you" if a == seat else f"seat {a + 1}"


def _count(k, word, plural=None) -> str:
    return f"{k} {word if k == 1 else plural or word + 's'}"


def _event_now(obs, values) -> int:
    """The event in force (-1 none), as the rules read it: not during the final exploration."""
    return -1 if obs[S_PHASE] == PH_FINAL and not values["events_in_final"] else int(obs[S_EVENT])


def _card(obs, m, values) -> str:
    """A map card's trace name, told from an identical twin in the same place by its copy."""
    name = card_name(m, values)
    twin = m ^ 1   # the other copy of its value: slots 2k and 2k + 1
    if card_name(twin, values) == name and obs[S_MLOC + twin] == obs[S_MLOC + m]:
        name += f" (copy {m % 2 + 1})"
    return name


def _hand(obs, a, values) -> str:
    cards = [card_name(m, values) for m in range(N_MAP) if obs[S_MLOC + m] == M_HAND + a]
    return " ".join(cards) if cards else "(none)"


def _coast_of(obs) -> int:
    return int(obs[S_CORNER]) if obs[S_FACING] > 0 else (int(obs[S_CORNER]) + 3) % 4


def _islet(i, values, event=-1, allen=False) -> str:
    """What islet ``i`` does for whoever's cards pay it: that player's compass, cubes, cards and
    treasure (Allen, who never takes or sheds cubes nor draws in phase 2, gets nothing from those)."""
    action, k = values["islet_action"][i], values["islet_value"][i]
    whose = "Allen's" if allen else "your"
    if action == I_DISCARD:
        return f"discard {_count(k, 'curse cube')}" + (": none for Allen" if allen else "")
    if action == I_BOTTOM:
        return f"{whose} compass to the {'top' if event == EV_B13 else 'bottom'} of its stack"
    if action == I_MOVE:
        return f"{whose} compass to another landing"
    if action == I_DRAW2:
        return f"draw {_count(k, 'map card')}" + (": none for Allen" if allen else "")
    if action == I_TREASURE:
        return "reveal a treasure for Allen" if allen else f"take {_count(k, 'curse cube')} and reveal a treasure"
    return "move the ship one corner on"


def _healer(h, values) -> str:
    per, fixed = values["healer_per_cube"][h], values["healer_fixed"][h]
    return f"healer {h + 1} ({f'{per} gold a cube + {fixed}' if per else f'flat {fixed} gold'})"


def _kept(obs, a) -> list:
    return [t for t in range(N_TREASURE) if obs[S_TLOC + t] == T_KEPT + a]


def _worth(obs, values, n_actors) -> list:
    """Each player's treasure as it stands: sets and books counted, the crown places given by the
    crosses now (the start tile and the healer come at the end)."""
    cfg = PARAMS.pack(values)
    crosses = np.zeros(6, np.int64)
    crosses[:n_actors] = [obs[P0 + a * PB + B_CROSSES] for a in range(n_actors)]
    active = np.zeros(6, np.int64)
    active[:n_actors] = 1
    prize = np.zeros(6, np.int64)
    crown_prizes(cfg, crosses, active, n_actors, prize)
    parts = np.zeros(6, np.int64)
    worth = []
    for a in range(n_actors):
        kept = _kept(obs, a)
        worth.append(int(treasure_value(cfg, np.array(kept + [0], np.int64), len(kept), parts)) + int(prize[a]))
    return worth


def _landing(obs, landing, seat, values, need) -> str:
    """``2a: compasses seat 1, you | A7 A10[chest] A* | colour A, ends at 10, 4 of 4 counted, 1 chest``."""
    base = L0 + landing * LB
    n = int(obs[base + L_N])
    comps = ", ".join(_who(obs, int(obs[base + L_COMP + k]), seat) for k in range(int(obs[base + L_NCOMP])))
    line = f"    {landing_name(landing)[len('landing '):]}: {'compasses ' + comps if comps else 'no compass'} | "
    if n == 0:
        return line + "no cards"
    cards = " ".join(card_name(int(obs[base + L_CARDS + j]), values) for j in range(n))
    return (f"{line}{cards} | colour {COLOUR_NAMES[obs[base + L_COLOUR]]}, ends at {obs[base + L_LAST]}, "
            f"{obs[base + L_COUNT]} of {need} counted, {_count(int(obs[base + L_CHESTS]), 'chest')}")


def _events(obs, values) -> str:
    """The event in force, the events to come (face down, or their set under ``events_face_up``) and
    those already over."""
    if not values["events_enabled"]:
        return "No events in this game."
    phase, rnd = int(obs[S_PHASE]), int(obs[S_ROUND])
    e = -1 if phase == PH_END else _event_now(obs, values)
    if e >= 0:
        now = f"Event {EVENT_NAMES[e]} in force: {EVENT_TEXT[EVENT_NAMES[e]]}"
    elif phase == PH_SETUP and obs[S_EVENT_SEQ] >= 0:   # the deal: round 1's A event lies face up already
        first = EVENT_NAMES[int(obs[S_EVENT_SEQ])]
        now = f"Round 1's event, face up: {first} ({EVENT_TEXT[first]})"
    else:
        now = "No event in force"
    if rnd >= 5:
        to_come = ""
    elif obs[X_FACE_UP] & FACE_UP_EVENTS:
        names = [EVENT_NAMES[x] for x in sorted(int(x) for x in obs[S_EVENT_SEQ + rnd:S_EVENT_SEQ + 5] if x >= 0)]
        to_come = f"; to come, in an unknown order: {', '.join(names) or 'none'}"
    else:
        to_come = f"; {_count(5 - rnd, 'event')} to come, face down"
    over = [EVENT_NAMES[k] for k in range(len(EVENT_NAMES)) if obs[S_EVENTS_SEEN] >> k & 1 and k != e]
    return f"{now}{to_come}{'; over: ' + ', '.join(over) if over else ''}."


def _players(obs, seat, values, n_players) -> list:
    n_actors = n_players + int(obs[S_ALLEN])
    worth = _worth(obs, values, n_actors)
    lines = [f"Players (seat {obs[S_START] + 1} holds the start tile, +{values['start_tile_bonus']} gold at the end; "
             "treasure worth: sets, books and crown places as they stand, before the healer's fee):"]
    order = [seat] + [p for p in range(n_actors) if p != seat]
    for a in order:
        base = P0 + a * PB
        kept = _kept(obs, a)
        treasure = "; ".join(treasure_name(t, values) for t in kept) if kept else "none"
        if _allen(obs, a):
            lines.append(f"  Allen (the open player, crowns only): hand {_hand(obs, a, values)}; "
                         f"{_count(int(obs[base + B_SUPPLY]), 'compass', 'compasses')} in supply; "
                         f"{_count(int(obs[base + B_CROSSES]), 'crown cross', 'crown crosses')}; kept: {treasure}")
            continue
        passed = ", passed" if obs[S_PHASE] == PH_ACTION and obs[base + B_PASSED] else ""
        head = f"You (seat {a + 1})" if a == seat else f"Seat {a + 1}"
        lines.append(f"  {head}: {_count(int(obs[base + B_CURSES]), 'curse cube')}, "
                     f"{_count(int(obs[base + B_HAND_N]), 'card')} in hand, "
                     f"{_count(int(obs[base + B_SUPPLY]), 'compass', 'compasses')} in supply{passed}; "
                     f"{_count(int(obs[base + B_CROSSES]), 'crown cross', 'crown crosses')}; "
                     f"treasure worth {worth[a]} gold now")
        lines.append(f"    kept: {treasure}")
    return lines


def _frame(obs) -> int:
    """Offset of the procedure asking (the top of the program stack)."""
    return X_FRAMES + (int(obs[X_DEPTH]) - 1) * FW


def _decision(obs, seat, values) -> str:
    """What the seat is asked, with what it needs to know to answer."""
    kind, ctx = int(obs[S_DKIND]), [int(x) for x in obs[S_DCTX:S_DCTX + 4]]
    turn = int(obs[S_TURN])
    if turn != seat:
        return f"Waiting for {_who(obs, turn, seat)} to decide."
    if kind == D_ACTION:
        if obs[S_MUST_PASS]:
            return "You used an islet under event B9: you must pass now."
        start = " (the first to pass takes the start tile)" if not obs[S_FIRST_PASSED] else ""
        allen = " (yours or Allen's)" if obs[S_ALLEN] else ""
        return f"Your turn: play map cards{allen} to a landing, use an islet, or pass{start}."
    if kind == D_CARD:
        staged = " ".join(card_name(int(m), values) for m in obs[S_STAGE:S_STAGE + obs[S_STAGE_N]]) or "none"
        return (f"Playing colour {COLOUR_NAMES[ctx[1]]} from {_owner(ctx[2])} hand at {landing_name(ctx[0])}: choose "
                f"the next card (at least the column's last value, a 1 or a wild), or stop. Chosen so far: {staged}.")
    if kind == D_SOURCE:
        return f"{_owner(ctx[1]).capitalize()} compass goes to {landing_name(ctx[0])}: choose where it comes from."
    if kind == D_COPY:
        return f"Your 1 went to the front at {landing_name(ctx[0])}: copy one effect of the column, or none."
    if kind == D_PAY:
        what = f"a colour {COLOUR_NAMES[ctx[1]]} card" if ctx[1] >= 0 else "one more card of any colour (event B7)"
        return f"Paying for islet T{ctx[0] + 1} with {_owner(ctx[2])} cards: choose {what}."
    if kind == D_TARGET:
        return (f"Islet T{ctx[0] + 1} ({_islet(ctx[0], values, _event_now(obs, values), ctx[2])}): choose the "
                "landing, or skip.")
    if kind == D_DO:
        return f"Islet T{ctx[0] + 1}: {_islet(ctx[0], values, allen=ctx[2])}, or only block the islet?"
    if kind == D_PICK:
        size = "Big" if ctx[1] == 1 else "Small"
        return f"{size} loot at {landing_name(ctx[0])}: pick one of the revealed treasures."
    if kind == D_KEEP:
        how = " (from the islet)" if obs[_frame(obs) + F_LOCAL + 3] == TAKE_ISLET else ""
        return f"You took {treasure_name(ctx[0], values)}{how}: keep it or discard it."
    if kind == D_A1:
        return "Event A1: draw 2 extra map cards and take 2 curse cubes?"
    if kind == D_A2:
        return "Event A2: you passed, so you take one of the face-up treasures and keep it."
    if kind == D_DISCARD:
        if ctx[0] == 1:
            return f"Start-hand variant: discard down to {_hand_size(obs, values)} cards, one at a time."
        return f"Phase 1: discard any cards, one at a time, then stop and draw up to {_refill(obs, values)} cards."
    if kind == D_HEALER:
        cubes = int(obs[P0 + seat * PB + B_CURSES])
        return f"End of the game: choose your healer for your {_count(cubes, 'curse cube')}."
    if kind == D_B4:
        who = "Allen has" if _allen(obs, ctx[0]) else "you have"
        return (f"Event B4 (at most 2 compasses on the island): {who} 3 there: choose the landing one goes back "
                "from.")
    return "Decide."


def _hand_size(obs, values) -> int:
    return values["hand_size_2p"] if obs[S_PLAYERS] == 2 else values["hand_size"]


def _refill(obs, values) -> int:
    """The hand size phase 1 refills to (event B5: one fewer)."""
    return _hand_size(obs, values) - (1 if obs[S_EVENT] == EV_B5 else 0)


def screen(obs, seat, n_players, values) -> str:
    """The round, phase, ship and event; the eight landings with their columns and compass stacks;
    the islets, piles and healers; every player (the seat first, Allen last) with curse cubes, hand
    size, compasses and kept treasure; the seat's hand; treasures turned up; the decision."""
    need = values["cards_needed"][n_players - 2]
    phase = int(obs[S_PHASE])
    rnd = int(obs[S_ROUND])
    when = "after round 5" if rnd > 5 else f"round {rnd} of {values['rounds']}"
    lines = [f"Loot Island, {when}: {PHASES[phase]}.", _events(obs, values)]
    coast = _coast_of(obs)
    facing = "clockwise" if obs[S_FACING] > 0 else "counter-clockwise"
    lines.append(f"The ship is at corner {obs[S_CORNER]} facing {facing}: "
                 f"its bow points at coast {coast + 1} (landings {coast + 1}a, {coast + 1}b), explored in phase 3.")
    lines.append(f"The island (a landing finds loot with {need} cards counted; compasses bottom first, the order "
                 "loot is handed out in; cards front first):")
    for c in range(4):
        lines.append(f"  coast {c + 1}{' <- the bow' if c == coast else ''}")
        lines.extend(_landing(obs, 2 * c + k, seat, values, need) for k in range(2))
    event = _event_now(obs, values)
    price = "1 card of one colour" if event == EV_B9 else "2 cards of one colour"
    if event == EV_B7:
        price += " + 1 of any colour"
    islets = "; ".join(f"T{i + 1} {_islet(i, values, event)}{' (face down)' if obs[S_ISLET + i] == ISLET_DOWN else ''}"
                       for i in range(7) if obs[S_ISLET + i] != ISLET_OUT)
    lines.append(f"Islets (cost {price}): {islets}.")
    lines.append(f"Piles: {obs[S_MDRAW_N]} map cards to draw, {obs[S_MDISC_N]} discarded; {obs[S_TDECK_N]} treasures "
                 f"in the deck, {obs[S_TDISC_N]} discarded.")
    if obs[X_FACE_UP] & FACE_UP_HEALERS or phase == PH_END:
        owners = [int(obs[S_HEALER_OWNER + i]) for i in range(n_players)]
        owned = [_healer(int(obs[S_HEALERS + i]), values) + (f" taken by {_who(obs, q, seat)}" if q >= 0 else "")
                 for i, q in enumerate(owners)]
        lines.append(f"Healers: {'; '.join(owned)}.")
    else:
        lines.append(f"Healers: {n_players} dealt face down, turned up at the end.")
    lines.extend(_players(obs, seat, values, n_players))
    lines.append(f"Your hand: {_hand(obs, seat, values)}")
    if obs[S_A2_N] > 0:
        lines.append("Face up for passers (event A2): "
                     + "; ".join(treasure_name(int(t), values) for t in obs[S_A2:S_A2 + obs[S_A2_N]]) + ".")
    if obs[S_REVEAL_N] > 0:
        lines.append("Treasures revealed: "
                     + "; ".join(treasure_name(int(t), values) for t in obs[S_REVEAL:S_REVEAL + obs[S_REVEAL_N]]) + ".")
    lines.append("Cards: A7 is colour A value 7, A* a wild; [+1] counts as 2 cards, [draw] everyone at the landing "
                 "draws 1, [cube-] everyone there sheds a curse cube, [chest] one more treasure.")
    lines.append(_decision(obs, seat, values))
    return "\n".join(_wrap(line) for line in lines)


def _wrap(line, width=WIDTH) -> str:
    """A long line folded at words, its continuation indented under it."""
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False)) or line


def choice(obs, seat, code, n_players, values) -> str:
    """``play your colour A cards at landing 2a``, ``add A5[draw]``, ``keep it: take 4 curse cubes``, ..."""
    code = int(code)
    kind, ctx = int(obs[S_DKIND]), [int(x) for x in obs[S_DCTX:S_DCTX + 4]]
    event = _event_now(obs, values)
    if kind == D_ACTION:
        if code == PASS:
            return "pass and take the start tile" if not obs[S_FIRST_PASSED] else "pass"
        if code < ISLET_OWN:
            allen = code >= PLAY_ALLEN
            x = code - (PLAY_ALLEN if allen else PLAY_OWN)
            return f"play {_owner(allen)} colour {COLOUR_NAMES[x % 4]} cards at {landing_name(x // 4)}"
        allen = code >= ISLET_ALLEN
        x = code - (ISLET_ALLEN if allen else ISLET_OWN)
        return (f"use islet T{x // 4 + 1} with {_owner(allen)} colour {COLOUR_NAMES[x % 4]} cards: "
                f"{_islet(x // 4, values, event, allen)}")
    if kind == D_CARD:
        return "stop and lay the chosen cards down" if code == STOP else f"add {_card(obs, code, values)}"
    if kind == D_SOURCE:
        return "take it from the supply" if code == SUPPLY else f"move it from {landing_name(code)}"
    if kind == D_COPY:
        if code == COPY_SKIP:
            return "copy nothing"
        if code == SYM_DRAW:
            return "copy a draw: draw 1 map card"
        return f"copy a discard: shed {_count(2 if event == EV_B6 else 1, 'curse cube')}"
    if kind == D_PAY:
        return f"pay with {_card(obs, code, values)}"
    if kind == D_TARGET:
        if code == SKIP:
            return "skip the action (the islet is only blocked)"
        if values["islet_action"][ctx[0]] == I_MOVE:
            return f"move {_owner(ctx[2])} compass to {landing_name(code)}"
        return (f"move {_owner(ctx[2])} compass at {landing_name(code)} to the "
                f"{'top' if event == EV_B13 else 'bottom'}")
    if kind == D_DO:
        return f"yes: {_islet(ctx[0], values, allen=ctx[2])}" if code == 1 else "no: only block the islet"
    if kind in (D_PICK, D_A2):
        return f"take {treasure_name(code, values)}"
    if kind == D_KEEP:
        return _keep_words(obs, seat, ctx[0], code, values)
    if kind == D_A1:
        return "draw 2 extra cards and take 2 curse cubes" if code == 1 else "decline"
    if kind == D_DISCARD:
        if code == STOP:
            return f"stop discarding and draw up to {_refill(obs, values)} cards"
        return f"discard {_card(obs, code, values)}"
    if kind == D_HEALER:
        fee = values["healer_per_cube"][code] * int(obs[P0 + seat * PB + B_CURSES]) + values["healer_fixed"][code]
        return f"{_healer(code, values)}: fee {fee} gold"
    if kind == D_B4:
        return f"take the compass back from {landing_name(code)}"
    return f"choice {code}"


def _keep_words(obs, seat, t, code, values) -> str:
    """Keeping takes the treasure's curse cubes and sheds its crossed-out ones; discarding sheds up to
    2, plus 1 per amulet kept."""
    cubes = int(obs[P0 + seat * PB + B_CURSES])
    if code == 1:
        crossed = values["treasure_crossed"][t]
        shed = f", shed {crossed} crossed out on it" if crossed else ""
        return f"keep it: take {_count(values['treasure_curse'][t], 'curse cube')}{shed}"
    amulets = sum(1 for k in _kept(obs, seat) if values["treasure_type"][k] == T_AMULET)
    shed = min(cubes, values["treasure_discard_cubes"] + values["amulet_cubes"] * amulets)
    return f"discard it: shed {_count(shed, 'curse cube')}"


def seen(events, viewer):
    """The events as ``viewer`` knows them: another player's hand (EV_HAND) with its cards UNSEEN
    (Allen's lies open); the standings after each round dropped, since they charge every player the
    cheapest healer dealt and the healers lie face down until the end steps (the final standings,
    after the crowns are counted, stay)."""
    out = np.array(events, np.int32)
    keep = np.ones(len(out), bool)
    allen = -1      # Allen's actor number once the setup says he plays
    scored = False  # the end steps have turned the healers up
    for i, ev in enumerate(out):
        kind = ev[0]
        if kind == EV_SETUP and ev[2]:
            allen = ev[1]
        elif kind == EV_CROWNS:
            scored = True
        elif kind == EV_HAND and ev[1] != viewer and ev[1] != allen:
            ev[2:6] = UNSEEN
        elif kind == EV_STANDINGS and not scored:
            keep[i] = False
    return out[keep]


TABLE = Table(begin=step.begin, finish=step.finish, screen=screen, choice=choice, seen=seen)
