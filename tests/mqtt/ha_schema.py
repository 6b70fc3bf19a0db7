"""Home Assistant's device-discovery schema as a JSON Schema, transcribed from what
Home Assistant publishes: the MQTT integration's docs ("Device discovery payload",
"Using abbreviations", each platform's "Configuration variables") and the voluptuous
schemas they describe (homeassistant/components/mqtt/schemas.py: DEVICE_DISCOVERY_SCHEMA,
MQTT_ENTITY_DEVICE_INFO_SCHEMA, MQTT_ORIGIN_INFO_SCHEMA; sensor.py, binary_sensor.py,
event.py, button.py). Only the options unotable uses are spelled out per platform, and
every other key is refused, so a typo fails here instead of being ignored by Home
Assistant."""

from __future__ import annotations

from typing import Any

_STR = {"type": "string", "minLength": 1}
_TOPIC = {"type": "string", "pattern": r"^[^#+\x00]+$"}  # a publish/subscribe-able topic
_TEMPLATE = {"type": "string", "pattern": r"\{\{.*\}\}"}
# Home Assistant's device classes (the platforms' docs), as of the 2024.11 device discovery.
SENSOR_CLASSES = [
    "apparent_power", "aqi", "area", "atmospheric_pressure", "battery", "blood_glucose_concentration",
    "carbon_dioxide", "carbon_monoxide", "current", "data_rate", "data_size", "date", "distance",
    "duration", "energy", "energy_distance", "energy_storage", "enum", "frequency", "gas",
    "humidity", "illuminance", "irradiance", "moisture", "monetary", "nitrogen_dioxide",
    "nitrogen_monoxide", "nitrous_oxide", "ozone", "ph", "pm1", "pm10", "pm25", "power_factor",
    "power", "precipitation", "precipitation_intensity", "pressure", "reactive_power",
    "signal_strength", "sound_pressure", "speed", "sulphur_dioxide", "temperature", "timestamp",
    "volatile_organic_compounds", "volatile_organic_compounds_parts", "voltage", "volume",
    "volume_flow_rate", "volume_storage", "water", "weight", "wind_direction", "wind_speed"]
BINARY_CLASSES = [
    "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door",
    "garage_door", "gas", "heat", "light", "lock", "moisture", "motion", "moving", "occupancy",
    "opening", "plug", "power", "presence", "problem", "running", "safety", "smoke", "sound",
    "tamper", "update", "vibration", "window"]
EVENT_CLASSES = ["button", "doorbell", "motion"]
BUTTON_CLASSES = ["identify", "restart", "update"]
STATE_CLASSES = ["measurement", "total", "total_increasing"]

_ENTITY = {  # options every entity platform has (MQTT_ENTITY_COMMON_SCHEMA)
    "p": _STR, "name": {"type": ["string", "null"]}, "unique_id": _STR, "icon": _STR,
    "enabled_by_default": {"type": "boolean"},
    "entity_category": {"enum": ["config", "diagnostic"]},
    "json_attributes_topic": _TOPIC, "json_attributes_template": _TEMPLATE,
    "availability_topic": _TOPIC, "state_topic": _TOPIC, "qos": {"enum": [0, 1, 2]},
}


def _platform(name: str, required: list[str], options: dict[str, Any],
              extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"if": {"properties": {"p": {"const": name}}, "required": ["p"]},
            "then": {"type": "object", "required": ["p", "unique_id", *required],
                     "properties": {**_ENTITY, **options}, "additionalProperties": False,
                     **(extra or {})}}


COMPONENT = {
    "type": "object",
    "required": ["p"],
    "properties": {"p": {"enum": ["sensor", "binary_sensor", "event", "button"]}},
    "allOf": [
        _platform("sensor", [], {
            "device_class": {"enum": SENSOR_CLASSES}, "state_class": {"enum": STATE_CLASSES},
            "unit_of_measurement": _STR, "value_template": _TEMPLATE,
            "options": {"type": "array", "items": _STR, "minItems": 1}},
            # sensor.py: options only with device_class enum, which has no unit nor state class
            {"if": {"required": ["options"]},
             "then": {"properties": {"device_class": {"const": "enum"}},
                      "required": ["device_class"],
                      "not": {"anyOf": [{"required": ["state_class"]},
                                        {"required": ["unit_of_measurement"]}]}}}),
        _platform("binary_sensor", [], {
            "device_class": {"enum": BINARY_CLASSES}, "value_template": _TEMPLATE,
            "payload_on": _STR, "payload_off": _STR}),
        _platform("event", ["state_topic", "event_types"], {
            "device_class": {"enum": EVENT_CLASSES}, "value_template": _TEMPLATE,
            "event_types": {"type": "array", "items": _STR, "minItems": 1, "uniqueItems": True}}),
        _platform("button", ["command_topic"], {
            "device_class": {"enum": BUTTON_CLASSES}, "command_topic": _TOPIC,
            "payload_press": _STR, "retain": {"type": "boolean"}}),
    ],
}

DEVICE_DISCOVERY = {
    "type": "object",
    "required": ["dev", "o", "cmps"],
    "additionalProperties": False,
    "properties": {
        "dev": {  # MQTT_ENTITY_DEVICE_INFO_SCHEMA: at least one identifier or connection
            "type": "object", "additionalProperties": False,
            "anyOf": [{"required": ["ids"]}, {"required": ["cns"]}],
            "properties": {"ids": {"type": "array", "items": _STR, "minItems": 1},
                           "cns": {"type": "array"}, "name": _STR, "mf": _STR, "mdl": _STR,
                           "sw": _STR, "hw": _STR, "sn": _STR, "sa": _STR, "cu": _STR}},
        "o": {"type": "object", "required": ["name"], "additionalProperties": False,
              "properties": {"name": _STR, "sw": _STR, "url": {"type": "string",
                                                               "pattern": "^https?://"}}},
        "cmps": {"type": "object", "minProperties": 1,
                 "propertyNames": {"pattern": "^[a-zA-Z0-9_-]+$"},
                 "additionalProperties": COMPONENT},
        "availability_topic": _TOPIC, "payload_available": _STR, "payload_not_available": _STR,
        "state_topic": _TOPIC, "command_topic": _TOPIC, "qos": {"enum": [0, 1, 2]},
        "encoding": {"type": "string"},
    },
}
