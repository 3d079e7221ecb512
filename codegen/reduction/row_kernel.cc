// A normalization ("row") kernel (row_group.h): one dispatch in which W invocations own each
// row. For every reduction in program order they fold their elements (in registers, or
// re-read in a loop), combine the W partials with the reduce kernels' in-order shared-memory
// tree, and apply the init value on the left (result = body(init, tree(row)), the order the
// workgroup reduce kernels use: strided elements for recognized commutative reducers,
// contiguous chunks otherwise); the reduction's results are then bound in the elemental
// emitter, so the element-wise ops after it read them as registers. Values that broadcast a
// row's results back along the row are computed once per row. Last, every output is written:
// FULL ones per element (narrow types a whole word per invocation), ROW ones by the row's
// first invocation.
#include "codegen/reduction/row_kernel.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <functional>
#include <set>
#include <unordered_set>

#include "codegen/elemental/types.h"
#include "codegen/fusion.h"
#include "codegen/reduction/dispatch_builder.h"
#include "codegen/reduction/reducer.h"
#include "codegen/reduction/result_writer.h"
#include "codegen/reduction/row_group.h"
#include "codegen/texel_reads.h"
#include "ir/walk.h"

namespace vkhlo::codegen::reduction {
namespace {

int64_t Product(const std::vector<int64_t>& dims, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t d = from; d < to; ++d) p *= dims[d];
  return p;
}

// Fusion inputs read only at the element's own position (vector_inputs.h's rule for a row
// kernel): walking the ops backwards, FULL outputs and the reductions' inputs are read at their
// own index, and so are the same-shaped operands of element-wise ops whose results are; any
// other read (a broadcast, a reshape to the row's value, a region) scatters the value.
std::unordered_set<const ir::Value*> OwnValues(const Fusion& fusion, const std::vector<int64_t>& dims) {
  std::unordered_set<const ir::Value*> read, scattered, own;
  for (const ir::Value* out : fusion.outputs) {
    if (out->type().dims() == dims) own.insert(out);
  }
  for (auto it = fusion.ops.rbegin(); it != fusion.ops.rend(); ++it) {
    const ir::Operation& op = **it;
    const bool is_reduce =
        std::find(fusion.row_reductions.begin(), fusion.row_reductions.end(), &op) != fusion.row_reductions.end();
    const bool result_own = !is_reduce && op.num_results() == 1 && own.count(op.result(0)) != 0 &&
                            scattered.count(op.result(0)) == 0 && op.result(0)->type().dims() == dims;
    for (size_t k = 0; k < op.num_operands(); ++k) {
      const ir::Value* v = op.operand(k);
      read.insert(v);
      const bool same_index =
          is_reduce ? k < op.num_operands() / 2
                    : result_own && op.info().kind == ir::OpKind::kElementwise && v->type().dims() == dims;
      (same_index ? own : scattered).insert(v);
    }
    for (size_t r = 0; r < op.num_regions(); ++r) {
      ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
        for (const ir::Value* v : inner.operands()) scattered.insert(v);
      });
    }
  }
  std::unordered_set<const ir::Value*> only;
  for (const ir::Value* v : own) {
    if (read.count(v) && !scattered.count(v) && v->type().dims() == dims) only.insert(v);
  }
  return only;
}

std::vector<bool> RowVectorInputs(const Fusion& fusion, const std::vector<int64_t>& dims, const TargetInfo& target) {
  const std::unordered_set<const ir::Value*> own = OwnValues(fusion, dims);
  std::vector<bool> vector;
  for (const ir::Value* in : fusion.inputs) {
    vector.push_back(own.count(in) != 0 && GetTypeFacts(in->type().element_type(), target).storage_bits == 32);
  }
  return vector;
}

class RowWriter {
 public:
  RowWriter(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options)
      : f_(fusion), target_(target), b_(target, options) {}

