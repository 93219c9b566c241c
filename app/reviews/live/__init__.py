"""A shared review's live part: its room on one instance and the instance's review rooms."""
