#include "codegen/sort/sort_comparator.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "ir/walk.h"

namespace vkhlo::codegen {

StatusOr<SortComparatorSource> EmitSortComparator(const ir::Operation& sort,
                                                  const std::vector<const ir::Value*>& inputs,
                                                  const TargetInfo& target, const KernelOptions& options) {
  if (sort.num_regions() != 1 || sort.region(0).blocks().size() != 1) {
    return InvalidArgumentError(fmt::format("'{}' needs a comparator region with one block", sort.name()));
  }
  const ir::Block& block = sort.region(0).front();
  const size_t n = sort.num_operands();
  if (block.num_arguments() != 2 * n) {
    return InvalidArgumentError(fmt::format("'{}' has a comparator with {} arguments; it needs {}", sort.name(),
                                            block.num_arguments(), 2 * n));
  }
  const ir::Operation* terminator = block.back();
  if (terminator == nullptr || terminator->num_operands() != 1) {
    return InvalidArgumentError(fmt::format("'{}' has a comparator that does not return one value", sort.name()));
  }

  ShaderPrelude prelude;
  ElementalEmitter em(target, prelude, ElementalEmitter::InputsInOrder(inputs));
  em.set_source_name(options.source_name);
  ElementalEmitter loads(target, prelude, [](const ir::Value*) -> std::optional<InputBinding> { return std::nullopt; });
  // The operands the comparator reads (its arguments used anywhere in the region): the key.
  std::vector<bool> read(n, false);
  ir::WalkOps(sort.region(0), [&](ir::Operation& inner) {
    for (size_t i = 0; i < inner.num_operands(); ++i) {
      const ir::Value* v = inner.operand(i);
      if (v->is_block_argument() && v->owner_block() == &block) read[static_cast<size_t>(v->index()) / 2] = true;
    }
  });
  std::string fields, zero, fill;
  for (size_t k = 0; k < n; ++k) {
    if (!read[k]) continue;
    const ir::Value* operand = sort.operand(k);
    const auto it = std::find(inputs.begin(), inputs.end(), operand);
    if (it == inputs.end()) return InternalError("sort: an operand is not among the kernel's inputs");
    const std::string array = fmt::format("in{}", it - inputs.begin());
    const ir::Type& type = operand->type();
    const TypeFacts& facts = em.Facts(type.element_type());
    fields += fmt::format(" {} k{};", facts.raw_glsl, k);
    zero += std::string(zero.empty() ? "" : ", ") + fmt::format("{}(0u)", facts.raw_glsl);
    fill += fmt::format("  key.k{} = {};\n", k, loads.LoadWords(array, type.element_type(), Index::Linear(type.dims(), "l")).code);
    em.Bind(block.argument(2 * k), Expr{fmt::format("ka.k{}", k), type.element_type(), true});
    em.Bind(block.argument(2 * k + 1), Expr{fmt::format("kb.k{}", k), type.element_type(), true});
  }
  if (fields.empty()) {  // a comparator that reads no operand
    fields = " uint unused;";
    zero = "0u";
  }
  VKHLO_ASSIGN_OR_RETURN(Expr result, em.Emit(terminator->operand(0), Index::Scalar()));
  VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(result));
  if (!em.sticky_error().ok()) return em.sticky_error();
  if (value.type != ir::ElementType::kI1) {
    return InvalidArgumentError(fmt::format("'{}' has a comparator that does not return i1", sort.name()));
  }

  SortComparatorSource source;
  source.extensions = prelude.extensions();
  std::string& g = source.globals;
  for (const std::string& file : prelude.includes()) g += fmt::format("#include \"{}\"\n", file);
  for (const std::string& helper : prelude.helpers()) g += helper + "\n";
  for (const std::string& global : prelude.globals()) g += global + "\n";
  g += "struct VkhloSortKey {" + fields + " };\n";
  g += "VkhloSortKey vkhlo_sort_key(uint l) {\n" + loads.body() + "  VkhloSortKey key;\n" + fill + "  return key;\n}\n";
  g += "bool vkhlo_sort_cmp_keys(VkhloSortKey ka, VkhloSortKey kb) {\n" + em.body() +
       fmt::format("  return {};\n}}\n", value.code);
  // The order built on these is shaders/sort/sort_order.glsl, included by the kernels.
  g += "#define VKHLO_SORT_PADDING_KEY VkhloSortKey(" + zero + ")\n";
  return source;
}

}  // namespace vkhlo::codegen
