#include "frontend/bytecode/module_builder.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/bytecode/op_properties.h"
#include "frontend/bytecode/vhlo_attribute_rules.h"
#include "frontend/bytecode/vhlo_ops.h"
#include "ir/op_table.h"

namespace vkhlo::frontend::bytecode {
namespace {

const ir::Attribute* FindIn(const VhloAttributeMap& attributes, std::string_view name) {
  for (const auto& [n, value] : attributes) {
    if (n == name) return &value->value;
  }
  return nullptr;
}

}  // namespace

ModuleBuilder::ModuleBuilder(const BytecodeFile& file, AttrTypeTable& table, std::string source_name)
    : file_(file), table_(table), source_name_(std::move(source_name)) {}

Status ModuleBuilder::Error(const EncodedOp& op, std::string_view message) const {
  return InvalidArgumentError(fmt::format("byte {}: {}.{}: {}", op.offset, op.dialect, op.name, message));
}

ir::Location ModuleBuilder::LocationOf(const EncodedOp& op) {
  const DecodedLocation& where = op.location;
  // "-" is what MLIR calls text it parsed from a string: positions in it point nowhere.
  if (where.line == 0 || where.file.empty() || where.file == "-") return {};
  if (location_file_.empty()) location_file_ = where.file;
  if (where.file != location_file_) return {};
  return ir::Location{where.line, where.column};
}

StatusOr<BuiltOp> ModuleBuilder::Build(EncodedOp& op, ir::Block* block) {
  if (op.dialect == "sdy") return BuildShardyOp(op);
  if (op.dialect == "builtin" && op.name == "module") return BuildModule(op, block);
  // A cast stands between VHLO values and another dialect's ops; in vkhlo's IR both sides are
  // the same.
  if (op.dialect == "builtin" && op.name == "unrealized_conversion_cast") return BuildPassThrough(op);
  const bool in_module_body = op.parent_dialect == "builtin" && op.parent_name == "module";
  if (op.dialect == "vhlo" && op.name == "func_v1") {
    if (!in_module_body) return Error(op, "a function outside the module's body");
    return BuildFunction(op, block);
  }
  if (block == nullptr) {
    return UnimplementedError(fmt::format("byte {}: {}.{} {}: vkhlo reads modules of functions", op.offset, op.dialect,
                                          op.name, in_module_body ? "in the module's body" : "at the top level"));
  }
  if (op.dialect == "vhlo") return BuildVhloOp(op, block);
  return BuildOtherOp(op, block);
}

StatusOr<BuiltOp> ModuleBuilder::BuildModule(EncodedOp& op, ir::Block* block) {
  if (!op.parent_dialect.empty() || block != nullptr) return Error(op, "nested modules are not supported");
  if (module_ != nullptr) return Error(op, "a second module (a file holds one)");
  if (op.num_regions != 1 || !op.result_types.empty() || !op.operands.empty()) {
    return Error(op, "a module has one region and no operands or results");
  }
  module_ = std::make_unique<ir::Module>();
  // sym_name and sym_visibility: optional properties from bytecode version 5, else attributes.
  std::vector<std::pair<std::string_view, const DecodedAttribute*>> attributes = op.attributes;
  if (op.has_properties) {
    ByteReader reader = file_.Reader(op.properties);
    for (std::string_view name : {"sym_name", "sym_visibility"}) {
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* value, table_.ReadOptionalAttribute(reader));
      if (value != nullptr) attributes.emplace_back(name, value);
    }
  }
  for (const auto& [name, value] : attributes) {
    if (name == "sym_name") {
      if (value->value.AsString() == nullptr) return Error(op, "sym_name must be a string");
      module_->set_name(*value->value.AsString());
    } else if (name != "sym_visibility") {
      VKHLO_RETURN_IF_ERROR(AppendForIr(op, name, *value, module_->attributes()));
    }
  }
  BuiltOp built;
  built.regions.push_back(nullptr);  // the module's body: functions, read by the walker
  return built;
}

