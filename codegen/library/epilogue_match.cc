#include "codegen/library/epilogue_match.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "codegen/elemental/op_emitters.h"
#include "ir/op_attributes.h"
#include "ir/requantize.h"
#include "ir/walk.h"

namespace vkhlo::codegen::library {
namespace {

// Constants of at most this many elements are emitted inline (the elemental emitter's constant
// generator); larger ones are read from their buffer.
constexpr int64_t kInlineConstantElements = 64;
// Ops an epilogue absorbs at most: keeps the kernel's SPIR-V (and its compile time) small.
constexpr size_t kMaxEpilogueOps = 64;

bool InlineConstant(const ir::Operation& def) {
  if (def.code() != ir::OpCode::kConstant || !IsElementalOp(def)) return false;
  const ir::Attribute* value = def.attribute("value");
  const ir::Literal* lit = value ? value->AsDenseElements() : nullptr;
  return lit != nullptr && (lit->is_splat() || lit->num_elements() <= kInlineConstantElements);
}

// Ops whose elemental form calls the GLSL library's exact functions: the transcendentals, float
// division, and arithmetic in narrow floats (bf16, f16, f8: each op rounds back through the
// codec; a convert into one is a single rounding). Computing them once per channel beats once
// per result element (EpilogueMatchOptions::side_library_calls).
bool LibraryCall(const ir::Operation& op) {
  const ir::ElementType t = op.result(0)->type().element_type();
  const bool real_or_complex = ir::IsFloat(t) || ir::IsComplex(t);
  if (ir::IsFloat(t) && t != ir::ElementType::kF32 && t != ir::ElementType::kF64 &&
      op.info().kind == ir::OpKind::kElementwise && op.code() != ir::OpCode::kConvert) {
    return true;
  }
  switch (op.code()) {
    case ir::OpCode::kDivide:
    case ir::OpCode::kRemainder:
    case ir::OpCode::kPower: return real_or_complex;
    case ir::OpCode::kAtan2:
    case ir::OpCode::kCbrt:
    case ir::OpCode::kCosine:
    case ir::OpCode::kExponential:
    case ir::OpCode::kExponentialMinusOne:
    case ir::OpCode::kLog:
    case ir::OpCode::kLogPlusOne:
    case ir::OpCode::kLogistic:
    case ir::OpCode::kRsqrt:
    case ir::OpCode::kSine:
    case ir::OpCode::kSqrt:
    case ir::OpCode::kTan:
    case ir::OpCode::kTanh:
    case ir::OpCode::kMap: return true;
    default: return false;
  }
}

// Ops computed per element when only the epilogue needs them: index-only data movement and
// element-wise ops (on small inputs: the per-channel vectors).
bool SideComputable(const ir::Operation& def) {
  if (!IsElementalOp(def)) return false;
  if (def.code() == ir::OpCode::kConstant) return InlineConstant(def);
  if (def.code() == ir::OpCode::kBroadcastInDim || def.code() == ir::OpCode::kReshape) return true;
  return def.info().kind == ir::OpKind::kElementwise;
}

class Matcher {
 public:
  Matcher(const ir::Block& block, const ir::Operation& op, const EpilogueMatchOptions& options)
      : block_(block), op_(op), options_(options), max_inputs_(options.max_inputs) {}

