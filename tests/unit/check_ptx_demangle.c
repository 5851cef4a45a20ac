/* check_ptx_demangle.c -- unit tests of the kernel-name demangler (ptx/ptx_demangle.c): names
 * nvcc emitted for kernels (tests/faults/cuda, a test program of templates, Thrust and CUB) and
 * hand-made ones, each with what GNU c++filt 2.40 prints for it; names outside the subset,
 * which must come back unchanged; and every prefix and some mutations of a long name, which
 * must either demangle or come back unchanged (never crash, never print garbage). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/loom/loom.h"
#include "ptx/ptx_demangle.h"

static const struct { const char *mangled, *display; } demangled[] = {
    { "_Z4statPi",
      "stat(int*)" },
    { "_Z6halvesP6__halfP7__half2P6float47double2amN2ns4itemEPVKi",
      "halves(__half*, __half2*, float4*, double2, signed char, unsigned long, ns::item, int const vola"
      "tile*)" },
    { "_Z2ppPPiPKPKiPvPKvxtbcahwDsDie",
      "pp(int**, int const* const*, void*, void const*, long long, unsigned short, bool, char, signed c"
      "har, unsigned char, wchar_t, char16_t, char32_t, long double)" },
    { "_Z3varIJifPiEEvDpT_",
      "void var<int, float, int*>(int, float, int*)" },
    { "_Z3varIJEEvDpT_",
      "void var<>()" },
    { "_Z4litsILb1ELc65ELj7ELln5ELy9ELsn2EEvPi",
      "void lits<true, (char)65, 7u, -5l, 9ull, (short)-2>(int*)" },
    { "_Z2enIL5Color1EEvPi",
      "void en<(Color)1>(int*)" },
    { "_Z2ttI4WrapiEvPT_IT0_E",
      "void tt<Wrap, int>(Wrap<int>*)" },
    { "_Z4refkIdEvRKT_PS0_",
      "void refk<double>(double const&, double*)" },
    { "_Z5applyI7FunctorEvT_Pi",
      "void apply<Functor>(Functor, int*)" },
    { "_Z5substIifEv4WrapIT_ES0_IT0_ES2_PS1_PS3_",
      "void subst<int, float>(Wrap<int>, Wrap<float>, Wrap<int>, int*, float*)" },
    { "_Z5substI4WrapIiES0_IS1_EEvS0_IT_ES0_IT0_ES4_PS3_PS5_",
      "void subst<Wrap<int>, Wrap<Wrap<int> > >(Wrap<Wrap<int> >, Wrap<Wrap<Wrap<int> > >, Wrap<Wrap<in"
      "t> >, Wrap<int>*, Wrap<Wrap<int> >*)" },
    { "_Z5ipackIJLi1ELi2ELi3EEEvPi",
      "void ipack<1, 2, 3>(int*)" },
    { "_Z5ipackIJEEvPi",
      "void ipack<>(int*)" },
    { "_Z4negkIhLin1EEvPT_",
      "void negk<unsigned char, -1>(unsigned char*)" },
    { "_ZN2ns5inner2k1IfLi4EEEvPT_PKS2_",
      "void ns::inner::k1<float, 4>(float*, float const*)" },
    { "_ZN2ns5inner2k1INS_4itemELin3EEEvPT_PKS3_",
      "void ns::inner::k1<ns::item, -3>(ns::item*, ns::item const*)" },
    { "_ZN36_GLOBAL__N__a35e130b_4_k_cu_8398e7364anonEPi",
      "(anonymous namespace)::anon(int*)" },
    { "_Z11check_smallPKii",
      "check_small(int const*, int)" },
    { "_Z10store_nullP4itemi",
      "store_null(item*, int)" },
    { "_Z11write_consti",
      "write_const(int)" },
    { "_Z6reduceIfLi256EEvPKT_PS0_i",
      "void reduce<float, 256>(float const*, float*, int)" },
    { "_Z1fIJifEEvDpT_S1_",
      "void f<int, float>(int, float, int, float)" },
    { "_Z1fIJifEEvDpT_S0_",
      "void f<int, float>(int, float, float)" },
    { "_Z1fIJEiEvv",
      "void f<, int>()" },
    { "_Z3fooSt6vectorIiSaIiEE",
      "foo(std::vector<int, std::allocator<int> >)" },
    { "_Z3bazRKSt6vectorIiSaIiEES3_",
      "baz(std::vector<int, std::allocator<int> > const&, std::vector<int, std::allocator<int> > const&"
      ")" },
    { "_ZSt4swapIiEvRT_S1_",
      "void std::swap<int>(int&, int&)" },
    { "_Z3barSs",
      "bar(std::basic_string<char, std::char_traits<char>, std::allocator<char> >)" },
    { "_Z1fIN1AIN1BIiEEEEEvv",
      "void f<A<B<int> > >()" },
    { "_Z1fIiEvRT_OS0_",
      "void f<int>(int&, int&&)" },
    { "_Z1fDhDF16_DnDiDsDu",
      "f(half, _Float16, decltype(nullptr), char32_t, char16_t, char8_t)" },
    { "_Z1fPrVKi",
      "f(int const volatile restrict*)" },
    { "_Z2enIN2ns5ColorELS1_2EEvT_",
      "void en<ns::Color, (ns::Color)2>(ns::Color)" },
    { "_Z1fIiLi4ELj5ELb1ELc65ELin3ELs2ELm7EEvT_",
      "void f<int, 4, 5u, true, (char)65, -3, (short)2, 7ul>(int)" },
    { "_Z1fIN2ns1AIiEENS0_1BIS2_EEEvT_T0_",
      "void f<ns::A<int>, ns::B<ns::A<int> > >(ns::A<int>, ns::B<ns::A<int> >)" },
    { "_Z1fSaIiES_",
      "f(std::allocator<int>, std::allocator<int>)" },
    { "_Z1fN1A1BIiEES1_",
      "f(A::B<int>, A::B<int>)" },
    { "_Z1f",
      "f" },
    { "_Z1fv",
      "f()" },
    { "_ZN3cub17CUB_300001_SM_7506detail8for_each13static_kernelINS2_12policy_hub_t12policy_500_tEmN6th"
      "rust23THRUST_300001_SM_750_NS8cuda_cub20__uninitialized_fill7functorINS7_10device_ptrIfEEfEEEEvT"
      "0_T1_",
      "void cub::CUB_300001_SM_750::detail::for_each::static_kernel<cub::CUB_300001_SM_750::detail::for"
      "_each::policy_hub_t::policy_500_t, unsigned long, thrust::THRUST_300001_SM_750_NS::cuda_cub::__u"
      "ninitialized_fill::functor<thrust::THRUST_300001_SM_750_NS::device_ptr<float>, float> >(unsigned"
      " long, thrust::THRUST_300001_SM_750_NS::cuda_cub::__uninitialized_fill::functor<thrust::THRUST_3"
      "00001_SM_750_NS::device_ptr<float>, float>)" },
    { "_ZN3cub17CUB_300001_SM_7506detail9transform16transform_kernelINS2_10policy_hubILb1EN4cuda3std3__"
      "45tupleIJN6thrust23THRUST_300001_SM_750_NS6detail15normal_iteratorINSA_10device_ptrIfEEEEEEEE10p"
      "olicy1000El2sqSF_JPfEEEvT0_iT1_T2_DpNS2_10kernel_argIT3_EE",
      "void cub::CUB_300001_SM_750::detail::transform::transform_kernel<cub::CUB_300001_SM_750::detail:"
      ":transform::policy_hub<true, cuda::std::__4::tuple<thrust::THRUST_300001_SM_750_NS::detail::norm"
      "al_iterator<thrust::THRUST_300001_SM_750_NS::device_ptr<float> > > >::policy1000, long, sq, thru"
      "st::THRUST_300001_SM_750_NS::detail::normal_iterator<thrust::THRUST_300001_SM_750_NS::device_ptr"
      "<float> >, float*>(long, int, sq, thrust::THRUST_300001_SM_750_NS::detail::normal_iterator<thrus"
      "t::THRUST_300001_SM_750_NS::device_ptr<float> >, cub::CUB_300001_SM_750::detail::transform::kern"
      "el_arg<float*>)" },
    { "_ZN3cub17CUB_300001_SM_7506detail10radix_sort30DeviceRadixSortHistogramKernelINS1_5radix10policy"
      "_hubIifyE10Policy1000ELNS0_9SortOrderE1EiyNS1_21identity_decomposer_tEEEvPT2_PKT1_SA_iiT3_",
      "void cub::CUB_300001_SM_750::detail::radix_sort::DeviceRadixSortHistogramKernel<cub::CUB_300001_"
      "SM_750::detail::radix::policy_hub<int, float, unsigned long long>::Policy1000, (cub::CUB_300001_"
      "SM_750::SortOrder)1, int, unsigned long long, cub::CUB_300001_SM_750::detail::identity_decompose"
      "r_t>(unsigned long long*, int const*, unsigned long long, int, int, cub::CUB_300001_SM_750::deta"
      "il::identity_decomposer_t)" },
    { "_ZL1kPi", "k(int*)" },
};

START_TEST(test_demangled)
{
    char out[2048];
    ck_assert_msg(ptx_demangle(demangled[_i].mangled, out, sizeof out), "%s: not demangled", demangled[_i].mangled);
    ck_assert_str_eq(out, demangled[_i].display);
}
END_TEST

/* Not mangled, or outside the subset (c++filt prints the second column for these; Loom keeps
 * the mangled name): a clone suffix, function, array and member-pointer types, a const member
 * function, an expression argument, decltype, a local name, vector types, a pack expansion of
 * no pack, a float literal, a truncated or empty name, and names with trailing garbage. */
