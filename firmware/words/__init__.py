"""What the table says and shows, in English and German: `messages` (the catalogue and
`Words`, which every other part asks), `page` (the touch page's words), `fields` (the
API's field names), `refusals` (the engine's refusals, keyed by rule), `rejected` (the
daemon's refusals: a key and its values, worded where they are said), `options` (the
set-up sheet's house rules, presets and editions)."""
