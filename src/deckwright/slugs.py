"""Ids made from names: any script transliterated to an ASCII slug (python-slugify, with
text-unidecode), so "Händler Günther" is `handler-gunther`, "Łódź" `lodz` and "Ἑρμῆς" `ermes`,
never a mangled or empty id."""

from __future__ import annotations

from slugify import slugify


def make_slug(text: str) -> str:
    """Lower-case ASCII letters and digits joined by single hyphens ("" for text with none)."""
    return slugify(str(text), lowercase=True)


def made_from_note(card_id: str, sources: list[str]) -> str:
    """'(the id 'rosenol' was made from 'Rosenöl' and from 'Rosenol')': clashes the designer
    never typed are told as such."""
    return f"(the id {card_id!r} was made from {' and from '.join(repr(s) for s in sources)})"
