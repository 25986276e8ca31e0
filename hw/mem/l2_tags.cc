#include "hw/mem/l2_tags.h"

#include <string>

#include "isa/error.h"

namespace npu::hw {

L2Tags::L2Tags(uint32_t sets, uint32_t ways, uint32_t line_bytes,
               std::unique_ptr<ReplacementPolicy> policy)
    : sets_(sets), ways_(ways), line_(line_bytes), sets_div_(sets), policy_(std::move(policy)),
      lines_(static_cast<size_t>(sets) * ways), keys_(static_cast<size_t>(sets) * ways, 0) {
  if (sets == 0 || ways == 0 || !policy_) throw Error("L2Tags needs sets, ways and a policy");
}

namespace {

// The key of a valid line of this tag (tag + 1; 0 marks an invalid way).
uint32_t key_of(uint64_t tag) {
  if (tag >= 0xFFFFFFFFu) throw Error("L2 tag " + std::to_string(tag) + " beyond the tag store's 32 bits");
  return static_cast<uint32_t>(tag + 1);
}

}  // namespace

int L2Tags::find(uint64_t block) const {
  const uint64_t tag = sets_div_.div(block);
  if (tag >= 0xFFFFFFFFu) return -1;  // never inserted (key_of refuses it)
  const uint32_t key = static_cast<uint32_t>(tag + 1);
  const uint32_t* set = &keys_[size_t(set_of(block)) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w] == key) return static_cast<int>(w);
  return -1;
}

L2Tags::Fill L2Tags::insert(uint64_t block, const L2Access& a, bool dirty) {
  const uint32_t key = key_of(sets_div_.div(block));
  const uint32_t s = set_of(block);
  Line* set = &lines_[size_t(s) * ways_];
  Fill fill;
  uint32_t way = ways_;
  const uint32_t* keys = &keys_[size_t(s) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (!keys[w]) { way = w; break; }
  if (way == ways_) {
    way = policy_->victim(s, a);
    const Line& v = set[way];
    fill.evicted = Evicted{true, v.dirty, uint64_t(keys[way] - 1) * sets_ + s, v.region};
  } else {
    ++valid_count_;
  }
  set[way] = Line{a.region, dirty};
  keys_[size_t(s) * ways_ + way] = key;
  policy_->reset(s, way, a);
  fill.way = way;
  return fill;
}

L2Tags::Evicted L2Tags::invalidate(uint64_t block) {
  int w = find(block);
  if (w < 0) return {};
  Line& l = line_mut(block, uint32_t(w));
  Evicted e{true, l.dirty, block, l.region};
  l = Line{};
  keys_[slot(block, uint32_t(w))] = 0;
  --valid_count_;
  policy_->invalidate(set_of(block), uint32_t(w));
  return e;
}

uint64_t L2Tags::dirty_lines() const {
  uint64_t n = 0;
  for (size_t i = 0; i < lines_.size(); ++i) n += keys_[i] != 0 && lines_[i].dirty;
  return n;
}

}  // namespace npu::hw
