# runtime/ -- libcudart.so.13 stand-in (see issue 4).