  StatusOr<DeviceKernel> Write() {
    const ir::Operation& anchor = *f_.device_op;
    dims_ = anchor.operand(0)->type().dims();
    const std::optional<std::vector<int64_t>> reduced = anchor.attribute("dimensions")->AsI64Vector();
    const size_t kept = dims_.size() - reduced->size();
    rows_ = Product(dims_, 0, kept);
    n_ = Product(dims_, kept, dims_.size());
    ElementalEmitter& em = b_.em();
    uint32_t shared = 0;
    bool commutative = true;
    for (const ir::Operation* r : f_.row_reductions) {
      VKHLO_ASSIGN_OR_RETURN(Reducer reducer, AnalyzeReducer(*r));
      VKHLO_RETURN_IF_ERROR(RequireComputeTypes(em, reducer));
      commutative = commutative && reducer.commutative();
      for (ir::ElementType t : reducer.types) shared += SharedBytes(GetTypeFacts(t, target_));
      reducers_.push_back(std::move(reducer));
    }
    // Outputs: FULL (the row shape) and ROW (one element per row).
    for (const ir::Value* out : f_.outputs) {
      const TypeFacts facts = GetTypeFacts(out->type().element_type(), target_);
      const bool full = out->type().num_elements() == rows_ * n_;
      (full ? full_ : row_).outputs.push_back("");
      (full ? full_ : row_).facts.push_back(facts);
      (full ? full_values_ : row_values_).push_back(out);
    }
    const uint32_t unit = ResultWriter::PackFor(full_.facts);
    if (ResultWriter::PackFor(row_.facts) > 1 || n_ % unit != 0) {
      return InternalError(fmt::format("row kernel {}: narrow outputs the planner should have refused", f_.name));
    }
    int cost = 0;  // per element: the ops of the row's shape
    for (const ir::Operation* op : f_.ops) {
      if (op->num_results() == 1 && op->result(0)->type().dims() == dims_) cost += ElementCost(*op);
    }
    std::optional<RowPlan> plan = ChooseRowPlan(rows_, n_, target_, shared, unit, commutative, cost);
    if (!plan) return InternalError(fmt::format("row kernel {}: rows of {} the planner should have refused", f_.name, n_));
    p_ = *plan;
    // Inputs read only at each element's own position come 4 words at a time (one uvec4 per 4
    // elements an invocation owns together) where the elements stay in registers.
    const std::vector<bool> vector_inputs = RowVectorInputs(f_, dims_, target_);
    // Likewise 32-bit FULL outputs are stored 4 words at a time, in every mode.
    bool word_outputs = false;
    for (const TypeFacts& f : full_.facts) word_outputs = word_outputs || f.storage_bits == 32;
    if (n_ % 4 == 0 && (word_outputs || std::find(vector_inputs.begin(), vector_inputs.end(), true) != vector_inputs.end())) {
      std::optional<RowPlan> vector_plan = ChooseRowPlan(rows_, n_, target_, shared, 4, commutative, cost);
      if (vector_plan && vector_plan->cached == p_.cached &&
          (vector_plan->elements <= kMaxKept) == (p_.elements <= kMaxKept)) {
        p_ = *vector_plan;
      }
    }

    own_ = OwnValues(f_, dims_);
    b_.BindInputs(f_.inputs);
    if (p_.unit == 4 && p_.cached) {
      int texels = 0;
      for (size_t i = 0; i < f_.inputs.size(); ++i) {
        if (!vector_inputs[i]) continue;
        const ir::Value* in = f_.inputs[i];
        if (texels < kMaxTexelViews && PrefersTexelReads(target_, static_cast<uint64_t>(in->type().num_elements()))) {
          ++texels;
          vectors_.push_back({in, b_.TexelView(in), true, {}});
        } else {
          vectors_.push_back({in, b_.VectorView(b_.BindingOf(in)), false, {}});
        }
      }
    }
    size_t fi = 0, ri = 0;
    for (const ir::Value* out : f_.outputs) {
      const std::string name = b_.Bind(KernelBuffer::Write(out));
      const bool full = out->type().num_elements() == rows_ * n_;
      (full ? full_.outputs[fi++] : row_.outputs[ri++]) = name;
    }
    if (p_.unit == 4) {
      // 32-bit outputs: the unit's 4 words in one uvec4 store (lavapipe stores a word whose
      // address differs between lanes lane by lane, like loads).
      ResultWriter rest;
      std::vector<const ir::Value*> rest_values;
      for (size_t k = 0; k < full_values_.size(); ++k) {
        if (full_.facts[k].storage_bits == 32) {
          vector_outputs_.push_back({full_values_[k], b_.VectorView(std::stoi(full_.outputs[k].substr(2)))});
        } else {
          rest.outputs.push_back(full_.outputs[k]);
          rest.facts.push_back(full_.facts[k]);
          rest_values.push_back(full_values_[k]);
        }
      }
      full_.outputs = std::move(rest.outputs);
      full_.facts = std::move(rest.facts);
      full_values_ = std::move(rest_values);
    }
    full_.pack = p_.unit;
    full_.rows = rows_ * n_;
    row_.pack = 1;
    row_.rows = rows_;

    const uint32_t w = p_.width, pg = p_.rows_per_group;
    em.Line("uint g = gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x;");
    em.Line("uint lid = gl_LocalInvocationID.x;");
    em.Line(fmt::format("uint t = lid % {}u;", w));
    em.Line(fmt::format("uint slot = lid / {}u;", w));
    em.Line(fmt::format("uint orow = g * {}u + slot;", pg));
    // Rows past the end compute on the last row (harmless reads) and write nothing: every
    // invocation reaches every barrier.
    em.Line(fmt::format("bool row_ok = orow < {};", U(rows_)));
    em.Line(fmt::format("uint o = min(orow, {});", U(rows_ - 1)));
    em.Line(fmt::format("uint rb = o * {};", U(n_)));
    all_full_ = static_cast<int64_t>(w) * p_.elements == n_;
    // Invocations holding at least one element (the tree's width).
    m_ = p_.strided ? w : static_cast<uint32_t>((n_ + p_.elements - 1) / p_.elements);
    if (p_.cached) {
      for (uint32_t j = 0; j < p_.elements; ++j) {
        const std::string q = em.Var("uint", Position(fmt::format("{}u", j), j));
        positions_.push_back(q);
        elements_.push_back(em.Var("uint", all_full_ ? fmt::format("rb + {}", q) : fmt::format("rb + min({}, {})", q, U(n_ - 1))));
      }
      for (VectorInput& in : vectors_) {
        for (uint32_t j = 0; j < p_.elements; j += 4) {
          const std::string at = fmt::format("{} >> 2u", elements_[j]);
          in.words.push_back(em.Var("uvec4", in.texel ? fmt::format("imageLoad({}, int({}))", in.view, at)
                                                      : fmt::format("{}[{}]", in.view, at)));
        }
      }
    }
    for (size_t i = 0; i < reducers_.size(); ++i) {
      VKHLO_RETURN_IF_ERROR(BindRowValues());
      VKHLO_RETURN_IF_ERROR(Reduce(i));
      done_.insert(f_.row_reductions[i]);
    }
    VKHLO_RETURN_IF_ERROR(BindRowValues());
    VKHLO_RETURN_IF_ERROR(WriteRowOutputs());
    VKHLO_RETURN_IF_ERROR(WriteFullOutputs());
    if (!em.sticky_error().ok()) return em.sticky_error();

    DeviceKernel kernel;
    const std::string where = OpLocation(anchor, source_name_);
    kernel.summary = fmt::format("{}{}: row kernel of {} reductions, {}", anchor.name(), where.empty() ? "" : " at " + where,
                                 reducers_.size(), p_.Describe());
    for (const ir::Operation* op : f_.ops) kernel.summary += fmt::format("\n  fused {}", op->name());
    const uint64_t groups = static_cast<uint64_t>((rows_ + pg - 1) / pg);
    const std::string config =
        fmt::format("rows W{} P{} E{}{}", w, pg, p_.elements, p_.cached ? " registers" : " re-read");
    b_.writer().Config(config);
    b_.writer().FusedOps(f_.ops, source_name_);
    KernelDispatch d = b_.Finish(f_.name + ".rows", kernel.summary, p_.workgroup_size(), groups,
                                 "row kernel " + f_.name + ": " + p_.Describe());
    d.config = config;
    kernel.dispatches.push_back(std::move(d));
    return kernel;
  }

