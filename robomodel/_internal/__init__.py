"""The one place where robomodel skips its own checks, caches, or writes files.

Everything here serves the layers above and is not for users: trusted construction of values whose
fields a caller already proved valid (:mod:`.construct`), read-only arrays (:mod:`.arrays`), the
per-value cache of derived data (:mod:`.memo`), the one atomic file write (:mod:`.files`), the
bound that clears consistent inertias before the loader's eigenvalue screen (:mod:`.inertia_bound`),
Python's ``repr`` of whole float arrays (:mod:`.shortest`) and the aliases that keep old module
paths importing (:mod:`.aliases`). Each fast path is listed with its measured benefit in
docs/architecture.md.
"""
