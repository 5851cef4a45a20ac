#define K
extern int __nvvm_read_ptx_sreg_tid_x(void);
int table[8] = {1,2,3,4,5,6,7,8};
int *tp;
__attribute__((noinline)) float helper(float x, int n) { float s = 0; for (int i = 0; i < n; i++) s += x * i; return s; }
void K saxpy(float *y, const float *x, float a, int n) {
  int i = __nvvm_read_ptx_sreg_tid_x();
  if (i < n) y[i] = a * x[i] + y[i] + helper(a, n) + tp[i & 3];
  switch (n) { case 1: y[0] = 1; break; case 2: y[1] = 3; break; case 3: y[2] = 4; break; case 4: y[5] = 1; break; case 5: y[3] = 8; break; }
  float (*fp)(float, int) = n > 3 ? helper : 0;
  if (fp) y[9] = fp(1.0f, 3);
}
