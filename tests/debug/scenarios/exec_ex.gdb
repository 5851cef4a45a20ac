# loom exec streams
# ex: break twice
# ex: run
backtrace
kill
quit
