# numba_axpy.py -- makes numba_axpy.ptx (numba 0.68 on the device machine): a numba kernel whose
# arrays each become seven parameters, for loom run's documented numba layout (run-args.sh).
import sys
import numpy as np
if not hasattr(np, 'row_stack'):
    np.row_stack = np.vstack   # numba 0.68 still names it; numpy 2.5 removed it
from numba import cuda, float32
import numba

def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + y[i]

ptx, resty = cuda.compile_ptx(axpy, (float32[::1], float32, float32[::1], float32[::1]), device=False)
open(sys.argv[1], "w").write(ptx)
print("numba", numba.__version__)
