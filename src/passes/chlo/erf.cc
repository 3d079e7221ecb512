// erf, erfc and erf_inv as rational and polynomial approximations, as XLA and StableHLO's
// chlo legalization build them:
// - f64 erf/erfc: Cephes (ndtr.c): erf(x) = x T(x^2)/U(x^2) for |x| < 1; above,
//   erfc(x) = exp(-x^2) P(|x|)/Q(|x|) (|x| < 8) or R(|x|)/S(|x|), and erf = 1 - erfc.
// - f32 erf: x * alpha(x^2) / beta(x^2) on x clamped to +-3.7439 (erf there rounds to +-1);
//   f32 erfc: Cephes' single-precision erfcf (exp(-x^2)/|x| * P(1/x^2) or R(1/x^2)) above 1,
//   1 - x T(x^2) below.
// - erf_inv: Giles' polynomials in w = -log(1 - x^2) (single precision: two ranges; double:
//   three), erf_inv(+-1) = +-inf.
// Two departures from XLA, for accuracy: exp(-x^2) in erfc is computed from an exact split of
// x (XLA's exp(-x*x) loses 2x^2 ulps in the tail, and it flushes results below exp(-maxlog)
// to 0), and w near +-1 comes from (1-|x|)(1+|x|) rather than from a rounded x^2.
// Narrower floats compute in f32.
#include <limits>

#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// exp(-x^2) without the error of rounding x^2 (which grows as 2x^2 ulps): x = hi + lo with hi
// holding few enough bits that hi^2 is exact, exp(-x^2) = exp(-hi^2) exp(-(2 hi lo + lo^2))
// (Cephes' expx2 idea). `scale` = 2^k puts k fraction bits in hi: |x| < 32 keeps hi^2 exact
// with k = 7 (f32) or 21 (f64). Beyond, exp(-x^2) is 0 either way.
Value* ExpNegSquare(const Math& m, Value* x, double scale) {
  Value* ax = m.Abs(x);
  Value* hi = m.Div(m.Floor(m.Add(m.Mul(ax, scale), 0.5)), scale);
  Value* lo = m.Sub(ax, hi);
  Value* e = m.Mul(m.Exp(m.Neg(m.Mul(hi, hi))), m.Exp(m.Neg(m.Add(m.Mul(m.Mul(2.0, hi), lo), m.Mul(lo, lo)))));
  // Beyond 32 the result underflows; this also keeps inf (and x * scale overflowing) out.
  return m.Select(m.Lt(ax, 32.0), e, m.C(x, 0));
}
constexpr double kSplitF64 = 2097152.0;  // 2^21
constexpr double kSplitF32 = 128.0;      // 2^7

// --- f64 (Cephes ndtr.c) ---
constexpr double kErfT[] = {9.60497373987051638749E0, 9.00260197203842689217E1, 2.23200534594684319226E3,
                            7.00332514112805075473E3, 5.55923013010394962768E4};
constexpr double kErfU[] = {1.0,
                            3.35617141647503099647E1,
                            5.21357949780152679795E2,
                            4.59432382970980127987E3,
                            2.26290000613890934246E4,
                            4.92673942608635921086E4};
constexpr double kErfcP[] = {2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0,
                             4.86371970985681366614E1,   1.96520832956077098242E2,  5.26445194995477358631E2,
                             9.34528527171957607540E2,   1.02755188689515710272E3,  5.57535335369399327526E2};
constexpr double kErfcQ[] = {1.0,
                             1.32281951154744992508E1,
                             8.67072140885989742329E1,
                             3.54937778887819891062E2,
                             9.75708501743205489753E2,
                             1.82390916687909736289E3,
                             2.24633760818710981792E3,
                             1.65666309194161350182E3,
                             5.57535340817727675546E2};
constexpr double kErfcR[] = {5.64189583547755073984E-1, 1.27536670759978104416E0, 5.01905042251180477414E0,
                             6.16021097993053585195E0,  7.40974269950448939160E0, 2.97886665372100240670E0};
constexpr double kErfcS[] = {1.0,
                             2.26052863220117276590E0,
                             9.39603524938001434673E0,
                             1.20489539808096656605E1,
                             1.70814450747565897222E1,
                             9.60896809063285878198E0,
                             3.36907645100081516050E0};

Value* ErfF64Small(const Math& m, Value* x) {  // |x| < 1
  Value* x2 = m.Mul(x, x);
  return m.Div(m.Mul(x, m.Polynomial(x2, kErfT)), m.Polynomial(x2, kErfU));
}

Value* ErfcF64Large(const Math& m, Value* x) {  // |x| >= 1
  Value* e = ExpNegSquare(m, x, kSplitF64);
  Value* ax = m.Abs(x);
  Value* pq = m.Div(m.Mul(e, m.Polynomial(ax, kErfcP)), m.Polynomial(ax, kErfcQ));
  Value* rs = m.Div(m.Mul(e, m.Polynomial(ax, kErfcR)), m.Polynomial(ax, kErfcS));
  Value* y = m.Select(m.Lt(ax, 8.0), pq, rs);
  y = m.Select(m.Ge(ax, 32.0), m.C(x, 0), y);  // underflowed (and inf, where P/Q is inf/inf)
  return m.Select(m.Lt(x, 0.0), m.Sub(2.0, y), y);
}