static const char *const kept[] = {
    "saxpy", "", "_Z", "_Z1", "_Z0v", "__Z1fi", "_Z3fooi.isra.0", "_Z1fFviE", "_Z1fA10_i", "_Z1fM1AFivE",
    "_Z1fPFviE", "_ZNK1A1fEv", "_Z1fIXadL_Z1gvEEEvv", "_Z1fIiEDTcl1gT_EES0_", "_ZZ1fvE1x", "_Z1fU8__vectori",
    "_Z1fDv4_f", "_Z1fIiEvDpT_", "_Z1fILf3f800000EEvv", "_Z1fS_", "_Z1fT_", "_Z1fiE", "_Z1fPKKc", "_ZN1A1BEv.x",
    "_Z6kernelPi$", "$__internal_1_$__cuda_sm20_div_rn_f64_full",
};

START_TEST(test_kept)
{
    char out[256];
    ck_assert_msg(!ptx_demangle(kept[_i], out, sizeof out), "%s: demangled to %s", kept[_i], out);
    ck_assert_str_eq(out, kept[_i]);
}
END_TEST

/* A display name that does not fit: the mangled name, truncated to fit. */
START_TEST(test_small_buffer)
{
    char out[12];
    ck_assert(!ptx_demangle("_Z11check_smallPKii", out, sizeof out));
    ck_assert_str_eq(out, "_Z11check_s");
    ck_assert(ptx_demangle("_Z1fPi", out, sizeof out));
    ck_assert_str_eq(out, "f(int*)");
    ck_assert(!ptx_demangle("_Z1fPi", out, 7));   /* "f(int*)" needs 8 bytes */
    ck_assert_str_eq(out, "_Z1fPi");
    ck_assert(!ptx_demangle(NULL, out, sizeof out));
    ck_assert_str_eq(out, "");
    ck_assert(!ptx_demangle("_Z1fPi", out, 0));
}
END_TEST

