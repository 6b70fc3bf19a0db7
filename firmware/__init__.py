"""firmware: the table daemon that joins the referee (uno_core) to the hardware (hal)."""
