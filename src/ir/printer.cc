#include "ir/printer.h"

#include <string_view>
#include <unordered_map>

namespace vkhlo::ir {
namespace {

// Names every value of one function (or of one detached op tree) before anything is printed, so
// a use that appears before its definition in the text (broken IR) still gets the right name.
// Numbering follows the text: block arguments %argN and op results %N in order of appearance,
// an op's results before the contents of its regions. A k-result op takes k numbers (%N:k, used
// as %N#0 .. %N#(k-1)), so every result has its own number.
class Namer {
 public:
  void NumberFunction(const Function& function) { NumberRegion(function.body()); }

  void NumberOp(const Operation& op) {
    if (op.num_results() == 1) {
      names_[op.result(0)] = "%" + std::to_string(next_value_);
    } else if (op.num_results() > 1) {
      for (size_t i = 0; i < op.num_results(); ++i) {
        names_[op.result(i)] = "%" + std::to_string(next_value_) + "#" + std::to_string(i);
      }
    }
    if (op.num_results() > 0) {
      group_[&op] = "%" + std::to_string(next_value_);
      next_value_ += static_cast<int>(op.num_results());
    }
    for (size_t i = 0; i < op.num_regions(); ++i) NumberRegion(op.region(i));
  }

  // "%3", "%1#0", "%arg2"; values defined outside what was numbered print as %<unknown>.
  std::string Name(const Value* value) const {
    if (value == nullptr) return "%<null>";
    auto it = names_.find(value);
    return it == names_.end() ? "%<unknown>" : it->second;
  }

  // What precedes " = " on the op's line: "%3" or "%1:2"; empty for an op without results.
  std::string Definition(const Operation& op) const {
    if (op.num_results() == 0) return "";
    auto it = group_.find(&op);
    std::string base = it == group_.end() ? "%<unknown>" : it->second;
    if (op.num_results() > 1) base += ":" + std::to_string(op.num_results());
    return base;
  }

 private:
  void NumberRegion(const Region& region) {
    for (const auto& block : region.blocks()) {
      for (const auto& arg : block->arguments()) {
        names_[arg.get()] = "%arg" + std::to_string(next_arg_++);
      }
      for (const auto& op : block->operations()) NumberOp(*op);
    }
  }

  std::unordered_map<const Value*, std::string> names_;
  std::unordered_map<const Operation*, std::string> group_;
  int next_value_ = 0;
  int next_arg_ = 0;
};

// "@name", or "@\"name\"" when the name is not a bare identifier (the attribute printer knows
// the quoting rules).
std::string SymbolName(const std::string& name) { return Attribute::Symbol(name).ToString(); }

std::string TypeOf(const Value* value) { return value ? value->type().ToString() : Type().ToString(); }

class Printer {
 public:
  explicit Printer(const Namer& namer) : namer_(namer) {}

  void PrintFunction(const Function& f, int indent) {
    Indent(indent);
    out_ += "func.func ";
    if (!f.visibility().empty()) out_ += f.visibility() + " ";
    out_ += SymbolName(f.name());
    const bool is_declaration = f.body().empty();
    const Block* entry = is_declaration ? nullptr : &f.body().front();

    out_ += "(";
    const auto& inputs = f.type().inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (i) out_ += ", ";
      // A declaration has no argument values: MLIR writes only the types.
      if (entry != nullptr) {
        out_ += i < entry->num_arguments() ? namer_.Name(entry->argument(i)) : "%<unknown>";
        out_ += ": ";
      }
      out_ += inputs[i].ToString();
      AppendArgDictionary(f.arg_attributes(), i);
    }
    out_ += ") -> ";

    // A single result without attributes prints bare, as FunctionType does; attributes need
    // the parenthesized list.
    const auto& results = f.type().results;
    bool any_result_attrs = false;
    for (const auto& dict : f.result_attributes()) any_result_attrs |= !dict.empty();
    if (results.size() == 1 && !results[0].is_tuple() && !any_result_attrs) {
      out_ += results[0].ToString();
    } else {
      out_ += "(";
      for (size_t i = 0; i < results.size(); ++i) {
        if (i) out_ += ", ";
        out_ += results[i].ToString();
        AppendArgDictionary(f.result_attributes(), i);
      }
      out_ += ")";
    }
    if (!f.attributes().empty()) out_ += " attributes " + DictionaryToString(f.attributes());

