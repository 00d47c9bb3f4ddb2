"""The output kinds deckwright builds, in build order: each a module under deckwright.outputs
with `build(ctx)`. A leaf module, so that game.yaml's reader can check `build: outputs` and the
command line can list the kinds without importing the model (a no-op build stays fast).
"""

OUTPUT_KINDS: tuple[str, ...] = ("cards", "tgc", "proofs", "pnp", "rulebook", "errata", "check")
