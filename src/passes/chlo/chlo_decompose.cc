// chlo-decompose: rewrites every chlo op into StableHLO (the interpreter and the GPU path only
// know StableHLO). Each op kind has its rewrite in one of the files of this folder; this file
// walks the module and splices the rewrites in.
//
// Ops are rewritten innermost first (an op's regions before the op), so a chlo.scan whose body
// holds chlo ops clones an already decomposed body (its uses are rewritten first). Replaced values are mapped in one table
// and the uses rewritten once per function at the end; the replaced ops are kept alive until
// then, so the map's keys stay valid.
#include <fmt/format.h>

#include "ir/walk.h"
#include "passes/chlo/rewrites.h"
#include "passes/passes.h"

namespace vkhlo::passes {
namespace chlo {

Status RewriteError(const ir::Operation& op, std::string_view message) {
  const ir::Function* function = op.parent_function();
  const std::string where = ir::FormatLocation(
      function != nullptr && function->parent() != nullptr ? function->parent()->source_name() : "", op.location());
  return InvalidArgumentError(fmt::format("{}{}error: '{}' cannot be decomposed: {}", where,
                                          where.empty() ? "" : ": ", op.name(), message));
}

namespace {

const RewriteTable& Rewrites() {
  static const RewriteTable* table = [] {
    auto* t = new RewriteTable();
    AddBasicRewrites(*t);
    AddBroadcastRewrites(*t);
    AddErfRewrites(*t);
    AddGammaRewrites(*t);
    AddBesselRewrites(*t);
    AddInverseTrigRewrites(*t);
    AddHyperbolicRewrites(*t);
    AddTopKRewrites(*t);
    AddScanRewrites(*t);
    AddRaggedDotRewrites(*t);
    return t;
  }();
  return *table;
}

struct State {
  ir::ValueMap replacements;
  std::vector<std::unique_ptr<ir::Operation>> replaced;  // kept alive until uses are rewritten
  bool changed = false;
};

Status DecomposeRegion(ir::Region& region, State& state) {
  for (const auto& block : region.blocks()) {
    for (size_t i = 0; i < block->operations().size(); ++i) {
      ir::Operation& op = *block->operations()[i];
      for (size_t r = 0; r < op.num_regions(); ++r) VKHLO_RETURN_IF_ERROR(DecomposeRegion(op.region(r), state));
      if (op.info().kind != ir::OpKind::kChlo) continue;
      auto rewrite = Rewrites().find(op.code());
      if (rewrite == Rewrites().end()) return RewriteError(op, "no decomposition is known");
      // A region the rewrite will clone (chlo.scan's body) must refer to the decomposed values.
      for (size_t r = 0; r < op.num_regions(); ++r) ir::ReplaceUses(op.region(r), state.replacements);
      OpBuilder b(*block, i, op.location());
      auto results = rewrite->second(b, op);
      if (!results.ok()) return results.status();
      if (!b.ok()) return RewriteError(op, b.status().message());
      if (results->size() != op.num_results()) return RewriteError(op, "the rewrite produced the wrong number of values");
      for (size_t k = 0; k < results->size(); ++k) {
        if ((*results)[k]->type() != op.result(k)->type()) {
          return RewriteError(op, fmt::format("the rewrite produced {} for result {} of type {}",
                                              (*results)[k]->type().ToString(), k, op.result(k)->type().ToString()));
        }
        state.replacements[op.result(k)] = (*results)[k];
      }
      i = b.position();  // the op, now after the inserted ops
      state.replaced.push_back(block->Remove(i));
      --i;
      state.changed = true;
    }
  }
  return OkStatus();
}

class ChloDecompose : public Pass {
 public:
  std::string_view name() const override { return "chlo-decompose"; }

  StatusOr<bool> Run(ir::Module& module) override {
    bool changed = false;
    for (const auto& function : module.functions()) {
      State state;
      VKHLO_RETURN_IF_ERROR(DecomposeRegion(function->body(), state));
      if (!state.replacements.empty()) ir::ReplaceUses(function->body(), state.replacements);
      changed |= state.changed;
    }
    return changed;
  }
};

}  // namespace
}  // namespace chlo

std::unique_ptr<Pass> CreateChloDecomposePass() { return std::make_unique<chlo::ChloDecompose>(); }

}  // namespace vkhlo::passes
