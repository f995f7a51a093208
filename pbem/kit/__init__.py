"""The kit rule systems are built from: dice, order reading, rule books, player order,
rosters, the resolver and maps. A rule system imports from here and `pbem.rulesets.base`."""