  void set_source_name(std::string name) { source_name_ = std::move(name); }

 private:
  // The position in the row of element j of invocation t (`j` a GLSL uint; `known` its value
  // when constant, else -1).
  std::string Position(const std::string& j, int64_t known) const {
    const uint32_t w = p_.width, unit = p_.unit;
    if (!p_.strided) return fmt::format("t * {}u + {}", p_.elements, j);
    if (known >= 0) {
      const int64_t c = static_cast<int64_t>(w) * unit * (known / unit) + known % unit;
      return unit == 1 ? fmt::format("t + {}", U(c)) : fmt::format("t * {}u + {}", unit, U(c));
    }
    if (unit == 1) return fmt::format("t + {}u * {}", w, j);
    return fmt::format("(t + {0}u * ({1} / {2}u)) * {2}u + {1} % {2}u", w, j, unit);
  }

  // Whether `v` depends (within the fusion) on a reduction not folded yet.
  bool Pending(const ir::Value* v, std::map<const ir::Value*, bool>& memo) const {
    auto it = memo.find(v);
    if (it != memo.end()) return it->second;
    const ir::Operation* def = v->defining_op();
    bool pending = false;
    if (def != nullptr && std::find(f_.ops.begin(), f_.ops.end(), def) != f_.ops.end()) {
      if (std::find(f_.row_reductions.begin(), f_.row_reductions.end(), def) != f_.row_reductions.end()) {
        pending = !done_.count(def);
      } else {
        for (const ir::Value* operand : def->operands()) pending = pending || Pending(operand, memo);
      }
    }
    memo[v] = pending;
    return pending;
  }

