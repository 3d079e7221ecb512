// SplitInputFile: mlir-opt's --split-input-file. A line that is exactly "// -----" (trailing
// spaces or '\r' allowed) ends one chunk and starts the next; each chunk remembers its first
// line so that messages give positions in the whole file.
#include <string_view>

#include "frontend/parser.h"

namespace vkhlo::frontend {

std::vector<SourceChunk> SplitInputFile(std::string_view text) {
  std::vector<SourceChunk> chunks;
  size_t chunk_start = 0;
  uint32_t chunk_line = 1;
  uint32_t line = 1;
  size_t pos = 0;
  while (true) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view content = text.substr(pos, end - pos);
    while (!content.empty() && (content.back() == '\r' || content.back() == ' ' || content.back() == '\t')) {
      content.remove_suffix(1);
    }
    if (content == "// -----") {
      chunks.push_back({text.substr(chunk_start, pos - chunk_start), chunk_line});
      chunk_start = end < text.size() ? end + 1 : text.size();
      chunk_line = line + 1;
    }
    if (end >= text.size()) break;
    pos = end + 1;
    ++line;
  }
  chunks.push_back({text.substr(chunk_start), chunk_line});
  return chunks;
}

}  // namespace vkhlo::frontend
