"""``python -m pyengine games | position | simulate ...``: see :mod:`pyengine.simulate`."""

from __future__ import annotations

import sys

from .simulate import main

sys.exit(main())
