#include "frontend/bytecode/ir_walker.h"

#include <fmt/format.h>

#include <unordered_map>

namespace vkhlo::frontend::bytecode {
namespace {

// Op encoding mask bits.
constexpr uint8_t kHasAttributes = 0x01;
constexpr uint8_t kHasResults = 0x02;
constexpr uint8_t kHasOperands = 0x04;
constexpr uint8_t kHasSuccessors = 0x08;
constexpr uint8_t kHasRegions = 0x10;
constexpr uint8_t kHasUseListOrders = 0x20;
constexpr uint8_t kHasProperties = 0x40;

class Walker {
 public:
  Walker(const BytecodeFile& file, AttrTypeTable& table, OpBuilder& builder)
      : file_(file), table_(table), builder_(builder) {}

  Status Run() {
    ByteReader reader = file_.Reader(file_.ir);
    scopes_.emplace_back();
    scopes_.back().next.push_back(0);  // the top level defines no values
    VKHLO_ASSIGN_OR_RETURN(uint64_t num_ops, ReadBlockHeader(reader, nullptr));
    VKHLO_RETURN_IF_ERROR(ReadOps(reader, nullptr, num_ops, {}, {}));
    if (!reader.empty()) return reader.Error("unread bytes at the end of the IR section");
    return OkStatus();
  }

 private:
  struct Use {
    ir::Operation* op;
    size_t operand;
  };
  // The value numbers of one region isolated from above.
  struct Scope {
    std::vector<ir::Value*> values;
    std::vector<size_t> next;  // per open region: its next value number
    std::unordered_multimap<size_t, Use> forward;  // value number -> uses waiting for it
  };

  Status DefineValues(ByteReader& reader, size_t at, const std::vector<ir::Value*>& values) {
    Scope& scope = scopes_.back();
    size_t& next = scope.next.back();
    if (values.size() > scope.values.size() - next) {
      return reader.ErrorAt(at, fmt::format("defines values {} to {}, beyond the {} its region declared", next,
                                            next + values.size() - 1, scope.values.size()));
    }
    for (ir::Value* value : values) {
      scope.values[next] = value;
      if (!scope.forward.empty()) {
        auto [begin, end] = scope.forward.equal_range(next);
        for (auto it = begin; it != end; ++it) it->second.op->set_operand(it->second.operand, value);
        scope.forward.erase(begin, end);
      }
      ++next;
    }
    return OkStatus();
  }

  // Block header: `varint (num_ops << 1 | has_arguments)`, the arguments, and from version 3
  // (when there are arguments) a use-list-orders flag.
  StatusOr<uint64_t> ReadBlockHeader(ByteReader& reader, ir::Block* block) {
    VKHLO_ASSIGN_OR_RETURN(auto ops_and_args, reader.VarIntWithFlag("a block's op count"));
    const auto [num_ops, has_arguments] = ops_and_args;
    if (!has_arguments) return num_ops;
    const size_t at = reader.offset();
    if (block == nullptr) return reader.ErrorAt(at, "block arguments where no block can have them (the module's body)");
    VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("a block's argument count"));
    std::vector<ir::Value*> arguments;
    for (uint64_t i = 0; i < count; ++i) {
      const size_t type_at = reader.offset();
      const DecodedType* type = nullptr;
      bool has_location = true;
      if (file_.Has(kElideUnknownBlockArgLocation)) {
        VKHLO_ASSIGN_OR_RETURN(auto type_and_location, reader.VarIntWithFlag("a block argument's type"));
        has_location = type_and_location.second;
        VKHLO_ASSIGN_OR_RETURN(type, table_.TypeAt(reader, type_at, type_and_location.first));
      } else {
        VKHLO_ASSIGN_OR_RETURN(type, table_.ReadType(reader));
      }
      if (has_location) VKHLO_RETURN_IF_ERROR(table_.ReadLocation(reader).status());
      StatusOr<ir::Type> value_type = type->AsValueType();
      if (!value_type.ok()) return reader.ErrorAt(type_at, "block argument: " + value_type.status().message());
      arguments.push_back(block->AddArgument(std::move(value_type).value()));
    }
    VKHLO_RETURN_IF_ERROR(DefineValues(reader, at, arguments));
    if (file_.Has(kUseListOrdering)) {
      VKHLO_ASSIGN_OR_RETURN(uint8_t has_orders, reader.Byte("a block's use-list flag"));
      if (has_orders) VKHLO_RETURN_IF_ERROR(SkipUseListOrders(reader, arguments.size()));
    }
    return num_ops;
  }

