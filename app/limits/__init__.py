"""Rate limits shared by every instance: counters in Redis when it is configured, in memory otherwise."""
