"""Stand-ins for the Pico hardware so the firmware runs under pytest."""
