"""The output kinds deckwright builds, in build order: each a module under deckwright.outputs
with `build(ctx)`. A leaf module, so that game.yaml's reader can check `build: outputs` and the
command line can list the kinds without importing the model (a no-op build stays fast).
"""

OUTPUT_KINDS: tuple[str, ...] = (
    "cards",
    "tgc",
    "proofs",
    "pnp",
    "rulebook",
    "errata",
    "check",
    "tts",
    "press",
)

# Made only when asked for (`--only`, or game.yaml `build: outputs`): a Tabletop Simulator
# export is for playtesters, and its sheets would add seconds to every plain build; press PDFs
# are for a print shop, and their CMYK separation costs seconds (the first build of a machine
# ~25 s more, for the default profile).
OPT_IN_KINDS: tuple[str, ...] = ("tts", "press")
DEFAULT_KINDS: tuple[str, ...] = tuple(k for k in OUTPUT_KINDS if k not in OPT_IN_KINDS)


def available_kinds() -> list[str]:
    """Output kinds whose builder module exists in this version. Builder modules are imported
    only when built, so `validate` never loads the rendering libraries."""
    import importlib.util

    return [
        kind for kind in OUTPUT_KINDS if importlib.util.find_spec(f"deckwright.outputs.{kind}") is not None
    ]