  FusedEpilogue Run() {
    FusedEpilogue best;
    best.result = op_.result(0);
    const ir::Region* region = block_.parent_region();
    if (region == nullptr || op_.num_results() != 1) return best;
    // A quantized contraction's integer result is requantized by its kernel: element-wise ops
    // on the stored values stay separate kernels. (A hybrid one's float result takes an
    // epilogue as any float dot.)
    if (op_.attribute(ir::kQuantizedTypesAttribute) != nullptr && !ir::IsFloat(op_.result(0)->type().element_type())) {
      return best;
    }
    uses_ = ir::CountUses(*region);
    const auto& ops = block_.operations();
    for (size_t i = 0; i < ops.size(); ++i) position_[ops[i].get()] = i;
    const size_t start = position_.at(&op_);
    product_ = op_.result(0);
    dims_ = product_->type().dims();
    dependent_.insert(product_);
    for (size_t i = start + 1; i < ops.size(); ++i) {
      const ir::Operation& user = *ops[i];
      bool reads = false;
      for (const ir::Value* v : user.operands()) reads = reads || dependent_.count(v);
      if (!reads) continue;  // not in the subgraph (yet)
      if (!Absorb(user)) break;
      if (absorbed_.size() > kMaxEpilogueOps || inputs_.size() > max_inputs_) break;
      if (Closed(user.result(0))) {
        best.fused = absorbed_;
        best.inputs = inputs_;
        best.result = user.result(0);
      }
    }
    const ir::Value* root = best.result;
    if (Groups(best)) return best;
    // A dot_general's kernel stores through index maps of any strides: a transpose of what is
    // stored, when it is its only use, is stored in place (attention's output,
    // transpose(p @ v, [0, 2, 1, 3]), was a transpose kernel of its own).
    std::vector<int64_t> store_permutation;
    if (const ir::Operation* transpose = OnlyUseOf(best.result, ir::OpCode::kTranspose);
        transpose != nullptr && op_.code() == ir::OpCode::kDotGeneral && absorbed_.size() < kMaxEpilogueOps) {
      store_permutation = ir::AttrInts(*transpose, "permutation");
      best.fused.push_back(transpose);
      best.result = transpose->result(0);
    }
    // Reshapes of what is stored, when they are its only use: a reshape keeps the row-major
    // order, so the kernel stores the reshaped value itself (attention's q, k and v are
    // reshape(x @ w) to [b, s, h, d]; the reshape was a copy kernel of its own).
    while (const ir::Operation* reshape = OnlyUseOf(best.result, ir::OpCode::kReshape)) {
      if (absorbed_.size() >= kMaxEpilogueOps) break;
      best.fused.push_back(reshape);
      best.result = reshape->result(0);
    }
    if (best.fused.empty()) return best;
    Finish(best, root);
    best.epilogue.store_permutation = std::move(store_permutation);
    return best;
  }

 private:
  void Finish(FusedEpilogue& best, const ir::Value* root) const {
    std::sort(best.fused.begin(), best.fused.end(),
              [this](const ir::Operation* a, const ir::Operation* b) { return position_.at(a) < position_.at(b); });
    best.epilogue.product = product_;
    best.epilogue.root = root;
    best.epilogue.inputs = best.inputs;
    best.epilogue.source_name = options_.source_name;
    for (const ir::Value* v : column_values_) {
      if (std::find(best.fused.begin(), best.fused.end(), v->defining_op()) != best.fused.end()) {
        best.epilogue.column_values.push_back(v);
      }
    }
  }

  // What matching changes (Groups tries a second stage and may take it back).
  struct State {
    std::vector<int64_t> dims;
    std::unordered_set<const ir::Value*> dependent, computed;
    std::vector<const ir::Operation*> absorbed;
    std::unordered_map<const ir::Value*, int> absorbed_uses;
    std::vector<const ir::Value*> inputs, column_values;
  };
  State Save() const { return {dims_, dependent_, computed_, absorbed_, absorbed_uses_, inputs_, column_values_}; }
  void Restore(const State& s) {
    dims_ = s.dims;
    dependent_ = s.dependent;
    computed_ = s.computed;
    absorbed_ = s.absorbed;
    absorbed_uses_ = s.absorbed_uses;
    inputs_ = s.inputs;
    column_values_ = s.column_values;
  }

  // Column groups (epilogue.h): the closed epilogue's root (or the product, with none) is read
  // only by G >= 2 slices along its last dimension, of one width, starting at 0, stride,
  // 2 * stride, ...; then the element-wise ops on them join as far as the same rules take
  // them, and every value of theirs used outside is a stored root. On success `best` holds the
  // grouped epilogue; on failure nothing changes.
  bool Groups(FusedEpilogue& best) {
    if (!options_.column_groups || op_.code() != ir::OpCode::kDotGeneral || dims_.size() < 2 || absorbed_.size() != best.fused.size()) return false;
    const ir::Value* sliced = best.fused.empty() ? product_ : best.result;
    const auto& ops = block_.operations();
    const size_t rank = dims_.size();
    std::vector<std::pair<int64_t, const ir::Operation*>> slices;  // (start, slice)
    int64_t width = -1;
    int found_uses = 0;
    for (size_t i = position_.at(sliced->defining_op()) + 1; i < ops.size(); ++i) {
      const ir::Operation& user = *ops[i];
      const int n = static_cast<int>(std::count(user.operands().begin(), user.operands().end(), sliced));
      if (n == 0) continue;
      found_uses += n;
      if (user.code() != ir::OpCode::kSlice || !IsElementalOp(user) || user.num_operands() != 1) return false;
      const std::vector<int64_t> start = ir::AttrInts(user, "start_indices");
      const std::vector<int64_t> limit = ir::AttrInts(user, "limit_indices");
      const std::vector<int64_t> strides = ir::AttrInts(user, "strides");
      if (start.size() != rank || limit.size() != rank || strides.size() != rank) return false;
      for (size_t d = 0; d < rank; ++d) {
        if (strides[d] != 1) return false;
        if (d + 1 < rank && (start[d] != 0 || limit[d] != dims_[d])) return false;
      }
      const int64_t w = limit[rank - 1] - start[rank - 1];
      if (w <= 0 || (width >= 0 && w != width)) return false;
      width = w;
      slices.push_back({start[rank - 1], &user});
    }
    auto total = uses_.find(sliced);
    if (slices.size() < 2 || total == uses_.end() || total->second != found_uses) return false;
    std::sort(slices.begin(), slices.end());
    const int64_t stride = slices[1].first - slices[0].first;
    if (slices[0].first != 0 || stride < width) return false;
    for (size_t g = 0; g < slices.size(); ++g) {
      if (slices[g].first != static_cast<int64_t>(g) * stride) return false;
    }
    // Stage two, on the slices' shape; restored if no root comes out of it.
    const State saved = Save();
    std::unordered_set<const ir::Operation*> members;
    for (const auto& [start, slice] : slices) {
      Add(*slice);
      members.insert(slice);
      dependent_.insert(slice->result(0));
    }
    dims_ = slices[0].second->result(0)->type().dims();
    size_t last = 0;
    for (const auto& [start, slice] : slices) last = std::max(last, position_.at(slice));
    for (size_t i = position_.at(slices[0].second) + 1; i < ops.size(); ++i) {
      const ir::Operation& user = *ops[i];
      if (members.count(&user)) continue;
      bool reads = false;
      for (const ir::Value* v : user.operands()) reads = reads || dependent_.count(v);
      if (!reads) continue;
      // (Absorb may take side values for some operands before failing on another.)
      const State before = Save();
      if (!Absorb(user) || absorbed_.size() > kMaxEpilogueOps || inputs_.size() > max_inputs_) {
        Restore(before);
        break;
      }
      members.insert(&user);
      last = i;
    }
    // The roots: absorbed values used by anything else, which must come after the kernel (it
    // runs at the last absorbed op's place).
    ColumnGroups groups;
    for (const auto& [start, slice] : slices) groups.slices.push_back(slice->result(0));
    groups.width = width;
    groups.stride = stride;
    bool ok = absorbed_.size() <= kMaxEpilogueOps && inputs_.size() <= max_inputs_;
    for (const ir::Operation* o : absorbed_) {
      const ir::Value* v = o->result(0);
      auto n = uses_.find(v);
      auto inside = absorbed_uses_.find(v);
      const int outside = (n == uses_.end() ? 0 : n->second) - (inside == absorbed_uses_.end() ? 0 : inside->second);
      if (outside <= 0) continue;
      // Only the slices and what is computed from them are stored (of the slices' shape).
      ok = ok && members.count(o) && v->type().dims() == dims_;
      groups.roots.push_back(v);
    }
    for (size_t i = position_.at(&op_) + 1; ok && i < last; ++i) {
      const ir::Operation& other = *ops[i];
      if (std::find(absorbed_.begin(), absorbed_.end(), &other) != absorbed_.end()) continue;
      for (const ir::Value* root : groups.roots) {
        ok = ok && other.num_regions() == 0 &&
             std::find(other.operands().begin(), other.operands().end(), root) == other.operands().end();
      }
    }
    ok = ok && !groups.roots.empty();
    if (!ok) {
      Restore(saved);
      return false;
    }
    std::sort(groups.roots.begin(), groups.roots.end(), [this](const ir::Value* a, const ir::Value* b) {
      return position_.at(a->defining_op()) < position_.at(b->defining_op());
    });
    best.fused = absorbed_;
    best.inputs = inputs_;
    best.result = groups.roots.front();
    Finish(best, sliced);
    best.epilogue.groups = std::move(groups);
    return true;
  }

  // `user` (reading the product or a value computed from it) as an op of the subgraph.
  bool Absorb(const ir::Operation& user) {
    if (!IsElementalOp(user) || user.info().kind != ir::OpKind::kElementwise || user.num_results() != 1 ||
        user.num_regions() != 0 || user.result(0)->type().dims() != dims_) {
      return false;
    }
    for (const ir::Value* v : user.operands()) {
      if (dependent_.count(v)) {
        if (v->type().dims() != dims_) return false;
      } else if (!Side(v)) {
        return false;
      }
    }
    Add(user);
    dependent_.insert(user.result(0));
    return true;
  }

  // The reshape or transpose (`code`) of `v` to the same element type in this block, when it is
  // v's only use.
  const ir::Operation* OnlyUseOf(const ir::Value* v, ir::OpCode code) const {
    auto n = uses_.find(v);
    const ir::Operation* def = v->defining_op();
    if (n == uses_.end() || n->second != 1 || def == nullptr || def->parent_block() != &block_) return nullptr;
    const auto& ops = block_.operations();
    for (size_t i = position_.at(def) + 1; i < ops.size(); ++i) {
      const ir::Operation& user = *ops[i];
      if (std::find(user.operands().begin(), user.operands().end(), v) == user.operands().end()) continue;
      const bool layout = user.code() == code && user.num_operands() == 1 && IsElementalOp(user) &&
                          user.result(0)->type().element_type() == v->type().element_type() &&
                          user.result(0)->type().is_static() && v->type().is_static();
      return layout ? &user : nullptr;
    }
    return nullptr;
  }

  // Whether `v` exists before the kernel runs (an argument, a value from outside the block or
  // of an op before the product).
  bool Before(const ir::Value* v) const {
    const ir::Operation* def = v->defining_op();
    return def == nullptr || def->parent_block() != &block_ || position_.at(def) < position_.at(&op_);
  }

  // Whether `v` is an index-only expression (broadcast_in_dim / reshape / convert / slice /
  // dynamic_slice chains) of small constants and values that exist before the kernel runs: the
  // emitter computes it inline from those, so its ops need not be absorbed (other kernels may
  // compute them too: a bias broadcast read twice, `broadcast_in_dim` of a scalar 0). Adds the
  // values read to `leaves`. A chain the block computes before the product is followed too, so
  // that nothing stores it only for the epilogue to read (a scan step's slice of a product
  // hoisted out of its loop, hoist_loop_products.cc, is read from that product).
  bool IndexExpression(const ir::Value* v, std::vector<const ir::Value*>& leaves, int depth = 0) const {
    const ir::Operation* def = v->defining_op();
    if (def != nullptr && def->parent_block() == &block_ && InlineConstant(*def)) return true;
    if (def != nullptr && def->parent_block() == &block_ && depth <= 16 && IsIndexOp(*def)) {
      std::vector<const ir::Value*> inner;
      bool ok = true;
      for (const ir::Value* operand : def->operands()) ok = ok && IndexExpression(operand, inner, depth + 1);
      // (Before the product, only when what it reads is in memory anyway: a slice of a huge
      // fused value stays a small stored input.)
      if (ok && Before(v)) {
        for (const ir::Value* leaf : inner) ok = ok && Stored(leaf);
      }
      if (ok) {
        leaves.insert(leaves.end(), inner.begin(), inner.end());
        return true;
      }
    }
    if (Before(v)) {
      leaves.push_back(v);
      return true;
    }
    return false;
  }

  // Whether `v` has a buffer whatever the epilogue does: an argument, a value from outside the
  // block (read inside a region, so stored), or the result of an op that is not elemental.
  bool Stored(const ir::Value* v) const {
    const ir::Operation* def = v->defining_op();
    return def == nullptr || def->parent_block() != &block_ || !IsElementalOp(*def);
  }

  // Ops an index expression may chain: data movement the emitter evaluates at an index (a
  // dynamic_slice's start indices are scalars, themselves index expressions), and converts.
  static bool IsIndexOp(const ir::Operation& def) {
    if (!IsElementalOp(def)) return false;
    switch (def.code()) {
      case ir::OpCode::kBroadcastInDim:
      case ir::OpCode::kReshape:
      case ir::OpCode::kConvert:
      case ir::OpCode::kSlice: return def.num_operands() == 1;
      case ir::OpCode::kDynamicSlice: return true;
      default: return false;
    }
  }

  // How the epilogue gets `v`, a value not computed from the product: read from input
  // buffers (through index-only expressions), an inline constant, or computed per element by
  // absorbed ops.
  bool Side(const ir::Value* v) {
    if (computed_.count(v) || dependent_.count(v)) return true;
    if (ColumnValue(v)) return true;
    std::vector<const ir::Value*> leaves;
    if (IndexExpression(v, leaves)) {
      for (const ir::Value* leaf : leaves) {
        if (std::find(inputs_.begin(), inputs_.end(), leaf) == inputs_.end()) inputs_.push_back(leaf);
      }
      return true;
    }
    const ir::Operation* def = v->defining_op();
    if (SideComputable(*def) && def->num_results() == 1 && (options_.side_library_calls || !LibraryCall(*def))) {
      bool ok = true;
      for (const ir::Value* operand : def->operands()) ok = ok && Side(operand);
      if (ok) {
        Add(*def);
        computed_.insert(v);
        return true;
      }
    }
    // Computed by its own kernel (the planner runs this one after it).
    if (!Independent(v)) return false;
    if (std::find(inputs_.begin(), inputs_.end(), v) == inputs_.end()) inputs_.push_back(v);
    return true;
  }

  // A side value of the product's shape that varies only along its last dimension, computed
  // with library calls (batch norm's scale rsqrt(var + eps) * gamma, broadcast along the
  // channels): a chain of broadcast_in_dim / reshape from a vector of the last dimension's
  // size, each op's result used once, the vector computed per element from values that exist
  // before the kernel. Its ops join; the kernel computes it once per tile column
  // (Epilogue::column_values) instead of in a kernel of its own.
  bool ColumnValue(const ir::Value* v) {
    if (!options_.column_values || !ColumnsAreLastDimension() || v->type().dims() != dims_) return false;
    std::vector<const ir::Operation*> chain;
    const ir::Value* x = v;
    int64_t channel = static_cast<int64_t>(dims_.size()) - 1;  // the dimension of x the columns run along
    while (x->type().rank() != 1 || x->type().dims()[0] != dims_.back()) {
      const ir::Operation* def = x->defining_op();
      if (def == nullptr || def->parent_block() != &block_ || !IsElementalOp(*def) || def->num_operands() != 1 ||
          UsesOf(x) != 1 || chain.size() > 8) {
        return false;
      }
      const ir::Type& in = def->operand(0)->type();
      int64_t next = -1;
      if (def->code() == ir::OpCode::kBroadcastInDim) {
        const std::vector<int64_t> map = ir::AttrInts(*def, "broadcast_dimensions");
        for (size_t d = 0; d < map.size(); ++d) {
          if (map[d] == channel) next = static_cast<int64_t>(d);
          else if (in.dims()[d] != 1) return false;  // varies along another dimension
        }
      } else if (def->code() == ir::OpCode::kReshape) {
        for (int64_t d = 0; d < in.rank(); ++d) {
          if (in.dims()[static_cast<size_t>(d)] == 1) continue;
          if (next >= 0 || in.dims()[static_cast<size_t>(d)] != dims_.back()) return false;
          next = d;
        }
        if (x->type().num_elements() != dims_.back()) return false;  // only the channels, and size-1 dims
      } else {
        return false;
      }
      if (next < 0 || in.dims()[static_cast<size_t>(next)] != dims_.back()) return false;
      chain.push_back(def);
      channel = next;
      x = def->operand(0);
    }
    // The vector: worth a column value only when computing it calls the GLSL library.
    const ir::Operation* def = x->defining_op();
    if (chain.empty() || def == nullptr || def->parent_block() != &block_ || UsesOf(x) != 1 || Before(x)) return false;
    const State saved = Save();
    const size_t absorbed_before = absorbed_.size();
    bool ok = SideVector(x), calls = false;
    // Every op it took is used once (by the chain): nothing else needs the vector.
    for (size_t i = absorbed_before; ok && i < absorbed_.size(); ++i) {
      ok = UsesOf(absorbed_[i]->result(0)) == 1;
      calls = calls || LibraryCall(*absorbed_[i]);
    }
    ok = ok && calls;
    if (!ok) {
      Restore(saved);
      return false;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      Add(**it);
      computed_.insert((*it)->result(0));
    }
    column_values_.push_back(v);
    return true;
  }

  // `x` computed per element by side ops, library calls allowed (ColumnValue's vector).
  bool SideVector(const ir::Value* x) {
    const ir::Operation* def = x->defining_op();
    if (!SideComputable(*def) || def->num_results() != 1 || def->code() == ir::OpCode::kConstant) return false;
    for (const ir::Value* operand : def->operands()) {
      if (computed_.count(operand) || dependent_.count(operand)) return false;
      std::vector<const ir::Value*> leaves;
      if (IndexExpression(operand, leaves)) {
        for (const ir::Value* leaf : leaves) {
          if (std::find(inputs_.begin(), inputs_.end(), leaf) == inputs_.end()) inputs_.push_back(leaf);
        }
        continue;
      }
      if (operand->defining_op() == nullptr || UsesOf(operand) != 1 || !SideVector(operand)) return false;
    }
    Add(*def);
    computed_.insert(x);
    return true;
  }

  // Whether the product's last dimension is the kernel's column side (so a value varying only
  // along it is constant along each tile column): a dot_general with an rhs free dimension, a
  // convolution whose output features are its last dimension.
  bool ColumnsAreLastDimension() const {
    if (op_.code() == ir::OpCode::kDotGeneral) {
      const ir::Attribute* a = op_.attribute("dot_dimension_numbers");
      const ir::DotDimensionNumbers* dn = a ? a->as<ir::DotDimensionNumbers>() : nullptr;
      return dn != nullptr && dn->rhs_batching_dimensions.size() + dn->rhs_contracting_dimensions.size() <
                                  static_cast<size_t>(op_.operand(1)->type().rank());
    }
    if (op_.code() == ir::OpCode::kConvolution) {
      const ir::Attribute* a = op_.attribute("dimension_numbers");
      const ir::ConvDimensionNumbers* cn = a ? a->as<ir::ConvDimensionNumbers>() : nullptr;
      return cn != nullptr && cn->output_feature_dimension == static_cast<int64_t>(dims_.size()) - 1;
    }
    return false;
  }

  int UsesOf(const ir::Value* v) const {
    auto n = uses_.find(v);
    return n == uses_.end() ? 0 : n->second;
  }

  // Whether `v` (defined after the product) is computed without it.
  bool Independent(const ir::Value* v) {
    std::vector<const ir::Value*> stack = {v};
    std::unordered_set<const ir::Value*> seen;
    while (!stack.empty()) {
      const ir::Value* x = stack.back();
      stack.pop_back();
      if (!seen.insert(x).second || Before(x)) continue;
      if (dependent_.count(x)) return false;
      const ir::Operation* def = x->defining_op();
      if (def->num_regions() != 0) return false;  // values its regions read are not followed
      for (const ir::Value* operand : def->operands()) stack.push_back(operand);
    }
    return true;
  }

  void Add(const ir::Operation& o) {
    absorbed_.push_back(&o);
    for (const ir::Value* v : o.operands()) ++absorbed_uses_[v];
  }

  // Whether every absorbed value but `root` is used only by absorbed ops.
  bool Closed(const ir::Value* root) const {
    for (const ir::Operation* o : absorbed_) {
      const ir::Value* v = o->result(0);
      if (v == root) continue;
      auto total = uses_.find(v);
      auto inside = absorbed_uses_.find(v);
      const int n = total == uses_.end() ? 0 : total->second;
      if (n != (inside == absorbed_uses_.end() ? 0 : inside->second)) return false;
    }
    auto total = uses_.find(product_);
    auto inside = absorbed_uses_.find(product_);
    return total != uses_.end() && inside != absorbed_uses_.end() && total->second == inside->second;
  }

  const ir::Block& block_;
  const ir::Operation& op_;
  const EpilogueMatchOptions& options_;
  const size_t max_inputs_;
  std::unordered_map<const ir::Value*, int> uses_;
  std::unordered_map<const ir::Operation*, size_t> position_;
  const ir::Value* product_ = nullptr;
  std::vector<int64_t> dims_;
  std::unordered_set<const ir::Value*> dependent_;  // the product and values computed from it
  std::unordered_set<const ir::Value*> computed_;   // side values computed per element
  std::vector<const ir::Operation*> absorbed_;
  std::unordered_map<const ir::Value*, int> absorbed_uses_;
  std::vector<const ir::Value*> inputs_;
  std::vector<const ir::Value*> column_values_;
};

}  // namespace

FusedEpilogue MatchEpilogue(const ir::Block& block, const ir::Operation& op, const EpilogueMatchOptions& options) {
  return Matcher(block, op, options).Run();
}

}  // namespace vkhlo::codegen::library
