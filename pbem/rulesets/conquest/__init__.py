"""Campaigns of Conquest (Warmaster, after Mighty Empires): rule code, clause prefix COC.

Layout, and who calls what:

    model.py      the vocabulary every module shares: empires, tiles, buildings,
                  treasuries, EP, battles, setups, reported results, EP awards,
                  sieges, Naval Advantage, the round and its window (TOML round trip)
    tiles.py      the hex map: terrain, cities, castles, mines, ports, objectives, sea
    rules.py      typed access to `rules/conquest.toml` (+ campaign overrides)
    setup.py      window S: capital picks (COC-SET)
    order.py      step 0: empire sizes, tie-breaks, ascending order (COC-ORD)
    events.py     step A.1: event picks and their immediate effects (COC-EVT)
    revenue.py    step A.2: mines, exhaustion (COC-REV)
    challenges.py step A.3: challenges, Diplomacy, teams, break-ups (COC-CHL)
    spending.py   step D: claim, conquer, siege, build, replace, raid, plunder,
                  carry-over, victory checks (COC-SPD, COC-BLD, COC-WIN, COC-GEN-9)
    battles.py, results.py, siege.py, naval.py, abstract.py, briefing.py
                  steps B and C: battle size, gold, team shares, army bonuses,
                  briefings, EP per result, All or Nothing, beaten opponents,
                  siege assaults, Naval Advantage, abstract resolution
                  (COC-BAT, COC-RES, COC-SIE, COC-NAV, COC-GAB, COC-ABR)
    parse.py      the order lines of every window, with line errors
    reporting.py  report contexts (public round report, private reports)
    ruleset.py    the glue the engine calls: stages S,0,1,A,2,B,3,C,4,D

`ruleset.py` is the only module that knows the window sequence; it calls the
step functions in order and each step takes the state plus what it needs
(rules, map, dice, submissions) and mutates or returns model objects.
"""
