// VerifyModule: the program's structure around the ops. Function names are unique; a function
// body is one block whose arguments are the function's inputs and which ends with func.return;
// every block of an op's region ends with stablehlo.return; terminators end their blocks;
// values are used only where they are visible (defined earlier in the same block or in an
// enclosing one: SSA dominance); and every op passes VerifyOperation (which also checks calls
// against the module's functions).
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "verify/diagnostic.h"
#include "verify/op_context.h"
#include "verify/verifier.h"

namespace vkhlo::verify {
namespace {

// Deeper nesting than this is refused rather than risking the stack.
constexpr int kMaxRegionDepth = 512;

class ModuleVerifier {
 public:
  explicit ModuleVerifier(const ir::Module& module) : module_(module) {}

  Status Run() {
    std::unordered_map<std::string, int> seen;
    for (const auto& function : module_.functions()) {
      if (++seen[function->name()] == 2) {
        return FunctionError(*function, "function names must be unique",
                             fmt::format("one function named @{}", function->name()), "a second one");
      }
    }
    for (const auto& function : module_.functions()) VKHLO_RETURN_IF_ERROR(VerifyFunction(*function));
    return OkStatus();
  }

 private:
  Status FunctionError(const ir::Function& function, std::string_view what, std::string_view expected,
                       std::string_view found) const {
    return MakeError(LocationPrefix(module_.source_name(), function.location()), "func.func",
                     fmt::format("@{}: {}", function.name(), what), expected, found);
  }

  Status OpError(const ir::Operation& op, std::string_view what, std::string_view expected,
                 std::string_view found) const {
    return MakeError(LocationPrefix(op), op.name(), what, expected, found);
  }

  Status VerifyFunction(const ir::Function& function) {
    const ir::FunctionType& type = function.type();
    for (const auto* list : {&type.inputs, &type.results}) {
      for (const ir::Type& t : *list) {
        std::string defect = TypeDefect(t);
        if (!defect.empty()) return FunctionError(function, "signature has an invalid type", defect, t.ToString());
      }
    }
    const ir::Region& body = function.body();
    if (body.empty()) return OkStatus();  // a declaration
    if (body.blocks().size() != 1) {
      return FunctionError(function, "body must have one block", "1 block",
                           fmt::format("{} blocks", body.blocks().size()));
    }
    const ir::Block& block = body.front();
    std::vector<ir::Type> arguments;
    for (const auto& argument : block.arguments()) arguments.push_back(argument->type());
    if (arguments != type.inputs) {
      return FunctionError(function, "block arguments must match the function's inputs",
                           TypeListToString(type.inputs), TypeListToString(arguments));
    }
    const ir::Operation* last = block.back();
    if (last == nullptr || last->code() != ir::OpCode::kFuncReturn) {
      return FunctionError(function, "body must end with 'func.return'", "func.return",
                           last == nullptr ? std::string("an empty body") : std::string(last->name()));
    }
    visible_.clear();
    return VerifyBlock(block, 0);
  }

  Status VerifyBlock(const ir::Block& block, int depth) {
    std::vector<const ir::Value*> added;
    auto add = [&](const ir::Value* value) {
      if (visible_.insert(value).second) added.push_back(value);
    };
    for (const auto& argument : block.arguments()) add(argument.get());
    Status status = VerifyOps(block, depth, add);
    for (const ir::Value* value : added) visible_.erase(value);
    return status;
  }

  template <typename Add>
  Status VerifyOps(const ir::Block& block, int depth, Add& add) {
    const auto& ops = block.operations();
    for (size_t position = 0; position < ops.size(); ++position) {
      const ir::Operation& op = *ops[position];
      const bool terminator = op.code() == ir::OpCode::kFuncReturn || op.code() == ir::OpCode::kReturn;
      if (terminator && position + 1 != ops.size()) {
        return OpError(op, "must be the last op of its block", "no ops after it",
                       fmt::format("'{}'", ops[position + 1]->name()));
      }
      for (size_t i = 0; i < op.num_operands(); ++i) {
        const ir::Value* value = op.operand(i);
        if (value == nullptr) return OpError(op, fmt::format("operand #{} is missing", i), "a value", "none");
        if (visible_.count(value) == 0) {
          return OpError(op, fmt::format("operand #{} must be defined before its use (SSA dominance)", i),
                         "a value defined earlier in the same block or in an enclosing region", ValueName(value));
        }
      }
      VKHLO_RETURN_IF_ERROR(VerifyRegionStructure(op, depth));
      VKHLO_RETURN_IF_ERROR(VerifyOperation(op));
      for (size_t r = 0; r < op.num_regions(); ++r) {
        for (const auto& inner : op.region(r).blocks()) VKHLO_RETURN_IF_ERROR(VerifyBlock(*inner, depth + 1));
      }
      for (size_t i = 0; i < op.num_results(); ++i) add(op.result(i));
    }
    return OkStatus();
  }

  // Every block of an op's regions ends with stablehlo.return and has well-formed arguments.
  Status VerifyRegionStructure(const ir::Operation& op, int depth) const {
    if (op.num_regions() > 0 && depth >= kMaxRegionDepth) {
      return OpError(op, "regions are nested too deeply", fmt::format("at most {} levels", kMaxRegionDepth),
                     "more");
    }
    for (size_t r = 0; r < op.num_regions(); ++r) {
      for (const auto& block : op.region(r).blocks()) {
        const ir::Operation* last = block->back();
        if (last == nullptr || last->code() != ir::OpCode::kReturn) {
          return OpError(op, fmt::format("region #{} must end with 'stablehlo.return'", r), "stablehlo.return",
                         last == nullptr ? std::string("an empty block") : std::string(last->name()));
        }
        for (const auto& argument : block->arguments()) {
          std::string defect = TypeDefect(argument->type());
          if (!defect.empty()) {
            return OpError(op, fmt::format("region #{} has an argument of invalid type", r), defect,
                           argument->type().ToString());
          }
        }
      }
    }
    return OkStatus();
  }

  const ir::Module& module_;
  std::unordered_set<const ir::Value*> visible_;
};

}  // namespace

Status VerifyModule(const ir::Module& module) { return ModuleVerifier(module).Run(); }

}  // namespace vkhlo::verify
