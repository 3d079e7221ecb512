// Reading files in tests and benchmarks (conformance programs, expectation lists).
#pragma once

#include <filesystem>
#include <string>

namespace vkhlo::testing {

// The whole file as bytes; empty if it cannot be read (the caller's checks then fail).
std::string ReadFile(const std::filesystem::path& path);

}  // namespace vkhlo::testing
