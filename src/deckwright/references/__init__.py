"""Rulebook references: their syntax (`syntax`) and what they select from a game (`selection`)."""
