"""Accounts: guests, registration, log-in, passwords and the signed session cookie."""
