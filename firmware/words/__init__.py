"""What the table says and shows, in English and German: `messages` (the catalogue and
`Words`, which every other part asks), `page` (the touch page's words), `fields` (the
API's field names), `refusals` (the engine's refusals, keyed by rule), `options` (the
set-up sheet's house rules, presets and editions)."""
