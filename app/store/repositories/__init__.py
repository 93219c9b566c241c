"""Every database query lives in one of these modules, one per kind of thing."""
