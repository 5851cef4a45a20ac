# loom exec streams
break fill
run
detach
