"""AMD IL target (spec 000): devices, families and -mattr options; compiling to IL comes later."""
