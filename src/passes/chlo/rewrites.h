// The chlo decompositions, one file per concept; chlo_decompose.cc drives them.
//
// A rewrite builds, at the builder's insertion point (just before `op`), StableHLO ops that
// compute `op`'s results, and returns one value per result (of the result's type). It reports
// a program it cannot decompose through the builder (`b.Fail`) or its returned status.
#pragma once

#include <unordered_map>
#include <vector>

#include "passes/chlo/math.h"

namespace vkhlo::passes::chlo {

using Rewrite = StatusOr<std::vector<ir::Value*>> (*)(OpBuilder& b, const ir::Operation& op);
using RewriteTable = std::unordered_map<ir::OpCode, Rewrite>;

void AddBasicRewrites(RewriteTable& table);          // basic_ops.cc: conj, square, is_*inf, mulhi, next_after, constants, tan
void AddBroadcastRewrites(RewriteTable& table);      // broadcast_ops.cc: chlo.broadcast_*
void AddErfRewrites(RewriteTable& table);            // erf.cc: erf, erfc, erf_inv
void AddGammaRewrites(RewriteTable& table);          // gamma.cc: lgamma, digamma, zeta, polygamma
void AddBesselRewrites(RewriteTable& table);         // bessel.cc: bessel_i1e
void AddInverseTrigRewrites(RewriteTable& table);    // inverse_trig.cc: asin, acos, atan, asinh, acosh, atanh
void AddHyperbolicRewrites(RewriteTable& table);     // hyperbolic.cc: sinh, cosh
void AddTopKRewrites(RewriteTable& table);           // top_k.cc
void AddScanRewrites(RewriteTable& table);           // scan.cc
void AddRaggedDotRewrites(RewriteTable& table);      // ragged_dot.cc

// A status naming the op and its location, for programs a rewrite cannot handle.
Status RewriteError(const ir::Operation& op, std::string_view message);

}  // namespace vkhlo::passes::chlo
