// stablehlo.reduce as a device kernel: the passes of ChooseReducePlan (reduce_plan.h) emitted as
// GLSL through the elemental emitter. Elements come from the reduce's operands (which may be
// fused producers, computed here at each element's index) or, in pass 2, from the partials in
// scratch; results go to the outputs (packed per workgroup/invocation, never shared words
// between invocations) or, in pass 1, to scratch (one or more whole words per partial).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "codegen/device_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/reduction/dispatch_builder.h"
#include "codegen/reduction/reduce_plan.h"
#include "codegen/reduction/reducer.h"
#include "codegen/reduction/result_writer.h"
#include "codegen/reduction/row_kernel.h"
#include "codegen/reduction/vector_inputs.h"
#include "codegen/texel_reads.h"
#include "codegen/reduction/reduction_kernels.h"

namespace vkhlo::codegen::reduction {
namespace {

int ScratchWords(const TypeFacts& f) { return std::max(1, f.storage_bits / 32); }

// A fusion input read 4 words at a time (vector_inputs.h): through an aliased `uvec4[]` view of
// its storage buffer, or through an rgba32ui texel buffer of it.
struct VectorInput {
  const ir::Value* value = nullptr;
  std::string view;
  bool texel = false;
  // GLSL uvec4 at `index` (in 16-byte units).
  std::string Load(const std::string& index) const {
    return texel ? fmt::format("imageLoad({}, int({}))", view, index) : fmt::format("{}[{}]", view, index);
  }
};

// Reads input `v` through a texel view (texel_reads.h).
bool ReadsThroughTexels(const TargetInfo& target, const ir::Value& v) {
  return PrefersTexelReads(target, static_cast<uint64_t>(v.type().num_elements()));
}

// Whether the fused producers of the reduce's operands (what each lane computes per element)
// do more than cheap arithmetic and data movement: a divide, a transcendental or anything else
// that calls a GLSL library helper. Vector loads then fold their lanes in a loop, so that the
// helper is emitted once rather than once per lane (32 on CPU devices; issue 24).
bool ProducersAreBig(const Fusion& fusion, const ir::Operation& reduce, size_t operands) {
  static const std::set<ir::OpCode> kCheap = {
      ir::OpCode::kAdd,       ir::OpCode::kSubtract,   ir::OpCode::kMultiply,       ir::OpCode::kNegate,
      ir::OpCode::kAbs,       ir::OpCode::kMaximum,    ir::OpCode::kMinimum,        ir::OpCode::kCompare,
      ir::OpCode::kSelect,    ir::OpCode::kClamp,      ir::OpCode::kConvert,        ir::OpCode::kBitcastConvert,
      ir::OpCode::kAnd,       ir::OpCode::kOr,         ir::OpCode::kXor,            ir::OpCode::kNot,
      ir::OpCode::kBroadcastInDim, ir::OpCode::kReshape, ir::OpCode::kTranspose,    ir::OpCode::kSlice,
      ir::OpCode::kConcatenate, ir::OpCode::kPad,      ir::OpCode::kIota,           ir::OpCode::kConstant};
  const std::set<const ir::Operation*> fused(fusion.ops.begin(), fusion.ops.end());
  std::set<const ir::Operation*> seen;
  std::vector<const ir::Value*> stack;
  for (size_t k = 0; k < operands; ++k) stack.push_back(reduce.operand(k));
  while (!stack.empty()) {
    const ir::Operation* def = stack.back()->defining_op();
    stack.pop_back();
    if (def == nullptr || def == &reduce || !fused.count(def) || !seen.insert(def).second) continue;
    if (!kCheap.count(def->code())) return true;
    for (const ir::Value* operand : def->operands()) stack.push_back(operand);
  }
  return false;
}

struct Context {
  const Fusion& fusion;
  const ir::Operation& op;
  const Reducer& reducer;
  const ReduceGeometry& geometry;
  const TargetInfo& target;
  const KernelOptions& options;
  std::vector<TypeFacts> facts;
  std::vector<bool> vector_inputs;  // per fusion input (vector_inputs.h)
  std::vector<bool> reduced_dims;   // per input dimension
  // The input has more than 2^32 - 1 elements (a fused value never stored): its elements are
  // reached through coordinates from (row, element of row), each below 2^32 (WideIndex).
  bool wide = false;
};

class PassWriter {
 public:
  PassWriter(const Context& c, const ReducePass& pass, bool from_scratch, bool to_scratch)
      : c_(c), pass_(pass), from_scratch_(from_scratch), to_scratch_(to_scratch), b_(c.target, c.options) {}

