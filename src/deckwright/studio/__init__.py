"""`deckwright serve`: a live card gallery in the browser that follows every save.

- `live`: the games being served, rebuilt in stages on every save (`pipeline.staged`); a game
  with errors gets preview images of its changed faces, text that does not fit marked;
- `watcher`: the saves, from the operating system's notifications (watchfiles);
- `events`: the server-sent events that tell open pages something changed;
- `views`: what the page shows as JSON: decks, cards, one card and what quotes it;
- `images`: gallery thumbnails and print-and-play pages as PNG;
- `server`: the Starlette app (the page, its assets, the games' build outputs and nothing else)
  run by uvicorn in a thread;
- `static/`: the page itself (HTML, CSS, JavaScript).
"""
