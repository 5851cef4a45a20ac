# tests/ -- Check unit tests and golden-file tests.
