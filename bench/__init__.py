"""Benchmarks: scripts that measure and print figures (tests never assert time)."""
