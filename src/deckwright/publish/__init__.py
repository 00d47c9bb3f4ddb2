"""Publishing a built game to a print service: The Game Crafter, over its API.

It works from what `deckwright build` wrote (build/<game>/tgc/manifest.csv and its images), not
from the model, so that it depends on nothing but the build's output format:

  catalogue.py  which API shape makes each product (tgc_products.yaml)
  plan.py       the manifest read into components and cards; the diff against the last publish
  state.py      build/<game>/tgc/publish.json: what is on TGC already, by content hash and key
  client.py     the polite HTTP client (rate limit, Retry-After, bounded retries, TGC's errors)
  tgc.py        the flow: session, folder, game, uploads, components, cards, deletions
"""
