"""Editions: what changed in a game between two versions of its data (`deckwright diff`), the
draft errata for printed cards whose text changed (`deckwright errata`), and an edition's
changelog (`deckwright changelog`).

Both versions are read through the normal loader, so the comparison is of the model, not of YAML
lines: `gitrev` materialises a git revision into a temporary folder, `diff` compares two games
into typed change records, `faces` works out what that means for print, `report` and `page`
show it, `errata_draft` and `changelog` write the editor's drafts.
"""
