"""Simulated twin of the table hardware (ships with the package, like gpiozero.pins.mock)."""
