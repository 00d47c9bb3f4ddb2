"""Opening someone else's game safely: containment of the files a game names or holds, the
limits on the work its data can ask for, spreadsheet-formula neutralisation, the Jinja sandbox
and signed cache entries. docs/safety.md says what is guaranteed."""