  StatusOr<KernelDispatch> Write(const std::string& name, const std::string& summary) {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    b_.BindInputs(c_.fusion.inputs);
    if (Vectorized()) {
      int texels = 0;
      for (size_t i = 0; i < c_.fusion.inputs.size(); ++i) {
        if (!c_.vector_inputs[i]) continue;
        const ir::Value* in = c_.fusion.inputs[i];
        if (texels < kMaxTexelViews && ReadsThroughTexels(c_.target, *in)) {
          ++texels;
          vectors_.push_back({in, b_.TexelView(in), true});
        } else {
          vectors_.push_back({in, b_.VectorView(b_.BindingOf(in)), false});
        }
      }
      loop_lanes_ = ProducersAreBig(c_.fusion, c_.op, n);
    }
    for (size_t k = 0; k < n; ++k) {
      if (from_scratch_ || to_scratch_) scratch_.push_back(b_.Bind(KernelBuffer::Scratch(static_cast<int>(k), to_scratch_)));
    }
    if (!to_scratch_) {
      // The op's results, then fused element-wise consumers (epilogue).
      for (const ir::Value* out : c_.fusion.outputs) {
        results_.outputs.push_back(b_.Bind(KernelBuffer::Write(out)));
        results_.facts.push_back(GetTypeFacts(out->type().element_type(), c_.target));
      }
      results_.pack = pass_.mode == ReducePass::Mode::kWorkgroup && pass_.segments > 1 ? 1 : pass_.pack;
      results_.rows = pass_.rows;
    }
    VKHLO_RETURN_IF_ERROR(RequireComputeTypes(em, c_.reducer));
    if (!to_scratch_) {
      // The init values, once (they may be fused constants or read from buffers).
      for (size_t k = 0; k < n; ++k) {
        VKHLO_ASSIGN_OR_RETURN(Expr init, em.Emit(c_.op.operand(n + k), Index::Scalar()));
        VKHLO_ASSIGN_OR_RETURN(init, em.Compute(init));
        init_.push_back(init);
      }
    }
    if (pass_.mode == ReducePass::Mode::kWorkgroup) {
      VKHLO_RETURN_IF_ERROR(WriteWorkgroup());
    } else {
      VKHLO_RETURN_IF_ERROR(WriteInvocation());
    }
    if (!em.sticky_error().ok()) return em.sticky_error();
    b_.writer().Config(fmt::format("{} segment(s) of {}, {} mode{}, workgroup {}, {} -> {}", pass_.segments,
                                   pass_.segment_length,
                                   pass_.mode == ReducePass::Mode::kWorkgroup ? "workgroup" : "invocation",
                                   Vectorized() ? " (uvec4 loads)" : pass_.strided ? " (strided)" : "",
                                   pass_.workgroup_size, from_scratch_ ? "partials" : "operands",
                                   to_scratch_ ? "partials" : "results"));
    b_.writer().FusedOps(c_.fusion.ops, c_.options.source_name);
    return b_.Finish(name, summary, pass_.workgroup_size, pass_.Groups(),
                     fmt::format("reduction {}: {} rows of {}", name, pass_.rows, pass_.length));
  }

 private:
  std::string Acc(size_t k) const { return fmt::format("acc{}", k); }
  // Accumulator of lane j (vector loads).
  std::string Lane(size_t k, uint32_t j) const {
    return loop_lanes_ ? fmt::format("lacc{}[{}]", k, j) : fmt::format("acc{}_{}", k, j);
  }
  bool Vectorized() const { return pass_.vector > 1 && !from_scratch_; }

  // The elements at `address` + j for each lane j < pass_.vector (a multiple of 4, in the
  // input's linear index): vector inputs come from one uvec4 load each, other inputs from their
  // words at each element's own index. [lane][operand], compute values.
  // The reducer's operands at input element `lane_address`, computed with the vector inputs as
  // bound by the caller; the bindings are dropped whether or not emission succeeds.
  StatusOr<std::vector<Expr>> EmitLaneOperands(const std::string& lane_address) {
    ElementalEmitter& em = b_.em();
    const Index index = Index::Linear(c_.geometry.input_dims, lane_address);
    std::vector<Expr> values;
    Status status = OkStatus();
    for (size_t k = 0; k < c_.reducer.num_operands && status.ok(); ++k) {
      StatusOr<Expr> value = em.Emit(c_.op.operand(k), index);
      if (value.ok()) value = em.Compute(*value);
      if (value.ok()) {
        values.push_back(*value);
      } else {
        status = value.status();
      }
    }
    for (const VectorInput& in : vectors_) em.Unbind(in.value);
    VKHLO_RETURN_IF_ERROR(status);
    return values;
  }

  StatusOr<std::vector<std::vector<Expr>>> LoadLanes(const std::string& address) {
    ElementalEmitter& em = b_.em();
    // words[v * loads + q]: the q-th uvec4 of vector input v.
    const uint32_t loads = pass_.vector / 4;
    std::vector<std::string> words;
    const std::string at = loads > 1 ? em.Var("uint", fmt::format("({}) >> 2u", address)) : "";
    for (const VectorInput& in : vectors_) {
      for (uint32_t q = 0; q < loads; ++q) {
        words.push_back(em.Var("uvec4", in.Load(loads > 1 ? fmt::format("{} + {}u", at, q)
                                                          : fmt::format("({}) >> 2u", address))));
      }
    }
    std::vector<std::vector<Expr>> lanes;
    for (uint32_t j = 0; j < pass_.vector; ++j) {
      em.PushScope();
      for (size_t v = 0; v < vectors_.size(); ++v) {
        em.Bind(vectors_[v].value, Expr{fmt::format("{}[{}]", words[v * loads + j / 4], j % 4),
                                        vectors_[v].value->type().element_type(), true});
      }
      StatusOr<std::vector<Expr>> values = EmitLaneOperands(em.Var("uint", fmt::format("{} + {}u", address, j)));
      em.PopScope();
      VKHLO_RETURN_IF_ERROR(values.status());
      lanes.push_back(std::move(*values));
    }
    return lanes;
  }

