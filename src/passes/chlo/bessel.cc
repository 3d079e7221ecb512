// bessel_i1e(x) = exp(-|x|) I1(x), as Cephes (i1.c / i1f.c) and XLA compute it: Chebyshev
// series in |x|/2 - 2 up to |x| = 8 (times |x|), in 32/|x| - 2 above (over sqrt|x|), with the
// sign of x. f64 uses Cephes' double coefficients (29 and 25 terms), f32 the single-precision
// tails of them (17 and 7); narrower floats compute in f32.
#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

constexpr double kI1eA[] = {
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16, -1.10559694773538630805E-15,
    7.60068429473540693410E-15, -5.04218550472791168711E-14, 3.22379336594557470981E-13, -1.98397439776494371520E-12,
    1.17361862988909016308E-11, -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9,  -4.44505912879632808065E-8,  2.00329475355213526229E-7,  -8.56872026469545474066E-7,
    3.47025130813767847674E-6,  -1.32731636560394358279E-5,  4.78156510755005422638E-5,  -1.61760815825896745588E-4,
    5.12285956168575772895E-4,  -1.51357245063125314899E-3,  4.15642294431288815669E-3,  -1.05640848946261981558E-2,
    2.47264490306265168283E-2,  -5.29459812080949914269E-2,  1.02643658689847095384E-1,  -1.76416518357834055153E-1,
    2.52587186443633654823E-1};
constexpr double kI1eB[] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17, -3.20952592199342395980E-17,
    2.96262899764595013876E-16,  3.30820231092092828324E-16,  -1.88035477551078244854E-15, -3.81440307243700780478E-15,
    1.04202769841288027642E-14,  4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,  3.25260358301548823856E-11,
    -1.89749581235054123450E-11, -5.58974346219658380687E-10, -3.83538038596423702205E-9,  -2.63146884688951950684E-8,
    -2.51223623787020892529E-7,  -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};
// The f32 series are the last 17 and 7 terms.
constexpr size_t kF32TermsA = 17;
constexpr size_t kF32TermsB = 7;

Value* BesselI1e(const Math& m, Value* x) {
  const bool f64 = IsF64(x);
  std::span<const double> a(kI1eA);
  std::span<const double> b(kI1eB);
  if (!f64) {
    a = a.subspan(a.size() - kF32TermsA);
    b = b.subspan(b.size() - kF32TermsB);
  }
  Value* z = m.Abs(x);
  Value* small = m.Mul(z, m.Chebyshev(m.Sub(m.Mul(0.5, z), 2.0), a));
  Value* large = m.Div(m.Chebyshev(m.Sub(m.Div(32.0, z), 2.0), b), m.Sqrt(z));
  return m.Mul(m.Sign(x), m.Select(m.Le(z, 8.0), small, large));
}

Values BesselRewrite(OpBuilder& b, const Operation& op) {
  Math m(b);
  return std::vector<Value*>{
      WithF32Upcast(b, {op.operand(0)}, [&](std::vector<Value*> args) { return BesselI1e(m, args[0]); })};
}

}  // namespace

void AddBesselRewrites(RewriteTable& t) { t[OpCode::kChloBesselI1e] = BesselRewrite; }

}  // namespace vkhlo::passes::chlo
