"""uno_core: the UNO referee. Pure Python: no I/O, no threads, no clock, no global RNG."""
