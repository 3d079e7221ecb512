// Writes the plan fuzzer's seed corpus (fuzz/run_plan_fuzzer.sh runs it): the test plans of
// tests/plan/sample_plans.h as .vkx files, so the corpus follows the format as it changes
// instead of being binary blobs in the repository.
//
//   plan_seeds DIRECTORY
#include <cstdio>
#include <string>
#include <vector>

#include "plan/plan_writer.h"
#include "tests/plan/sample_plans.h"

namespace {

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  using namespace vkhlo::plan;
  const std::string dir = argv[1];
  Plan newer = testing::IdentityPlan();
  newer.header.format_minor = kFormatMinor + 1;  // a newer minor version's file
  const std::pair<const char*, Plan> seeds[] = {
      {"every_step.vkx", testing::EveryStepPlan()},
      {"identity.vkx", testing::IdentityPlan()},
      {"newer_minor.vkx", newer},
  };
  for (const auto& [name, plan] : seeds) {
    if (!Write(dir + "/" + name, WritePlan(plan))) {
      std::fprintf(stderr, "cannot write %s/%s\n", dir.c_str(), name);
      return 1;
    }
  }
  return 0;
}
