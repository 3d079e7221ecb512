// Module structure: `module @name attributes {...} { ... }` or bare functions, func.func with
// argument/result attributes, regions and blocks, and SSA name scopes.
//
// Name scoping follows MLIR: a function body starts with no names visible; a nested region sees
// every name of its enclosing regions, and its own names disappear when it closes; defining a
// name that is visible already is an error, as is using one that is not (yet) defined.
#include <fmt/format.h>

#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {

// ---- SSA names ----

void Parser::PushScope() { scopes_.emplace_back(); }

void Parser::PopScope() {
  for (std::string_view name : scopes_.back()) values_.erase(name);
  scopes_.pop_back();
}

Status Parser::DefineValues(const Token& name, ir::Operation* op, uint32_t first, uint32_t count) {
  auto [it, inserted] = values_.try_emplace(name.text);
  if (!inserted) return ErrorAt(name, fmt::format("redefinition of SSA value '{}'", name.text));
  it->second.op = op;
  it->second.first = first;
  it->second.count = count;
  scopes_.back().push_back(name.text);
  const std::string_view base = name.text.substr(1);
  for (uint32_t i = 0; i < count; ++i) {
    op->result(first + i)->set_name_hint(count == 1 ? std::string(base) : fmt::format("{}#{}", base, i));
  }
  return OkStatus();
}

Status Parser::DefineArgument(const Token& name, ir::Value* value) {
  auto [it, inserted] = values_.try_emplace(name.text);
  if (!inserted) return ErrorAt(name, fmt::format("redefinition of SSA value '{}'", name.text));
  it->second.argument = value;
  scopes_.back().push_back(name.text);
  return OkStatus();
}

StatusOr<OperandUse> Parser::ParseOperandUse() {
  if (!Is(TokenKind::kPercentId)) return ErrorExpected("SSA value");
  OperandUse use;
  use.token = tok_;
  auto it = values_.find(tok_.text);
  if (it == values_.end()) return ErrorAt(tok_, fmt::format("use of undefined value '{}'", tok_.text));
  const ValueEntry& entry = it->second;
  Advance();
  uint64_t index = 0;
  if (Is(TokenKind::kHashId)) {
    // %x#1: result 1 of a multi-result definition.
    const Token number = tok_;
    std::string_view digits = number.text.substr(1);
    if (digits.empty() || !IsDigit(digits[0])) return ErrorExpected("result number after '#'");
    for (char c : digits) {
      index = index * 10 + static_cast<uint64_t>(c - '0');
      if (index > UINT32_MAX) break;
    }
    if (index >= entry.count) {
      return ErrorAt(number, fmt::format("result number {} is out of range for '{}' ({} results)", digits,
                                         use.token.text, entry.count));
    }
    Advance();
  }
  use.value = entry.argument != nullptr ? entry.argument : entry.op->result(entry.first + index);
  return use;
}

Status Parser::ParseOperandList(std::vector<OperandUse>& out, bool* trailing_comma) {
  *trailing_comma = false;
  if (!Is(TokenKind::kPercentId)) return OkStatus();
  while (true) {
    VKHLO_ASSIGN_OR_RETURN(OperandUse use, ParseOperandUse());
    out.push_back(use);
    if (!ConsumeIf(TokenKind::kComma)) return OkStatus();
    if (!Is(TokenKind::kPercentId)) {
      *trailing_comma = true;
      return OkStatus();
    }
  }
}

Status Parser::ParseParenOperandList(std::vector<OperandUse>& out) {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLParen, "'('"));
  if (ConsumeIf(TokenKind::kRParen)) return OkStatus();
  do {
    VKHLO_ASSIGN_OR_RETURN(OperandUse use, ParseOperandUse());
    out.push_back(use);
  } while (ConsumeIf(TokenKind::kComma));
  return Expect(TokenKind::kRParen, "',' or ')' in operand list");
}

// ---- Regions and blocks ----

StatusOr<BlockArgDef> Parser::ParseBlockArgDef() {
  BlockArgDef arg;
  if (!Is(TokenKind::kPercentId)) return ErrorExpected("block argument (%name)");
  arg.name = tok_;
  Advance();
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' and the argument type"));
  VKHLO_ASSIGN_OR_RETURN(arg.type, ParseType());
  return arg;
}

