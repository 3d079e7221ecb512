#include "codegen/reduction/result_writer.h"

#include <fmt/format.h>

#include <algorithm>

namespace vkhlo::codegen::reduction {

uint32_t ResultWriter::PackFor(const std::vector<TypeFacts>& facts) {
  uint32_t pack = 1;
  for (const TypeFacts& f : facts) {
    if (f.storage_bits < 32) pack = std::max<uint32_t>(pack, static_cast<uint32_t>(32 / f.storage_bits));
  }
  return pack;
}

void ResultWriter::Declare(ElementalEmitter& em) const {
  for (size_t k = 0; k < outputs.size(); ++k) {
    const int storage = facts[k].storage_bits;
    if (storage >= 32) continue;
    const uint32_t words = std::max(1u, pack * static_cast<uint32_t>(storage) / 32);
    em.Line(fmt::format("uint pk{}[{}];", k, words));
    for (uint32_t w = 0; w < words; ++w) em.Line(fmt::format("pk{}[{}] = 0u;", k, w));
  }
}

void ResultWriter::Store(ElementalEmitter& em, const std::vector<Expr>& values, const std::string& o,
                         const std::string& e) const {
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Expr raw = em.Raw(values[k]);
    const int storage = facts[k].storage_bits;
    if (storage < 32) {
      em.Line(fmt::format("pk{0}[({1} * {2}u) >> 5u] |= ({3} & {4}) << (({1} * {2}u) & 31u);", k, e, storage, raw.code,
                          UintLiteral((1ull << storage) - 1)));
    } else if (storage == 32) {
      em.Line(fmt::format("{}[{}] = {};", outputs[k], o, raw.code));
    } else {
      const int words = storage / 32;
      for (int w = 0; w < words; ++w) {
        em.Line(fmt::format("{}[{}u * {} + {}u] = {}[{}];", outputs[k], words, o, w, raw.code, w));
      }
    }
  }
}

void ResultWriter::Flush(ElementalEmitter& em, const std::string& first) const {
  for (size_t k = 0; k < outputs.size(); ++k) {
    const int storage = facts[k].storage_bits;
    if (storage >= 32) continue;
    const uint32_t per_word = 32 / static_cast<uint32_t>(storage);
    const uint32_t words = pack / per_word;
    for (uint32_t w = 0; w < words; ++w) {
      em.Line(fmt::format("if ({0} + {1}u < {2}) {3}[({0}) / {4}u + {5}u] = pk{6}[{5}];", first, w * per_word,
                          UintLiteral(static_cast<uint64_t>(rows)), outputs[k], per_word, w, k));
    }
  }
}

}  // namespace vkhlo::codegen::reduction
