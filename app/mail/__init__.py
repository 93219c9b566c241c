"""Email: addresses on accounts (verified by a signed link), password reset, notices of correspondence games
and challenges (at once or in a daily digest, with one-click unsubscribe), and the outbox that `tengen mailer`
sends through the operator's SMTP server. docs/operations.md, "Mail", lists the settings."""
