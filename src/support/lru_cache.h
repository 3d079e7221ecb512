// A map that forgets its least recently used entries beyond a capacity, for vkhlo's in-memory
// caches (SPIR-V by content, pipelines, executables): a long-running process compiling new
// programs must not grow without bound. Capacity is in cost units the caller chooses (bytes,
// or 1 per entry). Not thread-safe: each cache guards it with its own mutex.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

namespace vkhlo {

template <typename Key, typename Value, typename Hash = std::hash<Key>>
class LruCache {
 public:
  // `capacity` 0 keeps nothing (every Insert is evicted at once).
  explicit LruCache(uint64_t capacity) : capacity_(capacity) {}

  // The value for `key`, now the most recently used, or null.
  Value* Find(const Key& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->value;
  }

  // Adds (or replaces) `key` as the most recently used entry, then evicts the least recently
  // used ones while the total cost exceeds the capacity.
  void Insert(const Key& key, Value value, uint64_t cost = 1) {
    Erase(key);
    order_.push_front(Entry{key, std::move(value), cost});
    index_[key] = order_.begin();
    cost_ += cost;
    Shrink();
  }

  void Erase(const Key& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    cost_ -= it->second->cost;
    order_.erase(it->second);
    index_.erase(it);
  }

  // Drops every entry `drop(key, value)` selects (not counted as evictions).
  void EraseIf(const std::function<bool(const Key&, const Value&)>& drop) {
    for (auto it = order_.begin(); it != order_.end();) {
      if (drop(it->key, it->value)) {
        cost_ -= it->cost;
        index_.erase(it->key);
        it = order_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void Clear() {
    order_.clear();
    index_.clear();
    cost_ = 0;
  }

  void set_capacity(uint64_t capacity) {
    capacity_ = capacity;
    Shrink();
  }
  uint64_t capacity() const { return capacity_; }
  uint64_t cost() const { return cost_; }
  size_t size() const { return order_.size(); }
  uint64_t evictions() const { return evictions_; }

 private:
  struct Entry {
    Key key;
    Value value;
    uint64_t cost;
  };

  void Shrink() {
    while (cost_ > capacity_ && !order_.empty()) {
      cost_ -= order_.back().cost;
      index_.erase(order_.back().key);
      order_.pop_back();
      ++evictions_;
    }
  }

  uint64_t capacity_;
  uint64_t cost_ = 0;
  uint64_t evictions_ = 0;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
};

}  // namespace vkhlo
