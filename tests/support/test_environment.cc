// Sets the environment variables a test run asks for in VKHLO_TEST_ENV ("A=1,B=2"), before main.
//
// Linked into every test executable by vkhlo_test() (tests/CMakeLists.txt). gtest_discover_tests
// passes a test's ENVIRONMENT property through a generated script that splits a list on its
// semicolons, so only the first variable of a list reached the tests (the mobile.* runs ran
// with the native profile until November 2026). One variable, VKHLO_TEST_ENV, carries them all;
// the static initializer runs before any test creates a Vulkan instance (Mesa reads
// LP_NATIVE_VECTOR_WIDTH then). Values may not contain commas.
#include <cstdlib>
#include <string>

namespace {

struct TestEnvironment {
  TestEnvironment() {
    const char* spec = std::getenv("VKHLO_TEST_ENV");
    if (spec == nullptr) return;
    std::string all = spec;
    size_t start = 0;
    while (start <= all.size()) {
      size_t end = all.find(',', start);
      if (end == std::string::npos) end = all.size();
      const std::string item = all.substr(start, end - start);
      const size_t eq = item.find('=');
      if (eq != std::string::npos && eq > 0) setenv(item.substr(0, eq).c_str(), item.substr(eq + 1).c_str(), 1);
      start = end + 1;
    }
  }
};

const TestEnvironment kTestEnvironment;

}  // namespace
