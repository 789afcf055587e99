/* erf and erfc computed in float (kernelkit's builtin library computes them in double); OpenCL C
 * 3.0 s7.4 limit 16 ulp each. erf on |x| < 1/2: its Taylor series 2/sqrt(pi) sum (-1)^n x^(2n+1) /
 * (n! (2n+1)) to n = 8; erfc(x) for x >= 1/2: exp(-x^2) g(x) with x^2 as a float pair and g(x) =
 * erfc(x) exp(x^2) a degree-8 polynomial in u = x - c on each half-unit interval [c - 1/4, c + 1/4)
 * of [1/2, 10.5) (kkv_erfc_g: least-squares fits of g relative to itself on 400 Chebyshev points
 * per interval, computed with numpy from Python's math.erfc, coefficients rounded to float: below
 * 2.1 ulp of g evaluated in float); erf = 1 - erfc there, erfc = 1 - erf below 1/2 and 2 - erfc(-x)
 * for negative x. Follows float_math.cl in one source (its kkv_ helpers). */

__constant float kkv_erfc_g[20][9] = {
  0x1.038d54p-1f, -0x1.78cdd6p-2f, 0x1.d90094p-3f, -0x1.09e78cp-3f, 0x1.1192ecp-4f, -0x1.05404ap-5f, 0x1.d43806p-7f, -0x1.95547ap-8f, 0x1.43d76ap-9f,
  0x1.78a692p-2f, -0x1.abaacep-3f, 0x1.b56f46p-4f, -0x1.9b6364p-5f, 0x1.68a256p-6f, -0x1.298d1ep-7f, 0x1.d1b338p-9f, -0x1.619af4p-10f, 0x1.f6d9fcp-12f,
  0x1.23cfc2p-2f, -0x1.0c3d54p-3f, 0x1.c8d0cep-5f, -0x1.6cb534p-6f, 0x1.13648ap-7f, -0x1.8bef8ep-9f, 0x1.106a1ep-10f, -0x1.6d3c06p-12f, 0x1.cfe63ep-14f,
  0x1.d94446p-3f, -0x1.6a70d2p-4f, 0x1.061568p-5f, -0x1.6883fcp-7f, 0x1.da5954p-9f, -0x1.2bcebp-10f, 0x1.6d757ap-12f, -0x1.b3ae14p-14f, 0x1.f09f8ap-16f,
  0x1.8c9eb6p-3f, -0x1.030578p-4f, 0x1.43b98cp-6f, -0x1.84e9acp-8f, 0x1.c2c73p-10f, -0x1.f99a42p-12f, 0x1.131ab2p-13f, -0x1.25bcdcp-15f, 0x1.2e1d24p-17f,
  0x1.54a7ap-3f, -0x1.82a852p-5f, 0x1.a7eddcp-7f, -0x1.c24b4ap-9f, 0x1.d08586p-11f, -0x1.d25c42p-13f, 0x1.c881bap-15f, -0x1.b7a84cp-17f, 0x1.9a50aep-19f,
  0x1.2a2af2p-3f, -0x1.2aa65p-5f, 0x1.22f066p-7f, -0x1.1434aep-9f, 0x1.fff032p-12f, -0x1.cfcc3ap-14f, 0x1.9b4ffep-16f, -0x1.67b7c6p-18f, 0x1.32545ap-20f,
  0x1.08e62cp-3f, -0x1.da3954p-6f, 0x1.9ef716p-8f, -0x1.637322p-10f, 0x1.2a661p-12f, -0x1.eb879ep-15f, 0x1.8d8df6p-17f, -0x1.3db532p-19f, 0x1.f03382p-22f,
  0x1.dc603ap-4f, -0x1.81149cp-6f, 0x1.317c14p-8f, -0x1.dc1af8p-11f, 0x1.6cc10cp-13f, -0x1.12f0f2p-15f, 0x1.981856p-18f, -0x1.2bbb3cp-20f, 0x1.afbd7p-23f,
  0x1.b096fap-4f, -0x1.3e981cp-6f, 0x1.cdeae2p-9f, -0x1.49d492p-11f, 0x1.d03e1ap-14f, -0x1.423074p-16f, 0x1.b93ee8p-19f, -0x1.2b6c46p-21f, 0x1.8f9108p-24f,
  0x1.8c1404p-4f, -0x1.0bc46cp-6f, 0x1.653504p-9f, -0x1.d662fep-12f, 0x1.31dddcp-14f, -0x1.89007ep-17f, 0x1.f318d6p-20f, -0x1.3a680ap-22f, 0x1.873f0cp-25f,
  0x1.6d2f82p-4f, -0x1.c82c14p-7f, 0x1.19a244p-9f, -0x1.57e0acp-12f, 0x1.9f57d8p-15f, -0x1.f0671cp-18f, 0x1.259fcp-20f, -0x1.58f0dap-23f, 0x1.8fc11p-26f,
  0x1.52b80ep-4f, -0x1.8914e8p-7f, 0x1.c39a4ap-10f, -0x1.00e4e4p-12f, 0x1.21808cp-15f, -0x1.433dfap-18f, 0x1.65af3p-21f, -0x1.894cc6p-24f, 0x1.a66c54p-27f,
  0x1.3bcc5ap-4f, -0x1.5621e4p-7f, 0x1.6f68a6p-10f, -0x1.872cdcp-13f, 0x1.9dp-16f, -0x1.b07c0ap-19f, 0x1.c14accp-22f, -0x1.d04058p-25f, 0x1.d3778ep-28f,
  0x1.27c2b4p-4f, -0x1.2c6aecp-7f, 0x1.2ec814p-10f, -0x1.2ed984p-13f, 0x1.2cab8p-16f, -0x1.285632p-19f, 0x1.21fbcap-22f, -0x1.1a74aap-25f, 0x1.11b412p-28f,
  0x1.1618fcp-4f, -0x1.09d8bp-7f, 0x1.f8c382p-11f, -0x1.dbf548p-14f, 0x1.bdd1fcp-17f, -0x1.9edf8ep-20f, 0x1.7f982ep-23f, -0x1.61104p-26f, 0x1.4907c8p-29f,
  0x1.0669c6p-4f, -0x1.d9c4eep-8f, 0x1.a909f2p-11f, -0x1.7b0226p-14f, 0x1.4ff2fcp-17f, -0x1.280976p-20f, 0x1.0362d4p-23f, -0x1.c541a6p-27f, 0x1.7f53dep-30f,
  0x1.f0c9d4p-5f, -0x1.a8c626p-8f, 0x1.692e54p-11f, -0x1.316dfep-14f, 0x1.00e4f2p-17f, -0x1.adda8ap-21f, 0x1.65c21ep-24f, -0x1.28cbcep-27f, 0x1.f8f8b6p-31f,
  0x1.d7947ep-5f, -0x1.7ef85ep-8f, 0x1.357284p-11f, -0x1.f19a4p-15f, 0x1.8e20fap-18f, -0x1.3d01b4p-21f, 0x1.f64cb6p-25f, -0x1.8d79c8p-28f, 0x1.866b62p-31f,
  0x1.c0cb9cp-5f, -0x1.5b059ep-8f, 0x1.0b1a42p-11f, -0x1.99532cp-15f, 0x1.383e44p-18f, -0x1.da48a4p-22f, 0x1.667f68p-25f, -0x1.0dddf8p-28f, 0x1.1feadp-31f
};