Status Parser::ParseRegion(ir::Region& region, std::span<const BlockArgDef> entry_args) {
  NestingGuard guard = EnterNesting();
  if (!guard.ok()) return guard.status;
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLBrace, "'{' to start a region"));
  PushScope();
  Status status = [&]() -> Status {
    if (Is(TokenKind::kRBrace) && entry_args.empty()) {
      Advance();
      return OkStatus();  // an empty region
    }
    ir::Block* block = &region.AddBlock();
    for (const BlockArgDef& arg : entry_args) {
      VKHLO_RETURN_IF_ERROR(DefineArgument(arg.name, block->AddArgument(arg.type, std::string(arg.name.text.substr(1)))));
    }
    bool first = true;
    while (true) {
      if (Is(TokenKind::kCaretId)) {
        if (first && !entry_args.empty()) {
          return ErrorAt(tok_, "this region's arguments are declared by the op; it cannot start with a block label");
        }
        if (!first) block = &region.AddBlock();
        Advance();
        if (ConsumeIf(TokenKind::kLParen)) {
          if (!ConsumeIf(TokenKind::kRParen)) {
            do {
              VKHLO_ASSIGN_OR_RETURN(BlockArgDef arg, ParseBlockArgDef());
              VKHLO_RETURN_IF_ERROR(
                  DefineArgument(arg.name, block->AddArgument(arg.type, std::string(arg.name.text.substr(1)))));
            } while (ConsumeIf(TokenKind::kComma));
            VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "',' or ')' in block arguments"));
          }
        }
        VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' after block label"));
      } else if (!first) {
        return ErrorExpected("block label or '}'");
      }
      first = false;
      VKHLO_RETURN_IF_ERROR(ParseBlockBody(*block));
      if (ConsumeIf(TokenKind::kRBrace)) return OkStatus();
    }
  }();
  PopScope();
  return status;
}

Status Parser::ParseBlockBody(ir::Block& block) {
  while (!Is(TokenKind::kRBrace) && !Is(TokenKind::kCaretId)) {
    if (Is(TokenKind::kEof)) return ErrorExpected("operation or '}'");
    VKHLO_RETURN_IF_ERROR(ParseOperation(block));
  }
  return OkStatus();
}

// ---- Functions ----

Status Parser::ParseFunction(ir::Module& module) {
  const Token start = tok_;
  Advance();  // func.func
  std::string visibility;
  if (IsKeyword("public") || IsKeyword("private") || IsKeyword("nested")) {
    visibility = std::string(tok_.text);
    Advance();
  }
  const Token name_token = tok_;
  VKHLO_ASSIGN_OR_RETURN(std::string name, ParseSymbolName());
  if (module.FindFunction(name) != nullptr) {
    return ErrorAt(name_token, fmt::format("redefinition of symbol '{}'", name));
  }

  // Arguments: `%a: type {attrs}` (definitions) or `type {attrs}` (declarations).
  std::vector<BlockArgDef> args;
  ir::FunctionType type;
  std::vector<std::vector<ir::NamedAttribute>> arg_attrs, result_attrs;
  bool any_arg_attrs = false, any_result_attrs = false, named_args = false;
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLParen, "'(' and the function arguments"));
  if (!ConsumeIf(TokenKind::kRParen)) {
    do {
      if (Is(TokenKind::kPercentId)) {
        if (!args.empty() || type.inputs.empty()) named_args = true;
        if (!named_args) return ErrorAt(tok_, "all arguments of a function must be named, or none");
        VKHLO_ASSIGN_OR_RETURN(BlockArgDef arg, ParseBlockArgDef());
        type.inputs.push_back(arg.type);
        args.push_back(arg);
      } else {
        if (named_args) return ErrorExpected("SSA value name of the argument");
        VKHLO_ASSIGN_OR_RETURN(ir::Type t, ParseType());
        type.inputs.push_back(std::move(t));
      }
      arg_attrs.emplace_back();
      if (Is(TokenKind::kLBrace)) {
        any_arg_attrs = true;
        VKHLO_RETURN_IF_ERROR(ParseDictionary(arg_attrs.back()));
      }
    } while (ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "',' or ')' in function arguments"));
  }
  if (ConsumeIf(TokenKind::kArrow)) {
    // Result attributes only inside parentheses: `-> t {` starts the body.
    const auto parse_result = [&](bool allow_attributes) -> Status {
      VKHLO_ASSIGN_OR_RETURN(ir::Type t, ParseType());
      type.results.push_back(std::move(t));
      result_attrs.emplace_back();
      if (allow_attributes && Is(TokenKind::kLBrace)) {
        any_result_attrs = true;
        VKHLO_RETURN_IF_ERROR(ParseDictionary(result_attrs.back()));
      }
      return OkStatus();
    };
    if (ConsumeIf(TokenKind::kLParen)) {
      if (!ConsumeIf(TokenKind::kRParen)) {
        do {
          VKHLO_RETURN_IF_ERROR(parse_result(true));
        } while (ConsumeIf(TokenKind::kComma));
        VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "',' or ')' in function results"));
      }
    } else {
      VKHLO_RETURN_IF_ERROR(parse_result(false));
    }
  }

  auto function = std::make_unique<ir::Function>(name, type);
  function->set_visibility(visibility);
  function->set_location(LocationOf(start));
  if (any_arg_attrs) function->arg_attributes() = std::move(arg_attrs);
  if (any_result_attrs) function->result_attributes() = std::move(result_attrs);
  VKHLO_RETURN_IF_ERROR(ParseOptionalAttrDictWithKeyword(function->attributes()));
  if (Is(TokenKind::kLBrace)) {
    if (!named_args && !type.inputs.empty()) {
      return ErrorAt(name_token, "a function with a body needs named arguments (%arg0: type)");
    }
    values_.clear();  // functions are isolated from above
    VKHLO_RETURN_IF_ERROR(ParseRegion(function->body(), args));
    if (function->body().empty()) function->body().AddBlock();
  }
  module.AddFunction(std::move(function));
  return OkStatus();
}

