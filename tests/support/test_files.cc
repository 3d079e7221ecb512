#include "tests/support/test_files.h"

#include <fstream>
#include <sstream>

namespace vkhlo::testing {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace vkhlo::testing