Value* ErfF64(const Math& m, Value* x) {
  return m.Select(m.Lt(m.Abs(x), 1.0), ErfF64Small(m, x), m.Sub(1.0, ErfcF64Large(m, x)));
}

Value* ErfcF64(const Math& m, Value* x) {
  return m.Select(m.Lt(m.Abs(x), 1.0), m.Sub(1.0, ErfF64Small(m, x)), ErfcF64Large(m, x));
}

// --- f32 ---
constexpr double kErfAlphaF32[] = {0.00022905065861350646, 0.0034082910107109506, 0.050955695062380861,
                                   0.18520832239976145, 1.128379143519084};
constexpr double kErfBetaF32[] = {-1.1791602954361697e-7, 0.000023547966471313185, 0.0010179625278914885,
                                  0.014070470171167667,   0.11098505178285362,     0.49746925110067538,
                                  1.0};
// erf_inv(1 - 2^-24): beyond it erf(x) rounds to +-1 in f32.
constexpr double kErfInvOneMinusHalfUlpF32 = 3.7439211627767994;

Value* ErfF32(const Math& m, Value* x) {
  Value* c = m.Min(m.Max(x, m.C(x, -kErfInvOneMinusHalfUlpF32)), m.C(x, kErfInvOneMinusHalfUlpF32));
  Value* x2 = m.Mul(c, c);
  Value* erf = m.Div(m.Mul(c, m.Polynomial(x2, kErfAlphaF32)), m.Polynomial(x2, kErfBetaF32));
  return m.Min(m.Max(erf, m.C(x, -1.0)), m.C(x, 1.0));
}

// Cephes erfcf / erff (ndtrf.c).
constexpr double kErfcPF32[] = {+2.326819970068386E-2, -1.387039388740657E-1, +3.687424674597105E-1,
                                -5.824733027278666E-1, +6.210004621745983E-1, -4.944515323274145E-1,
                                +3.404879937665872E-1, -2.741127028184656E-1, +5.638259427386472E-1};
constexpr double kErfcRF32[] = {-1.047766399936249E+1, +1.297719955372516E+1, -7.495518717768503E+0,
                                +2.921019019210786E+0, -1.015265279202700E+0, +4.218463358204948E-1,
                                -2.820767439740514E-1, +5.641895067754075E-1};
constexpr double kErfTF32[] = {+7.853861353153693E-5, -8.010193625184903E-4, +5.188327685732524E-3,
                               -2.685381193529856E-2, +1.128358514861418E-1, -3.761262582423300E-1,
                               +1.128379165726710E+0};

Value* ErfcF32Large(const Math& m, Value* x) {  // |x| >= 1
  Value* e = ExpNegSquare(m, x, kSplitF32);
  Value* ax = m.Abs(x);
  Value* q = m.Div(1.0, ax);
  Value* y = m.Mul(q, q);
  Value* p = m.Select(m.Lt(ax, 2.0), m.Polynomial(y, kErfcPF32), m.Polynomial(y, kErfcRF32));
  Value* r = m.Mul(m.Mul(e, q), p);
  return m.Select(m.Lt(x, 0.0), m.Sub(2.0, r), r);
}

Value* ErfcF32(const Math& m, Value* x) {
  Value* erf_small = m.Mul(x, m.Polynomial(m.Mul(x, x), kErfTF32));
  return m.Select(m.Lt(m.Abs(x), 1.0), m.Sub(1.0, erf_small), ErfcF32Large(m, x));
}

// --- erf_inv (Giles, "Approximating the erfinv function") ---
constexpr double kErfInvF32Below5[] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
                                       -4.39150654e-06, 0.00021858087,  -0.00125372503,
                                       -0.00417768164,  0.246640727,    1.50140941};
constexpr double kErfInvF32Above5[] = {-0.000200214257, 0.000100950558, 0.00134934322,
                                       -0.00367342844,  0.00573950773,  -0.0076224613,
                                       0.00943887047,   1.00167406,     2.83297682};

// w = -log(1 - x^2): log1p(-x^2) below 1/2; above, log((1-|x|)(1+|x|)), where 1 - |x| is
// exact and x^2 would have rounded away the digits that 1 - x^2 keeps.
Value* ErfInvW(const Math& m, Value* x) {
  Value* ax = m.Abs(x);
  Value* near_zero = m.Neg(m.Log1p(m.Mul(x, m.Neg(x))));
  Value* near_one = m.Neg(m.Log(m.Mul(m.Sub(1.0, ax), m.Add(1.0, ax))));
  return m.Select(m.Lt(ax, 0.5), near_zero, near_one);
}

