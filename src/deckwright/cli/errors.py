"""Exit codes, and the error a command raises for a bad use of the command line."""

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass
