#include "passes/symbols.h"

#include <vector>

#include "ir/walk.h"

namespace vkhlo::passes {
namespace {

void CollectSymbols(const ir::Attribute& attribute, std::unordered_set<std::string>& out) {
  if (const auto* symbol = attribute.as<ir::SymbolRef>()) out.insert(symbol->name);
  if (const auto* array = attribute.as<ir::Attribute::Array>()) {
    for (const auto& element : *array) CollectSymbols(element, out);
  }
  if (const auto* dictionary = attribute.as<ir::Attribute::Dictionary>()) {
    for (const auto& [name, element] : *dictionary) CollectSymbols(element, out);
  }
}

}  // namespace

std::unordered_set<std::string> ReferencedSymbols(const ir::Module& module) {
  std::unordered_set<std::string> referenced;
  ir::WalkOps(module, [&](ir::Operation& op) {
    for (const auto& [name, attribute] : op.attributes()) CollectSymbols(attribute, referenced);
  });
  return referenced;
}

bool RemoveUnreferencedPrivateFunctions(ir::Module& module) {
  bool removed_any = false;
  while (true) {
    const std::unordered_set<std::string> referenced = ReferencedSymbols(module);
    std::vector<std::string> dead;
    for (const auto& function : module.functions()) {
      if (!function->is_public() && !referenced.contains(function->name())) {
        dead.push_back(function->name());
      }
    }
    if (dead.empty()) return removed_any;
    for (const std::string& name : dead) module.RemoveFunction(name);
    removed_any = true;
  }
}

}  // namespace vkhlo::passes
