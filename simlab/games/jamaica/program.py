"""Jamaica's rules as one resumable program over the state (:func:`run`).

The rules nest deep: a round's turn runs an action, a move ends in ``arrive``, which may start a
battle, whose cannons are paid from the holds, whose loot is loaded into a hold... and a player
chooses at many of those points. Here they run as procedures on the call stack of
:mod:`simlab.core.program`, written as one flat list of labels (``PC_*`` in ``state.py``): a
procedure is entered at its entry label (:func:`enter`, its caller's label set to where it goes on),
keeps its locals in its registers (``X_*``: none calls itself) and returns with ``ret``. At a choice
with two or more legal options the program stores the decision (who, what kind, its context, the
legal codes) and stops; ``step.apply`` resumes the procedure on top at its label with the answer. A choice with a single option is taken without stopping, as the
rules always did. Chance is drawn from the streams exactly where and as often as before.
"""
from numba import njit

from simlab.core.play import emit, lean
from simlab.core.program import F_LABEL, call, ret, tail_call, top
from simlab.core.rng import randint

from .components import A_BACK, A_FWD, LAIR, O, PR, R_CANNON, R_FOOD, STAR, T_SABRE
from .state import (BACKWARD_FLAG, B_ATTACKS, B_CARD, B_COMBATS, B_DONE, B_FALL_FOOD, B_FALL_GOLD, B_HAND, B_HAND_N,
                    B_LAP, B_POS, B_SPENT, B_WINS, CARD_UP, DEC_CANNONS, DEC_CARD, DEC_DICE, DEC_GHOST, DEC_HOLD,
                    DEC_LOOT, DEC_MOVE, DEC_PAY, DEC_RETREAT, DEC_SABRE, DEC_TARGET, GHOST, MAX_CHOICES, PC_AFTER_DAY,
                    PC_AFTER_NIGHT, PC_ARRIVE, PC_ARRIVE_BATTLED, PC_ARRIVE_PAID, PC_ARRIVE_SHORT, PC_ATT_CANNONS,
                    PC_ATT_SABRE, PC_BATTLE, PC_CANNONS, PC_CANNONS_DONE, PC_CANNONS_PAID, PC_DFD_CANNONS,
                    PC_DFD_SABRE, PC_DICE_DONE, PC_GAME_OVER, PC_GHOST, PC_GHOST_AFTER, PC_GHOST_DONE, PC_GHOST_MOVE,
                    PC_HALT, PC_HOLD_DONE, PC_LOAD, PC_LOOT_DONE, PC_MOVE, PC_MOVE_DONE, PC_PAY, PC_PAY_DONE, PC_PICK,
                    PC_PICK_DONE, PC_RESULT, PC_RETREAT_DONE, PC_ROUND, PC_ROUND_END, PC_SABRE, PC_SABRE_DONE,
                    PC_TARGET_DONE, PC_TURN, PROGRAM, RNG_COMBAT, RNG_SABRE, S_CAPTAIN, S_DAY, S_DEC, S_DEC_A,
                    S_DEC_B, S_DEC_C, S_DEC_SHIP, S_DIE1, S_DIE2, S_END, S_GHOST, S_NIGHT, S_PLAYERS, S_ROUND,
                    S_TGT_DONE, S_TGT_LAP, S_TOWNER, X_AR_HAVE, X_AR_SHIP, X_BACK_OK, X_BREAK, X_B_ABASE, X_B_AC,
                    X_B_AF, X_B_ATT, X_B_DBASE, X_B_DC, X_B_DF, X_B_DFD, X_B_SFREE, X_B_SPACE, X_B_STAR, X_B_WHO,
                    X_B_WINNER, X_CARD, X_CC_C, X_CC_DEF, X_CC_OPP, X_CC_SHIP, X_CC_SOFAR, X_CHOICES, X_EVENTS,
                    X_FWD_OK, X_GM, X_K, X_LD_BANK, X_LD_COUNT, X_LD_RES, X_LD_SHIP, X_LD_WHO, X_MV_BACK, X_MV_DIE,
                    X_MV_SHIP, X_NCHOICES, X_PICKED, X_PY_COST, X_PY_K, X_PY_RES, X_PY_SHIP, X_SW_BASE, X_SW_FACE,
                    X_SW_FREE, X_SW_ROLLED, X_TURN)
