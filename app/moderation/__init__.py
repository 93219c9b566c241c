"""Moderation and fair play (docs/moderation.md): roles, blocks, reports, moderators' actions and the audit
log, sanctions checked where actions are accepted, and the escape share."""