StatusOr<BuiltOp> ModuleBuilder::BuildFunction(EncodedOp& op, ir::Block* block) {
  (void)block;
  const VhloOp* spec = FindVhloOp(op.name);
  VKHLO_ASSIGN_OR_RETURN(VhloAttributeMap inherent, InherentVhloAttributes(file_, table_, *spec, op));
  const ir::Attribute* name = FindIn(inherent, "sym_name");
  if (name == nullptr || name->AsString() == nullptr) return Error(op, "a function needs a string sym_name");
  const DecodedAttribute* type = nullptr;
  for (const auto& [n, value] : inherent) {
    if (n == "function_type") type = value;
  }
  if (type == nullptr || type->type == nullptr || type->type->kind != DecodedType::Kind::kFunction) {
    return Error(op, fmt::format("@{} needs a function type", *name->AsString()));
  }
  if (module_->FindFunction(*name->AsString()) != nullptr) {
    return Error(op, fmt::format("redefinition of symbol '{}'", *name->AsString()));
  }
  auto function = std::make_unique<ir::Function>(*name->AsString(), *type->type->function);
  if (const ir::Attribute* visibility = FindIn(inherent, "sym_visibility")) {
    const std::string* value = visibility->AsString();
    if (value == nullptr || !(value->empty() || *value == "public" || *value == "private" || *value == "nested")) {
      return Error(op, fmt::format("sym_visibility must be public, private or nested, found {}", visibility->ToString()));
    }
    function->set_visibility(*value);
  }
  // Argument and result attributes: one dictionary each, kept when any is not empty.
  const auto dictionaries = [&](std::string_view which,
                                std::vector<std::vector<ir::NamedAttribute>>& out) -> Status {
    std::vector<ir::NamedAttribute> found;
    for (const auto& [n, value] : inherent) {
      if (n == which) VKHLO_RETURN_IF_ERROR(AppendForIr(op, which, *value, found));
    }
    if (found.empty()) return OkStatus();
    const auto* array = found[0].second.as<ir::Attribute::Array>();
    if (array == nullptr) return Error(op, fmt::format("{} must be an array of dictionaries", which));
    bool any = false;
    std::vector<std::vector<ir::NamedAttribute>> dicts;
    for (const ir::Attribute& entry : *array) {
      const auto* dict = entry.as<ir::Attribute::Dictionary>();
      if (dict == nullptr) return Error(op, fmt::format("{} must be an array of dictionaries", which));
      any |= !dict->empty();
      dicts.push_back(*dict);
    }
    if (any) out = std::move(dicts);
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(dictionaries("arg_attrs", function->arg_attributes()));
  VKHLO_RETURN_IF_ERROR(dictionaries("res_attrs", function->result_attributes()));
  for (const auto& [n, value] : op.attributes) {
    if (std::find(spec->attributes.begin(), spec->attributes.end(), n) == spec->attributes.end()) {
      VKHLO_RETURN_IF_ERROR(AppendForIr(op, n, *value, function->attributes()));
    }
  }
  std::stable_sort(function->attributes().begin(), function->attributes().end(),
                   [](const ir::NamedAttribute& a, const ir::NamedAttribute& b) { return a.first < b.first; });
  function->set_location(LocationOf(op));
  ir::Function* added = module_->AddFunction(std::move(function));
  BuiltOp built;
  built.regions.push_back(&added->body());
  // A body's entry block takes the function's arguments, as its text spells them.
  built.finish = [this, added, offset = op.offset]() -> Status {
    if (added->body().empty()) return OkStatus();
    const ir::Block& entry = added->body().front();
    const std::vector<ir::Type>& inputs = added->type().inputs;
    bool same = entry.num_arguments() == inputs.size();
    for (size_t i = 0; same && i < inputs.size(); ++i) same = entry.argument(i)->type() == inputs[i];
    if (same) return OkStatus();
    std::string arguments;
    for (size_t i = 0; i < entry.num_arguments(); ++i) {
      arguments += (i ? ", " : "") + entry.argument(i)->type().ToString();
    }
    return InvalidArgumentError(fmt::format("byte {}: vhlo.func_v1 @{} has the type {} but its body takes ({})", offset,
                                            added->name(), added->type().ToString(), arguments));
  };
  return built;
}

StatusOr<BuiltOp> ModuleBuilder::BuildShardyOp(EncodedOp& op) {
  // Meshes and sharding groups only annotate; constraints, reshards and propagation barriers
  // pass their operands through. Anything else partitions the computation itself.
  if (op.name == "mesh" || op.name == "sharding_group") {
    if (!op.result_types.empty() || op.num_regions != 0) return Error(op, "an annotation with results or regions");
    return BuiltOp{};
  }
  if (op.name == "sharding_constraint" || op.name == "reshard" || op.name == "propagation_barrier") {
    return BuildPassThrough(op);
  }
  return UnimplementedError(fmt::format("byte {}: sdy.{}: {}", op.offset, op.name, kShardyComputationUnsupported));
}

StatusOr<BuiltOp> ModuleBuilder::BuildPassThrough(EncodedOp& op) {
  if (op.operands.size() != op.result_types.size() || op.num_regions != 0) {
    return Error(op, fmt::format("{} values into {}", op.operands.size(), op.result_types.size()));
  }
  BuiltOp built;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (op.operands[i] == nullptr) return Error(op, "a value defined after its use passed through");
    StatusOr<ir::Type> type = op.result_types[i]->AsValueType();
    if (!type.ok()) return Error(op, type.status().message());
    if (*type != op.operands[i]->type()) {
      return Error(op, fmt::format("{} passed through as {} changes the type", op.operands[i]->type().ToString(),
                                   type->ToString()));
    }
    built.results.push_back(op.operands[i]);
  }
  return built;
}

