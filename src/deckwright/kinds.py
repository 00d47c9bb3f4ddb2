"""The output kinds deckwright builds, in build order: each a module under deckwright.outputs
with `build(ctx)`. A leaf module, so that game.yaml's reader can check `build: outputs` and the
command line can list the kinds without importing the model (a no-op build stays fast).
"""

OUTPUT_KINDS: tuple[str, ...] = ("cards", "tgc", "proofs", "pnp", "rulebook", "errata", "check")


def available_kinds() -> list[str]:
    """Output kinds whose builder module exists in this version. Builder modules are imported
    only when built, so `validate` never loads the rendering libraries."""
    import importlib.util

    return [
        kind for kind in OUTPUT_KINDS if importlib.util.find_spec(f"deckwright.outputs.{kind}") is not None
    ]