Value* ErfInvF32(const Math& m, Value* x) {
  Value* w = ErfInvW(m, x);
  Value* lt5 = m.Lt(w, 5.0);
  w = m.Select(lt5, m.Sub(w, 2.5), m.Sub(m.Sqrt(w), 3.0));
  Value* p = nullptr;
  for (size_t i = 0; i < std::size(kErfInvF32Below5); ++i) {
    Value* c = m.Select(lt5, m.C(x, kErfInvF32Below5[i]), m.C(x, kErfInvF32Above5[i]));
    p = p == nullptr ? c : m.Add(c, m.Mul(p, w));
  }
  return m.Select(m.Eq(m.Abs(x), 1.0), m.Mul(x, m.C(x, kInf)), m.Mul(p, x));
}

constexpr double kErfInvF64Below6_25[] = {
    -3.6444120640178196996e-21, -1.685059138182016589e-19,  1.2858480715256400167e-18, 1.115787767802518096e-17,
    -1.333171662854620906e-16,  2.0972767875968561637e-17,  6.6376381343583238325e-15, -4.0545662729752068639e-14,
    -8.1519341976054721522e-14, 2.6335093153082322977e-12,  -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09,   -4.1126339803469836976e-09, -2.9070369957882005086e-08, 4.2347877827932403518e-07,
    -1.3654692000834678645e-06, -1.3882523362786468719e-05, 0.0001867342080340571352,  -0.00074070253416626697512,
    -0.0060336708714301490533,  0.24015818242558961693,     1.6536545626831027356};
constexpr double kErfInvF64Below16[] = {
    2.2137376921775787049e-09,  9.0756561938885390979e-08,  -2.7517406297064545428e-07, 1.8239629214389227755e-08,
    1.5027403968909827627e-06,  -4.013867526981545969e-06,  2.9234449089955446044e-06,  1.2475304481671778723e-05,
    -4.7318229009055733981e-05, 6.8284851459573175448e-05,  2.4031110387097893999e-05,  -0.0003550375203628474796,
    0.00095328937973738049703,  -0.0016882755560235047313,  0.0024914420961078508066,  -0.0037512085075692412107,
    0.005370914553590063617,    1.0052589676941592334,      3.0838856104922207635};
constexpr double kErfInvF64Above16[] = {
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,  -3.7894654401267369937e-09,
    7.6157012080783393804e-09,  -1.4960026627149240478e-08, 2.9147953450901080826e-08,  -6.7711997758452339498e-08,
    2.2900482228026654717e-07,  -9.9298272942317002539e-07, 4.5260625972231537039e-06,  -1.9681778105531670567e-05,
    7.5995277030017761139e-05,  -0.00021503011930044477347, -0.00013871931833623122026, 1.0103004648645343977,
    4.8499064014085844221};

// Three polynomials of different degrees evaluated as one Horner chain of selects, aligned at
// their leading coefficients (as XLA does): a range's chain stops when its coefficients end.
Value* ErfInvF64(const Math& m, Value* x) {
  Value* w = ErfInvW(m, x);
  Value* lt625 = m.Lt(w, 6.25);
  Value* lt16 = m.Lt(w, 16.0);
  auto coefficient = [&](size_t i) {
    Value* c = m.C(x, kErfInvF64Below6_25[i]);
    if (i < std::size(kErfInvF64Below16)) c = m.Select(lt625, c, m.C(x, kErfInvF64Below16[i]));
    if (i < std::size(kErfInvF64Above16)) c = m.Select(lt16, c, m.C(x, kErfInvF64Above16[i]));
    return c;
  };
  Value* sqrt_w = m.Sqrt(w);
  w = m.Select(lt625, m.Sub(w, 3.125), m.Sub(sqrt_w, m.Select(lt16, m.C(x, 3.25), m.C(x, 5.0))));
  Value* p = coefficient(0);
  for (size_t i = 1; i < std::size(kErfInvF64Above16); ++i) p = m.Add(coefficient(i), m.Mul(p, w));
  for (size_t i = std::size(kErfInvF64Above16); i < std::size(kErfInvF64Below16); ++i) {
    p = m.Select(lt16, m.Add(coefficient(i), m.Mul(p, w)), p);
  }
  for (size_t i = std::size(kErfInvF64Below16); i < std::size(kErfInvF64Below6_25); ++i) {
    p = m.Select(lt625, m.Add(coefficient(i), m.Mul(p, w)), p);
  }
  return m.Select(m.Eq(m.Abs(x), 1.0), m.Mul(x, m.C(x, kInf)), m.Mul(p, x));
}

template <Value* (*kF64)(const Math&, Value*), Value* (*kF32)(const Math&, Value*)>
Values Unary(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* x = op.operand(0);
  if (IsF64(x)) return std::vector<Value*>{kF64(m, x)};
  return std::vector<Value*>{WithF32Upcast(b, {x}, [&](std::vector<Value*> a) { return kF32(m, a[0]); })};
}

}  // namespace

void AddErfRewrites(RewriteTable& t) {
  t[OpCode::kChloErf] = Unary<ErfF64, ErfF32>;
  t[OpCode::kChloErfc] = Unary<ErfcF64, ErfcF32>;
  t[OpCode::kChloErfInv] = Unary<ErfInvF64, ErfInvF32>;
}

}  // namespace vkhlo::passes::chlo
