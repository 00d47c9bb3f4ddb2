"""`python -m deckwright.cli`, as the tests start it."""

import sys

from . import main

sys.exit(main())
