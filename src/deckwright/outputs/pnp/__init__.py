"""`build/<game>/pnp-<paper>.pdf`: print-and-play sheets, one PDF per paper of layouts/papers.yaml.

Every physical card prints at its count. The pages, in order:

1. a calibration page (squares of 50 mm and 2 in, how to print, the contents), and on its
   back the component checklist (padded with a blank page to keep fronts on odd pages);
2. the duplex alignment sheet: targets on the front, their twins on the back at -2..+2 mm;
3. for every deck (in the order of game.yaml) and layout: a fronts page, then its backs page
   laid out for the duplex flip (`--duplex`), moved by `--back-offset`; tokens likewise, apart
   on punch-out sheets with cut lines; boards on one page when they fit, else tiled, each page
   with a blank back.

Variants, each its own file beside the plain one: `--gutterfold` adds
`pnp-<paper>-gutterfold.pdf` (single-sided: no alignment sheet, no blank backs, fronts and
backs side by side); `--ink-saver` adds `pnp-<paper>-ink-saver.pdf` (and
`-gutterfold-ink-saver`) with every face's `<g id="background">` hidden.

Where things are, in this package:
- `impose`: pure geometry: grids, bleed, crop marks, duplex mirroring, gutterfold, footers;
- `tiles`: boards larger than the paper, tiled with overlaps and seam crosses;
- `alignment`: the duplex alignment sheet's targets;
- `book`: the page plan of one PDF (which cards on which page, in which variant);
- `special_pages`: the calibration page, component checklist, alignment sheet, board maps;
- `pdfs`: the pages turned into PDFs (cached, on the workers), through `deckwright.render.pdf`.
"""

from .pdfs import build

__all__ = ["build"]
