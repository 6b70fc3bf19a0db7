"""The journal: every accepted action and chance outcome, appended (SQLite, WAL,
synchronous) before its effects run, and replayed through the live code after a crash.

`store` is the writer and reader (`Journal`); `format` its tables, entries and CRCs;
`opening` the checks at open; `view` the read-only view they (and `check`) read, which
leaves a refused journal exactly as it was; `mark` the high-water mark beside it;
`faults` a failed write, a file replaced under the daemon and its rescue; `check` the
offline check and recovery behind `unotable journal check` / `recover`.
"""
