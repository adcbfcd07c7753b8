"""``python -m cpstats.apps.cli CMD``: the ``cpstats`` command."""

import sys

from cpstats.apps.cli.entry import main

sys.exit(main())
