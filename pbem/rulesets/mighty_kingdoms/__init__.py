"""Mighty Kingdoms: a Kings of War hex-map campaign, summers of six months and a winter."""
