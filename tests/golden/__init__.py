"""Golden outputs of today's robomodel, to prove that a restructure changes none of them."""