StatusOr<BuiltOp> ModuleBuilder::BuildVhloOp(EncodedOp& op, ir::Block* block) {
  const VhloOp* spec = FindVhloOp(op.name);
  if (spec == nullptr) {
    return UnimplementedError(fmt::format("byte {}: unknown VHLO op vhlo.{} (vkhlo reads the VHLO ops of StableHLO {} to "
                                          "{}; the file was written by {})",
                                          op.offset, op.name, kOldestVersion.ToString(), kNewestVersion.ToString(),
                                          file_.producer));
  }
  VKHLO_ASSIGN_OR_RETURN(VhloAttributeMap inherent, InherentVhloAttributes(file_, table_, *spec, op));
  StatusOr<std::vector<ir::NamedAttribute>> attributes = ConvertVhloAttributes(*spec, inherent);
  if (!attributes.ok()) return Error(op, attributes.status().message());
  for (const auto& [name, value] : op.attributes) {
    if (std::find(spec->attributes.begin(), spec->attributes.end(), name) == spec->attributes.end()) {
      VKHLO_RETURN_IF_ERROR(AppendForIr(op, name, *value, *attributes));
    }
  }
  std::string_view name = spec->stablehlo;
  if (name == "func.return" && !(op.parent_dialect == "vhlo" && op.parent_name == "func_v1")) {
    name = "stablehlo.return";  // a region's terminator, not a function's
  }
  return Append(op, block, name, std::move(attributes).value());
}

StatusOr<BuiltOp> ModuleBuilder::BuildOtherOp(EncodedOp& op, ir::Block* block) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<ir::NamedAttribute> attributes, OtherDialectAttributes(file_, table_, op));
  const std::string name = fmt::format("{}.{}", op.dialect, op.name);
  return Append(op, block, name, std::move(attributes));
}

StatusOr<BuiltOp> ModuleBuilder::Append(EncodedOp& op, ir::Block* block, std::string_view name,
                                        std::vector<ir::NamedAttribute> attributes) {
  const std::optional<ir::OpCode> code = ir::LookupOp(name);
  if (!code) {
    return UnimplementedError(fmt::format("byte {}: {}.{} ({}) is not an op vkhlo supports", op.offset, op.dialect,
                                          op.name, name));
  }
  std::vector<ir::Type> result_types;
  result_types.reserve(op.result_types.size());
  for (const DecodedType* type : op.result_types) {
    StatusOr<ir::Type> value = type->AsValueType();
    if (!value.ok()) return Error(op, "result: " + value.status().message());
    result_types.push_back(std::move(value).value());
  }
  // One canonical order, as the text parser keeps (MLIR sorts attribute dictionaries).
  std::stable_sort(attributes.begin(), attributes.end(),
                   [](const ir::NamedAttribute& a, const ir::NamedAttribute& b) { return a.first < b.first; });
  for (size_t i = 1; i < attributes.size(); ++i) {
    if (attributes[i].first == attributes[i - 1].first) {
      return Error(op, fmt::format("duplicate attribute '{}'", attributes[i].first));
    }
  }
  ir::Operation* created = block->Append(ir::Operation::Create(*code, op.operands, result_types, std::move(attributes),
                                                               static_cast<int>(op.num_regions), LocationOf(op)));
  BuiltOp built;
  built.op = created;
  built.results = created->results();
  for (size_t i = 0; i < created->num_regions(); ++i) built.regions.push_back(&created->region(i));
  return built;
}

StatusOr<std::unique_ptr<ir::Module>> ModuleBuilder::Finish() {
  if (module_ == nullptr) return InvalidArgumentError("the file holds no builtin.module");
  module_->set_source_name(location_file_.empty() ? source_name_ : std::string(location_file_));
  return std::move(module_);
}

}  // namespace vkhlo::frontend::bytecode
