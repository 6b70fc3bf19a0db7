"""The table on MQTT: Home Assistant's device discovery, the table's state and events,
and each result published from an outbox until the broker acknowledges it; and the
collector (`unotable results`) that keeps every table's results once.

The parts: `settings` (the `[mqtt]` config section), `topics` (every topic name),
`discovery` (the discovery payload, pure), `results` (a result's message and id),
`link` (the table's connection: reconnects, back-off, the bounded queue),
`collector` and `standings` (the results' store and its page).
"""
