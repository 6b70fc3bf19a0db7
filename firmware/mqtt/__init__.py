"""The table on MQTT: Home Assistant's device discovery, the table's state and events,
and each result published from an outbox until the broker acknowledges it; and the
collector (`unotable results`) that keeps every table's results once.

The parts: `settings` (the `[mqtt]` config section), `topics` (every topic name),
`state` (the state document and the events), `discovery` (the discovery document,
pure), `results` (a result's message and id), `outbox` (the results as journal entries),
`link` (the table's connection: reconnects, back-off, the bounded queue), `probe` (one
short connection for the commands), `table` (the link built from the config), and for
`unotable results`: `collector`, `store` (SQLite) and `standings` (the page).
"""