START_TEST(test_public)
{
    char buf[64];
    ck_assert_str_eq(loom_demangle("_Z6kernelPi", buf, sizeof buf), "kernel(int*)");
    ck_assert_str_eq(loom_demangle("saxpy", buf, sizeof buf), "saxpy");
}
END_TEST

/* Every prefix of the names above and single-character mutations of them: the result is
 * either the input unchanged (false) or a display name that differs from it (true). Under
 * the sanitizer builds this also checks that nothing is read or written out of bounds. */
START_TEST(test_mutations)
{
    static const char alphabet[] = "_0123456789ESTIJLNKPRODpvijlm";
    const char *name = demangled[_i].mangled;
    size_t len = strlen(name);
    char in[1024], out[2048];
    ck_assert(len < sizeof in - 2);
    for (size_t k = 0; k <= len; k++) {
        memcpy(in, name, k);
        in[k] = 0;
        if (!ptx_demangle(in, out, sizeof out))
            ck_assert_str_eq(out, in);
        for (size_t a = 0; a < sizeof alphabet - 1; a++) {
            memcpy(in, name, len + 1);
            if (k < len)
                in[k] = alphabet[a];        /* replaced */
            else
                in[k] = alphabet[a], in[k + 1] = 0;   /* appended */
            if (ptx_demangle(in, out, sizeof out))
                ck_assert_msg(strcmp(out, in) != 0, "%s -> %s", in, out);
            else
                ck_assert_str_eq(out, in);
        }
    }
}
END_TEST