/* erfc(x) for 1/2 <= x < 10.5 */
KKV float kkv_erfc_tail(float x) {
  int i = (int)((x - 0.5f) * 2.0f);
  float u = x - (0.75f + 0.5f * (float)i);
  float g = kkv_erfc_g[i][8];
  for (int k = 7; k >= 0; k--) g = fma(g, u, kkv_erfc_g[i][k]);
  float h = x * x;
  float l = fma(x, x, -h);
  return kkv_exp_pair(-h, -l, 0) * g;
}

/* erf(x) for |x| < 1/2 */
KKV float kkv_erf_small(float x) {
  float z = x * x;
  float p = 0x1.b9e6cap-20f;                 /* 2/sqrt(pi) (-1)^n / (n! (2n+1)), n = 8 .. 1 */
  p = fma(p, z, -0x1.f4d25cp-17f);
  p = fma(p, z, 0x1.f9a326p-14f);
  p = fma(p, z, -0x1.c02db4p-11f);
  p = fma(p, z, 0x1.565bcep-8f);
  p = fma(p, z, -0x1.b82ce4p-6f);
  p = fma(p, z, 0x1.ce2f22p-4f);
  p = fma(p, z, -0x1.812746p-2f);
  return fma(x * z, p, fma(x, 0x1.20dd76p+0f, x * -0x1.f7ac92p-25f));   /* 2/sqrt(pi) as a pair */
}

OVL float kkv_erf(float x) {
  float ax = fabs(x);
  if (x != x) return x;
  if (ax < 0.5f) return kkv_erf_small(x);
  float r = ax >= 4.0f ? 1.0f : 1.0f - kkv_erfc_tail(ax);
  return copysign(r, x);
}

OVL float kkv_erfc(float x) {
  float ax = fabs(x);
  if (x != x) return x;
  if (ax < 0.5f) return 1.0f - kkv_erf_small(x);
  float t = ax >= 10.5f ? 0.0f : kkv_erfc_tail(ax);
  return x < 0.0f ? 2.0f - t : t;
}

KKV_UNARY_VECTORS(erf)
KKV_UNARY_VECTORS(erfc)