  // Use-list orders of `count` values: kept by MLIR to restore use order, of no use to vkhlo.
  Status SkipUseListOrders(ByteReader& reader, size_t count) {
    uint64_t entries = 1;
    if (count > 1) {
      VKHLO_ASSIGN_OR_RETURN(entries, reader.Count("a use-list order count"));
    }
    for (uint64_t i = 0; i < entries; ++i) {
      if (count > 1) VKHLO_RETURN_IF_ERROR(reader.VarInt("a use-list value index").status());
      VKHLO_ASSIGN_OR_RETURN(auto uses_and_flag, reader.VarIntWithFlag("a use-list length"));
      if (uses_and_flag.first > reader.remaining()) return reader.Error("a use-list order longer than the data left");
      for (uint64_t u = 0; u < uses_and_flag.first; ++u) VKHLO_RETURN_IF_ERROR(reader.VarInt("a use index").status());
    }
    return OkStatus();
  }

  Status ReadOps(ByteReader& reader, ir::Block* block, uint64_t num_ops, std::string_view parent_dialect,
                 std::string_view parent_name) {
    if (num_ops > reader.remaining() / 3) {  // an op takes at least 3 bytes
      return reader.Error(fmt::format("a block of {} ops cannot fit in the {} bytes left", num_ops, reader.remaining()));
    }
    for (uint64_t i = 0; i < num_ops; ++i) VKHLO_RETURN_IF_ERROR(ReadOp(reader, block, parent_dialect, parent_name));
    return OkStatus();
  }

  StatusOr<ir::Value*> ReadOperand(ByteReader& reader, bool* forward) {
    Scope& scope = scopes_.back();
    VKHLO_ASSIGN_OR_RETURN(uint64_t number, reader.Index("a value number", scope.values.size()));
    *forward = scope.values[number] == nullptr;
    last_operand_number_ = number;
    return scope.values[number];
  }

