"""One module per kind of artifact; each returns bytes and leaves writing to the writer."""