  // Lane accumulators: lane j = fold of the elements at addresses `first` + j, then each
  // `next(var)` + j for `for (...)` header `loop` (a loop over a uint variable the caller names
  // in `loop` and whose address is `next`); every lane in order.
  Status FoldLanes(const std::string& first, const std::string& loop, const std::string& next) {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    if (loop_lanes_) {
      // The same folds, lane by lane in a loop the compiler must not unroll (lane accumulators
      // in arrays): one copy of the producers' code instead of 2 x pass_.vector.
      em.prelude().Extension("GL_EXT_control_flow_attributes");
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} lacc{}[{}];", c_.facts[k].glsl, k, pass_.vector));
      em.Open("");
      VKHLO_RETURN_IF_ERROR(FoldLaneLoop(first, /*head=*/true));
      em.Close();
      em.Open(loop);
      VKHLO_RETURN_IF_ERROR(FoldLaneLoop(em.Var("uint", next), /*head=*/false));
      em.Close();
      return OkStatus();
    }
    for (uint32_t j = 0; j < pass_.vector; ++j) {
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} {};", c_.facts[k].glsl, Lane(k, j)));
    }
    em.Open("");
    VKHLO_ASSIGN_OR_RETURN(auto head, LoadLanes(first));
    for (uint32_t j = 0; j < pass_.vector; ++j) {
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", Lane(k, j), head[j][k].code));
    }
    em.Close();
    em.Open(loop);
    VKHLO_ASSIGN_OR_RETURN(auto lanes, LoadLanes(em.Var("uint", next)));
    for (uint32_t j = 0; j < pass_.vector; ++j) {
      std::vector<std::string> accs;
      for (size_t k = 0; k < n; ++k) accs.push_back(Lane(k, j));
      VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, Named(c_.reducer, accs), lanes[j], accs));
    }
    em.Close();
    return OkStatus();
  }

  // lacc[j] = (head) or .= (not head) the elements at `address` + j, j = 0 .. pass_.vector - 1,
  // in a [[dont_unroll]] loop: the vector inputs' uvec4 words go to arrays indexed by lane.
  Status FoldLaneLoop(const std::string& address, bool head) {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    const uint32_t loads = pass_.vector / 4;
    const std::string at = em.Var("uint", fmt::format("({}) >> 2u", address));
    std::vector<std::string> arrays;
    for (const VectorInput& in : vectors_) {
      std::string words;
      for (uint32_t q = 0; q < loads; ++q) words += fmt::format("{}{}", q ? ", " : "", in.Load(fmt::format("{} + {}u", at, q)));
      arrays.push_back(em.Var(fmt::format("uvec4[{}]", loads), fmt::format("uvec4[{}]({})", loads, words)));
    }
    em.Open(fmt::format("[[dont_unroll]] for (uint j = 0u; j < {}u; ++j)", pass_.vector));
    for (size_t v = 0; v < vectors_.size(); ++v) {
      em.Bind(vectors_[v].value,
              Expr{fmt::format("{}[j >> 2u][j & 3u]", arrays[v]), vectors_[v].value->type().element_type(), true});
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> values, EmitLaneOperands(em.Var("uint", fmt::format("{} + j", address))));
    std::vector<std::string> accs;
    for (size_t k = 0; k < n; ++k) accs.push_back(fmt::format("lacc{}[j]", k));
    if (head) {
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", accs[k], values[k].code));
    } else {
      VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, Named(c_.reducer, accs), values, accs));
    }
    em.Close();
    return OkStatus();
  }

  // acc = (lane 0 . lane 1) . (lane 2 . lane 3) (for 4 lanes): a fixed tree, neighbours joined
  // 1, 2, ... apart (commutative reducers only).
  Status JoinLanes() {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    for (uint32_t h = 1; h < pass_.vector; h *= 2) {
      for (uint32_t j = 0; j + h < pass_.vector; j += 2 * h) {
        std::vector<std::string> left, right;
        for (size_t k = 0; k < n; ++k) {
          left.push_back(Lane(k, j));
          right.push_back(Lane(k, j + h));
        }
        VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, Named(c_.reducer, left), Named(c_.reducer, right), left));
      }
    }
    for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", Acc(k), Lane(k, 0)));
    return OkStatus();
  }

  // A workgroup invocation's part of a contiguous row: elements start, start + step, ... < hi
  // (with vector loads: 4 elements at each, step a multiple of 4).
  Status FoldPart(const std::string& base, const std::string& start, const std::string& hi, const std::string& step) {
    if (!Vectorized()) return Fold(base, start, hi, step);
    VKHLO_RETURN_IF_ERROR(FoldLanes(fmt::format("{} + {}", base, start),
                                    fmt::format("for (uint r = {0} + {1}; r < {2}; r += {1})", start, step, hi),
                                    fmt::format("{} + r", base)));
    return JoinLanes();
  }
  std::string Sh(size_t k) const { return fmt::format("sh{}", k); }

  // The row's elements: compute values at element `r` of row `o` (uint variables).
  StatusOr<std::vector<Expr>> Load(const std::string& row_base, const std::string& r) {
    ElementalEmitter& em = b_.em();
    std::vector<Expr> values;
    const size_t n = c_.reducer.num_operands;
    if (from_scratch_) {
      const std::string p = em.Var("uint", fmt::format("{} + {}", row_base, r));
      for (size_t k = 0; k < n; ++k) {
        const TypeFacts& f = c_.facts[k];
        const int words = ScratchWords(f);
        std::string code;
        if (words == 1) {
          code = fmt::format("{}[{}]", scratch_[k], p);
        } else if (words == 2) {
          code = fmt::format("uvec2({0}[2u * {1}], {0}[2u * {1} + 1u])", scratch_[k], p);
        } else {
          code = fmt::format("uvec4({0}[4u * {1}], {0}[4u * {1} + 1u], {0}[4u * {1} + 2u], {0}[4u * {1} + 3u])",
                             scratch_[k], p);
        }
        Expr raw{em.Var(f.raw_glsl, code), f.type, true};
        VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw));
        values.push_back(value);
      }
      return values;
    }
    const std::string rv = em.Var("uint", r);
    const Index index = c_.wide ? WideIndex(row_base, rv)
                                : Index::Linear(c_.geometry.input_dims,
                                                em.Var("uint", fmt::format("{} + {}", row_base, c_.geometry.reduced.Address(rv))));
    for (size_t k = 0; k < n; ++k) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(c_.op.operand(k), index));
      VKHLO_ASSIGN_OR_RETURN(value, em.Compute(value));
      values.push_back(value);
    }
    return values;
  }

  // `hi`, the end of segment `lo`: lo + L, or the row's end. Rows beyond 2^31 - 1 elements (a
  // stored 1-D tensor within 2^32 elements; longer ones are split, split_long_reductions.cc) take
  // the form that cannot wrap past 2^32; others keep the form they always had.
  std::string SegmentEnd() const {
    if (pass_.length > kMaxWideRow) {
      return fmt::format("uint hi = lo + min({}, {} - lo);", U(pass_.segment_length), U(pass_.length));
    }
    return fmt::format("uint hi = min(lo + {}, {});", U(pass_.segment_length), U(pass_.length));
  }

  // Element `r` of row `o` of a wide input as coordinates: the kept dimensions from o, the
  // reduced ones from r (row-major within each kind), so no product reaches 2^32.
  Index WideIndex(const std::string& o, const std::string& r) {
    ElementalEmitter& em = b_.em();
    const std::vector<int64_t>& dims = c_.geometry.input_dims;
    std::vector<std::string> multi(dims.size(), "0");
    for (const bool reduced : {false, true}) {
      std::string q = reduced ? r : o;
      std::vector<size_t> of_kind;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (c_.reduced_dims[d] == reduced && dims[d] != 1) of_kind.push_back(d);
      }
      for (size_t k = of_kind.size(); k-- > 0;) {
        const size_t d = of_kind[k];
        if (k == 0) {
          multi[d] = em.Var("int", fmt::format("int({})", q));
          break;
        }
        multi[d] = em.Var("int", fmt::format("int({} % {})", q, U(dims[d])));
        q = em.Var("uint", fmt::format("{} / {}", q, U(dims[d])));
      }
    }
    return Index::Multi(dims, multi);
  }

  std::string RowBase(const std::string& o) {
    if (from_scratch_) return b_.em().Var("uint", fmt::format("{} * {}", o, U(pass_.length)));
    if (c_.wide) return b_.em().Var("uint", o);  // the row itself: WideIndex decomposes it
    return b_.em().Var("uint", c_.geometry.kept.Address(o));
  }

  void DeclareAccumulators() {
    for (size_t k = 0; k < c_.reducer.num_operands; ++k) {
      b_.em().Line(fmt::format("{} {};", c_.facts[k].glsl, Acc(k)));
    }
  }

  // acc = fold of elements lo, lo + step, ... < hi, in order (the caller ensures lo < hi).
  Status Fold(const std::string& row_base, const std::string& lo, const std::string& hi, const std::string& step) {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    em.Open("");
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> first, Load(row_base, lo));
    for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", Acc(k), first[k].code));
    em.Close();
    em.Open(fmt::format("for (uint r = {} + {}; r < {}; r += {})", lo, step, hi, step));
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> x, Load(row_base, "r"));
    std::vector<std::string> accs;
    for (size_t k = 0; k < n; ++k) accs.push_back(Acc(k));
    VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, Named(c_.reducer, accs), x, accs));
    em.Close();
    return OkStatus();
  }

  // Result `values` of row `o` (the e-th of its unit), or partial (o, s) into scratch.
  Status Store(const std::vector<Expr>& values, const std::string& o, const std::string& s, const std::string& e) {
    ElementalEmitter& em = b_.em();
    if (to_scratch_) {
      const std::string p = em.Var("uint", fmt::format("{} * {} + {}", o, U(pass_.segments), s));
      for (size_t k = 0; k < values.size(); ++k) {
        const TypeFacts& f = c_.facts[k];
        Expr raw = em.Raw(values[k]);
        const int words = ScratchWords(f);
        if (words == 1) {
          const std::string mask = f.storage_bits < 32 ? fmt::format(" & {}", UintLiteral((1ull << f.storage_bits) - 1)) : "";
          em.Line(fmt::format("{}[{}] = {}{};", scratch_[k], p, raw.code, mask));
        } else {
          for (int w = 0; w < words; ++w) {
            em.Line(fmt::format("{}[{}u * {} + {}u] = {}[{}];", scratch_[k], words, p, w, raw.code, w));
          }
        }
      }
      return OkStatus();
    }
    std::vector<Expr> all = values;
    if (c_.fusion.outputs.size() > values.size()) {
      // Epilogue outputs at result index o, the op's results bound to this row's values.
      em.PushScope();
      for (size_t k = 0; k < values.size(); ++k) em.Bind(c_.op.result(k), values[k]);
      const Index index = Index::Linear(c_.fusion.dims, o);
      Status status = OkStatus();
      for (size_t i = values.size(); i < c_.fusion.outputs.size() && status.ok(); ++i) {
        StatusOr<Expr> value = em.Emit(c_.fusion.outputs[i], index);
        if (value.ok()) {
          all.push_back(*value);
        } else {
          status = value.status();
        }
      }
      for (size_t k = 0; k < values.size(); ++k) em.Unbind(c_.op.result(k));
      em.PopScope();
      if (!status.ok()) return status;
    }
    results_.Store(em, all, o, e);
    return OkStatus();
  }

  // The final value of a row: body(init, acc), or init for empty rows.
  StatusOr<std::vector<Expr>> Finalize(bool empty, std::vector<std::string> accs = {}) {
    ElementalEmitter& em = b_.em();
    if (empty) return init_;
    std::vector<std::string> names;
    for (size_t k = 0; k < c_.reducer.num_operands; ++k) {
      names.push_back(em.Var(c_.facts[k].glsl, init_[k].code));
    }
    if (accs.empty()) {
      for (size_t k = 0; k < c_.reducer.num_operands; ++k) accs.push_back(Acc(k));
    }
    VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, init_, Named(c_.reducer, accs), names));
    return Named(c_.reducer, names);
  }

  // Invocation mode with vector loads (column reductions): invocation i owns the 4 adjacent rows
  // (results) o0 = 4 (i mod O/4) ... o0 + 3 of segment s = i / (O/4) and folds them side by side,
  // each in order; the rows' elements at reduced offset r are the 4 words at Base(o0) + Offset(r).
  Status WriteInvocationVector() {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    const uint32_t v = pass_.vector;
    em.Line(fmt::format("uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;",
                        pass_.workgroup_size));
    const int64_t units = pass_.rows / v;  // rows is a multiple of 4 here (reduce_plan.cc)
    em.Line(fmt::format("uint o0 = (i % {}) * {}u;", U(units), v));
    em.Line(fmt::format("uint s = i / {};", U(units)));
    em.Line(fmt::format("if (s >= {}) return;", U(pass_.segments)));
    em.Line(fmt::format("uint lo = s * {};", U(pass_.segment_length)));
    em.Line(SegmentEnd());
    const std::string base = RowBase("o0");
    VKHLO_RETURN_IF_ERROR(FoldLanes(fmt::format("{} + {}", base, c_.geometry.reduced.Address("lo")),
                                    "for (uint r = lo + 1u; r < hi; ++r)",
                                    fmt::format("{} + {}", base, c_.geometry.reduced.Address("r"))));
    if (to_scratch_) {
      for (uint32_t j = 0; j < v; ++j) {
        std::vector<std::string> accs;
        for (size_t k = 0; k < n; ++k) accs.push_back(Lane(k, j));
        VKHLO_RETURN_IF_ERROR(Store(Named(c_.reducer, accs), fmt::format("(o0 + {}u)", j), "s", "0u"));
      }
      return OkStatus();
    }
    results_.Declare(em);
    // The rows' epilogue (init . acc, then fused consumers, which may call big library helpers
    // such as the exact divide) is emitted once, in a loop over the lanes that the driver's
    // compiler must not unroll: v copies made kernels of close to 1 MB of SPIR-V (issue 24).
    // The lanes' accumulators go through arrays; each lane's operations are the same.
    em.prelude().Extension("GL_EXT_control_flow_attributes");
    for (size_t k = 0; k < n; ++k) {
      std::string lanes;
      for (uint32_t j = 0; j < v; ++j) lanes += fmt::format("{}{}", j ? ", " : "", Lane(k, j));
      em.Line(fmt::format("{0} lanes{1}[{2}] = {0}[{2}]({3});", c_.facts[k].glsl, k, v, lanes));
    }
    em.Open(fmt::format("[[dont_unroll]] for (uint j = 0u; j < {}u; ++j)", v));
    std::vector<std::string> accs;
    for (size_t k = 0; k < n; ++k) accs.push_back(em.Var(c_.facts[k].glsl, fmt::format("lanes{}[j]", k)));
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> result, Finalize(false, accs));
    VKHLO_RETURN_IF_ERROR(Store(result, "(o0 + j)", "0u", "j"));
    em.Close();
    results_.Flush(em, "o0");
    return OkStatus();
  }

  Status WriteInvocation() {
    ElementalEmitter& em = b_.em();
    if (Vectorized()) return WriteInvocationVector();
    em.Line(fmt::format("uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;",
                        pass_.workgroup_size));
    if (pass_.segments > 1) {
      // Consecutive invocations take consecutive rows (coalesced when rows are adjacent).
      em.Line(fmt::format("uint o = i % {};", U(pass_.rows)));
      em.Line(fmt::format("uint s = i / {};", U(pass_.rows)));
      em.Line(fmt::format("if (s >= {}) return;", U(pass_.segments)));
      em.Line(fmt::format("uint lo = s * {};", U(pass_.segment_length)));
      em.Line(SegmentEnd());
      const std::string base = RowBase("o");
      DeclareAccumulators();
      VKHLO_RETURN_IF_ERROR(Fold(base, "lo", "hi", "1u"));
      std::vector<std::string> accs;
      for (size_t k = 0; k < c_.reducer.num_operands; ++k) accs.push_back(Acc(k));
      VKHLO_RETURN_IF_ERROR(Store(Named(c_.reducer, accs), "o", "s", "0u"));
      return OkStatus();
    }
    em.Line(fmt::format("if (i * {}u >= {}) return;", pass_.pack, U(pass_.rows)));
    results_.Declare(em);
    em.Open(fmt::format("for (uint e = 0u; e < {}u; ++e)", pass_.pack));
    em.Line(fmt::format("uint o = i * {}u + e;", pass_.pack));
    em.Line(fmt::format("if (o >= {}) break;", U(pass_.rows)));
    const bool empty = pass_.length == 0;
    if (!empty) {
      const std::string base = RowBase("o");
      DeclareAccumulators();
      VKHLO_RETURN_IF_ERROR(Fold(base, "0u", U(pass_.length), "1u"));
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> result, Finalize(empty));
    VKHLO_RETURN_IF_ERROR(Store(result, "o", "0u", "e"));
    em.Close();
    results_.Flush(em, fmt::format("i * {}u", pass_.pack));
    return OkStatus();
  }

  Status WriteWorkgroup() {
    ElementalEmitter& em = b_.em();
    const size_t n = c_.reducer.num_operands;
    const uint32_t w = pass_.workgroup_size;
    const uint32_t v = Vectorized() ? pass_.vector : 1;  // elements per load
    for (size_t k = 0; k < n; ++k) b_.Shared(fmt::format("shared {} {}[{}];", c_.facts[k].glsl, Sh(k), w));
    em.Line("uint g = gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x;");
    em.Line("uint t = gl_LocalInvocationID.x;");
    const bool segmented = pass_.segments > 1;
    const uint32_t pack = segmented ? 1 : pass_.pack;
    if (!to_scratch_) results_.Declare(em);
    em.Open(fmt::format("for (uint e = 0u; e < {}u; ++e)", pack));
    if (segmented) {
      em.Line(fmt::format("uint o = g / {};", U(pass_.segments)));
      em.Line(fmt::format("uint s = g % {};", U(pass_.segments)));
    } else {
      em.Line(fmt::format("uint o = g * {}u + e;", pack));
      em.Line("uint s = 0u;");
    }
    em.Line(fmt::format("if (o >= {}) break;", U(pass_.rows)));  // uniform in the workgroup
    em.Line(fmt::format("uint lo = s * {};", U(pass_.segment_length)));
    em.Line(SegmentEnd());
    const std::string base = RowBase("o");
    DeclareAccumulators();
    std::vector<std::string> accs, shared_t;
    for (size_t k = 0; k < n; ++k) {
      accs.push_back(Acc(k));
      shared_t.push_back(fmt::format("{}[t]", Sh(k)));
    }
    // Each invocation's part of the segment; m invocations have a non-empty part.
    const std::optional<SubgroupReduce> subgroup = pass_.strided ? FindSubgroupReduce() : std::nullopt;
    if (subgroup) {
      // Subgroup arithmetic first: invocations without elements contribute the identity, each
      // subgroup's sum goes to sh[gl_SubgroupID], and the tree combines the subgroups' sums.
      em.prelude().Extension("GL_KHR_shader_subgroup_basic");
      em.prelude().Extension("GL_KHR_shader_subgroup_arithmetic");
      em.Line(fmt::format("uint m = gl_NumSubgroups;"));
      em.Open(fmt::format("if (lo + t * {}u < hi)", v));
      VKHLO_RETURN_IF_ERROR(FoldPart(base, fmt::format("lo + t * {}u", v), "hi", fmt::format("{}u", w * v)));
      em.Else();
      em.Line(fmt::format("{} = {};", accs[0], subgroup->identity));
      em.Close();
      em.Line(fmt::format("{} sg = {}({});", c_.facts[0].glsl, subgroup->function, accs[0]));
      em.Line(fmt::format("if (subgroupElect()) {}[gl_SubgroupID] = sg;", Sh(0)));
    } else if (pass_.strided) {
      em.Line(fmt::format("uint m = min({}u, (hi - lo + {}u) / {}u);", w, v - 1, v));
      em.Open(fmt::format("if (lo + t * {}u < hi)", v));
      VKHLO_RETURN_IF_ERROR(FoldPart(base, fmt::format("lo + t * {}u", v), "hi", fmt::format("{}u", w * v)));
    } else {
      const int64_t chunk = (pass_.segment_length + w - 1) / w;
      em.Line(fmt::format("uint m = (hi - lo + {0}) / {1};", U(chunk - 1), U(chunk)));
      em.Line(fmt::format("uint start = lo + t * {};", U(chunk)));
      em.Open("if (start < hi)");
      VKHLO_RETURN_IF_ERROR(Fold(base, "start", fmt::format("min(start + {}, hi)", U(chunk)), "1u"));
    }
    if (!subgroup) {
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", shared_t[k], accs[k]));
      em.Close();
    }
    em.Line("barrier();");
    // In-order tree: at step h, invocation t (a multiple of 2h) takes its right neighbour's
    // partial (t + h), so every combination joins adjacent ranges, left before right.
    em.Open("for (uint h = 1u; h < m; h <<= 1u)");
    em.Open("if ((t & (2u * h - 1u)) == 0u && t + h < m)");
    std::vector<Expr> right;
    for (size_t k = 0; k < n; ++k) right.push_back(Expr{fmt::format("{}[t + h]", Sh(k)), c_.reducer.types[k], false});
    VKHLO_RETURN_IF_ERROR(EmitCombine(em, c_.reducer, Named(c_.reducer, shared_t), right, shared_t));
    em.Close();
    em.Line("barrier();");
    em.Close();
    em.Open("if (t == 0u)");
    for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {}[0];", accs[k], Sh(k)));
    if (to_scratch_) {
      VKHLO_RETURN_IF_ERROR(Store(Named(c_.reducer, accs), "o", "s", "e"));
    } else {
      VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> result, Finalize(false));
      VKHLO_RETURN_IF_ERROR(Store(result, "o", "s", "e"));
    }
    em.Close();
    if (pack > 1) em.Line("barrier();");  // the next row reuses the shared arrays
    em.Close();
    if (!to_scratch_) {
      em.Open("if (t == 0u)");
      results_.Flush(em, fmt::format("g * {}u", pack));
      em.Close();
    }
    return OkStatus();
  }

  // Subgroup arithmetic replaces the first levels of the tree only where the target advertises
  // it and the reducer is a recognized add (32-bit float or integer) or max/min (32-bit
  // integers; float max/min differ from StableHLO's on NaN): exact for integers, and a fixed
  // order per device for float add.
  struct SubgroupReduce {
    std::string function, identity;
  };
  std::optional<SubgroupReduce> FindSubgroupReduce() const {
    constexpr uint32_t kBasic = 0x1, kArithmetic = 0x4;  // VkSubgroupFeatureFlagBits
    const TargetInfo& t = c_.target;
    if (t.vulkan_api_minor < 1 || (t.subgroup_operations & (kBasic | kArithmetic)) != (kBasic | kArithmetic)) {
      return std::nullopt;
    }
    const TypeFacts& f = c_.facts[0];
    const bool is_float = f.kind == ComputeKind::kFloat;
    const bool is_int = (f.kind == ComputeKind::kInt || f.kind == ComputeKind::kUint) && f.bits == 32;
    const bool is_signed = f.kind == ComputeKind::kInt;
    switch (c_.reducer.recognized) {
      case ir::OpCode::kAdd:
        if (is_float) return SubgroupReduce{"subgroupAdd", "-0.0"};  // -0 + x == x for every x
        if (is_int) return SubgroupReduce{"subgroupAdd", is_signed ? "0" : "0u"};
        return std::nullopt;
      case ir::OpCode::kMaximum:
        if (is_int) return SubgroupReduce{"subgroupMax", is_signed ? "(-2147483647 - 1)" : "0u"};
        return std::nullopt;
      case ir::OpCode::kMinimum:
        if (is_int) return SubgroupReduce{"subgroupMin", is_signed ? "2147483647" : "0xffffffffu"};
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  const Context& c_;
  const ReducePass& pass_;
  bool from_scratch_, to_scratch_;
  DispatchBuilder b_;
  std::vector<std::string> scratch_;
  std::vector<VectorInput> vectors_;
  bool loop_lanes_ = false;  // fold the lanes in a loop (ProducersAreBig)
  ResultWriter results_;
  std::vector<Expr> init_;
};

StatusOr<DeviceKernel> EmitReduce(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  // A chain of row reductions with the element-wise ops between them (fusion.h, row_group.h).
  if (!fusion.row_reductions.empty()) return EmitRowKernel(fusion, target, options);
  const ir::Operation& op = *fusion.device_op;
  VKHLO_ASSIGN_OR_RETURN(Reducer reducer, AnalyzeReducer(op));
  const ir::Attribute* attr = op.attribute("dimensions");
  std::optional<std::vector<int64_t>> dimensions = attr ? attr->AsI64Vector() : std::nullopt;
  if (!dimensions) return InvalidArgumentError(fmt::format("'{}' needs a dimensions attribute", op.name()));
  const ReduceGeometry geometry = MakeReduceGeometry(op.operand(0)->type().dims(), *dimensions);
  Context c{fusion, op, reducer, geometry, target, options, {}, VectorInputs(fusion, op, reducer.num_operands, target)};
  c.wide = !FitsLinearIndex(geometry.input_dims);
  c.reduced_dims.assign(geometry.input_dims.size(), false);
  for (int64_t d : *dimensions) {
    if (d >= 0 && static_cast<size_t>(d) < c.reduced_dims.size()) c.reduced_dims[static_cast<size_t>(d)] = true;
  }
  if (geometry.length > kMaxRowLength) {
    return UnimplementedError(fmt::format(
        "{}: error: '{}' on {} reduces rows of {} elements: reduce kernels take rows of at most {} elements (the "
        "split-long-reductions pass splits rows of several dimensions)",
        OpLocation(op, options.source_name), op.name(), op.operand(0)->type().ToString(), geometry.length,
        kMaxRowLength));
  }
  if (c.wide) {
    // Rows and their elements are counted in uints (and a strided loop's next element must not
    // wrap): longer rows are split into two reduces by the split-long-reductions pass.
    if (geometry.length > kMaxWideRow || geometry.rows > kMaxWideRow) {
      return UnimplementedError(fmt::format(
          "{}: error: '{}' on {} reduces rows of {} elements ({} rows): a reduction beyond 2^32 - 1 elements needs "
          "rows and row counts of at most {} (the split-long-reductions pass splits longer rows)",
          OpLocation(op, options.source_name), op.name(), op.operand(0)->type().ToString(), geometry.length,
          geometry.rows, kMaxWideRow));
    }
    c.vector_inputs.assign(c.vector_inputs.size(), false);  // only bound inputs are read as vectors
  }
  uint32_t shared_bytes = 0;
  for (size_t k = 0; k < reducer.num_operands; ++k) {
    c.facts.push_back(GetTypeFacts(reducer.types[k], target));
    shared_bytes += SharedBytes(c.facts.back());
  }
  std::vector<TypeFacts> output_facts;
  for (const ir::Value* out : fusion.outputs) output_facts.push_back(GetTypeFacts(out->type().element_type(), target));
  const uint32_t pack = ResultWriter::PackFor(output_facts);
  const size_t n = reducer.num_operands;
  const bool two_pass_allowed = fusion.inputs.size() + n + fusion.outputs.size() <= target.max_storage_buffers_per_stage;
  const bool vector_loads = std::find(c.vector_inputs.begin(), c.vector_inputs.end(), true) != c.vector_inputs.end();
  const ReducePlan plan =
      ChooseReducePlan(geometry, target, shared_bytes, pack, reducer.commutative(), two_pass_allowed, vector_loads);

  DeviceKernel kernel;
  std::string where = OpLocation(op, options.source_name);
  kernel.summary = fmt::format("{}{}: {}", op.name(), where.empty() ? "" : " at " + where, plan.why);
  for (const ir::Operation* fused : fusion.ops) {
    if (fused != &op) kernel.summary += fmt::format("\n  fused {}", fused->name());
  }
  if (geometry.rows == 0) return kernel;  // nothing to write
  const size_t passes = plan.passes.size();
  if (passes == 2) {
    const ReducePass& first = plan.passes[0];
    for (size_t k = 0; k < n; ++k) {
      kernel.scratch_bytes.push_back(static_cast<uint64_t>(first.rows * first.segments) * 4u *
                                     static_cast<uint64_t>(ScratchWords(c.facts[k])));
    }
  }
  for (size_t p = 0; p < passes; ++p) {
    PassWriter writer(c, plan.passes[p], /*from_scratch=*/p > 0, /*to_scratch=*/p + 1 < passes);
    const std::string name = passes == 1 ? fusion.name + ".reduce" : fmt::format("{}.reduce_pass{}", fusion.name, p + 1);
    VKHLO_ASSIGN_OR_RETURN(KernelDispatch dispatch, writer.Write(name, kernel.summary));
    kernel.dispatches.push_back(std::move(dispatch));
  }
  return kernel;
}

bool AcceptsReduce(const ir::Operation& op) { return AnalyzeReducer(op).ok() && ReducerIsElemental(op); }

}  // namespace

void RegisterReduceKernel(DeviceKernelTable& table) {
  DeviceKernelEmitter emitter;
  emitter.emit = &EmitReduce;
  emitter.accepts = &AcceptsReduce;
  emitter.fuses_operand_producers = true;
  emitter.fuses_result_consumers = true;
  table.Register(ir::OpCode::kReduce, emitter);
}

}  // namespace vkhlo::codegen::reduction
