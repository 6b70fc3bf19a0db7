"""hal: hardware drivers (gpiozero devices, serial readers) and their simulated twin in hal.sim."""
