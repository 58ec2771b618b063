#include "legion_import/critical_path.hpp"

#include <utility>

#include "legion_import/id_map.hpp"

namespace legato::legion {

namespace {

// What an event resolves to: when it triggered, and the item (by fevent)
// on the path through it. known = false for events no record produced.
struct Resolved {
  uint64_t trigger = 0;
  uint64_t item = 0;
  bool known = false;
};

// The event graph of one or more files, events looked up through one id
// map (an item's fevent, else an event record's result) and resolved
// events memoised per event record.
class Graph {
 public:
  explicit Graph(const std::vector<const PathInputs*>& files) : files_(files) {
    size_t items = 0, events = 0;
    for (const PathInputs* f : files) {
      event_base_.push_back(events);
      items += f->items.size();
      events += f->events.size();
    }
    where_.reserve(items + events);
    reserve_huge(memo_, events);
    memo_.resize(events);
    constexpr size_t kAhead = 8;  // keys prefetched ahead (IdMap::prefetch)
    for (size_t k = 0; k < files.size(); ++k) {
      const auto& f = files[k]->items;
      for (size_t i = 0; i < f.size(); ++i) {
        if (i + kAhead < f.size()) where_.prefetch(f[i + kAhead].fevent);
        if (f[i].fevent != 0) where_.try_emplace(f[i].fevent, kItem | at(k, i));
      }
    }
    for (size_t k = 0; k < files.size(); ++k) {
      const auto& f = files[k]->events;
      for (size_t i = 0; i < f.size(); ++i) {
        if (i + kAhead < f.size()) where_.prefetch(f[i + kAhead].result);
        if (f[i].result != 0) where_.try_emplace(f[i].result, at(k, i));
      }
    }
  }

  Resolved resolve(uint64_t event) {
    const Where* w = where_.find(event);
    if (!w) return Resolved{};
    if (is_item(*w)) return Resolved{item(*w).stop, event, true};
    if (memo(*w).done) return memo(*w).r;
    // Iterative depth-first: a node is computed once all its preconditions are.
    stack_.assign(1, {*w, false});
    while (!stack_.empty()) {
      const auto [n, expanded] = stack_.back();
      Memo& m = memo(n);
      if (m.done) {
        stack_.pop_back();
        continue;
      }
      const EventNode& node = event_node(n);
      if (!expanded) {
        stack_.back().second = true;
        m.visiting = true;
        for (uint64_t p : node.pre) {
          const Where* pw = p == 0 ? nullptr : where_.find(p);
          if (pw && !is_item(*pw) && !memo(*pw).done && !memo(*pw).visiting)
            stack_.emplace_back(*pw, false);
        }
        continue;
      }
      stack_.pop_back();
      // The precondition that triggered last (a completion queue: first)
      // gated this event if it triggered after the event was created;
      // otherwise the event itself did, and its performer is on the path.
      Resolved best;
      for (uint64_t p : node.pre) {
        const Where* pw = p == 0 ? nullptr : where_.find(p);
        if (!pw) continue;  // no record produced it
        Resolved r;
        if (is_item(*pw)) {
          r = Resolved{item(*pw).stop, p, true};
        } else if (memo(*pw).done) {
          r = memo(*pw).r;
        } else {
          continue;  // a cycle
        }
        if (!r.known) continue;
        const bool better =
            !best.known || (node.type == EventNode::CompletionQueue ? r.trigger < best.trigger
                                                                    : r.trigger > best.trigger);
        if (better) best = r;
      }
      m.visiting = false;
      m.done = true;
      m.r = best.known && best.trigger > node.performed
                ? best
                : Resolved{node.performed, node.performer, true};
    }
    return memo(*w).r;
  }

  // Starts loading what resolving `event` reads, one stage at a time: 0,
  // its slot; 1, its record and memo; 2, its preconditions' slots; 3,
  // their items or memos. Each stage needs the last one's lines in the
  // cache, so a loop runs the stages for items a few apart. Always inlined,
  // or the prefetches are dropped (IdMap::prefetch).
  [[gnu::always_inline]] void prefetch(uint64_t event, int stage) const {
    if (stage == 0) return where_.prefetch(event);
    const Where* w = where_.find(event);
    if (!w || is_item(*w)) return;
    const EventNode& node = event_node(*w);
    if (stage == 1) {
      __builtin_prefetch(&node);
      __builtin_prefetch(reinterpret_cast<const char*>(&node) + sizeof(node) - 1);
      return __builtin_prefetch(&memo(*w));
    }
    if (memo(*w).done) return;
    for (uint64_t p : node.pre) {
      if (p == 0) continue;
      if (stage == 2) {
        where_.prefetch(p);
      } else if (const Where* pw = where_.find(p)) {
        if (is_item(*pw)) {
          __builtin_prefetch(&item(*pw));
        } else {
          __builtin_prefetch(&memo(*pw));
        }
      }
    }
  }

  // Each file's items, file after file: f(file, index, item). The lookups
  // of the items' critical events are prefetched ahead (prefetch).
  template <class F>
  void each_item(F&& f) const {
    constexpr size_t kStride = 8;  // items between two prefetch stages
    for (size_t k = 0; k < files_.size(); ++k) {
      const auto& items = files_[k]->items;
      const size_t n = items.size();
      for (size_t i = 0; i < n; ++i) {
        for (int s = 0; s < 4; ++s) {
          const size_t j = i + (4 - s) * kStride;
          if (j < n && items[j].critical != 0) prefetch(items[j].critical, s);
        }
        f(k, i, items[i]);
      }
    }
  }

 private:
  // Where an event is: an item's fevent (kItem set), else an event
  // record's result; the file's index and the index in its table. Eight
  // bytes, so the map's slots take half the cache lines.
  using Where = uint64_t;
  static constexpr Where kItem = Where{1} << 63;
  static constexpr int kFileShift = 40;  // up to 2^40 items or events per file
  static Where at(size_t file, size_t i) { return Where{file} << kFileShift | i; }
  static bool is_item(Where w) { return (w & kItem) != 0; }
  static size_t file(Where w) { return static_cast<size_t>((w & ~kItem) >> kFileShift); }
  static size_t index(Where w) { return static_cast<size_t>(w & ((Where{1} << kFileShift) - 1)); }
  const TimedItem& item(Where w) const { return files_[file(w)]->items[index(w)]; }
  const EventNode& event_node(Where w) const { return files_[file(w)]->events[index(w)]; }
  struct Memo {
    Resolved r;
    bool done = false, visiting = false;
  };
  Memo& memo(Where w) { return memo_[event_base_[file(w)] + index(w)]; }
  const Memo& memo(Where w) const { return memo_[event_base_[file(w)] + index(w)]; }

  const std::vector<const PathInputs*>& files_;
  std::vector<size_t> event_base_;  // per file: the index of its first event in memo_
  IdMap<Where> where_;
  std::vector<Memo> memo_;  // per event, file after file
  std::vector<std::pair<Where, bool>> stack_;
};

}  // namespace

void critical_path_steps(const std::vector<const PathInputs*>& files,
                         const std::function<void(size_t, size_t, const PathStep&)>& step) {
  Graph g(files);
  g.each_item([&](size_t file, size_t i, const TimedItem& it) {
    if (it.critical != 0) {
      const Resolved r = g.resolve(it.critical);
      // Created before its precondition triggered: that precondition's
      // producer held it back. Otherwise it was launched late: its creator.
      if (r.known && r.item != 0 && it.create < r.trigger)
        return step(file, i, PathStep{r.item, true});
    }
    step(file, i, PathStep{it.creator, false});
  });
}

}  // namespace legato::legion
