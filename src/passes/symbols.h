// Symbol references between functions (func.call's callee, a composite's decomposition), for
// the passes that remove functions.
#pragma once

#include <string>
#include <unordered_set>

#include "ir/module.h"

namespace vkhlo::passes {

// The names every symbol attribute of every op in `module` refers to.
std::unordered_set<std::string> ReferencedSymbols(const ir::Module& module);

// Removes private functions nothing refers to, repeatedly (removing one can orphan the ones
// only it called). Returns whether any was removed.
bool RemoveUnreferencedPrivateFunctions(ir::Module& module);

}  // namespace vkhlo::passes
