#include "codegen/sort/sort_comparator.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace vkhlo::codegen {

StatusOr<SortComparatorSource> EmitSortComparator(const ir::Operation& sort, const SortGeometry& geometry,
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
  std::unordered_map<const ir::Value*, InputBinding> bindings;
  for (size_t i = 0; i < inputs.size(); ++i) bindings[inputs[i]] = InputBinding{static_cast<int>(i), inputs[i]->type().element_type()};

  KernelPrelude prelude;
  ElementalEmitter em(target, prelude, [&](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = bindings.find(v);
    if (it == bindings.end()) return std::nullopt;
    return it->second;
  });
  em.set_source_name(options.source_name);
  for (size_t k = 0; k < n; ++k) {
    const ir::Value* operand = sort.operand(k);
    const auto it = std::find(inputs.begin(), inputs.end(), operand);
    if (it == inputs.end()) return InternalError("sort: an operand is not among the kernel's inputs");
    const std::string array = fmt::format("in{}", it - inputs.begin());
    const ir::Type& type = operand->type();
    em.Bind(block.argument(2 * k), em.LoadWords(array, type.element_type(), Index::Linear(type.dims(), "la")));
    em.Bind(block.argument(2 * k + 1), em.LoadWords(array, type.element_type(), Index::Linear(type.dims(), "lb")));
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
  g += "bool vkhlo_sort_cmp(uint la, uint lb) {\n" + em.body() + fmt::format("  return {};\n}}\n", value.code);
  g += fmt::format(
      "bool vkhlo_sort_before(uint row_base, uint a, uint b) {{\n"
      "  if (a == 0xffffffffu) return false;\n"
      "  if (b == 0xffffffffu) return true;\n"
      "  uint la = row_base + a * {0}u, lb = row_base + b * {0}u;\n"
      "  return a < b ? !vkhlo_sort_cmp(lb, la) : vkhlo_sort_cmp(la, lb);\n"
      "}}\n",
      geometry.inner);
  return source;
}

}  // namespace vkhlo::codegen