/* Hostile names that nest deeply (a million pointer levels, 100,000 nested template
 * arguments or packs) or that print exponentially through substitutions: the demangler
 * recurses at most DM_MAX_DEPTH levels and prints into the caller's buffer only, so each
 * comes back (kept, or a display name) without running out of stack. */
static const struct { const char *prefix, *unit, *suffix; size_t count; } hostile[] = {
    { "_Z1f", "P", "i", 1000000 },
    { "_Z1f", "PKR", "i", 300000 },
    { "_Z1fI", "1aI", "iE", 100000 },
    { "_Z1fI", "J", "E", 100000 },
    { "_Z1f", "N1a", "E", 100000 },
    { "_Z1fI1aE", "S_IS_S_E", "v", 1000 },
    { "_Z1f", "1aIS_S_E", "", 1000 },
};

START_TEST(test_hostile)
{
    size_t plen = strlen(hostile[_i].prefix), ulen = strlen(hostile[_i].unit), slen = strlen(hostile[_i].suffix);
    size_t n = plen + ulen * hostile[_i].count + slen;
    char *in = malloc(n + 1), *p = in;
    ck_assert_ptr_nonnull(in);
    memcpy(p, hostile[_i].prefix, plen);
    p += plen;
    for (size_t k = 0; k < hostile[_i].count; k++, p += ulen)
        memcpy(p, hostile[_i].unit, ulen);
    memcpy(p, hostile[_i].suffix, slen + 1);
    char out[4096];
    if (ptx_demangle(in, out, sizeof out))
        ck_assert(strlen(out) < sizeof out);
    else
        ck_assert(strncmp(out, in, sizeof out - 1) == 0);
    free(in);
}
END_TEST

Suite *ptx_demangle_suite(void);

Suite *ptx_demangle_suite(void)
{
    Suite *s = suite_create("ptx_demangle");
    TCase *tc = tcase_create("names");
    tcase_add_loop_test(tc, test_demangled, 0, (int)(sizeof demangled / sizeof demangled[0]));
    tcase_add_loop_test(tc, test_kept, 0, (int)(sizeof kept / sizeof kept[0]));
    tcase_add_test(tc, test_small_buffer);
    tcase_add_test(tc, test_public);
    suite_add_tcase(s, tc);
    tc = tcase_create("robustness");
    tcase_add_loop_test(tc, test_mutations, 0, (int)(sizeof demangled / sizeof demangled[0]));
    tcase_add_loop_test(tc, test_hostile, 0, (int)(sizeof hostile / sizeof hostile[0]));
    suite_add_tcase(s, tc);
    return s;
}
