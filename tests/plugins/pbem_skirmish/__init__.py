"""Skirmish: the smallest pbem rule system, installed as a plug-in (see `ruleset`)."""
