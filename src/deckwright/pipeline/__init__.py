"""load -> validate -> build outputs -> write. The command line drives it; nothing here prints.

- `load`: the project's catalogue (layouts, papers, print services) and fonts; each game loaded
  and validated (`check_game`);
- `build`: a checked game's output kinds built and written atomically (`build_game`);
- `session`: a `deckwright build` of several games: up-to-date checks, locks, build records;
- `uptodate`, `lock`: the session's two helpers.

Nothing is imported here: an up-to-date build imports the session alone, not the model or the
rendering libraries.
"""
