// The public entry points of the frontend (parser.h).
#include "frontend/parser.h"

#include "frontend/parser_impl.h"

namespace vkhlo::frontend {
namespace internal {

StatusOr<std::unique_ptr<ir::Module>> Parser::ParseWholeModule() {
  auto module = std::make_unique<ir::Module>();
  module->set_source_name(options_.source_name);
  VKHLO_RETURN_IF_ERROR(ParseTopLevel(*module));
  return module;
}

StatusOr<ir::Type> Parser::ParseWholeType() {
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
  if (!Is(TokenKind::kEof)) return ErrorExpected("end of input after the type");
  return type;
}

StatusOr<ir::Attribute> Parser::ParseWholeAttribute() {
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute attribute, ParseAttribute());
  if (!Is(TokenKind::kEof)) return ErrorExpected("end of input after the attribute");
  return attribute;
}

}  // namespace internal

StatusOr<std::unique_ptr<ir::Module>> ParseModule(std::string_view text, const ParseOptions& options) {
  internal::Parser parser(text, options);
  return parser.ParseWholeModule();
}

StatusOr<ir::Type> ParseType(std::string_view text) {
  internal::Parser parser(text, ParseOptions{});
  return parser.ParseWholeType();
}

StatusOr<ir::Attribute> ParseAttribute(std::string_view text) {
  internal::Parser parser(text, ParseOptions{});
  return parser.ParseWholeAttribute();
}

}  // namespace vkhlo::frontend