from .common import (EV_COMBAT, EV_PAY, EV_RESULT, EV_RETREAT, EV_REVEAL, EV_ROLL, EV_ROUND, EV_SABRE, EV_SHORT,
                     amount, base_of, decider_for, space_cost)
from .combat import battle_row, loot_choices, opponents, roll_face, take_loot
from .ghost import ghost_course, ghost_die, ghost_targets
from .holds import load_begin, load_into, pay_holds, pay_out
from .invariants import check_or_raise
from .movement import place, retreat_targets, walk
from .rules import end_round, play_picked_cards, roll_dice
from .treasure import strength_bonus, take_lair


# ---------------------------------------------------------------- calling a procedure of the program
@njit(cache=True, inline="always")
def call_action(state, ship, action, die, ret):
    """A ship's day or night action: a move, or a load from the bank into its holds."""
    if action == A_FWD or action == A_BACK:
        call_move(state, ship, die, action == A_BACK, ret)
    else:
        call_load(state, ship, action, die, 1, ship, ret)


@njit(cache=True, inline="always")
def goto(state, label):
    """The procedure on top goes on at ``label``."""
    state[top(state, PROGRAM) + F_LABEL] = label


@njit(cache=True, inline="always")
def enter(state, entry, resume):
    """Call the procedure that starts at label ``entry`` (``simlab.core.program``); its caller goes
    on at ``resume`` once it returns."""
    goto(state, resume)
    call(state, PROGRAM, entry, entry)


@njit(cache=True, inline="always")
def call_move(state, ship, steps, backward, ret):
    state[X_MV_SHIP] = ship
    state[X_MV_DIE] = steps
    state[X_MV_BACK] = 1 if backward else 0
    enter(state, PC_MOVE, ret)


@njit(cache=True, inline="always")
def call_arrive(state, ship, ret):
    state[X_AR_SHIP] = ship
    enter(state, PC_ARRIVE, ret)


@njit(cache=True, inline="always")
def call_battle(state, att, space, ret):
    state[X_B_ATT] = att
    state[X_B_SPACE] = space
    enter(state, PC_BATTLE, ret)


@njit(cache=True, inline="always")
def call_cannons(state, ship, opp, defending, so_far, ret):
    state[X_CC_SHIP] = ship
    state[X_CC_OPP] = opp
    state[X_CC_DEF] = defending
    state[X_CC_SOFAR] = so_far
    enter(state, PC_CANNONS, ret)


@njit(cache=True, inline="always")
def call_sabre(state, rolled, face, base, ret):
    state[X_SW_ROLLED] = rolled
    state[X_SW_FACE] = face
    state[X_SW_BASE] = base
    enter(state, PC_SABRE, ret)


@njit(cache=True, inline="always")
def call_load(state, ship, res, count, from_bank, who, ret):
    state[X_LD_SHIP] = ship
    state[X_LD_RES] = res
    state[X_LD_COUNT] = count
    state[X_LD_BANK] = from_bank
    state[X_LD_WHO] = who
    enter(state, PC_LOAD, ret)


@njit(cache=True, inline="always")
def call_pay(state, ship, res, cost, ret):
    state[X_PY_SHIP] = ship
    state[X_PY_RES] = res
    state[X_PY_COST] = cost
    enter(state, PC_PAY, ret)


@njit(cache=True, inline="always")
def wait_for(state, seat, kind, ship, a, b, c, n, resume):
    """Go on at ``resume``; with two or more legal choices (in X_CHOICES) stop there first, the
    decision recorded for ``seat``'s strategy. True when stopped."""
    goto(state, resume)
    if n <= 1:
        return False
    state[X_TURN] = seat
    state[S_DEC] = kind
    state[S_DEC_SHIP] = ship
    state[S_DEC_A] = a
    state[S_DEC_B] = b
    state[S_DEC_C] = c
    state[X_NCHOICES] = n
    return True


@njit(cache=True, inline="always")
def index_of(ch, code):
    i = 0
    while ch[i] != code:
        i += 1
    return i


