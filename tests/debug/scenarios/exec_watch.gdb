# loom exec streams
break streams.cu:14
run
watch global %rd2 + 20
continue
continue