  bool DependsOnRows(const ir::Value* v, std::map<const ir::Value*, bool>& memo) const {
    auto it = memo.find(v);
    if (it != memo.end()) return it->second;
    const ir::Operation* def = v->defining_op();
    bool depends = false;
    if (def != nullptr && std::find(f_.ops.begin(), f_.ops.end(), def) != f_.ops.end()) {
      if (std::find(f_.row_reductions.begin(), f_.row_reductions.end(), def) != f_.row_reductions.end()) {
        depends = true;
      } else {
        for (const ir::Value* operand : def->operands()) depends = depends || DependsOnRows(operand, memo);
      }
    }
    memo[v] = depends;
    return depends;
  }

  // The per-row values broadcast back along the row (operands of broadcast_in_dim to the row
  // shape that depend on the rows' reductions) whose reductions are folded: computed once per
  // row at the row's index and bound, so the elements read registers.
  Status BindRowValues() {
    ElementalEmitter& em = b_.em();
    std::map<const ir::Value*, bool> pending, depends;
    for (const ir::Operation* op : f_.ops) {
      if (op->code() != ir::OpCode::kBroadcastInDim || op->result(0)->type().dims() != dims_) continue;
      const ir::Value* v = op->operand(0);
      if (bound_.count(v) || !DependsOnRows(v, depends) || Pending(v, pending)) continue;
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(v, Index::Linear(v->type().dims(), "o")));
      VKHLO_ASSIGN_OR_RETURN(value, em.Compute(value));
      const std::string name = em.Var(em.Facts(value.type).glsl, value.code);
      em.Bind(v, Expr{name, value.type, false});
      bound_.insert(v);
    }
    return OkStatus();
  }

  // Whether an op of the fusion other than `reduce` reads `v`.
  bool ReadBesides(const ir::Value* v, const ir::Operation& reduce) const {
    for (const ir::Operation* op : f_.ops) {
      if (op == &reduce) continue;
      for (const ir::Value* operand : op->operands()) {
        if (operand == v) return true;
      }
    }
    return false;
  }

  // The kept operands of earlier folds at element `j` (a GLSL uint of the loop), bound while an
  // element's values are emitted (each is read only at its element's own position: OwnValues).
  void BindKept(const std::string& j) {
    for (const Kept& k : kept_) b_.em().Bind(k.value, Expr{fmt::format("{}[{}]", k.array, j), k.type, false});
  }
  void UnbindKept() {
    for (const Kept& k : kept_) b_.em().Unbind(k.value);
  }

  // Element j's words of the vector inputs (cached mode), bound while its values are emitted.
  void BindElement(uint32_t j) {
    for (const VectorInput& in : vectors_) {
      b_.em().Bind(in.value, Expr{fmt::format("{}[{}]", in.words[j / 4], j % 4), in.value->type().element_type(), true});
    }
  }
  void UnbindElement() {
    for (const VectorInput& in : vectors_) b_.em().Unbind(in.value);
  }

  StatusOr<std::vector<Expr>> Operands(const Reducer& r, const std::string& element, int64_t j = -1) {
    ElementalEmitter& em = b_.em();
    std::vector<Expr> values;
    if (j >= 0) BindElement(static_cast<uint32_t>(j));
    Status status = OkStatus();
    for (size_t k = 0; k < r.num_operands && status.ok(); ++k) {
      StatusOr<Expr> v = em.Emit(r.op->operand(k), Index::Linear(dims_, element));
      if (v.ok()) v = em.Compute(*v);
      if (v.ok()) {
        values.push_back(*v);
      } else {
        status = v.status();
      }
    }
    if (j >= 0) UnbindElement();
    VKHLO_RETURN_IF_ERROR(status);
    return values;
  }

  Status Reduce(size_t i) {
    ElementalEmitter& em = b_.em();
    const Reducer& r = reducers_[i];
    const size_t n = r.num_operands;
    std::vector<std::string> acc, tmp;
    for (size_t k = 0; k < n; ++k) acc.push_back(fmt::format("acc{}_{}", i, k));
    if (p_.cached) {
      for (uint32_t j = 0; j < p_.elements; ++j) {
        VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> x, Operands(r, elements_[j], j));
        if (j == 0) {
          for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} {} = {};", em.Facts(r.types[k]).glsl, acc[k], x[k].code));
          continue;
        }
        if (all_full_) {
          VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, Named(r, acc), x, acc));
          continue;
        }
        std::vector<std::string> into;
        for (size_t k = 0; k < n; ++k) into.push_back(em.Var(em.Facts(r.types[k]).glsl, acc[k]));
        VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, Named(r, acc), x, into));
        for (size_t k = 0; k < n; ++k) {
          em.Line(fmt::format("if ({} < {}) {} = {};", positions_[j], U(n_), acc[k], into[k]));
        }
      }
    } else if (p_.elements <= kMaxKept) {
      // One copy of the element's code in a loop the driver must not unroll; the operands that
      // later folds or outputs read again are kept in per-invocation arrays (`kept_`).
      std::vector<bool> keep(n, false);
      for (size_t k = 0; k < n; ++k) {
        const ir::Value* v = r.op->operand(k);
        keep[k] = own_.count(v) != 0 && ReadBesides(v, *r.op);
        if (keep[k]) {
          const std::string array = fmt::format("kept{}_{}", i, k);
          em.Line(fmt::format("{} {}[{}];", em.Facts(r.types[k]).glsl, array, p_.elements));
        }
      }
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} {};", em.Facts(r.types[k]).glsl, acc[k]));
      em.prelude().Extension("GL_EXT_control_flow_attributes");
      em.Open(fmt::format("[[dont_unroll]] for (uint j = 0u; j < {}u; ++j)", p_.elements));
      const std::string q = em.Var("uint", Position("j", -1));
      const std::string e = em.Var("uint", all_full_ ? fmt::format("rb + {}", q) : fmt::format("rb + min({}, {})", q, U(n_ - 1)));
      BindKept("j");
      StatusOr<std::vector<Expr>> x = Operands(r, e);
      UnbindKept();
      VKHLO_RETURN_IF_ERROR(x.status());
      for (size_t k = 0; k < n; ++k) {
        if (keep[k]) em.Line(fmt::format("kept{}_{}[j] = {};", i, k, (*x)[k].code));
      }
      em.Open("if (j == 0u)");
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", acc[k], (*x)[k].code));
      em.Else();
      if (!all_full_) em.Open(fmt::format("if ({} < {})", q, U(n_)));
      VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, Named(r, acc), *x, acc));
      if (!all_full_) em.Close();
      em.Close();
      em.Close();
      for (size_t k = 0; k < n; ++k) {
        if (keep[k]) kept_.push_back({r.op->operand(k), fmt::format("kept{}_{}", i, k), r.types[k]});
      }
    } else {
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} {};", em.Facts(r.types[k]).glsl, acc[k]));
      em.Open("");
      {
        const std::string e = em.Var("uint", fmt::format("rb + min({}, {})", Position("0u", 0), U(n_ - 1)));
        VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> x, Operands(r, e));
        for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", acc[k], x[k].code));
      }
      em.Close();
      em.Open(fmt::format("for (uint j = 1u; j < {}u; ++j)", p_.elements));
      const std::string q = em.Var("uint", Position("j", -1));
      if (!all_full_) em.Open(fmt::format("if ({} < {})", q, U(n_)));
      VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> x, Operands(r, em.Var("uint", fmt::format("rb + {}", q))));
      VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, Named(r, acc), x, acc));
      if (!all_full_) em.Close();
      em.Close();
    }
    // The in-order tree over the m invocations holding elements (reduce_kernel.cc's).
    std::vector<std::string> row;
    if (p_.width > 1) {
      const uint32_t w = p_.width;
      std::vector<std::string> sh, sh_t;
      for (size_t k = 0; k < n; ++k) {
        sh.push_back(fmt::format("sh{}_{}", i, k));
        b_.Shared(fmt::format("shared {} {}[{}];", em.Facts(r.types[k]).glsl, sh[k], w * p_.rows_per_group));
        sh_t.push_back(fmt::format("{}[slot * {}u + t]", sh[k], w));
      }
      if (m_ < w) em.Open(fmt::format("if (t < {}u)", m_));
      for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", sh_t[k], acc[k]));
      if (m_ < w) em.Close();
      em.Line("barrier();");
      em.Open(fmt::format("for (uint h = 1u; h < {}u; h <<= 1u)", m_));
      em.Open(fmt::format("if ((t & (2u * h - 1u)) == 0u && t + h < {}u)", m_));
      std::vector<Expr> right;
      for (size_t k = 0; k < n; ++k) right.push_back(Expr{fmt::format("{}[slot * {}u + t + h]", sh[k], w), r.types[k], false});
      VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, Named(r, sh_t), right, sh_t));
      em.Close();
      em.Line("barrier();");
      em.Close();
      for (size_t k = 0; k < n; ++k) row.push_back(em.Var(em.Facts(r.types[k]).glsl, fmt::format("{}[slot * {}u]", sh[k], w)));
    } else {
      row = acc;
    }
    // result = body(init, row), bound for the ops after the reduction.
    std::vector<Expr> init;
    std::vector<std::string> result;
    for (size_t k = 0; k < n; ++k) {
      VKHLO_ASSIGN_OR_RETURN(Expr v, em.Emit(r.op->operand(n + k), Index::Scalar()));
      VKHLO_ASSIGN_OR_RETURN(v, em.Compute(v));
      init.push_back(Expr{em.Var(em.Facts(r.types[k]).glsl, v.code), r.types[k], false});
      result.push_back(em.Var(em.Facts(r.types[k]).glsl, row[k]));
    }
    VKHLO_RETURN_IF_ERROR(EmitCombine(em, r, init, Named(r, row), result));
    for (size_t k = 0; k < n; ++k) em.Bind(r.op->result(k), Expr{result[k], r.types[k], false});
    return OkStatus();
  }

  Status WriteRowOutputs() {
    if (row_values_.empty()) return OkStatus();
    ElementalEmitter& em = b_.em();
    em.Open("if (t == 0u && row_ok)");
    std::vector<Expr> values;
    for (const ir::Value* v : row_values_) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(v, Index::Linear(v->type().dims(), "o")));
      values.push_back(value);
    }
    row_.Store(em, values, "o", "0u");
    em.Close();
    return OkStatus();
  }

  // The FULL outputs of the unit whose first element is at row position `q` (a GLSL uint):
  // `element(v)` is the GLSL linear index of its v-th element.
  // `first`: the unit's first element j (cached mode; -1 in a loop).
  Status StoreUnit(const std::string& q, const std::function<std::string(uint32_t)>& element, int64_t first = -1) {
    ElementalEmitter& em = b_.em();
    em.Open(all_full_ ? "if (row_ok)" : fmt::format("if (row_ok && {} < {})", q, U(n_)));
    full_.Declare(em);
    std::vector<std::vector<std::string>> words(vector_outputs_.size());
    for (uint32_t v = 0; v < p_.unit; ++v) {
      const std::string e = element(v);
      std::vector<Expr> values;
      if (first >= 0) BindElement(static_cast<uint32_t>(first) + v);
      if (first < 0) BindKept(v == 0 ? "j" : fmt::format("(j + {}u)", v));
      Status status = OkStatus();
      for (const ir::Value* out : full_values_) {
        StatusOr<Expr> value = em.Emit(out, Index::Linear(dims_, e));
        if (!value.ok()) {
          status = value.status();
          break;
        }
        values.push_back(*value);
      }
      for (size_t k = 0; k < vector_outputs_.size() && status.ok(); ++k) {
        StatusOr<Expr> value = em.Emit(vector_outputs_[k].value, Index::Linear(dims_, e));
        if (value.ok()) {
          words[k].push_back(em.Raw(*value).code);
        } else {
          status = value.status();
        }
      }
      if (first >= 0) UnbindElement();
      if (first < 0) UnbindKept();
      VKHLO_RETURN_IF_ERROR(status);
      if (!full_values_.empty()) full_.Store(em, values, e, fmt::format("{}u", v));
    }
    for (size_t k = 0; k < vector_outputs_.size(); ++k) {
      em.Line(fmt::format("{}[({}) >> 2u] = uvec4({});", vector_outputs_[k].view, element(0), fmt::format("{}", fmt::join(words[k], ", "))));
    }
    full_.Flush(em, element(0));
    em.Close();
    return OkStatus();
  }

  Status WriteFullOutputs() {
    if (full_values_.empty() && vector_outputs_.empty()) return OkStatus();
    ElementalEmitter& em = b_.em();
    const uint32_t unit = p_.unit;
    if (p_.cached) {
      for (uint32_t j = 0; j < p_.elements; j += unit) {
        VKHLO_RETURN_IF_ERROR(StoreUnit(positions_[j], [&](uint32_t v) { return elements_[j + v]; }, j));
      }
      return OkStatus();
    }
    em.Open(fmt::format("for (uint j = 0u; j < {}u; j += {}u)", p_.elements, unit));
    const std::string q = em.Var("uint", Position("j", -1));
    const std::string e0 = em.Var("uint", fmt::format("rb + {}", q));
    VKHLO_RETURN_IF_ERROR(StoreUnit(q, [&](uint32_t v) { return v == 0 ? e0 : fmt::format("({} + {}u)", e0, v); }));
    em.Close();
    return OkStatus();
  }

  const Fusion& f_;
  const TargetInfo& target_;
  DispatchBuilder b_;
  std::string source_name_;
  std::vector<int64_t> dims_;
  int64_t rows_ = 0, n_ = 0;
  RowPlan p_;
  std::vector<Reducer> reducers_;
  ResultWriter full_, row_;
  std::vector<const ir::Value*> full_values_, row_values_;
  bool all_full_ = false;  // every invocation's every element is in the row
  uint32_t m_ = 1;
  std::vector<std::string> positions_, elements_;  // cached mode: per element j
  std::set<const ir::Operation*> done_;
  std::set<const ir::Value*> bound_;
  // Inputs read as uvec4 (cached mode, unit 4): per input, one word vector per 4 elements.
  struct VectorInput {
    const ir::Value* value = nullptr;
    std::string view;
    bool texel = false;
    std::vector<std::string> words;
  };
  std::vector<VectorInput> vectors_;
  struct VectorOutput {
    const ir::Value* value = nullptr;
    std::string view;
  };
  std::vector<VectorOutput> vector_outputs_;  // 32-bit FULL outputs stored as uvec4 (unit 4)
  // Loop mode: operands of earlier folds kept per element (array names).
  struct Kept {
    const ir::Value* value = nullptr;
    std::string array;
    ir::ElementType type;
  };
  std::vector<Kept> kept_;
  std::unordered_set<const ir::Value*> own_;  // values read only at their element's position
  static constexpr uint32_t kMaxKept = 32;    // elements per invocation kept in arrays
};

}  // namespace

StatusOr<DeviceKernel> EmitRowKernel(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  RowWriter writer(fusion, target, options);
  writer.set_source_name(options.source_name);
  return writer.Write();
}

}  // namespace vkhlo::codegen::reduction
