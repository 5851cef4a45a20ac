# loom exec streams
break twice
run
watch global %rd2 + 20
continue
continue
