#include "codegen/library/index_map.h"

#include <fmt/format.h>

namespace vkhlo::codegen::library {

int64_t AxisMap::size() const {
  int64_t n = 1;
  for (const auto& p : parts) n *= p.size;
  return n;
}

AxisMap AxisMap::Simplified() const {
  AxisMap out;
  for (const auto& p : parts) {
    if (p.size == 1) continue;
    if (!out.parts.empty() && out.parts.back().stride == p.stride * p.size) {
      out.parts.back() = {out.parts.back().size * p.size, p.stride};
      continue;
    }
    out.parts.push_back(p);
  }
  return out;
}

bool AxisMap::IsStride(int64_t stride) const {
  const AxisMap s = Simplified();
  return s.parts.empty() || (s.parts.size() == 1 && s.parts[0].stride == stride);
}

bool AxisMap::IsUnitStride() const { return IsStride(1); }

bool AxisMap::StridesMultipleOf(int64_t n) const {
  for (const auto& p : Simplified().parts) {
    if (p.stride % n != 0) return false;
  }
  return true;
}

std::string AxisMap::Offset(const std::string& i) const {
  const AxisMap s = Simplified();
  if (s.parts.empty()) return "0u";
  std::string out;
  // Innermost part first: offset += (i % size) * stride; i /= size.
  int64_t divisor = 1;
  for (size_t n = s.parts.size(); n-- > 0;) {
    const AxisPart& p = s.parts[n];
    std::string index = divisor == 1 ? fmt::format("({})", i) : fmt::format("(({}) / {}u)", i, divisor);
    if (n != 0) index = fmt::format("({} % {}u)", index, p.size);
    const std::string term = p.stride == 1 ? index : fmt::format("{} * {}u", index, p.stride);
    out = out.empty() ? term : out + " + " + term;
    divisor *= p.size;
  }
  return "(" + out + ")";
}

int64_t AxisMap::OffsetOf(int64_t i) const {
  int64_t off = 0;
  for (size_t n = parts.size(); n-- > 0;) {
    off += (i % parts[n].size) * parts[n].stride;
    i /= parts[n].size;
  }
  return off;
}

std::string AxisMap::ToString() const {
  std::string out = "[";
  for (size_t n = 0; n < parts.size(); ++n) {
    out += fmt::format("{}{}:{}", n ? ", " : "", parts[n].size, parts[n].stride);
  }
  return out + "]";
}

AxisMap MapOfDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  AxisMap map;
  for (int64_t d : dims) map.parts.push_back({shape[static_cast<size_t>(d)], strides[static_cast<size_t>(d)]});
  return map;
}

}  // namespace vkhlo::codegen::library