// ---- Module ----

Status Parser::ParseAliasDefinition() {
  const Token name = tok_;
  Advance();
  if (aliases_.count(name.text)) return ErrorAt(name, fmt::format("redefinition of alias '{}'", name.text));
  if (!Is(TokenKind::kEqual)) return ErrorExpected("'=' in attribute alias definition");
  // Look at the raw token after '=': location aliases (#loc1 = loc(...)) are dropped.
  Token next = lexer_.Next();
  if (next.kind == TokenKind::kLocation) {
    Advance();
    return OkStatus();
  }
  lexer_.set_state(lexer_.StateAt(next));
  Advance();
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, ParseAttribute());
  aliases_.emplace(name.text, std::move(value));
  return OkStatus();
}

Status Parser::ParseModuleOp(ir::Module& module) {
  Advance();  // module
  if (Is(TokenKind::kAtId)) {
    VKHLO_ASSIGN_OR_RETURN(std::string name, ParseSymbolName());
    module.set_name(std::move(name));
  }
  VKHLO_RETURN_IF_ERROR(ParseOptionalAttrDictWithKeyword(module.attributes()));
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLBrace, "'{' to start the module body"));
  while (!ConsumeIf(TokenKind::kRBrace)) {
    if (IsKeyword("func.func")) {
      VKHLO_RETURN_IF_ERROR(ParseFunction(module));
    } else if (IsKeyword("module") || IsKeyword("builtin.module")) {
      return ErrorAt(tok_, "nested modules are not supported");
    } else {
      return ErrorExpected("'func.func' or '}' in module body");
    }
  }
  return OkStatus();
}

Status Parser::ParseTopLevel(ir::Module& module) {
  bool saw_module = false, saw_function = false;
  while (!Is(TokenKind::kEof)) {
    if (Is(TokenKind::kHashId)) {
      VKHLO_RETURN_IF_ERROR(ParseAliasDefinition());
    } else if (IsKeyword("module") || IsKeyword("builtin.module")) {
      if (saw_module || saw_function) {
        return ErrorAt(tok_, "expected one module per input (split the file at '// -----' lines)");
      }
      saw_module = true;
      VKHLO_RETURN_IF_ERROR(ParseModuleOp(module));
    } else if (IsKeyword("func.func")) {
      if (saw_module) return ErrorAt(tok_, "functions outside the module are not supported");
      saw_function = true;
      VKHLO_RETURN_IF_ERROR(ParseFunction(module));
    } else if (Is(TokenKind::kFileMetadataBegin)) {
      return ErrorAt(tok_, "file metadata ({-# dialect_resources ... #-}) is not supported");
    } else {
      return ErrorExpected("'module' or 'func.func'");
    }
  }
  return OkStatus();
}

}  // namespace vkhlo::frontend::internal
