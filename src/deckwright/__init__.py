"""deckwright: a print-and-play and card-asset pipeline for tabletop games."""

__version__ = "0.1.0"
