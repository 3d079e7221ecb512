#include "tools/common/npy.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace vkhlo::tools {
namespace {

struct DtypeName {
  ir::ElementType type;
  const char* descr;
};
constexpr DtypeName kDtypes[] = {
    {ir::ElementType::kI1, "|b1"},  {ir::ElementType::kS8, "|i1"},   {ir::ElementType::kS16, "<i2"},
    {ir::ElementType::kS32, "<i4"}, {ir::ElementType::kS64, "<i8"},  {ir::ElementType::kU8, "|u1"},
    {ir::ElementType::kU16, "<u2"}, {ir::ElementType::kU32, "<u4"},  {ir::ElementType::kU64, "<u8"},
    {ir::ElementType::kF16, "<f2"}, {ir::ElementType::kF32, "<f4"},  {ir::ElementType::kF64, "<f8"},
    {ir::ElementType::kC64, "<c8"}, {ir::ElementType::kC128, "<c16"},
};

// The value of `key` in the header dict, e.g. 'descr': '<f4' -> "<f4".
std::string HeaderValue(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return "";
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return "";
  size_t start = header.find_first_not_of(" ", colon + 1);
  if (start == std::string::npos) return "";
  if (header[start] == '\'') {
    size_t end = header.find('\'', start + 1);
    return end == std::string::npos ? "" : header.substr(start + 1, end - start - 1);
  }
  if (header[start] == '(') {
    size_t end = header.find(')', start);
    return end == std::string::npos ? "" : header.substr(start, end - start + 1);
  }
  size_t end = header.find_first_of(",}", start);
  return header.substr(start, end - start);
}

}  // namespace

StatusOr<ir::Literal> ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot open '" + path + "'");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return InvalidArgumentError(path + ": not a valid .npy file: " + why); };
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) return bad("missing the \\x93NUMPY magic");
  const int major = static_cast<unsigned char>(data[6]);
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) return bad("truncated header");
    uint32_t len;
    std::memcpy(&len, data.data() + 8, 4);
    header_len = len;
    offset = 12;
  } else {
    return bad(fmt::format("format version {}", major));
  }
  if (offset + header_len > data.size()) return bad("truncated header");
  const std::string header = data.substr(offset, header_len);
  const std::string descr = HeaderValue(header, "descr");
  if (HeaderValue(header, "fortran_order") != "False") return bad("only C-order arrays are supported");
  const std::string shape_text = HeaderValue(header, "shape");
  std::vector<int64_t> dims;
  for (size_t i = 1; i + 1 < shape_text.size();) {
    size_t j = shape_text.find_first_of(",)", i);
    std::string item = shape_text.substr(i, j - i);
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) {
      char* end = nullptr;
      long long v = std::strtoll(item.c_str(), &end, 10);
      if (end == item.c_str() || v < 0) return bad("shape " + shape_text);
      dims.push_back(v);
    }
    if (j == std::string::npos) break;
    i = j + 1;
  }
  const DtypeName* dtype = nullptr;
  for (const DtypeName& d : kDtypes) {
    if (descr == d.descr || (descr.size() == 3 && descr[0] == '=' && descr.substr(1) == std::string(d.descr).substr(1))) dtype = &d;
  }
  if (dtype == nullptr) return bad("unsupported dtype '" + descr + "'");
  std::vector<uint8_t> bytes(data.begin() + static_cast<std::ptrdiff_t>(offset + header_len), data.end());
  const ir::Type type = ir::Type::Tensor(dtype->type, dims);
  if (type.num_elements() < 0) return bad("shape overflows");
  auto literal = ir::Literal::FromBytes(type, std::move(bytes));
  if (!literal.ok()) return literal.status().WithContext(path);
  if (literal->is_splat() && literal->num_elements() != 1) VKHLO_RETURN_IF_ERROR(literal->Expand());
  return literal;
}

Status WriteNpy(const std::string& path, const ir::Literal& literal) {
  const DtypeName* dtype = nullptr;
  for (const DtypeName& d : kDtypes) {
    if (d.type == literal.element_type()) dtype = &d;
  }
  if (dtype == nullptr) {
    return InvalidArgumentError(fmt::format("cannot write {} to .npy: NumPy has no standard dtype for {}",
                                            literal.type().ToString(), ir::ElementTypeName(literal.element_type())));
  }
  const auto& dims = literal.type().dims();
  const std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0]) : fmt::format("({})", fmt::join(dims, ", "));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", dtype->descr, shape);
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return NotFoundError("cannot write '" + path + "'");
  out.write("\x93NUMPY\x01\x00", 8);
  const uint16_t len = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char*>(&len), 2);
  out << header;
  ir::Literal copy = literal;
  if (copy.is_splat()) VKHLO_RETURN_IF_ERROR(copy.Expand());
  out.write(reinterpret_cast<const char*>(copy.raw().data()), static_cast<std::streamsize>(copy.raw().size()));
  if (!out) return DataLossError("error writing '" + path + "'");
  return OkStatus();
}

}  // namespace vkhlo::tools
