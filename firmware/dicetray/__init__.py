"""Electronic dice tray for 421: the firmware package."""
