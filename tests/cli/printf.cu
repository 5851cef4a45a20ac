// printf.cu -- device printf conversions whose output is well defined on the GPU
// (nvcc -arch=sm_80 -ptx printf.cu -o printf.ptx); expected/printf.stdout was recorded on an H100.
#include <cstdio>

extern "C" __global__ void conv(const char *empty)
{
    char local[8] = { 'l', 'o', 'c', 0 };
    printf("A1|%d|%i|%u|%o|%x|%X|%c|\n", -42, 42, 3000000000u, 8, 255, 255, 'q');
    printf("A2|%5d|%-5d|%05d|%+d|% d|%#o|%#x|%#X|\n", 42, 42, 42, 42, 42, 8, 255, 255);
    printf("A3|%hd|%hu|%hx|\n", 70000, 70000, 0x12345);
    printf("A4|%ld|%lld|%lu|%llx|%lx|\n", -5000000000L, -5000000000LL, 18446744073709551615UL, 0x123456789abcULL, 0xfeedfaceUL);
    printf("A6|%f|%F|%e|%E|%g|%G|%a|%A|\n", 3.25f, 1.5, 12345.678, 0.000123, 1e-5, 1e20, 1.0, -0.75);
    printf("A7|%.3f|%10.2e|%-10.4g|%#g|%+.0f|%.0e|%#.0f|\n", 3.14159, 31415.9, 2.5, 1.0, 2.5, 15.0, 3.0);
    printf("A8|%f|%f|%e|%g|%a|\n", __longlong_as_double(0x7ff0000000000000LL), __longlong_as_double(0xfff0000000000000LL),
           -0.0, __longlong_as_double(0x7ff8000000000000LL), 0.0);
    printf("A9|%s|%10s|%-10s|%.2s|%s|%s|%.2s|\n", "abc", "abc", "abc", "abcdef", empty, local, local);
    printf("B1|%p|%p|%10p|%-10p|%+p|\n", (void *)0, (void *)0x1234, (void *)0x1234, (void *)0x1234, (void *)0x1234);
    printf("B2|%%|%5%|%c|%5c|%-3c|\n", 65, 66, 67);
    printf("B3|%lf|%le|%hf|\n", 1.5, 3.5, 2.5);
    printf("B4|%k %d|%5|%d|%n|%q|\n", 1, 2);
    printf("B5|%*d|%-*d|%*d|\n", 5, 42, 6, 43, -5, 44);
    printf("B6|trailing %");
    printf("|\n");
    printf("C1|%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %s|\n",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
           30, 31, "32nd");
    printf("C2|%d|%lld|%d|%f|%d|%s|%c|%u|\n", 1, 2LL, 3, 4.0, 5, "six", '7', 8u);
    printf("C3|%-+8.3d|%08.3d|% 05d|%+05d|%-05d|\n", 5, 5, 5, 5, 5);
    printf("C4|%#.3x|%#5o|%#x|%#o|%.0d|%.0x|%5.0d|\n", 0, 0, 0, 0, 0, 0, 0);
    printf("C5|%c|%c|\n", 0x141, 'z');
    printf("C6|%.e|%.g|%.a|%10.3a|\n", 1234.5, 1234.5, 1.0, 3.0);
    printf("C7|%g|%g|%g|%g|%G|\n", 100000.0, 1000000.0, 0.0001, 0.00001, 1e-10);
    printf("C8|%a|%a|%a|%A|\n", 0.1, 1e-310, 3.0f, 255.5);
    printf("C9|%s|%.6s|%.5s|%8.6s|\n", (const char *)0, (const char *)0, (const char *)0, (const char *)0);
    printf("D1|%x|%lx|%u|%d|\n", 0xffffffffu, 0xffffffffffffffffULL, -1, 0x80000000u);
    printf("D3|%-#012.5x|%#-12.5o|%+.3e|% .2f|\n", 255, 8, -1234.5678, 2.0);
}

// One warp: each lane prints in lane order.
extern "C" __global__ void lanes(int n)
{
    if ((int)threadIdx.x < n)
        printf("lane %2d of %d: %s\n", (int)threadIdx.x, n, threadIdx.x % 2 ? "odd" : "even");
}
