// Configure-time probe (cmake/HostNumerics.cmake): exits 0 when the compiler keeps every
// double -> float -> double rounding below, 1 when it drops one. GCC 12.2 at -O2/-O3 drops them
// when its SLP vectorizer packs two such round trips into one vector (each function below is
// compiled to a bare `ret` or a plain copy); tests/support/host_numerics_test.cc checks the
// same shapes in the project's own build.
#include <complex>

// Each function is compiled on its own, as if its callers were in another file.
#if defined(__clang__)
#define PROBE_OPAQUE [[gnu::noinline]]
#else
#define PROBE_OPAQUE [[gnu::noinline, gnu::noipa]]
#endif

struct Pair {
  double re, im;
};

// Two adjacent doubles rounded in place (tests/passes/chlo_decompose_test.cc rounds its c64
// inputs this way).
PROBE_OPAQUE void RoundPairInPlace(double* z) {
  z[0] = static_cast<float>(z[0]);
  z[1] = static_cast<float>(z[1]);
}

// A complex<double> rounded to complex<float> precision and widened back.
PROBE_OPAQUE std::complex<double> RoundComplex(std::complex<double> z) {
  return std::complex<double>(std::complex<float>(z));
}

// A pair passed and returned by value.
PROBE_OPAQUE Pair RoundPair(Pair p) { return {static_cast<float>(p.re), static_cast<float>(p.im)}; }

int main() {
  volatile double a = 1.001, b = 0.999;  // neither is a float
  volatile float fa = static_cast<float>(a), fb = static_cast<float>(b);
  const double ra = fa, rb = fb;
  double z[2] = {a, b};
  RoundPairInPlace(z);
  const std::complex<double> c = RoundComplex({a, b});
  const Pair p = RoundPair({a, b});
  const bool kept = z[0] == ra && z[1] == rb && c.real() == ra && c.imag() == rb && p.re == ra && p.im == rb;
  return kept ? 0 : 1;
}
