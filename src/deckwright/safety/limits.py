"""The documented limits on what a game's data can ask deckwright to do (docs/safety.md).

A game folder may come from anyone; each limit keeps one kind of input from making a build run
for hours or fill the machine. They sit far above what a real game needs (the reference games'
figures in brackets), and each one, when hit, is a single located error that names it.
"""

from __future__ import annotations

# Copies of one card (the largest reference count is 45). An upper bound only: whether 0 is
# allowed is the schema's business (readers/game.py), not this limit's.
MAX_COUNT = 1_000
# Copies of all the cards of a game together: the print-and-play plan holds one slot per copy.
MAX_TOTAL_COUNT = 20_000
# Rows of one CSV card file (the peer deck has 105).
MAX_CSV_ROWS = 10_000
# Characters of a card id: an id names files (`<id>-front.png`), and file names end at 255 bytes.
MAX_ID_CHARS = 100
# Work of all the declared checks, computed table columns and rulebook filters of one game in
# one run (validate, check or build), in evaluation steps: one per expression node evaluated,
# plus one per item a built-in function (len, sum, sorted, range, count, cards ...) walks through.
# The reference games use at most 15 300 (midnight-congregation); spending it all takes ~1.5 s.
MAX_CHECK_STEPS = 1_000_000
# Bits of any whole number an expression computes (10 ** 999 has 3 319): a chain of powers
# such as ((10 ** 999) ** 999) ** 999 is refused before it is computed.
MAX_NUMBER_BITS = 100_000
# Pixels of any image a card draws, however it is embedded: an art file, a data: URL in SVG art
# or in a template, an image nested inside an embedded SVG (~7 000 x 7 000).
MAX_IMAGE_PIXELS = 50_000_000
# Bytes of one YAML, CSV, template or stylesheet file, as read (not as the file system reports).
MAX_FILE_BYTES = 8 * 1024 * 1024
# Bytes of one rulebook chapter (Markdown).
MAX_PROSE_BYTES = 2 * 1024 * 1024
# Bytes of one font file, or of any file a document fetches from fonts/ or templates/.
MAX_FONT_BYTES = 32 * 1024 * 1024
# Seconds one template render may take (a card renders in milliseconds); the first render to
# run out stops the game's render pass. Enforced with a timer signal in the main thread.
MAX_TEMPLATE_SECONDS = 10
# Items of a text or list a template makes with `*` ("x" * 10 ** 9 would be a gigabyte at once).
MAX_TEMPLATE_SEQUENCE = 1_000_000
