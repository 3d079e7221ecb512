#include "tools/common/source_file.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "frontend/bytecode/program.h"

namespace vkhlo::tools {

StatusOr<std::string> ReadSourceFile(const std::string& path) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    return buffer.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot open '" + path + "'");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return DataLossError("error reading '" + path + "'");
  return text;
}

std::vector<ParsedChunk> ParseSource(const std::string& text, const std::string& source_name, bool split) {
  std::vector<ParsedChunk> chunks;
  if (frontend::IsBytecode(text) || frontend::IsCompiledPlan(text)) {
    // A portable artifact is one module: there is nothing to split (a plan is an error there).
    frontend::ParseOptions options;
    options.source_name = source_name;
    chunks.push_back(ParsedChunk{1, frontend::ParseProgram(text, options)});
    return chunks;
  }
  std::vector<frontend::SourceChunk> pieces;
  if (split) {
    pieces = frontend::SplitInputFile(text);
  } else {
    pieces.push_back(frontend::SourceChunk{text, 1});
  }
  for (const frontend::SourceChunk& piece : pieces) {
    frontend::ParseOptions options;
    options.source_name = source_name;
    options.first_line = piece.first_line;
    chunks.push_back(ParsedChunk{piece.first_line, frontend::ParseModule(piece.text, options)});
  }
  return chunks;
}

}  // namespace vkhlo::tools