# ---------------------------------------------------------------- the program
@lean
def run(state, cfg, code, streams, log):
    """Run the rules from the label of the procedure on top (``code``: the answer to the decision it
    stopped at) to the next decision with two or more choices, the end of the game, or the X_BREAK
    label."""
    ch = state[X_CHOICES:X_CHOICES + MAX_CHOICES]
    n_players = state[S_PLAYERS]
    check = cfg[O.check_invariants] != 0
    started = False
    while True:
        pc = state[top(state, PROGRAM) + F_LABEL]
        if pc == PC_HALT or pc == PC_GAME_OVER or (started and pc == state[X_BREAK]):
            state[X_TURN] = -1
            return
        started = True
        # ---- the round (2(1)-(4))
        if pc == PC_ROUND:
            state[S_ROUND] += 1
            n = roll_dice(state, streams, ch)
            cap = state[S_CAPTAIN]
            if wait_for(state, cap, DEC_DICE, cap, state[S_DIE1], state[S_DIE2], 0, n, PC_DICE_DONE):
                return
            code = ch[0]
        elif pc == PC_DICE_DONE:
            state[S_DAY] = code // 8
            state[S_NIGHT] = code % 8
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_ROUND, state[S_ROUND], state[S_CAPTAIN], state[S_DIE1],
                                   state[S_DIE2], state[S_DAY], state[S_NIGHT])
            state[X_K] = 0
            goto(state, PC_PICK)
        elif pc == PC_PICK:   # 2(2): every player picks a card on the same state
            p = state[X_K]
            if p >= n_players:
                play_picked_cards(state)
                state[X_K] = 0
                goto(state, PC_TURN)
                continue
            b = base_of(p)
            n = state[b + B_HAND_N]
            for i in range(n):
                ch[i] = state[b + B_HAND + i]
            if wait_for(state, p, DEC_CARD, p, 0, 0, 0, n, PC_PICK_DONE):
                return
            code = ch[0]
        elif pc == PC_PICK_DONE:
            state[X_PICKED + state[X_K]] = code
            state[X_K] += 1
            goto(state, PC_PICK)
        elif pc == PC_TURN:   # 2(3): in turn from the captain, day action then night action
            k = state[X_K]
            if k >= n_players:
                state[X_GM] = 0
                goto(state, PC_GHOST if state[S_GHOST] else PC_ROUND_END)
                continue
            p = (state[S_CAPTAIN] + k) % n_players
            b = base_of(p)
            if state[b + B_DONE]:
                state[X_K] = k + 1
                continue
            card = state[b + B_CARD]
            state[X_CARD + p] = CARD_UP
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_REVEAL, p, card, cfg[O.card_day + card],
                                   cfg[O.card_night + card])
            call_action(state, p, cfg[O.card_day + card], state[S_DAY], PC_AFTER_DAY)
        elif pc == PC_AFTER_DAY:
            if check:
                check_or_raise(state, cfg)
            p = (state[S_CAPTAIN] + state[X_K]) % n_players
            b = base_of(p)
            if state[b + B_DONE] == 0:  # reaching Port Royal ends the ship's turn (rules 4, [S5])
                call_action(state, p, cfg[O.card_night + state[b + B_CARD]], state[S_NIGHT], PC_AFTER_NIGHT)
            else:
                state[X_K] += 1
                goto(state, PC_TURN)
        elif pc == PC_AFTER_NIGHT:
            if check:
                check_or_raise(state, cfg)
            state[X_K] += 1
            goto(state, PC_TURN)
        elif pc == PC_ROUND_END:
            end_round(state, cfg, streams, log)
            goto(state, PC_ROUND if state[S_END] == 0 else PC_GAME_OVER)
        # ---- the ghost ship's two moves (5(4)-(5))
        elif pc == PC_GHOST:
            state[X_FWD_OK] = 1
            state[X_BACK_OK] = 1
            goto(state, PC_GHOST_MOVE)
        elif pc == PC_GHOST_MOVE:
            if state[X_GM] >= 2 or state[base_of(GHOST) + B_DONE]:
                goto(state, PC_ROUND_END)
                continue
            die = ghost_die(state, cfg)
            ghost_course(state, cfg, log)
            n = ghost_targets(state, cfg, die, ch)
            state[X_MV_DIE] = die
            if wait_for(state, state[S_CAPTAIN], DEC_GHOST, GHOST, die, 0, 0, n, PC_GHOST_DONE):
                return
            code = ch[0]
        elif pc == PC_GHOST_DONE:
            i = index_of(ch, code)
            place(state, GHOST, code % BACKWARD_FLAG, state[S_TGT_LAP + i], state[S_TGT_DONE + i],
                  code >= BACKWARD_FLAG, state[X_MV_DIE], log)
            call_arrive(state, GHOST, PC_GHOST_AFTER)
        elif pc == PC_GHOST_AFTER:
            if check:
                check_or_raise(state, cfg)
            state[X_GM] += 1
            goto(state, PC_GHOST_MOVE)
        # ---- a move: exactly the die's spaces, the ship chooses the branch at forks (3(1))
        elif pc == PC_MOVE:
            ship = state[X_MV_SHIP]
            b = base_of(ship)
            steps = state[X_MV_DIE]
            backward = state[X_MV_BACK]
            n = walk(state, cfg, ship, state[b + B_POS], state[b + B_LAP], steps, backward == 1, ch,
                     state[S_TGT_LAP:S_TGT_LAP + 8], state[S_TGT_DONE:S_TGT_DONE + 8])
            if backward:
                for i in range(n):
                    ch[i] += BACKWARD_FLAG
            if wait_for(state, ship, DEC_MOVE, ship, steps, backward, 0, n, PC_MOVE_DONE):
                return
            code = ch[0]
        elif pc == PC_MOVE_DONE:
            ship = state[X_MV_SHIP]
            i = index_of(ch, code)
            place(state, ship, code % BACKWARD_FLAG, state[S_TGT_LAP + i], state[S_TGT_DONE + i],
                  state[X_MV_BACK] == 1, state[X_MV_DIE], log)
            state[X_AR_SHIP] = ship          # the move ends in arrive, which returns to the move's caller
            tail_call(state, PROGRAM, PC_ARRIVE, PC_ARRIVE)
        # ---- the end of a move: battle if occupied (never in Port Royal), then the space's cost;
        #      short of it, pay everything and fall back to the first payable space (3(2), 3(3))
        elif pc == PC_ARRIVE:
            ship = state[X_AR_SHIP]
            b = base_of(ship)
            s = state[b + B_POS]
            if state[b + B_DONE] or cfg[O.space_type + s] == PR:
                ret(state, PROGRAM)
                continue
            call_battle(state, ship, s, PC_ARRIVE_BATTLED)
        elif pc == PC_ARRIVE_BATTLED:
            ship = state[X_AR_SHIP]
            s = state[base_of(ship) + B_POS]
            if cfg[O.space_type + s] == LAIR:
                take_lair(state, ship, s, log)
                ret(state, PROGRAM)
                continue
            if ship == GHOST:  # the ghost ship never pays (5(6))
                ret(state, PROGRAM)
                continue
            res, cost = space_cost(cfg, s)
            have = amount(state, ship, res)
            if have >= cost:
                call_pay(state, ship, res, cost, PC_ARRIVE_PAID)
            else:
                state[X_AR_HAVE] = have
                call_pay(state, ship, res, have, PC_ARRIVE_SHORT)
        elif pc == PC_ARRIVE_PAID:
            ship = state[X_AR_SHIP]
            s = state[base_of(ship) + B_POS]
            res, cost = space_cost(cfg, s)
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_PAY, ship, res, cost, s)
            ret(state, PROGRAM)
        elif pc == PC_ARRIVE_SHORT:
            ship = state[X_AR_SHIP]
            b = base_of(ship)
            s = state[b + B_POS]
            res, cost = space_cost(cfg, s)
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_SHORT, ship, res, cost, state[X_AR_HAVE], s)
            if res == R_FOOD:
                state[b + B_FALL_FOOD] += 1
            else:
                state[b + B_FALL_GOLD] += 1
            n = retreat_targets(state, cfg, ship, ch)
            if wait_for(state, ship, DEC_RETREAT, ship, res, 0, 0, n, PC_RETREAT_DONE):
                return
            code = ch[0]
        elif pc == PC_RETREAT_DONE:
            ship = state[X_AR_SHIP]
            b = base_of(ship)
            s = state[b + B_POS]
            state[b + B_POS] = code
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_RETREAT, ship, s, code)
            goto(state, PC_ARRIVE)
        # ---- a sea battle (3(4)): the attacker picks an opponent, commits cannons and rolls, then
        #      the defender; a star wins outright; higher strength wins; a tie does nothing. Every
        #      battle spends two faces of its dice stream, the defender's even when an attacker's
        #      star leaves it unrolled, so the k-th battle rolls the same dice whatever happened.
        elif pc == PC_BATTLE:
            att = state[X_B_ATT]
            n = opponents(state, att, state[X_B_SPACE], ch)
            if n == 0:
                ret(state, PROGRAM)
                continue
            if wait_for(state, decider_for(state, att, -1), DEC_TARGET, att, state[X_B_SPACE], 0, 0, n,
                        PC_TARGET_DONE):
                return
            code = ch[0]
        elif pc == PC_TARGET_DONE:
            att = state[X_B_ATT]
            dfd = code
            state[X_B_DFD] = dfd
            state[base_of(att) + B_COMBATS] += 1
            state[base_of(dfd) + B_COMBATS] += 1
            state[base_of(att) + B_ATTACKS] += 1
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_COMBAT, att, dfd, state[X_B_SPACE])
            state[X_B_SFREE] = 1 if state[S_TOWNER + T_SABRE] != GHOST else 0
            call_cannons(state, att, dfd, 0, 0, PC_ATT_CANNONS)
        elif pc == PC_ATT_CANNONS:
            att = state[X_B_ATT]
            ac = state[X_CC_C]
            state[X_B_AC] = ac
            a_base = ac + strength_bonus(state, cfg, att)
            state[X_B_ABASE] = a_base
            af = roll_face(cfg, streams[battle_row(att, state[X_B_DFD], RNG_COMBAT)])
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_ROLL, att, ac, af, a_base + af)
            call_sabre(state, att, af, a_base, PC_ATT_SABRE)
        elif pc == PC_ATT_SABRE:
            # the outcome is only known once the Sabre's window after each roll has closed
            att = state[X_B_ATT]
            af = state[X_SW_FACE]
            state[X_B_AF] = af
            state[X_B_SFREE] = state[X_SW_FREE]
            if af == STAR:
                state[X_B_WINNER] = att
                state[X_B_STAR] = 1
                state[X_B_DBASE] = 0
                state[X_B_DF] = 0
                randint(streams[battle_row(att, state[X_B_DFD], RNG_COMBAT)], 6)  # the defender's face, unrolled
                goto(state, PC_RESULT)
            else:
                call_cannons(state, state[X_B_DFD], att, 1, state[X_B_ABASE] + af, PC_DFD_CANNONS)
        elif pc == PC_DFD_CANNONS:
            dfd = state[X_B_DFD]
            dc = state[X_CC_C]
            state[X_B_DC] = dc
            d_base = dc + strength_bonus(state, cfg, dfd)
            state[X_B_DBASE] = d_base
            df = roll_face(cfg, streams[battle_row(state[X_B_ATT], dfd, RNG_COMBAT)])
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_ROLL, dfd, dc, df, d_base + df)
            call_sabre(state, dfd, df, d_base, PC_DFD_SABRE)
        elif pc == PC_DFD_SABRE:
            df = state[X_SW_FACE]
            state[X_B_DF] = df
            state[X_B_SFREE] = state[X_SW_FREE]
            a_str = state[X_B_ABASE] + state[X_B_AF]
            d_str = state[X_B_DBASE] + df
            state[X_B_STAR] = 1 if df == STAR else 0
            state[X_B_WINNER] = -1
            if df == STAR:
                state[X_B_WINNER] = state[X_B_DFD]
            elif a_str > d_str:
                state[X_B_WINNER] = state[X_B_ATT]
            elif d_str > a_str:
                state[X_B_WINNER] = state[X_B_DFD]
            goto(state, PC_RESULT)
        elif pc == PC_RESULT:
            att = state[X_B_ATT]
            dfd = state[X_B_DFD]
            winner = state[X_B_WINNER]
            a_str = state[X_B_ABASE] + state[X_B_AF]
            d_str = state[X_B_DBASE] + state[X_B_DF]
            if winner < 0:
                state[X_EVENTS] = emit(log, state[X_EVENTS], EV_RESULT, -1, -1, att, dfd, 0, a_str, d_str)
                ret(state, PROGRAM)
                continue
            loser = dfd if winner == att else att
            state[base_of(winner) + B_WINS] += 1
            state[X_EVENTS] = emit(log, state[X_EVENTS], EV_RESULT, winner, loser, att, dfd, state[X_B_STAR], a_str,
                                   d_str)
            n = loot_choices(state, cfg, winner, loser, ch)
            if n == 0:
                ret(state, PROGRAM)
                continue
            who = decider_for(state, winner, loser)
            state[X_B_WHO] = who
            if wait_for(state, who, DEC_LOOT, winner, loser, 0, 0, n, PC_LOOT_DONE):
                return
            code = ch[0]
        elif pc == PC_LOOT_DONE:
            winner = state[X_B_WINNER]
            loser = state[X_B_DFD] if winner == state[X_B_ATT] else state[X_B_ATT]
            if take_loot(state, cfg, winner, loser, code, streams, ch, log):
                state[X_LD_WHO] = state[X_B_WHO]
                tail_call(state, PROGRAM, PC_LOAD, PC_LOAD)   # the loot is loaded; then back to the battle's caller
            else:
                ret(state, PROGRAM)
        # ---- committing cannons (3(4)): any number of the fighter's cannons; the ghost has none
        elif pc == PC_CANNONS:
            ship = state[X_CC_SHIP]
            have = amount(state, ship, R_CANNON) if ship != GHOST else 0
            if have == 0:
                state[X_CC_C] = 0
                ret(state, PROGRAM)
                continue
            n = min(have + 1, MAX_CHOICES)
            for i in range(n):
                ch[i] = i
            if wait_for(state, ship, DEC_CANNONS, ship, state[X_CC_OPP], state[X_CC_DEF], state[X_CC_SOFAR], n,
                        PC_CANNONS_DONE):
                return
            code = ch[0]
        elif pc == PC_CANNONS_DONE:
            state[X_CC_C] = code
            call_pay(state, state[X_CC_SHIP], R_CANNON, code, PC_CANNONS_PAID)
        elif pc == PC_CANNONS_PAID:
            state[base_of(state[X_CC_SHIP]) + B_SPENT] += state[X_CC_C]
            ret(state, PROGRAM)
        # ---- Saran's Sabre: right after a roll its owner, if fighting, may have that die
        #      re-rolled ([S3]: once per battle, right after the roll it changes)
        elif pc == PC_SABRE:
            holder = state[S_TOWNER + T_SABRE]
            if not state[X_B_SFREE] or (holder != state[X_B_ATT] and holder != state[X_B_DFD]):
                state[X_SW_FREE] = 0
                ret(state, PROGRAM)
                continue
            ch[0] = 0
            ch[1] = 1
            if wait_for(state, holder, DEC_SABRE, holder, state[X_SW_ROLLED], state[X_SW_FACE], 0, 2, PC_SABRE_DONE):
                return
        elif pc == PC_SABRE_DONE:
            if code == 0:
                state[X_SW_FREE] = 1
            else:
                face = state[X_SW_FACE]
                new = roll_face(cfg, streams[battle_row(state[X_B_ATT], state[X_B_DFD], RNG_SABRE)])
                state[X_EVENTS] = emit(log, state[X_EVENTS], EV_SABRE, state[S_TOWNER + T_SABRE],
                                       state[X_SW_ROLLED], face, new, state[X_SW_BASE] + new)
                state[X_SW_FACE] = new
                state[X_SW_FREE] = 0
            ret(state, PROGRAM)
        # ---- loading (3(1)) and paying (3(2)): the holds, chosen by the owner
        elif pc == PC_LOAD:
            n = load_begin(state, cfg, ch, log)
            if n == 0:
                ret(state, PROGRAM)
                continue
            ship = state[X_LD_SHIP]
            if ship != GHOST and wait_for(state, state[X_LD_WHO], DEC_HOLD, ship, state[X_LD_RES], state[X_LD_COUNT],
                                          0, n, PC_HOLD_DONE):
                return
            goto(state, PC_HOLD_DONE)
            code = ch[0]
        elif pc == PC_HOLD_DONE:
            load_into(state, code, log)
            ret(state, PROGRAM)
        elif pc == PC_PAY:
            if state[X_PY_COST] <= 0:
                ret(state, PROGRAM)
                continue
            total = pay_holds(state)
            ship = state[X_PY_SHIP]
            n = 2 if state[X_PY_K] >= 2 and state[X_PY_COST] < total and ship != GHOST else 1
            ch[0] = 0
            ch[1] = 1
            if wait_for(state, ship, DEC_PAY, ship, state[X_PY_RES], state[X_PY_COST], 0, n, PC_PAY_DONE):
                return
            code = 0
        elif pc == PC_PAY_DONE:
            pay_out(state, code)
            ret(state, PROGRAM)
