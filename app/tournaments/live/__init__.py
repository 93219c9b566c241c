"""The tournaments' live part: the scheduler every instance runs."""