    if (is_declaration) {
      out_ += "\n";
      return;
    }
    out_ += " {\n";
    // The entry block's arguments are the signature's; later blocks (not produced by StableHLO,
    // but representable) get labels.
    PrintBlocks(f.body(), indent, /*entry_label=*/false);
    Indent(indent);
    out_ += "}\n";
  }

  void PrintOperation(const Operation& op, int indent) {
    Indent(indent);
    std::string def = namer_.Definition(op);
    if (!def.empty()) out_ += def + " = ";
    out_ += "\"";
    out_ += op.name();
    out_ += "\"(";
    for (size_t i = 0; i < op.num_operands(); ++i) {
      if (i) out_ += ", ";
      out_ += namer_.Name(op.operand(i));
    }
    out_ += ")";
    if (op.num_regions() > 0) {
      out_ += " (";
      for (size_t i = 0; i < op.num_regions(); ++i) {
        if (i) out_ += ", ";
        out_ += "{\n";
        PrintBlocks(op.region(i), indent, /*entry_label=*/true);
        Indent(indent);
        out_ += "}";
      }
      out_ += ")";
    }
    if (!op.attributes().empty()) out_ += " " + DictionaryToString(op.attributes());

    FunctionType signature;
    for (const Value* operand : op.operands()) {
      signature.inputs.push_back(operand ? operand->type() : Type());
    }
    for (size_t i = 0; i < op.num_results(); ++i) signature.results.push_back(op.result(i)->type());
    out_ += " : " + signature.ToString();
  }

  std::string Take() { return std::move(out_); }

 private:
  // Blocks of a region whose braces are at `indent`: labels at `indent`, ops one level deeper.
  // The entry block gets a label only when it has arguments to declare (and `entry_label`).
  void PrintBlocks(const Region& region, int indent, bool entry_label) {
    for (size_t b = 0; b < region.blocks().size(); ++b) {
      const Block& block = *region.blocks()[b];
      const bool label = b > 0 || (entry_label && block.num_arguments() > 0);
      if (label) {
        Indent(indent);
        out_ += "^bb" + std::to_string(b);
        if (block.num_arguments() > 0) {
          out_ += "(";
          for (size_t i = 0; i < block.num_arguments(); ++i) {
            if (i) out_ += ", ";
            out_ += namer_.Name(block.argument(i)) + ": " + TypeOf(block.argument(i));
          }
          out_ += ")";
        }
        out_ += ":\n";
      }
      for (const auto& op : block.operations()) {
        PrintOperation(*op, indent + 2);
        out_ += "\n";
      }
    }
  }

  // " {dict}" for argument/result i when it has attributes; the lists may be shorter than the
  // signature (empty when no argument has any).
  void AppendArgDictionary(const std::vector<std::vector<NamedAttribute>>& dicts, size_t i) {
    if (i < dicts.size() && !dicts[i].empty()) out_ += " " + DictionaryToString(dicts[i]);
  }

  void Indent(int n) { out_.append(static_cast<size_t>(n), ' '); }

  const Namer& namer_;
  std::string out_;
};

}  // namespace

std::string PrintModule(const Module& module) {
  std::string out = "module";
  if (!module.name().empty()) out += " " + SymbolName(module.name());
  if (!module.attributes().empty()) out += " attributes " + DictionaryToString(module.attributes());
  out += " {\n";
  for (const auto& f : module.functions()) {
    Namer namer;
    namer.NumberFunction(*f);
    Printer printer(namer);
    printer.PrintFunction(*f, 2);
    out += printer.Take();
  }
  return out + "}\n";
}

std::string PrintFunction(const Function& function) {
  Namer namer;
  namer.NumberFunction(function);
  Printer printer(namer);
  printer.PrintFunction(function, 0);
  return printer.Take();
}

// No trailing newline: one op is mostly quoted inside messages.
std::string PrintOperation(const Operation& op) {
  Namer namer;
  if (const Function* f = op.parent_function()) {
    namer.NumberFunction(*f);
  } else {
    // Detached (or inside a detached op): number the outermost op that contains it.
    const Operation* root = &op;
    while (root->parent_block() != nullptr && root->parent_block()->parent_op() != nullptr) {
      root = root->parent_block()->parent_op();
    }
    namer.NumberOp(*root);
  }
  Printer printer(namer);
  printer.PrintOperation(op, 0);
  return printer.Take();
}

}  // namespace vkhlo::ir
