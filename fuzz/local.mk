# fuzz/ -- fuzzing harnesses (make fuzz).