  Status ReadOp(ByteReader& reader, ir::Block* block, std::string_view parent_dialect, std::string_view parent_name) {
    EncodedOp op;
    op.offset = reader.offset();
    op.parent_dialect = parent_dialect;
    op.parent_name = parent_name;
    VKHLO_ASSIGN_OR_RETURN(uint64_t name_index, reader.Index("an op name index", file_.op_names.size()));
    const OpName& op_name = file_.op_names[name_index];
    op.dialect = file_.dialects[op_name.dialect];
    op.name = op_name.name;
    op.registered = op_name.registered;
    const size_t mask_at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(uint8_t mask, reader.Byte("an op's encoding mask"));
    if (mask & 0x80) return reader.ErrorAt(mask_at, fmt::format("unknown op encoding bits in mask 0x{:02X}", mask));
    VKHLO_ASSIGN_OR_RETURN(op.location, table_.ReadLocation(reader));
    if (mask & kHasAttributes) {
      const size_t at = reader.offset();
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* dictionary, table_.ReadAttribute(reader));
      if (!dictionary->value.is<ir::Attribute::Dictionary>()) {
        return reader.ErrorAt(at, fmt::format("an op's attributes must be a dictionary, found {}",
                                              dictionary->value.ToString()));
      }
      op.attributes = dictionary->entries;
    }
    if (mask & kHasProperties) {
      if (!file_.Has(kNativeProperties)) {
        return reader.ErrorAt(mask_at, fmt::format("op properties in bytecode version {} (they exist from version 5)",
                                                   file_.version));
      }
      op.has_properties = true;
      if (op.registered) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t index, reader.Index("a properties index", file_.properties.size()));
        op.properties = file_.properties[index];
      } else {
        VKHLO_ASSIGN_OR_RETURN(op.properties_attribute, table_.ReadAttribute(reader));
      }
    }
    if (mask & kHasResults) {
      VKHLO_ASSIGN_OR_RETURN(op.result_types, table_.ReadTypes(reader));
    }
    std::vector<std::pair<size_t, size_t>> forward;  // (operand, value number)
    if (mask & kHasOperands) {
      VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("an op's operand count"));
      op.operands.resize(count);
      for (uint64_t i = 0; i < count; ++i) {
        bool is_forward = false;
        VKHLO_ASSIGN_OR_RETURN(op.operands[i], ReadOperand(reader, &is_forward));
        if (is_forward) forward.emplace_back(i, last_operand_number_);
      }
    }
    if (mask & kHasSuccessors) {
      return UnimplementedError(fmt::format("byte {}: {}.{} has successor blocks (branches), which StableHLO does not "
                                            "use and vkhlo does not support", op.offset, op.dialect, op.name));
    }
    if ((mask & kHasUseListOrders) && file_.Has(kUseListOrdering)) {
      VKHLO_RETURN_IF_ERROR(SkipUseListOrders(reader, op.result_types.size()));
    }
    bool isolated = false;
    if (mask & kHasRegions) {
      VKHLO_ASSIGN_OR_RETURN(auto regions_and_isolated, reader.VarIntWithFlag("an op's region count"));
      op.num_regions = regions_and_isolated.first;
      isolated = regions_and_isolated.second;
      if (op.num_regions > reader.remaining()) return reader.Error("more regions than bytes left");
    }

    VKHLO_ASSIGN_OR_RETURN(BuiltOp built, builder_.Build(op, block));
    if (built.results.size() != op.result_types.size() || built.regions.size() != op.num_regions) {
      return InternalError(fmt::format("byte {}: {}.{} was built with {} results and {} regions, encoded with {} and {}",
                                       op.offset, op.dialect, op.name, built.results.size(), built.regions.size(),
                                       op.result_types.size(), op.num_regions));
    }
    for (auto [operand, number] : forward) {
      if (built.op == nullptr) {
        return UnimplementedError(fmt::format("byte {}: {}.{} uses value {} before it is defined, which vkhlo only "
                                              "supports for ops it keeps", op.offset, op.dialect, op.name, number));
      }
      scopes_.back().forward.emplace(number, Use{built.op, operand});
    }
    VKHLO_RETURN_IF_ERROR(DefineValues(reader, op.offset, built.results));
    if (op.num_regions == 0) return built.finish ? built.finish() : OkStatus();

    const std::string_view dialect = op.dialect, name = op.name;
    if (isolated) scopes_.emplace_back();
    Status status;
    if (isolated && file_.Has(kLazyLoading)) {
      // All the op's regions in one nested IR section.
      StatusOr<Section> section = ReadSection(reader);
      if (!section.ok()) {
        status = section.status();
      } else if (section->id != kIrSection) {
        status = reader.ErrorAt(section->offset, fmt::format("expected the IR section of {}.{}'s regions, found the {} "
                                                             "section", dialect, name, SectionName(section->id)));
      } else {
        ByteReader nested = reader.Sub(section->data);
        status = ReadRegions(nested, built.regions, dialect, name);
        if (status.ok() && !nested.empty()) status = nested.Error("unread bytes at the end of a region section");
      }
    } else {
      status = ReadRegions(reader, built.regions, dialect, name);
    }
    if (isolated) scopes_.pop_back();
    if (status.ok() && built.finish) status = built.finish();
    return status;
  }

  Status ReadRegions(ByteReader& reader, const std::vector<ir::Region*>& regions, std::string_view dialect,
                     std::string_view name) {
    if (++depth_ > kMaxNesting) return reader.Error(fmt::format("regions nest deeper than {} levels", kMaxNesting));
    for (ir::Region* region : regions) {
      Status status = ReadRegion(reader, region, dialect, name);
      if (!status.ok()) return status;
    }
    --depth_;
    return OkStatus();
  }

  // `varint blocks`; unless zero, `varint values` and the blocks.
  Status ReadRegion(ByteReader& reader, ir::Region* region, std::string_view dialect, std::string_view name) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t num_blocks, reader.Count("a region's block count"));
    if (num_blocks == 0) return OkStatus();
    const size_t at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(uint64_t num_values, reader.Count("a region's value count"));
    if (region == nullptr && num_blocks != 1) {
      return reader.ErrorAt(at, fmt::format("the module's body has {} blocks (expected 1)", num_blocks));
    }
    Scope& scope = scopes_.back();
    const size_t first = scope.values.size();
    scope.values.resize(first + num_values, nullptr);
    scope.next.push_back(first);
    std::vector<ir::Block*> blocks;
    for (uint64_t b = 0; b < num_blocks; ++b) blocks.push_back(region != nullptr ? &region->AddBlock() : nullptr);
    for (ir::Block* block : blocks) {
      VKHLO_ASSIGN_OR_RETURN(uint64_t num_ops, ReadBlockHeader(reader, block));
      VKHLO_RETURN_IF_ERROR(ReadOps(reader, block, num_ops, dialect, name));
    }
    Scope& closing = scopes_.back();
    for (const auto& [number, use] : closing.forward) {
      if (number >= first) {
        return reader.ErrorAt(at, fmt::format("value {} is used (by {}) but never defined", number,
                                              use.op->name()));
      }
    }
    closing.values.resize(first);
    closing.next.pop_back();
    return OkStatus();
  }

  const BytecodeFile& file_;
  AttrTypeTable& table_;
  OpBuilder& builder_;
  std::vector<Scope> scopes_;
  int depth_ = 0;
  uint64_t last_operand_number_ = 0;
};

}  // namespace

Status WalkIr(const BytecodeFile& file, AttrTypeTable& table, OpBuilder& builder) {
  return Walker(file, table, builder).Run();
}

}  // namespace vkhlo::frontend::bytecode
